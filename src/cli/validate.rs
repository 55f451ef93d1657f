//! `skilltui validate PATH…`: the spec validator on skill folders or SKILL.md files; a folder
//! that is not a skill but holds skill folders (a root, a repository of skills) validates each.

use super::{EXIT_FINDING, EXIT_OK, Outcome};
use crate::sanitize;
use crate::spec::{self, Report, Severity};
use serde::Serialize;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skill folders or SKILL.md files, or folders holding skill folders (each validated).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Print JSON: [{"path", "valid", "problems": [{"code", "severity", "message", "line"}]}].
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    path: String,
    skill_md: Option<String>,
    valid: bool,
    problems: &'a [spec::Problem],
}

/// The deepest a skill folder is looked for under a folder that is not a skill.
const MAX_DEPTH: usize = 8;
/// The most entries looked at under one such folder.
const MAX_ENTRIES: usize = 200_000;

/// Whether `dir` holds a file named SKILL.md in any case (it is a skill folder, valid or not).
fn holds_skill_md(dir: &Path) -> bool {
    ["SKILL.md", "skill.md"]
        .iter()
        .any(|n| dir.join(n).is_file())
        || std::fs::read_dir(dir).is_ok_and(|rd| {
            rd.flatten().take(10_000).any(|e| {
                e.file_name()
                    .to_str()
                    .is_some_and(|n| n.eq_ignore_ascii_case("SKILL.md"))
                    && e.path().is_file()
            })
        })
}

/// The skill folders under `root` (a folder that is not a skill), as `root` joined with their
/// relative paths, sorted: every folder holding a SKILL.md (any case), not looking inside one,
/// nor into `.git` or `node_modules`; symlinks followed (loops skipped); bounded.
pub fn skill_folders(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut it = walkdir::WalkDir::new(root)
        .min_depth(1)
        .max_depth(MAX_DEPTH)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter();
    let mut seen = 0usize;
    while let Some(e) = it.next() {
        seen += 1;
        if seen > MAX_ENTRIES {
            break;
        }
        let Ok(e) = e else { continue };
        if !e.file_type().is_dir() {
            continue;
        }
        if matches!(e.file_name().to_str(), Some(".git" | "node_modules")) {
            it.skip_current_dir();
            continue;
        }
        if holds_skill_md(e.path()) {
            out.push(e.path().to_path_buf());
            it.skip_current_dir();
        }
    }
    out
}

/// The paths to validate: each argument, or for a folder that is not a skill but holds skill
/// folders, those folders; and whether any argument was expanded.
fn expand(paths: &[PathBuf]) -> (Vec<PathBuf>, bool) {
    let mut out = Vec::new();
    let mut expanded = false;
    for p in paths {
        if p.is_dir() && !holds_skill_md(p) {
            let under = skill_folders(p);
            if !under.is_empty() {
                expanded = true;
                out.extend(under);
                continue;
            }
        }
        out.push(p.clone());
    }
    (out, expanded)
}

pub fn run(args: &Args, out: &mut dyn Write) -> Outcome {
    let (paths, expanded) = expand(&args.paths);
    let reports: Vec<Report> = paths.iter().map(|p| spec::validate_path(p)).collect();
    if args.json {
        let json: Vec<JsonReport> = reports
            .iter()
            .map(|r| JsonReport {
                path: r.dir.to_string_lossy().into_owned(),
                skill_md: r
                    .skill_md
                    .as_ref()
                    .map(|p| p.to_string_lossy().into_owned()),
                valid: r.valid(),
                problems: &r.problems,
            })
            .collect();
        serde_json::to_writer_pretty(&mut *out, &json)?;
        writeln!(out)?;
    } else {
        for (arg, r) in paths.iter().zip(&reports) {
            write_text(out, arg, r)?;
        }
        if reports.len() > 1 || expanded {
            let invalid = reports.iter().filter(|r| !r.valid()).count();
            writeln!(
                out,
                "{} checked: {} valid, {} invalid",
                reports.len(),
                reports.len() - invalid,
                invalid
            )?;
        }
    }
    Ok(if reports.iter().all(Report::valid) {
        EXIT_OK
    } else {
        EXIT_FINDING
    })
}

/// The path a user recognises: the argument as given, pointing at the SKILL.md when read.
fn shown_file(arg: &Path, r: &Report) -> PathBuf {
    match &r.skill_md {
        Some(md) if arg.is_dir() => arg.join(md.file_name().unwrap_or_default()),
        _ => arg.to_path_buf(),
    }
}

fn write_text(out: &mut dyn Write, arg: &Path, r: &Report) -> io::Result<()> {
    let file = sanitize::path(&shown_file(arg, r));
    for p in &r.problems {
        let at = match (p.line, p.column) {
            (Some(l), Some(c)) => format!("{file}:{l}:{c}"),
            (Some(l), None) => format!("{file}:{l}"),
            _ => file.clone(),
        };
        writeln!(
            out,
            "{at}: {}[{}]: {}",
            p.severity.as_str(),
            p.code,
            sanitize::line(&p.message)
        )?;
    }
    if r.valid() {
        let warnings = r
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Warning)
            .count();
        let path = sanitize::path(arg);
        match warnings {
            0 => writeln!(out, "{path}: ok")?,
            1 => writeln!(out, "{path}: ok (1 warning)")?,
            n => writeln!(out, "{path}: ok ({n} warnings)")?,
        }
    }
    Ok(())
}
