//! Conformance fixtures for the kinds of rule the model format gained for issue 18: last-wins
//! and path-sorted precedence, root groups (first existing), folder trust, folder-name identity,
//! settings that add skill folders, and known bugs. Each builds a fixture model (pi's built-in
//! model with the rule under test swapped in) and a fixture tree in a temp dir, and asserts the
//! verdicts through the library and, for some, through `skilltui why` / `list --json` with
//! `--model DIR`.

use crate::common::{Tree, tree_fixture};
use serde_json::Value;
use skilltui::agents::{self, AgentModel, Topic};
use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::resolve::{Status, Verdict};
use std::path::{Path, PathBuf};
use std::process::Command;

const SRC: &str = r#"[{ doc = "https://example.com/fixture" }]"#;

tree_fixture!(
    /// A fixture: `base/home` is HOME, `base/project` the working folder, `base/models` the
    /// model folder for `--model`.
    Fx
);

impl Fx {
    fn new() -> Fx {
        Fx(Tree::new("project"))
    }

    fn skill(&self, dir: &str, name: &str) -> PathBuf {
        self.put(
            &format!("{dir}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: A fixture skill.\n---\n# T\n\nBody.\n"),
        )
    }

    fn env(&self) -> Env {
        Env::new(&self.project, &self.home)
    }

    /// Writes the fixture model into `base/models/fx.toml` (for `--model`) and loads it.
    fn model(&self, text: &str) -> Vec<AgentModel> {
        let p = self.put("models/fx.toml", text);
        agents::load_dir(p.parent().unwrap()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> (String, i32) {
        let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
        c.args(args)
            .arg("--model")
            .arg(self.base.join("models"))
            .arg("--project")
            .arg(&self.project)
            .arg("--home")
            .arg(&self.home)
            .env_clear()
            .env("PATH", "/usr/bin:/bin");
        for (k, v) in env {
            c.env(k, v);
        }
        let o = c.output().unwrap();
        (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            o.status.code().unwrap_or(-1),
        )
    }
}

/// pi's built-in model as a fixture agent `fx`: its roots, settings and not-roots replaced by
/// `roots` (TOML text of `[[roots]]` tables, `[[settings]]` …), its precedence mode and order
/// set, and `extra` appended (top-level tables such as `[trust]`, `[[bugs]]`).
fn fixture(roots: &str, mode: &str, order: &str, extra: &str) -> String {
    let pi = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/agents/pi.toml"),
    )
    .unwrap();
    let mut t: toml::Table = toml::from_str(&pi).unwrap();
    t.insert("id".into(), "fx".into());
    t.insert("name".into(), "Fixture".into());
    t.insert("short".into(), "fx".into());
    for k in ["roots", "settings", "not_roots", "former_roots", "summary"] {
        t.remove(k);
    }
    let prec = t["precedence"].as_table_mut().unwrap();
    for (k, v) in [("mode", mode), ("order", order), ("tie_break", "sorted")] {
        let r = prec[k].as_table_mut().unwrap();
        r.insert("value".into(), v.into());
    }
    let extra_t: toml::Table = toml::from_str(&format!("{roots}\n{extra}")).unwrap();
    for (k, v) in extra_t {
        t.insert(k, v);
    }
    toml::to_string(&t).unwrap()
}

fn root(id: &str, path: &str, scope: &str, more: &str) -> String {
    let walk = if scope == "project" {
        format!(
            "walk = {{ value = \"cwd-only\", evidence = \"DOC\", source = {SRC} }}\nno_git = {{ value = \"cwd-only\", evidence = \"DOC\", source = {SRC} }}\n"
        )
    } else {
        String::new()
    };
    format!(
        "[[roots]]\nid = \"{id}\"\npath = \"{path}\"\nscope = \"{scope}\"\n{walk}{more}\nevidence = \"DOC\"\nsource = {SRC}\n\n"
    )
}

fn verdict<'a>(cat: &'a Catalog, path: &Path) -> &'a Verdict {
    cat.skill(path)
        .unwrap_or_else(|| panic!("{} not in the catalog", path.display()))
        .verdict("fx")
        .unwrap()
}

fn has_rule(v: &Verdict, rule: &str, topic: Topic) -> bool {
    v.reasons.iter().any(|r| r.rule == rule && r.topic == topic)
}

/// Asserts that a reason of `v` says `text`.
#[track_caller]
fn assert_says(v: &Verdict, text: &str) {
    assert!(
        v.reasons.iter().any(|r| r.message.contains(text)),
        "no reason says {text:?}:\n{}",
        reasons(v)
    );
}

fn reasons(v: &Verdict) -> String {
    v.reasons
        .iter()
        .map(|r| format!("{} [{:?}]: {}", r.rule, r.topic, r.message))
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------------------------------------
// Precedence: last-wins
// ---------------------------------------------------------------------------------------------

#[test]
fn last_wins_keeps_the_last_copy_in_root_order() {
    let fx = Fx::new();
    let roots =
        root("proj", ".fx/skills", "project", "") + &root("user", "~/.fx/skills", "user", "");
    let models = fx.model(&fixture(&roots, "last-wins", "root-then-distance", ""));
    let p = fx.skill("project/.fx/skills/dup", "dup");
    let u = fx.skill("home/.fx/skills/dup", "dup");
    let solo = fx.skill("project/.fx/skills/solo", "solo");
    let cat = Catalog::build(&models, &fx.env());
    let (vp, vu) = (verdict(&cat, &p), verdict(&cat, &u));
    assert_eq!(vu.status, Status::Visible, "{}", reasons(vu));
    assert_eq!(vp.status, Status::Shadowed, "{}", reasons(vp));
    assert_eq!(vp.winner.as_deref(), Some(u.as_path()));
    assert!(
        has_rule(vp, "fx/precedence.mode", Topic::Precedence),
        "{}",
        reasons(vp)
    );
    assert_says(vp, "keeps the last copy");
    assert_eq!(verdict(&cat, &solo).status, Status::Visible);

    // Under first-wins the same tree goes the other way.
    let models = fx.model(&fixture(&roots, "first-wins", "root-then-distance", ""));
    let cat = Catalog::build(&models, &fx.env());
    assert_eq!(verdict(&cat, &p).status, Status::Visible);
    assert_eq!(verdict(&cat, &u).status, Status::Shadowed);
}

#[test]
fn last_wins_within_one_root_takes_the_first_folder_in_sorted_order() {
    let fx = Fx::new();
    let roots =
        root("proj", ".fx/skills", "project", "") + &root("user", "~/.fx/skills", "user", "");
    let models = fx.model(&fixture(&roots, "last-wins", "root-then-distance", ""));
    let p = fx.skill("project/.fx/skills/dup", "dup");
    let b = fx.skill("home/.fx/skills/bbb", "dup");
    let a = fx.skill("home/.fx/skills/aaa", "dup");
    let cat = Catalog::build(&models, &fx.env());
    assert_eq!(
        verdict(&cat, &a).status,
        Status::Visible,
        "{}",
        reasons(verdict(&cat, &a))
    );
    assert_eq!(verdict(&cat, &b).status, Status::Shadowed);
    assert_eq!(verdict(&cat, &p).status, Status::Shadowed);
    assert_eq!(verdict(&cat, &p).winner.as_deref(), Some(a.as_path()));
}

// ---------------------------------------------------------------------------------------------
// Precedence: path-sorted
// ---------------------------------------------------------------------------------------------

#[test]
fn path_sorted_ranks_copies_by_folder_path_bytes_whatever_the_root() {
    let fx = Fx::new();
    // The project root ranks first, but base/home/... sorts before base/project/...
    let roots =
        root("proj", ".fx/skills", "project", "") + &root("user", "~/.fx/skills", "user", "");
    let models = fx.model(&fixture(&roots, "first-wins", "path-sorted", ""));
    let p = fx.skill("project/.fx/skills/dup", "dup");
    let u = fx.skill("home/.fx/skills/zzz", "dup");
    // Byte order, not component order: `a-b` (0x2d) sorts before `a/b` (0x2f), while
    // component order would put `a` before `a-b`.
    let nested = fx.skill("project/.fx/skills/a/b", "pair");
    let dashed = fx.skill("project/.fx/skills/a-b", "pair");
    let cat = Catalog::build(&models, &fx.env());
    let vu = verdict(&cat, &u);
    assert_eq!(vu.status, Status::Visible, "{}", reasons(vu));
    let vp = verdict(&cat, &p);
    assert_eq!(vp.status, Status::Shadowed, "{}", reasons(vp));
    assert!(
        has_rule(vp, "fx/precedence.order", Topic::PrecedenceOrder),
        "{}",
        reasons(vp)
    );
    assert_eq!(verdict(&cat, &dashed).status, Status::Visible);
    assert_eq!(verdict(&cat, &nested).status, Status::Shadowed);
    assert_eq!(
        verdict(&cat, &nested).winner.as_deref(),
        Some(dashed.as_path())
    );
}

// ---------------------------------------------------------------------------------------------
// Root groups: the first existing folder of a group is read
// ---------------------------------------------------------------------------------------------

fn group_roots() -> String {
    let g = "group = \"brand\"\n";
    root("kimi", ".kimi/skills", "project", g)
        + &root("claude", ".claude/skills", "project", g)
        + &root("codex", ".codex/skills", "project", g)
        + &root("agents", ".agents/skills", "project", "")
}

#[test]
fn root_group_reads_only_the_first_existing_folder() {
    let fx = Fx::new();
    let models = fx.model(&fixture(
        &group_roots(),
        "first-wins",
        "root-then-distance",
        "",
    ));
    // .kimi/skills does not exist; .claude/skills exists (empty of this skill's name), so
    // .codex/skills is not read.
    let c = fx.skill("project/.claude/skills/one", "one");
    let x = fx.skill("project/.codex/skills/two", "two");
    let a = fx.skill("project/.agents/skills/three", "three");
    let cat = Catalog::build(&models, &fx.env());
    assert_eq!(verdict(&cat, &c).status, Status::Visible);
    assert_eq!(
        verdict(&cat, &a).status,
        Status::Visible,
        "ungrouped roots are read"
    );
    let vx = verdict(&cat, &x);
    assert_eq!(vx.status, Status::NotFound, "{}", reasons(vx));
    assert!(
        has_rule(vx, "fx/roots.codex", Topic::RootGroup),
        "{}",
        reasons(vx)
    );
    let first = fx.project.join(".claude/skills").display().to_string();
    assert!(
        vx.reasons[0]
            .message
            .contains(&format!("not read: {first} comes first in its group")),
        "{}",
        reasons(vx)
    );

    // Through the binary: `why` says so, `agents` shows the group.
    let (out, _) = fx.run(&["why", "two"], &[]);
    assert!(out.contains("comes first in its group `brand`"), "{out}");
    let (out, _) = fx.run(&["agents", "fx"], &[]);
    assert!(
        out.contains("roots.codex = .codex/skills (group brand"),
        "{out}"
    );

    // An empty first folder still comes first.
    fx.mkdir("project/.kimi/skills");
    let cat = Catalog::build(&models, &fx.env());
    assert_eq!(verdict(&cat, &c).status, Status::NotFound);
    assert_eq!(verdict(&cat, &x).status, Status::NotFound);
    assert!(
        verdict(&cat, &c).reasons[0]
            .message
            .contains(".kimi/skills comes first")
    );

    // The first removed: the next existing one is read.
    std::fs::remove_dir_all(fx.base.join("project/.kimi")).unwrap();
    std::fs::remove_dir_all(fx.base.join("project/.claude")).unwrap();
    let cat = Catalog::build(&models, &fx.env());
    assert_eq!(
        verdict(&cat, &x).status,
        Status::Visible,
        "{}",
        reasons(verdict(&cat, &x))
    );
}

#[test]
fn root_group_with_no_existing_folder_reads_the_others() {
    let fx = Fx::new();
    let models = fx.model(&fixture(
        &group_roots(),
        "first-wins",
        "root-then-distance",
        "",
    ));
    let a = fx.skill("project/.agents/skills/three", "three");
    let scan = skilltui::scan::scan(&models, &fx.env());
    // No folder of the group exists: none is demoted (each is simply empty).
    assert!(
        scan.agent_roots
            .iter()
            .filter(|r| r.distance == 0)
            .all(|r| r.state == skilltui::scan::RootState::Scanned),
        "{:?}",
        scan.agent_roots
    );
    let cat = Catalog::from_scan(&models, &scan);
    assert_eq!(verdict(&cat, &a).status, Status::Visible);
    assert_eq!(cat.skills.len(), 1);
}

#[test]
fn root_groups_must_share_a_scope() {
    let fx = Fx::new();
    let g = "group = \"g\"\n";
    let roots = root("a", ".a/skills", "project", g) + &root("b", "~/.b/skills", "user", g);
    let p = fx.put(
        "models/fx.toml",
        &fixture(&roots, "first-wins", "root-then-distance", ""),
    );
    let e = agents::load_dir(p.parent().unwrap()).unwrap_err();
    assert!(e.to_string().contains("group `g`"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Trust
// ---------------------------------------------------------------------------------------------

fn trust_table() -> String {
    format!(
        "[trust]\n\
         scopes = {{ value = [\"project\"], evidence = \"SRC\", source = {SRC} }}\n\
         env = {{ value = \"FX_TRUST_WORKSPACE\", evidence = \"SRC\", source = {SRC} }}\n\
         file = {{ value = \"${{FX_HOME:-~}}/.fx/trustedFolders.json\", evidence = \"SRC\", source = {SRC} }}\n\
         file_format = {{ value = \"gemini-trusted-folders\", evidence = \"SRC\", source = {SRC} }}\n\
         default = {{ value = \"untrusted\", evidence = \"OBS\", source = {SRC} }}\n"
    )
}

struct TrustFx {
    fx: Fx,
    models: Vec<AgentModel>,
    project_skill: PathBuf,
    user_skill: PathBuf,
}

fn trust_fx() -> TrustFx {
    let fx = Fx::new();
    let roots =
        root("proj", ".fx/skills", "project", "") + &root("user", "~/.fx/skills", "user", "");
    let models = fx.model(&fixture(
        &roots,
        "first-wins",
        "root-then-distance",
        &trust_table(),
    ));
    let project_skill = fx.skill("project/.fx/skills/local", "local");
    let user_skill = fx.skill("home/.fx/skills/mine", "mine");
    TrustFx {
        fx,
        models,
        project_skill,
        user_skill,
    }
}

impl TrustFx {
    fn cat(&self, env: Env) -> Catalog {
        Catalog::build(&self.models, &env)
    }
    fn trust_file(&self, text: &str) {
        self.fx.put("home/.fx/trustedFolders.json", text);
    }
}

#[test]
fn untrusted_by_default_hides_project_skills_only() {
    let t = trust_fx();
    let cat = t.cat(t.fx.env());
    let v = verdict(&cat, &t.project_skill);
    assert_eq!(v.status, Status::NotFound, "{}", reasons(v));
    assert!(
        has_rule(v, "fx/trust.default", Topic::Trust),
        "{}",
        reasons(v)
    );
    let m = &v.reasons[0].message;
    assert!(m.contains("only in a trusted folder"), "{m}");
    assert!(m.contains("is not trusted"), "{m}");
    assert!(m.contains("set FX_TRUST_WORKSPACE=true"), "{m}");
    assert!(m.contains("\"TRUST_FOLDER\""), "{m}");
    assert!(m.contains(".fx/trustedFolders.json"), "{m}");
    // A user root is not gated.
    assert_eq!(verdict(&cat, &t.user_skill).status, Status::Visible);
}

#[test]
fn trust_variable_true_trusts_and_false_overrides_the_file() {
    let t = trust_fx();
    let cat = t.cat(t.fx.env().with_var("FX_TRUST_WORKSPACE", "true"));
    let v = verdict(&cat, &t.project_skill);
    assert_eq!(v.status, Status::Visible, "{}", reasons(v));
    assert!(has_rule(v, "fx/trust.env", Topic::Trust), "{}", reasons(v));
    // The file trusts the folder, the variable says false: the variable decides.
    t.trust_file(&format!(
        "{{\"{}\": \"TRUST_FOLDER\"}}",
        t.fx.project.display()
    ));
    let cat = t.cat(t.fx.env().with_var("FX_TRUST_WORKSPACE", "false"));
    let v = verdict(&cat, &t.project_skill);
    assert_eq!(v.status, Status::NotFound);
    assert!(has_rule(v, "fx/trust.env", Topic::Trust), "{}", reasons(v));
}

#[test]
fn trust_file_listing_the_folder_or_a_parent() {
    let t = trust_fx();
    let project = t.fx.project.display().to_string();
    let base = t.fx.base.display().to_string();
    for (text, trusted) in [
        (format!("{{\"{project}\": \"TRUST_FOLDER\"}}"), true),
        // JSON with comments, a parent folder trusted.
        (format!("// mine\n{{\"{base}\": \"TRUST_FOLDER\",}}"), true),
        // TRUST_PARENT on a sibling trusts its parent, the project's parent too.
        (format!("{{\"{base}/sibling\": \"TRUST_PARENT\"}}"), true),
        (format!("{{\"{project}/sub\": \"TRUST_FOLDER\"}}"), false),
        (format!("{{\"{project}\": \"DO_NOT_TRUST\"}}"), false),
        ("not json".to_string(), false),
    ] {
        t.trust_file(&text);
        let cat = t.cat(t.fx.env());
        let v = verdict(&cat, &t.project_skill);
        let want = if trusted {
            Status::Visible
        } else {
            Status::NotFound
        };
        assert_eq!(v.status, want, "{text}\n{}", reasons(v));
        if trusted || text.contains("DO_NOT_TRUST") {
            assert!(
                has_rule(v, "fx/trust.file", Topic::Trust),
                "{text}\n{}",
                reasons(v)
            );
        } else {
            assert!(
                has_rule(v, "fx/trust.default", Topic::Trust),
                "{text}\n{}",
                reasons(v)
            );
        }
        assert_eq!(verdict(&cat, &t.user_skill).status, Status::Visible);
    }
}

#[test]
fn trust_through_the_binary() {
    let t = trust_fx();
    let (out, _) = t.fx.run(&["why", "local"], &[]);
    assert!(out.contains("not trusted"), "{out}");
    assert!(out.contains("fx/trust.default"), "{out}");
    let (out, code) = t.fx.run(
        &["list", "--json-schema", "1"],
        &[("FX_TRUST_WORKSPACE", "true")],
    );
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let local = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "local")
        .unwrap();
    assert_eq!(local["agents"]["fx"]["status"], "visible", "{local}");
    let rules: Vec<&str> = local["agents"]["fx"]["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["rule"].as_str())
        .collect();
    assert!(rules.contains(&"fx/trust.env"), "{rules:?}");
}

// ---------------------------------------------------------------------------------------------
// Folder-name identity
// ---------------------------------------------------------------------------------------------

#[test]
fn folder_name_identity_lists_and_collides_by_folder() {
    let fx = Fx::new();
    let roots =
        root("proj", ".fx/skills", "project", "") + &root("user", "~/.fx/skills", "user", "");
    let mut text = fixture(&roots, "first-wins", "root-then-distance", "");
    let mut t: toml::Table = toml::from_str(&text).unwrap();
    t["name_rules"]["source"]
        .as_table_mut()
        .unwrap()
        .insert("value".into(), "folder".into());
    text = toml::to_string(&t).unwrap();
    let models = fx.model(&text);
    let a = fx.skill("project/.fx/skills/tool", "front-name");
    let b = fx.skill("home/.fx/skills/tool", "other-name");
    let c = fx.skill("home/.fx/skills/solo", "tool");
    let cat = Catalog::build(&models, &fx.env());
    let va = verdict(&cat, &a);
    assert_eq!(va.status, Status::Visible, "{}", reasons(va));
    assert_eq!(va.as_name.as_deref(), Some("tool"));
    assert_eq!(verdict(&cat, &b).status, Status::Shadowed);
    assert_eq!(verdict(&cat, &c).as_name.as_deref(), Some("solo"));
    assert_eq!(verdict(&cat, &c).status, Status::Visible);
}

// ---------------------------------------------------------------------------------------------
// Settings that add skill folders (Qwen's skills.directories, Mistral Vibe's skill_paths)
// ---------------------------------------------------------------------------------------------

#[test]
fn settings_add_skill_folders() {
    let fx = Fx::new();
    let settings = format!(
        "[[settings]]\nid = \"skills-directories\"\nkind = \"root-list\"\nfile = \"~/.fx/settings.json\"\nscope = \"user\"\nformat = \"json\"\nkey = \"skills.directories\"\nevidence = \"DOC\"\nsource = {SRC}\n\n\
         [[settings]]\nid = \"skill-paths\"\nkind = \"root-list\"\nfile = \".fx/config.toml\"\nscope = \"project\"\nformat = \"toml\"\nkey = \"skill_paths\"\nevidence = \"DOC\"\nsource = {SRC}\n"
    );
    let roots = root("user", "~/.fx/skills", "user", "") + &settings;
    let models = fx.model(&fixture(&roots, "first-wins", "root-then-distance", ""));
    let extra = fx.skill("extra/one", "one");
    let vibe = fx.skill("vibe/two", "two");
    let cat = Catalog::build(&models, &fx.env());
    assert!(cat.skill(&extra).is_none(), "no root holds it yet");
    fx.put(
        "home/.fx/settings.json",
        &format!(
            "{{\"skills\": {{\"directories\": [\"{}\"]}}}}",
            fx.base.join("extra").display()
        ),
    );
    fx.put(
        "project/.fx/config.toml",
        &format!("skill_paths = [\"{}\"]\n", fx.base.join("vibe").display()),
    );
    let cat = Catalog::build(&models, &fx.env());
    let v = verdict(&cat, &extra);
    assert_eq!(v.status, Status::Visible, "{}", reasons(v));
    assert!(
        has_rule(v, "fx/settings.skills-directories", Topic::Found),
        "{}",
        reasons(v)
    );
    let v = verdict(&cat, &vibe);
    assert_eq!(v.status, Status::Visible, "{}", reasons(v));
    assert!(
        has_rule(v, "fx/settings.skill-paths", Topic::Found),
        "{}",
        reasons(v)
    );
}

// ---------------------------------------------------------------------------------------------
// Known bugs
// ---------------------------------------------------------------------------------------------

#[test]
fn known_bugs_mark_the_skills_they_bite() {
    let fx = Fx::new();
    let bugs = format!(
        "[[bugs]]\nid = \"numeric-name\"\nwhen = \"name-not-string\"\neffect = \"`fx skill list` crashes\"\nevidence = \"OBS\"\nversion = \"1.2.3\"\nsource = {SRC}\n\n\
         [[bugs]]\nid = \"bom\"\nwhen = \"bom\"\neffect = \"fx lists it as a disabled skill named `unknown`\"\nevidence = \"OBS\"\nversion = \"1.2.3\"\nsource = {SRC}\n"
    );
    let roots = root("user", "~/.fx/skills", "user", "");
    let models = fx.model(&fixture(&roots, "first-wins", "root-then-distance", &bugs));
    let num = fx.put(
        "home/.fx/skills/num/SKILL.md",
        "---\nname: 123\ndescription: Numeric name.\n---\nBody.\n",
    );
    let bom = fx.put(
        "home/.fx/skills/bom/SKILL.md",
        "\u{feff}---\nname: bom\ndescription: With a BOM.\n---\nBody.\n",
    );
    let ok = fx.skill("home/.fx/skills/fine", "fine");
    let cat = Catalog::build(&models, &fx.env());
    let v = verdict(&cat, &num);
    let r = v
        .reasons
        .iter()
        .find(|r| r.topic == Topic::KnownBug)
        .unwrap_or_else(|| panic!("{}", reasons(v)));
    assert_eq!(r.rule, "fx/bugs.numeric-name");
    assert!(r.message.contains("known bug"), "{}", r.message);
    assert!(
        r.message.contains("`fx skill list` crashes"),
        "{}",
        r.message
    );
    assert!(r.evidence().contains("OBS 1.2.3"), "{}", r.evidence());
    let v = verdict(&cat, &bom);
    assert!(
        has_rule(v, "fx/bugs.bom", Topic::KnownBug),
        "{}",
        reasons(v)
    );
    assert!(!has_rule(v, "fx/bugs.numeric-name", Topic::KnownBug));
    let v = verdict(&cat, &ok);
    assert!(
        v.reasons.iter().all(|r| r.topic != Topic::KnownBug),
        "{}",
        reasons(v)
    );
    // Through `why`.
    let (out, _) = fx.run(&["why", "bom"], &[]);
    assert!(out.contains("fx/bugs.bom"), "{out}");
    assert!(out.contains("disabled skill named"), "{out}");
    // `skilltui agents fx` lists the bugs and the trust rules like any other rule.
    let (out, _) = fx.run(&["agents", "fx"], &[]);
    assert!(out.contains("bugs.numeric-name"), "{out}");
    assert!(out.contains("name-not-string"), "{out}");
}

// ---------------------------------------------------------------------------------------------
// The live catalog: a root appearing that changes a group's first existing folder, and the trust
// file changing, lead to the right snapshot
// ---------------------------------------------------------------------------------------------

fn watch_until(
    rx: &std::sync::mpsc::Receiver<skilltui::watch::Update>,
    what: &str,
    ok: impl Fn(&Catalog) -> bool,
) -> skilltui::watch::Update {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(u) if ok(&u.catalog) => return u,
            Ok(_) => continue,
            Err(_) => panic!("no snapshot with {what} within 10 s"),
        }
    }
}

fn status_of(cat: &Catalog, path: &Path) -> Option<Status> {
    cat.skill(path)
        .and_then(|s| s.verdict("fx"))
        .map(|v| v.status)
}

#[test]
fn the_watcher_follows_root_groups_and_the_trust_file() {
    let fx = Fx::new();
    let g = "group = \"brand\"\n";
    let roots = root("kimi", ".kimi/skills", "project", g)
        + &root("claude", ".claude/skills", "project", g)
        + &root("user", "~/.fx/skills", "user", "");
    // Trust gates the user scope here, so that the project's group roots stay readable.
    let trust = trust_table().replace("[\"project\"]", "[\"user\"]");
    let models = fx.model(&fixture(&roots, "first-wins", "root-then-distance", &trust));
    let one = fx.skill("project/.claude/skills/one", "one");
    let mine = fx.skill("home/.fx/skills/mine", "mine");
    let (tx, rx) = std::sync::mpsc::channel();
    let env = fx.env();
    let _h = skilltui::watch::spawn(
        std::sync::Arc::new(models.clone()),
        env.clone(),
        std::time::Duration::from_millis(100),
        move |r| match r {
            skilltui::watch::Report::Update(u) => tx.send(u).is_ok(),
            skilltui::watch::Report::Warning(_) => true,
            skilltui::watch::Report::Progress(_) => true,
        },
    )
    .unwrap();
    let first = watch_until(&rx, "the initial snapshot", |_| true);
    assert_eq!(status_of(&first.catalog, &one), Some(Status::Visible));
    assert_eq!(status_of(&first.catalog, &mine), Some(Status::NotFound));

    // A root appears that comes first in the group: the copy in .claude/skills is not read.
    fx.mkdir("project/.kimi/skills");
    let u = watch_until(&rx, "one demoted by .kimi/skills", |c| {
        status_of(c, &one) == Some(Status::NotFound)
    });
    let full = Catalog::build(&models, &env);
    assert_eq!(
        serde_json::to_value(&*u.catalog).unwrap(),
        serde_json::to_value(&full).unwrap(),
        "the snapshot equals a full rebuild"
    );
    // It goes away again: .claude/skills is read.
    std::fs::remove_dir_all(fx.base.join("project/.kimi")).unwrap();
    watch_until(&rx, "one visible again", |c| {
        status_of(c, &one) == Some(Status::Visible)
    });

    // The trust file appears and trusts the folder (its folder ~/.fx exists: a root's parent).
    fx.put(
        "home/.fx/trustedFolders.json",
        &format!("{{\"{}\": \"TRUST_FOLDER\"}}", fx.project.display()),
    );
    watch_until(&rx, "mine trusted", |c| {
        status_of(c, &mine) == Some(Status::Visible)
    });
    // And changes its mind.
    fx.put(
        "home/.fx/trustedFolders.json",
        &format!("{{\"{}\": \"DO_NOT_TRUST\"}}", fx.project.display()),
    );
    let u = watch_until(&rx, "mine untrusted", |c| {
        status_of(c, &mine) == Some(Status::NotFound)
    });
    let full = Catalog::build(&models, &env);
    assert_eq!(
        serde_json::to_value(&*u.catalog).unwrap(),
        serde_json::to_value(&full).unwrap()
    );
}

// ---------------------------------------------------------------------------------------------
// Ties inside one root (sorted-last, sorted-ignore-case), case-insensitive names, and settings
// ranked first: the format gaps of Cline, Letta Code, Kimi Code, Factory Droid and Mistral Vibe
// ---------------------------------------------------------------------------------------------

/// `fixture(...)` with `precedence.tie_break` and `name_rules.collision_key` set.
fn fixture_with(roots: &str, mode: &str, tie_break: &str, collision_key: &str) -> String {
    let text = fixture(roots, mode, "root-then-distance", "");
    let mut t: toml::Table = toml::from_str(&text).unwrap();
    t["precedence"]["tie_break"]
        .as_table_mut()
        .unwrap()
        .insert("value".into(), tie_break.into());
    t["name_rules"]["collision_key"]
        .as_table_mut()
        .unwrap()
        .insert("value".into(), collision_key.into());
    toml::to_string(&t).unwrap()
}

#[test]
fn sorted_last_takes_the_last_folder_of_a_root_in_sorted_order() {
    let fx = Fx::new();
    let roots =
        root("proj", ".fx/skills", "project", "") + &root("user", "~/.fx/skills", "user", "");
    // Cline and Letta Code: the root is read in byte order and a later copy replaces an earlier
    // one, so `bbb` beats `aaa` and `Zed` (Z sorts before a).
    let models = fx.model(&fixture_with(&roots, "last-wins", "sorted-last", "name"));
    let p = fx.skill("project/.fx/skills/dup", "dup");
    let z = fx.skill("home/.fx/skills/Zed", "dup");
    let a = fx.skill("home/.fx/skills/aaa", "dup");
    let b = fx.skill("home/.fx/skills/bbb", "dup");
    let cat = Catalog::build(&models, &fx.env());
    let vb = verdict(&cat, &b);
    assert_eq!(vb.status, Status::Visible, "{}", reasons(vb));
    for other in [&p, &z, &a] {
        let v = verdict(&cat, other);
        assert_eq!(v.status, Status::Shadowed, "{}", reasons(v));
        assert_eq!(v.winner.as_deref(), Some(b.as_path()));
    }
    // The copies in the winner's root are shadowed by the tie-break's rule; the project copy by
    // the mode's (the user root is read last).
    let va = verdict(&cat, &a);
    assert!(
        has_rule(va, "fx/precedence.tie_break", Topic::PrecedenceOrder),
        "{}",
        reasons(va)
    );
    assert_says(va, "it comes last in sorted order");
    assert!(has_rule(
        verdict(&cat, &p),
        "fx/precedence.mode",
        Topic::Precedence
    ));

    // With the plain sorted tie-break the first folder (`Zed`) wins; with read order nobody
    // can say which of the three does.
    let models = fx.model(&fixture_with(&roots, "last-wins", "sorted", "name"));
    let cat = Catalog::build(&models, &fx.env());
    assert_eq!(verdict(&cat, &z).status, Status::Visible);
    assert_eq!(verdict(&cat, &b).status, Status::Shadowed);
    let models = fx.model(&fixture_with(&roots, "last-wins", "read-order", "name"));
    let cat = Catalog::build(&models, &fx.env());
    for s in [&z, &a, &b] {
        assert_eq!(verdict(&cat, s).status, Status::Unknown);
    }
}

#[test]
fn sorted_ignore_case_puts_alpha_before_zed() {
    let fx = Fx::new();
    let roots = root("proj", ".fx/skills", "project", "");
    // Factory Droid: one root, folders `Zed` and `alpha` with one name: `alpha` wins, where
    // byte order would give `Zed` (0x5a < 0x61).
    let models = fx.model(&fixture_with(
        &roots,
        "first-wins",
        "sorted-ignore-case",
        "name",
    ));
    let z = fx.skill("project/.fx/skills/Zed", "pair");
    let a = fx.skill("project/.fx/skills/alpha", "pair");
    let cat = Catalog::build(&models, &fx.env());
    let (va, vz) = (verdict(&cat, &a), verdict(&cat, &z));
    assert_eq!(va.status, Status::Visible, "{}", reasons(va));
    assert_eq!(vz.status, Status::Shadowed, "{}", reasons(vz));
    assert!(
        vz.reasons
            .iter()
            .any(|r| r.rule == "fx/precedence.tie_break"
                && r.message.contains("first in sorted order, case aside")),
        "{}",
        reasons(vz)
    );
    let models = fx.model(&fixture_with(&roots, "first-wins", "sorted", "name"));
    let cat = Catalog::build(&models, &fx.env());
    assert_eq!(verdict(&cat, &z).status, Status::Visible);
    assert_eq!(verdict(&cat, &a).status, Status::Shadowed);
}

#[test]
fn case_insensitive_names_collide_and_keep_their_own_spelling() {
    let fx = Fx::new();
    let roots =
        root("proj", ".fx/skills", "project", "") + &root("user", "~/.fx/skills", "user", "");
    // Cline keys skills by the lower-cased name, Kimi Code casefolds: `Tool` and `tool` are one.
    let models = fx.model(&fixture_with(
        &roots,
        "first-wins",
        "sorted",
        "name-ignore-case",
    ));
    let p = fx.skill("project/.fx/skills/upper", "Tool");
    let u = fx.skill("home/.fx/skills/lower", "tool");
    let other = fx.skill("home/.fx/skills/other", "TOOLS");
    let cat = Catalog::build(&models, &fx.env());
    let (vp, vu) = (verdict(&cat, &p), verdict(&cat, &u));
    assert_eq!(vp.status, Status::Visible, "{}", reasons(vp));
    assert_eq!(vp.as_name.as_deref(), Some("Tool"), "listed as written");
    assert_eq!(vu.status, Status::Shadowed, "{}", reasons(vu));
    assert_says(vu, "name (case aside) `tool`");
    assert_eq!(verdict(&cat, &other).status, Status::Visible);
    // Compared as written, the two are different skills.
    let models = fx.model(&fixture_with(&roots, "first-wins", "sorted", "name"));
    let cat = Catalog::build(&models, &fx.env());
    assert_eq!(verdict(&cat, &p).status, Status::Visible);
    assert_eq!(verdict(&cat, &u).status, Status::Visible);
}

#[test]
fn a_setting_ranked_first_adds_folders_that_beat_every_root() {
    let fx = Fx::new();
    let setting = |rank: &str| {
        format!(
            "[[settings]]\nid = \"skill-paths\"\nkind = \"root-list\"\nfile = \"~/.fx/config.toml\"\nscope = \"user\"\nformat = \"toml\"\nkey = \"skill_paths\"\n{rank}evidence = \"DOC\"\nsource = {SRC}\n"
        )
    };
    let roots =
        root("proj", ".fx/skills", "project", "") + &root("user", "~/.fx/skills", "user", "");
    let first = format!("rank = {{ value = \"first\", evidence = \"DOC\", source = {SRC} }}\n");
    let p = fx.skill("project/.fx/skills/dup", "dup");
    let x = fx.skill("extra/dup", "dup");
    fx.put(
        "home/.fx/config.toml",
        &format!("skill_paths = [\"{}\"]\n", fx.base.join("extra").display()),
    );
    // Mistral Vibe: the config's skill_paths are searched before every root; the first copy
    // wins.
    let models = fx.model(&fixture(
        &(roots.clone() + &setting(&first)),
        "first-wins",
        "root-then-distance",
        "",
    ));
    let cat = Catalog::build(&models, &fx.env());
    let (vx, vp) = (verdict(&cat, &x), verdict(&cat, &p));
    assert_eq!(vx.status, Status::Visible, "{}", reasons(vx));
    assert_eq!(vp.status, Status::Shadowed, "{}", reasons(vp));
    assert_eq!(vp.winner.as_deref(), Some(x.as_path()));
    // Through the binary: `why` names the setting's folder as the winner.
    let (out, _) = fx.run(&["why", "dup", "--agent", "fx"], &[]);
    assert!(
        out.contains(&fx.base.join("extra/dup/SKILL.md").display().to_string()),
        "{out}"
    );
    // Without a rank (or `last`), the setting's folders come after the model's roots.
    for rank in [
        String::new(),
        format!("rank = {{ value = \"last\", evidence = \"DOC\", source = {SRC} }}\n"),
    ] {
        let models = fx.model(&fixture(
            &(roots.clone() + &setting(&rank)),
            "first-wins",
            "root-then-distance",
            "",
        ));
        let cat = Catalog::build(&models, &fx.env());
        assert_eq!(verdict(&cat, &p).status, Status::Visible);
        assert_eq!(verdict(&cat, &x).status, Status::Shadowed);
    }
}

#[test]
fn frontmatter_name_identity_collides_by_name_and_lists_by_folder() {
    let fx = Fx::new();
    let roots = root("proj", ".fx/skills", "project", "");
    // Auggie: listed under the folder name, but a later copy of a frontmatter name is dropped.
    let mut text = fixture_with(&roots, "first-wins", "sorted", "frontmatter-name");
    let mut t: toml::Table = toml::from_str(&text).unwrap();
    t["name_rules"]["source"]
        .as_table_mut()
        .unwrap()
        .insert("value".into(), "folder".into());
    text = toml::to_string(&t).unwrap();
    let models = fx.model(&text);
    let z = fx.skill("project/.fx/skills/Zed", "pair");
    let a = fx.skill("project/.fx/skills/alpha", "pair");
    let solo = fx.skill("project/.fx/skills/solo", "Zed");
    let cat = Catalog::build(&models, &fx.env());
    let (vz, va) = (verdict(&cat, &z), verdict(&cat, &a));
    assert_eq!(vz.status, Status::Visible, "{}", reasons(vz));
    assert_eq!(vz.as_name.as_deref(), Some("Zed"), "listed by folder");
    assert_eq!(va.status, Status::Shadowed, "{}", reasons(va));
    assert_says(va, "frontmatter name `pair`");
    // `solo` carries the frontmatter name `Zed`: no collision with the folder `Zed`.
    assert_eq!(verdict(&cat, &solo).status, Status::Visible);
    assert_eq!(verdict(&cat, &solo).as_name.as_deref(), Some("solo"));
}

// ---------------------------------------------------------------------------------------------
// A UTF-8 BOM before `---`: the `bom` rule's own value decides (Qoder CLI's oracle case
// `qoder-parse`: `as-no-frontmatter` hands the file to `no_frontmatter`)
// ---------------------------------------------------------------------------------------------

/// The fixture agent with `parse.bom` and `parse.no_frontmatter` set, and the verdict on one
/// skill whose SKILL.md starts with a BOM.
fn bom_verdict(bom: &str, no_frontmatter: &str) -> Verdict {
    let fx = Fx::new();
    let roots = root("proj", ".fx/skills", "project", "");
    let mut t: toml::Table =
        toml::from_str(&fixture(&roots, "first-wins", "root-then-distance", "")).unwrap();
    for (key, value) in [("bom", bom), ("no_frontmatter", no_frontmatter)] {
        t["parse"][key]
            .as_table_mut()
            .unwrap()
            .insert("value".into(), value.into());
    }
    let models = fx.model(&toml::to_string(&t).unwrap());
    let md = fx.put(
        "project/.fx/skills/bommed/SKILL.md",
        "\u{feff}---\nname: front\ndescription: From the frontmatter.\n---\n# T\n\nBody.\n",
    );
    let cat = Catalog::build(&models, &fx.env());
    verdict(&cat, &md).clone()
}

#[test]
fn bom_no_frontmatter_skips_the_file_whatever_no_frontmatter_says() {
    // Before the rule was the BOM's own, a `load-body` here loaded the file.
    for no_frontmatter in ["reject", "load-body"] {
        let v = bom_verdict("no-frontmatter", no_frontmatter);
        assert_eq!(v.status, Status::Rejected, "{}", reasons(&v));
        assert!(
            has_rule(&v, "fx/parse.bom", Topic::Parse),
            "{}",
            reasons(&v)
        );
    }
}

#[test]
fn bom_as_no_frontmatter_hands_the_file_to_the_no_frontmatter_rule() {
    let v = bom_verdict("as-no-frontmatter", "load-body");
    assert_eq!(v.status, Status::Visible, "{}", reasons(&v));
    // Named after its folder, the file's first line as description (Qoder CLI).
    assert_eq!(v.as_name.as_deref(), Some("bommed"));
    assert!(
        has_rule(&v, "fx/parse.no_frontmatter", Topic::Parse),
        "{}",
        reasons(&v)
    );
    let v = bom_verdict("as-no-frontmatter", "reject");
    assert_eq!(v.status, Status::Rejected, "{}", reasons(&v));
    assert!(
        has_rule(&v, "fx/parse.no_frontmatter", Topic::Parse),
        "{}",
        reasons(&v)
    );
    let v = bom_verdict("strip", "reject");
    assert_eq!(v.status, Status::Visible, "{}", reasons(&v));
    assert_eq!(v.as_name.as_deref(), Some("front"));
}

#[test]
fn built_in_models_hand_a_bom_file_to_no_frontmatter_for_kimi_and_qoder() {
    let models = agents::builtin();
    let mut as_no_frontmatter: Vec<&str> = models
        .iter()
        .filter(|m| {
            matches!(
                m.parse.bom.value,
                agents::Known::Known(agents::Bom::AsNoFrontmatter)
            )
        })
        .map(|m| m.id.as_str())
        .collect();
    as_no_frontmatter.sort_unstable();
    assert_eq!(as_no_frontmatter, ["kimi-code", "qoder-cli"]);
}

// ---------------------------------------------------------------------------------------------
// Ignore files: how their patterns are anchored (pi's folder-prefixed patterns vs git's)
// ---------------------------------------------------------------------------------------------

/// The fixture model with `traversal.ignore_anchoring` set to `anchoring` (None: left out).
fn ignore_model(fx: &Fx, anchoring: Option<&str>) -> Vec<AgentModel> {
    let roots = root("user", "~/.fx/skills", "user", "");
    let mut t: toml::Table =
        toml::from_str(&fixture(&roots, "first-wins", "root-then-distance", "")).unwrap();
    let tr = t["traversal"].as_table_mut().unwrap();
    tr.remove("ignore_anchoring");
    if let Some(a) = anchoring {
        let rule: toml::Table = toml::from_str(&format!(
            "r = {{ value = \"{a}\", evidence = \"DOC\", source = {SRC} }}"
        ))
        .unwrap();
        tr.insert("ignore_anchoring".into(), rule["r"].clone());
    }
    fx.model(&toml::to_string(&t).unwrap())
}

#[test]
fn folder_prefixed_ignore_patterns_anchor_at_the_root_and_at_each_folder() {
    let fx = Fx::new();
    let r = "home/.fx/skills";
    fx.put(&format!("{r}/.gitignore"), "/anch/\n");
    fx.put(&format!("{r}/sub/.ignore"), "deep-*\n!deep-keep\n");
    let anch = fx.skill(&format!("{r}/anch"), "anch");
    let sub_anch = fx.skill(&format!("{r}/sub/anch"), "sub-anch");
    let deep1 = fx.skill(&format!("{r}/sub/deep-1"), "deep-1");
    let deep2 = fx.skill(&format!("{r}/sub/x/deep-2"), "deep-2");
    let keep = fx.skill(&format!("{r}/sub/deep-keep"), "deep-keep");
    let status = |cat: &Catalog, p: &Path| verdict(cat, p).status;

    // git's rules (the default, and `git` said outright): `/anch/` is anchored at the root's
    // folder, `deep-*` matches at any depth below sub/.
    for anchoring in [None, Some("git")] {
        let cat = Catalog::build(&ignore_model(&fx, anchoring), &fx.env());
        assert_eq!(status(&cat, &anch), Status::NotFound, "{anchoring:?}");
        assert_eq!(status(&cat, &sub_anch), Status::Visible, "{anchoring:?}");
        assert_eq!(status(&cat, &deep1), Status::NotFound, "{anchoring:?}");
        assert_eq!(status(&cat, &deep2), Status::NotFound, "{anchoring:?}");
        assert_eq!(status(&cat, &keep), Status::Visible, "{anchoring:?}");
    }

    // pi's: `/anch/` loses its `/` at the root (matches anch at any depth); sub's `deep-*`
    // becomes `sub/deep-*` (sub's own entries only).
    let cat = Catalog::build(&ignore_model(&fx, Some("folder-prefixed")), &fx.env());
    assert_eq!(status(&cat, &anch), Status::NotFound);
    let v = verdict(&cat, &sub_anch);
    assert_eq!(v.status, Status::NotFound, "{}", reasons(v));
    assert!(
        has_rule(v, "fx/traversal.ignore_files", Topic::Traversal),
        "{}",
        reasons(v)
    );
    assert!(
        v.reasons
            .iter()
            .any(|r| r.message.contains("pattern `/anch/`") && r.message.contains(".gitignore")),
        "{}",
        reasons(v)
    );
    assert_eq!(status(&cat, &deep1), Status::NotFound);
    let v = verdict(&cat, &deep2);
    assert_eq!(v.status, Status::Visible, "{}", reasons(v));
    assert_eq!(status(&cat, &keep), Status::Visible);
}

// ---------------------------------------------------------------------------------------------
// A root's own symlinked_dirs (Kilo follows linked skill folders in its user roots)
// ---------------------------------------------------------------------------------------------

#[test]
fn a_root_may_follow_symlinked_folders_the_agent_otherwise_ignores() {
    let fx = Fx::new();
    let follow = format!(
        "traversal = {{ symlinked_dirs = {{ value = \"follow\", evidence = \"DOC\", source = {SRC} }} }}"
    );
    let roots =
        root("proj", ".fx/skills", "project", "") + &root("user", "~/.fx/skills", "user", &follow);
    let mut t: toml::Table =
        toml::from_str(&fixture(&roots, "first-wins", "root-then-distance", "")).unwrap();
    t["traversal"]["symlinked_dirs"]
        .as_table_mut()
        .unwrap()
        .insert("value".into(), "ignore".into());
    let models = fx.model(&toml::to_string(&t).unwrap());
    fx.skill("store/a", "a");
    fx.skill("store/b", "b");
    fx.mkdir("home/.fx/skills");
    fx.mkdir("project/.fx/skills");
    std::os::unix::fs::symlink(fx.base.join("store/a"), fx.base.join("home/.fx/skills/a")).unwrap();
    std::os::unix::fs::symlink(
        fx.base.join("store/b"),
        fx.base.join("project/.fx/skills/b"),
    )
    .unwrap();
    let cat = Catalog::build(&models, &fx.env());
    let user = verdict(&cat, &fx.base.join("home/.fx/skills/a/SKILL.md"));
    assert_eq!(user.status, Status::Visible, "{}", reasons(user));
    let proj = verdict(&cat, &fx.base.join("project/.fx/skills/b/SKILL.md"));
    assert_eq!(proj.status, Status::NotFound, "{}", reasons(proj));
    assert!(
        has_rule(proj, "fx/traversal.symlinked_dirs", Topic::Traversal),
        "{}",
        reasons(proj)
    );
}
