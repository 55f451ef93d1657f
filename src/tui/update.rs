//! The one function that changes the explorer's state: `update(app, msg)`.

use super::app::{ActionCmd, ActionUi, App, DetailTab, Filter, Focus, Sort, Tab};
use super::layout;
use crate::actions::{Mode, Request};
use crate::agents::Scope;
use crate::catalog::Catalog;
use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use std::sync::Arc;

/// Everything that can happen to the explorer.
#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// A new snapshot from the scan worker.
    Catalog(Arc<Catalog>),
    /// The scan worker failed (the message says why).
    ScanFailed(String),
    /// A snapshot from the watcher, with what changed.
    Update(crate::watch::Update),
    /// A snapshot with its findings, both made off the UI thread (by the watcher or the scan
    /// worker); `update` says what changed when it came from the watcher.
    Snapshot {
        catalog: Arc<Catalog>,
        problems: Arc<super::app::Problems>,
        update: Option<Box<crate::watch::Update>>,
    },
    /// The watcher reports a problem (not fatal).
    WatchWarning(String),
    /// The watcher thread ended; the explorer restarts it.
    WatcherDied(String),
    /// Time passes (spinner, change marks).
    Tick,
    /// A planned action with its preview lines (diff, notes, verdicts), or why it is refused.
    ActionPlanned(Result<(Box<crate::actions::Plan>, Vec<String>), String>),
    /// The quick fixes that apply to a SKILL.md.
    ActionFixes(std::path::PathBuf, Result<Vec<crate::actions::Fix>, String>),
    /// An action applied (journal id, title) or undone, or why not.
    ActionDone {
        result: Result<(String, String), String>,
        undo: bool,
    },
}

/// Tab titles as drawn in the tab bar: ` 1 Skills ` … separated by `│`.
pub fn tab_spans() -> Vec<(Tab, String)> {
    Tab::ALL
        .iter()
        .enumerate()
        .map(|(i, t)| (*t, format!(" {} {} ", i + 1, t.title())))
        .collect()
}

/// Detail tab titles as drawn on the detail pane's first line.
pub fn detail_tab_spans() -> Vec<(DetailTab, String)> {
    DetailTab::ALL
        .iter()
        .map(|t| (*t, format!(" {} ", t.title())))
        .collect()
}

fn hit<T: Copy>(spans: &[(T, String)], x0: u16, x: u16) -> Option<T> {
    let mut pos = x0;
    for (t, s) in spans {
        let w = s.chars().count() as u16;
        if x >= pos && x < pos + w {
            return Some(*t);
        }
        pos += w + 1;
    }
    None
}

fn contains(r: Option<Rect>, x: u16, y: u16) -> bool {
    r.is_some_and(|r| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height)
}

pub fn update(app: &mut App, msg: Msg) {
    match msg {
        Msg::Tick => {
            app.spinner = app.spinner.wrapping_add(1);
            app.changed_ticks = app.changed_ticks.saturating_sub(1);
            if app.changed_ticks == 0 {
                app.changed.clear();
            }
            if let Some((_, _, ticks)) = app.last_update.as_mut() {
                *ticks += 1;
            }
        }
        Msg::Update(u) => {
            note_update(app, &u);
            app.set_catalog(u.catalog);
        }
        Msg::Snapshot {
            catalog,
            problems,
            update,
        } => {
            if let Some(u) = &update {
                note_update(app, u);
            }
            app.set_snapshot(catalog, Some(problems));
        }
        Msg::WatchWarning(w) => app.watch_note = Some(w),
        Msg::WatcherDied(why) => app.watch_note = Some(format!("{why}; restarting the watcher")),
        Msg::Resize(w, h) => {
            app.width = w;
            app.height = h;
            app.clamp_offset();
        }
        Msg::Catalog(cat) => app.set_catalog(cat),
        Msg::ScanFailed(e) => app.scan = super::app::ScanState::Failed(e),
        Msg::Key(k) if k.kind != KeyEventKind::Release => key(app, k),
        Msg::Key(_) => {}
        Msg::Mouse(m) => mouse(app, m),
        Msg::ActionPlanned(r) => {
            app.action = Some(match r {
                Ok((plan, lines)) => ActionUi::Preview {
                    plan,
                    lines,
                    scroll: 0,
                },
                Err(e) => ActionUi::Message {
                    title: "Refused".into(),
                    text: e,
                },
            });
        }
        Msg::ActionFixes(skill, r) => {
            app.action = Some(match r {
                Ok(fixes) if fixes.is_empty() => ActionUi::Message {
                    title: "Quick fixes".into(),
                    text: "No quick fix applies to this skill.".into(),
                },
                Ok(fixes) => {
                    let mut options: Vec<(String, Request)> = fixes
                        .iter()
                        .map(|f| {
                            (
                                format!("{}: {}", f.code, f.title),
                                Request::Fix {
                                    skill: skill.clone(),
                                    only: vec![f.code.to_string()],
                                },
                            )
                        })
                        .collect();
                    if fixes.len() > 1 {
                        options.push((
                            "all of them".into(),
                            Request::Fix {
                                skill: skill.clone(),
                                only: Vec::new(),
                            },
                        ));
                    }
                    ActionUi::Choose {
                        title: "Quick fix".into(),
                        options,
                        cursor: 0,
                    }
                }
                Err(e) => ActionUi::Message {
                    title: "Refused".into(),
                    text: e,
                },
            });
        }
        Msg::ActionDone { result, undo } => {
            app.action = Some(match result {
                Ok((id, title)) => {
                    if undo {
                        app.session_actions.retain(|x| x != &id);
                    } else {
                        app.session_actions.push(id);
                    }
                    app.rescan_requested = true;
                    app.scan = super::app::ScanState::Scanning;
                    ActionUi::Message {
                        title: if undo { "Undone" } else { "Done" }.into(),
                        text: if undo {
                            format!("Undone: {title}")
                        } else {
                            format!("{title}\n\nu undoes it.")
                        },
                    }
                }
                Err(e) => ActionUi::Message {
                    title: "Refused".into(),
                    text: e,
                },
            });
        }
    }
}

/// The change marks and the "updated" note of a watcher update.
fn note_update(app: &mut App, u: &crate::watch::Update) {
    if u.generation > 0 {
        app.changed = u.changed.iter().cloned().collect();
        app.changed_ticks = super::app::CHANGE_MARK_TICKS;
        app.last_update = Some((u.generation, u.changed.len(), 0));
    }
    app.watch_note = None;
}

/// Keys while the action overlay is open.
fn action_key(app: &mut App, k: KeyEvent) {
    let Some(ui) = app.action.as_mut() else {
        return;
    };
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    match ui {
        ActionUi::Input {
            skill,
            text,
            folder,
        } => match k.code {
            KeyCode::Esc => app.action = None,
            KeyCode::Tab => *folder = !*folder,
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Char('u') if ctrl => text.clear(),
            KeyCode::Char(c) if !ctrl => text.push(c),
            KeyCode::Enter => {
                let req = Request::Rename {
                    skill: skill.clone(),
                    name: text.trim().to_string(),
                    folder: *folder,
                };
                app.action = Some(ActionUi::Busy("planning…".into()));
                app.action_cmd = Some(ActionCmd::Plan(req));
            }
            _ => {}
        },
        ActionUi::Choose {
            options, cursor, ..
        } => match k.code {
            KeyCode::Esc | KeyCode::Char('q') => app.action = None,
            KeyCode::Down | KeyCode::Char('j') => {
                *cursor = (*cursor + 1).min(options.len().saturating_sub(1))
            }
            KeyCode::Up | KeyCode::Char('k') => *cursor = cursor.saturating_sub(1),
            KeyCode::Char('c') | KeyCode::Char('l') | KeyCode::Char('m') => {
                // Move, copy or link: switch every option's mode.
                let mode = match k.code {
                    KeyCode::Char('c') => Mode::Copy,
                    KeyCode::Char('l') => Mode::Link,
                    _ => Mode::Move,
                };
                for (label, req) in options.iter_mut() {
                    if let Request::Move { mode: m, root, .. } = req {
                        *m = mode;
                        *label = format!("{} to {}", mode.verb(), style_path(&app.env, root));
                    }
                }
            }
            KeyCode::Enter | KeyCode::Char('y') => {
                if let Some((_, req)) = options.get(*cursor) {
                    let req = req.clone();
                    app.action = Some(ActionUi::Busy("planning…".into()));
                    app.action_cmd = Some(ActionCmd::Plan(req));
                }
            }
            _ => {}
        },
        ActionUi::Busy(_) => {}
        ActionUi::Preview { plan, scroll, .. } => match k.code {
            KeyCode::Esc | KeyCode::Char('n') | KeyCode::Char('q') => app.action = None,
            KeyCode::Down | KeyCode::Char('j') => *scroll = scroll.saturating_add(1),
            KeyCode::Up | KeyCode::Char('k') => *scroll = scroll.saturating_sub(1),
            KeyCode::PageDown => *scroll = scroll.saturating_add(10),
            KeyCode::PageUp => *scroll = scroll.saturating_sub(10),
            KeyCode::Enter | KeyCode::Char('y') => {
                let plan = plan.clone();
                app.action = Some(ActionUi::Busy("applying…".into()));
                app.action_cmd = Some(ActionCmd::Apply(plan));
            }
            _ => {}
        },
        ActionUi::Message { .. } => app.action = None,
    }
}

fn style_path(env: &crate::env::Env, p: &std::path::Path) -> String {
    crate::cli::context::show_path(env, p)
}

/// The action keys of the Skills tab: R rename, M move/copy/link, F quick fix, W make this copy
/// win for the agent shown (`a`), D delete to trash, u undo.
fn start_action(app: &mut App, c: char) -> bool {
    if c == 'u' {
        app.action = Some(match app.session_actions.last() {
            Some(id) => {
                app.action_cmd = Some(ActionCmd::Undo(id.clone()));
                ActionUi::Busy("undoing…".into())
            }
            None => ActionUi::Message {
                title: "Undo".into(),
                text: "No action of this session to undo (`skilltui undo` reverts older ones)."
                    .into(),
            },
        });
        return true;
    }
    if app.tab != Tab::Skills || !matches!(c, 'R' | 'M' | 'F' | 'W' | 'D') {
        return false;
    }
    let Some(s) = app.current() else {
        return true;
    };
    let skill = s.path.clone();
    let (label, root) = (s.label().to_string(), s.root.clone());
    match c {
        'R' => {
            app.action = Some(ActionUi::Input {
                skill,
                text: label,
                folder: true,
            })
        }
        'M' => {
            let roots: Vec<(String, Request)> = app
                .catalog
                .as_ref()
                .map(|cat| {
                    cat.roots
                        .iter()
                        .filter(|r| r.scope != Scope::System && Some(&r.path) != root.as_ref())
                        .map(|r| {
                            (
                                format!("move to {}", style_path(&app.env, &r.path)),
                                Request::Move {
                                    skill: skill.clone(),
                                    root: r.path.clone(),
                                    mode: Mode::Move,
                                },
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            app.action = Some(ActionUi::Choose {
                title: "Move (m), copy (c) or link (l) to".into(),
                options: roots,
                cursor: 0,
            });
        }
        'F' => {
            app.action = Some(ActionUi::Busy("looking for quick fixes…".into()));
            app.action_cmd = Some(ActionCmd::Fixes(skill));
        }
        'W' => match app.agent_filter {
            Some(i) => {
                let agent = app.models[i].id.clone();
                app.action = Some(ActionUi::Busy("finding the smallest change…".into()));
                app.action_cmd = Some(ActionCmd::Plan(Request::Win { skill, agent }));
            }
            None => {
                app.action = Some(ActionUi::Message {
                    title: "Make this copy win".into(),
                    text: "Pick the agent first: `a` shows one agent's column.".into(),
                })
            }
        },
        'D' => {
            app.action = Some(ActionUi::Busy("planning…".into()));
            app.action_cmd = Some(ActionCmd::Plan(Request::Delete { skill }));
        }
        _ => {}
    }
    true
}

fn move_by(app: &mut App, delta: isize) {
    match (app.tab, app.focus) {
        // The skills of the selected cause.
        (Tab::Problems, Focus::Detail) => {
            let n = app.current_group().map_or(0, |(_, a)| a.len());
            app.problem_cursor = (app.problem_cursor as isize + delta)
                .clamp(0, n.saturating_sub(1) as isize) as usize;
        }
        (_, Focus::Detail) => scroll_detail(app, delta),
        (Tab::Skills, Focus::List) => {
            let to = (app.cursor as isize + delta).max(0) as usize;
            app.select(to);
        }
        _ => {
            let n = app.side_len();
            if n > 0 {
                let to = (app.side_cursor as isize + delta).clamp(0, n as isize - 1) as usize;
                if to != app.side_cursor {
                    app.detail_scroll = 0;
                    app.problem_cursor = 0;
                }
                app.side_cursor = to;
            }
        }
    }
}

/// Another tab, from its first item; the Problems tab returns to the cause (and skill) that
/// Enter opened a skill from.
fn switch_tab(app: &mut App, t: Tab) {
    app.tab = t;
    app.side_cursor = 0;
    app.detail_scroll = 0;
    app.focus = Focus::List;
    if t == Tab::Problems {
        app.problem_cursor = 0;
        if let Some((g, c)) = app.problem_return.take() {
            let groups = app.problems.groups.len();
            if g < groups {
                app.side_cursor = g;
                let n = app.current_group().map_or(0, |(_, a)| a.len());
                app.problem_cursor = c.min(n.saturating_sub(1));
                app.focus = Focus::Detail;
            }
        }
    }
}

fn scroll_detail(app: &mut App, delta: isize) {
    app.detail_scroll = (app.detail_scroll as isize + delta).clamp(0, u16::MAX as isize) as u16;
}

fn page(app: &App) -> isize {
    (app.list_height().max(2) - 1) as isize
}

/// A new query: the best match is selected (as in fzf), the list starts at the top.
fn set_query(app: &mut App, q: String) {
    app.search.set_query(q);
    app.selected = None;
    app.cursor = 0;
    app.offset = 0;
    app.refresh_rows();
}

fn key(app: &mut App, k: KeyEvent) {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl && matches!(k.code, KeyCode::Char('c')) {
        app.quit = true;
        return;
    }
    app.source_note = None;
    if app.help {
        // `?` turns to the evidence legend; any other key closes the help; `q` still quits.
        if matches!(k.code, KeyCode::Char('?')) && !app.help_legend {
            app.help_legend = true;
            return;
        }
        if matches!(k.code, KeyCode::Char('q')) {
            app.quit = true;
        }
        app.help = false;
        app.help_legend = false;
        return;
    }
    if app.action.is_some() {
        action_key(app, k);
        return;
    }
    if app.search.editing {
        match k.code {
            KeyCode::Esc => {
                app.search.editing = false;
                app.search.set_query(String::new());
                app.refresh_rows();
            }
            KeyCode::Enter => app.search.editing = false,
            KeyCode::Backspace => {
                let mut q = app.search.query.clone();
                q.pop();
                set_query(app, q);
            }
            KeyCode::Char('u') if ctrl => set_query(app, String::new()),
            KeyCode::Char(c) if !ctrl => {
                let mut q = app.search.query.clone();
                q.push(c);
                set_query(app, q);
            }
            KeyCode::Down => move_by(app, 1),
            KeyCode::Up => move_by(app, -1),
            _ => {}
        }
        return;
    }
    if let KeyCode::Char(c) = k.code
        && !ctrl
        && start_action(app, c)
    {
        return;
    }
    match k.code {
        KeyCode::Char('q') => app.quit = true,
        KeyCode::Esc => {
            if app.focus == Focus::Detail {
                app.focus = Focus::List;
            } else if !app.search.query.is_empty() {
                app.search.set_query(String::new());
                app.refresh_rows();
            } else {
                app.quit = true;
            }
        }
        KeyCode::Char('?') => app.help = true,
        KeyCode::Char(c @ ('o' | 'y')) if !ctrl => source_key(app, c == 'o'),
        KeyCode::Char(c @ '1'..='6') => {
            let t = Tab::ALL[(c as u8 - b'1') as usize];
            if t != app.tab {
                switch_tab(app, t);
            }
        }
        // On a cause's skills, Enter opens the skill in the Skills tab with its Why pane.
        KeyCode::Enter if app.tab == Tab::Problems && app.focus == Focus::Detail => {
            if let Some(&skill) = app
                .current_group()
                .and_then(|(_, a)| a.get(app.problem_cursor))
                .map(|a| &a.skill)
            {
                app.open_skill(skill);
            }
        }
        KeyCode::Tab | KeyCode::BackTab if app.tab == Tab::Skills => {
            let i = DetailTab::ALL
                .iter()
                .position(|t| *t == app.detail_tab)
                .unwrap_or(0);
            let n = DetailTab::ALL.len();
            let j = if k.code == KeyCode::Tab {
                (i + 1) % n
            } else {
                (i + n - 1) % n
            };
            app.detail_tab = DetailTab::ALL[j];
            app.detail_scroll = 0;
        }
        KeyCode::Down | KeyCode::Char('j') => move_by(app, 1),
        KeyCode::Up | KeyCode::Char('k') => move_by(app, -1),
        KeyCode::PageDown => move_by(app, page(app)),
        KeyCode::PageUp => move_by(app, -page(app)),
        KeyCode::Char('d') if ctrl => move_by(app, page(app) / 2),
        KeyCode::Char('u') if ctrl => move_by(app, -page(app) / 2),
        KeyCode::Home | KeyCode::Char('g') => move_by(app, -(1 << 30)),
        KeyCode::End | KeyCode::Char('G') => move_by(app, 1 << 30),
        KeyCode::Enter | KeyCode::Right | KeyCode::Char('l') if app.tab != Tab::Roots => {
            app.focus = Focus::Detail;
        }
        KeyCode::Left | KeyCode::Char('h') => app.focus = Focus::List,
        KeyCode::Char('/') => {
            app.tab = Tab::Skills;
            app.focus = Focus::List;
            app.search.editing = true;
            app.clamp_offset();
        }
        KeyCode::Char('s') => {
            app.sort = match app.sort {
                Sort::Name => Sort::Problems,
                Sort::Problems => Sort::Scope,
                Sort::Scope => Sort::Name,
            };
            app.refresh_rows();
        }
        KeyCode::Char('f') => {
            app.filter = match app.filter {
                Filter::All => Filter::Problems,
                Filter::Problems => Filter::Collisions,
                Filter::Collisions => Filter::All,
            };
            app.refresh_rows();
        }
        // Every agent's column, or back to the default selection (the agents in use).
        KeyCode::Char('A') => {
            app.all_agents = !app.all_agents;
            app.agent_filter = None;
            app.refresh_rows();
        }
        KeyCode::Char('a') => {
            let n = app.models.len();
            app.agent_filter = match app.agent_filter {
                None if n > 0 => Some(0),
                Some(i) if i + 1 < n => Some(i + 1),
                _ => None,
            };
            app.refresh_rows();
        }
        KeyCode::Char('p') => {
            app.scope_filter = match app.scope_filter {
                None => Some(Scope::Project),
                Some(Scope::Project) => Some(Scope::User),
                Some(Scope::User) => Some(Scope::System),
                Some(_) => None,
            };
            app.refresh_rows();
        }
        KeyCode::Char('r') => {
            app.rescan_requested = true;
            app.scan = super::app::ScanState::Scanning;
        }
        _ => {}
    }
}

/// `o` opens, `y` copies the source of the selected skill's decisive reason; a source without
/// a URL (an oracle case, an inference) is shown instead.
fn source_key(app: &mut App, open: bool) {
    let Some((rule, src)) = app.current_source() else {
        app.source_note = Some("no reason with a source here".into());
        return;
    };
    match src.url.clone() {
        Some(url) => {
            app.source_note = Some(format!(
                "{} {rule}: {url}",
                if open { "opening" } else { "copied" }
            ));
            app.source_cmd = Some(if open {
                super::app::SourceCmd::Open(url)
            } else {
                super::app::SourceCmd::Copy(url)
            });
        }
        None => app.source_note = Some(format!("{rule}: {}", src.render())),
    }
}

fn mouse(app: &mut App, m: MouseEvent) {
    if app.action.is_some() {
        return;
    }
    let a = layout::areas(app);
    let (x, y) = (m.column, m.row);
    match m.kind {
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let d = if m.kind == MouseEventKind::ScrollDown {
                3
            } else {
                -3
            };
            if contains(a.detail, x, y) && app.tab == Tab::Problems {
                let saved = app.focus;
                app.focus = Focus::Detail;
                move_by(app, d);
                app.focus = saved;
            } else if contains(a.detail, x, y) {
                scroll_detail(app, d);
            } else if contains(a.list, x, y) {
                let saved = app.focus;
                app.focus = Focus::List;
                move_by(app, d);
                app.focus = saved;
            }
        }
        MouseEventKind::Down(MouseButton::Left) => {
            if app.help {
                app.help = false;
                return;
            }
            if y == a.tabs.y {
                if let Some(t) = hit(&tab_spans(), a.tabs.x, x)
                    && t != app.tab
                {
                    switch_tab(app, t);
                }
                return;
            }
            if let Some(l) = a.list.filter(|_| contains(a.list, x, y)) {
                app.focus = Focus::List;
                // Border, then a header line, then the rows.
                let first = l.y + 2;
                if y >= first {
                    let i = (y - first) as usize;
                    match app.tab {
                        Tab::Skills => app.select(app.offset + i),
                        _ => {
                            let n = app.side_len();
                            let i = i + layout::side_offset(app);
                            if i < n {
                                if i != app.side_cursor {
                                    app.problem_cursor = 0;
                                }
                                app.side_cursor = i;
                                app.detail_scroll = 0;
                            }
                        }
                    }
                }
                return;
            }
            if let Some(d) = a.detail.filter(|_| contains(a.detail, x, y)) {
                app.focus = Focus::Detail;
                if app.tab == Tab::Skills
                    && y == d.y + 1
                    && let Some(t) = hit(&detail_tab_spans(), d.x + 1, x)
                {
                    app.detail_tab = t;
                    app.detail_scroll = 0;
                }
            }
        }
        _ => {}
    }
}
