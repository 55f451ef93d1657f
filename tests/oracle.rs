//! The differential oracle: runs the real agent releases pinned in tests/oracle/versions.json on
//! generated skill trees and compares what they list with skilltui's verdicts.
//!
//! Off unless SKILLTUI_ORACLE=1 (then the releases must be installed: tests/oracle/install.sh;
//! tests/oracle/run.sh does both). Variables:
//!   SKILLTUI_ORACLE_TREES   random trees per agent (default 20 = the bounded CI mode);
//!                           `20,qoder-cli=4` gives named agents their own count
//!   SKILLTUI_ORACLE_SEED    first seed (default 1)
//!   SKILLTUI_ORACLE_AGENTS  comma list (default: every agent of oracle::AGENTS)
//!   SKILLTUI_ORACLE_CASES   only cases whose name contains this text
//!   SKILLTUI_ORACLE_JOBS    parallel agent runs (default 2)
//!   SKILLTUI_ORACLE_STRICT  =1: fail when any case disagrees (default: report only)
//!   SKILLTUI_ORACLE_KEEP    =1: keep the trees (under $TMPDIR/skilltui-oracle)
//!   SKILLTUI_ORACLE_MODELS  a folder of models to use instead of the built-in ones
//!   SKILLTUI_ORACLE_REPLAY  a folder of older models: run no agent, report per run whether
//!                           the prediction differs from the current models' (which recorded
//!                           runs a model change can have changed)

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
    let counts = oracle::trees::TreeCounts::parse(
        &std::env::var("SKILLTUI_ORACLE_TREES").unwrap_or_default(),
        20,
    )
    .unwrap_or_else(|e| panic!("SKILLTUI_ORACLE_TREES: {e}"));
    let trees = counts.most(&agents);
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

    // Each case with its seed (random trees) or None (targeted cases).
    let mut cases: Vec<(Case, Option<u64>)> = oracle::cases::targeted()
        .into_iter()
        .map(|c| (c, None))
        .collect();
    cases.extend((seed..seed + trees).map(|s| (oracle::cases::random(s), Some(s))));
    cases.retain(|(c, _)| c.name.contains(&filter));

    let scratch = std::env::temp_dir().join("skilltui-oracle");
    std::fs::create_dir_all(&scratch).unwrap();
    // SKILLTUI_ORACLE_MODELS=DIR: the models of DIR (as `--model DIR`), read at run time, so
    // that a model being fixed is re-checked without a rebuild (e.g. `=assets/agents`).
    let models = match std::env::var("SKILLTUI_ORACLE_MODELS") {
        Ok(dir) if !dir.is_empty() => {
            skilltui::agents::load_dir(std::path::Path::new(&dir)).unwrap_or_else(|e| panic!("{e}"))
        }
        _ => skilltui::agents::builtin(),
    };
    let mut work: Vec<(String, Case)> = Vec::new();
    for a in &agents {
        for (c, from) in &cases {
            // Random tree `seed + i` runs for an agent whose count is above i.
            let within_count = from.is_none_or(|s| s < seed + counts.for_agent(a));
            if c.applies_to(a) && within_count {
                work.push((a.clone(), c.clone()));
            }
        }
    }
    eprintln!(
        "oracle: {} runs ({} targeted cases, up to {trees} random trees from seed {seed}) for {}; {jobs} at a time",
        work.len(),
        cases.iter().filter(|(c, _)| !c.random).count(),
        agents.join(", ")
    );
    let start = std::time::Instant::now();
    if let Ok(dir) = std::env::var("SKILLTUI_ORACLE_REPLAY") {
        let old = skilltui::agents::load_dir(std::path::Path::new(&dir))
            .unwrap_or_else(|e| panic!("{e}"));
        let mut changed: Vec<String> = Vec::new();
        for (agent, case) in &work {
            let diffs = oracle::replay_case(&old, &models, agent, case, &scratch)
                .unwrap_or_else(|e| panic!("{e}"));
            if !diffs.is_empty() {
                eprintln!("oracle: [{agent}] {}: prediction changed:", case.name);
                for d in diffs.iter().take(5) {
                    eprintln!("    {}", d.chars().take(300).collect::<String>());
                }
                changed.push(format!("{agent}/{}", case.name));
            }
        }
        println!(
            "oracle: replay against {dir}: {} of {} runs predict the same, {} changed: {}",
            work.len() - changed.len(),
            work.len(),
            changed.len(),
            changed.join(" ")
        );
        println!("oracle: {:.0} s", start.elapsed().as_secs_f64());
        return;
    }
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
