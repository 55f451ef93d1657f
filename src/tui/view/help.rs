//! The `?` overlay: the key table by where the keys apply (made from `keys.rs`, so it always
//! matches the keys in use), or the evidence legend. Any key closes it.

use super::style;
use crate::tui::app::App;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

/// The help's lines (without the border).
pub fn lines(app: &App) -> Vec<Line<'static>> {
    if app.help_legend {
        let mut lines: Vec<Line> = crate::agents::sources::legend_short()
            .into_iter()
            .map(|l| Line::from(Span::raw(l)))
            .collect();
        lines.push(Line::from(Span::styled(
            "`skilltui agents --legend` says more; any key closes this help",
            style::dim(),
        )));
        return lines;
    }
    let mut lines: Vec<Line> = Vec::new();
    let width = app
        .keymap
        .bindings
        .iter()
        .map(|b| {
            b.keys
                .iter()
                .map(|k| k.display().chars().count() + 1)
                .sum::<usize>()
        })
        .max()
        .unwrap_or(8)
        .clamp(8, 16);
    for (section, rows) in app.keymap.help() {
        lines.push(Line::from(Span::styled(section, style::title())));
        for (keys, help) in rows {
            lines.push(Line::from(vec![
                Span::styled(format!("{keys:>width$}  "), style::key()),
                Span::raw(help),
            ]));
        }
    }
    lines.push(Line::from(Span::styled("popups", style::title())));
    for (keys, help) in [
        (
            "↑↓ Enter Esc",
            "choose, preview, cancel (M: m c l move, copy, link)",
        ),
        ("y Enter / Esc", "preview: apply / cancel"),
        ("Tab", "rename: the folder too"),
    ] {
        lines.push(Line::from(vec![
            Span::styled(format!("{keys:>width$}  "), style::key()),
            Span::raw(help),
        ]));
    }
    let abbrevs: Vec<String> = app
        .models
        .iter()
        .map(|m| format!("{} {}", m.abbrev(), m.id))
        .collect();
    lines.push(Line::from(vec![
        Span::styled(format!("{:>width$}  ", "columns"), style::key()),
        Span::raw(abbrevs.join(", ")),
    ]));
    lines.push(Line::from(style::legend_for(80)));
    lines.push(Line::from(Span::styled(
        "? the evidence legend; any other key closes this help",
        style::dim(),
    )));
    lines
}

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let w = area.width.min(96);
    let lines = lines(app);
    let h = area.height.min(lines.len() as u16 + 2);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(Text::from(lines))
            .wrap(Wrap { trim: false })
            .block(
                Block::bordered()
                    .title(" Help ")
                    .title_bottom(Line::from(Span::styled(
                        if app.help_legend {
                            " any key closes this help "
                        } else {
                            " ? the evidence legend · any other key closes this help "
                        },
                        style::dim(),
                    )))
                    .border_style(Style::new().fg(style::theme().accent)),
            ),
        r,
    );
}
