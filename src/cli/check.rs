//! `skilltui check`: the catalog's findings ([`crate::findings`]) grouped by cause, most severe
//! first, with a summary per agent; or every finding (`--all`), JSON, SARIF 2.1.0 or GitHub
//! workflow annotations. The exit status follows `--fail-on`.

use super::context::{Common, Context};
use super::{CliError, EXIT_FINDING, EXIT_OK, Outcome};
use crate::catalog::Catalog;
use crate::findings::{self, AgentSummary, Finding, Group, Severity};
use serde::Serialize;
use std::io::{self, Write};
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Grouped by cause, for people.
    Text,
    /// Every finding with its cause, the groups and the per-agent summary.
    Json,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// GitHub Actions workflow annotations (`::error file=…::…`).
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// Exit 1 when there is an error.
    Error,
    /// Exit 1 when there is an error or a warning.
    Warning,
    /// Always exit 0 (2 on usage errors).
    Never,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Check only these agents (repeatable or comma-separated; id, column label or name)
    /// [default: text: the config file's [agents] show, else the agents in use on this machine,
    /// else the seed agents; JSON, SARIF, GitHub: every agent].
    #[arg(long = "agent", value_name = "AGENT", value_delimiter = ',')]
    pub agents: Vec<String>,
    /// Check every agent (the default for JSON, SARIF and GitHub output).
    #[arg(long, conflicts_with = "agents")]
    pub all_agents: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// The JSON schema version: 2 (the default: each rule's source and evidence once, in
    /// `rules`) or 1 (the shape before schema 2: source and evidence on every finding).
    /// Implies --format json.
    #[arg(long, value_name = "N", visible_alias = "format-version", value_parser = clap::value_parser!(u32).range(1..=2))]
    pub json_schema: Option<u32>,
    /// List every finding, one per line, instead of the groups.
    #[arg(long)]
    pub all: bool,
    /// Exit 1 when a finding of this severity (or worse) is found.
    #[arg(long, value_enum, default_value_t = FailOn::Error, value_name = "LEVEL")]
    pub fail_on: FailOn,
    /// Keep running: print a fresh result after each change (JSON lines with --json).
    #[arg(long)]
    pub watch: bool,
}

impl Args {
    fn format(&self) -> Format {
        if self.json || self.json_schema.is_some() {
            Format::Json
        } else {
            self.format
        }
    }
}

/// What `check` reports for one snapshot.
#[derive(Serialize)]
struct Report {
    skills: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
    agents: Vec<AgentSummary>,
    groups: Vec<Group>,
    findings: Vec<Finding>,
}

pub fn run(args: &Args, common: &Common, out: &mut dyn Write) -> Outcome {
    let cx = Context::new(common)?;
    // Text shows the agents chosen or in use; machine formats every agent unless --agent says.
    let all = args.all_agents || (args.agents.is_empty() && args.format() != Format::Text);
    let agents = match cx.shown_agents(&args.agents, all) {
        // Every agent: no filter.
        Ok(s) if s.ids.len() >= cx.models.len() => Vec::new(),
        Ok(s) => s.ids,
        Err(e) => return Err(CliError::Usage(e)),
    };
    if args.watch {
        return cx.watch(out, |out, cat, _| {
            let r = report(cat, &cx, &agents);
            write(out, &cx, args, &agents, &r, true)
        });
    }
    // The skills are made a batch at a time and only their findings kept: the whole catalog
    // is never in memory (at 10k skills its verdicts take hundreds of MB).
    let r = crate::catalog::with_skills(&cx.models, &cx.env, |header, skills| {
        let mut c = findings::Collector::new(header, &cx.models);
        // Each skill's findings are worked out on the core that made it (the skill freed
        // there), and taken in in catalog order.
        let _ = skills.for_each_with(
            |s| findings::skill_findings(header, &cx.models, &s),
            |f| {
                c.take(f);
                Ok::<(), std::convert::Infallible>(())
            },
        );
        report_of(header, c, &agents)
    });
    write(out, &cx, args, &agents, &r, false)?;
    let fail = match args.fail_on {
        FailOn::Error => r.errors > 0,
        FailOn::Warning => r.errors + r.warnings > 0,
        FailOn::Never => false,
    };
    Ok(if fail { EXIT_FINDING } else { EXIT_OK })
}

fn report(cat: &Catalog, cx: &Context, agents: &[String]) -> Report {
    report_of(cat, findings::Collector::over(cat, &cx.models), agents)
}

/// The report of the findings `c` took in (`header`: the catalog's agents and roots).
fn report_of(header: &Catalog, c: findings::Collector, agents: &[String]) -> Report {
    let skills = c.skills();
    let (all, mut summaries) = c.finish();
    let all = findings::for_agents(all, agents);
    let groups = findings::group(header, &all);
    if !agents.is_empty() {
        summaries.retain(|a| agents.contains(&a.id));
    }
    let [errors, warnings, infos] = findings::counts(&all);
    Report {
        skills,
        errors,
        warnings,
        infos,
        agents: summaries,
        groups,
        findings: all,
    }
}

fn write(
    out: &mut dyn Write,
    cx: &Context,
    args: &Args,
    agents: &[String],
    r: &Report,
    lines: bool,
) -> io::Result<()> {
    match args.format() {
        Format::Json if args.json_schema == Some(1) => {
            if lines {
                serde_json::to_writer(&mut *out, r)?;
            } else {
                serde_json::to_writer_pretty(&mut *out, r)?;
            }
            writeln!(out)
        }
        Format::Json => write_json(out, r, lines),
        Format::Sarif => {
            let s = sarif(cx, &r.findings);
            if lines {
                serde_json::to_writer(&mut *out, &s)?;
            } else {
                serde_json::to_writer_pretty(&mut *out, &s)?;
            }
            writeln!(out)
        }
        Format::Github => github(out, cx, &r.findings),
        Format::Text if args.all => {
            for f in &r.findings {
                writeln!(out, "{}", finding_line(cx, f))?;
            }
            totals(out, cx, agents, r)
        }
        Format::Text => text(out, cx, agents, r),
    }
}

/// The schema version of `check --json`.
pub const SCHEMA: u32 = 2;

/// `check --json`, schema 2, streamed: the counts, the per-agent summary, `rules` (each rule a
/// finding cites, with its source and evidence, once), the groups, then the findings one per
/// line without `source` and `evidence` (look the cause's rule up in `rules`).
fn write_json(out: &mut dyn Write, r: &Report, lines: bool) -> io::Result<()> {
    let nl: &[u8] = if lines { b"" } else { b"\n" };
    #[derive(Serialize)]
    struct Head<'a> {
        schema: u32,
        skills: usize,
        errors: usize,
        warnings: usize,
        infos: usize,
        agents: &'a [AgentSummary],
    }
    #[derive(Serialize)]
    struct Rule<'a> {
        id: &'a str,
        source: &'a str,
        evidence: Option<&'a str>,
    }
    /// A finding without what `rules` holds.
    #[derive(Serialize)]
    struct Lean<'a> {
        subject: findings::Subject,
        #[serde(serialize_with = "crate::sanitize::lossy_path::path")]
        path: &'a Path,
        agent: &'a Option<String>,
        severity: Severity,
        code: findings::Code,
        cause: &'a findings::Cause,
        message: &'a str,
        line: Option<usize>,
        column: Option<usize>,
        fix: &'a Option<findings::Fix>,
        enforced_by: &'a [String],
        skills: usize,
    }
    let head = serde_json::to_string(&Head {
        schema: SCHEMA,
        skills: r.skills,
        errors: r.errors,
        warnings: r.warnings,
        infos: r.infos,
        agents: &r.agents,
    })?;
    // The head without its closing brace, then the other keys.
    out.write_all(&head.as_bytes()[..head.len() - 1])?;
    let mut seen = foldhash::HashSet::default();
    out.write_all(b",\"rules\":[")?;
    for f in &r.findings {
        let Some(source) = &f.source else { continue };
        if !seen.insert(f.cause.rule.as_str()) {
            continue;
        }
        if seen.len() > 1 {
            out.write_all(b",")?;
        }
        out.write_all(nl)?;
        serde_json::to_writer(
            &mut *out,
            &Rule {
                id: f.cause.rule.as_str(),
                source,
                evidence: f.evidence.as_deref(),
            },
        )?;
    }
    out.write_all(b"],")?;
    out.write_all(nl)?;
    out.write_all(b"\"groups\":")?;
    serde_json::to_writer(&mut *out, &r.groups)?;
    out.write_all(b",")?;
    out.write_all(nl)?;
    out.write_all(b"\"findings\":[")?;
    for (i, f) in r.findings.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(nl)?;
        serde_json::to_writer(
            &mut *out,
            &Lean {
                subject: f.subject,
                path: &f.path,
                agent: &f.agent,
                severity: f.severity,
                code: f.code,
                cause: &f.cause,
                message: &f.message,
                line: f.line,
                column: f.column,
                fix: &f.fix,
                enforced_by: &f.enforced_by,
                skills: f.skills,
            },
        )?;
    }
    out.write_all(nl)?;
    out.write_all(b"]}\n")
}

fn severity_label(cx: &Context, s: Severity) -> String {
    let code = match s {
        Severity::Error => "1;31",
        Severity::Warning => "1;33",
        Severity::Info => "36",
    };
    cx.paint(code, s.as_str())
}

/// `path:line:col: severity[code] agent: message (cause)`.
fn finding_line(cx: &Context, f: &Finding) -> String {
    let shown = cx.show(&f.path);
    let at = match (f.line, f.column) {
        (Some(l), Some(c)) => format!("{shown}:{l}:{c}"),
        (Some(l), None) => format!("{shown}:{l}"),
        _ => shown,
    };
    let agent = f
        .agent
        .as_deref()
        .map(|a| format!(" {a}"))
        .unwrap_or_default();
    let mut s = format!(
        "{at}: {}[{}]{agent}: {}",
        severity_label(cx, f.severity),
        f.code,
        cx.say(&f.message)
    );
    if let Some(e) = &f.evidence {
        s.push(' ');
        s.push_str(&cx.say(e));
    }
    s
}

/// Lines the groups may take in the text output (headers first; examples and fixes while they
/// fit), so that a large catalog stays on about one screen.
pub const TEXT_LINES: usize = 130;

fn text(out: &mut dyn Write, cx: &Context, agents: &[String], r: &Report) -> io::Result<()> {
    let mut budget = TEXT_LINES.saturating_sub(r.groups.len());
    let mut left_out = 0;
    for g in &r.groups {
        let rules = if g.rules.len() > 1 {
            format!(
                " and {} more rule{}",
                g.rules.len() - 1,
                if g.rules.len() == 2 { "" } else { "s" }
            )
        } else {
            String::new()
        };
        writeln!(
            out,
            "{}[{}] {} ({}{rules})",
            severity_label(cx, g.severity),
            g.code,
            cx.say(&g.summary),
            cx.say(&g.rules[0]),
        )?;
        let details = details(cx, g, r);
        if details.len() <= budget {
            budget -= details.len();
            for d in details {
                writeln!(out, "{d}")?;
            }
        } else {
            left_out += 1;
        }
    }
    if left_out > 0 {
        writeln!(
            out,
            "(examples and fixes of {left_out} group{} left out to fit: --all lists every finding, --format json every group)",
            if left_out == 1 { "" } else { "s" }
        )?;
    }
    if !r.groups.is_empty() {
        writeln!(out)?;
    }
    totals(out, cx, agents, r)
}

/// A group's examples, the count of the others, and its fixes, as indented lines.
fn details(cx: &Context, g: &Group, r: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    let root_group = g.code == findings::Code::RootNotScanned;
    if !root_group {
        for &i in &g.examples {
            let f = &r.findings[i];
            let at = match (f.line, f.column) {
                (Some(l), Some(c)) => format!(":{l}:{c}"),
                (Some(l), None) => format!(":{l}"),
                _ => String::new(),
            };
            let agent = match (&f.agent, g.agents.len() > 1) {
                (Some(a), true) => format!(" [{a}]"),
                _ => String::new(),
            };
            lines.push(format!(
                "  {}{at}{agent}: {}",
                cx.show(&f.path),
                cx.say(&f.message)
            ));
        }
        let more = g.count.saturating_sub(g.examples.len());
        if more > 0 {
            lines.push(format!("  … and {more} more (--all lists every finding)"));
        }
    }
    let shown_fixes = if root_group { 3 } else { 1 };
    for fx in g.fixes.iter().take(shown_fixes) {
        lines.push(format!("  fix: {}", cx.say(&fx.text)));
    }
    if root_group && g.fixes.len() > shown_fixes {
        lines.push(format!(
            "  … {} more fixes (--format json)",
            g.fixes.len() - shown_fixes
        ));
    }
    lines
}

fn totals(out: &mut dyn Write, cx: &Context, agents: &[String], r: &Report) -> io::Result<()> {
    let width = r.agents.iter().map(|a| a.id.len()).max().unwrap_or(0);
    for a in &r.agents {
        writeln!(
            out,
            "{:<width$}  {} of {} visible{}",
            a.id,
            a.visible,
            a.total,
            match a.errors {
                0 => String::new(),
                1 => ", 1 error".into(),
                n => format!(", {n} errors"),
            }
        )?;
    }
    let who = if agents.is_empty() {
        "all agents".to_string()
    } else {
        agents.join(", ")
    };
    let s = |n: usize| if n == 1 { "" } else { "s" };
    writeln!(
        out,
        "{} skill{} checked for {who}: {} error{}, {} warning{}, {} info in {} group{}",
        r.skills,
        s(r.skills),
        r.errors,
        s(r.errors),
        r.warnings,
        s(r.warnings),
        r.infos,
        r.groups.len(),
        s(r.groups.len()),
    )?;
    let _ = cx;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// GitHub workflow commands.

/// Escapes a workflow command's message (`%`, CR, LF).
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value (as data, plus `:` and `,`).
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// A path for annotations and SARIF: relative to the project when inside it, else absolute.
fn file_of(cx: &Context, p: &Path) -> String {
    match p.strip_prefix(&cx.env.project) {
        Ok(rel) => rel.to_string_lossy().into_owned(),
        Err(_) => p.to_string_lossy().into_owned(),
    }
}

fn github(out: &mut dyn Write, cx: &Context, findings: &[Finding]) -> io::Result<()> {
    for f in findings {
        let level = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut props = vec![format!(
            "file={}",
            escape_property(&sanitize_annotation(&file_of(cx, &f.path)))
        )];
        if let Some(l) = f.line {
            props.push(format!("line={l}"));
        }
        if let Some(c) = f.column {
            props.push(format!("col={c}"));
        }
        let title = match &f.agent {
            Some(a) => format!("{} [{a}]", f.code),
            None => f.code.to_string(),
        };
        props.push(format!("title={}", escape_property(&title)));
        let mut message = cx.say(&f.message);
        if let Some(fx) = &f.fix {
            message.push_str("\nfix: ");
            message.push_str(&cx.say(&fx.text));
        }
        message.push_str(&format!("\ncause: {}", cx.say(&f.cause.id())));
        writeln!(
            out,
            "::{level} {}::{}",
            props.join(","),
            escape_data(&message)
        )?;
    }
    Ok(())
}

/// Untrusted path text for a log line: control characters escaped (CR/LF are escaped again by
/// the workflow-command escaping).
fn sanitize_annotation(s: &str) -> String {
    crate::sanitize::line(s).into_owned()
}

// ---------------------------------------------------------------------------------------------
// SARIF 2.1.0 (serde structs: the subset of the schema skilltui fills).

#[derive(Serialize)]
struct Sarif {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<SarifRun>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRun {
    tool: SarifTool,
    original_uri_base_ids: std::collections::BTreeMap<&'static str, SarifArtifactLocation>,
    results: Vec<SarifResult>,
}

#[derive(Serialize)]
struct SarifTool {
    driver: SarifDriver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifDriver {
    name: &'static str,
    version: &'static str,
    information_uri: &'static str,
    rules: Vec<SarifRule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRule {
    id: &'static str,
    name: String,
    short_description: SarifText,
    full_description: SarifText,
    help: SarifText,
    default_configuration: SarifConfiguration,
}

#[derive(Serialize)]
struct SarifConfiguration {
    level: &'static str,
}

#[derive(Serialize)]
struct SarifText {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: SarifText,
    locations: Vec<SarifLocation>,
    properties: SarifProperties,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifProperties {
    agent: Option<String>,
    cause: String,
    fix: Option<String>,
    quick_fix: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifLocation {
    physical_location: SarifPhysical,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifPhysical {
    artifact_location: SarifArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<SarifRegion>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRegion {
    start_line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_column: Option<usize>,
}

fn sarif_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Percent-encodes a path for a URI reference (RFC 3986 unreserved characters and `/` kept).
pub fn uri_path(p: &str) -> String {
    let mut s = String::with_capacity(p.len());
    for b in p.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

fn sarif(cx: &Context, findings: &[Finding]) -> Sarif {
    let rules: Vec<SarifRule> = findings::Code::all()
        .map(|c| SarifRule {
            id: c.as_str(),
            name: c
                .as_str()
                .split('-')
                .map(|w| {
                    let mut ch = w.chars();
                    ch.next()
                        .map(|f| f.to_ascii_uppercase().to_string() + ch.as_str())
                        .unwrap_or_default()
                })
                .collect(),
            short_description: SarifText {
                text: c.description().into(),
            },
            full_description: SarifText {
                text: format!("{} (severity: {})", c.description(), c.severity_note()),
            },
            help: SarifText {
                text: c.help().into(),
            },
            default_configuration: SarifConfiguration {
                level: sarif_level(c.default_severity()),
            },
        })
        .collect();
    let project = format!(
        "{}/",
        cx.env.project.to_string_lossy().trim_end_matches('/')
    );
    let mut bases = std::collections::BTreeMap::new();
    bases.insert(
        "PROJECT",
        SarifArtifactLocation {
            uri: format!("file://{}", uri_path(&project)),
            uri_base_id: None,
        },
    );
    let results = findings
        .iter()
        .map(|f| {
            let inside = f.path.strip_prefix(&cx.env.project).is_ok();
            let file = file_of(cx, &f.path);
            let (uri, base) = if inside {
                (uri_path(&file), Some("PROJECT"))
            } else {
                (format!("file://{}", uri_path(&file)), None)
            };
            let mut text = f.message.clone();
            if let Some(fx) = &f.fix {
                text.push_str("; fix: ");
                text.push_str(&fx.text);
            }
            SarifResult {
                rule_id: f.code.as_str(),
                rule_index: findings::Code::all().position(|c| c == f.code).unwrap_or(0),
                level: sarif_level(f.severity),
                message: SarifText { text },
                locations: vec![SarifLocation {
                    physical_location: SarifPhysical {
                        artifact_location: SarifArtifactLocation {
                            uri,
                            uri_base_id: base,
                        },
                        region: f.line.map(|l| SarifRegion {
                            start_line: l.max(1),
                            start_column: f.column.map(|c| c.max(1)),
                        }),
                    },
                }],
                properties: SarifProperties {
                    agent: f.agent.clone(),
                    cause: f.cause.id(),
                    fix: f.fix.as_ref().map(|x| x.text.clone()),
                    quick_fix: f.fix.as_ref().and_then(|x| x.quick_fix),
                },
            }
        })
        .collect();
    Sarif {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: vec![SarifRun {
            tool: SarifTool {
                driver: SarifDriver {
                    name: "skilltui",
                    version: env!("CARGO_PKG_VERSION"),
                    information_uri: "https://agentskills.io/specification",
                    rules,
                },
            },
            original_uri_base_ids: bases,
            results,
        }],
    }
}
