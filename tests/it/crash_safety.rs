//! Crash-safe writes: skilltui is killed (SIGKILL) at many points during every kind of action;
//! afterwards each file is either the old or the new version, never torn, and `skilltui undo`
//! still brings the tree back byte for byte.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Every file (bytes) and symlink (target) below `base`, by relative path.
fn snapshot(base: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in walkdir::WalkDir::new(base)
        .into_iter()
        .filter_map(Result::ok)
    {
        let rel = e.path().strip_prefix(base).unwrap().to_path_buf();
        if e.path_is_symlink() {
            let t = std::fs::read_link(e.path()).unwrap();
            out.insert(rel, format!("-> {}", t.display()).into_bytes());
        } else if e.file_type().is_file() {
            out.insert(rel, std::fs::read(e.path()).unwrap());
        }
    }
    out
}

const SKILL: &str = "---\r\nname: notes\r\n# a comment that must survive\r\ndescription: Use when: taking notes\r\n---\r\n# Notes\r\nBody.\r\n";

fn make_tree(base: &Path) {
    let _ = std::fs::remove_dir_all(base);
    skilltui::demo::write_tree(
        base,
        "@@ project/.git/HEAD\nref: refs/heads/main\n@@ mkdir project/.git/objects\n@@ mkdir project/.git/refs\n@@ mkdir home\n@@ mkdir project/.claude/skills\n",
    )
    .unwrap();
    let dir = base.join("project/.agents/skills/notes");
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(dir.join("SKILL.md"), SKILL).unwrap();
    std::fs::write(dir.join("scripts/run.sh"), "echo never run\n").unwrap();
}

fn skilltui(base: &Path, data: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
    c.args(args)
        .arg("--project")
        .arg(base.join("project"))
        .arg("--home")
        .arg(base.join("home"))
        .env("SKILLTUI_DATA_DIR", data)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    c
}

/// The actions, as command lines relative to the tree.
fn actions(base: &Path) -> Vec<(&'static str, Vec<String>)> {
    let skill = base
        .join("project/.agents/skills/notes")
        .display()
        .to_string();
    let claude = base.join("project/.claude/skills").display().to_string();
    vec![
        (
            "rename",
            vec![
                "rename".into(),
                skill.clone(),
                "jottings".into(),
                "--folder".into(),
                "--yes".into(),
            ],
        ),
        (
            "fix",
            vec![
                "fix".into(),
                skill.clone(),
                "--only".into(),
                "quote-description".into(),
                "--yes".into(),
            ],
        ),
        (
            "mv",
            vec!["mv".into(), skill.clone(), claude.clone(), "--yes".into()],
        ),
        (
            "copy",
            vec![
                "mv".into(),
                skill.clone(),
                claude.clone(),
                "--copy".into(),
                "--yes".into(),
            ],
        ),
        ("rm", vec!["rm".into(), skill.clone(), "--yes".into()]),
    ]
}

#[test]
fn killed_at_any_point_files_are_old_or_new_and_undo_works() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("tree");
    let data = tmp.path().join("data");
    let mut kills = 0;
    for (name, args) in actions(&base) {
        // The finished result of the action, for comparison.
        make_tree(&base);
        let old = snapshot(&base);
        let _ = std::fs::remove_dir_all(&data);
        let args_ref: Vec<&str> = args.iter().map(String::as_str).collect();
        let status = skilltui(&base, &data, &args_ref).status().unwrap();
        assert!(status.success(), "{name} did not complete");
        let new = snapshot(&base);
        assert_ne!(old, new, "{name} changed nothing");

        // Killed after 0..40 ms, in 2 ms steps (start-up, planning, writing, journaling).
        for step in 0..20u64 {
            make_tree(&base);
            let _ = std::fs::remove_dir_all(&data);
            let mut child = skilltui(&base, &data, &args_ref).spawn().unwrap();
            std::thread::sleep(Duration::from_micros(step * 2000));
            let _ = child.kill(); // SIGKILL
            let _ = child.wait();
            kills += 1;
            let now = snapshot(&base);
            for (rel, bytes) in &now {
                // A multi-step action (edit, then rename the folder) may stop between steps: the
                // file is then whole, old or new, at the path of that step.
                let same_name = |m: &BTreeMap<PathBuf, Vec<u8>>| {
                    m.iter()
                        .any(|(p, b)| p.file_name() == rel.file_name() && b == bytes)
                };
                let ok = old.get(rel) == Some(bytes)
                    || new.get(rel) == Some(bytes)
                    || same_name(&old)
                    || same_name(&new);
                // A temp file of an unfinished atomic write may remain, or a file of a temp folder
                // an unfinished copy was filling; neither is ever the real file.
                let temp = rel
                    .components()
                    .any(|c| c.as_os_str().to_string_lossy().contains(".skilltui-"));
                assert!(
                    ok || temp,
                    "{name}, killed after {} ms: {} is neither the old nor the new version:\n{}",
                    step * 2,
                    rel.display(),
                    String::from_utf8_lossy(bytes)
                );
            }
            // Undo (when the action got as far as the journal) restores the tree exactly.
            let _ = skilltui(&base, &data, &["undo", "--yes"]).status().unwrap();
            let after = snapshot(&base);
            let after: BTreeMap<_, _> = after
                .into_iter()
                .filter(|(rel, _)| !rel.to_string_lossy().contains(".skilltui"))
                .collect();
            assert_eq!(
                after.keys().collect::<Vec<_>>(),
                old.keys().collect::<Vec<_>>(),
                "{name}, killed after {} ms: undo did not restore the files",
                step * 2
            );
            assert!(
                after == old,
                "{name}, killed after {} ms: undo did not restore the bytes",
                step * 2
            );
        }
    }
    eprintln!("{kills} kills during actions; every file was old or new, every undo exact");
}
