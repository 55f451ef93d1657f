//! The skilltui binary: parse arguments and dispatch into the library.

#![forbid(unsafe_code)]

use clap::Parser;
use std::io::Write;

fn main() -> std::process::ExitCode {
    skilltui::crash::install(|| {});
    let cli = skilltui::cli::Cli::parse();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let code = skilltui::cli::run(cli, &mut out, &mut std::io::stderr());
    let _ = out.flush();
    code.into()
}
