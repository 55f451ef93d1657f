//! The Problems tab: the snapshot's findings grouped by cause, most severe first (the library's
//! `Group`s); a cause's detail shows what it is, its fix, and every skill it covers.

use super::other::{detail_block, side_table};
use super::style::{self, safe};
use crate::findings::{self, Affected, Code, Finding, Group, Severity};
use crate::tui::app::{App, FindingsShown, Focus};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, TableState, Wrap};

/// A severity's glyph and colour.
pub fn severity_span(s: Severity) -> Span<'static> {
    match s {
        Severity::Error => Span::styled("✗", Style::new().fg(Color::Red)),
        Severity::Warning => Span::styled("!", Style::new().fg(Color::Yellow)),
        Severity::Info => Span::styled("i", Style::new().fg(Color::Blue)),
    }
}

/// Untrusted text of a finding (paths, names) as one safe line, the project and home shortened.
fn say(app: &App, s: &str) -> String {
    crate::present::shorten(&app.env, s)
}

/// Agent ids as the skills table's column titles (labels of up to 7 characters, all different).
fn labels(app: &App, agents: &[String]) -> Vec<String> {
    let titles = app.agent_titles();
    agents
        .iter()
        .map(|a| {
            app.models
                .iter()
                .position(|m| &m.id == a)
                .map_or_else(|| safe(a), |i| titles[i].clone())
        })
        .collect()
}

/// Agent ids as the skills table's two-letter codes.
fn abbrevs(app: &App, agents: &[String]) -> Vec<String> {
    agents
        .iter()
        .map(|a| {
            app.models
                .iter()
                .find(|m| &m.id == a)
                .map_or_else(|| safe(a), |m| m.abbrev())
        })
        .collect()
}

/// `items` joined by spaces within `max` characters: as many whole items as fit with a
/// "+N" for the rest (only "+N" when not even one fits).
fn fit_items(items: &[String], max: usize) -> String {
    let shown = |k: usize| match items.len() - k {
        0 => items.join(" "),
        rest if k == 0 => format!("+{rest}"),
        rest => format!("{} +{rest}", items[..k].join(" ")),
    };
    (1..=items.len())
        .rev()
        .map(shown)
        .find(|s| s.chars().count() <= max)
        .unwrap_or_else(|| shown(0))
}

/// Agent ids as names.
fn names(app: &App, agents: &[String]) -> String {
    agents
        .iter()
        .map(|a| {
            app.models
                .iter()
                .find(|m| &m.id == a)
                .map_or_else(|| safe(a), |m| m.name.clone())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn draw(f: &mut Frame, app: &App, list: Option<Rect>, detail: Option<Rect>) {
    if let Some(area) = list {
        draw_cause_list(f, app, area);
    }
    if let Some(area) = detail {
        draw_cause_detail(f, app, area);
    }
}

/// The causes' column widths: CODE and # sized to the causes shown (the broken view keeps only
/// some of them), AGENTS to its lists but never below [`MIN_CAUSE`] left for CAUSE (a long
/// list is cut to "cl cp +5"), CAUSE what the borders, the other columns and their gaps leave.
struct CauseColumns {
    count: u16,
    code: u16,
    agents: u16,
    cause: usize,
}

/// The width the cause's sentence keeps before the agents' list gets its whole width.
const MIN_CAUSE: usize = 24;

/// The width below which a problem code is not cut.
const MIN_CODE: usize = 14;

/// The width the cause's sentence keeps before a long problem code is cut.
const MIN_CAUSE_BESIDE_CODE: usize = 16;

/// A cause's agents as its row shows them within `max` characters: two-letter codes (as the
/// skills table when narrow) unless the list is wide.
fn cause_agents(app: &App, g: &Group, width: u16, max: usize) -> String {
    let items = if width >= 100 {
        labels(app, &g.agents)
    } else {
        abbrevs(app, &g.agents)
    };
    fit_items(&items, max)
}

fn cause_columns(app: &App, width: u16) -> CauseColumns {
    let shown = || app.problems.groups.iter().take(app.problem_groups());
    let code = shown()
        .map(|g| g.code.as_str().len())
        .max()
        .unwrap_or(4)
        .max(4);
    let count = shown()
        .map(|g| g.skills.to_string().len())
        .max()
        .unwrap_or(1)
        .max(1) as u16;
    // Borders, the severity column, the four gaps between the five columns, the highlight.
    let fixed = 2 + 1 + count as usize + 4 + 2;
    // A long code is cut (the detail shows it whole) only before the cause gets narrower than
    // MIN_CAUSE_BESIDE_CODE next to the narrowest agents' column.
    let code = code.min(
        (width as usize)
            .saturating_sub(fixed + 6 + MIN_CAUSE_BESIDE_CODE)
            .max(MIN_CODE),
    );
    let room = (width as usize).saturating_sub(fixed + code);
    let wanted = shown()
        .map(|g| cause_agents(app, g, width, usize::MAX).chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, 20);
    let agents = wanted.min(room.saturating_sub(MIN_CAUSE)).max(6);
    CauseColumns {
        count,
        code: code as u16,
        agents: agents as u16,
        cause: room.saturating_sub(agents).max(8),
    }
}

/// The list pane: one row per cause shown (severity, skills, code, agents, the cause cut to fit).
fn draw_cause_list(f: &mut Frame, app: &App, area: Rect) {
    let p = &app.problems;
    let cols = cause_columns(app, area.width);
    let rows: Vec<Row> = p
        .groups
        .iter()
        .take(app.problem_groups())
        .enumerate()
        .map(|(gi, g)| {
            let members = &p.members[gi];
            Row::new(vec![
                Cell::from(severity_span(g.severity)),
                Cell::from(Line::from(g.skills.to_string()).right_aligned()),
                Cell::from(crate::present::cut(g.code.as_str(), cols.code as usize)),
                Cell::from(cause_agents(app, g, area.width, cols.agents as usize)),
                Cell::from(crate::present::cut_words(
                    &cause_text(app, g, members),
                    cols.cause,
                )),
            ])
        })
        .collect();
    let title = cause_list_title(app, area.width);
    let (t, mut st) = side_table(
        app,
        &title,
        rows,
        vec![
            Constraint::Length(1),
            Constraint::Length(cols.count),
            Constraint::Length(cols.code),
            Constraint::Length(cols.agents),
            Constraint::Fill(1),
        ],
    );
    let t = t.header(Row::new(vec!["", "#", "CODE", "AGENTS", "CAUSE"]).style(style::title()));
    f.render_stateful_widget(t, area, &mut st);
    if p.groups.is_empty() && app.catalog.is_some() {
        let inner = Rect::new(area.x + 2, area.y + 3, area.width.saturating_sub(4), 2);
        let text = match app.findings_shown {
            FindingsShown::Coming => "Working out the findings…".to_string(),
            // Nothing shown before them either: "no findings" would be a claim.
            FindingsShown::Failed { previous: false } => format!(
                "The findings could not be worked out (the note says why); {} rescans.",
                app.keymap.key_of(crate::tui::keys::Action::Rescan)
            ),
            _ => "No findings: every agent loads what is here.".to_string(),
        };
        f.render_widget(
            Paragraph::new(text)
                .style(style::dim())
                .wrap(Wrap { trim: false }),
            inner,
        );
    }
}

/// The list's title: the broken view's skills, errors and causes (and the way back when it
/// fits), else every cause with the findings' counts by severity.
fn cause_list_title(app: &App, width: u16) -> String {
    let p = &app.problems;
    if !app.problems_broken {
        let [e, w, i] = p.counts;
        return format!(
            "Problems by cause {} · {e} errors, {w} warnings, {i} info",
            p.groups.len()
        );
    }
    let broken = app.broken_skills();
    // The error findings of the causes listed: the header's error count. The findings
    // are every agent's, whichever columns are shown: the title says so.
    let errors: usize = p
        .groups
        .iter()
        .take(app.problem_groups())
        .map(|g| g.count)
        .sum();
    let agents = match app.hidden_agents() {
        0 => "some agent".to_string(),
        _ => format!("any of all {} agents", app.models.len()),
    };
    let t = format!(
        "Broken for {agents}: {broken} skill{}, {errors} error{} in {} causes",
        if broken == 1 { "" } else { "s" },
        if errors == 1 { "" } else { "s" },
        app.problem_groups()
    );
    // The way back when it fits (the footer lists `b` too).
    let back = " · b shows all";
    if t.chars().count() + back.len() + 4 <= width as usize {
        t + back
    } else {
        t
    }
}

/// The detail pane: the selected cause's what-and-fix, its skills, and the selected skill's
/// own finding; a placeholder while scanning or with no cause selected.
fn draw_cause_detail(f: &mut Frame, app: &App, area: Rect) {
    let p = &app.problems;
    let Some((g, affected)) = app.current_group() else {
        let msg = if app.catalog.is_none() {
            "Scanning…"
        } else if !app.findings_fit_skills() {
            "Working out the findings…"
        } else {
            "No cause selected."
        };
        f.render_widget(
            Paragraph::new(msg)
                .style(style::dim())
                .block(detail_block(app, " Cause ".into())),
            area,
        );
        return;
    };
    let block = detail_block(app, format!(" {} ", g.code));
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.height == 0 || inner.width == 0 {
        return;
    }
    let members = &p.members[app.side_cursor];
    let info = info_lines(app, g, members.first().map(|&i| &p.findings[i]));
    // The selected skill's own finding (message and fix), below its list.
    let own: Vec<Line> = affected
        .get(app.problem_cursor)
        .and_then(|a| a.finding)
        .and_then(|i| p.findings.get(i))
        .map(|f| own_lines(app, f))
        .unwrap_or_default();
    let w = inner.width as usize;
    let own_h = (wrapped_height(&own, w) as u16).min(inner.height / 4);
    let info_h =
        (wrapped_height(&info, w) as u16).min(inner.height.saturating_sub(own_h + 4) / 2 + 1);
    let [top, table, bottom] = Layout::vertical([
        Constraint::Length(info_h),
        Constraint::Min(2),
        Constraint::Length(own_h),
    ])
    .areas(inner);
    f.render_widget(
        Paragraph::new(Text::from(info)).wrap(Wrap { trim: false }),
        top,
    );
    // Only the rows a frame can show are made: a page before the cursor and one after it. A
    // fresh state scrolls the selected row to the bottom of the table once it is past the
    // first page, so the slice shows the same rows the whole list would.
    let page = table.height as usize;
    let start = app.problem_cursor.saturating_sub(page);
    let end = app
        .problem_cursor
        .saturating_add(page + 1)
        .min(affected.len());
    let mut st = TableState::default().with_selected(if affected.is_empty() {
        None
    } else {
        Some(app.problem_cursor - start)
    });
    let width = agents_width(app, affected);
    let shown = affected.get(start..end).unwrap_or_default();
    f.render_stateful_widget(
        affected_table(app, shown, affected.len(), width),
        table,
        &mut st,
    );
    if own_h > 0 {
        f.render_widget(
            Paragraph::new(Text::from(own)).wrap(Wrap { trim: false }),
            bottom,
        );
    }
}

/// The width of the agents column of the selected group's skills list (the widest cell, within
/// 6 and 20), measured once a group and snapshot.
fn agents_width(app: &App, affected: &[Affected]) -> u16 {
    let measure = || {
        affected
            .iter()
            .map(|a| labels(app, &a.agents).join(" ").chars().count())
            .max()
            .unwrap_or(0)
    };
    let widest = match app.problems.agents_widths.get(app.side_cursor) {
        Some(memo) => *memo.get_or_init(measure),
        None => measure(),
    };
    widest.clamp(6, 20) as u16
}

/// Rows `affected` of a cause's skills (of `total`): name, agents, path; the title says what
/// Enter does.
fn affected_table<'a>(
    app: &'a App,
    affected: &[Affected],
    total: usize,
    agents_w: u16,
) -> Table<'a> {
    let agents: Vec<String> = affected
        .iter()
        .map(|a| labels(app, &a.agents).join(" "))
        .collect();
    let rows: Vec<Row> = affected
        .iter()
        .zip(&agents)
        .filter_map(|(a, shown)| {
            let s = app.skill(a.skill)?;
            Some(Row::new(vec![
                Cell::from(safe(s.label())),
                Cell::from(shown.clone()),
                Cell::from(Span::styled(
                    crate::present::show_path(&app.env, &s.path),
                    style::dim(),
                )),
            ]))
        })
        .collect();
    let focused = app.focus == Focus::Detail;
    Table::new(
        rows,
        [
            Constraint::Percentage(35),
            Constraint::Length(agents_w),
            Constraint::Min(10),
        ],
    )
    .header(Row::new(vec!["SKILL", "AGENTS", "PATH"]).style(style::title()))
    .block(
        Block::new()
            .borders(Borders::TOP)
            .title(format!(
                " {} skill{}{} ",
                total,
                if total == 1 { "" } else { "s" },
                if focused {
                    " · Enter opens its Why"
                } else {
                    " · Enter to choose"
                }
            ))
            .border_style(style::dim()),
    )
    .column_spacing(1)
    .row_highlight_style(if focused {
        style::selected()
    } else {
        Style::new().add_modifier(Modifier::BOLD)
    })
}

/// A group's cause in a few words for its row: the folder an agent never reads; who enforces a
/// spec problem; what the group's findings share ([`findings::group_reason`]), else the
/// deciding rules (without their agent) and where they apply.
fn cause_text(app: &App, g: &Group, members: &[usize]) -> String {
    let findings = &app.problems.findings;
    let first = members.first().map(|&i| &findings[i]);
    let show = |r: &std::path::Path| crate::present::show_path(&app.env, r);
    if g.code == Code::RootNotScanned {
        return g.roots.first().map(|r| show(r)).unwrap_or_default();
    }
    if g.cause.rule.starts_with("spec/") {
        return match first {
            Some(f) if !f.enforced_by.is_empty() => {
                format!("enforced by {}", safe(&f.enforced_by.join(", ")))
            }
            _ if g.severity == Severity::Info => "no agent acts on it".into(),
            _ => String::new(),
        };
    }
    // A verdict's cause: the reason its findings share, or its rule's general statement.
    if let Some(r) = findings::group_reason(g, findings, members) {
        return say(app, &r);
    }
    let mut keys: Vec<&str> = Vec::new();
    for r in &g.rules {
        let k = r.split_once('/').map_or(r.as_str(), |(_, k)| k);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let at = match g.roots.as_slice() {
        [] => String::new(),
        [r] => format!(" in {}", show(r)),
        roots => format!(" in {} folders", roots.len()),
    };
    format!("{}{at}", safe(&keys.join(", ")))
}

/// What the cause is, who it concerns, and what to do.
fn info_lines(app: &App, g: &Group, first: Option<&Finding>) -> Vec<Line<'static>> {
    let mut lines = vec![
        Line::from(vec![
            severity_span(g.severity),
            Span::styled(
                format!(
                    " {} · {} · {} skill{} · {} finding{}",
                    g.severity.as_str(),
                    g.code,
                    g.skills,
                    if g.skills == 1 { "" } else { "s" },
                    g.count,
                    if g.count == 1 { "" } else { "s" }
                ),
                style::title(),
            ),
        ]),
        Line::from(say(app, &g.summary)),
    ];
    const FIXES: usize = 3;
    for fx in g.fixes.iter().take(FIXES) {
        lines.push(Line::from(vec![
            Span::styled("fix: ", Style::new().fg(Color::Green)),
            Span::raw(say(app, &fx.text)),
        ]));
    }
    if g.fixes.len() > FIXES {
        lines.push(Line::from(Span::styled(
            format!(
                "… {} more fixes: each skill's own is below its list",
                g.fixes.len() - FIXES
            ),
            style::dim(),
        )));
    }
    if g.fixes.is_empty() {
        lines.push(Line::from(vec![
            Span::styled("fix: ", Style::new().fg(Color::Green)),
            Span::raw(g.code.help()),
        ]));
    }
    let label = |k: &str| Span::styled(format!("{k}: "), style::dim());
    let cause = if g.rules.len() > 1 {
        g.rules.join(", ")
    } else {
        g.cause.rule.to_string()
    };
    let mut cause_line = vec![label("cause"), Span::raw(safe(&cause))];
    match g.roots.as_slice() {
        [] => {}
        [r] => cause_line.push(Span::raw(format!(
            " × {}",
            crate::present::show_path(&app.env, r)
        ))),
        roots => cause_line.push(Span::raw(format!(" × {} folders", roots.len()))),
    }
    lines.push(Line::from(cause_line));
    if !g.agents.is_empty() {
        lines.push(Line::from(vec![
            label("agents"),
            Span::raw(names(app, &g.agents)),
        ]));
    }
    if let Some(f) = first.filter(|f| !f.enforced_by.is_empty()) {
        lines.push(Line::from(vec![
            label("enforced by"),
            Span::raw(safe(&f.enforced_by.join(", "))),
        ]));
    }
    lines.push(Line::from(Span::styled(g.code.description(), style::dim())));
    lines
}

/// The selected skill's own finding: its message (with the line) and its fix.
fn own_lines(app: &App, f: &Finding) -> Vec<Line<'static>> {
    let at = f.line.map(|l| format!(" (line {l})")).unwrap_or_default();
    let mut lines = vec![Line::from(vec![
        Span::styled("› ", style::key()),
        Span::raw(format!("{}{at}", say(app, &f.message))),
    ])];
    if let Some(fx) = &f.fix {
        lines.push(Line::from(vec![
            Span::styled("  fix: ", Style::new().fg(Color::Green)),
            Span::raw(say(app, &fx.text)),
        ]));
    }
    lines
}

/// Rows `lines` take when word-wrapped to `width` (as `Wrap { trim: false }` wraps, near
/// enough: words longer than the width are cut).
fn wrapped_height(lines: &[Line], width: usize) -> usize {
    let width = width.max(1);
    lines
        .iter()
        .map(|l| {
            let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            let mut rows: usize = 1;
            let mut col: usize = 0;
            for word in text.split(' ') {
                let w = Span::raw(word).width();
                let need = if col == 0 { w } else { col + 1 + w };
                if need <= width {
                    col = need;
                } else if w <= width {
                    rows += 1;
                    col = w;
                } else {
                    rows += (col + 1 + w).div_ceil(width).saturating_sub(1);
                    col = (col + 1 + w) % width;
                }
            }
            rows
        })
        .sum()
}
