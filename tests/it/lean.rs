//! `list --json` without the whole catalog in memory ([`skilltui::export::write_stream`]): every
//! agent's collision keys first, then each skill's verdicts re-made from the copies that share
//! its key. Its bytes are the ones the catalog's writer gives, on the oracle's targeted trees, the
//! demo tree and a generated tree, whole and with `--fields`; and the binary's `list --json`
//! takes that path. `check`'s findings gathered that way are the catalog's.

use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::export::{self, Fields};
use std::path::Path;
use std::process::Command;

/// The catalog's JSON and the streamed one, for these fields.
fn both(
    models: &[skilltui::agents::AgentModel],
    env: &Env,
    f: Option<&Fields>,
) -> (String, String) {
    let cat = Catalog::build(models, env);
    (written(&cat, f), streamed(models, env, f))
}

/// The catalog's writer, for these fields.
fn written(cat: &Catalog, f: Option<&Fields>) -> String {
    let mut a = Vec::new();
    export::write(&mut a, cat, export::SCHEMA, f, false).unwrap();
    String::from_utf8(a).unwrap()
}

/// The streamed writer, for these fields.
fn streamed(models: &[skilltui::agents::AgentModel], env: &Env, f: Option<&Fields>) -> String {
    let mut b = Vec::new();
    export::write_stream(&mut b, models, env, f).unwrap();
    String::from_utf8(b).unwrap()
}

/// The streamed JSON is the catalog's, whole and (with `selections`) for two field selections.
/// The catalog is built once; each stream re-resolves the tree.
#[track_caller]
fn same(what: &str, models: &[skilltui::agents::AgentModel], env: &Env, selections: bool) {
    let fields = [
        None,
        Some(Fields::parse(&["path,agents.status,agents.reasons".into()]).unwrap()),
        Some(Fields::parse(&["name,agents.fields,agents.root".into()]).unwrap()),
    ];
    let built = Catalog::build(models, env);
    for f in fields.iter().take(if selections { 3 } else { 1 }) {
        let cat = written(&built, f.as_ref());
        let streamed = streamed(models, env, f.as_ref());
        if cat != streamed {
            let at = cat
                .lines()
                .zip(streamed.lines())
                .position(|(x, y)| x != y)
                .unwrap_or(0);
            panic!(
                "{what} ({f:?}): streamed JSON differs from the catalog's at line {at}\n--- catalog:\n{}\n--- streamed:\n{}",
                cat.lines().nth(at).unwrap_or(""),
                streamed.lines().nth(at).unwrap_or("")
            );
        }
        assert!(cat.contains("\"skills\":["), "{what}: {cat}");
    }
    if selections {
        same_findings(what, models, env, &built);
    }
}

/// `check`'s findings gathered from the skills made a batch at a time (never the whole catalog)
/// are the catalog's, in the same order, with the same per-agent summary.
#[track_caller]
fn same_findings(what: &str, models: &[skilltui::agents::AgentModel], env: &Env, built: &Catalog) {
    use skilltui::findings::{self, Collector};
    let whole = findings::findings(built, models);
    let summaries = findings::agent_summaries(built, &whole);
    let (batched, batched_summaries) =
        skilltui::catalog::with_skills(models, env, |header, skills| {
            let mut c = Collector::new(header, models);
            skills
                .for_each(|s| {
                    c.add(s);
                    Ok::<(), ()>(())
                })
                .unwrap();
            c.finish()
        });
    let text = |f: &[findings::Finding]| serde_json::to_string_pretty(f).unwrap();
    assert_eq!(text(&batched), text(&whole), "{what}: findings");
    assert_eq!(batched_summaries, summaries, "{what}: summaries");
}

#[test]
fn streamed_json_is_the_catalogs_on_every_targeted_oracle_tree() {
    let models = skilltui::agents::builtin();
    let scratch = tempfile::tempdir().unwrap();
    let mut n = 0;
    for case in skilltui::oracle::cases::targeted() {
        let tree = case.write(scratch.path()).unwrap();
        let mut env = Env::new(&tree.project, &tree.home);
        for (k, v) in &tree.vars {
            env = env.with_var(k, v);
        }
        // Every tree whole; the field selections on every fourth tree (on all of them with
        // SKILLTUI_TEST_FULL=1).
        same(
            &case.name,
            &models,
            &env,
            n % 4 == 0 || crate::scale::full(),
        );
        n += 1;
    }
    assert!(n >= 20, "only {n} targeted cases");
}

#[test]
fn streamed_json_is_the_catalogs_on_the_demo_and_a_generated_tree() {
    let models = skilltui::agents::builtin();
    let tmp = tempfile::tempdir().unwrap();
    let demo = tmp.path().join("demo");
    skilltui::demo::write_tree(&demo, include_str!("../../assets/demo/catalog.txt")).unwrap();
    same(
        "demo",
        &models,
        &Env::new(demo.join("project"), demo.join("home")),
        true,
    );
    let (tree, _) = skilltui::r#gen::generate(
        &tmp.path().join("gen"),
        &skilltui::r#gen::Options {
            skills: 600,
            seed: 0x1ea2,
        },
    )
    .unwrap();
    let env = Env::new(&tree.project, &tree.home);
    let cat = Catalog::build(&models, &env);
    let shadowed = cat
        .skills
        .iter()
        .flat_map(|s| &s.verdicts)
        .filter(|(_, v)| v.status == skilltui::resolve::Status::Shadowed)
        .count();
    assert!(
        shadowed > 10,
        "the tree has collisions to stream: {shadowed}"
    );
    same("generated 600", &models, &env, true);
}

#[test]
fn the_binarys_list_json_is_the_streamed_json() {
    let models = skilltui::agents::builtin();
    let tmp = tempfile::tempdir().unwrap();
    let demo = tmp.path().join("demo");
    skilltui::demo::write_tree(&demo, include_str!("../../assets/demo/catalog.txt")).unwrap();
    let (project, home) = (demo.join("project"), demo.join("home"));
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_skilltui"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .arg("--project")
            .arg(&project)
            .arg("--home")
            .arg(&home)
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let env = Env::new(Path::new(&project), Path::new(&home));
    let (cat, _) = both(&models, &env, None);
    assert_eq!(run(&["list", "--json"]), cat);
    let f = Fields::parse(&["path,agents.status".into()]).unwrap();
    let (cat, _) = both(&models, &env, Some(&f));
    assert_eq!(run(&["list", "--fields", "path,agents.status"]), cat);
}

/// A scan that reads no texts is the full scan without them (same roots walked, canonical
/// paths, sidecars, scripts and plugins; no file and no reference kept, the walk's file names
/// kept for the references), and `Lean` over it,
/// reading each text when it steps the file and again per batch of verdicts, gives every
/// agent's verdicts `resolve_all` gives over the full scan, on a generated tree with collisions.
#[test]
fn lean_over_a_scan_without_texts_gives_the_full_resolutions_verdicts() {
    use skilltui::resolve::{self, Lean};
    use skilltui::scan::{self, Texts};
    let models = skilltui::agents::builtin();
    let (_tmp, tree) = crate::common::generated(300, 0x1ea3);
    let env = Env::new(&tree.project, &tree.home);
    let kept = scan::scan(&models, &env);
    let mut unread = scan::scan_texts(&models, &env, &scan::Progress::new(), Texts::Unread);
    assert_eq!((kept.texts, unread.texts), (Texts::Kept, Texts::Unread));
    assert!(!kept.files.is_empty() && !kept.references.is_empty());
    assert!(unread.files.is_empty() && unread.references.is_empty());
    // The full scan dropped the walk's file names once it had the references; the other keeps
    // them for whoever works the references out.
    assert!(unread.walked.iter().any(|w| !w.file_names.is_empty()));
    assert!(kept.walked.iter().all(|w| w.file_names.is_empty()));
    let mut forgotten = unread.walked.clone();
    forgotten.iter_mut().for_each(|w| w.forget_file_names());
    assert_eq!(forgotten, kept.walked);
    assert_eq!(unread.canonical, kept.canonical);
    assert_eq!(unread.sidecars, kept.sidecars);
    assert_eq!(unread.with_scripts, kept.with_scripts);
    assert_eq!(unread.plugins, kept.plugins);
    let entries = resolve::entries(&kept);
    for e in &entries {
        assert_eq!(
            unread.text(&e.path),
            kept.content(&e.path).cloned(),
            "{e:?}"
        );
    }
    let full = resolve::resolve_all(&models, &kept, &entries, |_, _| ());
    // The references the streamed path fills in from the texts it reads.
    let (keys, refs) = Lean::keys(&models, &unread, &entries, |ei, content, _| {
        let e = &entries[ei];
        let wanted = e
            .found
            .iter()
            .any(|&(wi, ci)| scan::has_references(&kept.walked[wi].candidates[ci]));
        (wanted, content.map(|c| scan::references_of(c, &e.path)))
    });
    for (e, (wanted, r)) in entries.iter().zip(refs) {
        if wanted {
            unread.references.insert(e.path.clone(), r.unwrap());
        }
    }
    assert_eq!(unread.references, kept.references);
    for (ai, k) in keys.iter().enumerate() {
        assert!(k.all().eq(full.agents[ai].1.all()), "{}", models[ai].id);
    }
    let lean = Lean::new(&models, &unread, &entries, keys);
    let order: Vec<usize> = (0..entries.len()).rev().collect();
    let mut shadowed = 0;
    for batch in order.chunks(64) {
        let texts = lean.texts(batch);
        for &ei in batch {
            for (ai, v) in lean.verdicts(ei, &texts).into_iter().enumerate() {
                shadowed += usize::from(v.status == resolve::Status::Shadowed);
                assert_eq!(
                    v, full.agents[ai].0[ei],
                    "{} {:?}",
                    models[ai].id, entries[ei]
                );
            }
        }
    }
    assert!(shadowed > 5, "the tree has collisions: {shadowed}");
}

/// The skills made a batch at a time (a batch made while the last is handed over) come in the
/// catalog's order, every one once; an error from the caller stops the walk through them there
/// and is returned.
#[test]
fn skills_made_a_batch_ahead_come_in_order_and_stop_at_the_first_error() {
    let models = skilltui::agents::builtin();
    let (_tmp, tree) = crate::common::generated(700, 0x0b1e);
    let env = Env::new(&tree.project, &tree.home);
    let built: Vec<_> = Catalog::build(&models, &env)
        .skills
        .iter()
        .map(|s| s.path.clone())
        .collect();
    assert!(built.len() > 600, "more than two batches: {}", built.len());
    let (all, stopped, after_error) = skilltui::catalog::with_skills(&models, &env, |_, skills| {
        let mut all = Vec::new();
        skills
            .for_each(|s| {
                all.push(s.path.clone());
                Ok::<(), ()>(())
            })
            .unwrap();
        let mut handed = 0;
        let stopped = skills.for_each(|_| {
            handed += 1;
            if handed == 300 { Err(handed) } else { Ok(()) }
        });
        (all, stopped, handed)
    });
    assert_eq!(all, built, "every skill once, in the catalog's order");
    assert_eq!(stopped, Err(300));
    assert_eq!(after_error, 300, "no skill handed over after the error");
}

/// Field handling is shared when equal: on the demo tree, two agents' tables for a skill are
/// one table exactly when they handle every key alike, and each is what the agent's field
/// rules give for the skill's keys.
#[test]
fn field_tables_are_shared_when_equal() {
    let tmp = tempfile::tempdir().unwrap();
    let demo = tmp.path().join("demo");
    skilltui::demo::write_tree(&demo, include_str!("../../assets/demo/catalog.txt")).unwrap();
    let models = skilltui::agents::builtin();
    let cat = Catalog::build(&models, &Env::new(demo.join("project"), demo.join("home")));
    let (mut shared, mut apart) = (0, 0);
    for skill in &cat.skills {
        for (i, (agent, v)) in skill.verdicts.iter().enumerate() {
            let m = models.iter().find(|m| *m.id == **agent).unwrap();
            assert_eq!(
                *v.fields,
                skilltui::resolve::field_handling(m, &skill.keys),
                "{} {agent}",
                skill.path.display()
            );
            for (_, w) in &skill.verdicts[..i] {
                let same = v.fields == w.fields;
                assert_eq!(std::sync::Arc::ptr_eq(&v.fields, &w.fields), same);
                if same {
                    shared += 1;
                } else {
                    apart += 1;
                }
            }
        }
    }
    // Both kinds occur: the test can tell sharing from copying.
    assert!(shared > 0 && apart > 0, "{shared} {apart}");
}
