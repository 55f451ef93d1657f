//! Sharing a whole cause: "N skills in ~/.agents/skills not seen by Claude Code" becomes one
//! plan (`planner::share`) — from the Problems tab (`S`, preview, `y`, `u`) and headless
//! (`skilltui share --root ROOT --agent ID`), both on a temporary tree.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::findings::Code;
use skilltui::resolve::Status;
use skilltui::tui::app::{ActionUi, App, Tab};
use skilltui::tui::effects::Cmd;
use skilltui::tui::update::{Msg, update};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::common::DataTree;
use crate::tui_support::{frame, run_jobs};

/// Three skills in `~/.agents/skills` (Codex reads it, Claude Code does not) and one project
/// skill both read.
fn fixture() -> DataTree {
    let mut tree = String::from(
        "@@ project/.git/HEAD\nref: refs/heads/main\n@@ mkdir project/.git/objects\n@@ mkdir project/.git/refs\n\
         @@ project/.claude/skills/local/SKILL.md\n---\nname: local\ndescription: A project skill.\n---\nBody.\n",
    );
    for n in ["alpha", "beta", "gamma"] {
        tree.push_str(&format!(
            "@@ home/.agents/skills/{n}/SKILL.md\n---\nname: {n}\ndescription: Does {n} things.\n---\nBody.\n"
        ));
    }
    DataTree::new(&tree)
}

fn models() -> Vec<skilltui::agents::AgentModel> {
    skilltui::agents::builtin()
        .into_iter()
        .filter(|m| m.id == "claude-code" || m.id == "codex")
        .collect()
}

fn visible_to(project: &Path, home: &Path, agent: &str) -> Vec<String> {
    let cat = Catalog::build(&models(), &Env::new(project, home));
    let mut v: Vec<String> = cat
        .skills
        .iter()
        .filter(|s| {
            s.verdict(agent)
                .is_some_and(|v| v.status == Status::Visible)
        })
        .map(|s| s.label().to_string())
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Every file, folder and link under the project and the home, with its bytes or target.
fn snapshot(fx: &DataTree) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(&fx.project)
        .sort_by_file_name()
        .into_iter()
        .chain(walkdir::WalkDir::new(&fx.home).sort_by_file_name())
    {
        let e = e.unwrap();
        let p = e.path().to_path_buf();
        if e.path_is_symlink() {
            let t = std::fs::read_link(&p).unwrap();
            out.push((p, t.into_os_string().into_encoded_bytes()));
        } else if e.file_type().is_file() {
            out.push((p.clone(), std::fs::read(&p).unwrap()));
        } else {
            out.push((p, b"<dir>".to_vec()));
        }
    }
    out
}

fn press(app: &mut App, c: char) -> Vec<Cmd> {
    let m = if c.is_ascii_uppercase() {
        KeyModifiers::SHIFT
    } else {
        KeyModifiers::NONE
    };
    update(app, Msg::Key(KeyEvent::new(KeyCode::Char(c), m)))
}

#[test]
fn share_a_whole_cause_from_the_problems_tab_with_preview_and_undo() {
    let fx = fixture();
    assert_eq!(visible_to(&fx.project, &fx.home, "claude-code"), ["local"]);
    let before = snapshot(&fx);

    let models = models();
    let env = Env::new(&fx.project, &fx.home);
    let cat = Catalog::build(&models, &env);
    let problems = skilltui::tui::app::Problems::new(&cat, &models);
    let mut app = App::new(Arc::new(models), env, 120, 35);
    // The journal and the trash go to the test's own data folder.
    app.data_dir = Some(fx.data.clone());
    update(
        &mut app,
        Msg::Snapshot {
            catalog: Arc::new(cat),
            findings: skilltui::tui::app::SnapshotFindings::Made(Arc::new(problems)),
            texts: None,
            update: None,
        },
    );
    // The Problems tab, on the cause "3 skills in ~/.agents/skills not read by Claude Code".
    press(&mut app, '6');
    assert_eq!(app.tab, Tab::Problems);
    let at = app
        .problems
        .groups
        .iter()
        .position(|g| g.code == Code::RootNotScanned && g.agents == ["claude-code"])
        .unwrap_or_else(|| panic!("no cause for ~/.agents/skills: {:?}", app.problems.groups));
    for _ in 0..at {
        update(
            &mut app,
            Msg::Key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE)),
        );
    }
    assert_eq!(app.side_cursor, at);
    let f = frame(&app);
    assert!(f.contains("S share"), "the footer offers share:\n{f}");

    // S: planned on the worker (busy, keys still act), then previewed.
    let cmds = press(&mut app, 'S');
    assert!(app.busy.is_some(), "{:?}", app.action);
    assert!(frame(&app).contains("planning how to share 3 skills with claude-code"));
    run_jobs(&mut app, cmds);
    let lines = match &app.action {
        Some(ActionUi::Preview { lines, .. }) => lines.clone(),
        other => panic!("expected a preview, got {other:?}"),
    };
    let text = lines.join("\n");
    assert!(text.contains("+ gains: claude-code (3 skills)"), "{text}");
    assert!(text.contains("losses: none"), "{text}");
    let f = frame(&app);
    assert!(
        f.contains("Preview") && f.contains("claude-code (3 skills)"),
        "{f}"
    );
    assert_eq!(snapshot(&fx), before, "the preview changes nothing");

    // y: applied through the journal; the rescan shows Claude Code listing all three.
    let cmds = press(&mut app, 'y');
    run_jobs(&mut app, cmds);
    assert!(app.action.is_none(), "{:?}", app.action);
    assert!(frame(&app).contains("done: "), "{}", frame(&app));
    assert_eq!(
        visible_to(&fx.project, &fx.home, "claude-code"),
        ["alpha", "beta", "gamma", "local"]
    );
    // Codex lost nothing (it never read the project's `.claude/skills`).
    assert_eq!(
        visible_to(&fx.project, &fx.home, "codex"),
        ["alpha", "beta", "gamma"]
    );

    // u: undone, the home is as it was, byte for byte.
    let cmds = press(&mut app, 'u');
    run_jobs(&mut app, cmds);
    assert_eq!(snapshot(&fx), before);
    assert_eq!(visible_to(&fx.project, &fx.home, "claude-code"), ["local"]);
}

#[test]
fn share_a_root_headless_with_the_same_planner() {
    let fx = fixture();
    let bin = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_skilltui"))
            .args(args)
            .arg("--project")
            .arg(&fx.project)
            .arg("--home")
            .arg(&fx.home)
            .env("SKILLTUI_DATA_DIR", &fx.data)
            .env("NO_COLOR", "1")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let root = fx.home.join(".agents/skills");
    let root = root.to_str().unwrap();
    let before = snapshot(&fx);
    // A dry run lists the plans, best first: the first gains Claude Code all three, loses none.
    let out = bin(&[
        "share",
        "--root",
        root,
        "--agent",
        "claude",
        "--json",
        "--dry-run",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &doc["plans"][0];
    assert_eq!(first["achieves"], true, "{first:#}");
    assert_eq!(first["losses"].as_array().unwrap().len(), 0, "{first:#}");
    let gained: std::collections::BTreeSet<&str> = first["gains"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["agent"] == "claude-code")
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(gained.len(), 3, "{first:#}");
    assert_eq!(snapshot(&fx), before, "a dry run changes nothing");
    // --yes applies it; undo brings the bytes back.
    let out = bin(&["share", "--root", root, "--agent", "claude-code", "--yes"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cat = Catalog::build(
        &skilltui::agents::builtin(),
        &Env::new(&fx.project, &fx.home),
    );
    for n in ["alpha", "beta", "gamma"] {
        assert!(
            cat.skills.iter().any(|s| s.label() == n
                && s.verdict("claude-code")
                    .is_some_and(|v| v.status == Status::Visible)),
            "claude-code does not list {n}"
        );
    }
    let out = bin(&["undo", "--yes"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(snapshot(&fx), before);
}
