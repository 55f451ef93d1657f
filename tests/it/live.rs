//! The live catalog's edit path: after in-place edits of known SKILL.md files, re-reading those
//! files and re-resolving only the names they touch gives exactly the snapshot a full scan and
//! resolution gives (compared as JSON), with the same list of changed skills.

use skilltui::catalog::Catalog;
use skilltui::demo::Demo;
use skilltui::env::Env;
use skilltui::live::Live;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A small deterministic generator (no extra crate).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[(self.next() as usize) % v.len()]
    }
}

const NAMES: &[&str] = &[
    "deploy",
    "code-review",
    "pdf-tools",
    "changelog",
    "triage",
    "data-viz",
    "release-notes",
    "quick-note",
    "fresh-name",
    "Deploy",
    "no-desc",
    "a name with spaces",
];

/// One of the shapes a SKILL.md takes while someone edits it.
fn content(rng: &mut Rng) -> Vec<u8> {
    let name = *rng.pick(NAMES);
    let description = *rng.pick(&[
        "Deploys the app.",
        "Reviews code: carefully",
        "",
        "A much longer description that keeps going",
    ]);
    match rng.next() % 12 {
        0 => format!("---\nname: {name}\n---\nno description\n").into_bytes(),
        1 => format!("---\ndescription: {description} x\n---\nno name\n").into_bytes(),
        2 => format!("---\nname: {name}\ndescription: a: b: c\n---\nbroken\n").into_bytes(),
        3 => Vec::new(),
        4 => format!("\u{feff}---\nname: {name}\ndescription: with a BOM\n---\n").into_bytes(),
        5 => vec![0, 159, 146, 150, 0, 1, 2],
        6 => format!(
            "---\nname: {name}\ndescription: {}\n---\n",
            "long ".repeat(300)
        )
        .into_bytes(),
        7 => format!(
            "---\nname: {name}\ndescription: refs\n---\nRun scripts/missing.sh, read [r](reference.md).\n"
        )
        .into_bytes(),
        8 => format!("---\nname: {name}\ndescription: x\n  bad: indent\n---\n").into_bytes(),
        9 => format!(
            "---\nname: {name}\ndescription: \"{description} quoted\"\nallowed-tools: Bash\nmetadata:\n  k: v\n---\n"
        )
        .into_bytes(),
        10 => "---\nname: [not, a, string]\ndescription: x\n---\n".to_string().into_bytes(),
        _ => format!("---\nname: {name}\ndescription: {description} ok\n---\n# {name}\n").into_bytes(),
    }
}

fn json(c: &Catalog) -> serde_json::Value {
    serde_json::to_value(c).unwrap()
}

/// Every file the catalog holds, plus a loose `*.md`.
fn files(cat: &Catalog) -> Vec<PathBuf> {
    cat.skills.iter().map(|s| s.path.clone()).collect()
}

fn check(
    live: &mut Live,
    models: &[skilltui::agents::AgentModel],
    env: &Env,
    edited: &[PathBuf],
    prev: &mut Catalog,
    step: &str,
) {
    let set: BTreeSet<PathBuf> = edited.iter().cloned().collect();
    let e = live.edit(&set);
    let full = Catalog::build(models, env);
    same_as_full(
        live.catalog(),
        &full,
        &format!("{step}: edit of {edited:?}"),
    );
    assert_eq!(
        e.changed,
        skilltui::watch::changed(prev, &full),
        "step {step}: the changed list differs"
    );
    *prev = full;
}

/// Fails, showing where they first differ, when the incremental snapshot is not the full one.
#[track_caller]
fn same_as_full(incremental: &Catalog, full: &Catalog, what: &str) {
    crate::common::same_catalog(incremental, full, "incremental", what);
}

fn write(p: &Path, bytes: &[u8]) {
    std::fs::write(p, bytes).unwrap();
}

#[test]
fn edits_resolve_incrementally_to_the_full_answer() {
    // 60 random edits per seed; 200 with SKILLTUI_TEST_FULL=1.
    for seed in [7, 4242, 99991] {
        random_edits(seed, crate::scale::pick(60, 200));
    }
}

/// The demo tree with a symlinked copy of `deploy` (the same file under two paths) and the
/// settings files in `settings` (`@@ PATH` blocks).
fn demo_with(settings: &str) -> (tempfile::TempDir, Demo) {
    let tmp = tempfile::tempdir().unwrap();
    let demo = Demo::create_at(&tmp.path().join("demo")).unwrap();
    std::os::unix::fs::symlink(
        demo.project.join(".claude/skills/deploy"),
        demo.project.join(".agents/skills/deploy-link"),
    )
    .unwrap();
    skilltui::demo::write_tree(&demo.base, settings).unwrap();
    (tmp, demo)
}

fn random_edits(seed: u64, steps: usize) {
    // Settings that disable or hide skills by name: an edit that renames a skill moves it in
    // or out of their reach.
    let (_tmp, demo) = demo_with(
        "@@ project/.claude/settings.local.json\n{\"skillOverrides\": {\"deploy\": \"off\", \"triage\": \"user-invocable-only\"}}\n\
         @@ home/.codex/config.toml\n[[skills.config]]\nname = \"changelog\"\nenabled = false\n\
         @@ project/opencode.json\n{\"permission\": {\"skill\": {\"fresh*\": \"deny\"}}}\n\
         @@ home/.pi/agent/settings.json\n{\"skills\": [\"!data-*\"]}\n\
         @@ project/.agents/skills/code-review/agents/openai.yaml\npolicy:\n  allow_implicit_invocation: false\n",
    );
    let models = skilltui::agents::builtin();
    let env = Env::new(&demo.project, &demo.home);
    let mut live = Live::new(Arc::new(models.clone()), env.clone());
    let mut prev = Catalog::build(&models, &env);
    assert_eq!(
        json(live.catalog()),
        json(&prev),
        "the initial snapshots differ"
    );
    // The settings are in force.
    let decided_by_settings = prev
        .skills
        .iter()
        .flat_map(|s| &s.verdicts)
        .filter(|(_, v)| v.reasons.iter().any(|r| r.rule.contains("/settings.")))
        .count();
    assert!(
        decided_by_settings >= 4,
        "{decided_by_settings} verdicts name a setting"
    );
    let paths = files(&prev);
    assert!(paths.len() > 15, "the demo holds {} skills", paths.len());

    let mut rng = Rng(seed);
    for step in 0..steps {
        let n = 1 + (rng.next() % 3) as usize * usize::from(step % 5 == 0);
        let edited: Vec<PathBuf> = (0..n).map(|_| rng.pick(&paths).clone()).collect();
        for p in &edited {
            write(p, &content(&mut rng));
        }
        let before = live.catalog().clone();
        check(
            &mut live,
            &models,
            &env,
            &edited,
            &mut prev,
            &format!("seed {seed}, step {step}"),
        );
        // Skills the edit could not touch are shared with the previous snapshot, not copied.
        let shared = live
            .catalog()
            .skills
            .iter()
            .filter(|s| before.skills.iter().any(|b| Arc::ptr_eq(b, s)))
            .count();
        assert!(
            shared + 3 * models.len() >= paths.len(),
            "step {step}: {shared} of {} skills shared",
            paths.len()
        );
    }
    assert!(live.knows(&paths[0]));
}

#[test]
fn an_edit_resolves_only_the_copies_of_the_names_it_touches() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("p");
    let home = tmp.path().join("h");
    let root = project.join(".agents/skills");
    for i in 0..50 {
        let d = root.join(format!("s{i:02}"));
        std::fs::create_dir_all(&d).unwrap();
        write(
            &d.join("SKILL.md"),
            format!("---\nname: s{i:02}\ndescription: skill {i}\n---\n").as_bytes(),
        );
    }
    std::fs::create_dir_all(&home).unwrap();
    let models = skilltui::agents::builtin();
    let env = Env::new(&project, &home);
    let mut live = Live::new(Arc::new(models.clone()), env.clone());
    let agents = models.len();

    // A description edit: one file, every agent.
    let p = root.join("s01/SKILL.md");
    write(&p, b"---\nname: s01\ndescription: changed\n---\n");
    let e = live.edit(&[p.clone()].into_iter().collect());
    assert_eq!((e.reread, e.resolved), (1, agents));
    assert_eq!(e.changed, vec![p.clone()]);
    let full = Catalog::build(&models, &env);
    assert_eq!(json(live.catalog()), json(&full));
    let mut prev = full;

    // Renaming s01 to s02: s01's file and s02's file are resolved (the new collision), for
    // agents that name skills by frontmatter; the other 48 are not.
    write(&p, b"---\nname: s02\ndescription: now a copy of s02\n---\n");
    let e = live.edit(&[p.clone()].into_iter().collect());
    assert!(e.resolved <= 2 * agents, "resolved {} entries", e.resolved);
    assert!(e.resolved > agents, "the other copy was not resolved again");
    let full = Catalog::build(&models, &env);
    assert_eq!(json(live.catalog()), json(&full));
    assert_eq!(e.changed, skilltui::watch::changed(&prev, &full));
    assert!(
        e.changed.contains(&root.join("s02/SKILL.md")) || e.changed.contains(&p),
        "{:?}",
        e.changed
    );
    prev = full;

    // And back: the collision ends, both copies are resolved again.
    write(&p, b"---\nname: s01\ndescription: skill 1\n---\n");
    let e = live.edit(&[p.clone()].into_iter().collect());
    let full = Catalog::build(&models, &env);
    assert_eq!(json(live.catalog()), json(&full));
    assert_eq!(e.changed, skilltui::watch::changed(&prev, &full));

    // An unknown path is not an edit.
    let e = live.edit(&[root.join("nope/SKILL.md")].into_iter().collect());
    assert_eq!((e.reread, e.resolved), (0, 0));
}

/// Files and folders made, removed and renamed inside existing roots: walking only those roots
/// again and re-resolving their files and the names they touch gives the full answer.
#[test]
fn structural_changes_resolve_incrementally_to_the_full_answer() {
    // 40 random changes per seed; 120 with SKILLTUI_TEST_FULL=1.
    for seed in [3, 77, 2024] {
        random_structure(seed, crate::scale::pick(40, 120));
    }
}

fn random_structure(seed: u64, steps: usize) {
    let (_tmp, demo) = demo_with(
        "@@ project/.claude/settings.local.json\n{\"skillOverrides\": {\"deploy\": \"off\"}}\n\
         @@ home/.pi/agent/settings.json\n{\"skills\": [\"!data-*\"]}\n",
    );
    let models = skilltui::agents::builtin();
    let env = Env::new(&demo.project, &demo.home);
    let mut live = Live::new(Arc::new(models.clone()), env.clone());
    let mut prev = Catalog::build(&models, &env);
    let roots: Vec<PathBuf> = prev
        .roots
        .iter()
        .filter(|r| r.exists)
        .map(|r| r.path.clone())
        .collect();
    assert!(roots.len() >= 6, "{roots:?}");
    let mut rng = Rng(seed);
    let mut n = 0;
    let mut rewalked = 0;
    for step in 0..steps {
        let skills: Vec<PathBuf> = prev.skills.iter().map(|s| s.path.clone()).collect();
        let root = rng.pick(&roots).clone();
        let mut touched: BTreeSet<PathBuf> = BTreeSet::new();
        let op = rng.next() % 10;
        n += 1;
        match op {
            0 | 1 => {
                // A new skill folder.
                let d = root.join(format!("new-{n}"));
                std::fs::create_dir_all(&d).unwrap();
                write(&d.join("SKILL.md"), &content(&mut rng));
                touched.insert(d);
            }
            2 => {
                // A skill folder removed (the file only, for a SKILL.md directly in a root).
                let Some(p) = skills.get((rng.next() as usize) % skills.len().max(1)) else {
                    continue;
                };
                let dir = p.parent().unwrap().to_path_buf();
                if roots.contains(&dir) || !p.ends_with("SKILL.md") {
                    let _ = std::fs::remove_file(p);
                    touched.insert(p.clone());
                } else {
                    let _ = std::fs::remove_dir_all(&dir);
                    touched.insert(dir);
                }
            }
            3 => {
                // A skill folder renamed.
                let Some(p) = skills.get((rng.next() as usize) % skills.len().max(1)) else {
                    continue;
                };
                let dir = p.parent().unwrap().to_path_buf();
                if roots.contains(&dir) || !p.ends_with("SKILL.md") || !dir.exists() {
                    continue;
                }
                let to = dir.with_file_name(format!("{}-{n}", rng.pick(NAMES).replace(' ', "-")));
                std::fs::rename(&dir, &to).unwrap();
                touched.insert(dir);
                touched.insert(to);
            }
            4 => {
                // A skill nested inside another.
                let Some(p) = skills.get((rng.next() as usize) % skills.len().max(1)) else {
                    continue;
                };
                let d = p.parent().unwrap().join(format!("inner-{n}"));
                if std::fs::create_dir_all(&d).is_err() {
                    continue;
                }
                write(&d.join("SKILL.md"), &content(&mut rng));
                touched.insert(d);
            }
            5 => {
                // Bundled files: a referenced file, a scripts/ folder.
                let Some(p) = skills.get((rng.next() as usize) % skills.len().max(1)) else {
                    continue;
                };
                let dir = p.parent().unwrap();
                let f = if rng.next().is_multiple_of(2) {
                    dir.join("reference.md")
                } else {
                    dir.join("scripts/missing.sh")
                };
                if f.exists() {
                    let _ = std::fs::remove_file(&f);
                } else {
                    let _ = std::fs::create_dir_all(f.parent().unwrap());
                    let _ = std::fs::write(&f, "x");
                }
                touched.insert(f);
            }
            6 => {
                // An ignore file in the root.
                let f = root.join(".gitignore");
                if f.exists() {
                    std::fs::remove_file(&f).unwrap();
                } else {
                    write(&f, format!("{}\n", rng.pick(NAMES)).as_bytes());
                }
                touched.insert(f);
            }
            7 => {
                // A loose *.md, or a SKILL.md directly in the root.
                let f = if rng.next().is_multiple_of(2) {
                    root.join(format!("loose-{n}.md"))
                } else {
                    root.join("SKILL.md")
                };
                write(&f, &content(&mut rng));
                touched.insert(f);
            }
            _ => {
                // A content edit, seen as structural (an editor's rename-over save).
                let Some(p) = skills.get((rng.next() as usize) % skills.len().max(1)) else {
                    continue;
                };
                if p.exists() {
                    write(p, &content(&mut rng));
                }
                touched.insert(p.clone());
            }
        }
        let e = live
            .restructure(&touched)
            .unwrap_or_else(|| panic!("step {step}: {touched:?} is inside existing roots"));
        let full = Catalog::build(&models, &env);
        same_as_full(
            live.catalog(),
            &full,
            &format!("seed {seed}, step {step}, op {op}: {touched:?}"),
        );
        assert_eq!(
            e.changed,
            skilltui::watch::changed(&prev, &full),
            "seed {seed}, step {step}: the changed list differs"
        );
        assert!(e.rewalked >= 1);
        rewalked += e.rewalked;
        prev = full;
    }
    // Most changes walk one root (two when a symlink leads into another), not all of them.
    assert!(
        rewalked <= 2 * steps,
        "{rewalked} roots walked again in {steps} steps ({} roots)",
        roots.len()
    );
    // A `.git` or a settings file changes roots and verdicts beyond a walk, even inside a root.
    let git = roots[0].join(".git");
    std::fs::create_dir_all(&git).unwrap();
    assert!(
        live.restructure(&[git.clone()].into_iter().collect())
            .is_none()
    );
    std::fs::remove_dir_all(&git).unwrap();
    assert!(
        live.restructure(
            &[demo.project.join(".claude/settings.local.json")]
                .into_iter()
                .collect()
        )
        .is_none()
    );
    // A root nested in an existing one, made: the root list changes, so a rescan.
    let codex = demo.home.join(".codex/skills");
    std::fs::create_dir_all(codex.join("y")).unwrap();
    write(
        &codex.join("y/SKILL.md"),
        b"---\nname: y\ndescription: y\n---\n",
    );
    assert!(
        live.restructure(&[codex.clone()].into_iter().collect())
            .is_none()
    );
    live.rescan();
    std::fs::create_dir_all(codex.join(".system/z")).unwrap();
    write(
        &codex.join(".system/z/SKILL.md"),
        b"---\nname: z\ndescription: z\n---\n",
    );
    assert!(
        live.restructure(&[codex.join(".system")].into_iter().collect())
            .is_none()
    );
    live.rescan();
    assert_eq!(json(live.catalog()), json(&Catalog::build(&models, &env)));
    // A root that appears is not something a re-walk can handle.
    let fresh = demo.project.join(".cursor/skills");
    assert!(!fresh.exists());
    std::fs::create_dir_all(fresh.join("x")).unwrap();
    assert!(
        live.restructure(&[demo.project.join(".cursor")].into_iter().collect())
            .is_none()
    );
}

#[test]
fn a_storm_of_changes_is_left_to_a_rescan() {
    let tmp = tempfile::tempdir().unwrap();
    let demo = Demo::create_at(&tmp.path().join("demo")).unwrap();
    let models = skilltui::agents::builtin();
    let env = Env::new(&demo.project, &demo.home);
    let mut live = Live::new(Arc::new(models.clone()), env.clone());
    let root = demo.project.join(".agents/skills");
    let mut touched = BTreeSet::new();
    for i in 0..=skilltui::live::MAX_TOUCHED {
        let d = root.join(format!("storm-{i}"));
        std::fs::create_dir_all(&d).unwrap();
        write(
            &d.join("SKILL.md"),
            b"---\nname: storm\ndescription: x\n---\n",
        );
        touched.insert(d);
    }
    assert!(live.restructure(&touched).is_none());
    live.rescan();
    assert_eq!(json(live.catalog()), json(&Catalog::build(&models, &env)));
}
