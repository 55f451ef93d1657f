//! The footer: the running job (spinner, what, how to cancel), a transient message, or the
//! keys that act where the focus is (from the key table). A pure function of the state.

use super::style;
use crate::tui::app::{App, NoteKind};
use crate::tui::keys::Action;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

const SPINNER: [&str; 8] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧"];

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let t = style::theme();
    let mut spans: Vec<Span> = Vec::new();
    let push = |spans: &mut Vec<Span<'static>>, s: Span<'static>| spans.push(s);
    if let Some(b) = &app.busy {
        push(
            &mut spans,
            Span::styled(
                format!("{} {}", SPINNER[app.spinner % SPINNER.len()], b.what),
                Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            ),
        );
        if b.cancellable {
            push(&mut spans, Span::raw("  "));
            push(
                &mut spans,
                Span::styled(app.keymap.key_of(Action::Back), style::key()),
            );
            push(&mut spans, Span::raw(" cancels"));
        }
        push(&mut spans, Span::styled("  │  ", style::dim()));
    }
    if let Some(n) = &app.note {
        let st = match n.kind {
            NoteKind::Success => Style::new().fg(t.success),
            NoteKind::Error => Style::new().fg(t.error),
            NoteKind::Info => Style::new().fg(t.key),
        };
        push(&mut spans, Span::styled(style::safe(&n.text), st));
        f.render_widget(Line::from(spans), area);
        return;
    }
    if app.search.editing {
        for (k, d) in [
            ("Enter".to_string(), "keeps the query"),
            (app.keymap.key_of(Action::Back), "clears it"),
            ("↑↓".to_string(), "move"),
            ("^u".to_string(), "erase"),
        ] {
            push(&mut spans, Span::styled(k, style::key()));
            push(&mut spans, Span::raw(format!(" {d}  ")));
        }
        f.render_widget(Line::from(spans), area);
        return;
    }
    let used: usize = spans.iter().map(Span::width).sum();
    let room = (area.width as usize).saturating_sub(used);
    let hints = app.keymap.footer(app, room);
    let mut hint_width = 0;
    for (k, d) in hints {
        let s = format!(" {d}  ");
        hint_width += k.chars().count() + s.chars().count();
        push(&mut spans, Span::styled(k, style::key()));
        push(&mut spans, Span::raw(s));
    }
    let legend = style::legend();
    let legend_width: usize = legend.iter().map(Span::width).sum();
    let used: usize = spans.iter().map(Span::width).sum();
    if used + legend_width <= area.width as usize && hint_width > 0 {
        spans.extend(legend);
    }
    f.render_widget(Line::from(spans), area);
}
