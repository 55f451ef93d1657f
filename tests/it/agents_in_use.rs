//! Agents in use on this machine (a program on PATH, the agent's own folder) and the default
//! agent selection of `list`, `check` and the explorer; unique column labels. Nothing here
//! depends on the test machine's PATH or home: every run passes its own.

use crate::tui_support;

use serde_json::Value;
use skilltui::agents::{self, in_use::Evidence};
use skilltui::env::Env;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Fx {
    _tmp: tempfile::TempDir,
    base: PathBuf,
    project: PathBuf,
    home: PathBuf,
    bin: PathBuf,
}

impl Fx {
    fn new() -> Fx {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().to_path_buf();
        let project = base.join("project");
        let home = base.join("home");
        let bin = base.join("bin");
        for d in [&project, &home, &bin] {
            std::fs::create_dir_all(d).unwrap();
        }
        Fx {
            _tmp: tmp,
            base,
            project,
            home,
            bin,
        }
    }

    fn put(&self, rel: &str, content: &str) -> PathBuf {
        let p = self.base.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
        p
    }

    /// An executable `name` in the fixture's bin folder.
    fn program(&self, name: &str) {
        let p = self.bin.join(name);
        std::fs::write(&p, "#!/bin/sh\nexit 0\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    fn skill(&self, dir: &str, name: &str) {
        self.put(
            &format!("{dir}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: A skill.\n---\nBody.\n"),
        );
    }

    fn env(&self) -> Env {
        Env::new(&self.project, &self.home).with_search_path(self.bin.as_os_str())
    }

    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> (String, String, i32) {
        let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
        c.args(args)
            .arg("--project")
            .arg(&self.project)
            .arg("--home")
            .arg(&self.home)
            .env_clear()
            .env("PATH", &self.bin)
            .env("SKILLTUI_CONFIG", self.base.join("no-config.toml"));
        for (k, v) in env {
            c.env(k, v);
        }
        let o = c.output().unwrap();
        (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
            o.status.code().unwrap_or(-1),
        )
    }
}

fn ids(u: &[agents::InUse]) -> Vec<&str> {
    u.iter().map(|u| u.agent.as_str()).collect()
}

#[test]
fn a_program_on_path_or_the_agents_folder_means_in_use() {
    let fx = Fx::new();
    let models = agents::builtin();
    assert!(agents::in_use(&models, &fx.env()).is_empty());
    // A skills folder alone (what an installer makes for every agent) is no sign.
    fx.skill("home/.claude/skills/one", "one");
    fx.skill("home/.pi/agent/skills/two", "two");
    assert!(agents::in_use(&models, &fx.env()).is_empty());
    fx.program("codex");
    fx.put("home/.claude/settings.json", "{}");
    // A file that is not executable is no program.
    std::fs::write(fx.bin.join("pi"), "not a program").unwrap();
    let found = agents::in_use(&models, &fx.env());
    assert_eq!(ids(&found), ["claude-code", "codex"], "{found:?}");
    let claude = &found[0];
    assert_eq!(claude.evidence.len(), 1);
    assert_eq!(claude.evidence[0].describe(), "~/.claude exists");
    assert_eq!(claude.rules[0], "claude-code/home");
    let codex = &found[1];
    assert!(matches!(&codex.evidence[0], Evidence::Command { name, .. } if name == "codex"));
    assert_eq!(codex.evidence[0].describe(), "`codex` on PATH");
    assert_eq!(codex.rules[0], "codex/command");
    // The variable that moves the folder moves what is looked for.
    let moved = fx.env().with_var(
        "CLAUDE_CONFIG_DIR",
        fx.base.join("elsewhere").to_str().unwrap(),
    );
    assert_eq!(ids(&agents::in_use(&models, &moved)), ["codex"]);
    // Without a PATH, only folders count.
    let no_path = Env::new(&fx.project, &fx.home);
    assert_eq!(ids(&agents::in_use(&models, &no_path)), ["claude-code"]);
}

#[test]
fn default_selection_is_the_agents_in_use_else_the_seeds() {
    let fx = Fx::new();
    let models = agents::builtin();
    let (ids, found) = agents::default_selection(&models, &fx.env());
    assert!(!found);
    assert_eq!(ids, agents::SEED_IDS);
    fx.program("opencode");
    let (ids, found) = agents::default_selection(&models, &fx.env());
    assert!(found);
    assert_eq!(ids, ["opencode"]);
}

#[test]
fn agents_says_which_are_in_use_and_why() {
    let fx = Fx::new();
    fx.program("codex");
    fx.put("home/.claude/settings.json", "{}");
    let (out, err, code) = fx.run(&["agents"], &[]);
    assert_eq!(code, 0, "{err}");
    let line = |id: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap_or_else(|| panic!("{out}"))
            .to_string()
    };
    assert!(line("codex").ends_with("in use: `codex` on PATH"), "{out}");
    assert!(
        line("claude-code").ends_with("in use: ~/.claude exists"),
        "{out}"
    );
    assert!(line("pi").ends_with(" -"), "{out}");
    assert!(out.contains("In use on this machine"), "{out}");
    let (out, _, _) = fx.run(&["agents", "codex"], &[]);
    assert!(out.contains("in use: `codex` on PATH"), "{out}");
    assert!(out.contains("command = codex"), "{out}");
    let (out, _, _) = fx.run(&["agents", "--json"], &[]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let codex = v
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["id"] == "codex")
        .unwrap();
    assert_eq!(codex["in_use"][0]["kind"], "command");
    assert_eq!(codex["in_use"][0]["name"], "codex");
    // None found: the seed agents are named.
    let empty = Fx::new();
    let (out, _, _) = empty.run(&["agents"], &[]);
    assert!(out.contains("No agent found in use"), "{out}");
}

/// The column titles of `list`'s header line.
fn columns(out: &str) -> Vec<String> {
    let header = out
        .lines()
        .find(|l| l.starts_with("SKILL"))
        .unwrap_or_else(|| panic!("{out}"));
    let words: Vec<&str> = header.split_whitespace().collect();
    words[2..words.len() - 1]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn list_shows_the_agents_in_use_and_json_every_agent() {
    let fx = Fx::new();
    fx.skill("project/.agents/skills/one", "one");
    // None in use: the seven seed agents, and a line saying so (there are more agents).
    let (out, err, code) = fx.run(&["list"], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(columns(&out).len(), 7, "{out}");
    assert!(
        out.contains(&format!(
            "Showing 7 of {} agents: no agent was found in use",
            agents::BUILTIN_IDS.len()
        )),
        "{out}"
    );
    fx.program("codex");
    let (out, _, _) = fx.run(&["list"], &[]);
    assert_eq!(columns(&out), ["codex"], "{out}");
    assert!(
        out.contains(&format!(
            "Showing 1 of {} agents: the agents in use",
            agents::BUILTIN_IDS.len()
        )),
        "{out}"
    );
    let (out, _, _) = fx.run(&["list", "--all-agents"], &[]);
    assert_eq!(columns(&out).len(), agents::BUILTIN_IDS.len(), "{out}");
    let (out, _, _) = fx.run(&["list", "--agent", "pi,claude"], &[]);
    assert_eq!(columns(&out), ["pi", "claude"], "{out}");
    let (out, _, _) = fx.run(&["list", "--agent", "pi", "--agent", "cursor"], &[]);
    assert_eq!(columns(&out), ["pi", "cursor"], "{out}");
    let (_, err, code) = fx.run(&["list", "--agent", "nobody"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown agent `nobody`"), "{err}");
    // JSON has every agent whatever is in use.
    let (out, _, _) = fx.run(&["list", "--json"], &[]);
    let v: Value = crate::common::by_agent(serde_json::from_str(&out).unwrap());
    assert_eq!(
        v["agents"].as_array().unwrap().len(),
        agents::BUILTIN_IDS.len()
    );
    assert_eq!(
        v["skills"][0]["agents"].as_object().unwrap().len(),
        agents::BUILTIN_IDS.len()
    );
    // The config file chooses when no flag does.
    let config = fx.put(
        "config.toml",
        "[agents]\nshow = [\"opencode\", \"cursor\"]\n",
    );
    let cfg = config.to_str().unwrap();
    let (out, _, _) = fx.run(&["list"], &[("SKILLTUI_CONFIG", cfg)]);
    assert_eq!(columns(&out), ["opencode", "cursor"], "{out}");
    assert!(out.contains("[agents] show"), "{out}");
    let (out, _, _) = fx.run(&["list", "--agent", "pi"], &[("SKILLTUI_CONFIG", cfg)]);
    assert_eq!(columns(&out), ["pi"], "{out}");
    fx.put("config.toml", "[agents]\nshow = [\"nobody\"]\n");
    let (_, err, code) = fx.run(&["list"], &[("SKILLTUI_CONFIG", cfg)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("[agents] show"), "{err}");
}

#[test]
fn check_text_follows_the_selection_and_json_has_every_agent() {
    let fx = Fx::new();
    fx.skill("project/.agents/skills/one", "one");
    fx.program("pi");
    let (out, _, _) = fx.run(&["check"], &[]);
    assert!(out.contains("checked for pi:"), "{out}");
    let (out, _, _) = fx.run(&["check", "--all-agents"], &[]);
    assert!(out.contains("checked for all agents"), "{out}");
    let (out, _, _) = fx.run(&["check", "--json"], &[]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["agents"].as_array().unwrap().len(),
        agents::BUILTIN_IDS.len(),
        "{v}"
    );
    let (out, _, _) = fx.run(&["check", "--json", "--agent", "codex"], &[]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["agents"].as_array().unwrap().len(), 1, "{v}");
}

#[test]
fn explorer_columns_follow_the_selection_and_a_shows_all() {
    let d = tui_support::demo("u_in_use_cols");
    let mut app = tui_support::app(&d, 120, 30);
    assert_eq!(app.shown_agents().len(), 7);
    app.select_agents(&["codex".to_string(), "pi".to_string()]);
    assert_eq!(app.shown_agents(), [1, 6]);
    let frame = tui_support::frame(&app);
    let header = frame.lines().find(|l| l.contains("SKILL")).unwrap();
    assert!(
        header.contains("codex") && header.contains("pi"),
        "{header}"
    );
    assert!(!header.contains("claude"), "{header}");
    tui_support::keys(&mut app, "A");
    assert_eq!(app.shown_agents().len(), 7);
    let frame = tui_support::frame(&app);
    let header = frame.lines().find(|l| l.contains("SKILL")).unwrap();
    // Seven columns: two-letter titles where full ones do not fit.
    assert!(
        header.contains("claude") || header.contains(" cl cx cp ag cu oc pi"),
        "{header}"
    );
    tui_support::keys(&mut app, "A");
    assert_eq!(app.shown_agents(), [1, 6]);
}

#[test]
fn column_labels_are_unique() {
    let models = agents::builtin();
    assert_eq!(agents::label_clash(&models), None);
    let labels = skilltui::cli::list::column_labels(&models);
    let mut seen = std::collections::BTreeSet::new();
    for l in &labels {
        assert!(seen.insert(l.clone()), "{l} twice in {labels:?}");
    }
    // The explorer cuts titles to the width it has (`present::agent_label`): unique at each.
    for width in [2, 6, 7, 11, 20] {
        let mut seen = std::collections::BTreeSet::new();
        for m in &models {
            let l = skilltui::present::agent_label(m, width);
            assert!(
                seen.insert(l.clone()),
                "explorer column title {l} twice at {width}"
            );
        }
    }
    // The ids of issue 18's agents keep distinct `list` and explorer titles next to the seven.
    let ids: std::collections::BTreeSet<&str> = agents::BUILTIN_IDS
        .iter()
        .copied()
        .chain([
            "gemini-cli",
            "qwen-code",
            "kilo",
            "factory-droid",
            "amp",
            "qoder-cli",
            "cline",
            "auggie",
            "crush",
            "goose",
            "continue",
            "letta-code",
            "mistral-vibe",
            "kimi-code",
        ])
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    for id in &ids {
        let l: String = skilltui::cli::list::short(id).to_string();
        assert!(seen.insert(l.clone()), "{id}: title {l} is taken");
    }
}

#[test]
fn a_clash_of_two_letter_titles_is_a_load_error() {
    let tmp = tempfile::tempdir().unwrap();
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/agents");
    std::fs::copy(
        assets.join("claude-code.toml"),
        tmp.path().join("claude-code.toml"),
    )
    .unwrap();
    let pi = std::fs::read_to_string(assets.join("pi.toml")).unwrap();
    let cline = pi
        .replacen("id = \"pi\"", "id = \"cline\"", 1)
        .replacen("short = \"pi\"\n", "", 1);
    std::fs::write(tmp.path().join("cline.toml"), cline).unwrap();
    let e = agents::load_dir(tmp.path()).unwrap_err();
    assert!(e.to_string().contains("share the column title `cl`"), "{e}");
}
