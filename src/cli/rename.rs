//! `skilltui rename SKILL NEW_NAME [--folder]`, and the flow every action command shares: plan,
//! print the diff and the verdicts before and after, ask (or `--yes`, or `--dry-run`), apply.

use super::context::{Common, Context};
use super::pick;
use super::{EXIT_FINDING, EXIT_OK, EXIT_USAGE, ExitCode};
use crate::actions::{self, Plan, Refusal, Request};
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

pub fn run(
    args: &Args,
    common: &Common,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<Result<ExitCode, String>> {
    execute_skill(common, &args.confirm, out, err, &args.skill, |_, s| {
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

/// Asks for confirmation unless `--yes`; Err(exit code) when not confirmed.
pub fn confirm(
    confirm: &Confirm,
    out: &mut dyn Write,
    err: &mut dyn Write,
    question: &str,
) -> io::Result<Result<(), ExitCode>> {
    if confirm.yes {
        return Ok(Ok(()));
    }
    match ask(out, question)? {
        Some(true) => Ok(Ok(())),
        Some(false) => {
            writeln!(out, "Nothing changed.")?;
            Ok(Err(EXIT_FINDING))
        }
        None => {
            writeln!(
                err,
                "skilltui: standard input is not a terminal, so skilltui cannot ask; nothing changed (pass --yes to apply, --dry-run to preview)"
            )?;
            Ok(Err(EXIT_USAGE))
        }
    }
}

fn refused(err: &mut dyn Write, cx: &Context, r: &Refusal) -> io::Result<Result<ExitCode, String>> {
    writeln!(err, "skilltui: refused: {}", cx.say(&r.0))?;
    Ok(Ok(EXIT_FINDING))
}

/// The shared flow: catalog, request, plan, preview, confirmation, apply.
pub fn execute(
    common: &Common,
    flags: &Confirm,
    out: &mut dyn Write,
    err: &mut dyn Write,
    request: impl FnOnce(&Catalog) -> Result<Request, Refusal>,
) -> io::Result<Result<ExitCode, String>> {
    let cx = match Context::new(common) {
        Ok(cx) => cx,
        Err(e) => return Ok(Err(e)),
    };
    let cat = cx.catalog();
    let req = match request(&cat) {
        Ok(r) => r,
        Err(r) => return refused(err, &cx, &r),
    };
    proceed(&cx, &cat, flags, out, err, req)
}

/// The shared flow for a command on one skill, given by name or path ([`pick::skill`]): a name
/// several skills hold lists them on `err` and exits with the usage status.
pub fn execute_skill(
    common: &Common,
    flags: &Confirm,
    out: &mut dyn Write,
    err: &mut dyn Write,
    skill: &Path,
    request: impl FnOnce(&Catalog, &Skill) -> Result<Request, Refusal>,
) -> io::Result<Result<ExitCode, String>> {
    let cx = match Context::new(common) {
        Ok(cx) => cx,
        Err(e) => return Ok(Err(e)),
    };
    let cat = cx.catalog();
    let s = match picked(&cx, &cat, skill, err)? {
        Ok(s) => s,
        Err(code) => return Ok(Ok(code)),
    };
    let req = match request(&cat, s) {
        Ok(r) => r,
        Err(r) => return refused(err, &cx, &r),
    };
    proceed(&cx, &cat, flags, out, err, req)
}

/// The skill `arg` names, or the exit status after saying why there is none on `err`: a
/// refusal (1) when nothing has that name or path, the list of copies (2) when several do.
pub fn picked<'a>(
    cx: &Context,
    cat: &'a Catalog,
    arg: &Path,
    err: &mut dyn Write,
) -> io::Result<Result<&'a Skill, ExitCode>> {
    match pick::skill(cat, arg) {
        Ok(s) => Ok(Ok(s)),
        Err(pick::Miss::NotFound(m)) => {
            writeln!(err, "skilltui: refused: {}", cx.say(&m))?;
            Ok(Err(EXIT_FINDING))
        }
        Err(pick::Miss::Ambiguous { name, paths }) => {
            for l in pick::ambiguous_lines(cx, cat, &name, &paths) {
                writeln!(err, "{l}")?;
            }
            Ok(Err(EXIT_USAGE))
        }
    }
}

fn proceed(
    cx: &Context,
    cat: &Catalog,
    flags: &Confirm,
    out: &mut dyn Write,
    err: &mut dyn Write,
    req: Request,
) -> io::Result<Result<ExitCode, String>> {
    let plan = match actions::plan(cat, &cx.models, &cx.env, &req) {
        Ok(p) => p,
        Err(r) => return refused(err, cx, &r),
    };
    let preview = match actions::preview(&plan, &cx.models, &cx.env) {
        Ok(p) => p,
        Err(r) => return refused(err, cx, &r),
    };
    print_plan(cx, &plan, &preview, out)?;
    if flags.dry_run {
        writeln!(out, "\n(dry run: nothing changed)")?;
        return Ok(Ok(EXIT_OK));
    }
    writeln!(out)?;
    if let Err(code) = confirm(flags, out, err, "Apply?")? {
        return Ok(Ok(code));
    }
    match actions::apply(&plan) {
        Ok(entry) => {
            writeln!(
                out,
                "Done: {} (`skilltui undo` reverts it; journal entry {})",
                cx.say(&entry.title),
                entry.id
            )?;
            Ok(Ok(EXIT_OK))
        }
        Err(r) => refused(err, cx, &r),
    }
}
