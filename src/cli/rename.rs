//! `skilltui rename SKILL NEW_NAME [--folder]`, and the flow every action command shares: plan,
//! print the diff and the verdicts before and after, ask (or `--yes`, or `--dry-run`), apply.

use super::context::{Common, Context};
use super::pick;
use super::{CliError, EXIT_OK, Outcome};
use crate::actions::{self, Plan, Refusal, RefusalKind, Request};
use crate::catalog::{Catalog, Skill};
use crate::sanitize;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// `--dry-run` and `--yes`, shared by the action commands.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Confirm {
    /// Print the diff and the verdicts before and after; change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask for confirmation.
    #[arg(long, short = 'y')]
    pub yes: bool,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill: its name, its folder or its SKILL.md.
    #[arg(value_name = "SKILL")]
    pub skill: PathBuf,
    /// The new frontmatter name (checked against the spec).
    pub new_name: String,
    /// Rename the folder to match.
    #[arg(long)]
    pub folder: bool,
    #[command(flatten)]
    pub confirm: Confirm,
}

pub fn run(args: &Args, common: &Common, out: &mut dyn Write) -> Outcome {
    execute_skill(common, &args.confirm, out, &args.skill, |_, s| {
        Ok(Request::Rename {
            skill: s.path.clone(),
            name: args.new_name.clone(),
            folder: args.folder,
        })
    })
}

/// Prints a plan and its preview.
pub fn print_plan(
    cx: &Context,
    plan: &Plan,
    preview: &actions::Preview,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out, "{}", cx.say(&plan.title))?;
    if !plan.diff.is_empty() {
        writeln!(out)?;
        for l in plan.diff.lines() {
            writeln!(out, "{}", cx.say(l))?;
        }
    }
    for n in &plan.notes {
        writeln!(out, "note: {}", cx.say(n))?;
    }
    writeln!(out)?;
    for l in preview.lines(&cx.env) {
        writeln!(out, "{}", sanitize::line(&l))?;
    }
    Ok(())
}

/// Asks on the terminal; None when standard input is not a terminal.
fn ask(out: &mut dyn Write, question: &str) -> io::Result<Option<bool>> {
    let stdin = io::stdin();
    if !stdin.is_terminal() {
        return Ok(None);
    }
    write!(out, "{question} [y/N] ")?;
    out.flush()?;
    let mut line = String::new();
    stdin.lock().read_line(&mut line)?;
    Ok(Some(matches!(line.trim(), "y" | "Y" | "yes")))
}

/// Asks for confirmation unless `--yes`: [`CliError::Declined`] when the answer is no (after
/// saying "Nothing changed." on `out`), [`CliError::CannotAsk`] without a terminal.
pub fn confirm(confirm: &Confirm, out: &mut dyn Write, question: &str) -> Result<(), CliError> {
    if confirm.yes {
        return Ok(());
    }
    match ask(out, question)? {
        Some(true) => Ok(()),
        Some(false) => {
            writeln!(out, "Nothing changed.")?;
            Err(CliError::Declined)
        }
        None => Err(CliError::CannotAsk),
    }
}

/// The shared flow: catalog, request, plan, preview, confirmation, apply.
pub fn execute(
    common: &Common,
    flags: &Confirm,
    out: &mut dyn Write,
    request: impl FnOnce(&Catalog) -> Result<Request, Refusal>,
) -> Outcome {
    let cx = Context::new(common)?;
    let cat = cx.catalog();
    let req = request(&cat).map_err(|r| cx.refused(&r))?;
    proceed(&cx, &cat, flags, out, req)
}

/// The shared flow for a command on one skill, given by name or path ([`pick::skill`]): a name
/// several skills hold lists them on `err` and exits with the usage status.
pub fn execute_skill(
    common: &Common,
    flags: &Confirm,
    out: &mut dyn Write,
    skill: &Path,
    request: impl FnOnce(&Catalog, &Skill) -> Result<Request, Refusal>,
) -> Outcome {
    let cx = Context::new(common)?;
    let cat = cx.catalog();
    let s = picked(&cx, &cat, skill)?;
    let req = request(&cat, s).map_err(|r| cx.refused(&r))?;
    proceed(&cx, &cat, flags, out, req)
}

/// The skill `arg` names, or why there is none: a refusal (exit 1) when nothing has that name
/// or path, the list of copies (exit 2) when several do.
pub fn picked<'a>(cx: &Context, cat: &'a Catalog, arg: &Path) -> Result<&'a Skill, CliError> {
    pick::skill(cat, arg).map_err(|miss| match miss {
        pick::Miss::NotFound(m) => CliError::Refused(RefusalKind::NotFound, cx.say(&m)),
        pick::Miss::Ambiguous { name, paths } => {
            CliError::Ambiguous(pick::ambiguous_lines(cx, cat, &name, &paths))
        }
    })
}

fn proceed(
    cx: &Context,
    cat: &Catalog,
    flags: &Confirm,
    out: &mut dyn Write,
    req: Request,
) -> Outcome {
    let refused = |r| cx.refused(&r);
    let plan = actions::plan(cat, &cx.models, &cx.env, &req).map_err(refused)?;
    let preview = actions::preview(&plan, &cx.models, &cx.env).map_err(refused)?;
    print_plan(cx, &plan, &preview, out)?;
    if flags.dry_run {
        writeln!(out, "\n(dry run: nothing changed)")?;
        return Ok(EXIT_OK);
    }
    writeln!(out)?;
    confirm(flags, out, "Apply?")?;
    let entry = actions::apply(&plan).map_err(refused)?;
    cx.report_applied(out, &entry)?;
    Ok(EXIT_OK)
}
