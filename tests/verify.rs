//! `skilltui agents --verify`: the agents installed here, run on a project, against the model.
//! Uses the releases the differential oracle installs (tests/oracle/install.sh); skipped with a
//! notice where they are not installed (a user's clone; CI installs them after `cargo test`).

use std::process::Command;

fn installed(agent: &str, version: &str) -> bool {
    std::env::home_dir()
        .map(|h| {
            h.join(format!(
                ".cache/skilltui-oracle/{agent}@{version}/.installed"
            ))
        })
        .is_some_and(|p| p.exists())
        && Command::new("node").arg("--version").output().is_ok()
}

#[test]
fn verify_codex_and_pi_on_the_demo() {
    if !installed("codex", "0.171.0") || !installed("pi", "0.73.1") {
        eprintln!(
            "notice: the oracle's agent releases are not installed; agents --verify is not exercised"
        );
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(["agents", "--verify", "--agent", "codex", "--demo", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["agent"], "codex");
    assert_eq!(v[0]["status"], "agrees", "{v}");
    assert_eq!(out.status.code(), Some(0));
    assert!(v[0]["listed"].as_u64().unwrap() >= 5);

    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(["agents", "pi", "--verify", "--demo"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("pi: agrees"), "{text}");
}
