//! `skilltui fix SKILL [--only CODE]… [--list]`: the quick fixes that apply to a skill.

use super::context::{Common, Context};
use super::rename::{Confirm, execute_skill};
use super::{EXIT_OK, ExitCode};
use crate::actions::{self, Request};
use std::io::{self, Write};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill: its name, its folder or its SKILL.md.
    #[arg(value_name = "SKILL")]
    pub skill: PathBuf,
    /// Only this fix (repeatable): remove-bom, quote-description, quote-value, add-description,
    /// shorten-description, shorten-name, name-folder-match, skill-md-case, flat-to-folder,
    /// ungroup. Default: every fix that applies.
    #[arg(long, value_name = "CODE")]
    pub only: Vec<String>,
    /// List the fixes that apply, and change nothing.
    #[arg(long)]
    pub list: bool,
    #[command(flatten)]
    pub confirm: Confirm,
}

pub fn run(
    args: &Args,
    common: &Common,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<Result<ExitCode, String>> {
    if args.list {
        let cx = match Context::new(common) {
            Ok(cx) => cx,
            Err(e) => return Ok(Err(e)),
        };
        let cat = cx.catalog();
        let s = match super::rename::picked(&cx, &cat, &args.skill, err)? {
            Ok(s) => s,
            Err(code) => return Ok(Ok(code)),
        };
        let fixes = actions::fixes(&cat, &cx.models, s);
        for f in &fixes {
            writeln!(out, "{:<20} {}", f.code, cx.say(&f.title))?;
        }
        if fixes.is_empty() {
            writeln!(out, "No quick fix applies to {}.", cx.show(&s.path))?;
        }
        return Ok(Ok(EXIT_OK));
    }
    execute_skill(common, &args.confirm, out, err, &args.skill, |_, s| {
        Ok(Request::Fix {
            skill: s.path.clone(),
            only: args.only.clone(),
        })
    })
}
