//! `skilltui check`: one line per finding, like a compiler; exit 1 when a skill is invisible,
//! shadowed or rejected for a selected agent, or breaks the spec.

use super::context::{Common, Context};
use super::{EXIT_FINDING, EXIT_OK, ExitCode};
use serde::Serialize;
use std::io::{self, Write};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Check only these agents (repeatable) [default: every agent].
    #[arg(long = "agent", value_name = "ID")]
    pub agents: Vec<String>,
    /// Print JSON: {"findings": [...], "skills": N, "errors": N, "warnings": N}.
    #[arg(long)]
    pub json: bool,
    /// Keep running: print a fresh result after each change (JSON lines with --json).
    #[arg(long)]
    pub watch: bool,
}

#[derive(Serialize)]
struct Finding {
    path: String,
    line: Option<usize>,
    column: Option<usize>,
    severity: &'static str,
    /// The agent for a verdict finding; null for a spec finding.
    agent: Option<String>,
    /// A verdict status (`not-found`, `shadowed`, `rejected`) or a spec problem code.
    code: String,
    message: String,
    rule: Option<String>,
    source: Option<String>,
    evidence: Option<String>,
}

#[derive(Serialize)]
struct Report {
    skills: usize,
    errors: usize,
    warnings: usize,
    findings: Vec<Finding>,
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
    if let Err(e) = cx.check_agents(&args.agents) {
        return Ok(Err(e));
    }
    if args.watch {
        return cx.watch(out, |out, cat, _| {
            let r = report(cat, args);
            write(out, &cx, args, &r, true)
        });
    }
    let cat = cx.catalog();
    let r = report(&cat, args);
    write(out, &cx, args, &r, false)?;
    Ok(Ok(if r.errors > 0 { EXIT_FINDING } else { EXIT_OK }))
}

fn report(cat: &crate::catalog::Catalog, args: &Args) -> Report {
    let mut findings = Vec::new();
    for s in &cat.skills {
        let path = s.path.to_string_lossy().into_owned();
        for p in &s.problems {
            findings.push(Finding {
                path: path.clone(),
                line: p.line,
                column: p.column,
                severity: p.severity.as_str(),
                agent: None,
                code: p.code.to_string(),
                message: p.message.clone(),
                rule: None,
                source: None,
                evidence: None,
            });
        }
        for (agent, v) in &s.verdicts {
            if !args.agents.is_empty() && !args.agents.contains(agent) {
                continue;
            }
            if !v.status.is_problem() {
                continue;
            }
            let r = v.decisive();
            findings.push(Finding {
                path: path.clone(),
                line: None,
                column: None,
                severity: "error",
                agent: Some(agent.clone()),
                code: v.status.as_str().to_string(),
                message: r.map(|r| r.message.clone()).unwrap_or_default(),
                rule: r.map(|r| r.rule.clone()),
                source: r.map(|r| r.source.to_string()),
                evidence: r.map(|r| r.evidence.to_string()),
            });
        }
    }
    let errors = findings.iter().filter(|f| f.severity == "error").count();
    Report {
        skills: cat.skills.len(),
        errors,
        warnings: findings.len() - errors,
        findings,
    }
}

fn write(
    out: &mut dyn Write,
    cx: &Context,
    args: &Args,
    r: &Report,
    lines: bool,
) -> io::Result<()> {
    if args.json {
        if lines {
            serde_json::to_writer(&mut *out, r)?;
        } else {
            serde_json::to_writer_pretty(&mut *out, r)?;
        }
        writeln!(out)?;
        return Ok(());
    }
    for f in &r.findings {
        let shown = cx.show(std::path::Path::new(&f.path));
        let at = match (f.line, f.column) {
            (Some(l), Some(c)) => format!("{shown}:{l}:{c}"),
            (Some(l), None) => format!("{shown}:{l}"),
            _ => shown,
        };
        let what = match &f.agent {
            Some(a) => format!("{}[{a}]", f.code),
            None => format!("{}[{}]", f.severity, f.code),
        };
        write!(out, "{at}: {what}: {}", cx.say(&f.message))?;
        match &f.evidence {
            Some(e) => writeln!(out, " {e}")?,
            None => writeln!(out)?,
        }
    }
    let agents = if args.agents.is_empty() {
        "all agents".to_string()
    } else {
        args.agents.join(", ")
    };
    writeln!(
        out,
        "{} skills checked for {agents}: {} error{}, {} warning{}",
        r.skills,
        r.errors,
        if r.errors == 1 { "" } else { "s" },
        r.warnings,
        if r.warnings == 1 { "" } else { "s" }
    )
}
