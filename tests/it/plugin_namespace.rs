//! Codex's plugin namespace (`name_rules.plugin_namespace` in assets/agents/codex.toml): a skill
//! whose folder or any folder above it holds `.codex-plugin/plugin.json` or
//! `.claude-plugin/plugin.json` is listed as `plugin:name`. Expected values are Codex 0.171.0's
//! own listing of the same trees (tests/oracle case `plugin-namespace`, and probes run with
//! `tests/oracle/driver.mjs codex` on 2026-12-01), never skilltui's output.

use skilltui::agents;
use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::resolve::{Status, Verdict};
use std::path::{Path, PathBuf};
use std::process::Command;

struct Fx {
    _tmp: tempfile::TempDir,
    base: PathBuf,
    project: PathBuf,
    home: PathBuf,
}

impl Fx {
    fn new() -> Fx {
        let tmp = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        assert!(
            !base
                .ancestors()
                .any(|d| d.join(".claude-plugin").exists() || d.join(".codex-plugin").exists()),
            "an ancestor of the temp dir holds a plugin manifest; set TMPDIR elsewhere"
        );
        let f = Fx {
            project: base.join("project"),
            home: base.join("home"),
            base,
            _tmp: tmp,
        };
        f.put("project/.git/HEAD", "ref: refs/heads/main\n");
        std::fs::create_dir_all(f.base.join("project/.git/objects")).unwrap();
        std::fs::create_dir_all(f.base.join("project/.git/refs")).unwrap();
        std::fs::create_dir_all(&f.home).unwrap();
        f
    }

    fn put(&self, rel: &str, content: &str) -> PathBuf {
        let p = self.base.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
        p
    }

    fn skill(&self, dir: &str, name: &str) -> PathBuf {
        self.put(
            &format!("{dir}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: Skill {name}.\n---\n# T\n\nBody.\n"),
        )
    }

    fn manifest(&self, dir: &str, text: &str) {
        self.put(&format!("{dir}/plugin.json"), text);
    }

    fn catalog(&self) -> Catalog {
        Catalog::build(&agents::builtin(), &Env::new(&self.project, &self.home))
    }
}

const R: &str = "project/.agents/skills";

fn verdict<'a>(cat: &'a Catalog, path: &Path, agent: &str) -> &'a Verdict {
    cat.skill(path)
        .unwrap_or_else(|| panic!("{} not in the catalog", path.display()))
        .verdict(agent)
        .unwrap()
}

#[track_caller]
fn listed_as(cat: &Catalog, path: &Path, agent: &str, name: &str) {
    let v = verdict(cat, path, agent);
    assert_eq!(
        v.status,
        Status::Visible,
        "{agent} {}: {v:?}",
        path.display()
    );
    assert_eq!(
        v.as_name.as_deref(),
        Some(name),
        "{agent} {}",
        path.display()
    );
    let namespaced = v
        .reasons
        .iter()
        .any(|r| r.rule == format!("{agent}/name_rules.plugin_namespace"));
    assert_eq!(
        namespaced,
        name.contains(':'),
        "{agent} {}: the namespace reason\n{:#?}",
        path.display(),
        v.reasons
    );
}

/// The tree of the oracle case: every manifest rule Codex 0.171.0 was seen to follow.
fn tree() -> (Fx, Vec<(PathBuf, &'static str)>) {
    let f = Fx::new();
    let mut want = Vec::new();
    want.push((f.skill(&format!("{R}/plain"), "plain"), "plain"));
    f.manifest(&format!("{R}/cx/.codex-plugin"), r#"{"name":"cxp"}"#);
    want.push((f.skill(&format!("{R}/cx"), "cx"), "cxp:cx"));
    f.manifest(
        &format!("{R}/other/.claude-plugin"),
        r#"{"name":"plug","skills":"./"}"#,
    );
    want.push((f.skill(&format!("{R}/other"), "other"), "plug:other"));
    // Both manifests: .codex-plugin is read first.
    f.manifest(&format!("{R}/both/.codex-plugin"), r#"{"name":"cdp"}"#);
    f.manifest(&format!("{R}/both/.claude-plugin"), r#"{"name":"clp"}"#);
    want.push((f.skill(&format!("{R}/both"), "both"), "cdp:both"));
    // No name, or a blank one: the plugin folder's name.
    f.manifest(
        &format!("{R}/noname/.claude-plugin"),
        r#"{"description":"x"}"#,
    );
    want.push((f.skill(&format!("{R}/noname"), "noname"), "noname:noname"));
    f.manifest(&format!("{R}/blank/.claude-plugin"), r#"{"name":"  "}"#);
    want.push((f.skill(&format!("{R}/blank"), "blank"), "blank:blank"));
    // Invalid manifests name nothing.
    f.manifest(&format!("{R}/bad/.claude-plugin"), "{not json");
    want.push((f.skill(&format!("{R}/bad"), "bad"), "bad"));
    f.manifest(&format!("{R}/nullname/.claude-plugin"), r#"{"name":null}"#);
    want.push((f.skill(&format!("{R}/nullname"), "nullname"), "nullname"));
    // An invalid .codex-plugin manifest does not fall back to .claude-plugin in its folder.
    f.manifest(&format!("{R}/badcodex/.codex-plugin"), "{bad");
    f.manifest(&format!("{R}/badcodex/.claude-plugin"), r#"{"name":"bcl"}"#);
    want.push((f.skill(&format!("{R}/badcodex"), "badcodex"), "badcodex"));
    // A manifest in an ancestor; the nearest valid one wins.
    f.manifest(&format!("{R}/pl/.claude-plugin"), r#"{"name":"plg"}"#);
    want.push((
        f.skill(&format!("{R}/pl/skills/inner"), "inner"),
        "plg:inner",
    ));
    f.manifest(&format!("{R}/outer/.claude-plugin"), r#"{"name":"outerp"}"#);
    f.manifest(&format!("{R}/outer/in/.claude-plugin"), r#"{"name":7}"#);
    want.push((
        f.skill(&format!("{R}/outer/in/nest"), "nest"),
        "outerp:nest",
    ));
    f.manifest(&format!("{R}/mix/.codex-plugin"), r#"{"name":"mixcodex"}"#);
    f.manifest(
        &format!("{R}/mix/sub/.claude-plugin"),
        r#"{"name":"mixclaude"}"#,
    );
    want.push((f.skill(&format!("{R}/mix/sub"), "sub"), "mixclaude:sub"));
    // A manifest in a root's own folder, and one above a root.
    f.manifest("home/.codex/skills/.claude-plugin", r#"{"name":"rootp"}"#);
    want.push((f.skill("home/.codex/skills/r1", "r1"), "rootp:r1"));
    f.manifest("home/.agents/.codex-plugin", r#"{"name":"above"}"#);
    want.push((f.skill("home/.agents/skills/u1", "u1"), "above:u1"));
    (f, want)
}

#[test]
fn codex_lists_plugin_skills_under_the_plugin_name() {
    let (f, want) = tree();
    let cat = f.catalog();
    for (path, name) in &want {
        listed_as(&cat, path, "codex", name);
    }
}

#[test]
fn the_namespaced_name_is_the_collision_key() {
    let f = Fx::new();
    f.manifest(&format!("{R}/dup1/.claude-plugin"), r#"{"name":"p1"}"#);
    f.manifest(&format!("{R}/dup2/.claude-plugin"), r#"{"name":"p2"}"#);
    let a = f.skill(&format!("{R}/dup1/x"), "x");
    let b = f.skill(&format!("{R}/dup2/x"), "x");
    // Two copies of `p1:x` (same plugin): Codex lists both, as any same-name copies.
    f.manifest(&format!("{R}/dup3/.claude-plugin"), r#"{"name":"p1"}"#);
    let c = f.skill(&format!("{R}/dup3/x"), "x");
    let cat = f.catalog();
    listed_as(&cat, &a, "codex", "p1:x");
    listed_as(&cat, &b, "codex", "p2:x");
    listed_as(&cat, &c, "codex", "p1:x");
    let collides = |p: &Path, with: &Path| {
        verdict(&cat, p, "codex").reasons.iter().any(|r| {
            r.rule == "codex/precedence.mode" && r.message.contains(&with.display().to_string())
        })
    };
    assert!(collides(&a, &c) && collides(&c, &a), "p1:x twice");
    assert!(
        !collides(&a, &b) && !collides(&b, &a),
        "p1:x and p2:x differ"
    );
}

#[test]
fn a_symlinked_skill_takes_the_plugin_of_its_target() {
    let f = Fx::new();
    f.manifest("ext/.claude-plugin", r#"{"name":"ext"}"#);
    f.skill("ext/linked", "linked");
    std::fs::create_dir_all(f.base.join(format!("{R}/lnk"))).unwrap();
    std::os::unix::fs::symlink(
        f.base.join("ext/linked"),
        f.base.join(format!("{R}/lnk/linked")),
    )
    .unwrap();
    let cat = f.catalog();
    listed_as(
        &cat,
        &f.base.join(format!("{R}/lnk/linked/SKILL.md")),
        "codex",
        "ext:linked",
    );
}

#[test]
fn other_agents_do_not_prefix() {
    let (f, want) = tree();
    let cat = f.catalog();
    for agent in ["copilot-cli", "opencode", "pi"] {
        for (path, name) in &want {
            let v = verdict(&cat, path, agent);
            if v.status == Status::Visible {
                let base = name.rsplit(':').next().unwrap();
                assert_eq!(
                    v.as_name.as_deref(),
                    Some(base),
                    "{agent} {}",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn a_manifest_too_large_to_read_is_unknown_not_guessed() {
    let f = Fx::new();
    let pad = "a".repeat(skilltui::plugin::MAX_MANIFEST_BYTES as usize);
    f.manifest(
        &format!("{R}/big/.claude-plugin"),
        &format!(r#"{{"name":"big","pad":"{pad}"}}"#),
    );
    let p = f.skill(&format!("{R}/big"), "big");
    let v = verdict(&f.catalog(), &p, "codex").clone();
    assert_eq!(v.status, Status::Unknown, "{v:?}");
    assert!(
        v.reasons
            .iter()
            .any(|r| r.rule == "codex/name_rules.plugin_namespace")
    );
}

#[test]
fn list_json_carries_the_namespaced_name() {
    let (f, _) = tree();
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(["list", "--json", "--project"])
        .arg(&f.project)
        .arg("--home")
        .arg(&f.home)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = crate::common::by_agent(serde_json::from_slice(&out.stdout).unwrap());
    let cx = j["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| {
            s["path"]
                .as_str()
                .is_some_and(|p| p.ends_with("/cx/SKILL.md"))
        })
        .expect("cx in the listing");
    assert_eq!(cx["agents"]["codex"]["as"], "cxp:cx", "{cx:#}");
}

/// The scan does not look for manifests in the folders of a root whose walk saw nothing named
/// like a manifest's folder; what it finds is still what looking in every folder finds: with
/// manifests in a root's folders, above the roots, inside `.git` (never walked) reached
/// through a symlink, in another letter case, and in a root the walk saw none in.
#[test]
fn the_scan_finds_the_plugins_that_looking_everywhere_finds() {
    let (f, _) = tree();
    // A root with no manifest folder at all: its folders are not looked in.
    let bare = "home/.claude/skills";
    f.skill(&format!("{bare}/b1"), "b1");
    f.skill(&format!("{bare}/deep/er/b2"), "b2");
    // A manifest inside that root's `.git`, which no walk lists, reached through a symlink.
    f.manifest(
        &format!("{bare}/.git/hooks/.claude-plugin"),
        r#"{"name":"ingit"}"#,
    );
    f.skill(&format!("{bare}/.git/hooks/gitskill"), "gitskill");
    std::os::unix::fs::symlink(
        f.base.join(format!("{bare}/.git/hooks/gitskill")),
        f.base.join(format!("{bare}/gitskill")),
    )
    .unwrap();
    // Another letter case: a folder that a case-insensitive file system would open.
    f.manifest("home/.copilot/skills/cs/.Claude-Plugin", r#"{"name":"cs"}"#);
    f.skill("home/.copilot/skills/cs/s", "s");

    let models = agents::builtin();
    let env = Env::new(&f.project, &f.home);
    let scan = skilltui::scan::scan(&models, &env);
    assert!(found_as_everywhere(&models, &scan) >= 10);
    has_plugin(
        &scan,
        &f.base.join(format!("{bare}/.git/hooks/gitskill")),
        "ingit",
    );

    // What the walks saw: the folders holding a manifest's folder, in any letter case.
    let watch = skilltui::plugin::manifest_folders(&models).unwrap();
    assert_eq!(watch, [".claude-plugin", ".codex-plugin"]);
    let watched_in = |root: &str| {
        skilltui::scan::walk::walk_watching(
            &f.base.join(root),
            &std::sync::atomic::AtomicUsize::new(0),
            &watch,
        )
        .watched_in
        .unwrap()
    };
    assert!(watched_in(bare).is_empty());
    let p = PathBuf::from;
    assert_eq!(watched_in("home/.copilot/skills"), [p("cs")]);
    assert_eq!(
        watched_in(R),
        [
            "bad", "badcodex", "blank", "both", "cx", "mix", "mix/sub", "noname", "nullname"
        ]
        .into_iter()
        .chain(["other", "outer", "outer/in", "pl"])
        .map(p)
        .collect::<Vec<_>>()
    );
    assert_eq!(
        skilltui::scan::walk::walk(&f.base.join(bare)).watched_in,
        None
    );

    // A manifest made in the root that had none, then that root walked again (as the watcher
    // does): found, and still what looking in every folder finds.
    let mut scan = scan;
    f.manifest(&format!("{bare}/b1/.codex-plugin"), r#"{"name":"late"}"#);
    let wi = (scan.walked.iter())
        .position(|w| w.path == f.base.join(bare))
        .unwrap();
    scan.rewalk(&models, &[wi], &Default::default());
    found_as_everywhere(&models, &scan);
    has_plugin(&scan, &f.base.join(format!("{bare}/b1")), "late");
}

/// Asserts that the scan's plugins are those found by looking in every folder at or above its
/// skill folders; returns how many there are.
#[track_caller]
fn found_as_everywhere(models: &[agents::AgentModel], scan: &skilltui::scan::Scan) -> usize {
    let dirs: Vec<&Path> = scan.canonical.values().filter_map(|c| c.parent()).collect();
    let everywhere = skilltui::plugin::plugins(models, &dirs, |_| false);
    let mut got: Vec<_> = scan.plugins.iter().collect();
    let mut want: Vec<_> = everywhere.iter().collect();
    got.sort_by(|a, b| a.0.cmp(b.0));
    want.sort_by(|a, b| a.0.cmp(b.0));
    assert_eq!(got, want);
    want.len()
}

/// Asserts that the skill folder `dir` is in the plugin named `name`.
#[track_caller]
fn has_plugin(scan: &skilltui::scan::Scan, dir: &Path, name: &str) {
    assert!(
        scan.plugins
            .iter()
            .any(|((_, d), p)| d == dir && p.name.as_deref() == Ok(name)),
        "{} in {name}: {:?}",
        dir.display(),
        scan.plugins
    );
}
