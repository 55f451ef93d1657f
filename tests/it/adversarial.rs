//! Adversarial trees: hostile skill folders built in temp dirs, run through the library (catalog),
//! the binary (`list`, `list --json`, `why`, `check`, `validate`, `roots`) and the explorer's
//! frames. Every case must finish within a bound (the work runs in a thread or child process
//! that is waited on with a timeout; the CLI also runs under a 1 GiB address-space limit), end
//! with a diagnostic rather than a panic, and print no terminal control character (ESC, BEL, C1),
//! bidi override or zero-width character, while `list --json` keeps the original text.

use crate::tui_support;

use crossterm::event::KeyCode;
use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::tui::app::App;
use skilltui::tui::update::{Msg, update};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tui_support::{frame, key, keys};

/// The bound on one catalog build or one command. Measured times are far lower (see the case
/// summaries printed with `--nocapture`); the bound only turns a hang into a failure.
const BOUND: Duration = Duration::from_secs(10);
/// Address-space limit for the binary (KiB): a 100 MB file or an alias bomb must not be loaded.
const CLI_MEMORY_KIB: u64 = 1024 * 1024;

/// Text that tries to drive the terminal: an OSC 52 clipboard write, CSI clear-screen and colour,
/// C1 CSI and OSC, BEL, carriage return and backspace, a bidi override and a zero-width space.
const HOSTILE: &str = "evil\u{1b}]52;c;aGk=\u{7}\u{1b}[2J\u{1b}[31m\u{9b}1m\u{9d}0;t\u{9c}\u{202e}gpj.exe\u{200b}\r\u{8}x";

// ------------------------------------------------------------------------------------------
// Fixtures and helpers
// ------------------------------------------------------------------------------------------

struct Fx {
    tmp: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

/// A project (a git work tree, so that project walks stop there) and a fake home.
fn fixture() -> Fx {
    fixture_in(OsStr::new("project"))
}

fn fixture_in(project_name: &OsStr) -> Fx {
    fixture_at(tempfile::tempdir().unwrap(), project_name)
}

fn fixture_at(tmp: tempfile::TempDir, project_name: &OsStr) -> Fx {
    let project = tmp.path().join(project_name);
    let home = tmp.path().join("home");
    // A git work tree's top (HEAD, objects, refs), so that project walks stop at the project.
    fs::create_dir_all(project.join(".git/objects")).unwrap();
    fs::create_dir_all(project.join(".git/refs")).unwrap();
    fs::write(project.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    fs::create_dir_all(&home).unwrap();
    Fx { tmp, project, home }
}

fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// A YAML double-quoted scalar holding `s` exactly (every non-ASCII or control character
/// escaped, so that the frontmatter itself stays valid YAML).
fn dq(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            c if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

fn skill_md(name: &str, description: &str) -> String {
    format!(
        "---\nname: {}\ndescription: {}\n---\n# {name}\n",
        dq(name),
        dq(description)
    )
}

/// Runs `f` in a thread and waits for it at most `BOUND`; a panic in `f` is re-raised.
fn bounded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> (T, Duration) {
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    let handle = std::thread::Builder::new()
        .name(what.to_string())
        .spawn(move || {
            let _ = tx.send(f());
        })
        .unwrap();
    match rx.recv_timeout(BOUND) {
        Ok(v) => {
            let _ = handle.join();
            (v, start.elapsed())
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => match handle.join() {
            Err(p) => std::panic::resume_unwind(p),
            Ok(()) => unreachable!("the worker sent nothing and did not panic"),
        },
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{what}: still running after {BOUND:?}")
        }
    }
}

fn build(fx: &Fx) -> (Arc<Catalog>, Duration) {
    let env = Env::new(&fx.project, &fx.home);
    bounded("catalog", move || {
        Arc::new(Catalog::build(&skilltui::agents::builtin(), &env))
    })
}

/// Characters that must never reach a terminal as they are.
fn forbidden(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{61c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
        | '\u{2028}' | '\u{2029}')
}

fn assert_clean(what: &str, text: &str) {
    if let Some((i, c)) = text.char_indices().find(|&(_, c)| forbidden(c)) {
        let from = text[..i].char_indices().rev().nth(60).map_or(0, |(j, _)| j);
        panic!(
            "{what}: {c:?} reached the terminal at byte {i}: …{:?}",
            &text[from..(i + 8).min(text.len())]
        );
    }
}

/// What one case checked, printed at its end.
#[derive(Default)]
struct Tally {
    outputs: usize,
    frames: usize,
    slowest_build: Duration,
    slowest_cli: Duration,
}

impl Tally {
    fn report(&self, case: &str, hostile: usize) {
        eprintln!(
            "adversarial {case}: {hostile} hostile inputs, {} outputs and {} frames checked, 0 escapes leaked; slowest catalog {:?}, slowest command {:?} (bound {BOUND:?})",
            self.outputs, self.frames, self.slowest_build, self.slowest_cli
        );
    }
}

/// Runs the binary with `--project`/`--home` (no agent variables from this process), bounded
/// in time and address space. A crash (signal, panic) fails the test.
fn cli(fx: &Fx, tally: &mut Tally, args: &[&OsStr]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {CLI_MEMORY_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_skilltui"))
        .args(args)
        .arg("--project")
        .arg(&fx.project)
        .arg("--home")
        .arg(&fx.home)
        .env("HOME", &fx.home)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for v in skilltui::agents::referenced_vars(&skilltui::agents::builtin()) {
        cmd.env_remove(v);
    }
    let child = cmd.spawn().unwrap();
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = match rx.recv_timeout(BOUND) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("skilltui {args:?}: still running after {BOUND:?}");
        }
    };
    tally.slowest_cli = tally.slowest_cli.max(start.elapsed());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0..=2)) && !stderr.contains("panicked"),
        "skilltui {args:?} crashed: {:?}\n{stderr}",
        out.status
    );
    out
}

/// Text output: valid UTF-8 (no raw 8-bit C1 bytes) and free of forbidden characters.
fn cli_text(fx: &Fx, tally: &mut Tally, args: &[&OsStr]) -> String {
    let out = cli(fx, tally, args);
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let text = String::from_utf8(bytes.clone())
            .unwrap_or_else(|e| panic!("skilltui {args:?}: {stream} is not UTF-8: {e}"));
        assert_clean(&format!("skilltui {args:?} {stream}"), &text);
        tally.outputs += 1;
    }
    String::from_utf8(out.stdout).unwrap()
}

/// Renders the explorer on `cat`: every skill row (up to 12) with its three detail tabs, then
/// tabs 2–5 and the help, at a wide and a narrow size.
fn check_frames(fx: &Fx, cat: &Arc<Catalog>, tally: &mut Tally) {
    for (w, h) in [(140, 40), (60, 20)] {
        let env = Env::new(&fx.project, &fx.home);
        let mut app = App::new(Arc::new(skilltui::agents::builtin()), env, w, h);
        update(&mut app, Msg::Catalog(cat.clone()));
        let rows = app.rows.len().min(12);
        for i in 0..rows.max(1) {
            if rows > 0 {
                app.select(i);
            }
            for _ in 0..3 {
                let f = frame(&app);
                assert_clean(&format!("frame {w}x{h} row {i}"), &f);
                tally.frames += 1;
                key(&mut app, KeyCode::Tab);
            }
        }
        for tab in ["2", "3", "4", "5", "?"] {
            keys(&mut app, tab);
            let f = frame(&app);
            assert_clean(&format!("frame {w}x{h} tab {tab}"), &f);
            tally.frames += 1;
            key(&mut app, KeyCode::Esc);
        }
        keys(&mut app, "1");
    }
}

/// The whole battery on a fixture: catalog, every text command, JSON, frames. Returns the
/// catalog and the parsed `list --json`.
fn check_all(fx: &Fx, tally: &mut Tally) -> (Arc<Catalog>, serde_json::Value) {
    let (cat, t) = build(fx);
    tally.slowest_build = tally.slowest_build.max(t);
    let os = |s: &str| OsString::from(s);
    for args in [vec![os("list")], vec![os("check")], vec![os("roots")]] {
        let a: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        cli_text(fx, tally, &a);
    }
    let mut names: Vec<String> = cat.skills.iter().map(|s| s.label().to_string()).collect();
    names.sort();
    names.dedup();
    for name in names.iter().take(6) {
        cli_text(fx, tally, &[OsStr::new("why"), OsStr::new(name)]);
    }
    let mut folders: Vec<&Path> = cat.skills.iter().filter_map(|s| s.path.parent()).collect();
    folders.dedup();
    for dir in folders.iter().take(6) {
        cli_text(fx, tally, &[OsStr::new("validate"), dir.as_os_str()]);
    }
    let out = cli(fx, tally, &[OsStr::new("list"), OsStr::new("--json")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Non-UTF-8 names are written lossily: the JSON is always whole.
    assert!(
        !stderr.contains("invalid UTF-8"),
        "list --json failed on a non-UTF-8 path: {stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "list --json is not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout[..out.stdout.len().min(2000)]),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    tally.outputs += 1;
    check_frames(fx, &cat, tally);
    (cat, json)
}

fn json_skills(json: &serde_json::Value) -> &[serde_json::Value] {
    json["skills"].as_array().map(Vec::as_slice).unwrap_or(&[])
}

// ------------------------------------------------------------------------------------------
// Cases
// ------------------------------------------------------------------------------------------

#[test]
fn symlink_loops_and_links_out_of_the_root() {
    let fx = fixture();
    let skills = fx.project.join(".claude/skills");
    let agents = fx.project.join(".agents/skills");
    write(&skills.join("ok/SKILL.md"), skill_md("ok", "A fine skill."));
    // Folder loops: to the parent, to itself, two levels up, and a two-link cycle.
    symlink("..", skills.join("ok/up")).unwrap();
    symlink(".", skills.join("self")).unwrap();
    fs::create_dir_all(skills.join("a/b")).unwrap();
    symlink("../..", skills.join("a/b/top")).unwrap();
    symlink(skills.join("cycle2"), skills.join("cycle1")).unwrap();
    symlink(skills.join("cycle1"), skills.join("cycle2")).unwrap();
    // Links that leave the root: the whole project, the fake home, /etc, /proc, a missing path.
    fs::create_dir_all(&agents).unwrap();
    symlink(&fx.project, agents.parent().unwrap().join("skills-project")).unwrap();
    symlink(&fx.project, agents.join("project")).unwrap();
    symlink("/etc", agents.join("etc")).unwrap();
    symlink("/proc/self", agents.join("proc")).unwrap();
    symlink("/nonexistent/skilltui", agents.join("dangling")).unwrap();
    // A skill outside every root reached through a link, and SKILL.md files that are links:
    // a loop, a chain out of the tree, and a link to a device.
    let outside = fx.tmp.path().join("outside/away");
    write(
        &outside.join("SKILL.md"),
        skill_md("away", "Lives outside the roots."),
    );
    symlink(&outside, skills.join("away")).unwrap();
    fs::create_dir_all(skills.join("fileloop")).unwrap();
    symlink("SKILL.md", skills.join("fileloop/SKILL.md")).unwrap();
    fs::create_dir_all(skills.join("passwd")).unwrap();
    symlink("/etc/hostname", skills.join("passwd/SKILL.md")).unwrap();
    fs::create_dir_all(skills.join("zero")).unwrap();
    symlink("/dev/zero", skills.join("zero/SKILL.md")).unwrap();
    // The home's root is itself a link to the project's.
    fs::create_dir_all(fx.home.join(".claude")).unwrap();
    symlink(&skills, fx.home.join(".claude/skills")).unwrap();

    let mut tally = Tally::default();
    let (cat, json) = check_all(&fx, &mut tally);
    assert!(
        cat.diagnostics.iter().any(|d| d.contains("symlink loop")),
        "no loop diagnostic: {:#?}",
        cat.diagnostics
    );
    assert!(cat.skills.iter().any(|s| s.path.ends_with("ok/SKILL.md")));
    assert!(!json_skills(&json).is_empty());
    let check = cli_text(&fx, &mut tally, &[OsStr::new("check")]);
    assert!(!check.is_empty());
    tally.report("symlink loops and links out of the root", 13);
}

/// Creates `levels` nested folders named `d` under `base` without ever using a path longer than
/// a few bytes: each level is created and opened through `/proc/self/fd` of its parent's handle.
/// Returns how many levels were made (fewer if the OS refused).
fn deep_folders(base: &Path, levels: usize, file_at: &[usize]) -> usize {
    use std::os::fd::AsRawFd;
    fs::create_dir_all(base).unwrap();
    let mut dir = fs::File::open(base).unwrap();
    for level in 1..=levels {
        let child = PathBuf::from(format!("/proc/self/fd/{}/d", dir.as_raw_fd()));
        if let Err(e) = fs::create_dir(&child) {
            eprintln!("deep folders: the OS refused level {level}: {e}");
            return level - 1;
        }
        dir = match fs::File::open(&child) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("deep folders: cannot open level {level}: {e}");
                return level;
            }
        };
        if file_at.contains(&level) {
            let f = PathBuf::from(format!("/proc/self/fd/{}/SKILL.md", dir.as_raw_fd()));
            fs::write(f, skill_md(&format!("deep-{level}"), "Deep down.")).unwrap();
        }
    }
    levels
}

/// Removes a chain made by [`deep_folders`] in linear time: each level is moved up to `base`
/// (through `/proc/self/fd`, so paths stay short), then the flat folders are removed. (The temp dir's
/// own recursive cleanup may run out of file descriptors on such a chain.)
fn remove_deep(base: &Path) {
    use std::os::fd::AsRawFd;
    let Ok(mut dir) = fs::File::open(base.join("d")) else {
        return;
    };
    let mut i = 0;
    loop {
        let child = PathBuf::from(format!("/proc/self/fd/{}/d", dir.as_raw_fd()));
        let Ok(next) = fs::File::open(&child) else {
            break;
        };
        if fs::rename(&child, base.join(format!("flat{i}"))).is_err() {
            break;
        }
        dir = next;
        i += 1;
    }
    drop(dir);
    let _ = fs::remove_dir_all(base);
}

#[test]
fn ten_thousand_deep_folders() {
    // On tmpfs when there is one: removing a 10,000-deep chain takes ~30 s on ext4 here, 0.2 s
    // on tmpfs.
    let tmp = tempfile::Builder::new()
        .tempdir_in("/dev/shm")
        .or_else(|_| tempfile::tempdir())
        .unwrap();
    let fx = fixture_at(tmp, OsStr::new("project"));
    let root = fx.project.join(".claude/skills");
    let start = Instant::now();
    let made = deep_folders(&root.join("deep"), 10_000, &[3, 40, 10_000]);
    // 500-deep chains under a home root and beside the deep one.
    deep_folders(&fx.home.join(".agents/skills/deep"), 500, &[2, 500]);
    deep_folders(&root.join("mid"), 500, &[2, 500]);
    eprintln!("deep folders: {made} levels made in {:?}", start.elapsed());
    assert!(made >= 1000, "only {made} levels");

    let mut tally = Tally::default();
    let (cat, _) = check_all(&fx, &mut tally);
    assert!(
        cat.diagnostics.iter().any(|d| d.contains("deeper than")),
        "the depth bound is not reported: {:#?}",
        cat.diagnostics
    );
    assert!(
        cat.skills
            .iter()
            .any(|s| s.name.as_deref() == Some("deep-3")),
        "the shallow skill in the deep chain is lost"
    );
    // `validate` on a path far beyond PATH_MAX: a clear error, no crash.
    let mut long = root.join("deep");
    for _ in 0..made.min(3000) {
        long.push("d");
    }
    let out = cli(&fx, &mut tally, &[OsStr::new("validate"), long.as_os_str()]);
    let text = String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
    assert_clean("validate (long path)", &text);
    assert_ne!(out.status.code(), Some(0), "{text}");
    assert!(!text.trim().is_empty());
    let start = Instant::now();
    remove_deep(&root.join("deep"));
    eprintln!("deep folders: removed in {:?}", start.elapsed());
    tally.report("10,000-deep folders", 3);
}

#[test]
fn huge_sparse_skill_md_and_special_files() {
    let fx = fixture();
    let skills = fx.project.join(".claude/skills");
    // 100 MB, sparse: a valid frontmatter, then holes (NUL bytes) to the end.
    write(&skills.join("huge/SKILL.md"), skill_md("huge", "Very big."));
    let f = fs::OpenOptions::new()
        .write(true)
        .open(skills.join("huge/SKILL.md"))
        .unwrap();
    f.set_len(100 * 1024 * 1024).unwrap();
    drop(f);
    // Just over and just at the 1 MiB limit.
    let limit = skilltui::skill::MAX_FILE_BYTES as usize;
    let head = skill_md("at-limit", "Exactly at the limit.");
    let mut at = head.clone().into_bytes();
    at.resize(limit, b'x');
    write(&skills.join("at-limit/SKILL.md"), &at);
    at.push(b'x');
    write(&skills.join("over-limit/SKILL.md"), &at);
    // Not regular files: a FIFO (reading it would block forever), a folder, devices.
    fs::create_dir_all(skills.join("fifo")).unwrap();
    let fifo = skills.join("fifo/SKILL.md");
    let made_fifo = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    fs::create_dir_all(skills.join("folder/SKILL.md")).unwrap();
    fs::create_dir_all(skills.join("urandom")).unwrap();
    symlink("/dev/urandom", skills.join("urandom/SKILL.md")).unwrap();
    fs::create_dir_all(skills.join("zero")).unwrap();
    symlink("/dev/zero", skills.join("zero/SKILL.md")).unwrap();
    fs::create_dir_all(fx.project.join(".agents/skills")).unwrap();
    symlink("/dev/zero", fx.project.join(".agents/skills/loose.md")).unwrap();

    let mut tally = Tally::default();
    let (cat, json) = check_all(&fx, &mut tally);
    let huge = cat
        .skills
        .iter()
        .find(|s| s.path.ends_with("huge/SKILL.md"))
        .expect("the 100 MB file is listed");
    assert!(
        huge.problems.iter().any(|p| p.code == "file-too-large"),
        "{:?}",
        huge.problems
    );
    let over = cat
        .skills
        .iter()
        .find(|s| s.path.ends_with("over-limit/SKILL.md"));
    assert!(over.is_some_and(|s| s.problems.iter().any(|p| p.code == "file-too-large")));
    assert!(
        cat.skills
            .iter()
            .any(|s| s.name.as_deref() == Some("at-limit")),
        "a file of exactly 1 MiB is read"
    );
    assert!(!json_skills(&json).is_empty());
    for p in [
        skills.join("huge"),
        skills.join("huge/SKILL.md"),
        fifo.clone(),
        skills.join("zero"),
    ] {
        let text = cli_text(&fx, &mut tally, &[OsStr::new("validate"), p.as_os_str()]);
        assert!(!text.trim().is_empty(), "validate {p:?} printed nothing");
    }
    if !made_fifo {
        eprintln!("mkfifo is not available: the FIFO case was skipped");
    }
    tally.report("100 MB SKILL.md and special files", 8);
}

#[test]
fn binary_files_and_nul_bytes() {
    let fx = fixture();
    let skills = fx.project.join(".claude/skills");
    let mut nul = skill_md("nul", "NUL inside").into_bytes();
    nul.splice(10..10, [0u8, 0, 0]);
    write(&skills.join("nul/SKILL.md"), &nul);
    // Pseudo-random bytes (a fixed LCG: reproducible).
    let mut x: u32 = 0x1234_5678;
    let noise: Vec<u8> = (0..64 * 1024)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 24) as u8
        })
        .collect();
    write(&skills.join("noise/SKILL.md"), &noise);
    let mut bad = b"---\nname: bad\ndescription: \xff\xfe\xc3(\n---\n".to_vec();
    bad.extend_from_slice(b"\x1b[31m\x9b\x9d");
    write(&skills.join("bad-utf8/SKILL.md"), &bad);
    let utf16: Vec<u8> = "\u{feff}---\nname: wide\n---\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    write(&skills.join("utf16/SKILL.md"), &utf16);
    write(&skills.join("empty/SKILL.md"), b"");
    write(&fx.project.join(".agents/skills/loose.md"), &noise[..4096]);
    write(
        &fx.home.join(".codex/skills/c1/SKILL.md"),
        b"---\nname: c1\ndescription: x\x85y\xc2\x9b31m\n---\n",
    );

    let mut tally = Tally::default();
    let (cat, json) = check_all(&fx, &mut tally);
    for (dir, code) in [
        ("nul", "file-binary"),
        ("noise", "file-binary"),
        ("bad-utf8", "file-not-utf8"),
        ("utf16", "file-binary"),
    ] {
        let s = cat
            .skills
            .iter()
            .find(|s| s.dir == dir)
            .unwrap_or_else(|| panic!("{dir} is not listed"));
        assert!(
            s.problems.iter().any(|p| p.code == code),
            "{dir}: {:?}",
            s.problems
        );
    }
    assert!(json_skills(&json).len() >= 5);
    tally.report("binary files and NUL bytes", 7);
}

#[test]
fn invalid_utf8_file_and_folder_names() {
    let fx = fixture();
    let skills = fx.project.join(".claude/skills");
    let names: [&[u8]; 4] = [
        b"bad\xff\xfename",
        b"esc\x1b[31mred\x9b",
        b"\xc0\xaf-overlong",
        b"\xe2\x80\xae-raw-rlo-bytes",
    ];
    for n in names {
        let dir = skills.join(OsStr::from_bytes(n));
        write(
            &dir.join("SKILL.md"),
            skill_md("valid-name", "Folder name is hostile."),
        );
    }
    // A loose skill file whose own name is not UTF-8, and a hostile nested folder.
    write(
        &fx.project
            .join(".agents/skills")
            .join(OsStr::from_bytes(b"loose\xff\x1b.md")),
        skill_md("loose", "x"),
    );
    write(
        &fx.project
            .join(".agents/skills/ok")
            .join(OsStr::from_bytes(b"sub\xfe"))
            .join("SKILL.md"),
        skill_md("nested", "x"),
    );

    let mut tally = Tally::default();
    let (cat, json) = check_all(&fx, &mut tally);
    assert!(cat.skills.len() >= 4, "{} skills", cat.skills.len());
    // Empty while the non-UTF-8 JSON bug stands (see check_all).
    let _ = json_skills(&json);
    for n in names {
        let dir = skills.join(OsStr::from_bytes(n));
        cli_text(&fx, &mut tally, &[OsStr::new("validate"), dir.as_os_str()]);
    }
    let why = cli_text(
        &fx,
        &mut tally,
        &[OsStr::new("why"), OsStr::new("valid-name")],
    );
    assert!(why.contains("valid-name"));
    tally.report("invalid UTF-8 names", 6);
}

/// True when permissions do not stop this process (root, or CAP_DAC_OVERRIDE).
fn permissions_ignored(locked_dir: &Path) -> bool {
    fs::read_dir(locked_dir).is_ok()
}

#[test]
fn unreadable_folders_and_files() {
    let fx = fixture();
    let skills = fx.project.join(".claude/skills");
    write(&skills.join("locked/SKILL.md"), skill_md("locked", "x"));
    write(&skills.join("nofile/SKILL.md"), skill_md("nofile", "x"));
    write(
        &fx.project.join(".agents/skills/root-locked/SKILL.md"),
        skill_md("rl", "x"),
    );
    write(&skills.join("ok/SKILL.md"), skill_md("ok", "x"));
    let mode = |p: &Path, m: u32| fs::set_permissions(p, fs::Permissions::from_mode(m)).unwrap();
    mode(&skills.join("locked"), 0o000);
    mode(&skills.join("nofile/SKILL.md"), 0o000);
    mode(&fx.project.join(".agents/skills"), 0o000);
    let privileged = permissions_ignored(&skills.join("locked"));
    if privileged {
        eprintln!(
            "unreadable: running with permission override (root): chmod 000 does not stop reads, \
             so only 'no crash and clean output' is asserted"
        );
    }

    let mut tally = Tally::default();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let (cat, _) = check_all(&fx, &mut tally);
        assert!(cat.skills.iter().any(|s| s.dir == "ok"));
        if !privileged {
            assert!(
                !cat.diagnostics.is_empty(),
                "an unreadable folder gives a diagnostic"
            );
            let nofile = cat.skills.iter().find(|s| s.dir == "nofile").unwrap();
            assert!(nofile.problems.iter().any(|p| p.code == "file-unreadable"));
        }
    }));
    // Restore the modes so that the temp dir can be removed.
    mode(&skills.join("locked"), 0o755);
    mode(&skills.join("nofile/SKILL.md"), 0o644);
    mode(&fx.project.join(".agents/skills"), 0o755);
    if let Err(p) = result {
        std::panic::resume_unwind(p);
    }
    tally.report("unreadable folders and files", 3);
}

#[test]
fn files_that_vanish_or_change_while_scanned() {
    let fx = fixture();
    let skills = fx.project.join(".claude/skills");
    let agents = fx.project.join(".agents/skills");
    write(&skills.join("stable/SKILL.md"), skill_md("stable", "x"));
    fs::create_dir_all(&agents).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let churn = {
        let (stop, skills, agents) = (stop.clone(), skills.clone(), agents.clone());
        std::thread::spawn(move || {
            let mut i = 0u64;
            while !stop.load(Ordering::Relaxed) {
                i += 1;
                let d = skills.join(format!("churn{}", i % 7));
                match i % 6 {
                    // Appear.
                    0 => {
                        let _ = fs::create_dir_all(&d);
                        let _ = fs::write(d.join("SKILL.md"), skill_md(&format!("c{i}"), "x"));
                    }
                    // Vanish.
                    1 => {
                        let _ = fs::remove_dir_all(&d);
                    }
                    // Grow and shrink: rewritten in place, truncated first.
                    2 => {
                        if let Ok(mut f) = fs::File::create(d.join("SKILL.md")) {
                            let _ = f.write_all(
                                skill_md("grow", &"y".repeat((i % 5000) as usize)).as_bytes(),
                            );
                        }
                    }
                    // A file becomes a folder and back.
                    3 => {
                        let p = d.join("SKILL.md");
                        if fs::remove_file(&p).is_ok() {
                            let _ = fs::create_dir(&p);
                        } else {
                            let _ = fs::remove_dir(&p);
                        }
                    }
                    // A folder becomes a symlink loop and back.
                    4 => {
                        let l = agents.join("flip");
                        if fs::remove_file(&l).is_err() {
                            let _ = symlink("..", &l);
                        }
                    }
                    // Rename a whole skill folder.
                    _ => {
                        let _ = fs::rename(&d, skills.join(format!("moved{}", i % 3)));
                    }
                }
            }
            i
        })
    };
    let mut tally = Tally::default();
    for _ in 0..8 {
        let (cat, t) = build(&fx);
        tally.slowest_build = tally.slowest_build.max(t);
        assert!(
            cat.skills
                .iter()
                .any(|s| s.name.as_deref() == Some("stable"))
        );
        check_frames(&fx, &cat, &mut tally);
    }
    for _ in 0..2 {
        cli_text(&fx, &mut tally, &[OsStr::new("list")]);
        cli_text(&fx, &mut tally, &[OsStr::new("check")]);
        let out = cli(&fx, &mut tally, &[OsStr::new("list"), OsStr::new("--json")]);
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("list --json is JSON");
    }
    stop.store(true, Ordering::Relaxed);
    let changes = churn.join().unwrap();
    eprintln!("vanish/change: {changes} changes made during the scans");
    tally.report(
        "files that vanish or change while scanned",
        changes as usize,
    );
}

#[test]
fn yaml_alias_bombs_and_deep_nesting() {
    let fx = fixture();
    let skills = fx.project.join(".claude/skills");
    let fm = |name: &str, extra: &str| format!("---\nname: {name}\ndescription: x\n{extra}\n---\n");
    // Billion laughs: 9 levels of 9 aliases.
    let mut laughs = String::from(
        "a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for i in 1..10 {
        let p = format!("*a{}", i - 1);
        laughs += &format!("a{i}: &a{i} [{}]\n", [p.as_str(); 9].join(","));
    }
    write(&skills.join("laughs/SKILL.md"), fm("laughs", &laughs));
    // Quadratic blow-up: one large anchored string aliased many times (bytes, not nodes).
    let big = "z".repeat(200_000);
    let mut quad = format!("big: &b \"{big}\"\nmany: [");
    quad += &vec!["*b"; 9_000].join(",");
    quad += "]";
    write(&skills.join("quadratic/SKILL.md"), fm("quadratic", &quad));
    // An alias bomb in a key and in metadata, and a merge-key bomb.
    let mut merge = String::from("m0: &m0 {k0: v}\n");
    for i in 1..20 {
        merge += &format!("m{i}: &m{i} {{<<: *m{}, k{i}: *m{}}}\n", i - 1, i - 1);
    }
    write(&skills.join("merge/SKILL.md"), fm("merge", &merge));
    // 100,000-deep flow collections, mixed, and block nesting.
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    write(
        &skills.join("deep-flow/SKILL.md"),
        fm("deep-flow", &format!("x: {deep}")),
    );
    let mixed = "[{a: ".repeat(50_000) + &"}]".repeat(50_000);
    write(
        &skills.join("deep-mixed/SKILL.md"),
        fm("deep-mixed", &format!("x: {mixed}")),
    );
    let block = "- ".repeat(100_000) + "x";
    write(
        &skills.join("deep-block/SKILL.md"),
        fm("deep-block", &format!("x:\n  {block}")),
    );
    let mut indented = String::from("x:\n");
    for i in 0..1_000 {
        indented += &" ".repeat(i + 1);
        indented += "k:\n";
    }
    write(
        &skills.join("deep-indent/SKILL.md"),
        fm("deep-indent", &indented),
    );
    // Unclosed 100k-deep flow and many anchors.
    let unclosed = "[".repeat(100_000);
    write(
        &skills.join("unclosed/SKILL.md"),
        fm("unclosed", &format!("x: {unclosed}")),
    );
    let anchors: String = (0..20_000).map(|i| format!("k{i}: &a{i} v\n")).collect();
    write(&skills.join("anchors/SKILL.md"), fm("anchors", &anchors));

    let mut tally = Tally::default();
    let (cat, json) = check_all(&fx, &mut tally);
    for dir in [
        "laughs",
        "quadratic",
        "deep-flow",
        "deep-mixed",
        "deep-block",
        "unclosed",
    ] {
        let s = cat
            .skills
            .iter()
            .find(|s| s.dir == dir)
            .unwrap_or_else(|| panic!("{dir} is not listed"));
        assert!(
            s.problems.iter().any(|p| p.code == "yaml-invalid"),
            "{dir} gives no yaml-invalid diagnostic: {:?}",
            s.problems
        );
    }
    assert!(json_skills(&json).len() >= 9);
    let text = cli_text(
        &fx,
        &mut tally,
        &[OsStr::new("validate"), skills.join("laughs").as_os_str()],
    );
    assert!(
        text.contains("yaml-invalid") || text.contains("YAML"),
        "{text}"
    );
    tally.report("YAML alias bombs and deep nesting", 9);
}

#[test]
fn one_megabyte_single_line_description() {
    let fx = fixture();
    let skills = fx.project.join(".claude/skills");
    let desc: String = "Use this skill when ".repeat(52_000);
    let text = skill_md("long", &desc);
    assert!(text.len() < skilltui::skill::MAX_FILE_BYTES as usize);
    write(&skills.join("long/SKILL.md"), &text);
    // The same line with hostile characters sprinkled through it, and a 1 MB name.
    let hostile_desc: String = format!("{HOSTILE} ").repeat(20_000);
    write(
        &fx.project.join(".agents/skills/long-hostile/SKILL.md"),
        skill_md(
            "long-hostile",
            &hostile_desc[..hostile_desc.len().min(700_000)],
        ),
    );
    write(
        &fx.home.join(".claude/skills/long-name/SKILL.md"),
        skill_md(&"n".repeat(900_000), "x"),
    );

    let mut tally = Tally::default();
    let (cat, json) = check_all(&fx, &mut tally);
    let long = cat.skills.iter().find(|s| s.dir == "long").unwrap();
    assert_eq!(long.description.as_deref().map(str::len), Some(desc.len()));
    assert!(
        long.problems
            .iter()
            .any(|p| p.code.as_str().starts_with("description")),
        "{:?}",
        long.problems
    );
    let j = json_skills(&json)
        .iter()
        .find(|s| s["dir"] == "long")
        .unwrap();
    assert_eq!(j["description"].as_str().map(str::len), Some(desc.len()));
    tally.report("1 MB single-line description", 3);
}

#[test]
fn control_bidi_and_zero_width_characters_everywhere() {
    // The project folder's own name is hostile too.
    let fx = fixture_in(OsStr::new(&format!(
        "proj-{}",
        HOSTILE.replace('\u{0}', "")
    )));
    let skills = fx.project.join(".claude/skills");
    let agents = fx.project.join(".agents/skills");
    let variants = [
        ("osc52", "\u{1b}]52;c;Y2F0IH4vLnNzaC9pZF9yc2E=\u{7}"),
        ("csi", "\u{1b}[2J\u{1b}[H\u{1b}[31m"),
        ("c1", "\u{9b}2J\u{9d}0;pwned\u{9c}\u{85}"),
        ("bidi", "\u{202e}txt.exe\u{202c}\u{2066}\u{2069}\u{200f}"),
        ("zero-width", "a\u{200b}b\u{200c}\u{200d}\u{2060}\u{feff}"),
        ("cr-bs", "safe\r\u{8}\u{8}\u{7f}evil\u{2028}\u{2029}"),
    ];
    let mut hostile = 0;
    for (tag, s) in variants {
        let name = format!("{tag}{s}");
        // In the name, the description and the folder name.
        write(
            &skills.join(&name).join("SKILL.md"),
            format!(
                "---\nname: {}\ndescription: {}\nlicense: {}\ncompatibility: {}\nmetadata:\n  {}: {}\nallowed-tools: {}\n{}: extra\n---\n# {s}\n{s}\n",
                dq(&name),
                dq(&format!("desc {s} {HOSTILE}")),
                dq(s),
                dq(s),
                dq(s),
                dq(s),
                dq(s),
                dq(&format!("key{s}"))
            ),
        );
        // A duplicate hostile key (its YAML error message quotes the key) and a raw one.
        write(
            &agents.join(format!("dup-{tag}")).join("SKILL.md"),
            format!("---\nname: {0}\n{0}: 1\n{0}: 2\n---\n", dq(&name)),
        );
        write(
            &agents.join(format!("raw-{tag}")).join("SKILL.md"),
            format!("---\nname: raw{s}\ndescription: {s}: {s}\n---\n"),
        );
        hostile += 3;
    }
    write(
        &fx.home.join(".claude/skills/evil/SKILL.md"),
        skill_md(HOSTILE, HOSTILE),
    );
    write(
        &fx.home.join(".codex/skills").join(HOSTILE).join("SKILL.md"),
        skill_md("codex-evil", "x"),
    );
    // A symlink loop whose path is hostile (the diagnostic quotes it).
    fs::create_dir_all(skills.join(format!("loop{HOSTILE}"))).unwrap();
    symlink("..", skills.join(format!("loop{HOSTILE}/back"))).unwrap();
    hostile += 4;

    let mut tally = Tally::default();
    let (cat, json) = check_all(&fx, &mut tally);
    // JSON keeps the original text.
    let evil = json_skills(&json)
        .iter()
        .find(|s| s["name"].as_str() == Some(HOSTILE))
        .expect("list --json keeps the hostile name as written");
    assert_eq!(evil["description"].as_str(), Some(HOSTILE));
    for (tag, s) in variants {
        let name = format!("{tag}{s}");
        assert!(
            json_skills(&json)
                .iter()
                .any(|j| j["name"].as_str() == Some(&name)),
            "{tag}: name not kept in JSON"
        );
        assert!(
            cat.skills.iter().any(|k| k.dir == name),
            "{tag}: folder not listed"
        );
        let why = cli_text(&fx, &mut tally, &[OsStr::new("why"), OsStr::new(&name)]);
        assert!(!why.trim().is_empty());
    }
    let why = cli_text(&fx, &mut tally, &[OsStr::new("why"), OsStr::new(HOSTILE)]);
    assert!(
        why.contains("\\u{1b}"),
        "the escape is shown visibly: {why}"
    );
    tally.report("control, bidi and zero-width characters", hostile);
}
