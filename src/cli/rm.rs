//! `skilltui rm SKILL`: move a skill folder to skilltui's trash (never unlinked; `undo` brings
//! it back).

use super::Outcome;
use super::context::Common;
use super::rename::{Confirm, execute_skill};
use crate::actions::Request;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill: its name, its folder or its SKILL.md.
    #[arg(value_name = "SKILL")]
    pub skill: PathBuf,
    #[command(flatten)]
    pub confirm: Confirm,
}

pub fn run(args: &Args, common: &Common, out: &mut dyn Write) -> Outcome {
    execute_skill(common, &args.confirm, out, &args.skill, |_, s| {
        Ok(Request::Delete {
            skill: s.path.clone(),
        })
    })
}
