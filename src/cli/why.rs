//! `skilltui why SKILL`: every file named SKILL (frontmatter or folder), or the skill at that
//! path, and, per agent, the chain of reasons with their sources.

use super::context::{Common, Context};
use super::{CliError, EXIT_FINDING, EXIT_OK, Outcome};
use crate::agents::Topic;
use crate::catalog::{Catalog, Skill};
use crate::present::{self, Remedy};
use crate::resolve::{Reason, Status, Verdict};
use crate::sanitize;
use crate::spec::ProblemCode;
use serde::Serialize;
use std::io::{self, Write};

#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// A skill's frontmatter name or folder name (every copy), or a skill folder or SKILL.md.
    #[arg(value_name = "SKILL")]
    pub name: String,
    /// Only this agent (full reasons for it).
    #[arg(long, value_name = "AGENT")]
    pub agent: Option<String>,
    /// Print JSON: the matching skills, as in `list --json`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct WhyJson<'a> {
    name: &'a str,
    skills: Vec<&'a Skill>,
}

fn headline(v: &Verdict, name: &str) -> String {
    let as_name = v.as_name.as_deref().map(sanitize::line).unwrap_or_default();
    match v.status {
        Status::Visible if v.model == Some(false) => {
            format!("visible as `{as_name}`, but hidden from the model")
        }
        Status::Visible if v.conditional.is_some() => {
            format!(
                "visible as `{as_name}`, conditional: listed once files matching {} are touched",
                v.conditional
                    .iter()
                    .flatten()
                    .map(|p| format!("`{}`", sanitize::line(p)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        Status::Visible if as_name != name => format!("visible, as `{as_name}`"),
        Status::Visible => "visible".into(),
        Status::Shadowed => "shadowed".into(),
        Status::Rejected => "rejected".into(),
        Status::NotFound => "not found".into(),
        Status::Unknown => "unknown".into(),
    }
}

pub fn run(args: &Args, common: &Common, out: &mut dyn Write) -> Outcome {
    let cx = Context::new(common)?;
    let agent = match args
        .agent
        .as_ref()
        .map(|a| cx.resolve_agents(std::slice::from_ref(a)))
    {
        Some(Ok(ids)) => ids.into_iter().next(),
        Some(Err(e)) => return Err(CliError::Usage(e)),
        None => None,
    };
    let args = &Args {
        agent,
        ..args.clone()
    };
    let cat = cx.catalog();
    let (matches, shown_name) = copies_named(&cat, &args.name);
    if args.json {
        serde_json::to_writer_pretty(
            &mut *out,
            &WhyJson {
                name: &shown_name,
                skills: matches.clone(),
            },
        )?;
        writeln!(out)?;
        return Ok(if matches.is_empty() {
            EXIT_FINDING
        } else {
            EXIT_OK
        });
    }
    let name = sanitize::line(&shown_name).into_owned();
    if matches.is_empty() {
        write_not_found(&cat, &args.name, &name, out)?;
        return Ok(EXIT_FINDING);
    }
    writeln!(
        out,
        "`{name}`: {} file{}",
        matches.len(),
        if matches.len() == 1 { "" } else { "s" }
    )?;
    for s in matches {
        writeln!(out)?;
        write_copy(&cx, s, args.agent.as_deref(), out)?;
    }
    Ok(EXIT_OK)
}

/// Every copy holding the name, else the skill at that path (folder or SKILL.md); and the name
/// to show.
fn copies_named<'a>(cat: &'a Catalog, arg: &'a str) -> (Vec<&'a Skill>, String) {
    let mut matches: Vec<&Skill> = cat.named(arg).collect();
    let mut shown_name = arg.to_string();
    if matches.is_empty()
        && let Ok(s) = crate::actions::find_skill(cat, std::path::Path::new(arg))
    {
        matches.push(s);
        shown_name = s.label().to_string();
    }
    (matches, shown_name)
}

/// No copy has the name: say so, with the names near it and where to look.
fn write_not_found(cat: &Catalog, arg: &str, name: &str, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "No SKILL.md with the name or folder `{name}` in any root of any agent."
    )?;
    let lower = arg.to_lowercase();
    let near: Vec<&str> = cat
        .skills
        .iter()
        .map(|s| s.label())
        .filter(|l| {
            let l = l.to_lowercase();
            l.contains(&lower) || lower.contains(&l) || edit_distance(&l, &lower) <= 2
        })
        .collect();
    if !near.is_empty() {
        let near: Vec<String> = near
            .iter()
            .map(|n| sanitize::line(n).into_owned())
            .collect();
        writeln!(out, "Did you mean: {}?", near.join(", "))?;
    }
    writeln!(
        out,
        "`skilltui roots` lists the folders each agent scans; `skilltui list` every skill found."
    )
}

/// One copy: its path and frontmatter, each agent's verdict (or `only`'s), its spec problems.
fn write_copy(cx: &Context, s: &Skill, only: Option<&str>, out: &mut dyn Write) -> io::Result<()> {
    let unparsed = s.problems.iter().any(|p| {
        matches!(
            p.code,
            ProblemCode::YamlInvalid
                | ProblemCode::FrontmatterMissing
                | ProblemCode::FrontmatterUnclosed
                | ProblemCode::FrontmatterNotMapping
        )
    });
    let fm = match &s.name {
        Some(n) => format!("name `{}`", sanitize::line(n)),
        None if unparsed => "frontmatter not valid YAML by the spec".into(),
        None => "no frontmatter name".into(),
    };
    writeln!(
        out,
        "{}  ({} scope, folder `{}`, {fm})",
        cx.show(&s.path),
        s.scope.as_str(),
        sanitize::line(&s.dir)
    )?;
    let width = s.verdicts.iter().map(|(a, _)| a.len()).max().unwrap_or(0);
    for (agent, v) in &s.verdicts {
        if only.is_some_and(|a| *a != **agent) {
            continue;
        }
        write_verdict(cx, s, agent, v, width, only.is_some(), out)?;
    }
    write_spec_problems(cx, s, out)
}

/// One agent's verdict: the answer first (glyph, verdict, the deciding reason and what to do),
/// then the other reasons (for one agent or a problem, all; else only the notes), then the
/// sources, dimmed.
fn write_verdict(
    cx: &Context,
    s: &Skill,
    agent: &str,
    v: &Verdict,
    width: usize,
    one_agent: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let pad = " ".repeat(width + 6);
    let a = present::answer(v);
    let deciding = a.deciding.map(|i| &v.reasons[i]);
    let head = match (v.status, deciding) {
        (Status::Visible, _) => headline(v, s.label()),
        (_, Some(r)) => format!("{}: {} {}", a.label, cx.say(&r.message), r.evidence()),
        (_, None) => a.label.to_string(),
    };
    writeln!(
        out,
        "  {} {agent:<width$}  {head}",
        cx.paint(sgr(v.status), a.glyph)
    )?;
    match &a.remedy {
        Some(Remedy::QuickFix(code)) => writeln!(
            out,
            "{pad}quick fix: skilltui fix {} --only {code}",
            cx.show(&s.path)
        )?,
        Some(Remedy::MakeWin) => {
            if let Some(w) = &v.winner {
                writeln!(out, "{pad}winner: {}", cx.show(w))?;
            }
            writeln!(
                out,
                "{pad}fix: rename one copy (`skilltui rename`) or remove the other (`skilltui rm`)"
            )?;
        }
        Some(Remedy::Relocate) => writeln!(
            out,
            "{pad}fix: move, copy or link it into a root {agent} scans (`skilltui mv`; `skilltui roots` lists them)"
        )?,
        None => {}
    }
    let full = one_agent || v.status != Status::Visible;
    for r in present::other_reasons(v, &a) {
        let boring = matches!(r.topic, Topic::Found | Topic::NameSource);
        if !full && boring {
            continue;
        }
        writeln!(out, "{pad}- {} {}", cx.say(&r.message), r.evidence())?;
        if let Some(fix) = &r.fix {
            writeln!(
                out,
                "{pad}  quick fix: skilltui fix {} --only {fix}",
                cx.show(&s.path)
            )?;
        }
        if full {
            sources(cx, out, &format!("{pad}  "), r)?;
        }
    }
    if let Some(r) = deciding
        && full
    {
        sources(cx, out, &pad, r)?;
    }
    Ok(())
}

/// The specification's problems after the verdicts, counted first.
fn write_spec_problems(cx: &Context, s: &Skill, out: &mut dyn Write) -> io::Result<()> {
    if s.problems.is_empty() {
        return Ok(());
    }
    let errors = s
        .problems
        .iter()
        .filter(|p| p.severity == crate::spec::Severity::Error)
        .count();
    let warnings = s.problems.len() - errors;
    writeln!(
        out,
        "  spec: {errors} error{}, {warnings} warning{}",
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" }
    )?;
    for p in &s.problems {
        writeln!(
            out,
            "    {}[{}]: {}",
            p.severity.as_str(),
            p.code,
            cx.say(&p.message)
        )?;
    }
    Ok(())
}

/// The colour of a status glyph (SGR), as `list` paints it.
fn sgr(s: Status) -> &'static str {
    match s {
        Status::Visible => "32",
        Status::Shadowed => "33",
        Status::Rejected => "31",
        Status::NotFound => "90",
        Status::Unknown => "35",
    }
}

/// A reason's rule and sources, dimmed.
fn sources(cx: &Context, out: &mut dyn Write, pad: &str, r: &Reason) -> io::Result<()> {
    let strength = r.strength().map(|s| format!(" ({s})")).unwrap_or_default();
    if r.sources().iter().next().is_none() {
        let line = format!(
            "rule {}{strength}; source: {}",
            r.rule,
            sanitize::line(r.source())
        );
        writeln!(out, "{pad}{}", cx.paint("2", &line))?;
    } else {
        let line = format!("rule {}{strength}; sources:", r.rule);
        writeln!(out, "{pad}{}", cx.paint("2", &line))?;
        for src in r.sources().iter() {
            let line = sanitize::line(&src.render()).into_owned();
            writeln!(out, "{pad}  {}", cx.paint("2", &line))?;
        }
    }
    Ok(())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
