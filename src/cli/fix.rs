//! `skilltui fix SKILL [--only CODE]… [--list]`: the quick fixes that apply to a skill.

use super::context::{Common, Context};
use super::rename::{Confirm, execute_skill};
use super::{EXIT_OK, Outcome};
use crate::actions::{self, Request};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill: its name, its folder or its SKILL.md.
    #[arg(value_name = "SKILL")]
    pub skill: PathBuf,
    /// Only this fix (repeatable; the codes are listed below). Default: every fix that applies.
    #[arg(long, value_name = "CODE", value_enum)]
    pub only: Vec<actions::FixCode>,
    /// List the fixes that apply, and change nothing.
    #[arg(long)]
    pub list: bool,
    #[command(flatten)]
    pub confirm: Confirm,
}

pub fn run(args: &Args, common: &Common, out: &mut dyn Write) -> Outcome {
    if args.list {
        let cx = Context::new(common)?;
        let cat = cx.catalog();
        let s = super::rename::picked(&cx, &cat, &args.skill)?;
        let fixes = actions::fixes(&cat, &cx.models, s);
        for f in &fixes {
            writeln!(out, "{:<20} {}", f.code.as_str(), cx.say(&f.title))?;
        }
        if fixes.is_empty() {
            writeln!(out, "No quick fix applies to {}.", cx.show(&s.path))?;
        }
        return Ok(EXIT_OK);
    }
    execute_skill(common, &args.confirm, out, &args.skill, |_, s| {
        Ok(Request::Fix {
            skill: s.path.clone(),
            only: args.only.iter().map(|c| c.as_str().to_string()).collect(),
        })
    })
}
