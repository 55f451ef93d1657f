//! The one function that draws the explorer: a pure function of the state.

use super::app::{App, ScanState, Tab};
use super::layout;
use super::update::tab_spans;
use super::view::{action, other, skills, style};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
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
    }
    footer(f, app, a.footer);
    if app.help {
        other::draw_help(f, app, f.area());
    }
    if app.action.is_some() {
        action::draw(f, app, f.area());
    }
}

fn header(f: &mut Frame, app: &App, area: Rect) {
    let (skills, invisible, collisions, problems) = app.counts();
    let project = crate::sanitize::path(&app.env.project);
    let mut spans = vec![
        Span::styled("skilltui ", style::title()),
        Span::styled(project, style::dim()),
        Span::raw(format!(
            "  {skills} skills · {invisible} not visible everywhere · {collisions} collisions · {problems} with spec problems"
        )),
    ];
    match &app.scan {
        ScanState::Scanning => spans.push(Span::styled(
            format!("  {} scanning…", SPINNER[app.spinner % SPINNER.len()]),
            Style::new().fg(Color::Yellow),
        )),
        ScanState::Failed(e) => spans.push(Span::styled(
            format!("  scan failed: {}", style::safe(e)),
            Style::new().fg(Color::Red),
        )),
        ScanState::Ready => {
            if let Some((_, n, ticks)) = app.last_update {
                let secs = ticks / 10;
                let marked = app.changed_ticks > 0;
                spans.push(Span::styled(
                    format!("  updated {secs}s ago ({n} changed)"),
                    if marked {
                        Style::new().fg(Color::Yellow)
                    } else {
                        style::dim()
                    },
                ));
            }
        }
    }
    if let Some(note) = &app.watch_note {
        spans.push(Span::styled(
            format!("  {}", style::safe(note)),
            Style::new().fg(Color::Red),
        ));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn tabs(f: &mut Frame, app: &App, area: Rect) {
    let mut spans = Vec::new();
    for (i, (t, label)) in tab_spans().into_iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled("│", style::dim()));
        }
        let st = if t == app.tab {
            style::selected()
        } else {
            Style::new()
        };
        spans.push(Span::styled(label, st));
    }
    f.render_widget(Line::from(spans), area);
}

fn footer(f: &mut Frame, app: &App, area: Rect) {
    // What `o`/`y` did, or the source it shows, until the next key.
    if let Some(note) = &app.source_note {
        f.render_widget(
            Line::from(Span::styled(
                style::safe(note),
                Style::new().fg(Color::Cyan),
            )),
            area,
        );
        return;
    }
    let keys: &[(&str, &str)] = match app.tab {
        Tab::Skills => &[
            ("/", "search"),
            ("s", "sort"),
            ("f", "filter"),
            ("a", "agent"),
            ("Tab", "why/fields/file"),
            ("?", "help"),
            ("q", "quit"),
        ],
        _ => &[
            ("1-5", "tabs"),
            ("↑↓", "move"),
            ("Enter", "detail"),
            ("?", "help"),
            ("q", "quit"),
        ],
    };
    let mut spans = Vec::new();
    for (k, d) in keys {
        spans.push(Span::styled(*k, style::key()));
        spans.push(Span::raw(format!(" {d}  ")));
    }
    if area.width >= 150 {
        spans.extend(style::legend());
    }
    f.render_widget(Line::from(spans), area);
}
