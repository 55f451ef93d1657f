//! The command line: argument definitions (clap) and one module per subcommand.
//!
//! Exit status: 0 success, 1 a finding (invalid skill, invisible skill), 2 usage or setup error.

pub mod validate;

use clap::{Parser, Subcommand};
use std::io::Write;

/// Exit status of a command.
pub type ExitCode = u8;

pub const EXIT_OK: ExitCode = 0;
pub const EXIT_FINDING: ExitCode = 1;
pub const EXIT_USAGE: ExitCode = 2;

#[derive(Debug, Parser)]
#[command(
    name = "skilltui",
    version,
    about = "Why does this agent not see my skill, and which copy wins?",
    long_about = "skilltui explains, per coding agent (Claude Code, Codex CLI, Copilot CLI, Antigravity, \
Cursor, OpenCode, pi), which Agent Skills (SKILL.md folders) it loads, which copy wins a name \
collision, and why a skill is missing.",
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate skill folders (or SKILL.md files) against the Agent Skills specification.
    ///
    /// Same verdicts as the reference validator skills-ref; exit 0 when all are valid,
    /// 1 when any is invalid, 2 on usage errors.
    Validate(validate::Args),
}

/// Runs a parsed command line, writing to the given streams.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> ExitCode {
    let result = match cli.command {
        Command::Validate(args) => validate::run(&args, out),
    };
    match result {
        Ok(code) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "skilltui: {e}");
            EXIT_USAGE
        }
    }
}

/// Paths given on the command line, kept as given for display.
pub fn display_arg(p: &std::path::Path) -> String {
    crate::sanitize::path(p)
}
