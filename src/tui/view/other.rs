//! The Collisions, Roots, Agents and Tokens tabs, and the help overlay.

use super::style::{self, safe};
use crate::resolve::Status;
use crate::tui::app::{App, Focus};
use crate::tui::layout;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Cell, Paragraph, Row, Table, TableState, Wrap};

fn show(app: &App, p: &std::path::Path) -> String {
    crate::cli::context::show_path(&app.env, p)
}

pub(super) fn side_table<'a>(
    app: &App,
    title: &str,
    rows: Vec<Row<'a>>,
    widths: Vec<Constraint>,
) -> (Table<'a>, TableState) {
    let block = Block::bordered()
        .title(format!(" {title} "))
        .border_style(style::focused_border(app.focus == Focus::List));
    let offset = layout::side_offset(app);
    let t = Table::new(rows.into_iter().skip(offset).collect::<Vec<_>>(), widths)
        .block(block)
        .row_highlight_style(style::selected());
    let st = TableState::default().with_selected(Some(app.side_cursor.saturating_sub(offset)));
    (t, st)
}

pub(super) fn detail_block(app: &App, title: String) -> Block<'static> {
    Block::bordered()
        .title(title)
        .border_style(style::focused_border(app.focus == Focus::Detail))
}

pub fn draw_collisions(f: &mut Frame, app: &App, list: Option<Rect>, detail: Option<Rect>) {
    if let Some(area) = list {
        let rows: Vec<Row> = app
            .collisions
            .iter()
            .map(|c| {
                Row::new(vec![
                    Cell::from(safe(&c.name)),
                    Cell::from(c.skills.len().to_string()),
                ])
            })
            .collect();
        let (t, mut st) = side_table(
            app,
            &format!("Collisions {}", app.collisions.len()),
            rows,
            vec![Constraint::Min(10), Constraint::Length(3)],
        );
        let t = t.header(Row::new(vec!["NAME", "#"]).style(style::title()));
        f.render_stateful_widget(t, area, &mut st);
    }
    let Some(area) = detail else { return };
    let block = detail_block(app, " Who wins ".into());
    let Some(c) = app.collisions.get(app.side_cursor) else {
        f.render_widget(
            Paragraph::new("No name is held by more than one SKILL.md.").block(block),
            area,
        );
        return;
    };
    let mut lines = vec![Line::from(Span::styled(
        format!("`{}`: {} copies", safe(&c.name), c.skills.len()),
        style::title(),
    ))];
    for (n, &si) in c.skills.iter().enumerate() {
        if let Some(s) = app.skill(si) {
            lines.push(Line::from(format!(
                "  {}. {} ({})",
                n + 1,
                show(app, &s.path),
                s.scope.as_str()
            )));
        }
    }
    for (ai, m) in app.models.iter().enumerate() {
        if app.agent_filter.is_some_and(|i| i != ai) {
            continue;
        }
        lines.push(Line::raw(""));
        let mut head = vec![Span::styled(m.id.clone(), style::title()), Span::raw("  ")];
        for (n, &si) in c.skills.iter().enumerate() {
            if let Some(v) = app.skill(si).and_then(|s| s.verdict(&m.id)) {
                head.push(Span::raw(format!("{}:", n + 1)));
                head.push(style::verdict_span(v));
                head.push(Span::raw(" "));
            }
        }
        lines.push(Line::from(head));
        let verdicts: Vec<_> = c
            .skills
            .iter()
            .filter_map(|&si| app.skill(si).and_then(|s| s.verdict(&m.id).map(|v| (s, v))))
            .collect();
        let visible: Vec<_> = verdicts
            .iter()
            .filter(|(_, v)| v.status == Status::Visible)
            .collect();
        let summary = match visible.len() {
            0 if verdicts.iter().all(|(_, v)| v.status == Status::NotFound) => {
                "sees none of them".to_string()
            }
            0 => "lists none of them".to_string(),
            1 => format!("uses {}", show(app, &visible[0].0.path)),
            n => format!("lists {n} copies"),
        };
        lines.push(Line::from(format!("  {summary}")));
        for (s, v) in &verdicts {
            let explain = matches!(v.status, Status::Shadowed | Status::Unknown)
                || (visible.len() > 1 && v.status == Status::Visible);
            if explain && let Some(r) = v.decisive() {
                lines.push(Line::from(vec![
                    Span::styled(format!("  {}: ", s.scope.as_str()), style::dim()),
                    Span::raw(crate::cli::context::shorten(&app.env, &r.message)),
                    Span::styled(format!(" {}", r.evidence), Style::new().fg(Color::Cyan)),
                ]));
            }
        }
    }
    f.render_widget(
        Paragraph::new(Text::from(lines))
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((app.detail_scroll, 0)),
        area,
    );
}

pub fn draw_roots(f: &mut Frame, app: &App, area: Rect) {
    let Some(cat) = &app.catalog else { return };
    let rows: Vec<Row> = cat
        .roots
        .iter()
        .map(|r| {
            let exists = if r.exists {
                r.files.to_string()
            } else {
                "-".into()
            };
            Row::new(vec![
                Cell::from(show(app, &r.path)),
                Cell::from(r.scope.as_str()),
                Cell::from(exists),
                Cell::from(
                    r.agents
                        .iter()
                        .map(|a| crate::cli::list::short(a))
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
            ])
            .style(if r.exists { Style::new() } else { style::dim() })
        })
        .collect();
    let (t, mut st) = side_table(
        app,
        &format!("Roots {} (\"-\": does not exist)", cat.roots.len()),
        rows,
        vec![
            Constraint::Percentage(45),
            Constraint::Length(7),
            Constraint::Length(6),
            Constraint::Min(10),
        ],
    );
    let t = t.header(Row::new(vec!["ROOT", "SCOPE", "SKILLS", "AGENTS"]).style(style::title()));
    f.render_stateful_widget(t, area, &mut st);
}

pub fn draw_agents(f: &mut Frame, app: &App, list: Option<Rect>, detail: Option<Rect>) {
    if let Some(area) = list {
        let rows: Vec<Row> = app
            .models
            .iter()
            .map(|m| {
                Row::new(vec![
                    Cell::from(m.id.clone()),
                    Cell::from(m.version.clone()),
                ])
            })
            .collect();
        let (t, mut st) = side_table(
            app,
            "Agents",
            rows,
            vec![Constraint::Min(11), Constraint::Length(10)],
        );
        let t = t.header(Row::new(vec!["ID", "MODEL OF"]).style(style::title()));
        f.render_stateful_widget(t, area, &mut st);
    }
    let Some(area) = detail else { return };
    let Some(m) = app.models.get(app.side_cursor) else {
        return;
    };
    let mut lines = vec![Line::from(Span::styled(
        format!("{} — model of {}, checked {}", m.name, m.version, m.checked),
        style::title(),
    ))];
    if let Some(d) = &m.docs {
        lines.push(Line::from(Span::styled(d.clone(), style::dim())));
    }
    if let Some(s) = &m.summary {
        lines.push(Line::raw(""));
        lines.push(Line::from(s.trim().replace('\n', " ")));
    }
    lines.push(Line::raw(""));
    for r in m.rules() {
        let cite = match r.version.as_deref().or(r.commit.as_deref()) {
            Some(v) => format!("[{} {v}]", r.evidence),
            None => format!("[{}]", r.evidence),
        };
        let vstyle = if r.value == "unknown" {
            Style::new().fg(Color::Magenta)
        } else {
            Style::new()
        };
        lines.push(Line::from(vec![
            Span::styled(r.id.clone(), style::title()),
            Span::raw(" = "),
            Span::styled(r.value.clone(), vstyle),
            Span::styled(format!(" {cite}"), Style::new().fg(Color::Cyan)),
        ]));
        for src in &r.sources {
            lines.push(Line::from(Span::styled(
                format!("  {}", src.render()),
                style::dim(),
            )));
        }
        if let Some(n) = r.note {
            lines.push(Line::from(Span::styled(
                format!("  note: {n}"),
                style::dim(),
            )));
        }
    }
    f.render_widget(
        Paragraph::new(Text::from(lines))
            .block(detail_block(app, format!(" {} rules ", m.id)))
            .wrap(Wrap { trim: false })
            .scroll((app.detail_scroll, 0)),
        area,
    );
}

pub fn draw_tokens(f: &mut Frame, app: &App, list: Option<Rect>, detail: Option<Rect>) {
    if let Some(area) = list {
        let rows: Vec<Row> = app
            .listing()
            .iter()
            .map(|r| {
                let budget = r.budget_tokens.map_or("?".to_string(), |b| b.to_string());
                let over = r.budget_tokens.is_some_and(|b| r.total_tokens > b);
                Row::new(vec![
                    Cell::from(r.agent.clone()),
                    Cell::from(r.entries.len().to_string()),
                    Cell::from(r.total_tokens.to_string()),
                    Cell::from(budget),
                ])
                .style(if over {
                    Style::new().fg(Color::Red)
                } else {
                    Style::new()
                })
            })
            .collect();
        let (t, mut st) = side_table(
            app,
            "Listing cost (estimate)",
            rows,
            vec![
                Constraint::Min(11),
                Constraint::Length(6),
                Constraint::Length(7),
                Constraint::Length(7),
            ],
        );
        let t =
            t.header(Row::new(vec!["AGENT", "SKILLS", "TOKENS", "BUDGET"]).style(style::title()));
        f.render_stateful_widget(t, area, &mut st);
    }
    let Some(area) = detail else { return };
    let Some(r) = app.listing().get(app.side_cursor) else {
        return;
    };
    let mut lines = vec![
        Line::from(Span::styled(
            format!(
                "{}: {} skills in the listing, ≈ {} tokens",
                r.agent,
                r.entries.len(),
                r.total_tokens
            ),
            style::title(),
        )),
        Line::from(format!("budget: {}", r.budget_note)),
    ];
    if r.hidden_from_model > 0 {
        lines.push(Line::from(format!(
            "{} visible skill(s) kept out of the model's listing",
            r.hidden_from_model
        )));
    }
    if !r.conditional.is_empty() {
        lines.push(Line::from(format!(
            "{} conditional skill(s) listed only once matching files are touched: ≈ {} tokens more",
            r.conditional.len(),
            r.conditional_tokens
        )));
    }
    if let Some(b) = r.bundle_tokens {
        lines.push(Line::from(format!(
            "file lists sent on activation: ≈ {b} tokens in all (every activation)"
        )));
    }
    if !r.cut_first.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::from(Span::styled(
            "Over budget: would be cut first (largest first; the agent's own order may differ)",
            Style::new().fg(Color::Red),
        )));
        for p in &r.cut_first {
            lines.push(Line::from(format!("  {}", show(app, p))));
        }
    }
    lines.push(Line::raw(""));
    let mut entries: Vec<_> = r.entries.iter().collect();
    entries.sort_by_key(|e| std::cmp::Reverse(e.tokens));
    for e in entries {
        lines.push(Line::from(format!(
            "{:>6}  {}  {}",
            e.tokens,
            safe(&e.name),
            show(app, &e.path)
        )));
    }
    f.render_widget(
        Paragraph::new(Text::from(lines))
            .block(detail_block(app, " Entries ".into()))
            .wrap(Wrap { trim: false })
            .scroll((app.detail_scroll, 0)),
        area,
    );
}
