//! `skilltui validate PATH…`: the spec validator on skill folders or SKILL.md files.

use super::{EXIT_FINDING, EXIT_OK, ExitCode};
use crate::sanitize;
use crate::spec::{self, Report, Severity};
use serde::Serialize;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skill folders or SKILL.md files.
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

pub fn run(args: &Args, out: &mut dyn Write) -> io::Result<ExitCode> {
    let reports: Vec<Report> = args.paths.iter().map(|p| spec::validate_path(p)).collect();
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
        for (arg, r) in args.paths.iter().zip(&reports) {
            write_text(out, arg, r)?;
        }
        if reports.len() > 1 {
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
