//! The action overlay: the name being typed, the list to choose from, the preview (diff and
//! verdicts before and after) with its confirmation, a result. A pure function of the state.

use super::style;
use crate::tui::app::{ActionUi, App};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

fn boxed(area: Rect, w: u16, h: u16) -> Rect {
    let w = area.width.min(w);
    let h = area.height.min(h);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

fn line_style(l: &str) -> Style {
    if l.starts_with("+++") || l.starts_with("---") {
        Style::new().add_modifier(Modifier::BOLD)
    } else if l.starts_with('+') {
        Style::new().fg(Color::Green)
    } else if l.starts_with('-') {
        Style::new().fg(Color::Red)
    } else if l.starts_with("@@") {
        Style::new().fg(Color::Cyan)
    } else if l.starts_with('*') {
        Style::new().fg(Color::Yellow)
    } else if l.starts_with("note:") {
        style::dim()
    } else {
        Style::new()
    }
}

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let Some(ui) = &app.action else {
        return;
    };
    if matches!(ui, ActionUi::Plans { .. }) {
        return super::plans::draw(f, app, area);
    }
    let (title, lines, hint, scroll): (String, Vec<Line>, &str, u16) = match ui {
        ActionUi::Input {
            text,
            folder,
            error,
            ..
        } => {
            let mut lines = vec![
                Line::from(vec![
                    Span::styled("new name: ", style::key()),
                    Span::raw(style::safe(text)),
                    Span::raw("▏"),
                ]),
                Line::from(format!(
                    "[{}] rename the folder too (Tab)",
                    if *folder { "x" } else { " " }
                )),
            ];
            if let Some(e) = error {
                lines.push(Line::default());
                lines.push(Line::from(Span::styled(
                    style::safe(e),
                    Style::new().fg(style::theme().error),
                )));
            }
            (
                " Rename ".into(),
                lines,
                if error.is_some() {
                    "fix the name to preview · Esc cancels"
                } else {
                    "Enter previews · Esc cancels"
                },
                0,
            )
        }
        ActionUi::Choose {
            title,
            options,
            cursor,
        } => (
            format!(" {} ", style::safe(title)),
            options
                .iter()
                .enumerate()
                .map(|(i, (label, _))| {
                    let st = if i == *cursor {
                        style::selected()
                    } else {
                        Style::new()
                    };
                    Line::from(Span::styled(format!(" {} ", style::safe(label)), st))
                })
                .collect(),
            "↑↓ choose · Enter previews · Esc cancels",
            (*cursor as u16).saturating_sub(10),
        ),
        ActionUi::Preview { lines, scroll, .. } => (
            " Preview ".into(),
            lines
                .iter()
                .map(|l| Line::from(Span::styled(style::safe(l), line_style(l))))
                .collect(),
            "y/Enter applies · Esc cancels · ↑↓ scroll",
            *scroll,
        ),
        ActionUi::Plans { .. } => unreachable!("drawn by view::plans"),
        ActionUi::Message { title, text } => (
            format!(" {} ", style::safe(title)),
            text.lines().map(|l| Line::from(style::safe(l))).collect(),
            "any key closes",
            0,
        ),
    };
    let h = (lines.len() as u16).saturating_add(4).max(6);
    let r = boxed(area, 100.min(area.width.saturating_sub(2)).max(20), h);
    f.render_widget(Clear, r);
    let mut text = Text::from(lines);
    text.lines.push(Line::default());
    let block = Block::bordered()
        .title(title)
        .title_bottom(Line::from(Span::styled(format!(" {hint} "), style::dim())))
        .border_style(Style::new().fg(style::theme().accent));
    f.render_widget(
        Paragraph::new(text)
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        r,
    );
}
