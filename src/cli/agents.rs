//! `skilltui agents [ID]`: each agent, its version and its rules with sources.

use super::context::{Common, Context};
use super::{EXIT_OK, ExitCode};
use crate::agents::RuleView;
use crate::sanitize;
use serde::Serialize;
use std::io::{self, Write};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Show every rule of this agent.
    #[arg(value_name = "ID")]
    pub agent: Option<String>,
    /// Print JSON: [{"id", "name", "version", "checked", "docs", "rules": [...]}].
    #[arg(long)]
    pub json: bool,
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
    if let Some(a) = &args.agent
        && let Err(e) = cx.check_agents(std::slice::from_ref(a))
    {
        return Ok(Err(e));
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
            "\n`skilltui agents ID` lists one agent's rules with their sources."
        )?;
        return Ok(Ok(EXIT_OK));
    }
    for m in selected {
        writeln!(
            out,
            "{} ({}) — model of version {}, checked {}",
            m.name, m.id, m.version, m.checked
        )?;
        if let Some(d) = &m.docs {
            writeln!(out, "docs: {d}")?;
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
            writeln!(out, "    source: {}", sanitize::line(&r.source))?;
            if let Some(n) = &r.note {
                writeln!(out, "    note: {}", sanitize::line(n))?;
            }
        }
    }
    Ok(Ok(EXIT_OK))
}
