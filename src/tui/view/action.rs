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
    let Some(o) = overlay(ui) else {
        return super::plans::draw(f, app, area);
    };
    let h = (o.lines.len() as u16).saturating_add(4).max(6);
    let r = boxed(area, 100.min(area.width.saturating_sub(2)).max(20), h);
    f.render_widget(Clear, r);
    let mut text = Text::from(o.lines);
    text.lines.push(Line::default());
    let block = Block::bordered()
        .title(o.title)
        .title_bottom(Line::from(Span::styled(
            format!(" {} ", o.hint),
            style::dim(),
        )))
        .border_style(Style::new().fg(style::theme().accent));
    f.render_widget(
        Paragraph::new(text)
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((o.scroll, 0)),
        r,
    );
}

/// What the overlay box shows: its title, its lines, the hint under them, how far it is
/// scrolled.
struct Overlay {
    title: String,
    lines: Vec<Line<'static>>,
    hint: &'static str,
    scroll: u16,
}

/// The overlay of an action step; none for `W`'s plan list (`view::plans` draws it).
fn overlay(ui: &ActionUi) -> Option<Overlay> {
    Some(match ui {
        ActionUi::Input {
            text,
            folder,
            error,
            ..
        } => rename_overlay(text, *folder, error.as_deref()),
        ActionUi::Choose {
            title,
            options,
            cursor,
        } => Overlay {
            title: format!(" {} ", style::safe(title)),
            lines: options
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
            hint: "↑↓ choose · Enter previews · Esc cancels",
            scroll: (*cursor as u16).saturating_sub(10),
        },
        ActionUi::Preview { lines, scroll, .. } => Overlay {
            title: " Preview ".into(),
            lines: lines
                .iter()
                .map(|l| Line::from(Span::styled(style::safe(l), line_style(l))))
                .collect(),
            hint: "y/Enter applies · Esc cancels · ↑↓ scroll",
            scroll: *scroll,
        },
        ActionUi::Plans { .. } => return None,
        ActionUi::Message { title, text } => Overlay {
            title: format!(" {} ", style::safe(title)),
            lines: text.lines().map(|l| Line::from(style::safe(l))).collect(),
            hint: "any key closes",
            scroll: 0,
        },
    })
}

/// The name prompt: the name typed, whether the folder is renamed too, and why the spec
/// refuses the name (then Enter does not preview).
fn rename_overlay(text: &str, folder: bool, error: Option<&str>) -> Overlay {
    let mut lines = vec![
        Line::from(vec![
            Span::styled("new name: ", style::key()),
            Span::raw(style::safe(text)),
            Span::raw("▏"),
        ]),
        Line::from(format!(
            "[{}] rename the folder too (Tab)",
            if folder { "x" } else { " " }
        )),
    ];
    if let Some(e) = error {
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            style::safe(e),
            Style::new().fg(style::theme().error),
        )));
    }
    Overlay {
        title: " Rename ".into(),
        lines,
        hint: if error.is_some() {
            "fix the name to preview · Esc cancels"
        } else {
            "Enter previews · Esc cancels"
        },
        scroll: 0,
    }
}
