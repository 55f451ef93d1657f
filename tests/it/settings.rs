//! The agents' own settings: files and variables that add roots or disable or hide skills,
//! folded into the verdicts with a reason that names the file and key.

use skilltui::agents::builtin;
use skilltui::catalog::Catalog;
use skilltui::demo::write_tree;
use skilltui::env::Env;
use skilltui::resolve::{Status, Verdict};
use std::path::{Path, PathBuf};

struct Fx {
    _tmp: tempfile::TempDir,
    base: PathBuf,
}

impl Fx {
    fn new(tree: &str) -> Fx {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().to_path_buf();
        write_tree(&base, "@@ project/.git/HEAD\nref: refs/heads/main\n@@ mkdir project/.git/objects\n@@ mkdir project/.git/refs\n@@ mkdir home\n").unwrap();
        write_tree(&base, tree).unwrap();
        Fx { _tmp: tmp, base }
    }
    fn env(&self) -> Env {
        Env::new(self.base.join("project"), self.base.join("home"))
    }
    fn p(&self, rel: &str) -> PathBuf {
        self.base.join(rel)
    }
}

fn verdict(cat: &Catalog, path: &Path, agent: &str) -> Verdict {
    cat.skill(path)
        .unwrap_or_else(|| panic!("{} not in the catalog", path.display()))
        .verdict(agent)
        .unwrap()
        .clone()
}

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\n# {name}\n")
}

#[test]
fn claude_skill_overrides_off_and_user_invocable_only() {
    let f = Fx::new(&format!(
        "@@ project/.claude/skills/off/SKILL.md\n{}@@ project/.claude/skills/quiet/SKILL.md\n{}@@ project/.claude/skills/on/SKILL.md\n{}@@ project/.claude/settings.local.json\n{{\"skillOverrides\": {{\"off\": \"off\", \"quiet\": \"user-invocable-only\", \"on\": \"on\"}}}}\n",
        skill("off"),
        skill("quiet"),
        skill("on")
    ));
    let cat = Catalog::build(&builtin(), &f.env());
    let off = verdict(
        &cat,
        &f.p("project/.claude/skills/off/SKILL.md"),
        "claude-code",
    );
    assert_eq!(off.status, Status::Rejected);
    let r = off.reasons.last().unwrap();
    assert_eq!(r.rule, "claude-code/settings.skill-overrides-local");
    assert!(
        r.message.contains("skillOverrides.off") && r.message.contains("settings.local.json"),
        "{}",
        r.message
    );
    let quiet = verdict(
        &cat,
        &f.p("project/.claude/skills/quiet/SKILL.md"),
        "claude-code",
    );
    assert_eq!((quiet.status, quiet.model), (Status::Visible, Some(false)));
    assert!(
        quiet
            .reasons
            .iter()
            .any(|r| r.rule == "claude-code/settings.skill-overrides-local")
    );
    assert_eq!(quiet.listing_tokens, None, "kept out of the listing");
    let on = verdict(
        &cat,
        &f.p("project/.claude/skills/on/SKILL.md"),
        "claude-code",
    );
    assert_eq!((on.status, on.model), (Status::Visible, Some(true)));
    // Other agents are not affected by Claude Code's settings.
    let cp = verdict(
        &cat,
        &f.p("project/.claude/skills/off/SKILL.md"),
        "copilot-cli",
    );
    assert_eq!(cp.status, Status::Visible);
}

#[test]
fn codex_skills_config_and_openai_yaml_hide_from_the_model() {
    let f = Fx::new(&format!(
        "@@ project/.agents/skills/a/SKILL.md\n{}@@ project/.agents/skills/b/SKILL.md\n{}@@ project/.agents/skills/b/agents/openai.yaml\npolicy:\n  allow_implicit_invocation: false\n@@ project/.agents/skills/c/SKILL.md\n{}@@ home/.codex/config.toml\n[[skills.config]]\nname = \"a\"\nenabled = false\n",
        skill("a"),
        skill("b"),
        skill("c")
    ));
    let cat = Catalog::build(&builtin(), &f.env());
    let a = verdict(&cat, &f.p("project/.agents/skills/a/SKILL.md"), "codex");
    assert_eq!((a.status, a.model), (Status::Visible, Some(false)));
    assert!(a.reasons.iter().any(
        |r| r.rule == "codex/settings.skills-config-user" && r.message.contains("config.toml")
    ));
    let b = verdict(&cat, &f.p("project/.agents/skills/b/SKILL.md"), "codex");
    assert_eq!((b.status, b.model), (Status::Visible, Some(false)));
    assert!(
        b.reasons
            .iter()
            .any(|r| r.rule == "codex/settings.openai-yaml-policy"
                && r.message.contains("allow_implicit_invocation"))
    );
    let c = verdict(&cat, &f.p("project/.agents/skills/c/SKILL.md"), "codex");
    assert_eq!(c.model, Some(true));
}

#[test]
fn copilot_skills_dirs_env_and_disabled_skills() {
    let f = Fx::new(&format!(
        "@@ extra/x/SKILL.md\n{}@@ project/.github/skills/gone/SKILL.md\n{}@@ home/.copilot/config.json\n// comments are allowed\n{{\"disabledSkills\": [\"gone\"],}}\n",
        skill("x"),
        skill("gone")
    ));
    let env = f
        .env()
        .with_var("COPILOT_SKILLS_DIRS", f.p("extra").to_str().unwrap());
    let cat = Catalog::build(&builtin(), &env);
    let x = verdict(&cat, &f.p("extra/x/SKILL.md"), "copilot-cli");
    assert_eq!(x.status, Status::Visible);
    assert!(
        x.reasons[0]
            .rule
            .starts_with("copilot-cli/settings.skills-dirs-env"),
        "{:?}",
        x.reasons[0]
    );
    // Other agents do not read Copilot's variable.
    assert_eq!(
        verdict(&cat, &f.p("extra/x/SKILL.md"), "claude-code").status,
        Status::NotFound
    );
    let gone = verdict(
        &cat,
        &f.p("project/.github/skills/gone/SKILL.md"),
        "copilot-cli",
    );
    assert_eq!(gone.status, Status::Rejected);
    assert!(
        gone.reasons
            .last()
            .unwrap()
            .message
            .contains("disabledSkills")
    );
}

#[test]
fn opencode_skills_paths_and_permission_deny() {
    let f = Fx::new(&format!(
        "@@ shared/tools/t/SKILL.md\n{}@@ project/.opencode/skills/secret/SKILL.md\n{}@@ project/opencode.json\n{{\n  // JSONC\n  \"skills\": {{\"paths\": [\"../shared/tools\"]}},\n  \"permission\": {{\"skill\": {{\"*\": \"allow\", \"sec*\": \"deny\"}}}}\n}}\n",
        skill("t"),
        skill("secret")
    ));
    let cat = Catalog::build(&builtin(), &f.env());
    let t = verdict(&cat, &f.p("shared/tools/t/SKILL.md"), "opencode");
    assert_eq!(t.status, Status::Visible);
    let s = verdict(
        &cat,
        &f.p("project/.opencode/skills/secret/SKILL.md"),
        "opencode",
    );
    assert_eq!(s.status, Status::Rejected);
    assert!(
        s.reasons
            .last()
            .unwrap()
            .message
            .contains("permission.skill"),
        "{:?}",
        s.reasons
    );
}

/// OpenCode tree: one project skill per name (folder = name unless given as `folder:name`), a
/// project opencode.json and an optional user one.
fn opencode_fx(skills: &[&str], project_json: &str, user_json: Option<&str>) -> Fx {
    let mut tree = String::new();
    for s in skills {
        let (folder, name) = s.split_once(':').unwrap_or((s, s));
        tree.push_str(&format!(
            "@@ project/.opencode/skills/{folder}/SKILL.md\n{}",
            skill(name)
        ));
    }
    tree.push_str(&format!("@@ project/opencode.json\n{project_json}\n"));
    if let Some(u) = user_json {
        tree.push_str(&format!("@@ home/.config/opencode/opencode.json\n{u}\n"));
    }
    Fx::new(&tree)
}

fn opencode_status(f: &Fx, cat: &Catalog, folder: &str) -> Status {
    let path = f.p(&format!("project/.opencode/skills/{folder}/SKILL.md"));
    verdict(cat, &path, "opencode").status
}

#[test]
fn opencode_permission_the_last_matching_pattern_decides() {
    // Checked on opencode 1.18.34 (`opencode debug agent build --tool skill`): x loads, y not.
    let f = opencode_fx(
        &["x", "y"],
        r#"{"permission": {"skill": {"*": "deny", "x": "allow"}}}"#,
        None,
    );
    let cat = Catalog::build(&builtin(), &f.env());
    assert_eq!(opencode_status(&f, &cat, "x"), Status::Visible);
    assert_eq!(opencode_status(&f, &cat, "y"), Status::Rejected);
    let y = verdict(
        &cat,
        &f.p("project/.opencode/skills/y/SKILL.md"),
        "opencode",
    );
    let r = y.reasons.last().unwrap();
    assert_eq!(r.rule, "opencode/settings.permission-skill-project.order");
    // The order rule's source: the 1.18.34 package whose bundled code uses `findLast`.
    assert!(
        r.source().contains("opencode-linux-x64/v/1.18.34"),
        "{}",
        r.source()
    );
    assert!(
        r.message.contains(r#"`permission.skill."*" = "deny"`"#)
            && r.message.contains("the last pattern that matches it"),
        "{}",
        r.message
    );
    // The reverse order: "*" comes last and denies x too.
    let f = opencode_fx(
        &["x", "y"],
        r#"{"permission": {"skill": {"x": "allow", "*": "deny"}}}"#,
        None,
    );
    let cat = Catalog::build(&builtin(), &f.env());
    assert_eq!(opencode_status(&f, &cat, "x"), Status::Rejected);
    assert_eq!(opencode_status(&f, &cat, "y"), Status::Rejected);
    // One action for every skill; "ask" does not hide a skill.
    let f = opencode_fx(&["x"], r#"{"permission": {"skill": "deny"}}"#, None);
    let cat = Catalog::build(&builtin(), &f.env());
    assert_eq!(opencode_status(&f, &cat, "x"), Status::Rejected);
    let f = opencode_fx(&["x"], r#"{"permission": {"skill": {"*": "ask"}}}"#, None);
    let cat = Catalog::build(&builtin(), &f.env());
    assert_eq!(opencode_status(&f, &cat, "x"), Status::Visible);
}

#[test]
fn opencode_permission_merges_the_user_file_first_then_the_project_file() {
    // Observed on 1.18.34 with these two files: merged order y, x = allow, *, a? (as
    // `opencode debug config` prints it); x and y are denied, ab loads.
    let f = opencode_fx(
        &["x", "y", "ab", "abc"],
        r#"{"permission": {"skill": {"*": "deny", "x": "allow", "a?": "allow"}}}"#,
        Some(r#"{"permission": {"skill": {"y": "deny", "x": "deny"}}}"#),
    );
    let cat = Catalog::build(&builtin(), &f.env());
    assert_eq!(opencode_status(&f, &cat, "x"), Status::Rejected);
    assert_eq!(opencode_status(&f, &cat, "y"), Status::Rejected);
    assert_eq!(opencode_status(&f, &cat, "ab"), Status::Visible);
    assert_eq!(opencode_status(&f, &cat, "abc"), Status::Rejected);
    // A user "*" deny is overridden by a project allow that comes after it.
    let f = opencode_fx(
        &["x", "y"],
        r#"{"permission": {"skill": {"x": "allow"}}}"#,
        Some(r#"{"permission": {"skill": {"*": "deny"}}}"#),
    );
    let cat = Catalog::build(&builtin(), &f.env());
    assert_eq!(opencode_status(&f, &cat, "x"), Status::Visible);
    let y = verdict(
        &cat,
        &f.p("project/.opencode/skills/y/SKILL.md"),
        "opencode",
    );
    assert_eq!(y.status, Status::Rejected);
    assert_eq!(
        y.reasons.last().unwrap().rule,
        "opencode/settings.permission-skill-user.order"
    );
}

#[test]
fn opencode_permission_wildcards_and_the_listed_name() {
    // `?` is one character, `**` is `*`; only the skill's name is matched, not its folder.
    let f = opencode_fx(
        &["ab", "abc", "b1", "x-folder:x"],
        r#"{"permission": {"skill": {"*": "deny", "a?": "allow", "b**": "allow", "x": "allow"}}}"#,
        None,
    );
    let cat = Catalog::build(&builtin(), &f.env());
    assert_eq!(opencode_status(&f, &cat, "ab"), Status::Visible);
    assert_eq!(opencode_status(&f, &cat, "abc"), Status::Rejected);
    assert_eq!(opencode_status(&f, &cat, "b1"), Status::Visible);
    assert_eq!(opencode_status(&f, &cat, "x-folder"), Status::Visible);
}

#[test]
fn wildcard_dialects() {
    use skilltui::agents::Wildcards::{Star, StarQuestion};
    use skilltui::settings::wildcards_match as m;
    assert!(m(StarQuestion, "a?", "ab") && !m(StarQuestion, "a?", "abc"));
    assert!(m(StarQuestion, "a**", "abc") && m(StarQuestion, "**", ""));
    assert!(m(StarQuestion, "*-review", "code-review"));
    assert!(!m(StarQuestion, "*-review", "code-reviews"));
    assert!(m(StarQuestion, "git *", "git") && m(StarQuestion, "git *", "git status"));
    assert!(m(StarQuestion, "a\\b", "a/b"));
    assert!(m(StarQuestion, "é?", "éà") && m(StarQuestion, "a.c", "a.c"));
    assert!(!m(StarQuestion, "a.c", "abc"));
    assert!(!m(Star, "a?", "ab") && m(Star, "a?", "a?"));
    assert!(m(Star, "no-*", "no-thanks"));
    // Many stars on a long text stay fast (one backtracking point).
    let long = "a".repeat(10_000);
    assert!(!m(StarQuestion, "*a*a*a*a*a*a*a*b", &long));
}

#[test]
fn jsonc_settings_keep_non_ascii_text_and_allow_a_comment_after_a_trailing_comma() {
    let f = Fx::new(&format!(
        "@@ shared/outils-é/t/SKILL.md\n{}@@ project/.opencode/skills/sécurité/SKILL.md\n{}@@ project/opencode.json\n{{\n  \"skills\": {{\"paths\": [\"../shared/outils-é\"],}}, // chemins\n  \"permission\": {{\"skill\": {{\"sécu*\": \"deny\", /* pas d'autre */ }},}},\n  // fin\n}}\n",
        skill("t"),
        skill("sécurité")
    ));
    let cat = Catalog::build(&builtin(), &f.env());
    assert!(
        !format!("{:?}", cat.diagnostics).contains("opencode.json"),
        "{:?}",
        cat.diagnostics
    );
    let t = verdict(&cat, &f.p("shared/outils-é/t/SKILL.md"), "opencode");
    assert_eq!(t.status, Status::Visible);
    let s = verdict(
        &cat,
        &f.p("project/.opencode/skills/sécurité/SKILL.md"),
        "opencode",
    );
    assert_eq!(s.status, Status::Rejected, "{:?}", s.reasons);
    assert!(
        s.reasons
            .last()
            .unwrap()
            .message
            .contains("`permission.skill.\"sécu*\" = \"deny\"`")
    );
}

#[test]
fn jsonc_is_not_json5() {
    use skilltui::agents::SettingsFormat;
    use skilltui::settings::parse;
    let v = parse(
        "{\"a\": [1, 2,], // c\n \"b\": \"ü\" /* d */,}",
        SettingsFormat::Jsonc,
    )
    .unwrap();
    assert_eq!(v["b"], "ü");
    assert_eq!(v["a"].as_array().unwrap().len(), 2);
    // Key order is kept (the last matching permission pattern depends on it).
    let v = parse("{\"z\": 1, \"a\": 2, \"m\": 3}", SettingsFormat::Jsonc).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["z", "a", "m"]);
    assert!(parse("{a: 1}", SettingsFormat::Jsonc).is_err());
    assert!(parse("{\"a\": 'x'}", SettingsFormat::Jsonc).is_err());
    assert!(parse("{\"a\": 1", SettingsFormat::Jsonc).is_err());
    assert!(
        parse("{\"a\": \"/* not a comment */\"}", SettingsFormat::Jsonc).unwrap()["a"]
            == "/* not a comment */"
    );
}

#[test]
fn pi_settings_array_adds_and_excludes() {
    let f = Fx::new(&format!(
        "@@ home/.claude/skills/cl/SKILL.md\n{}@@ project/.agents/skills/no-thanks/SKILL.md\n{}@@ home/.pi/agent/settings.json\n{{\"skills\": [\"~/.claude/skills\", \"!no-*\"]}}\n",
        skill("cl"),
        skill("no-thanks")
    ));
    let cat = Catalog::build(&builtin(), &f.env());
    // pi reads ~/.claude/skills only when a settings array lists it.
    assert_eq!(
        verdict(&cat, &f.p("home/.claude/skills/cl/SKILL.md"), "pi").status,
        Status::Visible
    );
    let no = verdict(
        &cat,
        &f.p("project/.agents/skills/no-thanks/SKILL.md"),
        "pi",
    );
    assert_eq!(no.status, Status::Rejected);
    assert!(no.reasons.last().unwrap().message.contains("!no-*"));
    // Without the settings file, ~/.claude/skills is not pi's.
    std::fs::remove_file(f.p("home/.pi/agent/settings.json")).unwrap();
    let cat = Catalog::build(&builtin(), &f.env());
    assert_eq!(
        verdict(&cat, &f.p("home/.claude/skills/cl/SKILL.md"), "pi").status,
        Status::NotFound
    );
}

#[test]
fn claude_add_dir_through_the_library_and_the_cli() {
    let f = Fx::new(&format!(
        "@@ other/.claude/skills/o/SKILL.md\n{}",
        skill("o")
    ));
    let env = f.env().with_add_dir(f.p("other"));
    let cat = Catalog::build(&builtin(), &env);
    assert_eq!(
        verdict(&cat, &f.p("other/.claude/skills/o/SKILL.md"), "claude-code").status,
        Status::Visible
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(["list", "--json", "--project"])
        .arg(f.p("project"))
        .arg("--home")
        .arg(f.p("home"))
        .arg("--add-dir")
        .arg(f.p("other"))
        .output()
        .unwrap();
    let v: serde_json::Value =
        crate::common::by_agent(serde_json::from_slice(&out.stdout).unwrap());
    let s = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "o")
        .unwrap();
    assert_eq!(s["agents"]["claude-code"]["status"], "visible");
    assert_eq!(s["agents"]["codex"]["status"], "not-found");
}

#[test]
fn a_settings_file_that_does_not_parse_is_reported_not_fatal() {
    let f = Fx::new(&format!(
        "@@ project/.claude/skills/a/SKILL.md\n{}@@ project/.claude/settings.json\n{{\"skillOverrides\": {{ broken\n",
        skill("a")
    ));
    let cat = Catalog::build(&builtin(), &f.env());
    assert_eq!(
        verdict(
            &cat,
            &f.p("project/.claude/skills/a/SKILL.md"),
            "claude-code"
        )
        .status,
        Status::Visible
    );
    assert!(
        cat.diagnostics
            .iter()
            .any(|d| d.contains("settings.json") && d.contains("does not parse")),
        "{:?}",
        cat.diagnostics
    );
}

#[test]
fn body_references_scripts_and_bundled_files() {
    let mut tree = String::from(
        "@@ project/.claude/skills/tool/SKILL.md\n---\nname: tool\ndescription: A tool.\n---\n# Tool\nRun `python scripts/run.py`, read [the guide](references/guide.md) and references/missing.md.\n@@ project/.claude/skills/tool/scripts/run.py\nprint(1)\n@@ project/.claude/skills/tool/references/guide.md\n# Guide\n",
    );
    for i in 0..30 {
        tree.push_str(&format!(
            "@@ project/.claude/skills/tool/fixtures/f{i}.json\n{{}}\n"
        ));
    }
    tree.push_str("@@ project/.claude/skills/tool/vendor/a.js\nx\n@@ project/.claude/skills/tool/vendor/b.js\nx\n");
    let f = Fx::new(&tree);
    let cat = Catalog::build(&builtin(), &f.env());
    let path = f.p("project/.claude/skills/tool/SKILL.md");
    let s = cat.skill(&path).unwrap();
    assert!(s.scripts);
    let missing: Vec<_> = s
        .references
        .iter()
        .filter(|r| !r.exists)
        .map(|r| r.target.as_str())
        .collect();
    assert_eq!(missing, ["references/missing.md"]);
    let p = s
        .problems
        .iter()
        .find(|p| p.code == "reference-missing")
        .unwrap();
    assert_eq!(p.line, Some(6));

    let claude = verdict(&cat, &path, "claude-code");
    let rel = claude
        .reasons
        .iter()
        .find(|r| r.rule == "claude-code/body.relative_paths")
        .expect("a relative-path note");
    assert!(
        rel.message.contains("${CLAUDE_SKILL_DIR}/scripts/run.py"),
        "{}",
        rel.message
    );
    let scripts = claude
        .reasons
        .iter()
        .find(|r| r.rule == "claude-code/body.scripts")
        .unwrap();
    assert!(
        scripts.message.contains("need approval"),
        "{}",
        scripts.message
    );
    assert_eq!(
        claude.status,
        Status::Visible,
        "notes do not change the status"
    );

    // OpenCode resolves against the skill folder: no note; Cursor: unknown, said so.
    let oc = verdict(&cat, &path, "opencode");
    assert!(
        !oc.reasons
            .iter()
            .any(|r| r.rule == "opencode/body.relative_paths")
    );
    let cu = verdict(&cat, &path, "cursor");
    if cu.status == Status::Visible {
        assert!(
            cu.reasons
                .iter()
                .any(|r| r.rule == "cursor/body.scripts" && r.message.contains("not established"))
        );
    }

    // Copilot lists every file but the top-level vendor/ on activation.
    let cp = verdict(&cat, &path, "copilot-cli");
    let b = cp.bundle.expect("Copilot lists bundled files");
    assert_eq!(
        b.files,
        1 + 1 + 1 + 30,
        "SKILL.md, scripts, references and fixtures; vendor left out"
    );
    assert_eq!(b.heaviest[0], ("fixtures".to_string(), 30));
    assert_eq!(b.excluded, ["vendor"]);
    assert!(verdict(&cat, &path, "claude-code").bundle.is_none());
}
