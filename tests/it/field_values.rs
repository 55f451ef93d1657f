//! Value rules: what each agent does with each kind of frontmatter value, through the library
//! (verdicts: status, `as`, `description_as_listed`, `conditional`, reasons) and the binary
//! (`list --json`, `why`).
//!
//! Expected values are what the pinned releases did on the field probes of issue 15
//! (tests/oracle/field-probes.mjs, run 2026-12-01 on codex 0.171.0, opencode 1.18.34, pi 0.73.1,
//! copilot-cli 1.0.102, claude-code 2.1.332), never skilltui's own output. Each skill sits in the
//! agent's own project root, as in the probes.

use skilltui::agents;
use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::resolve::{Status, Verdict};
use std::path::PathBuf;
use std::process::Command;

const BODY: &str = "# Title\n\nFirst body paragraph.\n\nSecond paragraph.\n";

/// A git project and a home in a temp dir.
struct Fx {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

impl Fx {
    fn new() -> Fx {
        let tmp = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        let project = base.join("project");
        let home = base.join("home");
        for d in [".git/objects", ".git/refs"] {
            std::fs::create_dir_all(project.join(d)).unwrap();
        }
        std::fs::write(project.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Fx {
            _tmp: tmp,
            project,
            home,
        }
    }

    /// Writes `<agent's root>/<dir>/SKILL.md` with this frontmatter and the probes' body.
    fn skill(&self, agent: &str, dir: &str, front: &str) -> PathBuf {
        let root = match agent {
            "codex" => ".agents/skills",
            "copilot-cli" => ".github/skills",
            "claude-code" => ".claude/skills",
            "opencode" => ".opencode/skills",
            "pi" => ".pi/skills",
            other => panic!("no probe root for {other}"),
        };
        let p = self.project.join(root).join(dir).join("SKILL.md");
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, format!("---\n{front}\n---\n{BODY}")).unwrap();
        p
    }

    fn catalog(&self) -> Catalog {
        Catalog::build(&agents::builtin(), &Env::new(&self.project, &self.home))
    }

    fn bin(&self, args: &[&str]) -> (String, String) {
        let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
        c.env_clear();
        if let Some(p) = std::env::var_os("PATH") {
            c.env("PATH", p);
        }
        c.args(args)
            .arg("--project")
            .arg(&self.project)
            .arg("--home")
            .arg(&self.home);
        let o = c.output().expect("run skilltui");
        (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }
}

/// One probe: the verdict of `agent` on a skill `dir` with this frontmatter in its own root.
fn probe(agent: &str, dir: &str, front: &str) -> Verdict {
    let fx = Fx::new();
    let p = fx.skill(agent, dir, front);
    let cat = fx.catalog();
    let s = cat.skill(&p).expect("in the catalog");
    s.verdict(agent).expect("a verdict").clone()
}

fn rules(v: &Verdict) -> Vec<&str> {
    v.reasons.iter().map(|r| r.rule.as_str()).collect()
}

/// Asserts visible, the listed name and the listed description.
#[track_caller]
fn listed(v: &Verdict, name: &str, description: Option<&str>) {
    assert_eq!(v.status, Status::Visible, "{:#?}", v.reasons);
    assert_eq!(v.as_name.as_deref(), Some(name), "{:#?}", v.reasons);
    assert_eq!(
        v.description_as_listed.as_deref(),
        description,
        "{:#?}",
        v.reasons
    );
}

/// Asserts rejected, decided by `rule` with the agent's own `message` quoted.
#[track_caller]
fn dropped(v: &Verdict, rule: &str, message: &str) {
    assert_eq!(v.status, Status::Rejected, "{:#?}", v.reasons);
    let last = v.decisive().unwrap();
    assert!(last.rule.starts_with(rule), "{} vs {rule}", last.rule);
    assert!(
        last.message.contains(&format!("(\"{message}\")")),
        "{}",
        last.message
    );
}

// ------------------------------------------------------------------------------------------
// Copilot CLI 1.0.102: type checks that drop the skill with its own message
// ------------------------------------------------------------------------------------------

#[test]
fn data_designer_is_rejected_by_copilot_with_its_message_and_a_quick_fix() {
    // NVIDIA data-designer's frontmatter, as installed.
    let fx = Fx::new();
    let front = "name: data-designer\ndescription: Use when the user wants to create a dataset.\nargument-hint: [describe the dataset you want to generate]\nlicense: Apache-2.0\nmetadata:\n  owner: DataDesigner";
    let md = fx.skill("copilot-cli", "data-designer", front);
    let cat = fx.catalog();
    let s = cat.skill(&md).unwrap();
    let v = s.verdict("copilot-cli").unwrap();
    dropped(
        v,
        "copilot-cli/fields.argument-hint.values.",
        "argument-hint must be a string",
    );
    let r = v.decisive().unwrap();
    assert!(
        r.message.starts_with("`argument-hint` is a list (line 4)"),
        "{}",
        r.message
    );
    assert_eq!(r.fix.as_deref(), Some("quote-value"));
    assert_eq!(&**r.evidence(), "[OBS 1.0.102]");
    // Every other agent that reaches .github/skills loads it.
    let (why, _) = fx.bin(&["why", "data-designer", "--agent", "copilot-cli"]);
    assert!(why.contains("rejected"), "{why}");
    assert!(
        why.contains("GitHub Copilot CLI drops the skill (\"argument-hint must be a string\")"),
        "{why}"
    );
    assert!(why.contains("quick fix: skilltui fix"), "{why}");
    assert!(why.contains("--only quote-value"), "{why}");
}

#[test]
fn copilot_type_checks() {
    let c = "copilot-cli";
    // argument-hint: a string, "", null, ~ and a bare key load; scalars of other types do not.
    for v in [
        "\"x\"",
        "\"\"",
        "null",
        "~",
        "",
        "|\n  block",
        "\"[filename]\"",
    ] {
        listed(
            &probe(
                c,
                "ah",
                &format!("name: ah\ndescription: d\nargument-hint: {v}"),
            ),
            "ah",
            Some("d"),
        );
    }
    for v in ["42", "1.5", "true", "{a: b}", "\n  - a\n  - b"] {
        dropped(
            &probe(
                c,
                "ah",
                &format!("name: ah\ndescription: d\nargument-hint: {v}"),
            ),
            "copilot-cli/fields.argument-hint.values.",
            "argument-hint must be a string",
        );
    }
    // user-invocable: YAML booleans only.
    for v in ["true", "True", "false"] {
        listed(
            &probe(
                c,
                "ui",
                &format!("name: ui\ndescription: d\nuser-invocable: {v}"),
            ),
            "ui",
            Some("d"),
        );
    }
    for v in ["\"true\"", "yes", "1", "null", "~", ""] {
        dropped(
            &probe(
                c,
                "ui",
                &format!("name: ui\ndescription: d\nuser-invocable: {v}"),
            ),
            "copilot-cli/fields.user-invocable.values.",
            "user-invocable must be a boolean",
        );
    }
    // allowed-tools: a string or a list of strings.
    for v in ["Read", "\"\"", "[Read, Grep]"] {
        listed(
            &probe(
                c,
                "at",
                &format!("name: at\ndescription: d\nallowed-tools: {v}"),
            ),
            "at",
            Some("d"),
        );
    }
    for v in ["null", "~", "", "42", "{a: b}"] {
        dropped(
            &probe(
                c,
                "at",
                &format!("name: at\ndescription: d\nallowed-tools: {v}"),
            ),
            "copilot-cli/fields.allowed-tools.values.",
            "allowed-tools must be a string or array of strings",
        );
    }
    for v in ["[1, true]", "[Read, null]"] {
        dropped(
            &probe(
                c,
                "at",
                &format!("name: at\ndescription: d\nallowed-tools: {v}"),
            ),
            "copilot-cli/fields.allowed-tools.values.",
            "allowed-tools must contain only strings",
        );
    }
    // name and description: strings only.
    for v in ["42", "false", "null", "[a, b]"] {
        dropped(
            &probe(c, "nm", &format!("name: {v}\ndescription: d")),
            "copilot-cli/fields.name.values.",
            "Skill name must be a string",
        );
        dropped(
            &probe(c, "ds", &format!("name: ds\ndescription: {v}")),
            "copilot-cli/fields.description.values.",
            "Skill description must be a string",
        );
    }
}

#[test]
fn copilot_names_and_descriptions_as_listed() {
    let c = "copilot-cli";
    // description: "" loads with an empty description.
    let v = probe(c, "e", "name: e\ndescription: \"\"");
    listed(&v, "e", Some(""));
    assert!(
        rules(&v).contains(&"copilot-cli/description_rules.empty"),
        "{:?}",
        rules(&v)
    );
    // A quoted name with outer spaces is trimmed.
    listed(
        &probe(c, "sp", "name: \"  sp  \"\ndescription: d"),
        "sp",
        Some("d"),
    );
    // A folded block name is trimmed, then its spaces listed as '-'.
    listed(
        &probe(c, "fold", "name: >\n  line one\n  line two\ndescription: d"),
        "line-one-line-two",
        Some("d"),
    );
    // A block scalar description loses its final newline; other text is verbatim.
    listed(
        &probe(
            c,
            "blk",
            "name: blk\ndescription: |\n  line one\n  line two",
        ),
        "blk",
        Some("line one\nline two"),
    );
    listed(
        &probe(
            c,
            "tabs",
            "name: tabs\ndescription: \"A\\tB\\n\\nC  D\\nE\"",
        ),
        "tabs",
        Some("A\tB\n\nC  D\nE"),
    );
    // A missing description: the body's paragraphs without the heading, joined by spaces.
    listed(
        &probe(c, "nodesc", "name: nodesc"),
        "nodesc",
        Some("First body paragraph. Second paragraph."),
    );
}

// ------------------------------------------------------------------------------------------
// Claude Code 2.1.332: coercion, fallbacks, trimming, conditional skills
// ------------------------------------------------------------------------------------------

#[test]
fn claude_coerces_names_like_javascript_and_falls_back_to_the_folder() {
    let c = "claude-code";
    for (value, as_name) in [
        ("[alpha, beta]", "alpha,beta"),
        ("\n  - alpha\n  - beta", "alpha,beta"),
        ("[1, true]", "1,true"),
        ("\n  key: value", "[object Object]"),
        ("42", "42"),
        ("1.5", "1.5"),
        ("True", "true"),
        ("false", "false"),
        ("yes", "yes"),
        ("\"  spaced  \"", "spaced"),
        // Fallbacks to the folder name.
        ("\"\"", "nm"),
        ("", "nm"),
        ("null", "nm"),
        ("~", "nm"),
        ("\"a\\nb\"", "nm"),
        ("|\n  line one\n  line two", "nm"),
        (">\n  line one\n  line two", "nm"),
    ] {
        let v = probe(c, "nm", &format!("description: d\nname: {value}"));
        listed(&v, as_name, Some("d"));
    }
    // 256 characters are kept; 257 fall back to the folder name.
    let long = "e".repeat(256);
    listed(
        &probe(c, "nm", &format!("description: d\nname: {long}")),
        &long,
        Some("d"),
    );
    let v = probe(
        c,
        "nm",
        &format!("description: d\nname: {}", "e".repeat(257)),
    );
    listed(&v, "nm", Some("d"));
    assert!(
        rules(&v).contains(&"claude-code/name_rules.length"),
        "{:?}",
        rules(&v)
    );
}

#[test]
fn claude_descriptions_as_listed() {
    let c = "claude-code";
    // Not a string, or empty: the body's first line without its heading marks.
    for value in ["\"\"", "", "null", "~", "[a, b]", "\n  k: v"] {
        listed(
            &probe(c, "d", &format!("name: d\ndescription: {value}")),
            "d",
            Some("Title"),
        );
    }
    listed(&probe(c, "d", "name: d"), "d", Some("Title"));
    // Numbers and booleans: String(value).
    listed(
        &probe(c, "d", "name: d\ndescription: True"),
        "d",
        Some("true"),
    );
    listed(&probe(c, "d", "name: d\ndescription: 42"), "d", Some("42"));
    // Line breaks and tabs become spaces; the ends are trimmed; inner runs of spaces stay.
    listed(
        &probe(c, "d", "name: d\ndescription: \"  A\\tB\\n\\nC  D\\nE  \""),
        "d",
        Some("A B C  D E"),
    );
}

#[test]
fn claude_paths_make_a_skill_conditional() {
    let c = "claude-code";
    for (value, patterns) in [
        ("\"src/**/*.rs\"", vec!["src/**/*.rs"]),
        ("[alpha, beta]", vec!["alpha", "beta"]),
        ("\n  - \"*.md\"", vec!["*.md"]),
    ] {
        let v = probe(
            c,
            "cond",
            &format!("name: cond\ndescription: d\npaths: {value}"),
        );
        assert_eq!(v.status, Status::Visible);
        assert_eq!(
            v.conditional,
            Some(patterns.iter().map(|s| s.to_string()).collect())
        );
        assert!(
            v.reasons
                .iter()
                .any(|r| r.rule.starts_with("claude-code/fields.paths.values.")
                    && r.message.contains("the skill is conditional")),
            "{:#?}",
            v.reasons
        );
    }
    // Listed normally: "", bare, null, numbers, booleans, a list without strings, [], a mapping.
    for value in [
        "\"\"",
        "",
        "null",
        "42",
        "true",
        "[1, true]",
        "[]",
        "{a: b}",
    ] {
        let v = probe(
            c,
            "plain",
            &format!("name: plain\ndescription: d\npaths: {value}"),
        );
        assert_eq!(v.status, Status::Visible, "{value}");
        assert_eq!(v.conditional, None, "{value}");
    }
    // Other agents ignore paths.
    let v = probe("codex", "cond", "name: cond\ndescription: d\npaths: src/**");
    assert_eq!(v.conditional, None);
}

#[test]
fn conditional_skills_count_apart_in_the_listing_and_show_in_json_and_why() {
    let fx = Fx::new();
    let cond = fx.skill(
        "claude-code",
        "cond",
        "name: cond\ndescription: Only for Rust files.\npaths: \"**/*.rs\"",
    );
    fx.skill(
        "claude-code",
        "always",
        "name: always\ndescription: Always here.",
    );
    let cat = fx.catalog();
    let reports = skilltui::listing::reports(&cat, &agents::builtin());
    let claude = reports.iter().find(|r| r.agent == "claude-code").unwrap();
    let names: Vec<&str> = claude.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["always"]);
    assert_eq!(claude.conditional.len(), 1);
    assert_eq!(claude.conditional[0].path, cond);
    assert!(claude.conditional_tokens > 0);
    assert_eq!(
        claude.total_tokens,
        claude.entries.iter().map(|e| e.tokens).sum::<u64>()
    );
    // JSON: `conditional` on Claude Code's verdict only.
    let (json, err) = fx.bin(&["list", "--json"]);
    let j: serde_json::Value = crate::common::by_agent(
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {err}")),
    );
    let skill = j["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["dir"] == "cond")
        .unwrap();
    assert_eq!(
        skill["agents"]["claude-code"]["conditional"],
        serde_json::json!(["**/*.rs"])
    );
    // Schema 2: an index into the skill's `descriptions_as_listed`.
    let listed = skill["agents"]["claude-code"]["description_as_listed"]
        .as_u64()
        .unwrap() as usize;
    assert_eq!(
        skill["descriptions_as_listed"][listed],
        "Only for Rust files."
    );
    assert!(skill["agents"]["codex"].get("conditional").is_none());
    let (why, _) = fx.bin(&["why", "cond"]);
    assert!(
        why.contains("conditional: listed once files matching `**/*.rs` are touched"),
        "{why}"
    );
    // The explorer's glyph.
    let v = cat.skill(&cond).unwrap().verdict("claude-code").unwrap();
    assert_eq!(skilltui::cli::list::glyph(v), "◇");
}

// ------------------------------------------------------------------------------------------
// Codex 0.171.0, pi 0.73.1, OpenCode 1.18.34
// ------------------------------------------------------------------------------------------

#[test]
fn codex_metadata_bare_loads_null_fails_and_its_lenient_parser() {
    let c = "codex";
    listed(
        &probe(c, "m", "name: m\ndescription: d\nmetadata:"),
        "m",
        Some("d"),
    );
    dropped(
        &probe(c, "m", "name: m\ndescription: d\nmetadata: null"),
        "codex/fields.metadata.values.null",
        "invalid YAML: metadata: invalid type: unit value, expected struct SkillFrontmatterMetadata",
    );
    dropped(
        &probe(c, "m", "name: m\ndescription: d\nmetadata: 42"),
        "codex/fields.metadata.values.int",
        "invalid YAML: metadata: invalid type: integer `42`, expected struct SkillFrontmatterMetadata",
    );
    dropped(
        &probe(c, "m", "name: [a, b]\ndescription: d"),
        "codex/fields.name.values.",
        "invalid YAML: name: invalid type: sequence, expected a string",
    );
    // `[filename] [format]` is not YAML; Codex reads it literally and loads the skill.
    let v = probe(
        c,
        "two",
        "name: two\ndescription: d\nargument-hint: [filename] [format]",
    );
    listed(&v, "two", Some("d"));
    assert!(
        rules(&v).contains(&"codex/parse.yaml_repair"),
        "{:?}",
        rules(&v)
    );
    // Whitespace collapsed in the listed description; scalars read as written.
    listed(
        &probe(
            c,
            "ws",
            "name: ws\ndescription: \"  A\\tB\\n\\nC  D\\nE  \"",
        ),
        "ws",
        Some("A B C D E"),
    );
    listed(
        &probe(c, "t", "name: True\ndescription: d"),
        "True",
        Some("d"),
    );
    // The other agents refuse `[filename] [format]`.
    assert_eq!(
        probe(
            "pi",
            "two",
            "name: two\ndescription: d\nargument-hint: [filename] [format]"
        )
        .status,
        Status::Rejected
    );
}

#[test]
fn pi_falls_back_on_a_false_name_and_quotes_its_type_errors() {
    let c = "pi";
    listed(
        &probe(c, "nf", "name: false\ndescription: d"),
        "nf",
        Some("d"),
    );
    dropped(
        &probe(c, "nt", "name: true\ndescription: d"),
        "pi/fields.name.values.",
        "name.startsWith is not a function",
    );
    dropped(
        &probe(c, "nm", "name: {a: b}\ndescription: d"),
        "pi/fields.name.values.",
        "name.startsWith is not a function",
    );
    dropped(
        &probe(c, "df", "name: df\ndescription: false"),
        "pi/fields.description.values.",
        "description is required",
    );
    dropped(
        &probe(c, "dn", "name: dn\ndescription: 42"),
        "pi/fields.description.values.",
        "description.trim is not a function",
    );
    // Verbatim text: outer spaces, tabs and a block scalar's final newline are kept.
    listed(
        &probe(c, "v", "name: v\ndescription: \"  A\\tB  \""),
        "v",
        Some("  A\tB  "),
    );
    listed(
        &probe(c, "b", "name: b\ndescription: |\n  one\n  two"),
        "b",
        Some("one\ntwo\n"),
    );
}

#[test]
fn opencode_keeps_the_yaml_value_and_lists_no_description_when_missing() {
    let c = "opencode";
    listed(
        &probe(c, "b", "name: b\ndescription: |\n  one\n  two"),
        "b",
        Some("one\ntwo\n"),
    );
    listed(&probe(c, "e", "name: e\ndescription: \"\""), "e", Some(""));
    let v = probe(c, "nodesc", "name: nodesc");
    assert_eq!(v.status, Status::Visible);
    assert_eq!(v.model, Some(false));
    assert_eq!(v.description_as_listed, None);
}

// ------------------------------------------------------------------------------------------
// The catalog's own description, and honest unknowns
// ------------------------------------------------------------------------------------------

#[test]
fn a_null_description_is_json_null_not_its_spelling() {
    let fx = Fx::new();
    for (dir, value) in [
        ("bare", ""),
        ("null", " null"),
        ("tilde", " ~"),
        ("text", " Hi."),
    ] {
        let p = fx.project.join(".agents/skills").join(dir).join("SKILL.md");
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(
            &p,
            format!("---\nname: {dir}\ndescription:{value}\n---\n{BODY}"),
        )
        .unwrap();
    }
    let (json, err) = fx.bin(&["list", "--json"]);
    let j: serde_json::Value = crate::common::by_agent(
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {err}")),
    );
    let desc = |dir: &str| {
        j["skills"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["dir"] == dir)
            .unwrap()["description"]
            .clone()
    };
    assert_eq!(desc("bare"), serde_json::Value::Null);
    assert_eq!(desc("null"), serde_json::Value::Null);
    assert_eq!(desc("tilde"), serde_json::Value::Null);
    assert_eq!(desc("text"), "Hi.");
}

#[test]
fn a_decisive_rule_without_evidence_says_it_is_an_assumption() {
    // Copilot CLI's hidden-folder rule is unknown; a verdict it decides is `unknown`, and no
    // verdict of any agent is decided by a [NONE] rule without saying so.
    let fx = Fx::new();
    fx.skill("copilot-cli", "plain", "name: plain\ndescription: d");
    fx.skill("claude-code", "plain", "name: plain\ndescription: d");
    fx.skill("codex", "plain", "name: plain\ndescription: d");
    let cat = fx.catalog();
    for s in &cat.skills {
        for (agent, v) in &s.verdicts {
            if v.status == Status::Unknown {
                continue;
            }
            if let Some(r) = v.decisive()
                && r.evidence().starts_with("[NONE")
            {
                assert!(
                    r.message.contains("assumption") || r.message.contains("not established"),
                    "{agent}: {}",
                    r.message
                );
            }
        }
    }
}

#[test]
fn antigravity_precedence_cites_the_rule_that_decides_not_an_unknown_order() {
    // Antigravity keeps the project copy over the user copy [ASI 1.2.11]; its order between
    // roots and distances is unknown [NONE], and both orders agree here, so the mode decides.
    let fx = Fx::new();
    let project = fx.project.join(".agents/skills/dup/SKILL.md");
    let user = fx.home.join(".gemini/config/skills/dup/SKILL.md");
    for p in [&project, &user] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, format!("---\nname: dup\ndescription: d\n---\n{BODY}")).unwrap();
    }
    let cat = fx.catalog();
    let won = cat.skill(&project).unwrap().verdict("antigravity").unwrap();
    let lost = cat.skill(&user).unwrap().verdict("antigravity").unwrap();
    assert_eq!(won.status, Status::Visible, "{:#?}", won.reasons);
    assert_eq!(lost.status, Status::Shadowed, "{:#?}", lost.reasons);
    let r = lost.decisive().unwrap();
    assert_eq!(r.rule, "antigravity/precedence.mode");
    assert!(!r.evidence().starts_with("[NONE"), "{}", r.evidence());
}

#[test]
fn claude_description_fallback_is_the_first_line_cut_at_100() {
    let fx = Fx::new();
    let long = "word ".repeat(40);
    let p = fx.project.join(".claude/skills/long/SKILL.md");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, format!("---\nname: long\n---\n{long}\nsecond line\n")).unwrap();
    let empty = fx.project.join(".claude/skills/empty/SKILL.md");
    std::fs::create_dir_all(empty.parent().unwrap()).unwrap();
    std::fs::write(&empty, "---\nname: empty\n---\n").unwrap();
    let cat = fx.catalog();
    let v = cat.skill(&p).unwrap().verdict("claude-code").unwrap();
    let expected = format!("{}...", &long[..97]);
    assert_eq!(v.description_as_listed.as_deref(), Some(expected.as_str()));
    let v = cat.skill(&empty).unwrap().verdict("claude-code").unwrap();
    assert_eq!(v.description_as_listed.as_deref(), Some("Skill"));
}

#[test]
fn claude_hides_on_true_and_yes_but_not_on_numbers() {
    for (value, hidden) in [
        ("true", true),
        ("True", true),
        ("yes", true),
        ("\"true\"", true),
        ("false", false),
        ("1", false),
        ("42", false),
        ("maybe", false),
    ] {
        let v = probe(
            "claude-code",
            "h",
            &format!("name: h\ndescription: d\ndisable-model-invocation: {value}"),
        );
        assert_eq!(v.status, Status::Visible, "{value}");
        assert_eq!(v.model, Some(!hidden), "{value}");
    }
}

#[test]
fn the_explorer_shows_the_consequence_of_this_value_and_the_conditional_glyph() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use skilltui::tui::app::App;
    use skilltui::tui::update::{Msg, update};
    use std::sync::Arc;

    let fx = Fx::new();
    let front =
        "name: data-designer\ndescription: Make data.\nargument-hint: [describe the dataset]";
    let md = fx.skill("copilot-cli", "data-designer", front);
    fx.skill(
        "claude-code",
        "rusty",
        "name: rusty\ndescription: Rust only.\npaths: \"**/*.rs\"",
    );
    let models = agents::builtin();
    let env = Env::new(&fx.project, &fx.home);
    let cat = Catalog::build(&models, &env);
    let mut app = App::new(Arc::new(models), env, 160, 50);
    update(&mut app, Msg::Catalog(Arc::new(cat)));
    let frame = |app: &App| {
        let mut t = Terminal::new(TestBackend::new(app.width, app.height)).unwrap();
        t.draw(|f| skilltui::tui::draw::draw(f, app)).unwrap();
        let buf = t.backend().buffer();
        let mut out = String::new();
        for y in 0..buf.area.height {
            for x in 0..buf.area.width {
                out.push_str(buf[(x, y)].symbol());
            }
            out.push('\n');
        }
        out
    };
    let f = frame(&app);
    assert!(f.contains("◇"), "{f}");
    assert!(f.contains("conditional"), "the legend: {f}");
    let i = app
        .rows
        .iter()
        .position(|r| app.skill(r.skill).unwrap().path == md)
        .unwrap();
    app.select(i);
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE)),
    );
    let f = frame(&app);
    assert!(f.contains("What the agents do with these values"), "{f}");
    // The detail pane wraps the sentence.
    assert!(
        f.contains("copilot-cli · `argument-hint` is a list (line 4): GitHub Copilot CLI"),
        "{f}"
    );
    assert!(
        f.contains("drops the skill (\"argument-hint must be a string\") [OBS 1.0.102]"),
        "{f}"
    );
    assert!(f.contains("quote-value"), "{f}");
}

#[test]
fn check_offers_the_value_rules_quick_fix_and_applying_it_makes_copilot_load_the_skill() {
    let fx = Fx::new();
    let front = "name: data-designer\ndescription: Use when the user wants to create a dataset.\nargument-hint: [describe the dataset you want to generate]";
    let md = fx.skill("copilot-cli", "data-designer", front);
    let (out, _) = fx.bin(&["check", "--format", "json", "--agent", "copilot-cli"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "rejected" && f["path"].as_str().unwrap().contains("data-designer"))
        .unwrap_or_else(|| panic!("no rejected finding: {out}"));
    assert_eq!(f["fix"]["quick_fix"], "quote-value", "{f}");
    let (text, _) = fx.bin(&["check", "--agent", "copilot-cli"]);
    assert!(text.contains("--only quote-value"), "{text}");
    // The quick fix the finding names, applied headless, makes the release's type check pass.
    let (applied, err) = fx.bin(&[
        "fix",
        &md.to_string_lossy(),
        "--only",
        "quote-value",
        "--yes",
    ]);
    let after = std::fs::read_to_string(&md).unwrap();
    assert!(
        after.contains("argument-hint: \"[describe the dataset you want to generate]\""),
        "{applied}{err}{after}"
    );
    let cat = fx.catalog();
    let v = cat.skill(&md).unwrap().verdict("copilot-cli").unwrap();
    assert_eq!(v.status, skilltui::resolve::Status::Visible, "{v:?}");
}

#[test]
fn claude_lists_a_skill_it_cannot_parse_with_the_bodys_first_line() {
    // Observed on 2.1.332 (oracle case yaml@claude: unterminated, ends-colon, dash-item,
    // no-front): a file whose frontmatter does not parse, or that has none, is listed with the
    // same fallback as a missing description, the body's first line without its `#`.
    let v = probe(
        "claude-code",
        "broken",
        "name: broken\ndescription: \"unterminated",
    );
    listed(&v, "broken", Some("Title"));
    let r = v
        .reasons
        .iter()
        .find(|r| r.rule.as_str() == "claude-code/parse.yaml_error");
    assert!(
        r.is_some_and(|r| r.message.contains("the body's first line")),
        "{:#?}",
        v.reasons
    );
    // pi, which has no such fallback, still rejects it.
    let v = probe("pi", "broken", "name: broken\ndescription: \"unterminated");
    assert_eq!(v.status, Status::Rejected, "{:#?}", v.reasons);
}

#[test]
fn copilot_keeps_a_block_descriptions_newline_unless_it_ends_the_frontmatter() {
    // Observed with agents --verify on a real install (1.0.102): `description: |` followed by
    // other keys is listed with its final newline; the probes (description last) without it.
    let v = probe(
        "copilot-cli",
        "kept",
        "name: kept\ndescription: |\n  line one\n  line two\nlicense: MIT",
    );
    listed(&v, "kept", Some("line one\nline two\n"));
    let v = probe(
        "copilot-cli",
        "ends",
        "name: ends\ndescription: |\n  line one\n  line two",
    );
    listed(&v, "ends", Some("line one\nline two"));
}
