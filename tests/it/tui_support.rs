//! Shared by the explorer tests: an App on the demo catalog, and frames as text.

#![allow(dead_code)]

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use skilltui::catalog::Catalog;
use skilltui::demo::Demo;
use skilltui::env::Env;
use skilltui::tui::app::App;
use skilltui::tui::update::{Msg, update};
use std::path::Path;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The demo at a fixed path (per test), so that frames are reproducible.
pub fn demo(name: &str) -> Demo {
    Demo::create_at(Path::new(&format!("/tmp/skilltui-snap/{name}"))).unwrap()
}

pub fn app(demo: &Demo, w: u16, h: u16) -> App {
    // The seven seed agents: what the explorer shows when no agent is in use (frames keep their width).
    let models: Vec<_> = skilltui::agents::builtin()
        .into_iter()
        .filter(|m| skilltui::agents::SEED_IDS.contains(&m.id.as_str()))
        .collect();
    let env = Env::new(&demo.project, &demo.home);
    let cat = Catalog::build(&models, &env);
    let mut app = App::new(Arc::new(models), env, w, h);
    update(&mut app, Msg::Catalog(Arc::new(cat)));
    app
}

pub fn key(app: &mut App, code: KeyCode) {
    update(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

pub fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
}

pub fn ctrl(app: &mut App, c: char) {
    update(
        app,
        Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
    );
}

/// What the explorer's run loop does, here at once: runs the jobs among `cmds` and, when one asks
/// for a rescan, builds the catalog and its problems and sends them as the watcher's snapshot.
pub fn run_jobs(app: &mut App, cmds: Vec<skilltui::tui::effects::Cmd>) {
    for cmd in skilltui::tui::effects::run_jobs_now(app, cmds) {
        if matches!(cmd, skilltui::tui::effects::Cmd::Rescan) {
            let cat = Catalog::build(&app.models, &app.env);
            let problems = skilltui::tui::app::Problems::new(&cat, &app.models);
            let texts = skilltui::tui::app::SkillTexts::new(&cat, app.catalog.as_deref(), &app.env);
            update(
                app,
                Msg::Snapshot {
                    catalog: Arc::new(cat),
                    findings: skilltui::tui::app::SnapshotFindings::Made(Arc::new(problems)),
                    texts: Some(texts),
                    update: None,
                },
            );
        }
    }
}

/// Renders the app and returns the screen as lines of text.
pub fn frame(app: &App) -> String {
    let mut t = Terminal::new(TestBackend::new(app.width, app.height)).unwrap();
    t.draw(|f| skilltui::tui::draw::draw(f, app)).unwrap();
    let buf = t.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        for x in 0..buf.area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Selects the row of the skill at `rel` (relative to the demo project or home).
pub fn select(app: &mut App, demo: &Demo, rel: &str) {
    let target = if let Some(r) = rel.strip_prefix("~/") {
        demo.home.join(r)
    } else {
        demo.project.join(rel)
    };
    let i = app
        .rows
        .iter()
        .position(|r| app.skill(r.skill).unwrap().path == target)
        .unwrap_or_else(|| panic!("{rel} is not listed"));
    app.select(i);
}

/// A generated real-shaped tree (`skilltui::gen`, fixed seed) at a fixed path per test, so
/// that frames are reproducible.
pub fn generated(name: &str, skills: usize) -> skilltui::r#gen::Tree {
    let out = Path::new("/tmp/skilltui-snap").join(name);
    let _ = std::fs::remove_dir_all(&out);
    let (tree, _) = skilltui::r#gen::generate(
        &out,
        &skilltui::r#gen::Options {
            skills,
            seed: 0x5eed,
        },
    )
    .unwrap();
    tree
}

pub fn app_at(project: &Path, home: &Path, w: u16, h: u16) -> App {
    // The seven seed agents: what the explorer shows when no agent is in use (frames keep their width).
    let models: Vec<_> = skilltui::agents::builtin()
        .into_iter()
        .filter(|m| skilltui::agents::SEED_IDS.contains(&m.id.as_str()))
        .collect();
    let env = Env::new(project, home);
    let cat = Catalog::build(&models, &env);
    let mut app = App::new(Arc::new(models), env, w, h);
    update(&mut app, Msg::Catalog(Arc::new(cat)));
    app
}

/// The header line of a frame.
pub fn header(frame: &str) -> &str {
    frame.lines().next().unwrap_or("")
}

/// Renders the app as the terminal shows it with or without colour (`skilltui::tui::paint`),
/// and returns the screen followed by a map of its looks, one character per cell: without
/// colour `R` reverse video, `B` bold and underlined, `b` bold, `u` underlined, `.` plain; with
/// colour the foreground's initial (`g`reen, `y`ellow, `r`ed, `c`yan, `m`agenta, `d`ark grey,
/// `w`hite, `.` default), upper case over a background.
pub fn looks(app: &App, color: bool) -> String {
    use ratatui::style::{Color, Modifier};
    let mut t = Terminal::new(TestBackend::new(app.width, app.height)).unwrap();
    t.draw(|f| skilltui::tui::paint(f, app, color)).unwrap();
    let buf = t.backend().buffer();
    let mut text = String::new();
    let mut map = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut row = String::new();
        for x in 0..buf.area.width {
            let c = &buf[(x, y)];
            line.push_str(c.symbol());
            let m = c.modifier;
            let ch = if color {
                let f = match c.fg {
                    Color::Green => 'g',
                    Color::Yellow => 'y',
                    Color::Red => 'r',
                    Color::Cyan => 'c',
                    Color::Magenta => 'm',
                    Color::DarkGray => 'd',
                    Color::White => 'w',
                    Color::Blue => 'l',
                    _ => '.',
                };
                if c.bg != Color::Reset {
                    f.to_ascii_uppercase()
                } else {
                    f
                }
            } else if m.contains(Modifier::REVERSED) {
                'R'
            } else if m.contains(Modifier::BOLD) && m.contains(Modifier::UNDERLINED) {
                'B'
            } else if m.contains(Modifier::BOLD) {
                'b'
            } else if m.contains(Modifier::UNDERLINED) {
                'u'
            } else {
                '.'
            };
            row.push(ch);
        }
        text.push_str(line.trim_end());
        text.push('\n');
        map.push_str(row.trim_end_matches('.'));
        map.push('\n');
    }
    format!("{text}--- looks ---\n{map}")
}
