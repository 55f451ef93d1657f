//! `reference-missing` through the real binary (`check --json`): a fixture per case of what a
//! body uses as a file of the skill (reported when missing) and of what it does not (never
//! reported). Each case sits on its own line of the body, so a finding's line names the case.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn put(base: &Path, rel: &str, content: &str) {
    let p = base.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, content).unwrap();
}

/// Every object anywhere in `v` whose `code` is `reference-missing`.
fn collect<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(m) => {
            if m.get("code").and_then(Value::as_str) == Some("reference-missing") {
                out.push(v);
            }
            m.values().for_each(|x| collect(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect(x, out)),
        _ => {}
    }
}

/// The lines of `skill`'s `reference-missing` findings in `check --json`, with their messages.
fn missing(project: &Path, home: &Path, skill: &str) -> Vec<(u64, String)> {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
    c.env_clear();
    if let Some(p) = std::env::var_os("PATH") {
        c.env("PATH", p);
    }
    let o = c
        .args(["check", "--json", "--project"])
        .arg(project)
        .arg("--home")
        .arg(home)
        .output()
        .unwrap();
    let j: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    });
    let mut found = Vec::new();
    collect(&j, &mut found);
    let mut out: Vec<(u64, String)> = found
        .into_iter()
        .filter(|f| {
            f.get("path")
                .and_then(Value::as_str)
                .is_some_and(|p| p.contains(&format!("/{skill}/SKILL.md")))
        })
        .map(|f| {
            (
                f["line"].as_u64().expect("a line"),
                f["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The body: `(case, reported)` one per line, after a 4-line frontmatter and a title.
const CASES: &[(&str, bool)] = &[
    // Reported: the body uses these as files of the skill, and they are not there.
    ("See [the guide](references/missing-guide.md#setup).", true),
    ("![diagram](assets/missing.png)", true),
    ("[notes]: references/missing-def.md", true),
    ("Open [the sibling](../other-skill/SKILL.md).", true),
    ("Run ${CLAUDE_SKILL_DIR}/scripts/missing-var.sh now.", true),
    ("Run `$SKILL_DIR/scripts/missing-dollar.py`.", true),
    ("Run `python {baseDir}/scripts/missing-base.py`.", true),
    ("Read references/missing-prose.md first.", true),
    ("Run `scripts/missing-inline.sh --fast`.", true),
    // Present: references, never reported.
    (
        "See [the real guide](references/guide.md) and scripts/run.sh.",
        false,
    ),
    ("Run `${CLAUDE_SKILL_DIR}/scripts/run.sh`.", false),
    // Never reported: not files of the skill.
    (
        "Edit `src/lib/auth.ts` and app/api/route.ts in your project.",
        false,
    ),
    (
        "Write docs/codebase/ARCH.md and templates/page.html.",
        false,
    ),
    ("Claude 4.6/4.7/4.8 models.", false),
    (
        "Use path/to/server/dist/index.js or references/path/to/x.md.",
        false,
    ),
    (
        "Name it scripts/<name>.py, scripts/{tool}.sh or references/your-topic.md.",
        false,
    ),
    (
        "[ph](path/to/file.md) [ang](<your-file>.md) [ex](example/SKILL.md)",
        false,
    ),
    (
        "[web](https://example.com/scripts/a.sh) [mail](mailto:a@b.c) [top](#top)",
        false,
    ),
    ("[abs](/etc/passwd) [home](~/notes.md)", false),
    (
        "Other variables: $SKILLS_DIR/a/b.md ${CLAUDE_PLUGIN_ROOT}/x/y.sh",
        false,
    ),
    (
        "Words: regenerate schemas/templates before packaging.",
        false,
    ),
    ("`[fake](references/in-code-span.md)`", false),
    ("```ts", false),
    ("// src/app/page.tsx", false),
    ("[in fence](references/in-fence.md)", false),
    ("python scripts/in-fence.py", false),
    ("```", false),
    ("~~~", false),
    ("references/in-tilde-fence.md", false),
    ("~~~", false),
    ("", false),
    ("    scripts/indented-code.sh", false),
    ("    [indented](references/indented.md)", false),
    ("", false),
    ("End.", false),
];

#[test]
fn reference_missing_only_where_due() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path();
    let project = base.join("project");
    let home = base.join("home");
    std::fs::create_dir_all(&home).unwrap();
    put(&project, ".git/HEAD", "ref: refs/heads/main\n");
    std::fs::create_dir_all(project.join(".git/objects")).unwrap();
    std::fs::create_dir_all(project.join(".git/refs")).unwrap();
    let dir = ".agents/skills/refs";
    let mut body = String::from("---\nname: refs\ndescription: Reference cases.\n---\n# Refs\n");
    for (case, _) in CASES {
        body.push_str(case);
        body.push('\n');
    }
    put(&project, &format!("{dir}/SKILL.md"), &body);
    put(&project, &format!("{dir}/scripts/run.sh"), "echo\n");
    put(&project, &format!("{dir}/references/guide.md"), "# G\n");
    std::fs::create_dir_all(project.join(format!("{dir}/assets"))).unwrap();
    // A skill with no folders: a bare path is the user's project; a link is still a link.
    put(
        &project,
        ".agents/skills/bare/SKILL.md",
        "---\nname: bare\ndescription: No folders.\n---\nRun scripts/setup.sh and read references/a.md.\nSee [b](references/b.md).\n",
    );

    let got = missing(&project, &home, "refs");
    let want: BTreeSet<u64> = CASES
        .iter()
        .enumerate()
        .filter(|(_, (_, r))| *r)
        .map(|(i, _)| 6 + i as u64)
        .collect();
    let lines: BTreeSet<u64> = got.iter().map(|(l, _)| *l).collect();
    assert_eq!(
        lines,
        want,
        "reported lines differ: {:#?}",
        got.iter()
            .map(|(l, m)| (CASES.get(*l as usize - 6).map(|c| c.0), m))
            .collect::<Vec<_>>()
    );
    // The message names the file as the skill would find it (without the variable or anchor).
    for target in [
        "references/missing-guide.md",
        "scripts/missing-var.sh",
        "scripts/missing-inline.sh",
    ] {
        assert!(
            got.iter().any(|(_, m)| m.contains(target)),
            "{target}: {got:?}"
        );
    }
    assert!(
        got.iter()
            .all(|(_, m)| !m.contains('#') && !m.contains('$')),
        "{got:?}"
    );

    let bare = missing(&project, &home, "bare");
    assert_eq!(bare.len(), 1, "{bare:?}");
    assert_eq!(bare[0].0, 6);
    assert!(bare[0].1.contains("references/b.md"), "{bare:?}");
}

/// Every skill-folder variable the agent models document is recognised as one.
#[test]
fn models_skill_dir_variables_are_recognised() {
    let mut n = 0;
    for m in skilltui::agents::builtin() {
        let Some(v) = m.body.as_ref().and_then(|b| b.skill_dir_variable.as_ref()) else {
            continue;
        };
        let Some(var) = v.known() else { continue };
        n += 1;
        let name = var.trim_start_matches('$').trim_matches(['{', '}']);
        assert!(
            skilltui::skill::body::is_skill_dir_variable(name),
            "{}: {var}",
            m.id
        );
        let body = format!("Run {var}/scripts/x.sh\n");
        let refs = skilltui::skill::body::references(&body, 1, &|_| false);
        assert_eq!(refs.len(), 1, "{}: {refs:?}", m.id);
        assert_eq!(refs[0].target, "scripts/x.sh");
    }
    assert!(n >= 1, "no model documents a skill-folder variable");
}

/// A root `skills` (returned) holding a skill `s` with `scripts/run.sh`, `sub/deeper/x.md`, a
/// `.git` folder and (on Unix) `refs`, a link to `outside/refs` beside the root.
fn skill_folder() -> (tempfile::TempDir, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("skills");
    let outside = t.path().join("outside");
    put(&root, "s/SKILL.md", "---\nname: s\ndescription: d\n---\n");
    put(&root, "s/scripts/run.sh", "");
    put(&root, "s/.git/HEAD", "");
    put(&root, "s/sub/deeper/x.md", "");
    put(&outside, "refs/guide.md", "");
    #[cfg(unix)]
    std::os::unix::fs::symlink(outside.join("refs"), root.join("s/refs")).unwrap();
    (t, root)
}

/// Which folders a skill folder has is answered from the walk (no `stat` per name the body
/// uses): wherever the walk answers, the file system agrees; it answers the common cases; it
/// leaves to the file system what it did not see (`.git`, another letter case, a walk that met
/// a link it did not follow).
#[test]
fn the_walk_answers_which_folders_a_skill_has_as_the_file_system_does() {
    let (_t, root) = skill_folder();
    put(&root, "s/Docs/a.md", "");
    put(&root, "s/lib", "a file, not a folder");
    // The Kelvin sign lower-cases to an ASCII `k`: `kit` may be this folder on a file system
    // that ignores case.
    put(&root, "s/\u{212a}it/x.md", "");
    let names = [
        "scripts", "Docs", "docs", "lib", ".git", "sub", "deeper", "refs", "missing",
    ];
    let check = |w: &skilltui::scan::WalkedRoot| {
        let folders = w.folders_in(Path::new("s"));
        let mut answered = Vec::new();
        for name in names {
            let fs = root.join("s").join(name).is_dir();
            if let Some(walk) = folders.has(name) {
                assert_eq!(
                    walk, fs,
                    "{name}: the walk says {walk}, the file system {fs}"
                );
                answered.push(name);
            }
        }
        answered
    };
    let w = skilltui::scan::walk::walk(&root);
    let answered = check(&w);
    for name in ["scripts", "sub", "lib", "deeper", "missing"] {
        assert!(
            answered.contains(&name),
            "{name} not answered: {answered:?}"
        );
    }
    #[cfg(unix)]
    assert!(answered.contains(&"refs"), "{answered:?}");
    assert!(!answered.contains(&".git") && !answered.contains(&"docs"));
    assert_eq!(w.folders_in(Path::new("s")).has("kit"), None);
    assert_eq!(w.folders_in(Path::new("s")).has("KIT"), None);
    // A link back to the root is not followed: the walk no longer says what is not there.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&root, root.join("s/up")).unwrap();
        let w = skilltui::scan::walk::walk(&root);
        let answered = check(&w);
        assert!(answered.contains(&"scripts"));
        assert!(!answered.contains(&"missing"), "{answered:?}");
    }
}

/// Whether a file a body names exists is answered from the walk when it saw the file (no `stat`
/// per reference): every yes agrees with `Path::exists`; the common cases are answered; what the
/// walk did not see, or may not resolve as the file system does (`..`, another letter case, a
/// trailing `/` after a file, a broken link, `.git`), is left to the file system.
#[test]
fn the_walk_answers_which_files_a_skill_has_as_the_file_system_does() {
    let (t, root) = skill_folder();
    let outside = t.path().join("outside");
    put(&root, "s/notes.md", "");
    put(&root, "s/notes.md~", "");
    put(&root, "s/Docs/A.md", "");
    put(&root, "other/y.md", "");
    put(&outside, "file.md", "");
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink(outside.join("file.md"), root.join("s/linked.md")).unwrap();
        symlink(outside.join("gone.md"), root.join("s/broken.md")).unwrap();
    }
    let targets = [
        "scripts/run.sh",
        "./scripts/run.sh",
        "scripts//run.sh",
        "scripts",
        "scripts/",
        "scripts/run.sh/",
        "notes.md",
        "notes.md~",
        "Docs/A.md",
        "docs/a.md",
        "sub/deeper/x.md",
        "sub/deeper",
        "refs/guide.md",
        "linked.md",
        "broken.md",
        ".git/HEAD",
        "../other/y.md",
        "scripts/../notes.md",
        "missing.md",
        "scripts/missing.sh",
        ".",
        "",
    ];
    // An absolute path to a file the walk saw: the file system is asked.
    let absolute = root.join("s/notes.md").display().to_string();
    let w = skilltui::scan::walk::walk(&root);
    let c = w
        .candidates
        .iter()
        .find(|c| c.rel == Path::new("s/SKILL.md"))
        .unwrap();
    let mut answered = Vec::new();
    for target in targets.into_iter().chain([absolute.as_str()]) {
        let fs = root.join("s").join(target).exists();
        if w.saw(c, target) {
            assert!(fs, "{target}: the walk saw it, the file system does not");
            answered.push(target);
        }
    }
    let mut expected = vec![
        "scripts/run.sh",
        "./scripts/run.sh",
        "scripts//run.sh",
        "scripts",
        "scripts/",
        "notes.md",
        "notes.md~",
        "Docs/A.md",
        "sub/deeper/x.md",
        "sub/deeper",
    ];
    #[cfg(unix)]
    expected.extend(["refs/guide.md", "linked.md"]);
    assert_eq!(answered, expected);
    // The references the scan gives are the ones the file system gives.
    let md = skilltui::skill::SkillMd::from_text(
        "---\nname: s\ndescription: d\n---\nSee [run](scripts/run.sh), [a](docs/a.md), \
         [gone](missing.md) and [up](../other/y.md).\n```\npython scripts/run.sh/\ncat \
         sub/deeper/x.md notes.md\n```\n"
            .to_string(),
    );
    let walked = skilltui::scan::walked_references(&w, c, &Ok(md.clone()));
    let by_fs = skilltui::scan::body_references(&md, &root.join("s"));
    assert_eq!(walked, by_fs);
    assert!(walked.iter().any(|r| r.exists) && walked.iter().any(|r| !r.exists));
}
