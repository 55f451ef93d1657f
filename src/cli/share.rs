//! `skilltui share SKILL... --agent ID [--dry-run|--yes] [--json]`: make skills visible to an
//! agent with the fewest files touched and no agent lost — a symlink (or a copy, for agents that
//! do not follow links) of each into a root the agent scans, one candidate per root and mode,
//! best first (`actions::planner::share`). `--yes` applies the first through the journal.
//! `--root ROOT` shares every skill of a root (a whole cause from `check`).

use super::context::{Common, Context};
use super::rename::Confirm;
use super::win::finish;
use super::{CliError, Outcome};
use crate::actions::{self, planner};
use crate::live::Live;
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skills: folders, SKILL.md files, or names held by one copy.
    #[arg(value_name = "SKILL")]
    pub skills: Vec<PathBuf>,
    /// Every skill in this root (e.g. ~/.agents/skills), besides the SKILL arguments.
    #[arg(long, value_name = "ROOT")]
    pub root: Option<PathBuf>,
    /// The agent that should list them (id, column label or name).
    #[arg(long, value_name = "ID")]
    pub agent: String,
    /// Print the plans as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub confirm: Confirm,
}

pub fn run(args: &Args, common: &Common, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let cx = Context::new(common)?;
    let agent = match cx.resolve_agents(std::slice::from_ref(&args.agent)) {
        Ok(mut a) => a.remove(0),
        Err(e) => return Err(CliError::Usage(e)),
    };
    if args.skills.is_empty() && args.root.is_none() {
        return Err(CliError::Usage(
            "give skills to share, or --root ROOT".into(),
        ));
    }
    let live = Live::new(Arc::new(cx.models.clone()), cx.env.clone());
    let cat = live.catalog().clone();
    let mut paths: Vec<PathBuf> = Vec::new();
    for a in &args.skills {
        let s = super::win::find(&cat, a, None).map_err(|r| cx.refused(&r))?;
        paths.push(s.path.clone());
    }
    if let Some(r) = &args.root {
        let root = actions::find_root(&cat, r).map_err(|r| cx.refused(&r))?;
        paths.extend(
            cat.skills
                .iter()
                .filter(|s| s.root.as_deref() == Some(root.as_path()))
                .map(|s| s.path.clone()),
        );
    }
    paths.sort();
    paths.dedup();
    let cands = planner::share(&live, &cx.env, &paths, &agent, &AtomicBool::new(false))
        .map_err(|r| cx.refused(&r))?;
    let head = if paths.len() == 1 {
        format!("share {} with {agent}", cx.show(&paths[0]))
    } else {
        format!("share {} skills with {agent}", paths.len())
    };
    finish(
        &cx,
        &head,
        &json!({"skills": paths, "agent": agent}),
        &cands,
        args.json,
        &args.confirm,
        out,
        err,
    )
}
