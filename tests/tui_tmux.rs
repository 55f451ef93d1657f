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
    /// Waits (bounded) until the screen satisfies `ok` and has settled: a frame may be caught
    /// half-written (the new rows over the old ones, seen on a loaded machine), so the screen
    /// is taken only when a second capture 100 ms later is the same.
    fn wait_until(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if ok(&s) {
                std::thread::sleep(Duration::from_millis(100));
                if self.screen() == s {
                    return s;
                }
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

/// The first line of the screen holding `text`, and the lines after it.
fn from_line<'a>(screen: &'a str, text: &str) -> Vec<&'a str> {
    let lines: Vec<&str> = screen.lines().collect();
    match lines.iter().position(|l| l.contains(text)) {
        Some(i) => lines[i..].to_vec(),
        None => Vec::new(),
    }
}

/// Job 2, "make my project copy win", on a generated real-shaped catalog of 1,400 skills with a
/// project copy that a user copy shadows: from the Skills tab (`/`, the name, Enter — the search
/// selects the shadowed copy —, `W`, Enter on the agent the picker offers, Enter on the first
/// plan: 6 keys) and from the Collisions tab (`2`, `W`, Enter on the shadowed copy the picker
/// preselects, Enter on the agent, Enter on the first plan: 5 keys, the name being the first
/// collision) to a preview. The first plan offered loses no agent; a key pressed
/// while the worker plans acts on the table; Esc backs out step by step and never quits.
#[test]
fn job_2_make_the_project_copy_win_in_six_keys() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("notice: tmux is not installed; the end-to-end explorer test is skipped");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(tmp.path()).unwrap();
    let (tree, _) = skilltui::r#gen::generate(
        &base.join("gen"),
        &skilltui::r#gen::Options {
            skills: 1400,
            seed: 0x5eed,
        },
    )
    .unwrap();
    // The project copy and the user copy of one name (a name that sorts before every other
    // collision, so that it is the Collisions tab's first row).
    let name = "aaa-house-style";
    for (root, text) in [
        (
            tree.project.join(".claude/skills"),
            "The project's house style.",
        ),
        (tree.home.join(".claude/skills"), "My own house style."),
    ] {
        let d = root.join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: {text} Use when writing.\n---\n# {name}\n"),
        )
        .unwrap();
    }
    let models = skilltui::agents::builtin();
    let env = skilltui::env::Env::new(&tree.project, &tree.home);
    let cat = skilltui::catalog::Catalog::build(&models, &env);
    let project_copy = tree
        .project
        .join(".claude/skills")
        .join(name)
        .join("SKILL.md");
    let s = cat.skill(&project_copy).expect("the project copy");
    // The agent the picker offers first: the first, in model order, for which the user copy
    // wins.
    let agent = models
        .iter()
        .find(|m| {
            s.verdict(&m.id)
                .is_some_and(|v| v.status == skilltui::resolve::Status::Shadowed)
        })
        .map(|m| m.id.clone())
        .expect("an agent for which the user copy wins");
    let first_collision = {
        let mut labels: Vec<&str> = cat.skills.iter().map(|s| s.label()).collect();
        labels.sort();
        labels.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
    };
    assert_eq!(first_collision, Some(name));

    let bin = env!("CARGO_BIN_EXE_skilltui");
    let t = Tmux {
        socket: format!("skilltui-job2-{}", std::process::id()),
    };
    let script = format!(
        "SKILLTUI_CONFIG={b}/none.toml SKILLTUI_DATA_DIR={b}/data {bin} --project {} --home {}; echo __EXITED__ $?; sleep 30",
        tree.project.display(),
        tree.home.display(),
        b = base.display(),
    );
    t.start(120, 40, &script);
    t.wait_until("the scan", |s| {
        s.contains("errors") && !s.contains("scanning")
    });
    let alive = |t: &Tmux, what: &str| {
        std::thread::sleep(Duration::from_millis(150));
        let s = t.screen();
        assert!(!s.contains("__EXITED__"), "quit after {what}:\n{s}");
    };
    let title = format!("Make {name} win for {agent}");
    let plans_shown = |s: &str| s.contains(&title) && s.contains("best first");
    // The first plan's entry: no loss.
    let first_loses_nothing = |s: &str| {
        let entry: Vec<&str> = from_line(s, "1. make")
            .into_iter()
            .take_while(|l| !l.contains("2. make"))
            .collect();
        assert!(!entry.is_empty(), "no first plan:\n{s}");
        assert!(
            entry.iter().any(|l| l.contains("loses: none"))
                && !entry.iter().any(|l| l.contains("LOSES")),
            "the first plan loses an agent:\n{s}"
        );
    };

    // From the Skills tab: `/`, the name, Enter (keys 1–3).
    t.keys(&["/"]);
    t.keys(&["-l", name]);
    t.keys(&["Enter"]);
    t.wait_until("the two copies", |s| s.matches(name).count() >= 2);
    // Which copy is selected (y copies its path and says so).
    t.keys(&["y"]);
    let before = t.wait_for("copied ");
    let home = tree.home.display().to_string();
    let copied_home = |screen: &str| {
        screen
            .lines()
            .find(|l| l.contains("copied "))
            .is_some_and(|l| l.contains(&home))
    };
    // The search selects the copy the user copy shadows (the project copy), so no `j`.
    assert!(
        !copied_home(&before),
        "the search did not select the shadowed (project) copy:\n{before}"
    );
    // The key pressed while planning moves the selection to the user copy (the row above or
    // below, as the table orders the two paths).
    let during = if tree.home.join(".claude") < tree.project.join(".claude") {
        "k"
    } else {
        "j"
    };
    // `W` (4): the agent picker, on the agent the user copy wins for.
    t.keys(&["W"]);
    // The picker is about the project copy: the agent it offers is one for which it is
    // shadowed now.
    let offered = format!("{agent}  (shadowed now)");
    t.wait_until("the agent picker", |s| {
        s.contains("win for which agent?") && s.contains(&offered)
    });
    // Enter (5) starts the planner on the worker; `j` sent with it acts on the table at once.
    let started = Instant::now();
    t.keys(&["Enter", during]);
    let s = t.wait_until("the plan list", plans_shown);
    let to_plans = started.elapsed();
    first_loses_nothing(&s);
    // Enter (6): the preview of the first plan, with the verdicts after.
    let started = Instant::now();
    t.keys(&["Enter"]);
    let s = t.wait_until("the preview", |s| {
        s.contains("Preview of plan 1") && s.contains("verdicts of this skill")
    });
    let to_preview = started.elapsed();
    assert!(s.contains("applies"), "{s}");
    eprintln!(
        "job 2 from the Skills tab: 6 keys; plans after {} ms, preview after {} ms",
        to_plans.as_millis(),
        to_preview.as_millis()
    );
    // Esc: back to the list, then closed; never quits.
    t.keys(&["Escape"]);
    t.wait_until("the plan list again", plans_shown);
    alive(&t, "Esc in the preview");
    t.keys(&["Escape"]);
    t.wait_until("the list closed", |s| !s.contains("best first"));
    alive(&t, "Esc in the plan list");
    // The `j` pressed while planning moved the table's selection to the other copy.
    t.keys(&["y"]);
    let after = t.wait_for("copied ");
    assert!(
        copied_home(&after),
        "the key pressed while planning did not move the selection to the user copy:\n{after}"
    );

    // From the Collisions tab: `2`, `W`, Enter (the copy), Enter (the agent), Enter (the plan).
    t.keys(&["Escape", "Escape"]);
    t.keys(&["2"]);
    t.wait_until("the Collisions tab", |s| s.contains(name));
    t.keys(&["W"]);
    let s = t.wait_until("the copy picker", |s| s.contains("Which copy should win?"));
    // The picker lists the user copy first (its path sorts first) and preselects the copy the
    // other one shadows (the project copy): Enter takes it, 5 keys in all.
    let user_first = s
        .lines()
        .skip_while(|l| !l.contains("Which copy should win?"))
        .find(|l| l.contains(name))
        .is_some_and(|l| l.contains("~/.claude"));
    assert!(user_first, "{s}");
    t.keys(&["Enter"]);
    t.wait_until("the agent picker on the project copy", |s| {
        s.contains("win for which agent?") && s.contains(&offered)
    });
    t.keys(&["Enter"]);
    let any_plans =
        |s: &str| s.contains(&format!("Make {name} win for")) && s.contains("best first");
    let s = t.wait_until("the plan list", any_plans);
    first_loses_nothing(&s);
    t.keys(&["Enter"]);
    t.wait_until("the preview", |s| {
        s.contains("Preview of plan 1") && s.contains("verdicts of this skill")
    });
    t.keys(&["Escape", "Escape", "Escape"]);
    alive(&t, "Esc from the preview on the Collisions tab");
    t.keys(&["q"]);
    let s = t.wait_for("__EXITED__");
    assert!(s.contains("__EXITED__ 0"), "{s}");
}
