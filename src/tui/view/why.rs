//! The Why view of the selected skill, answer first: one section per agent whose first line is
//! the answer (glyph, verdict, the deciding reason, the key that acts on it), then the other
//! reasons, then the sources, dimmed, with hanging indents. Spec problems collapse to a count
//! under the verdicts and are listed at the end.

use super::style::{self, safe};
use super::wrap::wrap;
use crate::catalog::Skill;
use crate::present::{self, Remedy};
use crate::resolve::{Reason, Status, Verdict};
use crate::spec::Severity;
use crate::tui::app::App;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// The key that acts on a remedy in the explorer, and what it does.
pub fn remedy_key(r: &Remedy) -> (&'static str, &'static str) {
    match r {
        Remedy::QuickFix(_) => ("F", "fixes"),
        Remedy::MakeWin => ("W", "makes it win"),
        Remedy::Relocate => ("M", "moves it"),
    }
}

fn evidence(r: &Reason) -> Span<'static> {
    Span::styled(format!(" {}", r.evidence()), Style::new().fg(Color::Cyan))
}

/// A reason's sources, dimmed: its rule, then each source on its own row.
fn sources(r: &Reason, width: usize, indent: usize, out: &mut Vec<Line<'static>>) {
    let pad = " ".repeat(indent);
    let strength = r.strength().map(|s| format!(" ({s})")).unwrap_or_default();
    out.extend(wrap(
        vec![Span::styled(
            format!("{pad}{} {}{strength}", r.rule, r.evidence()),
            style::dim(),
        )],
        width,
        indent + 2,
    ));
    let mut any = false;
    for s in r.sources().iter() {
        any = true;
        out.extend(wrap(
            vec![Span::styled(
                format!("{pad}  {}", safe(&s.render())),
                style::dim(),
            )],
            width,
            indent + 4,
        ));
    }
    if !any {
        out.extend(wrap(
            vec![Span::styled(
                format!("{pad}  {}", safe(r.source())),
                style::dim(),
            )],
            width,
            indent + 4,
        ));
    }
}

/// The lines of the Why view for `width` columns.
pub fn lines(app: &App, s: &Skill, width: usize) -> Vec<Line<'static>> {
    let mut out: Vec<Line<'static>> = Vec::new();
    out.push(Line::from(vec![
        Span::styled(safe(s.label()), style::title()),
        Span::styled(format!("  {} scope", s.scope.as_str()), style::dim()),
    ]));
    out.extend(wrap(
        vec![Span::styled(
            present::show_path(&app.env, &s.path),
            style::dim(),
        )],
        width,
        2,
    ));
    // The agents the table shows (the one `a` picked, the agents in use, or every agent with `A`).
    let columns: Vec<&str> = app
        .shown_agents()
        .into_iter()
        .map(|i| app.models[i].id.as_str())
        .collect();
    let shown: Vec<&(std::sync::Arc<str>, Verdict)> = s
        .verdicts
        .iter()
        .filter(|(a, _)| columns.contains(&&**a))
        .collect();
    let idw = shown
        .iter()
        .map(|(a, _)| a.chars().count())
        .max()
        .unwrap_or(0);
    // First the answers, one line per agent.
    for (agent, v) in &shown {
        out.extend(wrap(answer_spans(app, s, agent, v, idw), width, 4));
    }
    // Spec problems: a count under the verdicts, the list at the end.
    out.extend(spec_count_line(s));
    // Then, per agent, the other reasons and the sources, dimmed.
    let one = app.agent_filter.is_some();
    for (agent, v) in &shown {
        agent_reasons(app, agent, v, one, width, &mut out);
    }
    if let Some(d) = &s.description {
        out.push(Line::raw(""));
        let d = crate::present::cut_words(&safe(d), 300);
        out.extend(wrap(vec![Span::styled(d, style::dim())], width, 0));
    }
    spec_problem_lines(s, width, &mut out);
    out
}

/// An agent's answer line: glyph, agent, verdict, the answer's text and the key that acts on
/// its remedy.
fn answer_spans(app: &App, s: &Skill, agent: &str, v: &Verdict, idw: usize) -> Vec<Span<'static>> {
    let a = present::answer(v);
    let color = style::status_color(v.status);
    let mut head = vec![
        style::verdict_span(v),
        Span::raw(" "),
        Span::styled(format!("{agent:<idw$}"), style::title()),
        Span::raw("  "),
        Span::styled(a.label.to_string(), Style::new().fg(color)),
    ];
    let text = present::answer_text(&app.env, v, &a, s.label());
    if !text.is_empty() {
        head.push(Span::raw(if v.status == Status::Visible {
            " "
        } else {
            ": "
        }));
        head.push(Span::raw(text));
    }
    if let Some(r) = &a.remedy {
        let (k, what) = remedy_key(r);
        head.push(Span::styled("  · ", style::dim()));
        head.push(Span::styled(k, style::key()));
        head.push(Span::raw(format!(" {what}")));
    }
    head
}

/// The spec problems' count under the verdicts (none without problems).
fn spec_count_line(s: &Skill) -> Option<Line<'static>> {
    if s.problems.is_empty() {
        return None;
    }
    let errors = s
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .count();
    let warnings = s.problems.len() - errors;
    Some(Line::from(vec![
        Span::styled("spec: ", Style::new().add_modifier(Modifier::BOLD)),
        Span::styled(
            format!("{errors} error{}", if errors == 1 { "" } else { "s" }),
            if errors > 0 {
                Style::new().fg(Color::Red)
            } else {
                style::dim()
            },
        ),
        Span::raw(" · "),
        Span::styled(
            format!("{warnings} warning{}", if warnings == 1 { "" } else { "s" }),
            if warnings > 0 {
                Style::new().fg(Color::Yellow)
            } else {
                style::dim()
            },
        ),
        Span::styled(" (listed below)", style::dim()),
    ]))
}

/// An agent's section under the answers: its other reasons, and the sources of the deciding
/// one when the skill is not visible or `one` agent is picked (then every reason's sources and
/// the listing's token estimate too). Nothing when there is nothing to add.
fn agent_reasons(
    app: &App,
    agent: &str,
    v: &Verdict,
    one: bool,
    width: usize,
    out: &mut Vec<Line<'static>>,
) {
    let a = present::answer(v);
    let deciding = a.deciding.map(|i| &v.reasons[i]);
    let others = present::other_reasons(v, &a);
    let with_sources = v.status != Status::Visible || one;
    if others.is_empty() && !(with_sources && deciding.is_some()) {
        return;
    }
    out.push(Line::raw(""));
    out.push(Line::from(vec![
        style::verdict_span(v),
        Span::raw(" "),
        Span::styled(agent.to_string(), style::title()),
        Span::styled(format!("  {}", a.label), style::dim()),
    ]));
    for r in &others {
        out.extend(wrap(
            vec![
                Span::raw("  • "),
                Span::raw(present::shorten(&app.env, &r.message)),
                evidence(r),
            ],
            width,
            4,
        ));
        if one {
            sources(r, width, 4, out);
        }
    }
    if let Some(r) = deciding
        && with_sources
    {
        sources(r, width, 2, out);
    }
    if v.status == Status::Visible
        && one
        && let Some(t) = v.listing_tokens
    {
        out.push(Line::from(Span::styled(
            format!("  listing entry ≈ {t} tokens (estimate)"),
            style::dim(),
        )));
    }
}

/// The spec problems listed at the end, one per line with its severity, code and line.
fn spec_problem_lines(s: &Skill, width: usize, out: &mut Vec<Line<'static>>) {
    if s.problems.is_empty() {
        return;
    }
    out.push(Line::raw(""));
    for p in &s.problems {
        let at = p.line.map(|l| format!(" (line {l})")).unwrap_or_default();
        out.extend(wrap(
            vec![
                Span::styled(
                    format!("spec {}[{}]", p.severity.as_str(), p.code),
                    Style::new().fg(if p.severity == Severity::Error {
                        Color::Red
                    } else {
                        Color::Yellow
                    }),
                ),
                Span::raw(format!(": {}{at}", safe(&p.message))),
            ],
            width,
            4,
        ));
    }
}
