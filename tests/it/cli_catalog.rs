//! The catalog commands through the real binary: `list` (JSON shape and text matrix), `why`,
//! `check` exit codes, `roots --json`, `agents`, `--demo`, `--model DIR`, and terminal safety of
//! text output. Every run clears the environment (PATH only) and passes `--project`/`--home`.

use crate::common::{Tree, code, json, skilltui_cmd, stderr, stdout, tree_fixture};
use serde_json::Value;
use std::path::Path;
use std::process::Output;

tree_fixture!(Fx);

impl Fx {
    fn new() -> Fx {
        Fx(Tree::git())
    }

    /// Runs the binary with `args` plus `--project P --home H`.
    fn run(&self, args: &[&str]) -> Output {
        let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        all.extend([
            "--project".into(),
            self.project.display().to_string(),
            "--home".into(),
            self.home.display().to_string(),
        ]);
        bin(&all)
    }
}

fn bin<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    let mut c = skilltui_cmd();
    c.args(args).output().expect("run skilltui")
}

#[track_caller]
fn ok(o: &Output) {
    assert_eq!(code(o), 0, "stdout:\n{}\nstderr:\n{}", stdout(o), stderr(o));
}

/// Every built-in agent: JSON always has all of them.
const AGENTS: [&str; skilltui::agents::BUILTIN_IDS.len()] = skilltui::agents::BUILTIN_IDS;

/// A small tree: a portable skill under `.agents/skills` (invisible to Claude Code), a Claude
/// skill, and a project/user collision.
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

fn find_skill<'a>(j: &'a Value, path: &Path) -> &'a Value {
    j["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"].as_str() == Some(path.to_str().unwrap()))
        .unwrap_or_else(|| panic!("{} not in {j:#}", path.display()))
}

// ------------------------------------------------------------------------------------------

#[test]
fn list_json_shape() {
    let f = sample();
    // Schema 1 (every verdict in full); schema 2 is checked against it in tests/json_schema.rs.
    let o = f.run(&["list", "--json-schema", "1"]);
    ok(&o);
    let j = json(&o);
    assert_eq!(j["project"].as_str(), Some(f.project.to_str().unwrap()));
    assert_eq!(j["home"].as_str(), Some(f.home.to_str().unwrap()));

    let agents = j["agents"].as_array().unwrap();
    let ids: Vec<&str> = agents.iter().map(|a| a["id"].as_str().unwrap()).collect();
    assert_eq!(ids, AGENTS);
    for a in agents {
        assert!(a["name"].is_string() && a["version"].is_string(), "{a}");
    }

    let roots = j["roots"].as_array().unwrap();
    assert!(!roots.is_empty());
    for r in roots {
        assert!(r["path"].is_string(), "{r}");
        assert!(r["scope"].is_string(), "{r}");
        assert!(r["exists"].is_boolean(), "{r}");
        assert!(r["agents"].as_array().is_some_and(|a| !a.is_empty()), "{r}");
    }
    let agents_root = f.project.join(".agents/skills");
    let r = roots
        .iter()
        .find(|r| r["path"].as_str() == Some(agents_root.to_str().unwrap()))
        .expect(".agents/skills in roots");
    assert_eq!(r["exists"], true);
    assert_eq!(r["scope"], "project");
    let scanners: Vec<&str> = r["agents"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a.as_str())
        .collect();
    assert!(
        scanners.contains(&"codex") && !scanners.contains(&"claude-code"),
        "{r}"
    );

    let skills = j["skills"].as_array().unwrap();
    assert!(skills.len() >= 4, "{j:#}");
    for s in skills {
        for k in ["path", "dir", "name", "root", "scope", "problems", "agents"] {
            assert!(s.get(k).is_some(), "skill without `{k}`: {s}");
        }
        for p in s["problems"].as_array().unwrap() {
            for k in ["code", "severity", "message"] {
                assert!(p[k].is_string(), "problem without `{k}`: {p}");
            }
        }
        let per = s["agents"].as_object().unwrap();
        assert_eq!(
            per.keys()
                .map(String::as_str)
                .collect::<std::collections::BTreeSet<_>>(),
            AGENTS.iter().copied().collect()
        );
        for (id, v) in per {
            let status = v["status"].as_str().unwrap();
            assert!(
                ["visible", "shadowed", "rejected", "not-found", "unknown"].contains(&status),
                "{id}: {v}"
            );
            for k in ["as", "winner", "reasons", "fields", "listing_tokens"] {
                assert!(v.get(k).is_some(), "{id}: verdict without `{k}`: {v}");
            }
            for r in v["reasons"].as_array().unwrap() {
                for k in ["rule", "message", "source", "evidence"] {
                    assert!(r[k].is_string(), "{id}: reason without `{k}`: {r}");
                }
            }
            for (field, h) in v["fields"].as_object().unwrap() {
                let h = h.as_str().unwrap();
                assert!(
                    ["read", "ignored", "unsupported", "unknown"].contains(&h),
                    "{id}: field {field}: {h}"
                );
            }
        }
    }

    // Values: `.agents/skills` is not found by Claude Code (seeds/000 cross-client-directory-
    // interop) and visible to Codex; the user copy of `dup` wins on Claude Code
    // (newest-releases.md Claude Code 2.1.332 §2).
    let portable = find_skill(&j, &f.project.join(".agents/skills/portable/SKILL.md"));
    assert_eq!(portable["name"], "portable");
    assert_eq!(portable["dir"], "portable");
    assert_eq!(portable["scope"], "project");
    let cc = &portable["agents"]["claude-code"];
    assert_eq!(cc["status"], "not-found");
    assert!(
        cc["reasons"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["rule"] == "claude-code/not_roots.agents-skills"),
        "{cc}"
    );
    let cx = &portable["agents"]["codex"];
    assert_eq!(cx["status"], "visible");
    assert_eq!(cx["as"], "portable");
    assert!(cx["listing_tokens"].as_u64().is_some_and(|n| n > 0), "{cx}");
    assert_eq!(cx["fields"]["name"], "read");

    let user_dup = f.home.join(".claude/skills/dup/SKILL.md");
    let proj_dup = find_skill(&j, &f.project.join(".claude/skills/dup/SKILL.md"));
    let v = &proj_dup["agents"]["claude-code"];
    assert_eq!(v["status"], "shadowed");
    assert_eq!(v["winner"].as_str(), Some(user_dup.to_str().unwrap()));
    assert_eq!(find_skill(&j, &user_dup)["scope"], "user");
}

#[test]
fn list_text_matrix() {
    let f = sample();
    let o = f.run(&["list"]);
    ok(&o);
    let t = stdout(&o);
    let header = t.lines().next().unwrap();
    for col in [
        "SKILL",
        "SCOPE",
        "claude",
        "codex",
        "copilot",
        "antigravity",
        "cursor",
        "opencode",
        "pi",
        "PATH",
    ] {
        assert!(header.contains(col), "header lacks {col}: {header}");
    }
    for name in ["portable", "native", "dup"] {
        assert!(
            t.lines().any(|l| l.starts_with(name)),
            "no row for {name}:\n{t}"
        );
    }
    let row = t.lines().find(|l| l.starts_with("portable")).unwrap();
    assert!(row.contains('·') && row.contains('✓'), "{row}");
    assert!(row.contains(".agents/skills/portable/SKILL.md"), "{row}");
    assert!(
        t.lines().any(|l| l.starts_with("dup") && l.contains('↓')),
        "{t}"
    );
    assert!(t.contains("skilltui why NAME"), "{t}");
}

#[test]
fn list_empty_project() {
    let f = Fx::new();
    let o = f.run(&["list"]);
    ok(&o);
    assert!(stdout(&o).contains("No skills found"), "{}", stdout(&o));
}

#[test]
fn why_names_agents_and_reasons() {
    let f = sample();
    let o = f.run(&["why", "portable"]);
    ok(&o);
    let t = stdout(&o);
    assert!(t.contains(".agents/skills/portable/SKILL.md"), "{t}");
    for a in AGENTS {
        assert!(t.contains(a), "why does not name {a}:\n{t}");
    }
    // Answer first: the agent's first line is glyph, agent, verdict and the deciding reason.
    let cc = t
        .lines()
        .find(|l| l.trim_start().starts_with("· claude-code"))
        .unwrap();
    assert!(
        cc.contains("not found: Claude Code does not scan .agents/skills"),
        "{cc}"
    );
    // The reason for Claude Code cites the finding.
    assert!(t.contains("does not scan"), "{t}");
    assert!(
        t.contains("rule claude-code/not_roots.agents-skills"),
        "{t}"
    );
}

#[test]
fn why_shadowed_names_the_winner() {
    let f = sample();
    let o = f.run(&["why", "dup", "--agent", "claude-code"]);
    ok(&o);
    let t = stdout(&o);
    assert!(t.contains("shadowed"), "{t}");
    assert!(t.contains("winner: ~/.claude/skills/dup/SKILL.md"), "{t}");
    assert!(t.contains("rule claude-code/precedence.order"), "{t}");
}

#[test]
fn why_one_agent() {
    let f = sample();
    let o = f.run(&["why", "portable", "--agent", "codex"]);
    ok(&o);
    let t = stdout(&o);
    assert!(t.contains("codex"), "{t}");
    for other in [
        "claude-code",
        "copilot-cli",
        "antigravity",
        "cursor",
        "opencode",
    ] {
        assert!(
            !t.lines().any(|l| l.trim_start().starts_with(other)),
            "{other} shown:\n{t}"
        );
    }
    // With one agent the full chain is shown, rules and sources included.
    assert!(t.contains("rule codex/roots.project-agents"), "{t}");
    assert!(t.contains("sources:"), "{t}");
    assert!(
        t.contains("observed: 0.171.0, tests/oracle case roots"),
        "{t}"
    );
    // Claude Code does not scan .agents/skills: the reason's sources are printed with URLs.
    let o = f.run(&["why", "portable", "--agent", "claude-code"]);
    ok(&o);
    let t = stdout(&o);
    assert!(
        t.contains("rule claude-code/not_roots") && t.contains(" (benchmarked); sources:"),
        "{t}"
    );
    assert!(
        t.contains("https://agentskillimplementation.com/platforms/claude-code/"),
        "{t}"
    );
}

#[test]
fn json_verdicts_carry_strength_and_sources() {
    let f = sample();
    let o = f.run(&["list", "--json-schema", "1"]);
    ok(&o);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let skill = j["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "portable")
        .unwrap();
    let cc = &skill["agents"]["claude-code"];
    assert_eq!(cc["status"], "not-found", "{cc}");
    // The weakest evidence among the deciding reasons.
    let weakest = cc["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["strength"].as_str())
        .map(|s| {
            ["none", "weak", "stated", "benchmarked", "read", "observed"]
                .iter()
                .position(|x| *x == s)
                .unwrap()
        })
        .min()
        .unwrap();
    let strength = cc["strength"].as_str().unwrap();
    assert_eq!(
        ["none", "weak", "stated", "benchmarked", "read", "observed"][weakest],
        strength,
        "{cc}"
    );
    let reason = cc["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| {
            r["rule"]
                .as_str()
                .unwrap()
                .starts_with("claude-code/not_roots")
        })
        .unwrap();
    let kinds: Vec<&str> = reason["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["observed", "benchmark"], "{reason}");
    assert_eq!(reason["sources"][0]["case"], "roots");
    assert!(
        reason["sources"][1]["url"]
            .as_str()
            .unwrap()
            .starts_with("https://agentskillimplementation.com/")
    );
}

#[test]
fn agents_legend_explains_every_label() {
    let f = sample();
    let o = f.run(&["agents", "--legend"]);
    ok(&o);
    let t = stdout(&o);
    for label in [
        "OBS", "SRC", "BUNDLE", "ASI", "DOC", "CL", "ISSUE", "SPEC", "3P", "FT", "INF", "NONE",
    ] {
        assert!(
            t.lines().any(|l| l.trim_start().starts_with(label)),
            "{label}: {t}"
        );
    }
    assert!(t.contains("weakest"), "{t}");
    let o = f.run(&["agents", "--legend", "--json"]);
    ok(&o);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j.as_array().unwrap().len(), 12);
    assert_eq!(j[0]["label"], "OBS");
    assert_eq!(j[0]["strength"], "observed");
}

#[test]
fn why_unknown_name_suggests() {
    let f = sample();
    let o = f.run(&["why", "nosuch"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stdout(&o).contains("No SKILL.md"), "{}", stdout(&o));
    let o = f.run(&["why", "portabel"]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("Did you mean: portable"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn why_unknown_agent_is_a_usage_error() {
    let f = sample();
    let o = f.run(&["why", "portable", "--agent", "nosuch"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("unknown agent"), "{}", stderr(&o));
}

#[test]
fn check_exit_codes() {
    let f = Fx::new();
    f.skill(
        "project/.agents/skills/portable",
        "portable",
        "Portable skill.",
    );
    // Every skill is visible to Codex: exit 0.
    let o = f.run(&["check", "--agent", "codex"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    // Not to Claude Code, which never reads .agents/skills: one info finding for the root (not
    // an error per skill), with how to share the skills with Claude Code; exit 0.
    let o = f.run(&["check", "--agent", "claude-code"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let t = stdout(&o);
    assert!(
        t.contains("info[root-not-scanned] 1 skill in .agents/skills: not read by Claude Code"),
        "{t}"
    );
    assert!(
        t.contains("fix: to share these skills with Claude Code"),
        "{t}"
    );
    assert!(t.contains("claude-code  0 of 1 visible"), "{t}");
    // Unknown agent: exit 2, with the accepted spellings.
    let o = f.run(&["check", "--agent", "nosuch"]);
    assert_eq!(code(&o), 2, "{}", stdout(&o));
    assert!(stderr(&o).contains("nosuch"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("copilot-cli | copilot"),
        "{}",
        stderr(&o)
    );
    // JSON report: every finding with its cause.
    let o = f.run(&["check", "--agent", "claude-code", "--json"]);
    assert_eq!(code(&o), 0);
    let j = json(&o);
    let findings = j["findings"].as_array().unwrap();
    assert!(
        findings.iter().any(|x| x["agent"] == "claude-code"
            && x["code"] == "root-not-scanned"
            && x["severity"] == "info"
            && x["subject"] == "root"
            && x["cause"]["rule"]
                .as_str()
                .is_some_and(|r| r.starts_with("claude-code/"))
            && x["skills"] == 1),
        "{j:#}"
    );
    // A copy shadowed for Claude Code is an error: exit 1, naming both copies.
    f.skill("home/.claude/skills/portable", "portable", "Personal copy.");
    f.skill(
        "project/.claude/skills/portable",
        "portable",
        "Project copy.",
    );
    let o = f.run(&["check", "--agent", "claude-code"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let t = stdout(&o);
    assert!(t.contains("error[shadowed]"), "{t}");
    assert!(t.contains(".claude/skills/portable/SKILL.md"), "{t}");
}

#[test]
fn check_rejected_skill_exits_1() {
    // Codex rejects a missing description (newest-releases.md Codex §1).
    let f = Fx::new();
    f.put(
        "project/.agents/skills/nodesc/SKILL.md",
        "---\nname: nodesc\n---\nBody\n",
    );
    let o = f.run(&["check", "--agent", "codex"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
}

#[test]
fn roots_json() {
    let f = sample();
    let o = f.run(&["roots", "--json"]);
    ok(&o);
    let j = json(&o);
    let roots = j.as_array().unwrap();
    for r in roots {
        for k in ["path", "scope", "exists", "agents"] {
            assert!(r.get(k).is_some(), "root without {k}: {r}");
        }
    }
    let claude_user = f.home.join(".claude/skills");
    let r = roots
        .iter()
        .find(|r| r["path"].as_str() == Some(claude_user.to_str().unwrap()))
        .expect("~/.claude/skills");
    assert_eq!(r["scope"], "user");
    assert_eq!(r["exists"], true);
    assert!(
        r["agents"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "claude-code")
    );
    // Text form too.
    let o = f.run(&["roots"]);
    ok(&o);
    assert!(stdout(&o).contains("ROOT"), "{}", stdout(&o));
}

#[test]
fn agents_json_and_one_agent() {
    let f = Fx::new();
    let o = f.run(&["agents", "--json"]);
    ok(&o);
    let j = json(&o);
    let ids: Vec<&str> = j
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, AGENTS);
    for a in j.as_array().unwrap() {
        assert!(
            a["version"].is_string() && a["rules"].as_array().is_some_and(|r| !r.is_empty()),
            "{}",
            a["id"]
        );
    }
    let o = f.run(&["agents", "codex"]);
    ok(&o);
    let t = stdout(&o);
    assert!(t.contains("Codex") && t.contains("(codex)"), "{t}");
    assert!(t.contains("traversal.max_depth = 6"), "{t}");
    assert!(
        t.contains("observed: 0.171.0, tests/oracle case depth"),
        "{t}"
    );
    assert!(
        t.contains("the agent's own docs on skills: https://developers.openai.com/codex/skills"),
        "{t}"
    );
    let o = f.run(&["agents"]);
    ok(&o);
    for a in AGENTS {
        assert!(stdout(&o).contains(a), "{a}");
    }
    let o = f.run(&["agents", "nosuch"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn demo_list() {
    let o = bin(&["list", "--demo"]);
    ok(&o);
    assert!(stdout(&o).contains("SKILL"), "{}", stdout(&o));
    let o = bin(&["list", "--demo", "--json"]);
    ok(&o);
    let j = json(&o);
    assert!(!j["skills"].as_array().unwrap().is_empty());
}

fn copy_models(to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/agents");
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
}

#[test]
fn model_dir_loads() {
    let f = sample();
    let models = f.base.join("models");
    copy_models(&models);
    let o = f.run(&["list", "--json", "--model", models.to_str().unwrap()]);
    ok(&o);
    let j = json(&o);
    assert_eq!(j["agents"].as_array().unwrap().len(), AGENTS.len());
    let portable = find_skill(&j, &f.project.join(".agents/skills/portable/SKILL.md"));
    assert_eq!(portable["agents"]["codex"]["status"], "visible");
}

#[test]
fn malformed_model_exits_2_naming_file_and_line() {
    let f = sample();
    let models = f.base.join("models");
    copy_models(&models);
    let file = models.join("codex.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    // Break the `version = ...` line: an unterminated string.
    let mut lines: Vec<&str> = text.lines().collect();
    let n = lines
        .iter()
        .position(|l| l.starts_with("version ="))
        .unwrap();
    lines[n] = "version = \"0.171.0";
    std::fs::write(&file, lines.join("\n")).unwrap();
    let o = f.run(&["list", "--model", models.to_str().unwrap()]);
    assert_eq!(code(&o), 2, "{}", stdout(&o));
    let e = stderr(&o);
    assert!(e.contains("codex.toml"), "{e}");
    assert!(
        e.contains(&format!("codex.toml:{}", n + 1)),
        "line {} expected: {e}",
        n + 1
    );
}

/// A skill name holding ESC, BEL and a bidi override: no raw control or bidi character in any
/// text output; JSON keeps the original text (control characters escaped by the JSON encoder).
#[test]
fn no_terminal_escapes_in_text_output() {
    let f = Fx::new();
    let evil = "evil\u{1b}[31mred\u{7}\u{202e}gnp";
    f.put(
        "project/.agents/skills/evil/SKILL.md",
        "---\nname: \"evil\\e[31mred\\a\\u202Egnp\"\ndescription: \"bell\\a here\"\n---\nBody\n",
    );
    // A folder name with the same characters.
    let dir = format!("project/.agents/skills/{evil}");
    f.skill(&dir, "plain", "Plain.");
    let bad = |t: &str| {
        t.chars().any(|c| {
            c == '\u{1b}'
                || c == '\u{7}'
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
        })
    };
    for args in [
        vec!["list"],
        vec!["why", "evil"],
        vec!["why", evil],
        vec!["why", "plain"],
        vec!["why", "plain", "--agent", "codex"],
        vec!["check"],
        vec!["roots"],
    ] {
        let o = f.run(&args);
        let t = stdout(&o);
        assert!(
            !bad(&t),
            "{args:?} printed a raw control/bidi character:\n{t:?}"
        );
        assert!(!bad(&stderr(&o)), "{args:?} stderr");
    }
    let o = f.run(&["list", "--json"]);
    ok(&o);
    // JSON escapes control characters (`\u001b`, `\u0007`); a bidi override is legal JSON text
    // and is kept as it is — the decoded value must be the original either way.
    let raw = stdout(&o);
    assert!(
        !raw.contains('\u{1b}') && !raw.contains('\u{7}'),
        "JSON must escape control characters"
    );
    assert!(raw.contains("\\u001b"), "ESC escaped in JSON");
    let j = json(&o);
    let names: Vec<&str> = j["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert!(names.contains(&evil), "{names:?}");
    let dirs: Vec<&str> = j["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["dir"].as_str())
        .collect();
    assert!(dirs.contains(&evil), "{dirs:?}");
}

/// Every rule id a verdict cites (on the demo and on a generated tree) is listed by
/// `skilltui agents --json`, under the same id.
#[test]
fn every_rule_id_a_verdict_cites_is_listed_by_agents() {
    let o = bin(&["agents", "--json"]);
    ok(&o);
    let agents: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let listed: std::collections::BTreeSet<String> = agents
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| {
            let id = a["id"].as_str().unwrap().to_string();
            a["rules"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |r| format!("{id}/{}", r["id"].as_str().unwrap()))
        })
        .collect();
    let (_tmp, tree) = crate::common::generated(400, 7);
    // A tree with the agents' settings and frontmatter values of every kind, so that setting
    // rules and field value rules are cited too.
    let f = Fx::new();
    let kinds = "argument-hint: [a, b]\nallowed-tools: {a: 1}\nmetadata: [1, 2]\nlicense: 3\ncompatibility: true\npaths: 7\nmodel: [x]\n";
    for (dir, name) in [
        ("project/.claude/skills/off", "off"),
        ("project/.claude/skills/quiet", "quiet"),
        ("project/.agents/skills/a", "a"),
        ("project/.github/skills/gone", "gone"),
        ("project/.opencode/skills/y", "y"),
        ("project/.agents/skills/kinds", "kinds"),
        ("home/.claude/skills/kinds2", "kinds2"),
    ] {
        f.put(
            &format!("{dir}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: The {name} skill.\n{kinds}---\n# T\n"),
        );
    }
    f.put(
        "project/.claude/settings.local.json",
        r#"{"skillOverrides": {"off": "off", "quiet": "user-invocable-only"}}"#,
    );
    f.put(
        "home/.codex/config.toml",
        "[[skills.config]]\nname = \"a\"\nenabled = false\n",
    );
    f.put(
        "home/.copilot/config.json",
        r#"{"disabledSkills": ["gone"]}"#,
    );
    f.put(
        "project/opencode.json",
        r#"{"permission": {"skill": {"*": "deny", "x": "allow"}}}"#,
    );
    let runs: [Vec<String>; 3] = [
        vec!["list".into(), "--json".into(), "--demo".into()],
        vec![
            "list".into(),
            "--json".into(),
            "--project".into(),
            tree.project.display().to_string(),
            "--home".into(),
            tree.home.display().to_string(),
        ],
        vec![
            "list".into(),
            "--json".into(),
            "--project".into(),
            f.project.display().to_string(),
            "--home".into(),
            f.home.display().to_string(),
        ],
    ];
    let mut all_cited = std::collections::BTreeSet::new();
    for args in runs {
        let o = bin(&args);
        ok(&o);
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        // Schema 2: every rule a reason cites is in `rules`, once per sentence template.
        let mut cited = std::collections::BTreeSet::new();
        for r in j["rules"].as_array().unwrap() {
            cited.insert(r["id"].as_str().unwrap().to_string());
        }
        assert!(cited.len() > 20, "{args:?}: {cited:?}");
        let missing: Vec<&String> = cited
            .iter()
            .filter(|c| !c.starts_with("skilltui/") && !listed.contains(*c))
            .collect();
        assert!(
            missing.is_empty(),
            "{args:?}: not listed by agents: {missing:?}"
        );
        all_cited.extend(cited);
    }
    // The settings and the value rules are among them.
    for (what, part) in [("setting", "/settings."), ("value rule", ".values.")] {
        assert!(
            all_cited.iter().any(|c: &String| c.contains(part)),
            "no {what} cited: {all_cited:?}"
        );
    }
}
