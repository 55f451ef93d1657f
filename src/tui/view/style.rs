//! Colours and glyphs, and the one place untrusted text becomes terminal-safe spans.

use crate::agents::Handling;
use crate::resolve::{Status, Verdict};
use crate::sanitize;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;

/// Removes every colour from a drawn frame, keeping attributes; a cell that had a background
/// (a selection, a highlight) is shown in reverse video instead (as btop does under NO_COLOR).
pub fn monochrome(buf: &mut ratatui::buffer::Buffer) {
    for cell in buf.content.iter_mut() {
        if cell.bg != Color::Reset {
            cell.modifier.insert(Modifier::REVERSED);
        }
        cell.fg = Color::Reset;
        cell.bg = Color::Reset;
    }
}

/// The theme in use (the config file's `[theme]` over the defaults).
pub fn theme() -> crate::tui::theme::Theme {
    crate::tui::theme::current()
}

pub fn status_color(s: Status) -> Color {
    let t = theme();
    match s {
        Status::Visible => t.visible,
        Status::Shadowed => t.shadowed,
        Status::Rejected => t.rejected,
        Status::NotFound => t.not_found,
        Status::Unknown => t.unknown,
    }
}

pub fn glyph(v: &Verdict) -> &'static str {
    crate::present::glyph(v)
}

pub fn verdict_span(v: &Verdict) -> Span<'static> {
    Span::styled(glyph(v), Style::new().fg(status_color(v.status)))
}

pub fn handling_style(h: Handling) -> Style {
    match h {
        Handling::Read => Style::new().fg(Color::Green),
        Handling::Ignored => Style::new().fg(Color::DarkGray),
        Handling::Unsupported => Style::new().fg(Color::Red),
        Handling::Unknown => Style::new().fg(Color::Magenta),
    }
}

pub fn title() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

pub fn dim() -> Style {
    Style::new().fg(theme().dim)
}

pub fn key() -> Style {
    Style::new().fg(theme().key).add_modifier(Modifier::BOLD)
}

/// The selected row or item: a background patched over the cells, so their glyph colours stay
/// (reverse video without colour, see [`monochrome`]).
pub fn selected() -> Style {
    // A background only: the row's glyphs keep their colours.
    Style::new().bg(theme().selected_bg)
}

/// The active tab: bold and underlined, so it shows without colour too.
pub fn active_tab() -> Style {
    Style::new()
        .fg(Color::Cyan)
        .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
}

/// A bordered pane; the focused one has a coloured border and a bold, underlined title (which
/// shows without colour too).
pub fn pane(focused: bool, title: String) -> ratatui::widgets::Block<'static> {
    let st = if focused {
        Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    } else {
        Style::new()
    };
    ratatui::widgets::Block::bordered()
        .border_style(focused_border(focused))
        .title(ratatui::text::Line::styled(title, st))
}

pub fn focused_border(focused: bool) -> Style {
    if focused {
        Style::new().fg(theme().accent)
    } else {
        Style::new().fg(theme().dim)
    }
}

/// Untrusted text as one safe line.
pub fn safe(s: &str) -> String {
    sanitize::line(s).into_owned()
}

/// The legend of the status glyphs, long, medium or short to fit `width`.
pub fn legend_for(width: u16) -> Vec<Span<'static>> {
    let tier = if width >= 88 {
        0
    } else if width >= 76 {
        1
    } else {
        2
    };
    let mut out = vec![Span::raw(" ")];
    for item in &crate::present::LEGEND_ITEMS {
        out.push(Span::styled(
            item.glyph,
            Style::new().fg(status_color(item.status)),
        ));
        out.push(Span::raw(format!(
            "{}{} ",
            if tier < 2 { " " } else { "" },
            item.labels[tier]
        )));
    }
    out
}

/// The full legend.
pub fn legend() -> Vec<Span<'static>> {
    legend_for(u16::MAX)
}
