//! `skilltui config path|init|check`: where the explorer's config file is (keys and theme),
//! write a commented default, check one. Only the explorer reads the file; the other commands
//! do not depend on it.

use super::{CliError, EXIT_OK, EXIT_USAGE, Outcome};
use crate::tui::config;
use std::io::Write;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: Sub,
}

#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Print the config file's path ($SKILLTUI_CONFIG, else the platform's config folder).
    Path,
    /// Write a commented config file with every default (keys, theme); --force overwrites.
    Init {
        /// Overwrite an existing file.
        #[arg(long)]
        force: bool,
    },
    /// Check the config file: exit 0 when it is valid or absent, 2 with the error's line and
    /// column when not.
    Check,
}

pub fn run(args: &Args, out: &mut dyn Write) -> Outcome {
    let Some(path) = config::path() else {
        return Err(CliError::Usage(format!(
            "no config folder (no home folder?); set {}",
            config::CONFIG_VAR
        )));
    };
    let shown = crate::sanitize::path(&path);
    match &args.command {
        Sub::Path => writeln!(out, "{shown}")?,
        Sub::Init { force } => {
            if path.exists() && !force {
                return Err(CliError::Usage(format!(
                    "{shown} exists; --force overwrites it"
                )));
            }
            if let Some(dir) = path.parent()
                && let Err(e) = std::fs::create_dir_all(dir)
            {
                return Err(CliError::Usage(format!(
                    "cannot create {}: {e}",
                    crate::sanitize::path(dir)
                )));
            }
            if let Err(e) = std::fs::write(&path, config::default_text()) {
                return Err(CliError::Usage(format!("cannot write {shown}: {e}")));
            }
            writeln!(out, "wrote {shown}")?;
        }
        Sub::Check => match config::load_from(&path) {
            Ok(_) if !path.exists() => {
                writeln!(out, "{shown}: no such file; the defaults are in use")?
            }
            Ok(_) => writeln!(out, "{shown}: ok")?,
            Err(e) => {
                writeln!(out, "{e}")?;
                return Ok(EXIT_USAGE);
            }
        },
    }
    Ok(EXIT_OK)
}
