//! The skills table and the detail of the selected skill (Why, Fields, File).

use super::style::{self, safe};
use super::wrap::wrap_all;
use crate::agents::Handling;
use crate::present;
use crate::tui::app::{App, DetailTab, Focus};
use crate::tui::update::detail_tab_spans;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Cell, Paragraph, Row, Table, TableState};

/// The skills table's columns for `width` inner columns, sized to their content: agent titles
/// as long as they fit next to a name column of up to 16 characters (the id, its first word,
/// that word cut with `…`, the two-letter code last; all different: `present::agent_labels`);
/// the scope where titles keep six characters with it; a root column where the names still have
/// room (with titles cut to their first word if that makes the room). When even two-letter
/// titles do not all fit beside 16 characters of name, the names keep them and the agent
/// columns show a window from `App::agent_offset` (`<`/`>` scroll it).
pub struct Columns {
    pub name: usize,
    pub root: Option<usize>,
    pub scope: bool,
    /// The titles of the agent columns shown.
    pub agents: Vec<String>,
    /// Indices into `models` of the agent columns shown, in order.
    pub shown: Vec<usize>,
    /// Agent columns left out before and after the window.
    pub before: usize,
    pub after: usize,
}

/// The least a name column keeps beside the agent columns (names cut to `…` say nothing).
pub const NAME_MIN: usize = 16;

pub fn columns(app: &App, width: usize) -> Columns {
    let all = app.shown_agents();
    // The widest name and root among the rows, kept by the app (not measured per frame).
    let widest = app.row_widths;
    let name_need = widest.map_or(12, |w| w.name + 2).clamp(12, 48);
    let name_min = name_need.min(NAME_MIN);
    // The window of agent columns: all of them when two-letter titles fit beside the names.
    let fit = width.saturating_sub(name_min) / 3;
    let (agents, before, after) = if all.len() <= fit.max(1) {
        (all.clone(), 0, 0)
    } else {
        let n = fit.max(1);
        let first = app.agent_offset.min(all.len() - n);
        (all[first..first + n].to_vec(), first, all.len() - first - n)
    };
    let models: Vec<&crate::agents::AgentModel> =
        agents.iter().map(|&ai| &app.models[ai]).collect();
    // The titles at each cap, made once a call (the fitting below asks for some caps twice).
    let made: [std::cell::OnceCell<Vec<String>>; 12] = Default::default();
    let labels = |cap: usize| -> &[String] {
        made[cap.min(11)].get_or_init(|| present::agent_labels(&models, cap.min(11)))
    };
    let used = |l: &[String]| {
        l.iter()
            .map(|t| t.chars().count().max(1) + 1)
            .sum::<usize>()
    };
    let mut scope = true;
    let mut cap = 11;
    loop {
        let fixed = if scope { 8 } else { 0 };
        if name_min + fixed + used(labels(cap)) <= width || cap <= 2 {
            if cap >= 6 || !scope {
                break;
            }
            // Drop the scope (the detail says it) before cutting titles below six characters.
            scope = false;
            cap = 11;
            continue;
        }
        cap -= 1;
    }
    let root_need = widest.map_or(0, |w| w.root).min(32);
    let name_pref = name_need.min(28);
    let fixed = if scope { 8 } else { 0 };
    let root_fits = |cap: usize| {
        let rest = width.saturating_sub(used(labels(cap)) + fixed);
        root_need > 0 && rest >= name_pref + 1 + root_need.min(14)
    };
    // A root column tells copies apart: worth titles cut to a first word.
    if cap > 7 && !root_fits(cap) && root_fits(7) {
        cap = 7;
    }
    let titles = labels(cap).to_vec();
    let rest = width.saturating_sub(used(&titles) + fixed);
    let root = root_fits(cap).then(|| root_need.min(rest - name_pref - 1));
    let name = match root {
        Some(r) => (rest - r - 1).min(name_need),
        None => rest.min(name_need),
    }
    .max(1);
    Columns {
        name,
        root,
        scope,
        agents: titles,
        shown: agents,
        before,
        after,
    }
}

/// Search matches the filters hide, e.g. ` 2 more hidden by scope: project — p cycles `.
fn hidden_note(h: &crate::tui::app::Hidden) -> Option<String> {
    use crate::tui::app::HiddenBy;
    if h.count == 0 {
        return None;
    }
    let one = h.by.len() == 1;
    let by: Vec<String> =
        h.by.iter()
            .map(|(b, n)| {
                let what = match b {
                    HiddenBy::Filter(f) => format!("filter: {}", f.label()),
                    HiddenBy::Scope(s) => format!("scope: {}", s.as_str()),
                };
                if one { what } else { format!("{what} ({n})") }
            })
            .collect();
    let keys: Vec<&str> =
        h.by.iter()
            .map(|(b, _)| match b {
                HiddenBy::Filter(_) => "f",
                HiddenBy::Scope(_) => "p",
            })
            .collect();
    Some(format!(
        " {} more hidden by {} — {} {} ",
        h.count,
        by.join(", "),
        keys.join(", "),
        if one { "cycles" } else { "cycle" }
    ))
}

pub fn draw_table(f: &mut Frame, app: &App, area: Rect) {
    let cols = columns(app, area.width.saturating_sub(2) as usize);
    let block = style::pane(app.focus == Focus::List, table_title(app, &cols))
        // Search matches the filters hide take the legend's place while there are any.
        .title_bottom(match hidden_note(&app.hidden) {
            Some(note) => Line::from(Span::styled(note, style::title())),
            None => Line::from(style::legend_for(area.width)),
        });
    let (header, widths) = table_header(&cols);
    let h = app.list_height();
    let rows: Vec<Row> = app
        .rows
        .iter()
        .skip(app.offset)
        .take(h)
        .filter_map(|r| skill_row(app, &cols, r))
        .collect();
    let table = Table::new(rows, widths)
        .header(Row::new(header).style(style::title()))
        .block(block)
        .column_spacing(1)
        .row_highlight_style(style::selected());
    let mut state = TableState::default().with_selected(if app.rows.is_empty() {
        None
    } else {
        Some(app.cursor - app.offset)
    });
    f.render_stateful_widget(table, area, &mut state);
    if app.rows.is_empty() && app.catalog.is_some() {
        let inner = Rect::new(area.x + 2, area.y + 3, area.width.saturating_sub(4), 2);
        f.render_widget(
            Paragraph::new("No skill matches (f, a, p and / change what is shown).")
                .style(style::dim()),
            inner,
        );
    }
}

/// The table's title: rows of all skills, the sort, the filter, the agent and scope shown, and
/// the agent columns' window (which ones, and the keys that scroll) when not all are shown.
fn table_title(app: &App, cols: &Columns) -> String {
    let window = if cols.before + cols.after > 0 {
        let n = cols.before + cols.shown.len() + cols.after;
        format!(
            " · agents {}–{} of {n} {}{}",
            cols.before + 1,
            cols.before + cols.shown.len(),
            if cols.before > 0 { "‹<" } else { "" },
            if cols.after > 0 { ">›" } else { "" },
        )
    } else {
        String::new()
    };
    format!(
        " Skills {}/{} · sort {} · {}{}{}{window} ",
        app.rows.len(),
        app.catalog.as_ref().map_or(0, |c| c.skills.len()),
        app.sort.label(),
        app.filter.label(),
        app.agent_filter
            .map(|i| format!(" · {}", app.models[i].id))
            .unwrap_or_default(),
        app.scope_filter
            .map(|s| format!(" · {}", s.as_str()))
            .unwrap_or_default(),
    )
}

/// The header cells and the column widths: SKILL, ROOT and SCOPE when shown, the agents.
fn table_header(cols: &Columns) -> (Vec<Cell<'static>>, Vec<Constraint>) {
    let mut header = vec![Cell::from("SKILL")];
    let mut widths = vec![Constraint::Length(cols.name as u16)];
    if let Some(w) = cols.root {
        header.push(Cell::from("ROOT"));
        widths.push(Constraint::Length(w as u16));
    }
    if cols.scope {
        header.push(Cell::from("SCOPE"));
        widths.push(Constraint::Length(7));
    }
    for title in &cols.agents {
        header.push(Cell::from(title.clone()));
        widths.push(Constraint::Length(title.chars().count().max(1) as u16));
    }
    (header, widths)
}

/// A skill's row: its name (marked when just changed), root, scope, and a verdict glyph per
/// agent column shown.
fn skill_row(app: &App, cols: &Columns, r: &crate::tui::app::Row) -> Option<Row<'static>> {
    let s = app.skill(r.skill)?;
    let mut cells = vec![Cell::from(skill_name(app, s, r, cols.name))];
    if let Some(w) = cols.root {
        let root = s.root.as_deref().map(|r| show(app, r)).unwrap_or_default();
        cells.push(Cell::from(Span::styled(
            present::cut(&root, w),
            style::dim(),
        )));
    }
    if cols.scope {
        cells.push(Cell::from(s.scope.as_str()));
    }
    for &ai in &cols.shown {
        let id = &app.models[ai].id;
        let cell = match s.verdict(id) {
            Some(v) => Cell::from(style::verdict_span(v)),
            None => Cell::from(" "),
        };
        cells.push(cell);
    }
    Some(Row::new(cells))
}

/// A skill's name cut to `width`, `• ` first when it just changed, the characters the search
/// matched highlighted (indices are of the raw label, so only when the name is shown as is).
fn skill_name(
    app: &App,
    s: &crate::catalog::Skill,
    r: &crate::tui::app::Row,
    width: usize,
) -> Line<'static> {
    let mark = if app.changed.contains(&s.path) {
        "• "
    } else {
        ""
    };
    let full = format!("{mark}{}", safe(s.label()));
    let label = present::cut(&full, width);
    let hits = app.hits(r);
    let raw: Vec<char> = s.label().chars().collect();
    if hits.is_empty() || !mark.is_empty() || raw.len() != full.chars().count() {
        return Line::from(label);
    }
    let keep = label.chars().count();
    let cut = keep < raw.len();
    Line::from(
        raw.iter()
            .take(if cut { keep - 1 } else { keep })
            .chain(cut.then_some(&'…'))
            .enumerate()
            .map(|(i, c)| {
                let st = if hits.contains(&(i as u32)) {
                    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
                } else {
                    Style::new()
                };
                Span::styled(c.to_string(), st)
            })
            .collect::<Vec<_>>(),
    )
}

pub fn draw_detail(f: &mut Frame, app: &App, area: Rect) {
    let block = style::pane(app.focus == Focus::Detail, " Detail ".into());
    let inner = block.inner(area);
    if inner.height == 0 {
        f.render_widget(block, area);
        return;
    }
    // Detail tabs on the first line.
    let mut spans = Vec::new();
    for (t, label) in detail_tab_spans() {
        let st = if t == app.detail_tab {
            style::active_tab()
        } else {
            style::dim()
        };
        spans.push(Span::styled(label, st));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled("(Tab)", style::dim()));
    let body = Rect::new(
        inner.x,
        inner.y + 1,
        inner.width,
        inner.height.saturating_sub(1),
    );
    if app.current().is_none() {
        f.render_widget(block, area);
        let msg = if app.catalog.is_none() {
            "Scanning…"
        } else {
            "No skill selected."
        };
        f.render_widget(Paragraph::new(msg).style(style::dim()), body);
    } else {
        let lines = detail_lines(app, body.width as usize);
        super::draw_scrolled(f, app, block, area, body, lines);
    }
    f.render_widget(
        Line::from(spans),
        Rect::new(inner.x, inner.y, inner.width, 1),
    );
}

/// The lines of the selected skill's detail (Why, Fields or File) for `width` columns.
pub fn detail_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let Some(s) = app.current() else {
        return Vec::new();
    };
    match app.detail_tab {
        DetailTab::Why => super::why::lines(app, s, width),
        DetailTab::Fields => fields_lines(app, s, width),
        DetailTab::File => wrap_all(file_text(app, s).lines, width, 6),
    }
}

fn show(app: &App, p: &std::path::Path) -> String {
    crate::present::show_path(&app.env, p)
}

fn head_lines(app: &App, s: &crate::catalog::Skill) -> Vec<Line<'static>> {
    let mut out = vec![
        Line::from(vec![
            Span::styled(safe(s.label()), style::title()),
            Span::raw(format!("  {} scope", s.scope.as_str())),
        ]),
        Line::from(Span::styled(show(app, &s.path), style::dim())),
    ];
    if let Some(d) = &s.description {
        let d = crate::present::cut_words(&safe(d), 300);
        out.push(Line::from(d));
    }
    out
}

fn fields_lines(app: &App, s: &crate::catalog::Skill, width: usize) -> Vec<Line<'static>> {
    let mut lines = wrap_all(head_lines(app, s), width, 2);
    lines.push(Line::raw(""));
    let agents = app.shown_agents();
    let mut keys: Vec<String> = s.keys.clone();
    for f in crate::skill::SPEC_FIELDS {
        if !keys.iter().any(|k| k == f) {
            keys.push(f.to_string());
        }
    }
    let (kw, cw) = field_widths(app, &agents, &keys, width);
    let mut header = vec![Span::styled(format!("{:<kw$}", "FIELD"), style::title())];
    let shown: Vec<&crate::agents::AgentModel> = agents.iter().map(|&ai| &app.models[ai]).collect();
    for title in present::agent_labels(&shown, cw) {
        header.push(Span::styled(format!(" {title:<cw$}"), style::title()));
    }
    lines.push(Line::from(header));
    let mut effects: Vec<Line> = Vec::new();
    for k in &keys {
        lines.push(field_row(app, s, &agents, k, (kw, cw), &mut effects));
    }
    lines.extend(super::wrap::wrap(
        vec![Span::styled(
            if cw < Handling::Unsupported.as_str().len() {
                "dim rows: spec fields this skill does not set · ign ignored, uns unsupported, \
                 unk unknown"
            } else {
                "dim rows: spec fields this skill does not set"
            },
            style::dim(),
        )],
        width,
        2,
    ));
    // What each agent does with this skill's own values (the verdicts' field reasons).
    let consequences = field_consequences(app, s, &agents);
    titled_section(
        "What the agents do with these values",
        consequences,
        width,
        &mut lines,
    );
    titled_section("What reading a field does", effects, width, &mut lines);
    lines
}

/// The field table's widths (the field names', each agent column's): sized to their content
/// and the width, so that a field's row is never wrapped.
fn field_widths(app: &App, agents: &[usize], keys: &[String], width: usize) -> (usize, usize) {
    let n = agents.len().max(1);
    let kw = keys
        .iter()
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(5)
        .clamp(5, 24)
        .min(width.saturating_sub(n * 5).max(5));
    let content = agents
        .iter()
        .map(|&ai| app.models[ai].id.chars().count())
        .chain([Handling::Unsupported.as_str().len()])
        .max()
        .unwrap_or(4);
    let cw = (width.saturating_sub(kw) / n)
        .saturating_sub(1)
        .clamp(2, content);
    (kw, cw)
}

/// A field's row: its name (dim when the skill does not set it) and how each agent handles it;
/// what reading it does, for the agents that read a field the skill sets, goes to `effects`.
fn field_row(
    app: &App,
    s: &crate::catalog::Skill,
    agents: &[usize],
    k: &String,
    (kw, cw): (usize, usize),
    effects: &mut Vec<Line<'static>>,
) -> Line<'static> {
    let present = s.keys.contains(k);
    let name = present::cut(&safe(k), kw);
    let mut row = vec![Span::styled(
        format!("{name:<kw$}"),
        if present { Style::new() } else { style::dim() },
    )];
    for &ai in agents {
        let m = &app.models[ai];
        let h = s
            .verdict(&m.id)
            .and_then(|v| v.fields.get(k).copied())
            .unwrap_or(crate::agents::Handling::Unknown);
        row.push(Span::styled(
            format!(" {:<cw$}", present::handling_label(h, cw)),
            style::handling_style(h),
        ));
        if present
            && h == crate::agents::Handling::Read
            && let Some(e) = m.fields.get(k.as_str()).and_then(|r| r.effect.as_ref())
        {
            effects.push(Line::from(vec![
                Span::styled(format!("{} · {}: ", m.id, safe(k)), style::dim()),
                Span::raw(e.clone()),
            ]));
        }
    }
    Line::from(row)
}

/// The verdicts' field reasons, per agent shown: what each does with this skill's own values.
fn field_consequences(
    app: &App,
    s: &crate::catalog::Skill,
    agents: &[usize],
) -> Vec<Line<'static>> {
    let mut consequences: Vec<Line> = Vec::new();
    for &ai in agents {
        let m = &app.models[ai];
        let Some(v) = s.verdict(&m.id) else { continue };
        let field_rule = |r: &&crate::resolve::Reason| {
            matches!(
                r.topic,
                crate::agents::Topic::Field | crate::agents::Topic::FieldValue
            )
        };
        for r in v.reasons.iter().filter(field_rule) {
            let mut row = vec![
                Span::styled(format!("{} · ", m.id), style::dim()),
                Span::styled(
                    safe(&r.message),
                    Style::new().fg(style::status_color(v.status)),
                ),
                Span::styled(format!(" {}", r.evidence()), style::dim()),
            ];
            if let Some(fix) = &r.fix {
                row.push(Span::styled(format!("  fix: {fix}"), style::key()));
            }
            consequences.push(Line::from(row));
        }
    }
    consequences
}

/// A titled section after a blank line, its lines wrapped with a hanging indent; nothing when
/// it has no lines.
fn titled_section(
    title: &'static str,
    body: Vec<Line<'static>>,
    width: usize,
    out: &mut Vec<Line<'static>>,
) {
    if body.is_empty() {
        return;
    }
    out.push(Line::raw(""));
    out.push(Line::from(Span::styled(title, style::title())));
    out.extend(wrap_all(body, width, 4));
}

fn file_text(app: &App, s: &crate::catalog::Skill) -> Text<'static> {
    let mut lines = head_lines(app, s);
    lines.push(Line::raw(""));
    let marks: Vec<(usize, usize, String)> = s
        .problems
        .iter()
        .filter_map(|p| {
            Some((
                p.line?,
                p.column.unwrap_or(1),
                format!("{}: {}", p.code, p.message),
            ))
        })
        .collect();
    if s.head.is_empty() {
        lines.push(Line::from(Span::styled(
            "(the file could not be read)",
            style::dim(),
        )));
    }
    for (i, raw) in s.head.lines().enumerate() {
        let n = i + 1;
        let text = safe(raw);
        lines.push(Line::from(vec![
            Span::styled(format!("{n:>3} │ "), style::dim()),
            Span::raw(text.clone()),
        ]));
        for (l, c, msg) in marks.iter().filter(|(l, _, _)| *l == n) {
            let _ = l;
            // The caret sits under the column, counted in characters of the escaped line.
            let col = raw
                .chars()
                .take(c.saturating_sub(1))
                .map(|ch| safe(&ch.to_string()).chars().count())
                .sum::<usize>();
            lines.push(Line::from(vec![
                Span::styled("    │ ", style::dim()),
                Span::styled(
                    format!("{}^ {}", " ".repeat(col), safe(msg)),
                    Style::new().fg(Color::Red),
                ),
            ]));
        }
    }
    Text::from(lines)
}
