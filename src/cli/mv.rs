//! `skilltui mv SKILL ROOT [--copy|--link]`: move, copy or symlink a skill folder into another
//! root (one of `skilltui roots`), refusing a clash at the destination.

use super::Outcome;
use super::context::Common;
use super::rename::{Confirm, execute_skill};
use crate::actions::{self, Mode, Request};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill: its name, its folder or its SKILL.md.
    #[arg(value_name = "SKILL")]
    pub skill: PathBuf,
    /// The destination root (a folder an agent scans, e.g. .claude/skills).
    #[arg(value_name = "ROOT")]
    pub root: PathBuf,
    /// Copy instead of moving.
    #[arg(long, conflicts_with = "link")]
    pub copy: bool,
    /// Create a symlink in ROOT to the skill folder instead of moving it.
    #[arg(long)]
    pub link: bool,
    #[command(flatten)]
    pub confirm: Confirm,
}

pub fn run(args: &Args, common: &Common, out: &mut dyn Write) -> Outcome {
    let mode = if args.copy {
        Mode::Copy
    } else if args.link {
        Mode::Link
    } else {
        Mode::Move
    };
    execute_skill(common, &args.confirm, out, &args.skill, |cat, s| {
        Ok(Request::Move {
            skill: s.path.clone(),
            root: actions::find_root(cat, &args.root)?,
            mode,
        })
    })
}
