//! End to end: the real binary in a real terminal (tmux), keys typed, the screen read, and the
//! terminal checked to be restored after `q`. Skipped with a notice when tmux is not installed
//! (.ci/run installs it).

use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
    /// Starts session `t` (`cols`×`rows`) running `script` in sh.
    fn start(&self, cols: u16, rows: u16, script: &str) {
        let (cols, rows) = (cols.to_string(), rows.to_string());
        self.run(&[
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            &cols,
            "-y",
            &rows,
            "sh",
            "-c",
            script,
        ]);
    }
    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "t"])
    }
    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        self.run(&args);
    }
    /// Waits (bounded) until the screen satisfies `ok` (a frame may be caught half-written, so
    /// conditions on several parts of the screen are checked together).
    fn wait_until(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if ok(&s) {
                return s;
            }
            if start.elapsed() > Duration::from_secs(20) {
                panic!("{what} did not happen; the screen is:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits (bounded) until the screen contains `text`.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            if start.elapsed() > Duration::from_secs(20) {
                panic!("`{text}` did not appear; the screen is:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

#[test]
fn explorer_in_a_real_terminal() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("notice: tmux is not installed; the end-to-end explorer test is skipped");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_skilltui");
    let t = Tmux {
        socket: format!("skilltui-test-{}", std::process::id()),
    };
    let script = format!("{bin} --demo; echo __EXITED__ $?; stty -a; echo __DONE__; sleep 30");
    t.start(120, 35, &script);
    // The whole first screen: names (cut with `…` where longer than their column), every
    // agent by name, tabs, the legend.
    t.wait_until("the first screen", |s| {
        s.contains("release-notes")
            && s.contains("data-visualiza")
            && s.contains("copilot")
            && s.contains("1 Skills")
            && (s.contains("✓vis") || s.contains("✓ visible"))
    });

    // Search, keep the query, open the detail.
    t.keys(&["/", "code-rev"]);
    // The search filters the table (release-notes goes away once the query is typed).
    t.wait_until("the search filtering the table", |s| {
        s.contains("/code-rev") && !s.contains("release-notes")
    });
    t.keys(&["Enter", "Enter"]);
    t.wait_until("the why pane of code-review", |s| {
        s.contains("Claude Code does not scan") && s.contains("code-review")
    });

    // `Y` on a source without a URL (Claude Code's not-root ~/.agents/skills is an inference)
    // shows the source in the footer instead of copying.
    t.keys(&["Y"]);
    t.wait_until("the shown source", |s| {
        s.lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.starts_with("claude-code/not_roots") && l.contains("inferred from"))
    });

    // Help overlay, the legend, then quit.
    t.keys(&["?"]);
    t.wait_for("closes this help");
    t.keys(&["?"]);
    t.wait_for("a verdict is as strong as its weakest rule");
    t.keys(&["Escape"]);
    let start = Instant::now();
    while t.screen().contains("closes this help") && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    t.keys(&["q"]);
    let s = t.wait_for("__DONE__");
    assert!(s.contains("__EXITED__ 0"), "exit status 0:\n{s}");
    // The terminal is back in cooked mode with echo, on the main screen.
    assert!(
        s.contains(" icanon") && s.contains(" echo"),
        "stty after exit:\n{s}"
    );
    assert!(!s.contains("-icanon"), "still in raw mode:\n{s}");
    let alt = t.run(&["display-message", "-p", "-t", "t", "#{alternate_on}"]);
    assert_eq!(alt.trim(), "0", "still on the alternate screen");
}

#[test]
fn a_panic_restores_the_terminal_and_says_where_the_report_is() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("notice: tmux is not installed; the panic test is skipped");
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_skilltui");
    let t = Tmux {
        socket: format!("skilltui-panic-{}", std::process::id()),
    };
    let script = format!(
        "SKILLTUI_TEST_PANIC=1 SKILLTUI_DATA_DIR={d} {bin} --demo 2>{d}/err; tail -3 {d}/err; echo __EXITED__; stty -a; echo __DONE__; sleep 30",
        d = data.path().display()
    );
    t.start(150, 40, &script);
    let s = t.wait_for("__DONE__");
    assert!(s.contains("a report was written to"), "{s}");
    assert!(
        s.contains(" icanon") && !s.contains("-icanon"),
        "still in raw mode:\n{s}"
    );
    let alt = t.run(&["display-message", "-p", "-t", "t", "#{alternate_on}"]);
    assert_eq!(alt.trim(), "0", "still on the alternate screen");
    let reports: Vec<_> = std::fs::read_dir(data.path().join("crashes"))
        .unwrap()
        .collect();
    assert_eq!(reports.len(), 1);
    let text = std::fs::read_to_string(reports[0].as_ref().unwrap().path()).unwrap();
    assert!(
        text.contains("deliberate panic") && text.contains("backtrace"),
        "{text}"
    );
}

/// The "done when": a skill edited in another terminal changes its verdicts in the
/// running explorer, which keeps the selection and the open pane.
#[test]
fn an_edit_in_another_terminal_shows_up_live() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("notice: tmux is not installed; the end-to-end explorer test is skipped");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    for (name, description) in [
        ("alpha-skill", "First one."),
        ("beta-skill", "Second one."),
        ("gamma-skill", "Third one."),
    ] {
        let d = project.join(".agents/skills").join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n"),
        )
        .unwrap();
    }
    let bin = env!("CARGO_BIN_EXE_skilltui");
    let t = Tmux {
        socket: format!("skilltui-live-{}", std::process::id()),
    };
    let script = format!(
        "{bin} --project {} --home {}; echo __EXITED__ $?; sleep 30",
        project.display(),
        home.display()
    );
    t.start(120, 35, &script);
    t.wait_until("the three skills", |s| {
        s.contains("alpha-skill") && s.contains("beta-skill") && s.contains("gamma-skill")
    });
    // Select beta-skill and open its Why pane.
    t.keys(&["j", "Enter"]);
    let before = t.wait_until("beta-skill's why pane", |s| {
        s.contains("beta-skill  project scope") && s.contains("visible from .agents/skills")
    });
    assert!(!before.contains("must be quoted") && !before.contains("updated"));

    // Another terminal breaks it for Copilot CLI (an unquoted colon in the description).
    std::fs::write(
        project.join(".agents/skills/beta-skill/SKILL.md"),
        "---\nname: beta-skill\ndescription: Use when: it breaks\n---\n",
    )
    .unwrap();
    // The header says the catalog was updated, the Why pane still shows beta-skill, now with
    // the YAML error (the row's Copilot column turns to ✗).
    let s = t.wait_until("the update, beta-skill still open", |s| {
        s.contains("updated")
            && s.contains("beta-skill  project scope")
            && s.contains("must be quoted")
    });
    assert!(
        !s.contains("alpha-skill  project scope") && !s.contains("gamma-skill  project scope"),
        "the pane moved to another skill:\n{s}"
    );
    t.keys(&["q"]);
    let s = t.wait_for("__EXITED__");
    assert!(s.contains("__EXITED__ 0"), "{s}");
}

/// Job 1, "why doesn't Codex see X?", on a generated real-shaped catalog of 1,400 skills:
/// `/`, the name, Enter — three keys and the name — and Codex's answer (glyph, verdict, the
/// deciding reason) is the first line of its section, on screen at 120×35.
#[test]
fn why_codex_does_not_see_a_skill_in_three_keys() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("notice: tmux is not installed; the end-to-end explorer test is skipped");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (tree, _) = skilltui::r#gen::generate(
        tmp.path(),
        &skilltui::r#gen::Options {
            skills: 1400,
            seed: 0x5eed,
        },
    )
    .unwrap();
    let models = skilltui::agents::builtin();
    let env = skilltui::env::Env::new(&tree.project, &tree.home);
    let cat = skilltui::catalog::Catalog::build(&models, &env);
    // A skill Codex does not list, with a name no other skill contains.
    let labels: Vec<&str> = cat.skills.iter().map(|s| s.label()).collect();
    let s = cat
        .skills
        .iter()
        .find(|s| {
            let l = s.label();
            s.verdict("codex")
                .is_some_and(|v| v.status == skilltui::resolve::Status::NotFound)
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && labels.iter().filter(|o| o.contains(l)).count() == 1
        })
        .expect("a skill Codex does not see");
    let v = s.verdict("codex").unwrap();
    let reason = &v.deciding().unwrap().message;
    let start: String = skilltui::present::shorten(&env, reason)
        .chars()
        .take(24)
        .collect();
    let bin = env!("CARGO_BIN_EXE_skilltui");
    let t = Tmux {
        socket: format!("skilltui-job1-{}", std::process::id()),
    };
    let script = format!(
        "{bin} --project {} --home {}; echo __EXITED__ $?; sleep 30",
        tree.project.display(),
        tree.home.display()
    );
    t.start(120, 35, &script);
    t.wait_until("the scan", |s| {
        s.contains("errors") && !s.contains("scanning")
    });
    t.keys(&["/"]);
    t.keys(&["-l", s.label()]);
    t.keys(&["Enter"]);
    let title = format!("{}  {} scope", s.label(), s.scope.as_str());
    let screen = t.wait_until("Codex's answer", |sc| {
        sc.contains(&title)
            && sc
                .lines()
                .any(|l| l.contains(&format!("· codex        not found: {start}")))
    });
    // The answer is on the pane's first screen, above every other reason.
    let at = screen
        .lines()
        .position(|l| l.contains("· codex        not found:"))
        .unwrap();
    let first_reason = screen
        .lines()
        .position(|l| l.contains("  • "))
        .unwrap_or(usize::MAX);
    assert!(at < first_reason && at < 12, "{screen}");
    t.keys(&["q"]);
    let s = t.wait_for("__EXITED__");
    assert!(s.contains("__EXITED__ 0"), "{s}");
}

/// Esc pressed on every tab, in the help, in the pickers and the search never quits; `q` does,
/// and the terminal is restored.
#[test]
fn esc_never_quits_and_q_restores_the_terminal() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("notice: tmux is not installed; the end-to-end explorer test is skipped");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_skilltui");
    let t = Tmux {
        socket: format!("skilltui-esc-{}", std::process::id()),
    };
    let cfg = tempfile::tempdir().unwrap();
    let script = format!(
        "SKILLTUI_CONFIG={}/none.toml {bin} --demo; echo __EXITED__ $?; stty -a; echo __DONE__; sleep 30",
        cfg.path().display()
    );
    t.start(120, 35, &script);
    t.wait_until("the first screen", |s| {
        s.contains("release-notes") && s.contains("1 Skills")
    });
    let alive = |t: &Tmux, what: &str| {
        // A quit would leave the alternate screen and print __EXITED__.
        std::thread::sleep(Duration::from_millis(150));
        let s = t.screen();
        assert!(!s.contains("__EXITED__"), "quit after {what}:\n{s}");
    };
    for tab in ["1", "2", "3", "4", "5", "6"] {
        t.keys(&[tab]);
        t.keys(&["Escape", "Escape", "Escape"]);
        alive(&t, &format!("Esc on tab {tab}"));
        t.keys(&["Enter", "Escape", "Escape"]);
        alive(&t, &format!("Enter Esc on tab {tab}"));
    }
    t.keys(&["1"]);
    // The help, the agent picker, the W picker, the search.
    t.keys(&["?"]);
    t.wait_for("closes this help");
    t.keys(&["Escape"]);
    alive(&t, "Esc in the help");
    t.keys(&["a"]);
    t.wait_for("Show which agent?");
    t.keys(&["Escape", "Escape"]);
    alive(&t, "Esc in the agent picker");
    t.keys(&["W"]);
    t.wait_for("win for which agent?");
    t.keys(&["Escape"]);
    t.keys(&["/", "pdf", "Escape", "Escape"]);
    alive(&t, "Esc in the search");
    assert!(t.screen().contains("1 Skills"));
    // `q` in the help only closes it.
    t.keys(&["?"]);
    t.wait_for("closes this help");
    t.keys(&["q"]);
    alive(&t, "q in the help");
    t.keys(&["q"]);
    let s = t.wait_for("__DONE__");
    assert!(s.contains("__EXITED__ 0"), "exit status 0:\n{s}");
    assert!(
        s.contains(" icanon") && !s.contains("-icanon") && s.contains(" echo"),
        "stty after exit:\n{s}"
    );
    let alt = t.run(&["display-message", "-p", "-t", "t", "#{alternate_on}"]);
    assert_eq!(alt.trim(), "0", "still on the alternate screen");
}
