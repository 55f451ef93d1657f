//! `skilltui roots`: every folder an agent scans, its scope, whether it exists, and who scans it.

use super::context::{Common, Context};
use super::{EXIT_OK, Outcome};
use std::io::Write;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON: [{"path", "scope", "exists", "agents", "files"}].
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args, common: &Common, out: &mut dyn Write) -> Outcome {
    let cx = Context::new(common)?;
    let cat = cx.catalog();
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &cat.roots)?;
        writeln!(out)?;
        return Ok(EXIT_OK);
    }
    let paths: Vec<String> = cat.roots.iter().map(|r| cx.show(&r.path)).collect();
    let w = paths
        .iter()
        .map(|p| p.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(
        out,
        "{:<w$}  {:<7}  {:>6}  AGENTS",
        "ROOT", "SCOPE", "SKILLS"
    )?;
    for (r, p) in cat.roots.iter().zip(&paths) {
        let count = if r.exists {
            r.files.to_string()
        } else {
            "-".into()
        };
        writeln!(
            out,
            "{p}{}  {:<7}  {:>6}  {}",
            " ".repeat(w - p.chars().count()),
            r.scope.as_str(),
            count,
            r.agents.join(", ")
        )?;
    }
    let existing = cat.roots.iter().filter(|r| r.exists).count();
    writeln!(
        out,
        "\n{} roots, {existing} exist (\"-\": does not exist). Project {}{}",
        cat.roots.len(),
        crate::sanitize::path(&cat.project),
        match &cat.git_root {
            Some(g) => format!(", git root {}", crate::sanitize::path(g)),
            None => ", not in a git repository".into(),
        }
    )?;
    Ok(EXIT_OK)
}
