//! `skilltui list`: every skill found, with one column per agent.

use super::context::{Common, Context};
use super::{EXIT_OK, ExitCode};
use crate::catalog::Catalog;
use crate::resolve::Status;
use crate::sanitize;
use std::io::{self, Write};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the catalog as JSON (stable keys; see README).
    #[arg(long)]
    pub json: bool,
    /// Keep running: print a fresh result after each change (JSON lines with --json).
    #[arg(long)]
    pub watch: bool,
}

/// One character per status (and `~` for visible but hidden from the model).
pub use crate::present::{LEGEND, glyph, short};

pub fn run(
    args: &Args,
    common: &Common,
    out: &mut dyn Write,
) -> io::Result<Result<ExitCode, String>> {
    let cx = match Context::new(common) {
        Ok(cx) => cx,
        Err(e) => return Ok(Err(e)),
    };
    if args.watch {
        return cx.watch(out, |out, cat, u| {
            if args.json {
                serde_json::to_writer(&mut *out, cat)?;
                writeln!(out)
            } else {
                if let Some(u) = u {
                    writeln!(
                        out,
                        "── update {}: {} changed ──",
                        u.generation,
                        u.changed.len()
                    )?;
                }
                write_matrix(out, &cx, cat)
            }
        });
    }
    let cat = cx.catalog();
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &cat)?;
        writeln!(out)?;
    } else {
        write_matrix(out, &cx, &cat)?;
    }
    Ok(Ok(EXIT_OK))
}

fn write_matrix(out: &mut dyn Write, cx: &Context, cat: &Catalog) -> io::Result<()> {
    if cat.skills.is_empty() {
        writeln!(
            out,
            "No skills found for {} (home {}). `skilltui roots` lists the folders the agents scan.",
            sanitize::path(&cat.project),
            sanitize::path(&cat.home)
        )?;
        return Ok(());
    }
    let names: Vec<String> = cat
        .skills
        .iter()
        .map(|s| sanitize::line(s.label()).into_owned())
        .collect();
    let name_w = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(5)
        .clamp(5, 40);
    let cols: Vec<&str> = cat.agents.iter().map(|a| short(&a.id)).collect();
    write!(out, "{:<name_w$}  {:<7}", "SKILL", "SCOPE")?;
    for c in &cols {
        write!(out, "  {c}")?;
    }
    writeln!(out, "  PATH")?;
    for (s, name) in cat.skills.iter().zip(&names) {
        let name: String = if name.chars().count() > name_w {
            name.chars().take(name_w - 1).chain(['…']).collect()
        } else {
            name.clone()
        };
        let pad = name_w - name.chars().count();
        write!(out, "{name}{}  {:<7}", " ".repeat(pad), s.scope.as_str())?;
        for ((_, v), c) in s.verdicts.iter().zip(&cols) {
            let g = glyph(v);
            let w = c.chars().count();
            write!(out, "  {g}{}", " ".repeat(w.saturating_sub(1)))?;
        }
        writeln!(out, "  {}", cx.show(&s.path))?;
    }
    let invisible = cat
        .skills
        .iter()
        .filter(|s| s.verdicts.iter().any(|(_, v)| v.status != Status::Visible))
        .count();
    let problems = cat.skills.iter().filter(|s| !s.problems.is_empty()).count();
    writeln!(out)?;
    writeln!(
        out,
        "{} skills, {} not visible to every agent, {} with spec problems. {LEGEND}",
        cat.skills.len(),
        invisible,
        problems
    )?;
    writeln!(out, "`skilltui why NAME` explains a row.")?;
    for d in &cat.diagnostics {
        writeln!(out, "note: {}", sanitize::line(d))?;
    }
    Ok(())
}
