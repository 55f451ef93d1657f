//! What both front ends (`cli/`, `tui/`) show the same way: paths for people, status glyphs and
//! labels, agent labels cut to a width, the glyph legend, and the answer line of a verdict.
//!
//! Everything here is plain data or plain text; colour and layout stay in the front ends. The
//! module sits below both front ends and imports neither.

use crate::agents::{AgentModel, Topic};
use crate::env::Env;
use crate::resolve::{Reason, Status, Verdict};
use crate::sanitize;
use std::path::Path;

/// A path for people: relative to the project, `~/…` under home, else absolute; escaped.
pub fn show_path(env: &Env, p: &Path) -> String {
    let shown = if let Ok(rel) = p.strip_prefix(&env.project) {
        rel.display().to_string()
    } else if let Ok(rel) = p.strip_prefix(&env.home) {
        format!("~/{}", rel.display())
    } else {
        p.display().to_string()
    };
    sanitize::line(&shown).into_owned()
}

/// A message for people: the absolute project and home paths inside it shortened the same way
/// as [`show_path`], and escaped.
pub fn shorten(env: &Env, message: &str) -> String {
    let project = format!("{}/", env.project.display());
    let home = format!("{}/", env.home.display());
    let mut s = message.replace(&project, "");
    if !env.home.as_os_str().is_empty() && env.home != Path::new("/") {
        s = s.replace(&home, "~/");
    }
    sanitize::line(&s).into_owned()
}

/// The one-character mark of a verdict.
pub fn glyph(v: &Verdict) -> &'static str {
    match v.status {
        Status::Visible if v.model == Some(false) => "~",
        Status::Visible if v.conditional.is_some() => "◇",
        Status::Visible => "✓",
        Status::Shadowed => "↓",
        Status::Rejected => "✗",
        Status::NotFound => "·",
        Status::Unknown => "?",
    }
}

/// The verdict in words, as the answer line starts it.
pub fn verdict_label(v: &Verdict) -> &'static str {
    match v.status {
        Status::Visible if v.model == Some(false) => "visible, hidden from the model",
        Status::Visible if v.conditional.is_some() => "conditional",
        Status::Visible => "visible",
        Status::Shadowed => "shadowed",
        Status::Rejected => "rejected",
        Status::NotFound => "not found",
        Status::Unknown => "unknown",
    }
}

/// One entry of the glyph legend: the glyph, its label long, medium and short, and the status
/// whose colour it takes.
pub struct LegendItem {
    pub glyph: &'static str,
    pub labels: [&'static str; 3],
    pub status: Status,
}

/// The glyph legend, in the order the glyphs are explained everywhere.
pub const LEGEND_ITEMS: [LegendItem; 7] = [
    LegendItem {
        glyph: "✓",
        labels: ["visible", "visible", "vis"],
        status: Status::Visible,
    },
    LegendItem {
        glyph: "◇",
        labels: ["conditional", "cond", "cnd"],
        status: Status::Visible,
    },
    LegendItem {
        glyph: "~",
        labels: ["model-hidden", "hidden", "hid"],
        status: Status::Visible,
    },
    LegendItem {
        glyph: "↓",
        labels: ["shadowed", "shadowed", "shd"],
        status: Status::Shadowed,
    },
    LegendItem {
        glyph: "✗",
        labels: ["rejected", "rejected", "rej"],
        status: Status::Rejected,
    },
    LegendItem {
        glyph: "·",
        labels: ["not found", "not found", "nf"],
        status: Status::NotFound,
    },
    LegendItem {
        glyph: "?",
        labels: ["unknown", "unknown", "unk"],
        status: Status::Unknown,
    },
];

/// The legend on one line, in words (the headless commands print it under their tables).
pub const LEGEND: &str = "✓ visible  ◇ conditional (listed once matching files are touched)  ~ visible, hidden from the model  ↓ shadowed  ✗ rejected  · not found  ? unknown";

/// The short column title of an agent (`claude-code` → `claude`).
pub fn short(id: &str) -> &str {
    id.split('-').next().unwrap_or(id)
}

/// `s` in at most `width` characters: cut with `…` when longer (nothing when `width` is 0).
pub fn cut(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n <= width {
        return s.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut out: String = s.chars().take(width - 1).collect();
    out.push('…');
    out
}

/// `s` in at most `max` characters, cut at a word boundary and marked with `…` when longer (a
/// single word longer than `max` is cut inside it).
pub fn cut_words(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let head: String = s.chars().take(max - 1).collect();
    // The next character tells whether the cut falls between words.
    let next = s.chars().nth(max - 1);
    let kept = if next.is_some_and(char::is_whitespace) {
        head.trim_end()
    } else {
        // At the last space, unless that throws away more than half the room (a long path or
        // name after a short word): then in the word, which the `…` marks.
        match head.rfind(char::is_whitespace) {
            Some(i) if head[..i].trim_end().chars().count() * 2 >= max => head[..i].trim_end(),
            _ => head.as_str(),
        }
    };
    let kept = kept.trim_end_matches([',', ';', ':', '—', '-', ' ']);
    format!("{kept}…")
}

/// The forms of an agent's label, most telling first: the id (`copilot-cli`), its first word
/// (`copilot`), that word cut with `…` down to four characters (`copi…`, `cop…`), the two-letter
/// code (`cp`, unique among the models: `agents::label_clash`). Only forms of at most `width`
/// characters; the code cut to the width when nothing else fits.
fn label_forms(m: &AgentModel, width: usize) -> Vec<String> {
    let id = m.id.as_str();
    let s = short(id);
    let mut forms = vec![id.to_string(), s.to_string()];
    for w in (4..s.chars().count()).rev() {
        forms.push(cut(s, w));
    }
    forms.push(m.abbrev());
    forms.retain(|f| f.chars().count() <= width);
    forms.dedup();
    if forms.is_empty() {
        forms.push(cut(&m.abbrev(), width));
    }
    forms
}

/// One agent's label in at most `width` characters, the most telling that fits (see
/// [`agent_labels`] for several agents side by side, which keeps them apart).
pub fn agent_label(m: &AgentModel, width: usize) -> String {
    label_forms(m, width).remove(0)
}

/// The labels of agents shown side by side, each in at most `width` characters and all
/// different: each agent takes its most telling form that fits ([`agent_label`]); agents whose
/// forms clash (the same text, ignoring case) step down to their next form together, down to the
/// two-letter codes, which are unique. The explorer's column titles, header and cause rows.
pub fn agent_labels(models: &[&AgentModel], width: usize) -> Vec<String> {
    labels_from(models.iter().map(|m| label_forms(m, width)).collect())
}

/// The column titles of `skilltui list`: each agent's first word (`claude`), or its id where
/// that word would clash with another model's (`claude-code` beside a `claude-x`). All
/// different ([`agent_labels`]'s rule, preferring the short form).
pub fn column_labels(models: &[AgentModel]) -> Vec<String> {
    labels_from(
        models
            .iter()
            .map(|m| {
                let mut f = vec![short(&m.id).to_string(), m.id.clone(), m.abbrev()];
                f.dedup();
                f
            })
            .collect(),
    )
}

/// Picks one form per agent, stepping clashing agents down their forms until none clash.
fn labels_from(forms: Vec<Vec<String>>) -> Vec<String> {
    // Forms compare ignoring case: each lowercased once, not per comparison (the Skills table
    // asks for labels at several widths in every frame).
    let lower: Vec<Vec<String>> = forms
        .iter()
        .map(|f| f.iter().map(|t| t.to_lowercase()).collect())
        .collect();
    let mut at = vec![0usize; forms.len()];
    let pick = |at: &[usize], i: usize| -> &str {
        let f = &lower[i];
        &f[at[i].min(f.len() - 1)]
    };
    loop {
        // Every clash is found first, then the clashing agents step down together.
        let clashing: Vec<usize> = (0..forms.len())
            .filter(|&i| {
                at[i] + 1 < forms[i].len()
                    && (0..forms.len()).any(|j| j != i && pick(&at, i) == pick(&at, j))
            })
            .collect();
        let moved = !clashing.is_empty();
        for i in clashing {
            at[i] += 1;
        }
        if !moved {
            break;
        }
    }
    forms
        .into_iter()
        .zip(&at)
        .map(|(mut f, &a)| f.swap_remove(a.min(f.len() - 1)))
        .collect()
}

/// How an agent handles a field in at most `width` characters: the word (`ignored`), else a
/// three-letter form (`ign`, `uns`, `unk`; `read` stays), else one letter (`r`, `i`, `u`, `?`).
pub fn handling_label(h: crate::agents::Handling, width: usize) -> &'static str {
    use crate::agents::Handling;
    let word = h.as_str();
    if word.len() <= width {
        return word;
    }
    let (short, letter) = match h {
        Handling::Read => ("read", "r"),
        Handling::Ignored => ("ign", "i"),
        Handling::Unsupported => ("uns", "u"),
        Handling::Unknown => ("unk", "?"),
    };
    if short.len() <= width { short } else { letter }
}

/// A count with thousands separators: `141,897`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Listing tokens against a budget: `141,897 / 4,000 (35×)`; under the budget the share
/// (`1,200 / 4,000 (30%)`); without a budget the tokens alone.
pub fn tokens_of_budget(tokens: u64, budget: Option<u64>) -> String {
    match budget {
        Some(b) if b > 0 => {
            let share = if tokens > b {
                let x = tokens as f64 / b as f64;
                if x >= 10.0 {
                    format!("{}×", (x.round() as u64))
                } else {
                    format!("{:.1}×", (x * 10.0).floor() / 10.0)
                }
            } else {
                format!("{}%", tokens * 100 / b)
            };
            format!("{} / {} ({share})", thousands(tokens), thousands(b))
        }
        _ => thousands(tokens),
    }
}

/// A planned candidate (`actions::planner`) as the lines of a preview: its title and size, the
/// agents it gains (`+`) and loses (`-`, marked `✗`), each with how many skills, its notes, then
/// the first `diff_max` lines of its diff. Paths shortened and escaped.
pub fn candidate_lines(
    env: &Env,
    c: &crate::actions::planner::Candidate,
    diff_max: usize,
) -> Vec<String> {
    let per_agent = |es: &[crate::actions::planner::Effect]| -> String {
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for e in es {
            match counts.iter_mut().find(|(a, _)| *a == e.agent) {
                Some((_, n)) => *n += 1,
                None => counts.push((&e.agent, 1)),
            }
        }
        counts
            .iter()
            .map(|(a, n)| {
                let skills = if *n == 1 { "skill" } else { "skills" };
                format!("{} ({} {skills})", sanitize::line(a), thousands(*n as u64))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = vec![
        shorten(env, &c.plan.title),
        format!(
            "{} file operation{}{}",
            thousands(c.files as u64),
            if c.files == 1 { "" } else { "s" },
            if c.achieves {
                ""
            } else {
                " · does not reach the goal"
            }
        ),
        String::new(),
    ];
    out.push(if c.gains.is_empty() {
        "gains: none".into()
    } else {
        format!("+ gains: {}", per_agent(&c.gains))
    });
    out.push(if c.losses.is_empty() {
        "losses: none".into()
    } else {
        format!("- ✗ losses: {}", per_agent(&c.losses))
    });
    out.extend(
        c.plan
            .notes
            .iter()
            .map(|n| format!("note: {}", shorten(env, n))),
    );
    let diff: Vec<&str> = c
        .plan
        .diff
        .lines()
        .filter(|l| !l.starts_with("---") && !l.starts_with("+++") && !l.starts_with("@@"))
        .collect();
    if !diff.is_empty() {
        out.push(String::new());
        out.extend(diff.iter().take(diff_max).map(|l| shorten(env, l)));
        if diff.len() > diff_max {
            out.push(format!(
                "… {} more lines",
                thousands((diff.len() - diff_max) as u64)
            ));
        }
    }
    out
}

/// What the user can do about a verdict, as data (each front end names its own key or command).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Remedy {
    /// A quick fix removes the cause (`skilltui fix --only CODE`, `F`).
    QuickFix(String),
    /// Another copy wins the name: make this one win (rename, move, remove the other; `W`).
    MakeWin,
    /// The agent never scans where the skill is: move, copy or link it to a root it scans (`M`).
    Relocate,
}

/// The answer line of one agent's verdict: glyph, verdict, the reason that decided it and what
/// to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub glyph: &'static str,
    pub status: Status,
    pub label: &'static str,
    /// The index in `verdict.reasons` of the deciding reason ([`Verdict::deciding`]).
    pub deciding: Option<usize>,
    pub remedy: Option<Remedy>,
}

/// The answer line of a verdict.
pub fn answer(v: &Verdict) -> Answer {
    let deciding = v.deciding_index();
    let reason = deciding.map(|i| &v.reasons[i]);
    let remedy = match (v.status, reason) {
        (
            _,
            Some(Reason {
                fix: Some(code), ..
            }),
        ) => Some(Remedy::QuickFix(code.clone())),
        (Status::Shadowed, _) => Some(Remedy::MakeWin),
        (Status::NotFound, Some(r)) if r.topic.is_root_level() => Some(Remedy::Relocate),
        _ => None,
    };
    Answer {
        glyph: glyph(v),
        status: v.status,
        label: verdict_label(v),
        deciding,
        remedy,
    }
}

/// The text after the verdict on an answer line: the deciding reason's sentence, or for a
/// visible skill the root it is listed from (and the name, when it differs).
pub fn answer_text(env: &Env, v: &Verdict, a: &Answer, label: &str) -> String {
    match a.status {
        Status::Visible => {
            let mut parts = Vec::new();
            if let Some(n) = v.as_name.as_deref().filter(|n| *n != label) {
                parts.push(format!("as `{}`", sanitize::line(n)));
            }
            if let Some(r) = &v.root {
                parts.push(format!("from {}", show_path(env, r)));
            }
            parts.join(" ")
        }
        _ => a
            .deciding
            .map(|i| shorten(env, &v.reasons[i].message))
            .unwrap_or_default(),
    }
}

/// The reasons worth showing under an answer line, in order: every reason but the deciding one;
/// for a visible skill, only the notes (not where it was found or where its name comes from).
pub fn other_reasons<'a>(v: &'a Verdict, a: &Answer) -> Vec<&'a Reason> {
    v.reasons
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            Some(*i) != a.deciding
                && !(v.status == Status::Visible
                    && matches!(r.topic, Topic::Found | Topic::NameSource))
        })
        .map(|(_, r)| r)
        .collect()
}
