//! `skilltui agents [ID]`: each agent, its version and its rules with sources.

use super::context::{Common, Context};
use super::{CliError, EXIT_OK};
use crate::agents::{AgentModel, RuleView};
use crate::oracle::verify::{Found, Install, Outcome};
use crate::sanitize;
use serde::Serialize;
use std::io::{self, Write};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Show every rule of this agent (with --verify: verify only this agent).
    #[arg(value_name = "ID")]
    pub agent: Option<String>,
    /// The same as ID.
    #[arg(long = "agent", value_name = "ID", conflicts_with = "agent")]
    pub agent_opt: Option<String>,
    /// Print JSON: [{"id", "name", "version", "checked", "docs", "rules": [...]}].
    #[arg(long)]
    pub json: bool,
    /// Run the agents installed here (Codex, OpenCode, pi, Copilot CLI, Claude Code) on this
    /// project — their own skill listing only: no model call, no skill script — and report
    /// where they and the model disagree. Needs Node.js.
    #[arg(long)]
    pub verify: bool,
    /// Print the evidence legend: each evidence label, what it means, how strong it is, and
    /// the source kinds that back it (with --json: as JSON).
    #[arg(long, conflicts_with = "verify")]
    pub legend: bool,
}

#[derive(Serialize)]
struct AgentJson<'a> {
    id: &'a str,
    name: &'a str,
    version: &'a str,
    checked: &'a str,
    docs: Option<&'a str>,
    summary: Option<&'a str>,
    /// Signs that the agent is in use on this machine (empty: none found).
    in_use: Vec<crate::agents::in_use::Evidence>,
    rules: Vec<RuleView>,
}

/// Prints `agents --verify`'s results; true when an agent disagrees with the model.
fn print_verify(
    cx: &Context,
    results: &[(String, Outcome)],
    json: bool,
    out: &mut dyn Write,
) -> io::Result<bool> {
    if json {
        let json: Vec<serde_json::Value> = results.iter().map(|(a, o)| verify_json(a, o)).collect();
        serde_json::to_writer_pretty(&mut *out, &json)?;
        writeln!(out)?;
        return Ok(json.iter().any(|v| v["status"] == "disagrees"));
    }
    let mut disagree = false;
    for (a, o) in results {
        disagree |= write_verify_outcome(cx, a, o, out)?;
    }
    Ok(disagree)
}

/// One agent's `agents --verify --json` object.
fn verify_json(agent: &str, o: &Outcome) -> serde_json::Value {
    let install_json = |i: &Install| {
        serde_json::json!({"installed": i.from.to_string_lossy(), "found": i.found.as_str(),
            "version": i.version})
    };
    let mut v = match o {
        Outcome::NotInstalled => serde_json::json!({"status": "not-installed"}),
        Outcome::NoOfflineListing => serde_json::json!({"status": "no-offline-listing"}),
        Outcome::Failed {
            install,
            error,
            saved,
        } => {
            let mut v = install.as_ref().map(install_json).unwrap_or_default();
            v["status"] = "failed".into();
            v["error"] = error.as_str().into();
            let saved: Vec<String> = saved.iter().map(|p| p.display().to_string()).collect();
            v["saved"] = saved.into();
            v
        }
        Outcome::Compared {
            install,
            differences,
            listed,
            unknown,
            names_only,
        } => {
            let mut v = install_json(install);
            v["compared"] = if *names_only {
                "names"
            } else {
                "names-and-paths"
            }
            .into();
            v["status"] = if differences.is_empty() {
                "agrees"
            } else {
                "disagrees"
            }
            .into();
            v["differences"] = differences.clone().into();
            v["listed"] = (*listed).into();
            v["unknown"] = (*unknown).into();
            v
        }
    };
    v["agent"] = agent.into();
    v
}

/// An install as text: `0.171.0 (~/bin/codex, on PATH)`.
fn install_text(cx: &Context, i: &Install) -> String {
    let version = i.version.as_deref().unwrap_or("version unknown");
    let found = match i.found {
        Found::Path => "on PATH",
        Found::NpmGlobal => "global npm install",
        Found::OracleCache => "the oracle's pinned release",
    };
    format!("{} ({}, {found})", cx.say(version), cx.show(&i.from))
}

/// Writes one agent's `agents --verify` lines; true when it disagrees with the model.
fn write_verify_outcome(
    cx: &Context,
    a: &str,
    o: &Outcome,
    out: &mut dyn Write,
) -> io::Result<bool> {
    match o {
        Outcome::NotInstalled => writeln!(
            out,
            "{a}: not installed (not on PATH, not a global npm install, not in the oracle's cache)"
        )?,
        Outcome::NoOfflineListing => writeln!(
            out,
            "{a}: no offline listing to run (its model is from documents and source only)"
        )?,
        Outcome::Failed {
            install,
            error,
            saved,
        } => {
            let at = install
                .as_ref()
                .map(|i| format!(" {}", install_text(cx, i)));
            writeln!(
                out,
                "{a}{}: could not list its skills: {}",
                at.unwrap_or_default(),
                cx.say(error)
            )?;
            if !saved.is_empty() {
                let files: Vec<String> = saved.iter().map(|p| cx.show(p)).collect();
                writeln!(out, "  the driver's full output: {}", files.join(", "))?;
            }
        }
        Outcome::Compared {
            install,
            differences,
            listed,
            unknown,
            names_only,
        } => {
            let partly = if *names_only {
                "; names only: the agent lists no paths, so this is partly checked"
            } else {
                ""
            };
            let what = install_text(cx, install);
            if differences.is_empty() {
                writeln!(
                    out,
                    "{a} {what}: agrees ({listed} skills listed; {unknown} skilltui marks unknown{partly})"
                )?;
            } else {
                writeln!(
                    out,
                    "{a} {what}: {} difference(s){partly}",
                    differences.len()
                )?;
                for d in differences {
                    writeln!(out, "  - {}", cx.say(d))?;
                }
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// `in use: `codex` on PATH, ~/.codex exists`, or `-`.
fn in_use_text(used: &Option<crate::agents::InUse>) -> String {
    match used {
        Some(u) => format!(
            "in use: {}",
            sanitize::line(
                &u.evidence
                    .iter()
                    .map(|e| e.describe())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        ),
        None => "-".into(),
    }
}

fn citation(r: &RuleView) -> String {
    match r.version.as_deref().or(r.commit.as_deref()) {
        Some(v) => format!("[{} {v}]", r.evidence),
        None => format!("[{}]", r.evidence),
    }
}

pub fn run(args: &Args, common: &Common, out: &mut dyn Write) -> super::Outcome {
    let cx = Context::new(common)?;
    let chosen = args.agent.clone().or_else(|| args.agent_opt.clone());
    let chosen = match chosen.map(|a| cx.resolve_agents(std::slice::from_ref(&a))) {
        Some(Ok(ids)) => ids.into_iter().next(),
        Some(Err(e)) => return Err(CliError::Usage(e)),
        None => None,
    };
    let args = &Args {
        agent: chosen,
        agent_opt: None,
        json: args.json,
        verify: args.verify,
        legend: args.legend,
    };
    if args.legend {
        write_legend(args.json, out)?;
        return Ok(EXIT_OK);
    }
    if args.verify {
        let only: Vec<String> = args.agent.iter().cloned().collect();
        let results = crate::oracle::verify::verify(&cx.models, &cx.env, &only);
        let disagree = print_verify(&cx, &results, args.json, out)?;
        return Ok(if disagree {
            super::EXIT_FINDING
        } else {
            EXIT_OK
        });
    }
    let selected: Vec<_> = cx
        .models
        .iter()
        .filter(|m| args.agent.as_ref().is_none_or(|a| *a == m.id))
        .collect();
    if args.json {
        write_json(&cx, &selected, out)?;
    } else if args.agent.is_none() {
        write_table(&cx, &selected, out)?;
    } else {
        for m in selected {
            write_rules(&cx, m, out)?;
        }
    }
    Ok(EXIT_OK)
}

/// `--legend`: what each evidence label means.
fn write_legend(json: bool, out: &mut dyn Write) -> io::Result<()> {
    if json {
        serde_json::to_writer_pretty(&mut *out, &crate::agents::sources::legend())?;
        writeln!(out)?;
    } else {
        for l in crate::agents::sources::legend_lines() {
            writeln!(out, "{l}")?;
        }
    }
    Ok(())
}

/// `--json`: each agent with its rules.
fn write_json(cx: &Context, selected: &[&AgentModel], out: &mut dyn Write) -> io::Result<()> {
    let json: Vec<AgentJson> = selected
        .iter()
        .map(|m| AgentJson {
            id: &m.id,
            name: &m.name,
            version: &m.version,
            checked: &m.checked,
            docs: m.docs.as_deref(),
            summary: m.summary.as_deref(),
            in_use: crate::agents::in_use::detect(m, &cx.env)
                .map(|u| u.evidence)
                .unwrap_or_default(),
            rules: m.rules(),
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}

/// The table of agents (id, name, version, rules, unknown rules, in use), then which are in use.
fn write_table(cx: &Context, selected: &[&AgentModel], out: &mut dyn Write) -> io::Result<()> {
    let id_w = selected
        .iter()
        .map(|m| m.id.len())
        .max()
        .unwrap_or(2)
        .max(2);
    let name_w = selected
        .iter()
        .map(|m| m.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(
        out,
        "{:<id_w$}  {:<name_w$}  {:<10}  {:>5}  {:>7}  IN USE",
        "ID", "NAME", "VERSION", "RULES", "UNKNOWN"
    )?;
    let mut any = false;
    for m in selected {
        let rules = m.rules();
        let unknown = rules.iter().filter(|r| r.value == "unknown").count();
        let used = crate::agents::in_use::detect(m, &cx.env);
        any |= used.is_some();
        writeln!(
            out,
            "{:<id_w$}  {:<name_w$}  {:<10}  {:>5}  {:>7}  {}",
            m.id,
            sanitize::line(&m.name),
            m.version,
            rules.len(),
            unknown,
            in_use_text(&used)
        )?;
    }
    let (shown, found) = crate::agents::default_selection(&cx.models, &cx.env);
    writeln!(
        out,
        "\n{}: {}.",
        if found {
            "In use on this machine (what `list`, `check` and the explorer show by default)"
        } else {
            "No agent found in use on this machine (no command on PATH, no agent folder); `list`, `check` and the explorer show the seed agents"
        },
        shown.join(", ")
    )?;
    if !any {
        writeln!(
            out,
            "Each model's `command` and `home` rules say what is looked for."
        )?;
    }
    writeln!(
        out,
        "`skilltui agents ID` lists one agent's rules with their sources; `skilltui agents --legend` explains the evidence labels."
    )?;
    Ok(())
}

/// One agent: its version, docs, whether it is in use, its summary, every rule with its sources.
fn write_rules(cx: &Context, m: &AgentModel, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{} ({}) — model of version {}, checked {}",
        m.name, m.id, m.version, m.checked
    )?;
    match &m.docs {
        Some(d) => writeln!(out, "the agent's own docs on skills: {}", sanitize::line(d))?,
        None => writeln!(out, "the agent's own docs on skills: unknown")?,
    }
    let used = crate::agents::in_use::detect(m, &cx.env);
    match &used {
        Some(_) => writeln!(out, "{}", in_use_text(&used))?,
        None => writeln!(out, "not found in use on this machine")?,
    }
    if let Some(s) = &m.summary {
        writeln!(out, "\n{}\n", sanitize::text(s.trim()))?;
    }
    for r in m.rules() {
        writeln!(
            out,
            "{} = {} {}",
            r.id,
            sanitize::line(&r.value),
            citation(&r)
        )?;
        if r.sources.is_empty() {
            writeln!(out, "    source: (none)")?;
        }
        for src in &r.sources {
            writeln!(out, "    {}", sanitize::line(&src.render()))?;
        }
        if let Some(n) = &r.note {
            writeln!(out, "    note: {}", sanitize::line(n))?;
        }
    }
    Ok(())
}
