//! The live catalog: the watcher on temp trees, with bounded waits on its channel.

use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::resolve::Status;
use skilltui::watch::{self, Report, Update};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Tree {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

fn tree() -> Tree {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(project.join(".claude/skills")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    Tree {
        _tmp: tmp,
        project,
        home,
    }
}

fn skill(dir: &Path, name: &str, description: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join("SKILL.md");
    std::fs::write(
        &p,
        format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n"),
    )
    .unwrap();
    p
}

fn start(t: &Tree) -> (watch::WatchHandle, Receiver<Update>) {
    let (tx, rx) = channel();
    let h = watch::spawn(
        Arc::new(skilltui::agents::builtin()),
        Env::new(&t.project, &t.home),
        Duration::from_millis(100),
        move |r| match r {
            Report::Update(u) => tx.send(u).is_ok(),
            Report::Warning(_) => true,
            Report::Progress(_) => true,
        },
    )
    .unwrap();
    let first = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("initial snapshot");
    assert_eq!(first.generation, 0);
    (h, rx)
}

/// The first update (within 10 s) whose catalog satisfies `ok`.
fn wait(rx: &Receiver<Update>, what: &str, ok: impl Fn(&Catalog) -> bool) -> Update {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(u) if ok(&u.catalog) => return u,
            Ok(_) => continue,
            Err(_) => panic!("no snapshot with {what} within 10 s"),
        }
    }
}

fn status(cat: &Catalog, path: &Path, agent: &str) -> Option<Status> {
    cat.skill(path)
        .and_then(|s| s.verdict(agent))
        .map(|v| v.status)
}

#[test]
fn create_modify_rename_delete() {
    let t = tree();
    let (_h, rx) = start(&t);
    let other = skill(
        &t.project.join(".claude/skills/other"),
        "other",
        "Bystander.",
    );
    let a = skill(&t.project.join(".claude/skills/a"), "a", "First.");
    let u = wait(&rx, "a created", |c| {
        status(c, &a, "claude-code") == Some(Status::Visible)
            && status(c, &other, "claude-code") == Some(Status::Visible)
    });
    assert!(u.changed.contains(&a));

    // Let the creation's last events settle, so that the edit comes alone.
    std::thread::sleep(Duration::from_millis(400));
    while rx.try_recv().is_ok() {}

    // Modify in place: an unquoted colon makes Copilot CLI reject it. Only that file is read
    // again (no walk).
    std::fs::write(&a, "---\nname: a\ndescription: Use when: x\n---\n").unwrap();
    let u = wait(&rx, "a rejected by copilot", |c| {
        status(c, &a, "copilot-cli") == Some(Status::Rejected)
    });
    assert!(u.changed.contains(&a));
    assert_eq!(u.reread, Some(1), "an in-place edit re-reads the one file");
    assert_eq!(
        u.resolved,
        Some(skilltui::agents::builtin().len()),
        "and resolves that file again for each agent, not `other`"
    );
    assert!(!u.changed.contains(&other));

    // Rename the folder: only its root is walked again.
    let b_dir = t.project.join(".claude/skills/b");
    std::fs::rename(t.project.join(".claude/skills/a"), &b_dir).unwrap();
    let b = b_dir.join("SKILL.md");
    let u = wait(&rx, "the renamed skill", |c| {
        c.skill(&a).is_none() && c.skill(&b).is_some()
    });
    assert_eq!(
        u.rewalked,
        Some(1),
        "a rename inside a root walks that root"
    );
    assert!(u.changed.contains(&a) && u.changed.contains(&b));
    assert!(!u.changed.contains(&other));

    // Delete.
    std::fs::remove_dir_all(&b_dir).unwrap();
    wait(&rx, "only the bystander", |c| {
        c.skills.len() == 1 && c.skill(&other).is_some()
    });
}

#[test]
fn roots_that_appear_and_vanish() {
    let t = tree();
    let (_h, rx) = start(&t);
    // `.agents/skills` does not exist at start: its parent is watched so its creation is seen.
    let s = skill(
        &t.project.join(".agents/skills/portable"),
        "portable",
        "Everywhere.",
    );
    let up = wait(&rx, "the new root's skill", |c| {
        status(c, &s, "codex") == Some(Status::Visible)
    });
    assert_eq!(up.rewalked, None, "a root that appears needs a full rescan");
    // A user root created under the fake home.
    let u = skill(&t.home.join(".agents/skills/mine"), "mine", "Mine.");
    wait(&rx, "the user skill", |c| {
        status(c, &u, "pi") == Some(Status::Visible)
    });
    // The whole project root goes away.
    std::fs::remove_dir_all(t.project.join(".agents")).unwrap();
    let up = wait(&rx, "the root gone", |c| c.skill(&s).is_none());
    assert_eq!(
        up.rewalked, None,
        "a root that vanishes needs a full rescan"
    );
}

#[test]
fn atomic_save_and_half_written_files() {
    let t = tree();
    let a = skill(&t.project.join(".claude/skills/a"), "a", "First.");
    let (_h, rx) = start(&t);
    // An editor writes a temp file, then renames it over the original.
    let tmp = a.with_file_name(".SKILL.md.swp");
    std::fs::write(&tmp, "---\nname: a\ndescription: Saved atomically.\n---\n").unwrap();
    std::fs::rename(&tmp, &a).unwrap();
    let u = wait(&rx, "the new text", |c| {
        c.skill(&a).and_then(|s| s.description.as_deref()) == Some("Saved atomically.")
    });
    assert_eq!(
        u.reread,
        Some(1),
        "an editor's rename-over save is an edit, not a rescan"
    );

    // A temp file with any name, renamed over the SKILL.md in the same burst.
    let tmp = a.with_file_name("tmpQ7x2");
    std::fs::write(&tmp, "---\nname: a\ndescription: Via a temp file.\n---\n").unwrap();
    std::fs::rename(&tmp, &a).unwrap();
    wait(&rx, "the text saved via tmpQ7x2", |c| {
        c.skill(&a).and_then(|s| s.description.as_deref()) == Some("Via a temp file.")
    });

    // Swap files written while someone types make no snapshot at all.
    std::thread::sleep(Duration::from_millis(400));
    while rx.try_recv().is_ok() {}
    let swap = a.with_file_name(".SKILL.md.swp");
    for _ in 0..3 {
        std::fs::write(&swap, b"vim swap").unwrap();
    }
    // Four debounce periods of quiet: a snapshot would have come by now.
    std::thread::sleep(Duration::from_millis(400));
    assert!(rx.try_recv().is_err(), "a swap file write made a snapshot");
    std::fs::write(&a, "---\nname: a\ndescription: After the swap.\n---\n").unwrap();
    let u = wait(&rx, "the edit after the swap writes", |c| {
        c.skill(&a).and_then(|s| s.description.as_deref()) == Some("After the swap.")
    });
    assert_eq!(u.reread, Some(1));
    std::fs::remove_file(&swap).unwrap();
    // A half-written file may be seen broken, then is re-read once writing ends.
    std::fs::write(&a, "---\nname: a\ndescr").unwrap();
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&a, "---\nname: a\ndescription: Whole again.\n---\n").unwrap();
    wait(&rx, "the finished text", |c| {
        c.skill(&a).and_then(|s| s.description.as_deref()) == Some("Whole again.")
    });
}

#[test]
fn a_storm_of_events_gives_few_rescans_and_the_right_snapshot() {
    let t = tree();
    let (_h, rx) = start(&t);
    // 5,000 file events: 1,000 skills created, each written and rewritten, some removed.
    let root = t.project.join(".claude/skills");
    for i in 0..1000 {
        skill(&root.join(format!("s{i:04}")), &format!("s{i:04}"), "v1");
    }
    for i in 0..1000 {
        skill(&root.join(format!("s{i:04}")), &format!("s{i:04}"), "v2");
    }
    for i in 0..500 {
        std::fs::remove_dir_all(root.join(format!("s{i:04}"))).unwrap();
    }
    let last = wait(&rx, "500 skills at v2", |c| {
        c.skills.len() == 500
            && c.skills
                .iter()
                .all(|s| s.description.as_deref() == Some("v2"))
    });
    // Let the debouncer settle, then count what else arrives.
    let mut extra = 0;
    while rx.recv_timeout(Duration::from_millis(800)).is_ok() {
        extra += 1;
    }
    let rescans = last.generation + extra;
    assert!(rescans <= 100, "{rescans} rescans for ~5,000 events");
    let after = Catalog::build(&skilltui::agents::builtin(), &Env::new(&t.project, &t.home));
    assert_eq!(after.skills.len(), 500);
}

#[test]
fn forced_rescan_and_stop() {
    let t = tree();
    let (h, rx) = start(&t);
    h.rescan();
    let u = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("a forced snapshot");
    assert_eq!(u.cause, watch::Cause::Forced);
    assert!(u.changed.is_empty());
    assert_eq!(h.join(), Ok(()));
}

#[test]
fn list_watch_json_reports_a_change() {
    let t = tree();
    let a = skill(&t.project.join(".claude/skills/a"), "a", "First.");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(["list", "--watch", "--json", "--project"])
        .arg(&t.project)
        .arg("--home")
        .arg(&t.home)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let first = crate::common::by_agent(
        serde_json::from_str(&rx.recv_timeout(Duration::from_secs(10)).unwrap()).unwrap(),
    );
    assert_eq!(
        first["skills"][0]["agents"]["copilot-cli"]["status"],
        "visible"
    );
    std::fs::write(&a, "---\nname: a\ndescription: Use when: x\n---\n").unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = false;
    while let Ok(line) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        let v = crate::common::by_agent(serde_json::from_str(&line).unwrap());
        if v["skills"][0]["agents"]["copilot-cli"]["status"] == "rejected" {
            seen = true;
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(seen, "list --watch --json did not report the change");
}

#[test]
fn settings_files_are_watched() {
    let t = tree();
    let c = skill(&t.project.join(".claude/skills/c"), "c", "Claude's.");
    let x = skill(&t.project.join(".agents/skills/x"), "x", "Codex's.");
    let (_h, rx) = start(&t);

    // A project settings file in a folder that is not a root (.claude/).
    std::fs::write(
        t.project.join(".claude/settings.local.json"),
        r#"{"skillOverrides": {"c": "off"}}"#,
    )
    .unwrap();
    let u = wait(&rx, "c disabled by settings.local.json", |cat| {
        status(cat, &c, "claude-code") == Some(Status::Rejected)
    });
    assert!(u.changed.contains(&c));
    assert_eq!(u.reread, None, "a settings edit rescans");

    // A user settings file whose folder does not exist yet (~/.codex).
    std::fs::create_dir_all(t.home.join(".codex")).unwrap();
    std::fs::write(
        t.home.join(".codex/config.toml"),
        "[[skills.config]]\nname = \"x\"\nenabled = false\n",
    )
    .unwrap();
    let hidden = |cat: &Catalog| {
        cat.skill(&x)
            .and_then(|s| s.verdict("codex"))
            .is_some_and(|v| v.model == Some(false))
    };
    wait(
        &rx,
        "x kept from Codex's model by ~/.codex/config.toml",
        |cat| hidden(cat),
    );

    // Other files beside a settings file change nothing.
    std::fs::write(t.home.join(".codex/history.jsonl"), "{}\n").unwrap();
    std::fs::write(t.project.join(".claude/settings.local.json"), "{}").unwrap();
    let u = wait(&rx, "c enabled again", |cat| {
        status(cat, &c, "claude-code") == Some(Status::Visible)
    });
    assert!(hidden(&u.catalog));
}
