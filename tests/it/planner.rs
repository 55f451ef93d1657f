//! The collision planner: every candidate's predicted catalog (the plan replayed on the live
//! state in memory) equals a full rebuild after applying the plan to the tree (then undone), on
//! the demo tree and on generated catalogs; gains and losses follow from the verdicts; the
//! ranking never puts a lossy plan first when a loss-free one reaches the goal.

use skilltui::actions::planner::{self, Candidate, Predicted};
use skilltui::actions::{journal, overlay};
use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::live::Live;
use skilltui::resolve::Status;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[track_caller]
fn same(predicted: &Catalog, full: &Catalog, what: &str) {
    crate::common::same_catalog(predicted, full, "predicted", what);
}

/// Every file under `dir` (path → bytes or link target), to check undo restores the tree.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        let p = e.path().to_path_buf();
        if e.path_is_symlink() {
            out.push((
                p.clone(),
                std::fs::read_link(&p)
                    .unwrap()
                    .into_os_string()
                    .into_encoded_bytes(),
            ));
        } else if e.file_type().is_file() {
            out.push((p.clone(), std::fs::read(&p).unwrap()));
        } else {
            out.push((p, b"<dir>".to_vec()));
        }
    }
    out
}

/// For each (skill, agent) pair where the skill is shadowed, every candidate: predicted ==
/// applied + full rebuild. Returns how many candidates were checked through the overlay.
fn check_tree(project: &Path, home: &Path, base: &Path, data: &Path, max_pairs: usize) -> usize {
    let models = skilltui::agents::builtin();
    let env = Env::new(project, home);
    let live = Live::new(Arc::new(models.clone()), env.clone());
    let cat = live.catalog().clone();
    let mut pairs: Vec<(PathBuf, String)> = Vec::new();
    for s in &cat.skills {
        for (a, v) in &s.verdicts {
            if v.status == Status::Shadowed && s.scope != skilltui::agents::Scope::System {
                pairs.push((s.path.clone(), a.to_string()));
            }
        }
    }
    assert!(!pairs.is_empty(), "no shadowed copy in the tree");
    // Spread over the list: different names and agents.
    let step = (pairs.len() / max_pairs).max(1);
    let before = snapshot(base);
    let mut checked = 0;
    for (path, agent) in pairs.into_iter().step_by(step).take(max_pairs) {
        let cands = match planner::win(&live, &env, &path, &agent, &AtomicBool::new(false)) {
            Ok(c) => c,
            Err(_) => continue,
        };
        assert_first_is_best(&cands, &format!("{} for {agent}", path.display()));
        for c in &cands {
            let Some(predicted) = &c.after else {
                eprintln!("mirror: {} ({})", c.plan.title, c.kind.code());
                continue;
            };
            assert_eq!(c.predicted, Predicted::Overlay);
            // A plan that writes outside the test's tree (a project root expanded above it,
            // `/.agents/skills` for an agent that walks up to `/`) is not applied here: other
            // tests run at the same time.
            if c.plan
                .ops
                .iter()
                .any(|o| o.written().iter().any(|p| !p.starts_with(base)))
            {
                eprintln!("outside the tree: {}", c.plan.title);
                continue;
            }
            let entry = journal::apply_in(&c.plan, data)
                .unwrap_or_else(|e| panic!("apply {}: {e}", c.plan.title));
            let full = Catalog::build(&models, &env);
            journal::undo(&entry).unwrap();
            same(
                predicted,
                &full,
                &format!("{} ({}) for {agent}", c.plan.title, c.kind.code()),
            );
            // The goal as judged equals the truth.
            let after_path = c.plan.map_path(&path).unwrap_or_default();
            let visible = full
                .skill(&after_path)
                .and_then(|s| s.verdict(&agent))
                .is_some_and(|v| v.status == Status::Visible)
                || full.skills.iter().any(|s| {
                    s.verdict(&agent)
                        .is_some_and(|v| v.status == Status::Visible)
                        && c.plan.ops.iter().any(|o| match o {
                            skilltui::actions::Op::Symlink { link, .. } => s.path.starts_with(link),
                            _ => false,
                        })
                });
            assert_eq!(c.achieves, visible, "{}: achieves", c.plan.title);
            checked += 1;
        }
        assert_eq!(snapshot(base), before, "undo restores the tree");
    }
    checked
}

#[track_caller]
fn assert_first_is_best(cands: &[Candidate], what: &str) {
    let Some(first) = cands.first() else { return };
    if cands.iter().any(|c| c.achieves && c.losses.is_empty()) {
        assert!(
            first.achieves && first.losses.is_empty(),
            "{what}: a loss-free plan exists but the first loses {:?}",
            first.losses
        );
    }
}

#[test]
fn predictions_equal_a_full_rebuild_on_the_demo() {
    let tmp = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(tmp.path()).unwrap();
    let demo = skilltui::demo::Demo::create_at(&base.join("demo")).unwrap();
    let n = check_tree(
        &demo.project,
        &demo.home,
        &base.join("demo"),
        &base.join("data"),
        12,
    );
    assert!(n >= 20, "only {n} candidates replayed in memory");
}

#[test]
fn predictions_equal_a_full_rebuild_on_generated_catalogs() {
    let mut total = 0;
    // One generated catalog; two with SKILLTUI_TEST_FULL=1.
    for seed in crate::scale::pick(&[3u64][..], &[3, 77]) {
        let tmp = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        let opts = skilltui::r#gen::Options {
            skills: 100,
            seed: *seed,
        };
        let (tree, _) = skilltui::r#gen::generate(&base.join("gen"), &opts).unwrap();
        total += check_tree(
            &tree.project,
            &tree.home,
            &base.join("gen"),
            &base.join("data"),
            4,
        );
    }
    assert!(total >= 20, "only {total} candidates replayed in memory");
}

#[test]
fn an_overlay_refuses_what_it_does_not_model() {
    let tmp = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(tmp.path()).unwrap();
    let demo = skilltui::demo::Demo::create_at(&base.join("demo")).unwrap();
    let models = skilltui::agents::builtin();
    let live = Live::new(Arc::new(models), Env::new(&demo.project, &demo.home));
    let outside = skilltui::actions::Op::Write {
        path: base.join("elsewhere.txt"),
        old: None,
        new: b"x".to_vec(),
    };
    assert!(overlay::predict(&live, &[outside]).is_err());
}

// ---------------------------------------------------------------------------------------------
// `skilltui win` and `skilltui share` through the binary.

/// A project whose `foo` lives in `.claude/skills` only: Codex does not read it; moving it to
/// `.codex/skills` would lose it for OpenCode, Claude Code and Copilot CLI.
fn fixture() -> crate::common::DataTree {
    crate::common::DataTree::new(
        "@@ project/.git/HEAD\nref: refs/heads/main\n@@ mkdir project/.git/objects\n@@ mkdir project/.git/refs\n\
         @@ project/.claude/skills/foo/SKILL.md\n---\nname: foo\ndescription: Does foo things.\n---\nBody.\n\
         @@ project/.claude/skills/bar/SKILL.md\n---\nname: bar\ndescription: Does bar things.\n---\nBody.\n\
         @@ mkdir home\n",
    )
}

fn bin(fx: &crate::common::DataTree, args: &[&str]) -> std::process::Output {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_skilltui"));
    c.args(args)
        .arg("--project")
        .arg(&fx.project)
        .arg("--home")
        .arg(&fx.home)
        .env("SKILLTUI_DATA_DIR", &fx.data)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null());
    c.output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn win_for_codex_first_offers_a_plan_that_loses_no_agent() {
    let fx = fixture();
    let skill = fx.project.join(".claude/skills/foo");
    let out = bin(
        &fx,
        &["win", skill.to_str().unwrap(), "--agent", "codex", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["agent"], "codex");
    let plans = doc["plans"].as_array().unwrap();
    assert!(plans.len() >= 3, "{plans:#?}");
    for p in plans {
        for key in [
            "title", "kind", "achieves", "files", "steps", "gains", "losses",
        ] {
            assert!(!p[key].is_null(), "plan without {key}: {p}");
        }
    }
    let first = &plans[0];
    assert_eq!(first["achieves"], true, "{first:#}");
    assert_eq!(first["losses"].as_array().unwrap().len(), 0, "{first:#}");
    assert!(
        first["gains"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["agent"] == "codex"),
        "{first:#}"
    );
    // Moving it into .codex/skills is offered, later, with OpenCode among its losses.
    let codex_dir = fx.project.join(".codex/skills");
    let mv = plans
        .iter()
        .find(|p| {
            p["kind"] == "move"
                && p["steps"].as_array().unwrap().iter().any(|s| {
                    s["op"] == "rename"
                        && s["to"]
                            .as_str()
                            .unwrap()
                            .starts_with(codex_dir.to_str().unwrap())
                })
        })
        .expect("a move into .codex/skills");
    assert!(
        mv["losses"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["agent"] == "opencode"),
        "{mv:#}"
    );
    // Text marks the losses; no terminal and no --yes: a dry run that says so.
    let before = snapshot(&fx.base.join("project"));
    let out = bin(
        &fx,
        &["win", skill.to_str().unwrap(), "--agent", "Codex CLI"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    assert!(t.contains("1. make `foo` win for codex"), "{t}");
    assert!(t.contains("LOSES") && t.contains("✗ losses:"), "{t}");
    assert!(
        text(&out.stderr).contains("dry run"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(snapshot(&fx.base.join("project")), before);
}

#[test]
fn win_yes_applies_the_first_plan_and_undo_restores_the_bytes() {
    let fx = fixture();
    let before = snapshot(&fx.base.join("project"));
    let skill = fx.project.join(".claude/skills/foo");
    let out = bin(
        &fx,
        &["win", skill.to_str().unwrap(), "--agent", "codex", "--yes"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Done:"), "{}", text(&out.stdout));
    assert_ne!(snapshot(&fx.base.join("project")), before);
    // Codex lists it now.
    let cat = Catalog::build(
        &skilltui::agents::builtin(),
        &Env::new(&fx.project, &fx.home),
    );
    assert!(
        cat.skills.iter().any(|s| s.label() == "foo"
            && s.verdict("codex")
                .is_some_and(|v| v.status == Status::Visible)),
        "codex does not list foo"
    );
    let out = bin(&fx, &["undo", "--yes"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(snapshot(&fx.base.join("project")), before);
}

#[test]
fn share_links_skills_for_an_agent_without_losing_any() {
    let fx = fixture();
    let out = bin(
        &fx,
        &[
            "share",
            "foo",
            "bar",
            "--agent",
            "codex",
            "--json",
            "--dry-run",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &doc["plans"][0];
    assert_eq!(first["achieves"], true, "{first:#}");
    assert_eq!(first["losses"].as_array().unwrap().len(), 0, "{first:#}");
    assert_eq!(first["kind"], "link", "{first:#}");
    let gained: Vec<&str> = first["gains"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["agent"] == "codex")
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(gained.len(), 2, "{first:#}");
    assert!(doc["applied"].is_null());
    // --root: every skill of a root.
    let before = snapshot(&fx.base.join("project"));
    let out = bin(
        &fx,
        &[
            "share",
            "--root",
            ".claude/skills",
            "--agent",
            "codex",
            "--yes",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let cat = Catalog::build(
        &skilltui::agents::builtin(),
        &Env::new(&fx.project, &fx.home),
    );
    for name in ["foo", "bar"] {
        assert!(
            cat.skills.iter().any(|s| s.label() == name
                && s.verdict("codex")
                    .is_some_and(|v| v.status == Status::Visible)),
            "codex does not list {name}"
        );
    }
    let out = bin(&fx, &["undo", "--yes"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(snapshot(&fx.base.join("project")), before);
}

/// A plan that makes a root folder is predicted in memory, and the prediction equals a full
/// rebuild after applying it: the new root appears, and the agents whose root group it heads
/// (Kimi reads only the first existing of `~/.config/agents/skills` and `~/.agents/skills`)
/// stop reading the group's other folders.
#[test]
fn a_plan_that_makes_a_root_is_predicted_in_memory() {
    use skilltui::actions::{Mode, Request};
    let tmp = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(tmp.path()).unwrap();
    skilltui::demo::write_tree(
        &base,
        "@@ project/.git/HEAD\nref: refs/heads/main\n@@ mkdir project/.git/objects\n@@ mkdir project/.git/refs\n\
         @@ home/.agents/skills/foo/SKILL.md\n---\nname: foo\ndescription: Does foo things.\n---\nBody.\n\
         @@ home/.agents/skills/bar/SKILL.md\n---\nname: bar\ndescription: Does bar things.\n---\nBody.\n\
         @@ project/.claude/skills/baz/SKILL.md\n---\nname: baz\ndescription: Does baz things.\n---\nBody.\n",
    )
    .unwrap();
    let (project, home, data) = (base.join("project"), base.join("home"), base.join("data"));
    let models = skilltui::agents::builtin();
    let env = Env::new(&project, &home);
    let live = Live::new(Arc::new(models.clone()), env.clone());
    let cat = live.catalog().clone();
    let foo = home.join(".agents/skills/foo/SKILL.md");
    let bar = home.join(".agents/skills/bar/SKILL.md");
    let baz = project.join(".claude/skills/baz/SKILL.md");
    let kimi_reads = |c: &Catalog, p: &Path| {
        c.skill(p)
            .and_then(|s| s.verdict("kimi-code"))
            .map(|v| v.status)
    };
    assert_eq!(kimi_reads(&cat, &bar), Some(Status::Visible));
    let tree = snapshot(&base.join("home"));
    let mut checked = 0;
    for (skill, root, mode) in [
        (&foo, home.join(".config/agents/skills"), Mode::Move),
        (&foo, home.join(".config/agents/skills"), Mode::Link),
        (&baz, home.join(".config/agents/skills"), Mode::Copy),
        (&baz, project.join(".agents/skills"), Mode::Move),
    ] {
        let req = Request::Move {
            skill: skill.clone(),
            root: root.clone(),
            mode,
        };
        let plan = skilltui::actions::plan(&cat, &models, &env, &req)
            .unwrap_or_else(|e| panic!("{req:?}: {e}"));
        assert!(
            plan.ops
                .iter()
                .any(|o| matches!(o, skilltui::actions::Op::CreateDir { path } if *path == root)),
            "{}: the plan makes the root",
            plan.title
        );
        let (next, _) = overlay::predict(&live, &plan.ops)
            .unwrap_or_else(|e| panic!("{}: not predicted in memory: {}", plan.title, e.0));
        let entry = journal::apply_in(&plan, &data).unwrap();
        let full = Catalog::build(&models, &env);
        journal::undo(&entry).unwrap();
        same(next.catalog(), &full, &plan.title);
        if root.starts_with(home.join(".config")) {
            // Kimi now reads the new folder only: bar is no longer listed.
            assert_ne!(
                kimi_reads(next.catalog(), &bar),
                Some(Status::Visible),
                "{}",
                plan.title
            );
        }
        checked += 1;
        let _ = std::fs::remove_dir(&root);
        let _ = std::fs::remove_dir(home.join(".config/agents"));
        let _ = std::fs::remove_dir(home.join(".config"));
    }
    assert_eq!(checked, 4);
    assert_eq!(snapshot(&base.join("home")), tree, "undo restores the tree");
    // The planner's candidates for a copy no agent root of Kimi's wins: none goes to the mirror.
    let cands =
        planner::win(&live, &env, &baz, "codex", &AtomicBool::new(false)).unwrap_or_default();
    for c in &cands {
        assert_eq!(c.predicted, Predicted::Overlay, "{}", c.plan.title);
    }
}

/// The planner places skills only inside the project and the home: agents that search every
/// folder up to `/` (Amp without git) also scan `/.agents/skills` and the project's other
/// ancestors, and those roots are in the catalog, but no `W` or share plan writes there.
#[test]
fn plans_never_place_a_skill_outside_the_project_and_the_home() {
    let tmp = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(tmp.path()).unwrap();
    let (project, home) = (base.join("work/project"), base.join("home"));
    for (root, text) in [
        (project.join(".claude/skills"), "The project's copy."),
        (home.join(".claude/skills"), "My copy."),
    ] {
        let d = root.join("style");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: style\ndescription: {text} Use when writing.\n---\n# style\n"),
        )
        .unwrap();
    }
    let models = skilltui::agents::builtin();
    let env = Env::new(&project, &home);
    let live = Live::new(Arc::new(models.clone()), env.clone());
    let cat = live.catalog().clone();
    let inside = |p: &Path| p.starts_with(&project) || p.starts_with(&home);
    // The catalog does list roots outside both (Amp's walk up to `/`).
    let outside: Vec<&Path> = cat
        .roots
        .iter()
        .filter(|r| r.scope != skilltui::agents::Scope::System && !inside(&r.path))
        .filter(|r| r.agents.iter().any(|a| a == "amp"))
        .map(|r| r.path.as_path())
        .collect();
    assert!(
        outside.iter().any(|p| *p == Path::new("/.agents/skills")),
        "Amp's walk does not reach /: {outside:?}"
    );
    let no = AtomicBool::new(false);
    let project_copy = project.join(".claude/skills/style/SKILL.md");
    let mut checked = 0;
    for agent in ["amp", "claude-code", "codex", "copilot-cli"] {
        let plans = planner::win(&live, &env, &project_copy, agent, &no)
            .into_iter()
            .chain(planner::share(
                &live,
                &env,
                std::slice::from_ref(&project_copy),
                agent,
                &no,
            ))
            .flatten();
        for c in plans {
            checked += 1;
            if let planner::Kind::Place { root, .. } = &c.kind {
                assert!(
                    inside(root),
                    "{agent}: a plan places it in {}",
                    root.display()
                );
            }
            for op in c.plan.ops.iter().flat_map(|o| o.written()) {
                assert!(
                    inside(op),
                    "{agent}: `{}` writes {}",
                    c.plan.title,
                    op.display()
                );
            }
        }
    }
    assert!(checked > 0, "no plan at all");
}

/// A copy shadowed by the same SKILL.md through a symlink (`~/.agents/skills/x` → `~/.codex/
/// skills/x`): Codex loads the file once, so `W` says so instead of planning renames that only
/// a mirror of the tree could preview (the > 20 s plans on generated catalogs).
#[test]
fn win_refuses_a_copy_that_is_the_winner_through_a_symlink() {
    let tmp = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(tmp.path()).unwrap();
    let (project, home) = (base.join("project"), base.join("home"));
    std::fs::create_dir_all(&project).unwrap();
    let real = home.join(".codex/skills/x");
    std::fs::create_dir_all(&real).unwrap();
    std::fs::write(
        real.join("SKILL.md"),
        "---\nname: x\ndescription: One skill. Use when testing.\n---\n# x\n",
    )
    .unwrap();
    std::fs::create_dir_all(home.join(".agents/skills")).unwrap();
    std::os::unix::fs::symlink(&real, home.join(".agents/skills/x")).unwrap();
    let models = skilltui::agents::builtin();
    let env = Env::new(&project, &home);
    let live = Live::new(Arc::new(models), env.clone());
    let linked = home.join(".agents/skills/x/SKILL.md");
    let v = live
        .catalog()
        .skill(&linked)
        .unwrap()
        .verdict("codex")
        .unwrap()
        .clone();
    assert_eq!(v.status, Status::Shadowed, "{v:?}");
    let err = planner::win(&live, &env, &linked, "codex", &AtomicBool::new(false)).unwrap_err();
    assert!(err.0.contains("already loads this file"), "{}", err.0);
    assert_eq!(err.kind(), skilltui::actions::RefusalKind::Unchanged);
}
