//! Pieces of the screen, each a pure function of the app state.

pub mod action;
pub mod footer;
pub mod help;
pub mod other;
pub mod plans;
pub mod problems;
pub mod skills;
pub mod style;
pub mod why;
pub mod wrap;

use super::app::{App, Tab};
use super::layout;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

/// The detail pane's lines (already broken to its width) and the rows it shows at once, on the
/// tabs whose detail scrolls; `None` when no detail pane is shown.
pub fn detail_content(app: &App) -> Option<(Vec<Line<'static>>, usize)> {
    let area = layout::areas(app).detail?;
    let width = area.width.saturating_sub(2) as usize;
    let height = area.height.saturating_sub(2) as usize;
    match app.tab {
        // The detail tabs take the first row.
        Tab::Skills => Some((skills::detail_lines(app, width), height.saturating_sub(1))),
        Tab::Collisions => Some((other::collision_lines(app, width), height)),
        Tab::Agents => Some((other::agent_lines(app, width), height)),
        Tab::Tokens => Some((other::token_lines(app, width), height)),
        Tab::Roots | Tab::Problems => None,
    }
}

/// The furthest the detail pane scrolls: its last row at the bottom of the pane.
pub fn max_detail_scroll(app: &App) -> u16 {
    detail_content(app).map_or(0, |(lines, h)| {
        lines.len().saturating_sub(h).min(u16::MAX as usize) as u16
    })
}

/// Rows the detail pane shows at once (0 without a detail pane).
pub fn detail_rows(app: &App) -> usize {
    detail_content(app).map_or(0, |(_, h)| h)
}

/// Where a scrolled pane is: `12–40/210` (first and last row shown, of all), or nothing when
/// everything fits.
pub fn position(scroll: usize, rows: usize, total: usize) -> Option<String> {
    (total > rows).then(|| format!("{}–{}/{}", scroll + 1, (scroll + rows).min(total), total))
}

/// Draws `block` over `area` and `lines` in `body` from the app's detail scroll, clamped to
/// the content, with the position at the bottom right of the block when it does not all fit.
pub fn draw_scrolled(
    f: &mut Frame,
    app: &App,
    block: Block<'static>,
    area: Rect,
    body: Rect,
    lines: Vec<Line<'static>>,
) {
    let rows = body.height as usize;
    let scroll = (app.detail_scroll as usize).min(lines.len().saturating_sub(rows));
    let block = match position(scroll, rows, lines.len()) {
        Some(p) => block.title_bottom(Line::from(Span::raw(format!(" {p} "))).right_aligned()),
        None => block,
    };
    f.render_widget(block, area);
    let shown: Vec<Line> = lines.into_iter().skip(scroll).take(rows).collect();
    f.render_widget(Paragraph::new(shown), body);
}
