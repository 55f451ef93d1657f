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
    crate::cli::list::glyph(v)
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

pub fn selected() -> Style {
    let t = theme();
    Style::new().bg(t.selected_bg).fg(t.selected_fg)
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
    for (g, labels, st) in [
        ("✓", ["visible", "visible", "vis"], Status::Visible),
        ("◇", ["conditional", "cond", "cnd"], Status::Visible),
        ("~", ["model-hidden", "hidden", "hid"], Status::Visible),
        ("↓", ["shadowed", "shadowed", "shd"], Status::Shadowed),
        ("✗", ["rejected", "rejected", "rej"], Status::Rejected),
        ("·", ["not found", "not found", "nf"], Status::NotFound),
        ("?", ["unknown", "unknown", "unk"], Status::Unknown),
    ] {
        out.push(Span::styled(g, Style::new().fg(status_color(st))));
        out.push(Span::raw(format!(
            "{}{} ",
            if tier < 2 { " " } else { "" },
            labels[tier]
        )));
    }
    out
}

/// The full legend.
pub fn legend() -> Vec<Span<'static>> {
    legend_for(u16::MAX)
}
