//! `skilltui undo`: revert the newest action not yet undone, from the journal in skilltui's data
//! folder (also one interrupted halfway).

use super::rename::{Confirm, confirm};
use super::{CliError, EXIT_FINDING, EXIT_OK, Outcome};
use crate::actions::journal::{self, Done};
use crate::sanitize;
use std::io::Write;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub confirm: Confirm,
}

fn describe(d: &Done) -> String {
    let p = |x: &std::path::Path| sanitize::path(x);
    match d {
        Done::Write { path, before, .. } => match before {
            Some(_) => format!("restore the previous bytes of {}", p(path)),
            None => format!("move the created file {} to the trash", p(path)),
        },
        Done::CreateDir { path } => format!("remove the folder {} if empty", p(path)),
        Done::Rename { from, to } => format!("rename {} back to {}", p(to), p(from)),
        Done::Copy { to, .. } => format!("move the copy {} to the trash", p(to)),
        Done::Symlink { link, .. } => format!("remove the symlink {}", p(link)),
        Done::Trash { path, trash } => format!("restore {} from {}", p(path), p(trash)),
    }
}

pub fn run(args: &Args, out: &mut dyn Write) -> Outcome {
    let data = crate::actions::data_dir().map_err(|r| CliError::Usage(r.0))?;
    let all = journal::entries(&data).map_err(|r| CliError::Usage(r.0))?;
    let Some((entry, done, _)) = all.into_iter().rev().find(|(_, _, undone)| !undone) else {
        writeln!(
            out,
            "Nothing to undo (journal: {}).",
            sanitize::path(&data.join("journal.jsonl"))
        )?;
        return Ok(EXIT_FINDING);
    };
    writeln!(
        out,
        "Undo: {}{}",
        sanitize::line(&entry.title),
        if done {
            ""
        } else {
            " (interrupted; what was done is reverted)"
        }
    )?;
    for d in entry.ops.iter().rev() {
        writeln!(out, "  {}", describe(d))?;
    }
    if args.confirm.dry_run {
        writeln!(out, "\n(dry run: nothing changed)")?;
        return Ok(EXIT_OK);
    }
    confirm(&args.confirm, out, "Undo?")?;
    journal::undo_in(&entry, &data)
        .map_err(|r| CliError::Refused(r.kind(), sanitize::line(r.message()).into_owned()))?;
    writeln!(out, "Undone.")?;
    Ok(EXIT_OK)
}
