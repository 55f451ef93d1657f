//! `W`'s candidate plans: one entry per plan, best first, with its steps, the agents it gains
//! and the agents it loses (in the theme's error colour and marked `✗`, so they stand out
//! without colour too); then the selected plan's preview (the diff and the verdicts after, as
//! the planner predicted them). A pure function of the state.

use super::style;
use crate::actions::Op;
use crate::actions::planner::Candidate;
use crate::env::Env;
use crate::tui::app::{ActionUi, App};
use crate::tui::keys::Action;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

/// A plan's steps as short lines (`move ~/.claude/skills/x → .claude/skills/x`).
pub fn steps(env: &Env, c: &Candidate) -> Vec<String> {
    let p = |x: &std::path::Path| style::safe(&crate::present::show_path(env, x));
    c.plan
        .ops
        .iter()
        .map(|op| match op {
            Op::Write { path, old, .. } => {
                format!(
                    "{} {}",
                    if old.is_some() { "edit" } else { "create" },
                    p(path)
                )
            }
            Op::CreateDir { path } => format!("make the folder {}", p(path)),
            Op::Rename { from, to } => format!("move {} → {}", p(from), p(to)),
            Op::Copy { from, to } => format!("copy {} → {}", p(from), p(to)),
            Op::Symlink { target, link } => format!("link {} → {}", p(link), p(target)),
            Op::Trash { path } => format!("trash {} (undo brings it back)", p(path)),
        })
        .collect()
}

/// The list's lines, and the line where each candidate starts.
pub fn list_lines(
    app: &App,
    cands: &[Candidate],
    cursor: usize,
) -> (Vec<Line<'static>>, Vec<usize>) {
    let t = style::theme();
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut starts = Vec::new();
    for (i, c) in cands.iter().enumerate() {
        starts.push(lines.len());
        let sel = i == cursor;
        let head_style = if sel {
            style::selected().add_modifier(Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        };
        let mut head = vec![
            Span::styled(if sel { "▸ " } else { "  " }, head_style),
            Span::styled(
                format!("{}. {}", i + 1, style::safe(&c.plan.title)),
                head_style,
            ),
            Span::styled(
                format!("  {} step{}", c.files, if c.files == 1 { "" } else { "s" }),
                style::dim(),
            ),
        ];
        if !c.achieves {
            head.push(Span::styled(
                "  does not reach the goal",
                Style::new().fg(t.error),
            ));
        }
        lines.push(Line::from(head));
        for s in steps(&app.env, c) {
            lines.push(Line::from(Span::styled(format!("     {s}"), style::dim())));
        }
        let gained: Vec<&str> = c.agents_gained().into_iter().collect();
        lines.push(Line::from(vec![
            Span::raw("     + gains: "),
            Span::styled(
                if gained.is_empty() {
                    "none".to_string()
                } else {
                    gained.join(", ")
                },
                Style::new().fg(t.success),
            ),
        ]));
        let lost: Vec<&str> = c.agents_lost().into_iter().collect();
        if lost.is_empty() {
            lines.push(Line::from(Span::raw("       loses: none")));
        } else {
            lines.push(Line::from(Span::styled(
                format!("     ✗ LOSES: {}", lost.join(", ")),
                Style::new().fg(t.error).add_modifier(Modifier::BOLD),
            )));
        }
    }
    (lines, starts)
}

fn preview_style(l: &str) -> Style {
    let t = style::theme();
    if l.starts_with("✗ loses:") && !l.ends_with(": none") {
        Style::new().fg(t.error).add_modifier(Modifier::BOLD)
    } else if l.starts_with("gains:") {
        Style::new().fg(t.success)
    } else if l.starts_with("+++") || l.starts_with("---") {
        Style::new().add_modifier(Modifier::BOLD)
    } else if l.starts_with('+') {
        Style::new().fg(t.success)
    } else if l.starts_with('-') {
        Style::new().fg(t.error)
    } else if l.starts_with('*') {
        Style::new().fg(t.shadowed)
    } else if l.starts_with("note:") || l.starts_with("predicted") {
        style::dim()
    } else {
        Style::new()
    }
}

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let Some(ActionUi::Plans {
        skill,
        agent,
        list,
        cursor,
        preview,
    }) = &app.action
    else {
        return;
    };
    let name = list
        .before
        .skill(skill)
        .map(|s| s.label().to_string())
        .unwrap_or_default();
    let go = app.keymap.key_of(Action::PlanGo);
    let back = app.keymap.key_of(Action::Back);
    let (title, lines, hint, scroll) = match preview {
        None => {
            let (lines, starts) = list_lines(app, &list.candidates, *cursor);
            // The selected plan in view (the box is at most the screen less its border).
            let rows = area.height.saturating_sub(6) as usize;
            let first = starts.get(*cursor).copied().unwrap_or(0);
            let last = starts
                .get(*cursor + 1)
                .copied()
                .unwrap_or(lines.len())
                .saturating_sub(1);
            let scroll = if last >= rows {
                (last + 1 - rows).min(first)
            } else {
                0
            };
            (
                format!(
                    " Make {} win for {}: {} plan{}, best first ",
                    style::safe(&name),
                    style::safe(agent),
                    list.candidates.len(),
                    if list.candidates.len() == 1 { "" } else { "s" }
                ),
                lines,
                format!("↑↓ choose · {go} previews · {back} backs out"),
                scroll as u16,
            )
        }
        Some((text, scroll)) => (
            format!(" Preview of plan {} ", cursor + 1),
            text.iter()
                .map(|l| Line::from(Span::styled(style::safe(l), preview_style(l))))
                .collect(),
            format!("{go} applies · {back} back to the plans · ↑↓ scroll"),
            *scroll,
        ),
    };
    let w = area.width.saturating_sub(2).clamp(20, 110);
    let h = (lines.len() as u16)
        .saturating_add(3)
        .min(area.height.saturating_sub(2))
        .max(6);
    let r = Rect::new(
        area.x + (area.width.saturating_sub(w)) / 2,
        area.y + (area.height.saturating_sub(h)) / 2,
        w.min(area.width),
        h.min(area.height),
    );
    f.render_widget(Clear, r);
    let block = Block::bordered()
        .title(title)
        .title_bottom(Line::from(Span::styled(format!(" {hint} "), style::dim())))
        .border_style(Style::new().fg(style::theme().accent));
    let body = Paragraph::new(Text::from(lines)).block(block);
    let body = if preview.is_some() {
        body.wrap(Wrap { trim: false })
    } else {
        body
    };
    f.render_widget(body.scroll((scroll, 0)), r);
}
