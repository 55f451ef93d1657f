//! The one function that changes the explorer's state: `update(app, msg)`. It does no I/O: it
//! returns the effects it wants (`Cmd`: start a job on the worker, rescan, copy, open the
//! editor) for the run loop, and keys act through the key table (`keys.rs`).

use super::app::{
    ActionUi, App, Busy, Choice, DetailTab, Filter, Focus, Note, NoteKind, Sort, Tab,
};
use super::effects::{Cmd, Done, Job, Work};
use super::keys::Action;
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
    /// A snapshot made off the UI thread (by the watcher or the scan worker), with its
    /// findings or what stands for them until they come (`Msg::Findings`); `update` says what
    /// changed when it came from the watcher.
    Snapshot {
        catalog: Arc<Catalog>,
        findings: super::app::SnapshotFindings,
        /// The search texts of its skills the snapshot before does not share (None: the
        /// explorer makes them).
        texts: Option<super::app::SkillTexts>,
        update: Option<Box<crate::watch::Update>>,
    },
    /// A snapshot's findings, made after it on the findings worker (`of`: the snapshot; dropped
    /// unless it is the one shown), or why they could not be made.
    Findings {
        of: std::sync::Weak<Catalog>,
        problems: Result<Arc<super::app::Problems>, String>,
    },
    /// How far the first scan has come (files walked and read), while it runs.
    Progress(crate::scan::Counts),
    /// The watcher reports a problem (not fatal).
    WatchWarning(String),
    /// The watcher thread ended; the explorer restarts it.
    WatcherDied(String),
    /// Time passes (spinner, change marks).
    Tick,
    /// A job's result (`id` says which; a result the app no longer waits for is dropped).
    Job {
        id: u64,
        done: Done,
    },
    /// A transient message from the run loop (the editor's exit, a clipboard problem).
    Note(String, NoteKind),
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
/// Changes the state for a message and returns the effects it asks for (none for most).
///
/// Marks the frame stale (`app.frame_stale`) when the message can change what the next frame
/// shows: every message can, except a tick while nothing on screen moves ([`tick`]).
pub fn update(app: &mut App, msg: Msg) -> Vec<Cmd> {
    app.frame_stale |= !matches!(msg, Msg::Tick);
    match msg {
        Msg::Tick => app.frame_stale |= tick(app),
        Msg::Update(u) => {
            note_update(app, &u);
            return vec![Cmd::Release(app.set_catalog(u.catalog))];
        }
        Msg::Snapshot {
            catalog,
            findings,
            texts,
            update,
        } => {
            if let Some(u) = &update {
                note_update(app, u);
            }
            return vec![Cmd::Release(app.set_snapshot(
                catalog,
                Some(findings),
                texts,
            ))];
        }
        Msg::Findings { of, problems } => match problems {
            Ok(p) => return vec![Cmd::Release(app.set_findings(&of, p))],
            // Only the shown snapshot's failure counts (a newer one's findings are coming).
            Err(why) if app.shows(&of) => {
                app.findings_shown = super::app::FindingsShown::Failed {
                    previous: app.findings_counted(),
                };
                note(
                    app,
                    NoteKind::Error,
                    format!("cannot work out the findings: {why}"),
                );
            }
            Err(_) => {}
        },
        Msg::WatchWarning(w) => app.watch_note = Some(w),
        Msg::WatcherDied(why) => app.watch_note = Some(format!("{why}; restarting the watcher")),
        Msg::Resize(w, h) => {
            app.width = w;
            app.height = h;
            app.clamp_offset();
        }
        Msg::Catalog(cat) => return vec![Cmd::Release(app.set_catalog(cat))],
        Msg::ScanFailed(e) => app.scan = super::app::ScanState::Failed(e),
        // A late report (the snapshot already taken) is dropped.
        Msg::Progress(c) => {
            if app.scan == super::app::ScanState::Scanning && app.catalog.is_none() {
                app.progress = Some(c);
            }
        }
        Msg::Key(k) if k.kind != KeyEventKind::Release => return key(app, k),
        Msg::Key(_) => {}
        Msg::Mouse(m) => mouse(app, m),
        Msg::Note(text, kind) => note(app, kind, text),
        Msg::Job { id, done } => return job_done(app, id, done),
    }
    Vec::new()
}

/// Shows a transient message.
fn note(app: &mut App, kind: NoteKind, text: impl Into<String>) {
    app.note = Some(Note {
        text: text.into(),
        kind,
        ticks: super::app::NOTE_TICKS,
    });
}

/// Starts a job on the worker, unless one runs (one at a time: the app waits for one result).
fn start_job(app: &mut App, work: Work, what: &str) -> Vec<Cmd> {
    if let Some(b) = &app.busy {
        let text = if b.cancellable {
            format!("still {} — Esc cancels it", b.what)
        } else {
            format!("still {}", b.what)
        };
        note(app, NoteKind::Info, text);
        return Vec::new();
    }
    let id = app.next_job;
    app.next_job += 1;
    let cancel = Arc::new(std::sync::atomic::AtomicBool::new(false));
    app.busy = Some(Busy {
        id,
        what: what.to_string(),
        cancel: cancel.clone(),
        cancellable: work.cancellable(),
    });
    vec![Cmd::Run(Job { id, work, cancel })]
}

/// A job's result: shown when it is the one the app waits for, dropped otherwise (cancelled).
fn job_done(app: &mut App, id: u64, done: Done) -> Vec<Cmd> {
    if app.busy.as_ref().is_none_or(|b| b.id != id) {
        return Vec::new();
    }
    app.busy = None;
    let refused = |text: String| ActionUi::Message {
        title: "Refused".into(),
        text,
    };
    match done {
        Done::Cancelled => {}
        Done::Planned(_, Ok((plan, lines))) | Done::Shared(Ok((plan, lines))) => {
            app.action = Some(ActionUi::Preview {
                plan,
                lines,
                scroll: 0,
            })
        }
        // A refused name: the prompt again, with what was typed and why.
        Done::Planned(
            Request::Rename {
                skill,
                name,
                folder,
            },
            Err(e),
        ) => {
            app.action = Some(ActionUi::Input {
                skill,
                text: name,
                folder,
                error: Some(e),
            })
        }
        Done::Candidates {
            skill,
            agent,
            result: Ok(list),
        } => {
            app.action = Some(ActionUi::Plans {
                skill,
                agent,
                list,
                cursor: 0,
                preview: None,
            })
        }
        Done::Fixes(_, Ok(fixes)) if fixes.is_empty() => {
            note(app, NoteKind::Info, "no quick fix applies to this skill")
        }
        Done::Fixes(skill, Ok(fixes)) => app.action = Some(choose_fix(&skill, &fixes)),
        Done::Applied(Ok((id, title))) => {
            app.session_actions.push(id);
            let undo = app.keymap.key_of(Action::Undo);
            let text = format!("done: {title} — {undo} undoes it");
            return noted_then_rescan(app, text);
        }
        Done::Undone(Ok((id, title))) => {
            app.session_actions.retain(|x| x != &id);
            return noted_then_rescan(app, format!("undone: {title}"));
        }
        Done::Planned(_, Err(e))
        | Done::Candidates { result: Err(e), .. }
        | Done::Fixes(_, Err(e))
        | Done::Applied(Err(e))
        | Done::Undone(Err(e))
        | Done::Shared(Err(e)) => app.action = Some(refused(e)),
    }
    Vec::new()
}

/// The quick fixes that apply to a skill, one option each, and all of them when there are
/// several.
fn choose_fix(skill: &std::path::Path, fixes: &[crate::actions::Fix]) -> ActionUi {
    let mut options: Vec<(String, Choice)> = fixes
        .iter()
        .map(|f| {
            (
                format!("{}: {}", f.code, f.title),
                Choice::Request(Request::Fix {
                    skill: skill.to_path_buf(),
                    only: vec![f.code.to_string()],
                }),
            )
        })
        .collect();
    if fixes.len() > 1 {
        options.push((
            "all of them".into(),
            Choice::Request(Request::Fix {
                skill: skill.to_path_buf(),
                only: Vec::new(),
            }),
        ));
    }
    ActionUi::Choose {
        title: "Quick fix".into(),
        options,
        cursor: 0,
    }
}

/// A change applied or undone: the success note, and a rescan to show it.
fn noted_then_rescan(app: &mut App, text: String) -> Vec<Cmd> {
    note(app, NoteKind::Success, text);
    app.scan = super::app::ScanState::Scanning;
    vec![Cmd::Rescan]
}

/// The change marks and the "updated" note of a watcher update.
/// Time moves on by one tick; returns whether anything on screen moved: the spinner turns (a
/// scan or a job runs), the change marks fade, a note goes, or the "updated Ns ago" count
/// steps. An idle explorer so does not redraw ten times a second.
fn tick(app: &mut App) -> bool {
    let spinning = matches!(app.scan, super::app::ScanState::Scanning)
        || app.busy.is_some()
        || app.findings_pending();
    app.spinner = app.spinner.wrapping_add(1);
    let marks_fade = app.changed_ticks == 1;
    app.changed_ticks = app.changed_ticks.saturating_sub(1);
    if app.changed_ticks == 0 {
        app.changed.clear();
    }
    let mut age_steps = false;
    if let Some((_, _, t)) = app.last_update.as_mut() {
        *t += 1;
        age_steps = *t % u64::from(super::app::TICKS_PER_SECOND) == 0;
    }
    let mut note_goes = false;
    if let Some(n) = app.note.as_mut() {
        n.ticks = n.ticks.saturating_sub(1);
        if n.ticks == 0 {
            app.note = None;
            note_goes = true;
        }
    }
    spinning || marks_fade || age_steps || note_goes
}

fn note_update(app: &mut App, u: &crate::watch::Update) {
    if u.generation > 0 {
        app.changed = u.changed.iter().cloned().collect();
        app.changed_ticks = super::app::CHANGE_MARK_TICKS;
        app.last_update = Some((u.generation, u.changed.len(), 0));
    }
    app.watch_note = None;
}

/// Keys while the action overlay is open.
fn action_key(app: &mut App, k: KeyEvent) -> Vec<Cmd> {
    match app.action {
        None => Vec::new(),
        Some(ActionUi::Input { .. }) => input_key(app, k),
        Some(ActionUi::Choose { .. }) => choose_key(app, k),
        Some(ActionUi::Preview { .. }) => preview_key(app, k),
        Some(ActionUi::Plans { .. }) => plans_key(app, k),
        Some(ActionUi::Message { .. }) => {
            app.action = None;
            Vec::new()
        }
    }
}

/// Keys in the name prompt: editing (the name checked as typed), Tab for the folder too,
/// Enter plans the rename of a name the spec accepts, Esc closes.
fn input_key(app: &mut App, k: KeyEvent) -> Vec<Cmd> {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    let Some(ActionUi::Input {
        skill,
        text,
        folder,
        error,
    }) = app.action.as_mut()
    else {
        return Vec::new();
    };
    let mut edited = false;
    match k.code {
        KeyCode::Esc => {
            app.action = None;
            return Vec::new();
        }
        KeyCode::Tab => *folder = !*folder,
        KeyCode::Backspace => {
            text.pop();
            edited = true;
        }
        KeyCode::Char('u') if ctrl => {
            text.clear();
            edited = true;
        }
        KeyCode::Char(c) if !ctrl => {
            text.push(c);
            edited = true;
        }
        // A name the spec refuses is not planned: the error stays under it.
        KeyCode::Enter if error.is_none() => {
            let req = Request::Rename {
                skill: skill.clone(),
                name: text.trim().to_string(),
                folder: *folder,
            };
            app.action = None;
            return start_job(app, Work::Plan(req), "planning the rename…");
        }
        _ => {}
    }
    if edited {
        // Checked as typed (the spec's name rules; no file is read).
        *error = crate::actions::check_name(text.trim()).err().map(|r| r.0);
    }
    Vec::new()
}

/// Keys in a chooser: moving, `c`/`l`/`m` to copy, link or move, Enter (or `y`) chooses,
/// Esc (or `q`) closes.
fn choose_key(app: &mut App, k: KeyEvent) -> Vec<Cmd> {
    let env = app.env.clone();
    let Some(ActionUi::Choose {
        options, cursor, ..
    }) = app.action.as_mut()
    else {
        return Vec::new();
    };
    match k.code {
        KeyCode::Esc | KeyCode::Char('q') => app.action = None,
        KeyCode::Down | KeyCode::Char('j') => {
            *cursor = (*cursor + 1).min(options.len().saturating_sub(1))
        }
        KeyCode::Up | KeyCode::Char('k') => *cursor = cursor.saturating_sub(1),
        KeyCode::Home | KeyCode::Char('g') => *cursor = 0,
        KeyCode::End | KeyCode::Char('G') => *cursor = options.len().saturating_sub(1),
        KeyCode::Char('c') => switch_move_mode(options, Mode::Copy, &env),
        KeyCode::Char('l') => switch_move_mode(options, Mode::Link, &env),
        KeyCode::Char('m') => switch_move_mode(options, Mode::Move, &env),
        KeyCode::Enter | KeyCode::Char('y') => {
            if let Some((_, choice)) = options.get(*cursor) {
                let choice = choice.clone();
                app.action = None;
                return choose(app, choice);
            }
        }
        _ => {}
    }
    Vec::new()
}

/// Move, copy or link: every move option's mode switched, its label saying so.
fn switch_move_mode(options: &mut [(String, Choice)], mode: Mode, env: &crate::env::Env) {
    for (label, choice) in options.iter_mut() {
        if let Choice::Request(Request::Move { mode: m, root, .. }) = choice {
            *m = mode;
            let readers = label.split_once(" — ").map(|(_, r)| r.to_string());
            *label = format!("{} to {}", mode.verb(), style_path(env, root));
            if let Some(r) = readers {
                label.push_str(" — ");
                label.push_str(&r);
            }
        }
    }
}

/// Keys in a plan's preview: scrolling, Enter (or `y`) applies it, Esc (`n`, `q`) closes.
fn preview_key(app: &mut App, k: KeyEvent) -> Vec<Cmd> {
    let Some(ActionUi::Preview { plan, scroll, .. }) = app.action.as_mut() else {
        return Vec::new();
    };
    match k.code {
        KeyCode::Esc | KeyCode::Char('n') | KeyCode::Char('q') => app.action = None,
        KeyCode::Down | KeyCode::Char('j') => *scroll = scroll.saturating_add(1),
        KeyCode::Up | KeyCode::Char('k') => *scroll = scroll.saturating_sub(1),
        KeyCode::PageDown => *scroll = scroll.saturating_add(10),
        KeyCode::PageUp => *scroll = scroll.saturating_sub(10),
        KeyCode::Enter | KeyCode::Char('y') => {
            let plan = plan.clone();
            app.action = None;
            return start_job(app, Work::Apply(plan), "applying…");
        }
        _ => {}
    }
    Vec::new()
}

/// Keys in `W`'s plan list and in the preview of one plan, through the key table: moving,
/// `PlanGo` (preview, then apply), Back (the preview back to the list, the list closed).
fn plans_key(app: &mut App, k: KeyEvent) -> Vec<Cmd> {
    let km = app.keymap.clone();
    let models = app.models.clone();
    let env = app.env.clone();
    let Some(ActionUi::Plans {
        list,
        cursor,
        preview,
        ..
    }) = app.action.as_mut()
    else {
        return Vec::new();
    };
    let n = list.candidates.len();
    // `q` backs out here, as in every popup.
    if km.is(Action::Back, &k) || km.is(Action::Quit, &k) {
        if preview.is_some() {
            *preview = None;
        } else {
            app.action = None;
        }
        return Vec::new();
    }
    if km.is(Action::PlanGo, &k) {
        let Some(c) = list.candidates.get(*cursor) else {
            return Vec::new();
        };
        if preview.is_none() {
            *preview = Some((plan_preview_lines(&env, &models, list, *cursor), 0));
            return Vec::new();
        }
        let plan = Box::new(c.plan.clone());
        app.action = None;
        return start_job(app, Work::Apply(plan), "applying…");
    }
    match preview {
        // The preview scrolls.
        Some((_, scroll)) => {
            if km.is(Action::Down, &k) {
                *scroll = scroll.saturating_add(1);
            } else if km.is(Action::Up, &k) {
                *scroll = scroll.saturating_sub(1);
            } else if km.is(Action::PageDown, &k) || km.is(Action::HalfDown, &k) {
                *scroll = scroll.saturating_add(10);
            } else if km.is(Action::PageUp, &k) || km.is(Action::HalfUp, &k) {
                *scroll = scroll.saturating_sub(10);
            } else if km.is(Action::First, &k) {
                *scroll = 0;
            }
        }
        None => {
            if km.is(Action::Down, &k) {
                *cursor = (*cursor + 1).min(n.saturating_sub(1));
            } else if km.is(Action::Up, &k) {
                *cursor = cursor.saturating_sub(1);
            } else if km.is(Action::First, &k) {
                *cursor = 0;
            } else if km.is(Action::Last, &k) {
                *cursor = n.saturating_sub(1);
            }
        }
    }
    Vec::new()
}

/// The preview of candidate `i`: its title, the diff, notes, then the verdicts before and
/// after as the planner predicted them (the live state replayed; the mirror's where the replay
/// does not model the plan), then the agents gained and lost.
pub fn plan_preview_lines(
    env: &crate::env::Env,
    models: &[crate::agents::AgentModel],
    list: &super::app::PlanList,
    i: usize,
) -> Vec<String> {
    let Some(c) = list.candidates.get(i) else {
        return Vec::new();
    };
    let plan = &c.plan;
    let mut lines = vec![plan.title.clone(), String::new()];
    lines.extend(plan.diff.lines().map(String::from));
    lines.extend(plan.notes.iter().map(|n| format!("note: {n}")));
    lines.push(String::new());
    let pv = crate::actions::planner::preview_of(&list.before, c, models);
    lines.extend(pv.lines(env));
    lines.push(String::new());
    let join = |set: std::collections::BTreeSet<&str>| {
        if set.is_empty() {
            "none".to_string()
        } else {
            set.into_iter().collect::<Vec<_>>().join(", ")
        }
    };
    lines.push(format!("gains: {}", join(c.agents_gained())));
    lines.push(format!("✗ loses: {}", join(c.agents_lost())));
    lines.push(format!(
        "predicted {}",
        match c.predicted {
            crate::actions::planner::Predicted::Overlay => "in memory on the live state",
            crate::actions::planner::Predicted::Mirror => "on a mirror of the tree",
        }
    ));
    lines
}

/// What choosing a picker's entry does.
fn choose(app: &mut App, choice: Choice) -> Vec<Cmd> {
    match choice {
        Choice::Request(req) => start_job(app, Work::Plan(req), "planning…"),
        Choice::AgentFilter(a) => {
            app.agent_filter = a;
            app.refresh_rows();
            Vec::new()
        }
        Choice::WinFor { skill, agent } => match app.models.get(agent) {
            Some(m) => {
                let agent = m.id.clone();
                let what = format!("finding the plans that make it win for {agent}…");
                start_job(app, Work::Candidates { skill, agent }, &what)
            }
            None => Vec::new(),
        },
        Choice::Copy { skill, action } => act(app, action, skill),
        Choice::Share { skills, agent } => start_share(app, skills, agent),
    }
}

fn style_path(env: &crate::env::Env, p: &std::path::Path) -> String {
    crate::present::show_path(env, p)
}

/// The skills an action on a skill applies to where the app is: the selected row (Skills
/// tab), the selected skill of a cause (Problems tab, detail pane), the copies of the selected
/// name (Collisions tab).
fn targets(app: &App) -> Vec<std::path::PathBuf> {
    match app.tab {
        Tab::Skills => app.current().map(|s| s.path.clone()).into_iter().collect(),
        Tab::Problems if app.focus == Focus::Detail => app
            .current_group()
            .and_then(|(_, a)| a.get(app.problem_cursor))
            .and_then(|a| app.skill(a.skill))
            .map(|s| s.path.clone())
            .into_iter()
            .collect(),
        Tab::Collisions => app
            .collisions
            .get(app.side_cursor)
            .map(|c| {
                c.skills
                    .iter()
                    .filter_map(|&i| app.skill(i).map(|s| s.path.clone()))
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// An action on a skill: on the one selected, or a picker of the copies first.
fn on_skill(app: &mut App, action: Action) -> Vec<Cmd> {
    let mut copies = targets(app);
    match copies.len() {
        0 => {
            note(app, NoteKind::Info, "no skill selected");
            Vec::new()
        }
        1 => act(app, action, copies.remove(0)),
        _ => {
            // For W, the copies some agent does not load come first (the likely ones to win).
            let loses = |p: &std::path::PathBuf| {
                app.catalog
                    .as_ref()
                    .and_then(|c| c.skill(p))
                    .is_some_and(|s| s.verdicts.iter().any(|(_, v)| v.status.is_problem()))
            };
            // A copy another copy shadows (for the most shown agents, else the most agents)
            // comes before one that is only missing somewhere — the rule the search uses to
            // select a copy.
            let shadowed = app.catalog.as_ref().and_then(|c| {
                let skills: Vec<&crate::catalog::Skill> =
                    copies.iter().filter_map(|p| c.skill(p)).collect();
                (skills.len() == copies.len())
                    .then(|| app.shadowed_copy(&skills))
                    .flatten()
            });
            let cursor = if action == Action::Win {
                shadowed
                    .or_else(|| copies.iter().position(loses))
                    .unwrap_or(0)
            } else {
                0
            };
            let options = copies
                .into_iter()
                .map(|p| {
                    let scope = app
                        .catalog
                        .as_ref()
                        .and_then(|c| c.skill(&p))
                        .map(|s| format!("  ({})", s.scope.as_str()))
                        .unwrap_or_default();
                    (
                        format!("{}{scope}", style_path(&app.env, &p)),
                        Choice::Copy { skill: p, action },
                    )
                })
                .collect();
            let verb = match action {
                Action::Win => "should win",
                Action::Delete => "to delete",
                Action::Rename => "to rename",
                Action::Move => "to move",
                Action::Fix => "to fix",
                Action::Edit => "to edit",
                _ => "",
            };
            app.action = Some(ActionUi::Choose {
                title: format!("Which copy {verb}?").replace("copy ?", "copy?"),
                options,
                cursor,
            });
            Vec::new()
        }
    }
}

/// An action on one skill.
fn act(app: &mut App, action: Action, skill: std::path::PathBuf) -> Vec<Cmd> {
    let Some(s) = app
        .catalog
        .as_ref()
        .and_then(|c| c.skill(&skill))
        .map(|s| (s.label().to_string(), s.root.clone()))
    else {
        note(
            app,
            NoteKind::Error,
            "the skill is no longer in the catalog",
        );
        return Vec::new();
    };
    let (label, root) = s;
    match action {
        Action::Rename => {
            let error = crate::actions::check_name(&label).err().map(|r| r.0);
            app.action = Some(ActionUi::Input {
                skill,
                text: label,
                folder: true,
                error,
            });
        }
        Action::Move => {
            let roots = move_targets(app, &skill, root.as_ref());
            app.action = Some(ActionUi::Choose {
                title: "Move (m), copy (c) or link (l) to".into(),
                options: roots,
                cursor: 0,
            });
        }
        Action::Fix => return start_job(app, Work::Fixes(skill), "looking for quick fixes…"),
        Action::Win => match app.agent_filter.filter(|_| app.tab == Tab::Skills) {
            // One agent's column is shown: that agent.
            Some(agent) => return choose(app, Choice::WinFor { skill, agent }),
            None => app.action = Some(choose_agent_to_win_for(app, skill, &label)),
        },
        Action::Delete => {
            return start_job(app, Work::Plan(Request::Delete { skill }), "planning…");
        }
        Action::Edit => {
            note(
                app,
                NoteKind::Info,
                format!("editing {}", style_path(&app.env, &skill)),
            );
            return vec![Cmd::Edit(skill)];
        }
        Action::CopyPath => {
            let text = skill.display().to_string();
            note(
                app,
                NoteKind::Success,
                format!("copied {}", crate::sanitize::path(&skill)),
            );
            return vec![Cmd::Copy(text)];
        }
        _ => {}
    }
    Vec::new()
}

/// Where a skill can move: every root but the system's and its own, each with the agents that
/// read it.
fn move_targets(
    app: &App,
    skill: &std::path::Path,
    own_root: Option<&std::path::PathBuf>,
) -> Vec<(String, Choice)> {
    let Some(cat) = app.catalog.as_ref() else {
        return Vec::new();
    };
    cat.roots
        .iter()
        .filter(|r| r.scope != Scope::System && Some(&r.path) != own_root)
        .map(|r| {
            let readers = if r.agents.is_empty() {
                "no agent".to_string()
            } else {
                r.agents.join(" ")
            };
            (
                format!("move to {} — {readers}", style_path(&app.env, &r.path)),
                Choice::Request(Request::Move {
                    skill: skill.to_path_buf(),
                    root: r.path.clone(),
                    mode: Mode::Move,
                }),
            )
        })
        .collect()
}

/// The chooser of the agent to make a skill win for: every agent with its status now, the
/// cursor on the first agent for which another copy wins (a shown agent first), else the
/// first that does not load this copy.
fn choose_agent_to_win_for(app: &App, skill: std::path::PathBuf, label: &str) -> ActionUi {
    let verdicts = app
        .catalog
        .as_ref()
        .and_then(|c| c.skill(&skill))
        .map(|s| s.verdicts.clone())
        .unwrap_or_default();
    let status = |id: &str| {
        verdicts
            .iter()
            .find(|(a, _)| **a == *id)
            .map(|(_, v)| v.status)
    };
    let options: Vec<(String, Choice)> = app
        .models
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let st = status(&m.id)
                .map(|s| format!("  ({} now)", s.as_str()))
                .unwrap_or_default();
            (
                format!("{}{st}", m.id),
                Choice::WinFor {
                    skill: skill.clone(),
                    agent: i,
                },
            )
        })
        .collect();
    let shadowed = |i: &usize| status(&app.models[*i].id) == Some(crate::resolve::Status::Shadowed);
    let cursor = app
        .shown_agents()
        .into_iter()
        .find(shadowed)
        .or_else(|| (0..app.models.len()).find(shadowed))
        .or_else(|| {
            app.models
                .iter()
                .position(|m| status(&m.id).is_some_and(|s| s.is_problem()))
        })
        .unwrap_or(0);
    ActionUi::Choose {
        title: format!("Make {} win for which agent?", crate::sanitize::line(label)),
        options,
        cursor,
    }
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

/// Scrolls the detail pane, clamped to its content (its last row at the pane's bottom).
fn scroll_detail(app: &mut App, delta: isize) {
    let max = crate::tui::view::max_detail_scroll(app) as isize;
    app.detail_scroll = (app.detail_scroll as isize + delta).clamp(0, max) as u16;
}

/// A page: the rows of the focused pane, less one kept for context.
fn page(app: &App) -> isize {
    let rows = match app.focus {
        Focus::Detail if app.tab != Tab::Problems => crate::tui::view::detail_rows(app),
        _ => app.list_height(),
    };
    (rows.max(2) - 1) as isize
}

/// A new query: the best match is selected (as in fzf), the list starts at the top.
fn set_query(app: &mut App, q: String) {
    app.search.set_query(q);
    app.selected = None;
    app.cursor = 0;
    app.offset = 0;
    app.refresh_rows();
    app.select_shadowed_match();
}

/// A key: the help, a popup or the search take it first; otherwise it acts through the key
/// table.
fn key(app: &mut App, k: KeyEvent) -> Vec<Cmd> {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    // Ctrl-C always quits, whatever the key table says.
    if ctrl && matches!(k.code, KeyCode::Char('c')) {
        app.quit = true;
        return Vec::new();
    }
    // A transient message goes at the next key.
    app.note = None;
    if app.help {
        // `?` turns to the evidence legend; any other key (`q` too) closes the help.
        if matches!(k.code, KeyCode::Char('?')) && !app.help_legend {
            app.help_legend = true;
            return Vec::new();
        }
        app.help = false;
        app.help_legend = false;
        return Vec::new();
    }
    if app.action.is_some() {
        return action_key(app, k);
    }
    if app.search.editing {
        match k.code {
            _ if app.keymap.is(Action::Back, &k) => {
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
        return Vec::new();
    }
    let keymap = app.keymap.clone();
    match keymap.action(app, &k) {
        Some(a) => perform(app, a),
        None => Vec::new(),
    }
}

/// Does what a key of the table stands for.
pub fn perform(app: &mut App, action: Action) -> Vec<Cmd> {
    match action {
        Action::Quit => app.quit = true,
        Action::Help => app.help = true,
        Action::Back => back(app),
        Action::Tab(n) => {
            if let Some(&t) = Tab::ALL.get(n as usize)
                && t != app.tab
            {
                switch_tab(app, t);
            }
        }
        Action::Down => move_by(app, 1),
        Action::Up => move_by(app, -1),
        Action::PageDown => move_by(app, page(app)),
        Action::PageUp => move_by(app, -page(app)),
        Action::HalfDown => move_by(app, page(app) / 2),
        Action::HalfUp => move_by(app, -page(app) / 2),
        Action::First => move_by(app, -(1 << 30)),
        Action::Last => move_by(app, 1 << 30),
        Action::Open => open_selected(app),
        Action::ToList => app.focus = Focus::List,
        Action::NextDetail => cycle_detail_tab(app, true),
        Action::PrevDetail => cycle_detail_tab(app, false),
        Action::Search => {
            app.tab = Tab::Skills;
            app.focus = Focus::List;
            app.search.editing = true;
            app.clamp_offset();
        }
        Action::Sort | Action::Filter | Action::AllAgents | Action::Scope => {
            change_table_view(app, action)
        }
        Action::Agent => app.action = Some(choose_agent_column(app)),
        Action::Rescan => {
            app.scan = super::app::ScanState::Scanning;
            return vec![Cmd::Rescan];
        }
        Action::OpenSource => return source_key(app, true),
        Action::CopySource => return source_key(app, false),
        Action::Undo => return undo_last(app),
        Action::ColumnsLeft | Action::ColumnsRight => scroll_columns(app, action),
        Action::Share => return share_cause(app),
        Action::Broken => {
            app.problems_broken = !app.problems_broken;
            app.side_cursor = app.side_cursor.min(app.side_len().saturating_sub(1));
            app.problem_cursor = 0;
        }
        Action::Rename
        | Action::Move
        | Action::Fix
        | Action::Win
        | Action::Delete
        | Action::Edit
        | Action::CopyPath => return on_skill(app, action),
        // Only in W's plan list (`plans_key`).
        Action::PlanGo => {}
    }
    Vec::new()
}

/// Enter: on a cause's skills, opens the skill in the Skills tab with its Why pane; elsewhere
/// (but the Roots tab) moves to the detail pane.
fn open_selected(app: &mut App) {
    if app.tab == Tab::Problems && app.focus == Focus::Detail {
        if let Some(&skill) = app
            .current_group()
            .and_then(|(_, a)| a.get(app.problem_cursor))
            .map(|a| &a.skill)
        {
            app.open_skill(skill);
        }
    } else if app.tab != Tab::Roots {
        app.focus = Focus::Detail;
    }
}

/// The next (or previous) detail tab, scrolled to its top.
fn cycle_detail_tab(app: &mut App, forward: bool) {
    let i = DetailTab::ALL
        .iter()
        .position(|t| *t == app.detail_tab)
        .unwrap_or(0);
    let n = DetailTab::ALL.len();
    let j = if forward {
        (i + 1) % n
    } else {
        (i + n - 1) % n
    };
    app.detail_tab = DetailTab::ALL[j];
    app.detail_scroll = 0;
}

/// The skills table's next sort, filter or scope, or every agent's columns (and back); the
/// rows are made again.
fn change_table_view(app: &mut App, action: Action) {
    match action {
        Action::Sort => {
            app.sort = match app.sort {
                Sort::Name => Sort::Problems,
                Sort::Problems => Sort::Scope,
                Sort::Scope => Sort::Name,
            }
        }
        Action::Filter => {
            app.filter = match app.filter {
                Filter::All => Filter::Problems,
                Filter::Problems => Filter::Collisions,
                Filter::Collisions => Filter::All,
            }
        }
        Action::AllAgents => {
            app.all_agents = !app.all_agents;
            app.agent_filter = None;
            app.agent_offset = 0;
        }
        Action::Scope => {
            app.scope_filter = match app.scope_filter {
                None => Some(Scope::Project),
                Some(Scope::Project) => Some(Scope::User),
                Some(Scope::User) => Some(Scope::System),
                Some(_) => None,
            }
        }
        _ => return,
    }
    app.refresh_rows();
}

/// The chooser of the one agent whose column is shown (or all), on the current choice.
fn choose_agent_column(app: &App) -> ActionUi {
    let mut options = vec![("all agents".to_string(), Choice::AgentFilter(None))];
    options.extend(
        app.models
            .iter()
            .enumerate()
            .map(|(i, m)| (m.id.clone(), Choice::AgentFilter(Some(i)))),
    );
    ActionUi::Choose {
        title: "Show which agent?".into(),
        options,
        cursor: app.agent_filter.map_or(0, |i| i + 1),
    }
}

/// `u`: undoes this session's last action, or says there is none.
fn undo_last(app: &mut App) -> Vec<Cmd> {
    match app.session_actions.last().cloned() {
        Some(id) => start_job(app, Work::Undo(id), "undoing…"),
        None => {
            note(
                app,
                NoteKind::Info,
                "no action of this session to undo (`skilltui undo` reverts older ones)",
            );
            Vec::new()
        }
    }
}

/// `<`/`>`: the agent columns' window by its width, when not all fit beside the names.
fn scroll_columns(app: &mut App, action: Action) {
    let w = layout::areas(app)
        .list
        .map_or(0, |r| r.width.saturating_sub(2) as usize);
    let c = super::view::skills::columns(app, w);
    if c.before + c.after == 0 {
        note(app, NoteKind::Info, "every agent column is shown");
        return;
    }
    let n = c.shown.len().max(1);
    app.agent_offset = if action == Action::ColumnsRight {
        c.before + n.min(c.after)
    } else {
        c.before.saturating_sub(n)
    };
}

/// `S` on a cause (Problems tab): share its skills with its agent — with a picker first when
/// the cause concerns several agents. Only for skills an agent never reaches where they are
/// (a root it does not read, or too deep in one it does).
fn share_cause(app: &mut App) -> Vec<Cmd> {
    use crate::findings::Code;
    let Some((g, affected)) = app.current_group() else {
        note(app, NoteKind::Info, "no cause selected");
        return Vec::new();
    };
    if !matches!(g.code, Code::RootNotScanned | Code::NotFound) || g.agents.is_empty() {
        let text = format!(
            "S shares skills an agent never reaches; this cause is {} — W, F, M act on its skills",
            g.code
        );
        note(app, NoteKind::Info, text);
        return Vec::new();
    }
    let skills: Vec<std::path::PathBuf> = affected
        .iter()
        .filter_map(|a| app.skill(a.skill).map(|s| s.path.clone()))
        .collect();
    let agents = g.agents.clone();
    if agents.len() == 1 {
        return start_share(app, skills, agents[0].clone());
    }
    let options = agents
        .iter()
        .map(|a| {
            (
                format!(
                    "share {} skills with {}",
                    skills.len(),
                    crate::sanitize::line(a)
                ),
                Choice::Share {
                    skills: skills.clone(),
                    agent: a.clone(),
                },
            )
        })
        .collect();
    app.action = Some(ActionUi::Choose {
        title: "Share with which agent?".into(),
        options,
        cursor: 0,
    });
    Vec::new()
}

fn start_share(app: &mut App, skills: Vec<std::path::PathBuf>, agent: String) -> Vec<Cmd> {
    let what = format!(
        "planning how to share {} skills with {agent}…",
        skills.len()
    );
    start_job(app, Work::Share { skills, agent }, &what)
}

/// Esc: backs out one step — cancels the running job, leaves the detail pane, clears the
/// search, clears the filters. It never quits.
fn back(app: &mut App) {
    if let Some(b) = &app.busy {
        if b.cancellable {
            b.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            let what = b.what.trim_end_matches('…').to_string();
            app.busy = None;
            note(app, NoteKind::Info, format!("cancelled {what}"));
        } else {
            let what = b.what.clone();
            note(
                app,
                NoteKind::Info,
                format!("{what} cannot be cancelled; it ends in a moment"),
            );
        }
        return;
    }
    if app.focus == Focus::Detail {
        app.focus = Focus::List;
    } else if !app.search.query.is_empty() {
        app.search.set_query(String::new());
        app.refresh_rows();
    } else if app.filter != Filter::All || app.agent_filter.is_some() || app.scope_filter.is_some()
    {
        app.filter = Filter::All;
        app.agent_filter = None;
        app.scope_filter = None;
        app.refresh_rows();
        note(app, NoteKind::Info, "filters cleared");
    } else {
        let quit = app.keymap.key_of(Action::Quit);
        note(
            app,
            NoteKind::Info,
            format!("nothing to back out of; {quit} quits"),
        );
    }
}

/// `o` opens, `Y` copies the source of the selected skill's decisive reason; a source without
/// a URL (an oracle case, an inference) is shown instead.
fn source_key(app: &mut App, open: bool) -> Vec<Cmd> {
    let Some((rule, src)) = app.current_source() else {
        note(app, NoteKind::Info, "no reason with a source here");
        return Vec::new();
    };
    match src.url.clone() {
        Some(url) => {
            note(
                app,
                NoteKind::Success,
                format!("{} {rule}: {url}", if open { "opening" } else { "copied" }),
            );
            vec![if open {
                Cmd::OpenUrl(url)
            } else {
                Cmd::Copy(url)
            }]
        }
        None => {
            note(app, NoteKind::Info, format!("{rule}: {}", src.render()));
            Vec::new()
        }
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
