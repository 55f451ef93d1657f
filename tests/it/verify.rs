//! `skilltui agents --verify`: the agents installed here, run on a project, against the model.
//! Uses the releases the differential oracle installs (tests/oracle/install.sh); skipped with a
//! notice where they are not installed (a user's clone; CI installs them after `cargo test`).

use std::path::{Path, PathBuf};
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
    assert!(
        text.starts_with("pi 0.73.1 (") && text.contains("the oracle's pinned release): agrees ("),
        "{text}"
    );
}

fn node() -> bool {
    let ok = Command::new("node").arg("--version").output().is_ok();
    if !ok {
        eprintln!("notice: Node.js is not installed; the driver is not exercised");
    }
    ok
}

/// A fake `opencode` for the driver: `--version` prints `opencode 9.8.7`; otherwise it lists
/// the project's `.opencode/skills/*/SKILL.md` with their descriptions as `opencode debug skill`
/// does (JSON on stdout)
/// and writes `warn_lines` WARN log lines (130 bytes each) to stderr, which the driver reports
/// as errors.
fn fake_opencode(bin: &Path, warn_lines: usize, stdout: &str) -> PathBuf {
    std::fs::create_dir_all(bin).unwrap();
    let exe = bin.join("opencode");
    let listing = if stdout.is_empty() {
        r#"printf '['; first=1
for f in "$PWD"/.opencode/skills/*/SKILL.md; do
  n=$(basename "$(dirname "$f")")
  [ $first = 1 ] || printf ','; first=0
  printf '{"name":"%s","description":"The %s skill.","location":"%s"}' "$n" "$n" "$f"
done
printf ']\n'"#
            .to_string()
    } else {
        stdout.to_string()
    };
    let script = format!(
        r#"#!/bin/sh
if [ "$1" = "--version" ]; then echo "opencode 9.8.7"; exit 0; fi
i=0
while [ $i -lt {warn_lines} ]; do
  echo "timestamp=2026-12-01T00:00:00.000Z level=WARN message=\"padding $i ..........................................................\""
  i=$((i+1))
done >&2
{listing}
"#
    );
    std::fs::write(&exe, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    exe
}

fn project_with_two_skills(base: &Path) -> (PathBuf, PathBuf) {
    let (project, home) = (base.join("project"), base.join("home"));
    for n in ["alpha", "beta"] {
        let d = project.join(".opencode/skills").join(n);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {n}\ndescription: The {n} skill.\n---\nbody\n"),
        )
        .unwrap();
    }
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    (project, home)
}

#[test]
fn an_agent_on_path_is_found_with_its_version_and_a_large_output_is_read_whole() {
    if !node() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (project, home) = project_with_two_skills(tmp.path());
    // 12,000 log lines: the driver's JSON is over 1.5 MiB.
    let exe = fake_opencode(&tmp.path().join("bin"), 12_000, "");
    let path = format!("{}:/usr/bin:/bin", tmp.path().join("bin").display());
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(["agents", "opencode", "--verify", "--json", "--project"])
        .arg(&project)
        .arg("--home")
        .arg(&home)
        .env("PATH", &path)
        .env("SKILLTUI_ORACLE_CACHE", tmp.path().join("no-cache"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(v[0]["agent"], "opencode");
    assert_eq!(v[0]["status"], "agrees", "{v}");
    assert_eq!(v[0]["found"], "PATH");
    assert_eq!(v[0]["version"], "9.8.7");
    assert_eq!(v[0]["installed"], exe.display().to_string());
    assert_eq!(v[0]["listed"], 2);
    assert_eq!(out.status.code(), Some(0));

    // The library: the driver's whole output is read (every log line comes back).
    let driver = skilltui::oracle::Driver {
        dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle"),
        no_network: false,
        driver_env: vec![("SKILLTUI_AGENT_ENTRY".into(), exe.display().to_string())],
    };
    let listing = driver.run_saved("opencode", &project, &home, &[]).unwrap();
    assert_eq!(listing.skills.len(), 2);
    assert_eq!(listing.errors.len(), 12_000);
    let bytes: usize = listing.errors.iter().map(|e| e.len()).sum();
    assert!(bytes > 1024 * 1024, "{bytes}");
}

#[test]
fn a_failed_listing_is_one_line_and_the_output_is_saved() {
    if !node() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (project, home) = project_with_two_skills(tmp.path());
    // 200 KB of something that is not JSON on stdout.
    let garbage = format!("printf '[{{\"name\": \"%s' '{}'", "x".repeat(200_000));
    fake_opencode(&tmp.path().join("bin"), 10, &garbage);
    let path = format!("{}:/usr/bin:/bin", tmp.path().join("bin").display());
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(["agents", "opencode", "--verify", "--project"])
        .arg(&project)
        .arg("--home")
        .arg(&home)
        .env("PATH", &path)
        .env("SKILLTUI_ORACLE_CACHE", tmp.path().join("no-cache"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("opencode 9.8.7 (")
            && lines[0].contains("could not list its skills: agent run failed: unparsable output"),
        "{text}"
    );
    assert!(lines[0].chars().count() < 600, "{}", lines[0].len());
    let saved = lines[1]
        .strip_prefix("  the driver's full output: ")
        .unwrap_or_else(|| panic!("{text}"));
    let files: Vec<&str> = saved.split(", ").collect();
    assert_eq!(files.len(), 2, "{saved}");
    let json = std::fs::read_to_string(files[0]).unwrap();
    assert!(json.contains("unparsable output"), "{json}");
    for f in files {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn path_lookup_and_a_bounded_version_question() {
    use skilltui::oracle::verify::{ask_version, on_path};
    use std::time::{Duration, Instant};
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    use std::os::unix::fs::PermissionsExt;
    let write = |p: &Path, text: &str, mode: u32| {
        std::fs::write(p, text).unwrap();
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    // Not executable in a: the one in b is found.
    write(&a.join("agent"), "#!/bin/sh\necho 1.0\n", 0o644);
    write(
        &b.join("agent"),
        "#!/bin/sh\necho 'Agent CLI v2.3.4.'\n",
        0o755,
    );
    write(&b.join("stuck"), "#!/bin/sh\nsleep 30\n", 0o755);
    write(&b.join("plain"), "#!/bin/sh\necho 'nightly build'\n", 0o755);
    write(
        &b.join("on-stderr"),
        "#!/bin/sh\necho 'warning: no config' >&2\necho 0.73.1 >&2\n",
        0o755,
    );
    write(
        &b.join("warns"),
        "#!/bin/sh\necho 'WARNING: proceeding' >&2\necho 'codex-cli 0.171.0'\n",
        0o755,
    );
    write(&b.join("fails"), "#!/bin/sh\necho 1.2.3\nexit 2\n", 0o755);
    let path = std::env::join_paths([&a, &b]).unwrap();
    assert_eq!(on_path("agent", &path), Some(b.join("agent")));
    assert_eq!(on_path("missing", &path), None);
    assert_eq!(on_path("../b/agent", &path), None);
    assert_eq!(
        ask_version(&b.join("agent"), Duration::from_secs(10)).as_deref(),
        Some("2.3.4")
    );
    assert_eq!(
        ask_version(&b.join("plain"), Duration::from_secs(10)).as_deref(),
        Some("nightly build")
    );
    assert_eq!(
        ask_version(&b.join("on-stderr"), Duration::from_secs(10)).as_deref(),
        Some("0.73.1")
    );
    assert_eq!(
        ask_version(&b.join("warns"), Duration::from_secs(10)).as_deref(),
        Some("0.171.0")
    );
    assert_eq!(ask_version(&b.join("fails"), Duration::from_secs(10)), None);
    let start = Instant::now();
    assert_eq!(
        ask_version(&b.join("stuck"), Duration::from_millis(500)),
        None
    );
    assert!(start.elapsed() < Duration::from_secs(10));
}

/// A fake `auggie` on PATH: `--version` prints `0.36.0`; `--acp` answers `initialize` and
/// `session/new` the way Auggie's ACP server does, announcing one slash command per folder of
/// the project's `.augment/skills` (described "<description> (workspace)") plus a built-in one
/// and `extra` names, and leaves a process running outside its process group (as Cline's hub
/// daemon does) that sleeps for `marker` seconds.
fn fake_auggie(bin: &Path, extra: &[&str], marker: u32) -> PathBuf {
    std::fs::create_dir_all(bin).unwrap();
    let exe = bin.join("auggie");
    let extra: String = extra
        .iter()
        .map(|n| format!(r#",{{\"name\":\"{n}\",\"description\":\"Extra (user)\"}}"#))
        .collect();
    let script = format!(
        r#"#!/bin/sh
if [ "$1" = "--version" ]; then echo "0.36.0 (commit fake)"; exit 0; fi
setsid sleep {marker} </dev/null >/dev/null 2>&1 &
read line
echo '{{"jsonrpc":"2.0","id":1,"result":{{"protocolVersion":1,"agentCapabilities":{{}}}}}}'
read line
echo '{{"jsonrpc":"2.0","id":2,"result":{{"sessionId":"s1"}}}}'
cmds='{{"name":"help","description":"Show the commands"}}'
for d in "$PWD"/.augment/skills/*/; do
  n=$(basename "$d")
  cmds="$cmds,{{\"name\":\"$n\",\"description\":\"The $n skill. (workspace)\"}}"
done
echo "{{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{{\"sessionId\":\"s1\",\"update\":{{\"sessionUpdate\":\"available_commands_update\",\"availableCommands\":[$cmds{extra}]}}}}}}"
sleep 60
"#
    );
    std::fs::write(&exe, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    exe
}

/// Processes whose command line holds `sleep <marker>`.
fn sleeping(marker: u32) -> Vec<String> {
    let want = format!("sleep\0{marker}");
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .chars()
                .all(|c| c.is_ascii_digit())
        })
        .filter(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(&want))
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_names_only_agent_on_path_is_compared_on_names_and_leaves_nothing_running() {
    if !node() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (project, home) = (tmp.path().join("project"), tmp.path().join("home"));
    for n in ["alpha", "beta"] {
        let d = project.join(".augment/skills").join(n);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {n}\ndescription: The {n} skill.\n---\nbody\n"),
        )
        .unwrap();
    }
    std::fs::create_dir_all(&home).unwrap();
    let marker = 48_000 + std::process::id() % 1000;
    let exe = fake_auggie(&tmp.path().join("bin"), &[], marker);
    let path = format!("{}:/usr/bin:/bin", tmp.path().join("bin").display());
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_skilltui"))
            .args(args)
            .arg("--project")
            .arg(&project)
            .arg("--home")
            .arg(&home)
            .env("PATH", &path)
            .env("SKILLTUI_ORACLE_CACHE", tmp.path().join("no-cache"))
            .output()
            .unwrap()
    };
    let out = run(&["agents", "auggie", "--verify", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(v[0]["agent"], "auggie");
    assert_eq!(v[0]["status"], "agrees", "{v}");
    assert_eq!(v[0]["compared"], "names");
    assert_eq!(v[0]["found"], "PATH");
    assert_eq!(v[0]["version"], "0.36.0");
    assert_eq!(v[0]["installed"], exe.display().to_string());
    assert_eq!(v[0]["listed"], 2, "the built-in `help` is not a skill");
    assert_eq!(out.status.code(), Some(0));
    // What the fake left outside its process group was killed by the driver.
    assert_eq!(sleeping(marker), Vec::<String>::new());

    let text = String::from_utf8(run(&["agents", "auggie", "--verify"]).stdout).unwrap();
    assert!(
        text.starts_with("auggie 0.36.0 (")
            && text.contains("agrees (2 skills listed")
            && text.contains("names only: the agent lists no paths, so this is partly checked"),
        "{text}"
    );

    // A name skilltui does not predict is a difference.
    fake_auggie(&tmp.path().join("bin"), &["ghost"], marker);
    let out = run(&["agents", "auggie", "--verify", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["status"], "disagrees", "{v}");
    let diffs = v[0]["differences"].as_array().unwrap();
    assert_eq!(diffs.len(), 1, "{v}");
    assert!(
        diffs[0]
            .as_str()
            .unwrap()
            .starts_with("agent lists `ghost`; skilltui: no visible skill of that name"),
        "{v}"
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(sleeping(marker), Vec::<String>::new());
}

#[test]
fn an_agent_without_an_offline_listing_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(["agents", "crush", "--verify", "--project"])
        .arg(tmp.path())
        .arg("--home")
        .arg(tmp.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "crush: no offline listing to run (its model is from documents and source only)\n"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(["agents", "--verify", "--json", "--project"])
        .arg(tmp.path())
        .arg("--home")
        .arg(tmp.path())
        .env("PATH", "/nonexistent")
        .env("SKILLTUI_ORACLE_CACHE", tmp.path().join("no-cache"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let status = |a: &str| {
        v.as_array()
            .unwrap()
            .iter()
            .find(|x| x["agent"] == a)
            .map(|x| x["status"].as_str().unwrap_or("").to_string())
    };
    // Every model has a line: runnable agents not found here, the others without a listing.
    assert_eq!(status("cline").as_deref(), Some("not-installed"), "{v}");
    assert_eq!(status("auggie").as_deref(), Some("not-installed"));
    for a in [
        "crush",
        "goose",
        "continue",
        "letta-code",
        "mistral-vibe",
        "kimi-code",
    ] {
        assert_eq!(status(a).as_deref(), Some("no-offline-listing"), "{a}: {v}");
    }
    assert_eq!(v.as_array().unwrap().len(), 21, "{v}");
}

/// The agents whose listing is compared on canonical paths come from the pins
/// (tests/oracle/versions.json): Codex reports a symlinked skill at its target, the others at
/// the path they walked.
#[test]
fn canonical_path_comparison_comes_from_the_pins() {
    use skilltui::oracle::verify::{lists_canonical_paths, verifiable};
    let canonical: Vec<String> = verifiable()
        .into_iter()
        .filter(|p| p.canonical_paths)
        .map(|p| p.agent)
        .collect();
    assert_eq!(canonical, ["codex"]);
    assert!(lists_canonical_paths("codex"));
    assert!(!lists_canonical_paths("pi"));
    assert!(!lists_canonical_paths("no-such-agent"));
}
