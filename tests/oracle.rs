//! The differential oracle: runs the real agent releases pinned in tests/oracle/versions.json on
//! generated skill trees and compares what they list with skilltui's verdicts.
//!
//! Off unless SKILLTUI_ORACLE=1 (then the releases must be installed: tests/oracle/install.sh;
//! tests/oracle/run.sh does both). Variables:
//!   SKILLTUI_ORACLE_TREES   random trees per agent (default 20 = the bounded CI mode)
//!   SKILLTUI_ORACLE_SEED    first seed (default 1)
//!   SKILLTUI_ORACLE_AGENTS  comma list (default: codex,opencode,pi,copilot-cli,claude-code)
//!   SKILLTUI_ORACLE_CASES   only cases whose name contains this text
//!   SKILLTUI_ORACLE_JOBS    parallel agent runs (default 2)
//!   SKILLTUI_ORACLE_STRICT  =1: fail when any case disagrees (default: report only)
//!   SKILLTUI_ORACLE_KEEP    =1: keep the trees (under $TMPDIR/skilltui-oracle)
//!   SKILLTUI_ORACLE_MODELS  a folder of models to use instead of the built-in ones

use skilltui::oracle::{self, AGENTS, Case, Driver, Report};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

#[test]
fn oracle() {
    if std::env::var("SKILLTUI_ORACLE").as_deref() != Ok("1") {
        eprintln!(
            "oracle: skipped (set SKILLTUI_ORACLE=1, or run tests/oracle/run.sh, to run the real agents)"
        );
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oracle");
    let mut driver = Driver::new(&dir);
    if !Driver::can_unshare() {
        if std::env::var("SKILLTUI_ORACLE_ALLOW_NETWORK").as_deref() == Ok("1") {
            eprintln!(
                "oracle: unshare --net unavailable; running WITH network (SKILLTUI_ORACLE_ALLOW_NETWORK=1)"
            );
            driver.no_network = false;
        } else {
            eprintln!(
                "oracle: skipped: `unshare --net` does not work here (needs root or user namespaces)"
            );
            return;
        }
    }
    let agents: Vec<String> = std::env::var("SKILLTUI_ORACLE_AGENTS")
        .map(|s| {
            s.split(',')
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty())
                .collect()
        })
        .unwrap_or_else(|_| AGENTS.iter().map(|a| a.to_string()).collect());
    let trees: u64 = std::env::var("SKILLTUI_ORACLE_TREES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let seed: u64 = std::env::var("SKILLTUI_ORACLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let jobs: usize = std::env::var("SKILLTUI_ORACLE_JOBS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2)
        .max(1);
    let filter = std::env::var("SKILLTUI_ORACLE_CASES").unwrap_or_default();

    let mut cases: Vec<Case> = oracle::cases::targeted();
    cases.extend((seed..seed + trees).map(oracle::cases::random));
    cases.retain(|c| c.name.contains(&filter));

    let scratch = std::env::temp_dir().join("skilltui-oracle");
    std::fs::create_dir_all(&scratch).unwrap();
    // SKILLTUI_ORACLE_MODELS=DIR: the models in DIR (as `--model DIR`) instead of the built-in
    // ones, to try a model change without rebuilding.
    let models = match std::env::var_os("SKILLTUI_ORACLE_MODELS") {
        Some(d) => skilltui::agents::load_dir(std::path::Path::new(&d))
            .unwrap_or_else(|e| panic!("SKILLTUI_ORACLE_MODELS: {e}")),
        None => skilltui::agents::builtin(),
    };
    let mut work: Vec<(String, Case)> = Vec::new();
    for a in &agents {
        for c in &cases {
            if c.applies_to(a) {
                work.push((a.clone(), c.clone()));
            }
        }
    }
    eprintln!(
        "oracle: {} runs ({} targeted cases, {trees} random trees from seed {seed}) for {}; {jobs} at a time",
        work.len(),
        cases.iter().filter(|c| !c.random).count(),
        agents.join(", ")
    );
    let start = std::time::Instant::now();
    let work = Arc::new(Mutex::new(work.into_iter()));
    let report = Arc::new(Mutex::new(Report {
        known: oracle::KnownDivergence::load(&dir.join("known.json")),
        ..Report::default()
    }));
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let work = Arc::clone(&work);
            let report = Arc::clone(&report);
            let (models, driver, scratch) = (&models, &driver, &scratch);
            s.spawn(move || {
                loop {
                    let next = work.lock().unwrap().next();
                    let Some((agent, case)) = next else { break };
                    let r = oracle::run_case(models, driver, &agent, &case, scratch);
                    if let Ok((_, c)) = &r
                        && !c.agrees()
                    {
                        eprintln!(
                            "oracle: [{agent}] {} disagrees ({} differences)",
                            case.name,
                            c.diffs.len()
                        );
                    }
                    if let Err(e) = &r {
                        eprintln!(
                            "oracle: [{agent}] {} failed: {}",
                            case.name,
                            e.chars().take(300).collect::<String>()
                        );
                    }
                    report.lock().unwrap().record(&agent, &case, r);
                }
            });
        }
    });
    let report = report.lock().unwrap();
    for a in &agents {
        if let Some(v) = driver.pinned_version(a) {
            eprintln!("oracle: {a} pinned at {v}");
        }
    }
    println!("\n{}", report.render(true));
    println!("oracle: {:.0} s", start.elapsed().as_secs_f64());
    let failed: usize = report.agents.values().map(|t| t.failed_runs.len()).sum();
    assert_eq!(failed, 0, "some agent runs failed (see above)");
    if std::env::var("SKILLTUI_ORACLE_STRICT").as_deref() == Ok("1") {
        let dis: usize = report.agents.values().map(|t| t.disagreements.len()).sum();
        assert_eq!(
            dis, 0,
            "skilltui disagrees with the real agents (see above)"
        );
    }
}
