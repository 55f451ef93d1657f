//! `skilltui list`: every skill found, with one column per agent.

use super::context::{Common, Context};
use super::{EXIT_OK, ExitCode};
use crate::catalog::Catalog;
use crate::resolve::{Status, Verdict};
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
    /// Show these agents' columns (repeatable or comma-separated; id, column label or name)
    /// [default: the config file's [agents] show, else the agents in use on this machine, else
    /// the seed agents]. JSON always has every agent.
    #[arg(long = "agent", value_name = "AGENT", value_delimiter = ',')]
    pub agents: Vec<String>,
    /// Show every agent's column.
    #[arg(long, conflicts_with = "agents")]
    pub all_agents: bool,
}

/// One character per status (and `~` for visible but hidden from the model).
pub fn glyph(v: &Verdict) -> &'static str {
    match v.status {
        Status::Visible if v.model == Some(false) => "~",
        Status::Visible if v.conditional.is_some() => "◇",
        Status::Visible => "✓",
        Status::Shadowed => "↓",
        Status::Rejected => "✗",
        Status::NotFound => "·",
        Status::Unknown => "?",
    }
}

pub const LEGEND: &str = "✓ visible  ◇ conditional (listed once matching files are touched)  ~ visible, hidden from the model  ↓ shadowed  ✗ rejected  · not found  ? unknown";

/// The short column title of an agent (`claude-code` → `claude`).
pub fn short(id: &str) -> &str {
    id.split('-').next().unwrap_or(id)
}

/// The column title of each model, unique among them: [`short`], or the whole id where two
/// models share it (`claude-code` and `claude-x` keep their ids).
pub fn column_labels(models: &[crate::agents::AgentModel]) -> Vec<String> {
    models
        .iter()
        .map(|m| {
            let s = short(&m.id);
            let shared = models
                .iter()
                .filter(|o| short(&o.id) == s || o.id == s)
                .count()
                > 1;
            if shared { m.id.clone() } else { s.to_string() }
        })
        .collect()
}

pub fn run(
    args: &Args,
    common: &Common,
    out: &mut dyn Write,
) -> io::Result<Result<ExitCode, String>> {
    let cx = match Context::new(common) {
        Ok(cx) => cx,
        Err(e) => return Ok(Err(e)),
    };
    let shown = match cx.shown_agents(&args.agents, args.all_agents) {
        Ok(s) => s,
        Err(e) => return Ok(Err(e)),
    };
    let shown = &shown;
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
                write_matrix(out, &cx, cat, shown)
            }
        });
    }
    let cat = cx.catalog();
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &cat)?;
        writeln!(out)?;
    } else {
        write_matrix(out, &cx, &cat, shown)?;
    }
    Ok(Ok(EXIT_OK))
}

fn write_matrix(
    out: &mut dyn Write,
    cx: &Context,
    cat: &Catalog,
    shown: &super::context::Shown,
) -> io::Result<()> {
    // The columns shown, in the order chosen.
    let cols_at: Vec<usize> = shown
        .ids
        .iter()
        .filter_map(|id| cat.agents.iter().position(|a| &a.id == id))
        .collect();
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
    let labels = column_labels(&cx.models);
    let cols: Vec<&str> = cols_at
        .iter()
        .map(|&i| {
            cx.models
                .iter()
                .position(|m| m.id == cat.agents[i].id)
                .map_or_else(|| short(&cat.agents[i].id), |mi| labels[mi].as_str())
        })
        .collect();
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
        for (&ai, c) in cols_at.iter().zip(&cols) {
            let Some((_, v)) = s.verdicts.get(ai) else {
                continue;
            };
            let g = glyph(v);
            let w = c.chars().count();
            write!(out, "  {g}{}", " ".repeat(w.saturating_sub(1)))?;
        }
        writeln!(out, "  {}", cx.show(&s.path))?;
    }
    let invisible = cat
        .skills
        .iter()
        .filter(|s| {
            cols_at
                .iter()
                .filter_map(|&ai| s.verdicts.get(ai))
                .any(|(_, v)| v.status != Status::Visible)
        })
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
    if let Some(n) = shown.note(cat.agents.len()) {
        writeln!(out, "{n}")?;
    }
    for d in &cat.diagnostics {
        writeln!(out, "note: {}", sanitize::line(d))?;
    }
    Ok(())
}
