//! The headless commands that match the explorer, through the real binary: `tokens`, `list`'s
//! `--agent`/`--scope`/`--status` filters, every skill command taking a name or a path (an
//! ambiguous name lists its copies and exits 2), and `validate` on a folder of skill folders.
//! Every run clears the environment (PATH only) and passes `--project`/`--home`.

use crate::common::{Tree, code, json, skilltui_cmd, stderr, stdout, tree_fixture};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

tree_fixture!(Fx);

impl Fx {
    fn new() -> Fx {
        Fx(Tree::git())
    }

    /// Runs the binary with `args` plus `--project P --home H` (and the journal in the temp
    /// folder).
    fn run(&self, args: &[&str]) -> Output {
        let mut c = skilltui_cmd();
        c.env("SKILLTUI_DATA_DIR", self.base.join("data"));
        c.args(args)
            .arg("--project")
            .arg(&self.project)
            .arg("--home")
            .arg(&self.home);
        c.output().expect("run skilltui")
    }
}

#[track_caller]
fn exits(o: &Output, want: i32) {
    assert_eq!(
        code(o),
        want,
        "stdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
}

/// A portable skill under `.agents/skills` (Claude Code does not read it), a Claude skill,
/// and a project/user collision.
fn sample() -> Fx {
    let f = Fx::new();
    f.skill(
        "project/.agents/skills/portable",
        "portable",
        "Portable skill.",
    );
    f.skill("project/.claude/skills/native", "native", "Claude skill.");
    f.skill("project/.claude/skills/dup", "dup", "Project copy.");
    f.skill("home/.claude/skills/dup", "dup", "User copy.");
    f
}

// ------------------------------------------------------------------------------------------
// tokens

#[test]
fn tokens_per_agent_against_the_budget() {
    let f = Fx::new();
    // 40 skills with 400-character descriptions in Claude Code's project root: ≈ 4,000 tokens
    // for Claude Code, over its budget (1 % of an assumed 200,000-token window).
    let long = "Describes the thing in detail. ".repeat(13);
    for i in 0..40 {
        f.skill(
            &format!("project/.claude/skills/s{i:02}"),
            &format!("s{i:02}"),
            long.trim(),
        );
    }
    let o = f.run(&["tokens", "--json"]);
    exits(&o, 0);
    let j = json(&o);
    let reports = j.as_array().unwrap();
    // JSON has every agent.
    assert_eq!(reports.len(), skilltui::agents::BUILTIN_IDS.len(), "{j:#}");
    let claude = reports
        .iter()
        .find(|r| r["agent"] == "claude-code")
        .unwrap();
    let entries = claude["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 40);
    let total: u64 = entries.iter().map(|e| e["tokens"].as_u64().unwrap()).sum();
    assert_eq!(claude["total_tokens"].as_u64(), Some(total));
    let budget = claude["budget_tokens"].as_u64().unwrap();
    assert!(total > budget, "{total} > {budget}");
    assert_eq!(claude["over_budget"], true);
    let ratio = claude["ratio"].as_f64().unwrap();
    assert!((ratio - total as f64 / budget as f64).abs() < 1e-9);
    // An agent whose budget is unknown: no ratio.
    let pi = reports.iter().find(|r| r["agent"] == "pi").unwrap();
    assert!(pi["budget_tokens"].is_null() && pi["ratio"].is_null());

    // Text: the figures with thousands separators and the ratio.
    let o = f.run(&["tokens"]);
    exits(&o, 0);
    let text = stdout(&o);
    let sep = |n: u64| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    let want = format!("{} / {} ({:.1}×)", sep(total), sep(budget), ratio);
    let line = text
        .lines()
        .find(|l| l.starts_with("claude-code"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains(&want), "{want:?} in {line:?}");
    assert!(line.contains(" 40 "), "{line}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("pi ") && l.contains("/ ? (budget unknown)")),
        "{text}"
    );
    assert!(!text.contains('\x1b'), "no colour when not a terminal");

    // One agent, any spelling: its entries, largest first, those cut first marked.
    let o = f.run(&["tokens", "--agent", "Claude Code"]);
    exits(&o, 0);
    let text = stdout(&o);
    assert!(!text.contains("\ncodex"), "{text}");
    assert_eq!(text.matches(".claude/skills/s").count(), 40, "{text}");
    assert!(text.contains("(cut first)"), "{text}");
    exits(&f.run(&["tokens", "--agent", "nobody"]), 2);
}

// ------------------------------------------------------------------------------------------
// list filters

/// The paths of the skills in `list --json` output.
fn paths(j: &Value) -> BTreeSet<String> {
    j["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn list_filters_combine_with_and() {
    let f = sample();
    // A copy some agents reject: an unquoted `: ` in the description.
    f.put(
        "home/.agents/skills/broken/SKILL.md",
        "---\nname: broken\ndescription: Use it: when needed\n---\n",
    );
    let full = json(&f.run(&["list", "--json"]));
    let skills = full["skills"].as_array().unwrap().clone();
    assert_eq!(skills.len(), 5);
    // The expected result of a filter, computed from the full listing.
    let expect = |agents: &[&str], scopes: &[&str], statuses: &[&str]| -> BTreeSet<String> {
        skills
            .iter()
            .filter(|s| scopes.is_empty() || scopes.contains(&s["scope"].as_str().unwrap()))
            .filter(|s| {
                statuses.is_empty()
                    || s["agents"].as_object().unwrap().iter().any(|(a, v)| {
                        (agents.is_empty() || agents.contains(&a.as_str()))
                            && statuses.contains(&v["status"].as_str().unwrap())
                    })
            })
            .map(|s| s["path"].as_str().unwrap().to_string())
            .collect()
    };
    type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a [&'a str], &'a [&'a str]);
    let cases: &[Case] = &[
        // (arguments, agents, scopes, statuses)
        (&["--scope", "user"], &[], &["user"], &[]),
        (&["--scope", "project"], &[], &["project"], &[]),
        (
            &["--agent", "claude", "--status", "shadowed"],
            &["claude-code"],
            &[],
            &["shadowed"],
        ),
        (
            &["--agent", "Claude Code", "--status", "not-found"],
            &["claude-code"],
            &[],
            &["not-found"],
        ),
        (&["--status", "rejected"], &[], &[], &["rejected"]),
        (
            &[
                "--agent", "codex", "--scope", "project", "--status", "visible",
            ],
            &["codex"],
            &["project"],
            &["visible"],
        ),
        (
            &[
                "--agent",
                "cl",
                "--agent",
                "codex",
                "--status",
                "shadowed",
                "--status",
                "not-found",
            ],
            &["claude-code", "codex"],
            &[],
            &["shadowed", "not-found"],
        ),
    ];
    for (args, agents, scopes, statuses) in cases {
        let mut all = vec!["list", "--json"];
        all.extend_from_slice(args);
        let o = f.run(&all);
        exits(&o, 0);
        let j = json(&o);
        let want = expect(agents, scopes, statuses);
        assert_eq!(paths(&j), want, "{args:?}");
        // With --agent, only those agents' verdicts and columns.
        if !agents.is_empty() {
            for s in j["skills"].as_array().unwrap() {
                let keys: Vec<&String> = s["agents"].as_object().unwrap().keys().collect();
                assert_eq!(keys, agents.to_vec(), "{args:?}");
            }
            assert_eq!(j["agents"].as_array().unwrap().len(), agents.len());
        }
    }
    // The cases are not vacuous: each kind of filter keeps something and drops something.
    assert_eq!(expect(&["claude-code"], &[], &["shadowed"]).len(), 1);
    assert_eq!(expect(&["claude-code"], &[], &["not-found"]).len(), 2);
    assert_eq!(expect(&[], &["user"], &[]).len(), 2);
    assert_eq!(expect(&[], &[], &["rejected"]).len(), 1);

    // Text: one column for one agent; a filter that keeps nothing says so.
    let o = f.run(&["list", "--agent", "codex"]);
    exits(&o, 0);
    let header = stdout(&o).lines().next().unwrap().to_string();
    assert!(
        header.contains("codex") && !header.contains("claude"),
        "{header}"
    );
    assert!(
        stdout(&o).contains("\n5 of 5 skills, "),
        "the summary counts before and after the filters: {}",
        stdout(&o)
    );
    let o = f.run(&["list", "--scope", "user"]);
    assert!(stdout(&o).contains("\n2 of 5 skills, "), "{}", stdout(&o));
    let o = f.run(&["list", "--scope", "system"]);
    exits(&o, 0);
    assert!(
        stdout(&o).contains("No skill matches these filters"),
        "{}",
        stdout(&o)
    );
    exits(&f.run(&["list", "--agent", "nobody"]), 2);
    exits(&f.run(&["list", "--status", "hidden"]), 2);
}

// ------------------------------------------------------------------------------------------
// a skill by name or path

#[test]
fn commands_take_a_name_or_a_path() {
    let f = sample();
    let native = f.project.join(".claude/skills/native");
    // why: by path (the folder or its SKILL.md), as by name.
    for arg in [
        native.display().to_string(),
        native.join("SKILL.md").display().to_string(),
        "native".into(),
    ] {
        let o = f.run(&["why", &arg]);
        exits(&o, 0);
        assert!(stdout(&o).starts_with("`native`: 1 file"), "{}", stdout(&o));
    }
    // why with a shared name explains every copy (that is its job).
    let o = f.run(&["why", "dup"]);
    exits(&o, 0);
    assert!(stdout(&o).starts_with("`dup`: 2 files"), "{}", stdout(&o));

    // rename, mv, fix, rm: a unique name is the skill.
    let o = f.run(&["rename", "native", "native-two", "--dry-run"]);
    exits(&o, 0);
    assert!(stdout(&o).contains("+name: native-two"), "{}", stdout(&o));
    let o = f.run(&["rm", "portable", "--dry-run"]);
    exits(&o, 0);
    assert!(stdout(&o).contains("portable"), "{}", stdout(&o));
    let o = f.run(&["mv", "portable", ".claude/skills", "--dry-run"]);
    exits(&o, 0);
    let o = f.run(&["fix", "native", "--list"]);
    exits(&o, 0);

    // An ambiguous name: the copies with root and scope, exit 2, nothing changed.
    for args in [
        &["rename", "dup", "dup-two", "--yes"][..],
        &["rm", "dup", "--yes"],
        &["mv", "dup", ".agents/skills", "--yes"],
        &["fix", "dup", "--yes"],
        &["fix", "dup", "--list"],
    ] {
        let o = f.run(args);
        exits(&o, 2);
        let err = stderr(&o);
        assert!(err.contains("`dup` names 2 skills"), "{args:?}: {err}");
        let lines: Vec<&str> = err.lines().collect();
        assert!(
            lines
                .iter()
                .any(|l| l.contains(".claude/skills/dup/SKILL.md")
                    && l.contains(" .claude/skills ")
                    && l.ends_with("project")),
            "{err}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.contains("~/.claude/skills/dup/SKILL.md")
                    && l.contains(" ~/.claude/skills ")
                    && l.ends_with("user")),
            "{err}"
        );
        assert!(f.project.join(".claude/skills/dup/SKILL.md").is_file());
        assert!(f.home.join(".claude/skills/dup/SKILL.md").is_file());
    }
    // The path of one copy settles it.
    let o = f.run(&[
        "rename",
        &f.home.join(".claude/skills/dup").display().to_string(),
        "dup-mine",
        "--dry-run",
    ]);
    exits(&o, 0);

    // No such name or path: refused (1).
    let o = f.run(&["rm", "nosuch", "--yes"]);
    exits(&o, 1);
    assert!(
        stderr(&o).contains("no skill is named `nosuch`"),
        "{}",
        stderr(&o)
    );

    // Applied by name.
    let o = f.run(&["rename", "native", "native-two", "--yes"]);
    exits(&o, 0);
    let text = std::fs::read_to_string(native.join("SKILL.md")).unwrap();
    assert!(text.contains("name: native-two"), "{text}");
}

// ------------------------------------------------------------------------------------------
// validate ROOT

#[test]
fn validate_a_folder_of_skill_folders() {
    let f = Fx::new();
    let root = f.base.join("repo");
    f.skill("repo/a", "a", "Fine.");
    f.skill("repo/b", "B_bad", "Wrong name.");
    f.skill("repo/group/c", "c", "Nested one level down.");
    // Inside a skill: part of it, not another skill to validate.
    f.skill("repo/a/examples/inner", "inner", "x");
    f.put("repo/docs/README.md", "# not a skill\n");
    let o = f.run(&["validate", root.to_str().unwrap()]);
    exits(&o, 1);
    let text = stdout(&o);
    let r = root.display();
    assert!(text.contains(&format!("{r}/a: ok\n")), "{text}");
    assert!(text.contains(&format!("{r}/group/c: ok\n")), "{text}");
    assert!(
        text.contains(&format!("{r}/b/SKILL.md:2:7: error[name-not-lowercase]")),
        "{text}"
    );
    assert!(!text.contains("inner") && !text.contains("docs"), "{text}");
    assert!(text.ends_with("3 checked: 2 valid, 1 invalid\n"), "{text}");

    let o = f.run(&["validate", "--json", root.to_str().unwrap()]);
    exits(&o, 1);
    let j = json(&o);
    let got: Vec<(String, bool)> = j
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                Path::new(r["path"].as_str().unwrap())
                    .strip_prefix(&root)
                    .unwrap()
                    .display()
                    .to_string(),
                r["valid"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("a".to_string(), true),
            ("b".to_string(), false),
            ("group/c".to_string(), true)
        ]
    );

    // Only valid skills under it: 0, with the summary even for one.
    std::fs::remove_dir_all(root.join("b")).unwrap();
    std::fs::remove_dir_all(root.join("group")).unwrap();
    let o = f.run(&["validate", root.to_str().unwrap()]);
    exits(&o, 0);
    assert!(
        stdout(&o).ends_with("1 checked: 1 valid, 0 invalid\n"),
        "{}",
        stdout(&o)
    );
    // A skill folder is validated as itself, not searched.
    let o = f.run(&["validate", root.join("a").to_str().unwrap()]);
    exits(&o, 0);
    assert_eq!(stdout(&o), format!("{r}/a: ok\n"));
    // A folder with no skill below: the missing SKILL.md, as before.
    let empty = f.base.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = f.run(&["validate", empty.to_str().unwrap()]);
    exits(&o, 1);
    assert!(stdout(&o).contains("skill-md-missing"), "{}", stdout(&o));
}
