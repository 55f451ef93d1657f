//! The Collisions, Roots, Agents and Tokens tabs, and the help overlay.

use super::style::{self, safe};
use super::wrap::{wrap, wrap_all};
use crate::catalog::Skill;
use crate::resolve::{Reason, Status, Verdict};
use crate::tui::app::{App, Focus, ScanState};
use crate::tui::layout;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Row, Table, TableState};

fn show(app: &App, p: &std::path::Path) -> String {
    crate::present::show_path(&app.env, p)
}

pub(super) fn side_table<'a>(
    app: &App,
    title: &str,
    rows: Vec<Row<'a>>,
    widths: Vec<Constraint>,
) -> (Table<'a>, TableState) {
    let block = style::pane(app.focus == Focus::List, format!(" {title} "));
    let offset = layout::side_offset(app);
    let t = Table::new(rows.into_iter().skip(offset).collect::<Vec<_>>(), widths)
        .block(block)
        .row_highlight_style(style::selected());
    let st = TableState::default().with_selected(Some(app.side_cursor.saturating_sub(offset)));
    (t, st)
}

pub(super) fn detail_block(app: &App, title: String) -> Block<'static> {
    style::pane(app.focus == Focus::Detail, title)
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
    let lines = collision_lines(app, area.width.saturating_sub(2) as usize);
    draw_detail(f, app, detail_block(app, " Who wins ".into()), area, lines);
}

/// A detail pane inside its block, scrolled and clamped (see `view::draw_scrolled`).
fn draw_detail(
    f: &mut Frame,
    app: &App,
    block: Block<'static>,
    area: Rect,
    lines: Vec<Line<'static>>,
) {
    let body = block.inner(area);
    super::draw_scrolled(f, app, block, area, body, lines);
}

/// Who wins the selected collision: each copy with its root, then per agent which copy it uses
/// and the reason that decided it, each reason once.
pub fn collision_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let Some(c) = app.collisions.get(app.side_cursor) else {
        let msg = match app.scan {
            ScanState::Ready if app.catalog.is_some() => {
                "No name is held by more than one SKILL.md."
            }
            ScanState::Failed(_) => "The scan failed: no collisions to show.",
            _ => "Scanning… collisions appear when the scan is done.",
        };
        return vec![Line::from(Span::styled(msg, style::dim()))];
    };
    let mut lines = vec![Line::from(Span::styled(
        format!("`{}`: {} copies", safe(&c.name), c.skills.len()),
        style::title(),
    ))];
    let copies: Vec<&Skill> = c.skills.iter().filter_map(|&si| app.skill(si)).collect();
    for (n, s) in copies.iter().enumerate() {
        let mut spans = vec![
            Span::raw(format!("  {}. ", n + 1)),
            Span::raw(show(app, &s.path)),
            Span::styled(format!("  {}", s.scope.as_str()), style::dim()),
        ];
        if let Some(r) = &s.root {
            spans.push(Span::styled(
                format!(" · root {}", show(app, r)),
                style::dim(),
            ));
        }
        lines.extend(wrap(spans, width, 5));
    }
    let idw = app
        .models
        .iter()
        .map(|m| m.id.chars().count())
        .max()
        .unwrap_or(0);
    // Agents that reach no copy: one line at the end.
    let mut unseen: Vec<String> = Vec::new();
    lines.push(Line::raw(""));
    for (ai, m) in app.models.iter().enumerate() {
        if app.agent_filter.is_some_and(|i| i != ai) {
            continue;
        }
        match agent_copy_lines(app, &m.id, &copies, idw, width) {
            Some(agent_lines) => lines.extend(agent_lines),
            None => unseen.push(m.id.clone()),
        }
    }
    if !unseen.is_empty() {
        lines.push(Line::raw(""));
        lines.extend(wrap(
            vec![
                Span::styled("no copy in a root they scan: ", style::dim()),
                Span::raw(unseen.join(", ")),
            ],
            width,
            4,
        ));
    }
    lines
}

/// An agent's lines under a collision: its verdict on each copy with what it does with the
/// name, then the reasons that decided; none when the agent reaches no copy.
fn agent_copy_lines(
    app: &App,
    agent: &str,
    copies: &[&Skill],
    idw: usize,
    width: usize,
) -> Option<Vec<Line<'static>>> {
    let verdicts: Vec<(usize, &Verdict)> = copies
        .iter()
        .enumerate()
        .filter_map(|(n, s)| s.verdict(agent).map(|v| (n, v)))
        .collect();
    if verdicts.iter().all(|(_, v)| v.status == Status::NotFound) {
        return None;
    }
    let visible: Vec<usize> = verdicts
        .iter()
        .filter(|(_, v)| v.status == Status::Visible)
        .map(|(n, _)| *n)
        .collect();
    let mut head = vec![
        Span::styled(format!("{agent:<idw$}"), style::title()),
        Span::raw(" "),
    ];
    for (n, v) in &verdicts {
        head.push(Span::raw(format!(" {}", n + 1)));
        head.push(style::verdict_span(v));
    }
    head.push(Span::raw(format!(
        "  {}",
        copy_use_summary(&verdicts, &visible)
    )));
    let mut lines = wrap(head, width, 4);
    for (ns, r) in deciding_reasons_once(&verdicts, visible.len()) {
        let who: Vec<String> = ns.iter().map(|n| (n + 1).to_string()).collect();
        lines.extend(wrap(
            vec![
                Span::styled(format!("    {}: ", who.join(", ")), style::dim()),
                Span::raw(crate::present::shorten(&app.env, &r.message)),
                Span::styled(format!(" {}", r.evidence()), Style::new().fg(Color::Cyan)),
            ],
            width,
            6,
        ));
    }
    Some(lines)
}

/// What the agent does with the name, from the statuses alone (the reasons say why).
fn copy_use_summary(verdicts: &[(usize, &Verdict)], visible: &[usize]) -> String {
    let any = |st: Status| verdicts.iter().any(|(_, v)| v.status == st);
    match visible.len() {
        1 => format!("uses {}", visible[0] + 1),
        0 if any(Status::Unknown) => "which copy it uses is not established".to_string(),
        0 if any(Status::Shadowed) => "uses a copy outside this list".to_string(),
        0 => "loads none of them".to_string(),
        2 => "lists both".to_string(),
        n => format!("lists all {n}"),
    }
}

/// The deciding reason of each copy that is not simply used or unseen, each sentence once
/// (with every copy it is about).
fn deciding_reasons_once<'v>(
    verdicts: &[(usize, &'v Verdict)],
    visible: usize,
) -> Vec<(Vec<usize>, &'v Reason)> {
    let mut reasons: Vec<(Vec<usize>, &Reason)> = Vec::new();
    for (n, v) in verdicts {
        let explain = match v.status {
            Status::Shadowed | Status::Unknown | Status::Rejected => true,
            Status::Visible => visible > 1,
            Status::NotFound => false,
        };
        if !explain {
            continue;
        }
        let Some(r) = v.deciding() else { continue };
        match reasons
            .iter_mut()
            .find(|(_, o)| o.rule == r.rule && o.message == r.message)
        {
            Some((ns, _)) => ns.push(*n),
            None => reasons.push((vec![*n], r)),
        }
    }
    reasons
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
                        .map(|a| crate::present::short(a))
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
    let title = app
        .models
        .get(app.side_cursor)
        .map_or(" Rules ".to_string(), |m| format!(" {} rules ", m.id));
    let lines = agent_lines(app, area.width.saturating_sub(2) as usize);
    draw_detail(f, app, detail_block(app, title), area, lines);
}

/// Every rule of the selected agent with its value, evidence and sources.
pub fn agent_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let Some(m) = app.models.get(app.side_cursor) else {
        return Vec::new();
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
    wrap_all(lines, width, 4)
}

pub fn draw_tokens(f: &mut Frame, app: &App, list: Option<Rect>, detail: Option<Rect>) {
    if let Some(area) = list {
        let rows: Vec<Row> = app
            .listing()
            .iter()
            .map(|r| {
                let over = r.budget_tokens.is_some_and(|b| r.total_tokens > b);
                Row::new(vec![
                    Cell::from(r.agent.clone()),
                    Cell::from(crate::present::thousands(r.entries.len() as u64)),
                    Cell::from(crate::present::tokens_of_budget(
                        r.total_tokens,
                        r.budget_tokens,
                    )),
                ])
                .style(if over {
                    Style::new().fg(Color::Red)
                } else {
                    Style::new()
                })
            })
            .collect();
        let agent_w = app
            .models
            .iter()
            .map(|m| m.id.chars().count())
            .max()
            .unwrap_or(5);
        let tokens_w = app
            .listing()
            .iter()
            .map(|r| {
                crate::present::tokens_of_budget(r.total_tokens, r.budget_tokens)
                    .chars()
                    .count()
            })
            .max()
            .unwrap_or(6)
            .max(6);
        let (t, mut st) = side_table(
            app,
            "Listing cost (estimate)",
            rows,
            vec![
                Constraint::Length(agent_w as u16),
                Constraint::Length(6),
                Constraint::Length(tokens_w as u16),
            ],
        );
        let t =
            t.header(Row::new(vec!["AGENT", "SKILLS", "TOKENS / BUDGET"]).style(style::title()));
        f.render_stateful_widget(t, area, &mut st);
    }
    let Some(area) = detail else { return };
    let lines = token_lines(app, area.width.saturating_sub(2) as usize);
    draw_detail(f, app, detail_block(app, " Entries ".into()), area, lines);
}

/// The selected agent's listing: its size against the budget, then every entry, largest first.
pub fn token_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let Some(r) = app.listing().get(app.side_cursor) else {
        return Vec::new();
    };
    let mut lines = vec![
        Line::from(Span::styled(
            format!(
                "{}: {} skills in the listing; tokens ≈ {}",
                r.agent,
                crate::present::thousands(r.entries.len() as u64),
                crate::present::tokens_of_budget(r.total_tokens, r.budget_tokens)
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
    wrap_all(lines, width, 2)
}
