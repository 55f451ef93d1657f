//! The command line: argument definitions (clap) and one module per subcommand.
//!
//! Exit status: [`ExitCode`] (0 success, 1 a finding, 2 usage or setup error); a command
//! returns an [`Outcome`], its status or the [`CliError`] that ends it.

pub mod agents;
pub mod check;
pub mod config;
pub mod fix;
pub mod list;
pub mod mv;
pub mod pick;
pub mod rename;
pub mod rm;
pub mod roots;
pub mod share;
pub mod tokens;
pub mod undo;
pub mod validate;
pub mod why;
pub mod win;

use clap::{Parser, Subcommand};
use std::io::Write;

/// What the front ends share lives below them (`crate::context`); `cli::context` names it.
pub use crate::context;
pub use crate::context::{CliError, EXIT_FINDING, EXIT_OK, EXIT_USAGE, ExitCode, Outcome};

#[derive(Debug, Parser)]
#[command(
    name = "skilltui",
    version,
    about = "Why does this agent not see my skill, and which copy wins?",
    long_about = "skilltui explains, per coding agent (Claude Code, Codex CLI, Copilot CLI, Antigravity, \
Cursor, OpenCode, pi), which Agent Skills (SKILL.md folders) it loads, which copy wins a name \
collision, and why a skill is missing.",
    propagate_version = true,
    after_help = crate::context::ExitCode::help_table()
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub common: context::Common,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate skill folders (or SKILL.md files, or every skill folder under a folder) against
    /// the Agent Skills specification.
    ///
    /// Same verdicts as the reference validator skills-ref; exit 0 when all are valid,
    /// 1 when any is invalid, 2 on usage errors.
    Validate(validate::Args),
    /// List every skill found, with one column per agent.
    List(list::Args),
    /// Explain, per agent, why a skill is visible or not, with the rules and their sources.
    Why(why::Args),
    /// What is broken, for which agent, and what to do: findings grouped by cause.
    ///
    /// Text (grouped, most severe first), JSON, SARIF 2.1.0 or GitHub annotations; exit 1 when
    /// a finding reaches --fail-on (default: error), 2 on usage errors.
    Check(check::Args),
    /// List the folders each agent scans.
    Roots(roots::Args),
    /// Per agent, the size of the skill listing it sends the model against its budget.
    Tokens(tokens::Args),
    /// List the agents and, for one, every rule with its source.
    Agents(agents::Args),
    /// Set a skill's frontmatter name (checked against the spec), and with --folder its folder.
    ///
    /// Shows the diff and every agent's verdict before and after, then asks (--yes: no
    /// question; --dry-run: change nothing). Exit 0 done, 1 refused, 2 no terminal to ask on.
    Rename(rename::Args),
    /// Move, copy (--copy) or symlink (--link) a skill folder into another root.
    Mv(mv::Args),
    /// Apply the quick fixes that apply to a skill (--only CODE, --list).
    Fix(fix::Args),
    /// Move a skill folder to skilltui's trash (undo brings it back).
    Rm(rm::Args),
    /// Every way to make this copy the one an agent lists, with agents gained and lost.
    ///
    /// Rename either copy, move or link this one into a root that ranks higher, or remove the
    /// other; best first (loss-free before lossy). --yes applies the first (undo reverts it);
    /// without --yes and no terminal, a dry run.
    Win(win::Args),
    /// Make skills visible to an agent: a symlink or copy into a root it scans, no agent lost.
    Share(share::Args),
    /// Revert the newest action (from the journal in skilltui's data folder).
    Undo(undo::Args),
    /// The explorer's config file (keymap and theme): print its path, write a commented
    /// default, check it.
    Config(config::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    ///
    /// e.g. `skilltui completions bash > ~/.local/share/bash-completion/completions/skilltui`,
    /// `skilltui completions zsh > ~/.zfunc/_skilltui`,
    /// `skilltui completions fish > ~/.config/fish/completions/skilltui.fish`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), generated from these definitions.
    ///
    /// e.g. `skilltui man > ~/.local/share/man/man1/skilltui.1`, or `skilltui man | man -l -`.
    Man,
}

/// Runs a parsed command line, writing to the given streams.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> ExitCode {
    let common = &cli.common;
    let result = match cli.command {
        None => crate::tui::run(common)
            .map_err(CliError::from)
            .and_then(|r| r.map_err(CliError::Usage)),
        Some(Command::Validate(args)) => validate::run(&args, out),
        Some(Command::List(args)) => list::run(&args, common, out),
        Some(Command::Why(args)) => why::run(&args, common, out),
        Some(Command::Check(args)) => check::run(&args, common, out),
        Some(Command::Roots(args)) => roots::run(&args, common, out),
        Some(Command::Tokens(args)) => tokens::run(&args, common, out),
        Some(Command::Agents(args)) => agents::run(&args, common, out),
        Some(Command::Rename(args)) => rename::run(&args, common, out),
        Some(Command::Mv(args)) => mv::run(&args, common, out),
        Some(Command::Fix(args)) => fix::run(&args, common, out),
        Some(Command::Rm(args)) => rm::run(&args, common, out),
        Some(Command::Win(args)) => win::run(&args, common, out, err),
        Some(Command::Share(args)) => share::run(&args, common, out, err),
        Some(Command::Undo(args)) => undo::run(&args, out),
        Some(Command::Config(args)) => config::run(&args, out),
        Some(Command::Completions { shell }) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut cmd, "skilltui", out);
            Ok(EXIT_OK)
        }
        Some(Command::Man) => {
            let cmd = <Cli as clap::CommandFactory>::command();
            clap_mangen::Man::new(cmd)
                .render(out)
                .map(|()| EXIT_OK)
                .map_err(CliError::from)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            let _ = e.report(err);
            e.exit_code()
        }
    }
}

/// Paths given on the command line, kept as given for display.
pub fn display_arg(p: &std::path::Path) -> String {
    crate::sanitize::path(p)
}
