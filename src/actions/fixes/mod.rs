//! The quick fixes. Each is one [`QuickFix`] in its own file: when it applies, the line that
//! offers it (its preview text), and its plan (edits on the plan being built). [`REGISTRY`] lists
//! them once, in the order they apply; [`FixCode`] is their stable code
//! (`skilltui fix --only CODE`).
//!
//! A new fix is a file here, its variant in [`FixCode`] and its line in [`REGISTRY`] (a test
//! checks that the two agree), and its row in the README's fix table (a test checks that too).

mod add_description;
mod flat_to_folder;
mod name_folder_match;
mod quote_description;
mod quote_value;
mod remove_bom;
mod shorten_description;
mod shorten_name;
mod skill_md_case;
mod ungroup;

use super::{Builder, Refusal, RefusalKind, refuse};
use crate::agents::{AgentModel, Topic, Unit};
use crate::catalog::{Catalog, Skill};
use crate::spec::{self, ProblemCode};

/// A quick fix's stable code, in the order the fixes apply. The kebab-case form is stable:
/// scripts and `--only` use it.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::AsRefStr,
    strum::EnumIter,
    strum::Display,
    clap::ValueEnum,
)]
#[strum(serialize_all = "kebab-case")]
pub enum FixCode {
    RemoveBom,
    QuoteDescription,
    QuoteValue,
    AddDescription,
    ShortenDescription,
    ShortenName,
    NameFolderMatch,
    SkillMdCase,
    FlatToFolder,
    Ungroup,
}

impl FixCode {
    /// The stable string form.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl serde::Serialize for FixCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A quick fix that applies to a skill: its code and what it does there, for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// Stable code for `skilltui fix --only CODE`.
    pub code: FixCode,
    /// What it does, for people.
    pub title: String,
}

/// What the fixes look at to decide whether they apply: the skill, the models, the file as read.
pub struct Facts<'a> {
    pub skill: &'a Skill,
    pub models: &'a [AgentModel],
    /// The file's bytes (empty when it cannot be read).
    pub bytes: Vec<u8>,
    /// The file's text, when it is UTF-8.
    pub text: Option<String>,
    /// The file's name (`SKILL.md`, `skill.md`, `notes.md`).
    pub file_name: String,
}

impl<'a> Facts<'a> {
    fn read(models: &'a [AgentModel], skill: &'a Skill) -> Facts<'a> {
        let bytes = std::fs::read(&skill.path).unwrap_or_default();
        let text = String::from_utf8(bytes.clone()).ok();
        let file_name = skill
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Facts {
            skill,
            models,
            bytes,
            text,
            file_name,
        }
    }
}

/// One quick fix.
pub trait QuickFix: Sync {
    /// Its stable code.
    fn code(&self) -> FixCode;
    /// Whether it applies to the skill.
    fn applies(&self, f: &Facts) -> bool;
    /// The line that offers it for this skill (its preview text); called when it applies.
    fn title(&self, f: &Facts) -> String;
    /// Its plan: the edits and path operations on the plan being built.
    fn plan(&self, b: &mut Builder) -> Result<(), Refusal>;
}

/// Every quick fix, in the order they apply (the order of [`FixCode`]).
pub static REGISTRY: [&dyn QuickFix; 10] = [
    &remove_bom::RemoveBom,
    &quote_description::QuoteDescription,
    &quote_value::QuoteValue,
    &add_description::AddDescription,
    &shorten_description::ShortenDescription,
    &shorten_name::ShortenName,
    &name_folder_match::NameFolderMatch,
    &skill_md_case::SkillMdCase,
    &flat_to_folder::FlatToFolder,
    &ungroup::Ungroup,
];

/// The fix with this code.
pub(crate) fn get(code: FixCode) -> &'static dyn QuickFix {
    REGISTRY
        .iter()
        .copied()
        .find(|f| f.code() == code)
        .expect("every FixCode has its fix in REGISTRY")
}

/// The quick fixes that apply to a skill, in order.
pub fn fixes(cat: &Catalog, models: &[AgentModel], skill: &Skill) -> Vec<Fix> {
    let _ = cat;
    let facts = Facts::read(models, skill);
    REGISTRY
        .iter()
        .filter(|f| f.applies(&facts))
        .map(|f| Fix {
            code: f.code(),
            title: f.title(&facts),
        })
        .collect()
}

/// The plan for the fixes in `only` (every one that applies when empty).
pub(super) fn plan_fixes(
    cat: &Catalog,
    models: &[AgentModel],
    skill: &Skill,
    only: &[String],
) -> Result<super::Plan, Refusal> {
    for o in only {
        if o.parse::<FixCode>().is_err() {
            let codes: Vec<&str> = REGISTRY.iter().map(|f| f.code().as_str()).collect();
            return refuse(
                RefusalKind::NotFound,
                format!("unknown fix `{o}`; the codes are: {}", codes.join(", ")),
            );
        }
    }
    let offered = fixes(cat, models, skill);
    let chosen: Vec<&Fix> = offered
        .iter()
        .filter(|f| only.is_empty() || only.iter().any(|o| o == f.code.as_str()))
        .collect();
    if chosen.is_empty() {
        let why = if only.is_empty() {
            "no quick fix applies to this skill".to_string()
        } else {
            let avail: Vec<&str> = offered.iter().map(|f| f.code.as_str()).collect();
            format!(
                "{} does not apply to this skill{}",
                only.join(", "),
                if avail.is_empty() {
                    String::new()
                } else {
                    format!(" (what applies: {})", avail.join(", "))
                }
            )
        };
        return refuse(RefusalKind::Unchanged, why);
    }
    let mut b = Builder::new(cat, models, skill)?;
    for f in &chosen {
        get(f.code).plan(&mut b)?;
        b.fixes.push(f.code.to_string());
    }
    let titles: Vec<&str> = chosen.iter().map(|f| f.code.as_str()).collect();
    b.finish(format!("fix `{}`: {}", skill.label(), titles.join(", ")))
}

// ---------------------------------------------------------------------------------------------
// What several fixes look at.

fn has_problem(s: &Skill, code: ProblemCode) -> bool {
    s.problems.iter().any(|p| p.code == code)
}

fn has_reason(s: &Skill, topic: Topic) -> bool {
    s.verdicts
        .iter()
        .any(|(_, v)| v.reasons.iter().any(|r| r.topic == topic))
}

/// A length limit: (limit, unit, who sets it).
type Limit = (usize, Unit, String);

/// The name's (or the description's) limits: the spec's, then each agent's that has one.
fn limits(models: &[AgentModel], name: bool) -> Vec<Limit> {
    let mut out = vec![(
        if name {
            spec::NAME_MAX
        } else {
            spec::DESCRIPTION_MAX
        },
        Unit::CodePoints,
        "the spec".to_string(),
    )];
    for m in models {
        let rule = if name {
            &m.name_rules.length
        } else {
            &m.description_rules.length
        };
        if let Some(l) = rule.known()
            && let Some(n) = l.limit
        {
            out.push((n as usize, l.unit, m.id.clone()));
        }
    }
    out
}

fn count_all(s: &str, lim: &[Limit]) -> bool {
    lim.iter().all(|(n, u, _)| u.count(s) <= *n)
}

fn length_note(what: &str, s: &str, new: &str, lim: &[Limit]) -> String {
    let parts: Vec<String> = lim
        .iter()
        .map(|(n, u, who)| {
            format!(
                "{who}: {} → {} {} (limit {n})",
                u.count(s),
                u.count(new),
                u.as_str()
            )
        })
        .collect();
    format!("{what} length — {}", parts.join("; "))
}

/// Folders between the root and the SKILL.md (1 = `<root>/<skill>/SKILL.md`).
fn group_depth(s: &Skill) -> usize {
    match (&s.root, s.path.parent()) {
        (Some(r), Some(p)) => p.strip_prefix(r).map_or(0, |rel| rel.components().count()),
        _ => 0,
    }
}
