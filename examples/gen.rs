//! Writes a realistic skill tree for benchmarks:
//! `cargo run --release --example gen -- --skills N --out DIR [--seed S]`.
//!
//! The tree holds `DIR/home` and a git repository `DIR/repo` whose project folder is
//! `DIR/repo/packages/web`; point skilltui at it with
//! `skilltui --project DIR/repo/packages/web --home DIR/home`.

use skilltui::r#gen::{Options, generate};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut opts = Options::default();
    let mut out: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        match a.as_str() {
            "--skills" => opts.skills = value().replace('_', "").parse().unwrap_or(0),
            "--seed" => opts.seed = value().parse().unwrap_or(opts.seed),
            "--out" => out = Some(PathBuf::from(value())),
            "-h" | "--help" => {
                println!("usage: gen --skills N --out DIR [--seed S]");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("gen: unknown argument {other}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(out) = out else {
        eprintln!("gen: --out DIR is required");
        return ExitCode::from(2);
    };
    if out.exists() && std::fs::read_dir(&out).is_ok_and(|mut d| d.next().is_some()) {
        eprintln!("gen: {} is not empty", out.display());
        return ExitCode::from(2);
    }
    let t = std::time::Instant::now();
    match generate(&out, &opts) {
        Ok((tree, stats)) => {
            println!("{stats:#?}");
            println!(
                "written in {:.1} s; run: skilltui --project {} --home {}",
                t.elapsed().as_secs_f64(),
                tree.project.display(),
                tree.home.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gen: {e}");
            ExitCode::FAILURE
        }
    }
}
