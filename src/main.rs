//! The skilltui binary: parse arguments and dispatch into the library.

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = skilltui::cli::Cli::parse();
    let code = skilltui::cli::run(cli, &mut std::io::stdout().lock(), &mut std::io::stderr());
    std::process::ExitCode::from(code)
}
