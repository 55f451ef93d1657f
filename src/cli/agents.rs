//! `skilltui agents [ID]`: each agent, its version and its rules with sources.

use super::context::{Common, Context};
use super::{EXIT_OK, ExitCode};
use crate::agents::RuleView;
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
    rules: Vec<RuleView>,
}

fn citation(r: &RuleView) -> String {
    match r.version.as_deref().or(r.commit.as_deref()) {
        Some(v) => format!("[{} {v}]", r.evidence),
        None => format!("[{}]", r.evidence),
    }
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
    let chosen = args.agent.clone().or_else(|| args.agent_opt.clone());
    let chosen = match chosen.map(|a| cx.resolve_agents(std::slice::from_ref(&a))) {
        Some(Ok(ids)) => ids.into_iter().next(),
        Some(Err(e)) => return Ok(Err(e)),
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
        if args.json {
            serde_json::to_writer_pretty(&mut *out, &crate::agents::sources::legend())?;
            writeln!(out)?;
        } else {
            for l in crate::agents::sources::legend_lines() {
                writeln!(out, "{l}")?;
            }
        }
        return Ok(Ok(EXIT_OK));
    }
    if args.verify {
        let only: Vec<String> = args.agent.iter().cloned().collect();
        let results = crate::oracle::verify::verify(&cx.models, &cx.env, &only);
        let mut disagree = false;
        if args.json {
            let json: Vec<serde_json::Value> = results
                .iter()
                .map(|(a, o)| match o {
                    crate::oracle::verify::Outcome::NotInstalled => {
                        serde_json::json!({"agent": a, "status": "not-installed"})
                    }
                    crate::oracle::verify::Outcome::Failed(e) => {
                        serde_json::json!({"agent": a, "status": "failed", "error": e})
                    }
                    crate::oracle::verify::Outcome::Compared { differences, listed, unknown, from } => {
                        serde_json::json!({"agent": a, "status": if differences.is_empty() { "agrees" } else { "disagrees" },
                            "differences": differences, "listed": listed, "unknown": unknown,
                            "installed": from.to_string_lossy()})
                    }
                })
                .collect();
            disagree = json.iter().any(|v| v["status"] == "disagrees");
            serde_json::to_writer_pretty(&mut *out, &json)?;
            writeln!(out)?;
        } else {
            for (a, o) in &results {
                match o {
                    crate::oracle::verify::Outcome::NotInstalled => {
                        writeln!(out, "{a}: not installed (global npm or the oracle's cache)")?
                    }
                    crate::oracle::verify::Outcome::Failed(e) => {
                        writeln!(out, "{a}: could not list its skills: {}", cx.say(e))?
                    }
                    crate::oracle::verify::Outcome::Compared {
                        differences,
                        listed,
                        unknown,
                        from,
                    } => {
                        if differences.is_empty() {
                            writeln!(
                                out,
                                "{a}: agrees ({listed} skills listed; {unknown} skilltui marks unknown) — {}",
                                cx.show(from)
                            )?;
                        } else {
                            disagree = true;
                            writeln!(
                                out,
                                "{a}: {} difference(s) — {}",
                                differences.len(),
                                cx.show(from)
                            )?;
                            for d in differences {
                                writeln!(out, "  - {}", cx.say(d))?;
                            }
                        }
                    }
                }
            }
        }
        return Ok(Ok(if disagree {
            super::EXIT_FINDING
        } else {
            EXIT_OK
        }));
    }
    let selected: Vec<_> = cx
        .models
        .iter()
        .filter(|m| args.agent.as_ref().is_none_or(|a| *a == m.id))
        .collect();
    if args.json {
        let json: Vec<AgentJson> = selected
            .iter()
            .map(|m| AgentJson {
                id: &m.id,
                name: &m.name,
                version: &m.version,
                checked: &m.checked,
                docs: m.docs.as_deref(),
                summary: m.summary.as_deref(),
                rules: m.rules(),
            })
            .collect();
        serde_json::to_writer_pretty(&mut *out, &json)?;
        writeln!(out)?;
        return Ok(Ok(EXIT_OK));
    }
    if args.agent.is_none() {
        writeln!(
            out,
            "{:<12}  {:<22}  {:<10}  {:>5}  {:>7}",
            "ID", "NAME", "VERSION", "RULES", "UNKNOWN"
        )?;
        for m in &selected {
            let rules = m.rules();
            let unknown = rules.iter().filter(|r| r.value == "unknown").count();
            writeln!(
                out,
                "{:<12}  {:<22}  {:<10}  {:>5}  {:>7}",
                m.id,
                m.name,
                m.version,
                rules.len(),
                unknown
            )?;
        }
        writeln!(
            out,
            "\n`skilltui agents ID` lists one agent's rules with their sources; `skilltui agents --legend` explains the evidence labels."
        )?;
        return Ok(Ok(EXIT_OK));
    }
    for m in selected {
        writeln!(
            out,
            "{} ({}) — model of version {}, checked {}",
            m.name, m.id, m.version, m.checked
        )?;
        match &m.docs {
            Some(d) => writeln!(out, "the agent's own docs on skills: {}", sanitize::line(d))?,
            None => writeln!(out, "the agent's own docs on skills: unknown")?,
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
    }
    Ok(Ok(EXIT_OK))
}
