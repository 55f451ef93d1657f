//! `skilltui win SKILL --agent ID [--dry-run|--yes] [--json]`: every way to make this copy the
//! one the agent lists under its name (rename either copy, move or link this one into a root
//! that ranks higher, remove the other), each with the agents it gains and loses, best first
//! (`actions::planner`); `--yes` applies the first through the journal (`skilltui undo` reverts
//! it). Without `--yes` on a terminal it asks; without a terminal it changes nothing and says so.
//! The plan printing and JSON here are shared with `share`.

use super::context::{Common, Context};
use super::rename::Confirm;
use super::{CliError, EXIT_FINDING, EXIT_OK, Outcome};
use crate::actions::planner::{self, Candidate, Effect, Predicted};
use crate::actions::{self, Op, Refusal, RefusalKind};
use crate::catalog::{Catalog, Skill};
use crate::live::Live;
use serde_json::{Value, json};
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill: its folder, its SKILL.md, or its name when one copy holds it.
    #[arg(value_name = "SKILL")]
    pub skill: PathBuf,
    /// The agent that should list this copy (id, column label or name).
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
    let live = Live::new(Arc::new(cx.models.clone()), cx.env.clone());
    let cat = live.catalog().clone();
    let skill = find(&cat, &args.skill, Some(&agent))
        .map_err(|r| cx.refused(&r))?
        .path
        .clone();
    let cands = planner::win(&live, &cx.env, &skill, &agent, &AtomicBool::new(false))
        .map_err(|r| cx.refused(&r))?;
    let head = format!("make {} win for {agent}", cx.show(&skill),);
    finish(
        &cx,
        &head,
        &json!({"skill": skill, "agent": agent}),
        &cands,
        args.json,
        &args.confirm,
        out,
        err,
    )
}

/// A skill for a command-line argument: a path (`actions::find_skill`), else a name held by one
/// copy (with `agent`, the copies that agent does not list are preferred... all are listed when
/// several remain).
pub fn find<'a>(cat: &'a Catalog, arg: &Path, agent: Option<&str>) -> Result<&'a Skill, Refusal> {
    let by_path = actions::find_skill(cat, arg);
    if by_path.is_ok() {
        return by_path;
    }
    let name = arg.to_string_lossy();
    let copies: Vec<&Skill> = cat
        .skills
        .iter()
        .map(|s| &**s)
        .filter(|s| s.label() == name || s.dir == name)
        .collect();
    match copies.as_slice() {
        [] => by_path,
        [one] => Ok(one),
        many => {
            // For `win`, the one copy the agent does not list is the one meant.
            if let Some(a) = agent {
                let hidden: Vec<&&Skill> = many
                    .iter()
                    .filter(|s| {
                        s.verdict(a)
                            .is_some_and(|v| v.status != crate::resolve::Status::Visible)
                    })
                    .collect();
                if let [one] = hidden.as_slice() {
                    return Ok(one);
                }
            }
            let env = crate::env::Env::new(&cat.project, &cat.home);
            let list: Vec<String> = many
                .iter()
                .map(|s| super::context::show_path(&env, &s.path))
                .collect();
            Err(Refusal::new(
                RefusalKind::Ambiguous,
                format!(
                    "`{name}` is held by {} copies; give one of them: {}",
                    many.len(),
                    list.join(", ")
                ),
            ))
        }
    }
}

/// An operation as JSON.
pub fn step_json(op: &Op) -> Value {
    match op {
        Op::Write { path, old, .. } => {
            json!({"op": if old.is_some() { "write" } else { "create" }, "path": path})
        }
        Op::CreateDir { path } => json!({"op": "mkdir", "path": path}),
        Op::Rename { from, to } => json!({"op": "rename", "from": from, "to": to}),
        Op::Copy { from, to } => json!({"op": "copy", "from": from, "to": to}),
        Op::Symlink { target, link } => json!({"op": "symlink", "target": target, "link": link}),
        Op::Trash { path } => json!({"op": "trash", "path": path}),
    }
}

fn effect_json(e: &Effect) -> Value {
    json!({
        "agent": e.agent,
        "path": e.path,
        "name": e.name,
        "before": e.before.map(|s| s.as_str()),
        "after": e.after.map(|s| s.as_str()),
    })
}

/// A candidate as JSON.
pub fn candidate_json(c: &Candidate) -> Value {
    json!({
        "title": c.plan.title,
        "kind": c.kind.code(),
        "achieves": c.achieves,
        "files": c.files,
        "predicted": match c.predicted { Predicted::Overlay => "overlay", Predicted::Mirror => "mirror" },
        "steps": c.plan.ops.iter().map(step_json).collect::<Vec<_>>(),
        "gains": c.gains.iter().map(effect_json).collect::<Vec<_>>(),
        "losses": c.losses.iter().map(effect_json).collect::<Vec<_>>(),
        "notes": c.plan.notes,
    })
}

fn effects_text(cx: &Context, es: &[Effect]) -> String {
    let parts: Vec<String> = es
        .iter()
        .map(|e| format!("{} ({})", e.agent, cx.show(&e.path)))
        .collect();
    parts.join(", ")
}

/// The plans as text, best first, losses marked.
pub fn print_candidates(
    cx: &Context,
    head: &str,
    cands: &[Candidate],
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(
        out,
        "{}: {} plan{}, best first",
        cx.say(head),
        cands.len(),
        if cands.len() == 1 { "" } else { "s" }
    )?;
    for (i, c) in cands.iter().enumerate() {
        writeln!(out)?;
        let mark = if !c.achieves {
            " (does not reach the goal)".to_string()
        } else if c.losses.is_empty() {
            String::new()
        } else {
            cx.paint(
                "1;31",
                &format!(
                    " (LOSES {})",
                    c.agents_lost().into_iter().collect::<Vec<_>>().join(", ")
                ),
            )
        };
        writeln!(
            out,
            "{}. {} [{} file operation{}]{mark}",
            i + 1,
            cx.say(&c.plan.title),
            c.files,
            if c.files == 1 { "" } else { "s" }
        )?;
        for l in c
            .plan
            .diff
            .lines()
            .filter(|l| !l.starts_with("---") && !l.starts_with("+++"))
        {
            if l.starts_with("@@") {
                continue;
            }
            writeln!(out, "     {}", cx.say(l))?;
        }
        if c.gains.is_empty() {
            writeln!(out, "   gains: none")?;
        } else {
            writeln!(out, "   gains: {}", effects_text(cx, &c.gains))?;
        }
        if c.losses.is_empty() {
            writeln!(out, "   losses: none")?;
        } else {
            let t = format!("   ✗ losses: {}", effects_text(cx, &c.losses));
            writeln!(out, "{}", cx.paint("31", &t))?;
        }
        for n in &c.plan.notes {
            writeln!(out, "   note: {}", cx.say(n))?;
        }
    }
    Ok(())
}

/// Prints the plans (text or JSON), then applies the first when asked.
#[allow(clippy::too_many_arguments)]
pub fn finish(
    cx: &Context,
    head: &str,
    subject: &Value,
    cands: &[Candidate],
    as_json: bool,
    flags: &Confirm,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    let best = cands.first().filter(|c| c.achieves);
    // Decide whether to apply before printing (JSON is one document).
    let tty = io::stdin().is_terminal();
    let mut apply = flags.yes && !flags.dry_run && best.is_some();
    let mut said_dry = flags.dry_run;
    if !as_json {
        print_candidates(cx, head, cands, out)?;
        writeln!(out)?;
    }
    if !flags.yes && !flags.dry_run && best.is_some() {
        if tty && !as_json {
            write!(out, "Apply plan 1? [y/N] ")?;
            out.flush()?;
            let mut line = String::new();
            io::stdin().lock().read_line(&mut line)?;
            apply = matches!(line.trim(), "y" | "Y" | "yes");
            if !apply {
                writeln!(out, "Nothing changed.")?;
            }
        } else {
            said_dry = true;
            writeln!(
                err,
                "skilltui: no --yes and standard input is not a terminal: a dry run, nothing changed (pass --yes to apply plan 1)"
            )?;
        }
    }
    let mut applied: Option<Value> = None;
    if apply && let Some(c) = best {
        let entry = actions::apply(&c.plan).map_err(|r| cx.refused(&r))?;
        if !as_json {
            cx.report_applied(out, &entry)?;
        }
        applied = Some(json!({"title": entry.title, "journal": entry.id}));
    } else if said_dry && !as_json {
        writeln!(out, "(dry run: nothing changed)")?;
    }
    if as_json {
        let mut doc = subject.clone();
        doc["plans"] = Value::Array(cands.iter().map(candidate_json).collect());
        doc["applied"] = applied.clone().unwrap_or(Value::Null);
        serde_json::to_writer_pretty(&mut *out, &doc)?;
        writeln!(out)?;
    }
    if best.is_none() {
        writeln!(err, "skilltui: no plan reaches the goal")?;
        return Ok(EXIT_FINDING);
    }
    Ok(EXIT_OK)
}
