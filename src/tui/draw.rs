//! The one function that draws the explorer: a pure function of the state.

use super::app::{App, FindingsShown, ScanState, Tab};
use super::layout;
use super::update::tab_spans;
use super::view::{action, other, problems, skills, style};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

const SPINNER: [&str; 4] = ["⠋", "⠙", "⠸", "⠴"];

pub fn draw(f: &mut Frame, app: &App) {
    let a = layout::areas(app);
    header(f, app, a.header);
    tabs(f, app, a.tabs);
    if let Some(s) = a.search {
        let cursor = if app.search.editing { "▏" } else { "" };
        f.render_widget(
            Line::from(vec![
                Span::styled("/", style::key()),
                Span::raw(style::safe(&app.search.query)),
                Span::raw(cursor),
                Span::styled(
                    if app.search.editing {
                        "   Enter keeps · Esc clears"
                    } else {
                        "   / edits · Esc clears"
                    },
                    style::dim(),
                ),
            ]),
            s,
        );
    }
    match app.tab {
        Tab::Skills => {
            if let Some(l) = a.list {
                skills::draw_table(f, app, l);
            }
            if let Some(d) = a.detail {
                skills::draw_detail(f, app, d);
            }
        }
        Tab::Collisions => other::draw_collisions(f, app, a.list, a.detail),
        Tab::Roots => {
            if let Some(l) = a.list {
                other::draw_roots(f, app, l);
            }
        }
        Tab::Agents => other::draw_agents(f, app, a.list, a.detail),
        Tab::Tokens => other::draw_tokens(f, app, a.list, a.detail),
        Tab::Problems => problems::draw(f, app, a.list, a.detail),
    }
    footer(f, app, a.footer);
    if app.help {
        super::view::help::draw(f, app, f.area());
    }
    if app.action.is_some() {
        action::draw(f, app, f.area());
    }
}

/// Where a header part goes: right after the title, in the ` · `-joined counts, or after them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Project,
    Count,
    Tail,
}

/// The header: per-agent visible skills and the error count (from the snapshot's findings,
/// made once per snapshot), the scan state. When narrow, the least important parts go first:
/// the project path, the collisions, the "updated" note (kept for the few seconds the changed
/// rows are marked), the skill total, the warnings, then agents from the last; the title, the
/// scan state and the error count stay.
fn header(f: &mut Frame, app: &App, area: Rect) {
    // Agents by id when every agent fits that way, else by their first word.
    let line = header_line(app, area.width as usize, 11);
    let line = if line.1 < app.shown_agents().len().min(app.problems.agents.len()) {
        header_line(app, area.width as usize, 7).0
    } else {
        line.0
    };
    f.render_widget(Paragraph::new(line), area);
}

/// The header line for `width` columns with agent labels of up to `cap` characters, and how
/// many agents it kept.
fn header_line(app: &App, width: usize, cap: usize) -> (Line<'static>, usize) {
    // (priority: lower is kept first, slot, spans), in display order.
    let mut parts: Vec<HeaderPart> = vec![(
        40,
        Slot::Project,
        vec![Span::styled(
            crate::sanitize::path(&app.env.project),
            style::dim(),
        )],
    )];
    if app.catalog.is_some() {
        parts.extend(header_counts(app, cap));
    }
    parts.extend(header_tail(app));
    let title = Span::styled("skilltui", style::title());
    let keep = header_parts_that_fit(&parts, title.width(), width);
    let kept_agents = parts
        .iter()
        .zip(&keep)
        .filter(|((p, _, _), k)| **k && is_agent_part(*p))
        .count();
    (join_header(title, parts, keep), kept_agents)
}

/// A header part: its priority (lower is kept first), its slot and its spans.
type HeaderPart = (u16, Slot, Vec<Span<'static>>);

/// Agents' counts have priorities 10..30 (the first agents kept first).
fn is_agent_part(priority: u16) -> bool {
    (10..30).contains(&priority)
}

/// The counts of a snapshot: skills, errors, warnings, each shown agent's visible skills (by
/// the labels that keep them apart, of up to `cap` characters), collisions.
fn header_counts(app: &App, cap: usize) -> Vec<HeaderPart> {
    let Some(cat) = &app.catalog else {
        return Vec::new();
    };
    let p = &app.problems;
    let [errors, warnings, _] = p.counts;
    let mut parts: Vec<HeaderPart> = vec![(
        31,
        Slot::Count,
        vec![Span::raw(format!("{} skills", cat.skills.len()))],
    )];
    // No count before the first findings are made.
    if app.findings_counted() {
        parts.extend([
            (
                2,
                Slot::Count,
                vec![Span::styled(
                    format!("{errors} error{}", if errors == 1 { "" } else { "s" }),
                    if errors > 0 {
                        Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
                    } else {
                        Style::new().fg(Color::Green)
                    },
                )],
            ),
            (
                30,
                Slot::Count,
                vec![Span::styled(
                    format!("{warnings} warning{}", if warnings == 1 { "" } else { "s" }),
                    if warnings > 0 {
                        Style::new().fg(Color::Yellow)
                    } else {
                        style::dim()
                    },
                )],
            ),
        ]);
    }
    // The agents whose columns are shown, by the labels that keep them apart.
    let shown: Vec<&crate::agents::AgentModel> = app
        .shown_agents()
        .into_iter()
        .filter_map(|i| app.models.get(i))
        .collect();
    let labels = crate::present::agent_labels(&shown, cap);
    let counted = p.agents.iter().filter_map(|a| {
        shown
            .iter()
            .position(|m| m.id == a.id)
            .map(|k| (a, labels[k].clone()))
    });
    for (i, (a, label)) in counted.enumerate() {
        parts.push((
            10 + i.min(19) as u16,
            Slot::Count,
            vec![
                Span::styled(format!("{label} "), style::dim()),
                Span::raw(a.visible.to_string()),
            ],
        ));
    }
    parts.push((
        33,
        Slot::Count,
        vec![Span::raw(format!(
            "{} collision{}",
            app.collisions.len(),
            if app.collisions.len() == 1 { "" } else { "s" }
        ))],
    ));
    parts
}

/// What follows the counts: hidden agents, the scan state (or the last update), the watch and
/// config notes.
fn header_tail(app: &App) -> Vec<HeaderPart> {
    let mut parts: Vec<HeaderPart> = Vec::new();
    let hidden = app.hidden_agents();
    if hidden > 0 {
        let all = app.keymap.key_of(super::keys::Action::AllAgents);
        parts.push((
            5,
            Slot::Tail,
            vec![Span::styled(
                format!(
                    "{hidden} agent{} hidden — {all} shows all",
                    if hidden == 1 { "" } else { "s" }
                ),
                style::dim(),
            )],
        ));
    }
    parts.extend(scan_state_part(app));
    if app.findings_pending() {
        parts.push((
            1,
            Slot::Tail,
            vec![Span::styled(
                format!("{} finding problems…", SPINNER[app.spinner % SPINNER.len()]),
                Style::new().fg(Color::Yellow),
            )],
        ));
    } else if matches!(app.findings_shown, FindingsShown::Failed { .. }) {
        let rescan = app.keymap.key_of(super::keys::Action::Rescan);
        parts.push((
            1,
            Slot::Tail,
            vec![Span::styled(
                format!("findings not worked out — {rescan} rescans"),
                Style::new().fg(Color::Red),
            )],
        ));
    }
    for note in [&app.watch_note, &app.config_note].into_iter().flatten() {
        parts.push((
            3,
            Slot::Tail,
            vec![Span::styled(style::safe(note), Style::new().fg(Color::Red))],
        ));
    }
    parts
}

/// The scan state: the spinner with the first scan's progress, the failure, or when ready the
/// last update (if any).
fn scan_state_part(app: &App) -> Option<HeaderPart> {
    match &app.scan {
        ScanState::Scanning => Some((
            1,
            Slot::Tail,
            vec![Span::styled(
                format!(
                    "{} scanning…{}",
                    SPINNER[app.spinner % SPINNER.len()],
                    app.progress.map(scan_progress).unwrap_or_default()
                ),
                Style::new().fg(Color::Yellow),
            )],
        )),
        ScanState::Failed(e) => Some((
            1,
            Slot::Tail,
            vec![Span::styled(
                format!("scan failed: {}", style::safe(e)),
                Style::new().fg(Color::Red),
            )],
        )),
        ScanState::Ready => {
            let (_, n, ticks) = app.last_update?;
            let secs = ticks / u64::from(super::app::TICKS_PER_SECOND);
            let marked = app.changed_ticks > 0;
            // Right after an update (while the changed rows are marked) it goes before the
            // agents; later it is among the first parts to go.
            Some((
                if marked { 4 } else { 32 },
                Slot::Tail,
                vec![Span::styled(
                    format!("updated {secs}s ago ({n} changed)"),
                    if marked {
                        Style::new().fg(Color::Yellow)
                    } else {
                        style::dim()
                    },
                )],
            ))
        }
    }
}

/// The separator before a part: one space after the title, ` · ` between counts, else two.
fn separator(slot: Slot, counts_before: usize) -> &'static str {
    match slot {
        Slot::Project => " ",
        Slot::Count if counts_before > 0 => " · ",
        _ => "  ",
    }
}

/// The width of the title and the kept parts with their separators.
fn kept_width(parts: &[HeaderPart], keep: &[bool], title_w: usize) -> usize {
    let mut w = title_w;
    let mut counts = 0;
    for ((_, slot, spans), k) in parts.iter().zip(keep) {
        if !k {
            continue;
        }
        w += separator(*slot, counts).chars().count();
        if *slot == Slot::Count {
            counts += 1;
        }
        w += spans.iter().map(Span::width).sum::<usize>();
    }
    w
}

/// Which parts fit in `width`: kept by priority while they fit; agents only as a prefix (once
/// one does not fit, no later agent is tried).
fn header_parts_that_fit(parts: &[HeaderPart], title_w: usize, width: usize) -> Vec<bool> {
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| parts[i].0);
    let mut keep = vec![false; parts.len()];
    let mut agents_full = false;
    for i in order {
        let agent = is_agent_part(parts[i].0);
        if agent && agents_full {
            continue;
        }
        keep[i] = true;
        if kept_width(parts, &keep, title_w) > width {
            keep[i] = false;
            agents_full |= agent;
        }
    }
    keep
}

/// The title and the kept parts, in display order, with their separators.
fn join_header(title: Span<'static>, parts: Vec<HeaderPart>, keep: Vec<bool>) -> Line<'static> {
    let mut spans = vec![title];
    let mut counts = 0;
    for ((_, slot, part), k) in parts.into_iter().zip(keep) {
        if !k {
            continue;
        }
        spans.push(Span::raw(separator(slot, counts)));
        if slot == Slot::Count {
            counts += 1;
        }
        spans.extend(part);
    }
    Line::from(spans)
}

fn tabs(f: &mut Frame, app: &App, area: Rect) {
    let mut spans = Vec::new();
    for (i, (t, label)) in tab_spans().into_iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled("│", style::dim()));
        }
        let st = if t == app.tab {
            style::active_tab()
        } else {
            Style::new()
        };
        spans.push(Span::styled(label, st));
    }
    f.render_widget(Line::from(spans), area);
}

fn footer(f: &mut Frame, app: &App, area: Rect) {
    super::view::footer::draw(f, app, area);
}

/// The first scan's progress in the header: files walked, then SKILL.md files read of those
/// found.
fn scan_progress(c: crate::scan::Counts) -> String {
    use crate::present::thousands;
    let mut out = format!(" {} files walked", thousands(c.walked as u64));
    if c.to_read > 0 {
        out.push_str(&format!(
            ", {} of {} read",
            thousands(c.read as u64),
            thousands(c.to_read as u64)
        ));
    }
    out
}
