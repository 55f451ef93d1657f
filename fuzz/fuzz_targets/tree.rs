//! The whole pipeline on small generated trees: the input describes a few files, folders and
//! symlinks under a project and a home (paths from a fixed alphabet, contents from the input);
//! they are written to a temp dir, the catalog is built for every built-in agent, listed as JSON
//! and drawn by the explorer. No panic, and no control or invisible character reaches a frame.
//!
//! Input: a flags byte, then records `[kind, where, segs, len, content…]`, at most 8 records.

#![no_main]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use libfuzzer_sys::fuzz_target;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use skilltui::agents::AgentModel;
use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::tui::app::App;
use skilltui::tui::update::{Msg, update};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

const MAX_RECORDS: usize = 8;

/// Root folders (relative to the project or the home) that the built-in agents scan.
const ROOTS: [&str; 16] = [
    "",
    ".claude/skills",
    ".agents/skills",
    ".codex/skills",
    ".github/skills",
    ".opencode/skill",
    ".opencode/skills",
    ".cursor/skills",
    ".pi/skills",
    ".agent/skills",
    ".claude/skill",
    ".gemini/skills",
    ".config/opencode/skills",
    ".pi/agent/skills",
    ".copilot/skills",
    ".codex/skills/.system",
];

/// Folder names below a root.
const SEGS: [&str; 8] = [
    "a",
    "b",
    ".hidden",
    "node_modules",
    ".git",
    "skills",
    "x y",
    "\u{1b}[31mred\u{202e}",
];

const FILES: [&str; 4] = ["SKILL.md", "skill.md", "notes.md", ".gitignore"];

/// Where a symlink points (relative ones stay inside the tree; the last leaves the root).
const LINKS: [&str; 4] = ["..", ".", "../..", "/nonexistent/skilltui-fuzz"];

fn models() -> &'static Arc<Vec<AgentModel>> {
    static MODELS: OnceLock<Arc<Vec<AgentModel>>> = OnceLock::new();
    MODELS.get_or_init(|| Arc::new(skilltui::agents::builtin()))
}

fn path_of(base: &Path, where_: u8, segs: u8) -> PathBuf {
    let mut p = base.join(ROOTS[(where_ >> 1) as usize % ROOTS.len()]);
    let s1 = (segs & 0x0f) as usize;
    let s2 = (segs >> 4) as usize;
    for s in [s1, s2] {
        if s < SEGS.len() {
            p.push(SEGS[s]);
        }
    }
    p
}

fn frame_text(app: &App) -> String {
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
}

fn assert_clean(frame: &str) {
    for c in frame.chars() {
        if c == '\n' {
            continue;
        }
        assert!(
            !skilltui::sanitize::is_unsafe(c, false),
            "{c:?} reached a frame:\n{frame}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, mut rest)) = data.split_first() else {
        return;
    };
    // tmpfs when there is one: creating and removing folders on disk dominates otherwise.
    let tmp = tempfile::Builder::new()
        .tempdir_in("/dev/shm")
        .or_else(|_| tempfile::tempdir())
        .unwrap();
    // Flag 1: the home holds the project (agents that stop below the home see a difference).
    let home = tmp.path().join("home");
    let project = if flags & 1 != 0 {
        home.join("proj")
    } else {
        tmp.path().join("project")
    };
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    // Flag 2: the project is a git work tree.
    if flags & 2 != 0 {
        let _ = std::fs::create_dir_all(project.join(".git"));
    }
    let mut records = 0;
    while rest.len() >= 4 && records < MAX_RECORDS {
        records += 1;
        let (kind, where_, segs, len) = (rest[0], rest[1], rest[2], rest[3] as usize * 4);
        let content = &rest[4..(4 + len).min(rest.len())];
        rest = &rest[(4 + len).min(rest.len())..];
        let base = if where_ & 1 == 0 { &project } else { &home };
        let dir = path_of(base, where_, segs);
        let _ = std::fs::create_dir_all(dir.parent().unwrap_or(&dir));
        match kind & 3 {
            // A file in the folder.
            0 | 1 => {
                let _ = std::fs::create_dir_all(&dir);
                let name = FILES[(kind >> 2) as usize % FILES.len()];
                let _ = std::fs::write(dir.join(name), content);
            }
            // The folder is a symlink.
            2 => {
                let target = LINKS[(kind >> 2) as usize % LINKS.len()];
                let _ = std::os::unix::fs::symlink(target, &dir);
            }
            // A SKILL.md that is a symlink to a file elsewhere in the tree (maybe missing).
            _ => {
                let _ = std::fs::create_dir_all(&dir);
                let other = path_of(base, kind, segs.rotate_left(4)).join("SKILL.md");
                let _ = std::os::unix::fs::symlink(other, dir.join("SKILL.md"));
            }
        }
    }
    let env = Env::new(&project, &home);
    let cat = Catalog::build(models(), &env);
    let json = serde_json::to_string(&cat).unwrap();
    let _: serde_json::Value = serde_json::from_str(&json).unwrap();
    // Flag 4: draw the explorer (skills list, the three detail tabs, tabs 2-5).
    if flags & 4 != 0 {
        let mut app = App::new(models().clone(), env, 100, 30);
        update(&mut app, Msg::Catalog(Arc::new(cat)));
        let key = |app: &mut App, code: KeyCode| {
            update(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        };
        assert_clean(&frame_text(&app));
        key(&mut app, KeyCode::Enter);
        for _ in 0..3 {
            assert_clean(&frame_text(&app));
            key(&mut app, KeyCode::Tab);
        }
        key(&mut app, KeyCode::Esc);
        for tab in ['2', '3', '4', '5'] {
            key(&mut app, KeyCode::Char(tab));
            assert_clean(&frame_text(&app));
        }
    }
});
