//! Where everything goes, as a function of the state and the terminal size. Both `draw` and
//! `update` (for mouse hits and scrolling) use it, so they always agree.

use super::app::{App, Focus, Tab};
use ratatui::layout::{Constraint, Layout, Rect};

/// Wide enough to show the list and the detail side by side.
pub const SIDE_BY_SIDE_MIN_WIDTH: u16 = 110;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Areas {
    pub header: Rect,
    pub tabs: Rect,
    pub search: Option<Rect>,
    /// The main list (skills table, collision names, agents, token table, roots table).
    pub list: Option<Rect>,
    /// The detail pane.
    pub detail: Option<Rect>,
    pub footer: Rect,
}

pub fn areas(app: &App) -> Areas {
    let full = Rect::new(0, 0, app.width, app.height);
    let [header, tabs, main, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(full);
    let mut a = Areas {
        header,
        tabs,
        footer,
        ..Default::default()
    };
    let mut main = main;
    if app.tab == Tab::Skills && (app.search.editing || !app.search.query.is_empty()) {
        let [s, rest] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(main);
        a.search = Some(s);
        main = rest;
    }
    match app.tab {
        Tab::Roots => a.list = Some(main),
        _ => {
            let wide = app.width >= SIDE_BY_SIDE_MIN_WIDTH;
            if wide {
                let left = match app.tab {
                    Tab::Skills => 55,
                    Tab::Tokens => 50,
                    Tab::Problems => 50,
                    _ => 30,
                };
                let [l, r] = Layout::horizontal([
                    Constraint::Percentage(left),
                    Constraint::Percentage(100 - left),
                ])
                .areas(main);
                a.list = Some(l);
                a.detail = Some(r);
            } else if app.focus == Focus::Detail {
                a.detail = Some(main);
            } else {
                a.list = Some(main);
            }
        }
    }
    a
}

/// Data rows the list shows at once (inside its border, below its header line).
pub fn list_rows(app: &App) -> usize {
    areas(app)
        .list
        .map_or(0, |r| r.height.saturating_sub(3) as usize)
}

/// First row shown of a side list of `len` items whose cursor is `cursor`.
pub fn side_offset(app: &App) -> usize {
    let h = list_rows(app).max(1);
    app.side_cursor.saturating_sub(h - 1)
}
