//! The skills table and the detail of the selected skill (Why, Fields, File).

use super::style::{self, safe};
use crate::resolve::Status;
use crate::tui::app::{App, DetailTab, Focus};
use crate::tui::update::detail_tab_spans;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Cell, Paragraph, Row, Table, TableState, Wrap};

fn short(id: &str) -> String {
    crate::cli::list::short(id).to_string()
}

/// An agent's column title in the skills table when it shows several agents with room for
/// full titles (the header's per-agent counts use it too).
pub fn column_label(m: &crate::agents::AgentModel) -> String {
    short(&m.id).chars().take(6).collect()
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
    let agents = app.shown_agents();
    let title = format!(
        " Skills {}/{} · sort {} · {}{}{} ",
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
    );
    let block = Block::bordered()
        .title(title)
        // Search matches the filters hide take the legend's place while there are any.
        .title_bottom(match hidden_note(&app.hidden) {
            Some(note) => Line::from(Span::styled(note, style::title())),
            None => Line::from(style::legend_for(area.width)),
        })
        .border_style(style::focused_border(app.focus == Focus::List));
    let mut header = vec![Cell::from("SKILL"), Cell::from("SCOPE")];
    let mut widths = vec![Constraint::Min(12), Constraint::Length(7)];
    // Full column titles when there is room for them and a 20-character name, else two letters.
    let full: usize = agents
        .iter()
        .map(|&ai| short(&app.models[ai].id).chars().count().min(6) + 1)
        .sum();
    let roomy = agents.len() == 1 || area.width as usize >= 2 + 21 + 8 + full;
    for &ai in &agents {
        let m = &app.models[ai];
        let title = if roomy && agents.len() > 1 {
            column_label(m)
        } else if roomy {
            short(&m.id).chars().take(20).collect::<String>()
        } else {
            m.abbrev()
        };
        let w = title.chars().count().max(1);
        header.push(Cell::from(title));
        widths.push(Constraint::Length(w as u16));
    }
    let h = app.list_height();
    let rows: Vec<Row> = app
        .rows
        .iter()
        .enumerate()
        .skip(app.offset)
        .take(h)
        .filter_map(|(_, r)| {
            let s = app.skill(r.skill)?;
            let mark = if app.changed.contains(&s.path) {
                "• "
            } else {
                ""
            };
            let label = format!("{mark}{}", safe(s.label()));
            let hits = app.hits(r);
            // Highlight the characters the search matched (indices are of the raw label).
            let raw: Vec<char> = s.label().chars().collect();
            let name: Line =
                if hits.is_empty() || !mark.is_empty() || raw.len() != label.chars().count() {
                    Line::from(label)
                } else {
                    Line::from(
                        raw.iter()
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
                };
            let mut cells = vec![Cell::from(name), Cell::from(s.scope.as_str())];
            for &ai in &agents {
                let id = &app.models[ai].id;
                let cell = match s.verdict(id) {
                    Some(v) => Cell::from(style::verdict_span(v)),
                    None => Cell::from(" "),
                };
                cells.push(cell);
            }
            Some(Row::new(cells))
        })
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

pub fn draw_detail(f: &mut Frame, app: &App, area: Rect) {
    let block = Block::bordered()
        .border_style(style::focused_border(app.focus == Focus::Detail))
        .title(" Detail ");
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.height == 0 {
        return;
    }
    // Detail tabs on the first line.
    let mut spans = Vec::new();
    for (t, label) in detail_tab_spans() {
        let st = if t == app.detail_tab {
            style::selected()
        } else {
            style::dim()
        };
        spans.push(Span::styled(label, st));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled("(Tab)", style::dim()));
    f.render_widget(
        Line::from(spans),
        Rect::new(inner.x, inner.y, inner.width, 1),
    );
    let body = Rect::new(
        inner.x,
        inner.y + 1,
        inner.width,
        inner.height.saturating_sub(1),
    );
    let Some(s) = app.current() else {
        let msg = if app.catalog.is_none() {
            "Scanning…"
        } else {
            "No skill selected."
        };
        f.render_widget(Paragraph::new(msg).style(style::dim()), body);
        return;
    };
    let text = match app.detail_tab {
        DetailTab::Why => why_text(app, s),
        DetailTab::Fields => fields_text(app, s),
        DetailTab::File => file_text(app, s),
    };
    f.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .scroll((app.detail_scroll, 0)),
        body,
    );
}

fn show(app: &App, p: &std::path::Path) -> String {
    crate::cli::context::show_path(&app.env, p)
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
        let d: String = safe(d).chars().take(300).collect();
        out.push(Line::from(d));
    }
    out
}

fn why_text(app: &App, s: &crate::catalog::Skill) -> Text<'static> {
    let mut lines = head_lines(app, s);
    for p in &s.problems {
        let at = p.line.map(|l| format!(" (line {l})")).unwrap_or_default();
        lines.push(Line::from(vec![
            Span::styled(
                format!("spec {}[{}]", p.severity.as_str(), p.code),
                Style::new().fg(if p.severity == crate::spec::Severity::Error {
                    Color::Red
                } else {
                    Color::Yellow
                }),
            ),
            Span::raw(format!(": {}{at}", safe(&p.message))),
        ]));
    }
    for (ai, (agent, v)) in s.verdicts.iter().enumerate() {
        if app.agent_filter.is_some_and(|i| i != ai) {
            continue;
        }
        lines.push(Line::raw(""));
        let mut head = vec![
            style::verdict_span(v),
            Span::raw(" "),
            Span::styled(agent.clone(), style::title()),
            Span::raw("  "),
            Span::styled(
                v.status.as_str().to_string(),
                Style::new().fg(style::status_color(v.status)),
            ),
        ];
        if let Some(n) = &v.as_name {
            head.push(Span::raw(format!(" as `{}`", safe(n))));
        }
        if v.model == Some(false) {
            head.push(Span::styled(" (hidden from the model)", style::dim()));
        }
        lines.push(Line::from(head));
        if let Some(w) = &v.winner {
            lines.push(Line::from(format!("  winner: {}", show(app, w))));
        }
        for r in &v.reasons {
            lines.push(Line::from(vec![
                Span::raw("  • "),
                Span::raw(crate::cli::context::shorten(&app.env, &r.message)),
                Span::styled(format!(" {}", r.evidence), Style::new().fg(Color::Cyan)),
            ]));
            lines.push(Line::from(Span::styled(
                format!("    {} — {}", r.rule, safe(&r.source)),
                style::dim(),
            )));
        }
        if v.status == Status::Visible
            && let Some(t) = v.listing_tokens
        {
            lines.push(Line::from(Span::styled(
                format!("  listing entry ≈ {t} tokens (estimate)"),
                style::dim(),
            )));
        }
    }
    Text::from(lines)
}

fn fields_text(app: &App, s: &crate::catalog::Skill) -> Text<'static> {
    let mut lines = head_lines(app, s);
    lines.push(Line::raw(""));
    let agents = app.shown_agents();
    let mut keys: Vec<String> = s.keys.clone();
    for f in crate::skill::SPEC_FIELDS {
        if !keys.iter().any(|k| k == f) {
            keys.push(f.to_string());
        }
    }
    let kw = keys
        .iter()
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(5)
        .min(24);
    let mut header = vec![Span::styled(format!("{:<kw$}", "FIELD"), style::title())];
    for &ai in &agents {
        header.push(Span::styled(
            format!(
                " {:<8}",
                short(&app.models[ai].id)
                    .chars()
                    .take(8)
                    .collect::<String>()
            ),
            style::title(),
        ));
    }
    lines.push(Line::from(header));
    let mut effects: Vec<Line> = Vec::new();
    for k in &keys {
        let present = s.keys.contains(k);
        let name: String = safe(k).chars().take(kw).collect();
        let mut row = vec![Span::styled(
            format!("{name:<kw$}"),
            if present { Style::new() } else { style::dim() },
        )];
        for &ai in &agents {
            let m = &app.models[ai];
            let h = s
                .verdict(&m.id)
                .and_then(|v| v.fields.get(k).copied())
                .unwrap_or(crate::agents::Handling::Unknown);
            row.push(Span::styled(
                format!(" {:<8}", h.as_str()),
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
        lines.push(Line::from(row));
    }
    lines.push(Line::from(Span::styled(
        "dim rows: spec fields this skill does not set",
        style::dim(),
    )));
    // What each agent does with this skill's own values (the verdicts' field reasons).
    let mut consequences: Vec<Line> = Vec::new();
    for &ai in &agents {
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
                Span::styled(format!(" {}", r.evidence), style::dim()),
            ];
            if let Some(fix) = &r.fix {
                row.push(Span::styled(format!("  fix: {fix}"), style::key()));
            }
            consequences.push(Line::from(row));
        }
    }
    if !consequences.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::from(Span::styled(
            "What the agents do with these values",
            style::title(),
        )));
        lines.extend(consequences);
    }
    if !effects.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::from(Span::styled(
            "What reading a field does",
            style::title(),
        )));
        lines.extend(effects);
    }
    Text::from(lines)
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
