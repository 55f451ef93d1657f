//! The Agent Skills specification as a validator, with the verdicts of the reference
//! validator `skills-ref` on its own test suite.
//!
//! Rules (spec §"Frontmatter", skills-ref `validator.py`): `name` is stripped and
//! NFKC-normalised, at most 64 code points, unchanged by lowercasing, made of Unicode letters
//! and digits (general category L*/N*) and single inner hyphens, and equal to the NFKC folder
//! name; `description` is a non-empty string of at most 1024 code points; `compatibility` a
//! string of at most 500; only the six spec fields are allowed. Beyond skills-ref (warnings,
//! which do not make a skill invalid): `metadata` that is not a map of strings, `allowed-tools`
//! or `license` that is not a string, an empty `compatibility`, a lowercase `skill.md`.
//!
//! Where skills-ref differs from the spec only because of its YAML library (strictyaml rejects
//! flow style, anchors and tags and reads every scalar as a string), this module follows the
//! spec and YAML 1.2: flow style, anchors and tags are accepted, and `name: 123` is an integer,
//! not a string. README.md lists each difference.

pub use crate::skill::ProblemCode;
use crate::skill::{
    self, Frontmatter, MissingCause, Node, ParseError, Pos, SPEC_FIELDS, SkillMd, SplitError,
    StrField, YamlType,
};
use serde::Serialize;
use std::path::{Path, PathBuf};
use unicode_normalization::UnicodeNormalization;

pub const NAME_MAX: usize = 64;
pub const DESCRIPTION_MAX: usize = 1024;
pub const COMPATIBILITY_MAX: usize = 500;

/// How much a spec problem matters; `error` or `warning` (stable strings).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    strum::IntoStaticStr,
    strum::Display,
    strum::EnumString,
    strum::EnumIter,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// One finding about a skill. `code` is stable: scripts depend on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub code: ProblemCode,
    pub severity: Severity,
    pub message: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl Problem {
    fn new(code: ProblemCode, severity: Severity, message: String, pos: Option<Pos>) -> Self {
        Problem {
            code,
            severity,
            message,
            line: pos.map(|p| p.line),
            column: pos.map(|p| p.column),
        }
    }
    fn error(code: ProblemCode, message: String, pos: Option<Pos>) -> Self {
        Self::new(code, Severity::Error, message, pos)
    }
    fn warning(code: ProblemCode, message: String, pos: Option<Pos>) -> Self {
        Self::new(code, Severity::Warning, message, pos)
    }
}

/// The result of validating one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The skill folder, absolute.
    pub dir: PathBuf,
    /// The SKILL.md that was read, when one was found.
    pub skill_md: Option<PathBuf>,
    pub problems: Vec<Problem>,
}

impl Report {
    /// Valid exactly when no problem is an error.
    pub fn valid(&self) -> bool {
        !self.problems.iter().any(|p| p.severity == Severity::Error)
    }
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

fn is_skill_md_name(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.eq_ignore_ascii_case("SKILL.md"))
}

/// Validates a skill folder, or a SKILL.md file (its folder is the skill).
pub fn validate_path(path: &Path) -> Report {
    let abs = absolute(path);
    let meta = std::fs::metadata(&abs);
    let (dir, given_file) = match &meta {
        Ok(m) if m.is_file() && is_skill_md_name(&abs) => (
            abs.parent().map(Path::to_path_buf).unwrap_or(abs.clone()),
            Some(abs.clone()),
        ),
        _ => (abs.clone(), None),
    };
    let mut report = Report {
        dir: dir.clone(),
        skill_md: None,
        problems: Vec::new(),
    };
    match &meta {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            report.problems.push(Problem::error(
                ProblemCode::PathMissing,
                format!("path does not exist: {}", abs.display()),
                None,
            ));
            return report;
        }
        Err(e) => {
            report.problems.push(Problem::error(
                ProblemCode::FileUnreadable,
                format!("cannot read {}: {e}", abs.display()),
                None,
            ));
            return report;
        }
        Ok(m) if !m.is_dir() && given_file.is_none() => {
            report.problems.push(Problem::error(
                ProblemCode::NotADirectory,
                format!(
                    "not a directory: {} (give a skill folder or its SKILL.md)",
                    abs.display()
                ),
                None,
            ));
            return report;
        }
        Ok(_) => {}
    }
    let file = match given_file {
        Some(f) => f,
        None => match find_skill_md(&dir) {
            Ok(f) => f,
            Err(p) => {
                report.problems.push(p);
                return report;
            }
        },
    };
    if file.file_name().and_then(|n| n.to_str()) != Some("SKILL.md") {
        report.problems.push(Problem::warning(
            ProblemCode::SkillMdLowercase,
            format!(
                "the file is named {}; the spec names it SKILL.md, and several agents load only that exact name (`skilltui list` shows which)",
                file.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()
            ),
            None,
        ));
    }
    report.skill_md = Some(file.clone());
    let md = match SkillMd::read(&file) {
        Ok(md) => md,
        Err(e) => {
            report.problems.push(Problem::error(
                e.code(),
                e.to_string(),
                e.line().map(|line| Pos {
                    line,
                    column: e.column().unwrap_or(1),
                }),
            ));
            return report;
        }
    };
    let dir_name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    report
        .problems
        .extend(validate_text(md.text(), dir_name.as_deref()));
    report
}

/// Finds `SKILL.md`, else `skill.md` (as skills-ref does), in a folder.
fn find_skill_md(dir: &Path) -> Result<PathBuf, Problem> {
    let upper = dir.join("SKILL.md");
    match std::fs::metadata(&upper) {
        Ok(m) if m.is_file() => return Ok(upper),
        Ok(_) => {
            return Err(Problem::error(
                ProblemCode::SkillMdMissing,
                "SKILL.md is a directory, not a file".into(),
                None,
            ));
        }
        Err(_) => {}
    }
    let lower = dir.join("skill.md");
    if std::fs::metadata(&lower).is_ok_and(|m| m.is_file()) {
        return Ok(lower);
    }
    // Say what is there instead: another spelling, or skill folders one level down.
    let mut other_case = None;
    let mut children = 0usize;
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten().take(10_000) {
            let p = e.path();
            if is_skill_md_name(&p) {
                other_case = Some(e.file_name().to_string_lossy().into_owned());
            } else if p.join("SKILL.md").is_file() {
                children += 1;
            }
        }
    }
    let hint = match (other_case, children) {
        (Some(n), _) => format!("; found {n}: rename it to SKILL.md"),
        (None, n) if n > 0 => format!(
            "; this looks like a skills root holding {n} skill folder(s): validate those folders"
        ),
        _ => String::new(),
    };
    Err(Problem::error(
        ProblemCode::SkillMdMissing,
        format!("missing required file: SKILL.md{hint}"),
        None,
    ))
}

/// Validates the text of a SKILL.md against the spec. `dir_name` is the skill folder's name
/// (None skips the folder-match check).
pub fn validate_text(text: &str, dir_name: Option<&str>) -> Vec<Problem> {
    let doc = match SkillMd::parse_text(text) {
        Ok(doc) => doc,
        Err(e) => return vec![parse_problem(&e)],
    };
    validate_frontmatter(&doc.frontmatter, dir_name)
}

impl SkillMd {
    /// Parses text with the canonical rules without owning it.
    pub fn parse_text(text: &str) -> Result<skill::Document<'_>, ParseError> {
        skill::parse_with(
            text,
            skill::SplitOptions::CANONICAL,
            skill::YamlOptions::default(),
        )
    }
}

/// The problem for a file that does not parse.
pub fn parse_problem(e: &ParseError) -> Problem {
    let pos = match e {
        ParseError::Split(SplitError::Missing(MissingCause::BlankFirstLine)) => {
            Some(Pos { line: 1, column: 1 })
        }
        _ => e.pos(),
    };
    Problem::error(e.code(), e.to_string(), pos)
}

/// The spec's field rules on a parsed frontmatter.
pub fn validate_frontmatter(fm: &Frontmatter, dir_name: Option<&str>) -> Vec<Problem> {
    let mut out = Vec::new();
    for (key, ty, pos) in fm.extra_fields() {
        out.push(Problem::error(
            ProblemCode::FieldUnexpected,
            format!(
                "unexpected field `{key}` ({ty}); the spec allows only {}",
                sorted_spec_fields()
            ),
            Some(pos),
        ));
    }
    check_name(fm, dir_name, &mut out);
    check_description(fm, &mut out);
    check_compatibility(fm, &mut out);
    check_optional_types(fm, &mut out);
    out
}

fn sorted_spec_fields() -> String {
    let mut f = SPEC_FIELDS.to_vec();
    f.sort_unstable();
    f.join(", ")
}

/// How a non-string value is described in messages: `integer 123`, `sequence`.
fn describe(node: &Node) -> String {
    match node.scalar_text() {
        Some(t) if node.ty() != YamlType::Null => format!("{} `{}`", node.ty(), t),
        _ => node.ty().to_string(),
    }
}

/// Unicode letters and digits as Python's `str.isalnum` sees them: general category L* or N*.
pub fn is_letter_or_digit(c: char) -> bool {
    use unicode_general_category::{GeneralCategory as G, get_general_category};
    matches!(
        get_general_category(c),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
            | G::DecimalNumber
            | G::LetterNumber
            | G::OtherNumber
    )
}

/// The name as the spec compares it: stripped, NFKC-normalised.
pub fn normalize_name(name: &str) -> String {
    nfkc(name.trim()).into_owned()
}

/// `text` NFKC-normalised: as it is when it is ASCII (ASCII text is its own NFKC form: no
/// ASCII character decomposes, and a composition needs a non-ASCII mark or jamo), else
/// normalised.
pub fn nfkc(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() {
        text.into()
    } else {
        text.nfkc().collect::<String>().into()
    }
}

/// The spec's name rules on a normalised name, without the folder match. Returns the codes and
/// messages of every rule broken, in skills-ref order.
pub fn name_rule_problems(name: &str) -> Vec<(ProblemCode, String)> {
    let mut out = Vec::new();
    let len = name.chars().count();
    if len > NAME_MAX {
        out.push((
            ProblemCode::NameTooLong,
            format!("name '{name}' is {len} characters; the limit is {NAME_MAX} (Unicode code points, after NFKC)"),
        ));
    }
    if name != name.to_lowercase() {
        out.push((
            ProblemCode::NameNotLowercase,
            format!("name '{name}' must be lowercase"),
        ));
    }
    if name.starts_with('-') || name.ends_with('-') {
        out.push((
            ProblemCode::NameHyphenEdge,
            "name must not start or end with a hyphen".to_string(),
        ));
    }
    if name.contains("--") {
        out.push((
            ProblemCode::NameConsecutiveHyphens,
            "name must not contain consecutive hyphens".to_string(),
        ));
    }
    let bad: Vec<char> = name
        .chars()
        .filter(|&c| c != '-' && !is_letter_or_digit(c))
        .collect();
    if !bad.is_empty() {
        let shown: String = bad
            .iter()
            .take(5)
            .map(|c| format!("{:?}", c))
            .collect::<Vec<_>>()
            .join(", ");
        out.push((
            ProblemCode::NameInvalidChars,
            format!(
                "name '{name}' contains invalid characters ({shown}); only letters, digits and hyphens are allowed"
            ),
        ));
    }
    out
}

fn check_name(fm: &Frontmatter, dir_name: Option<&str>, out: &mut Vec<Problem>) {
    let key_pos = fm.entry("name").map(|e| e.key.pos);
    match fm.name() {
        StrField::Absent => out.push(Problem::error(
            ProblemCode::NameMissing,
            "missing required field `name`".into(),
            None,
        )),
        StrField::Other(node) if node.ty() == YamlType::Null => out.push(Problem::error(
            ProblemCode::NameEmpty,
            "field `name` is empty; it must be a non-empty string".into(),
            key_pos,
        )),
        StrField::Other(node) => out.push(Problem::error(
            ProblemCode::NameNotString,
            format!(
                "field `name` must be a string, found {}{}",
                describe(node),
                quote_hint(node)
            ),
            Some(node.pos),
        )),
        StrField::Str(raw, pos) => {
            if raw.trim().is_empty() {
                out.push(Problem::error(
                    ProblemCode::NameEmpty,
                    "field `name` is empty; it must be a non-empty string".into(),
                    Some(pos),
                ));
                return;
            }
            let name = normalize_name(raw);
            for (code, msg) in name_rule_problems(&name) {
                out.push(Problem::error(code, msg, Some(pos)));
            }
            if let Some(dir) = dir_name
                && nfkc(dir) != name
            {
                out.push(Problem::error(
                    ProblemCode::NameDirectoryMismatch,
                    format!("directory name '{dir}' must match skill name '{name}'"),
                    Some(pos),
                ));
            }
        }
    }
}

fn quote_hint(node: &Node) -> &'static str {
    match node.ty() {
        YamlType::Int | YamlType::Float | YamlType::Bool => "; quote the value to make it a string",
        _ => "",
    }
}

fn check_description(fm: &Frontmatter, out: &mut Vec<Problem>) {
    let key_pos = fm.entry("description").map(|e| e.key.pos);
    match fm.description() {
        StrField::Absent => out.push(Problem::error(
            ProblemCode::DescriptionMissing,
            "missing required field `description`".into(),
            None,
        )),
        StrField::Other(node) if node.ty() == YamlType::Null => out.push(Problem::error(
            ProblemCode::DescriptionEmpty,
            "field `description` is empty; say what the skill does and when to use it".into(),
            key_pos,
        )),
        StrField::Other(node) => out.push(Problem::error(
            ProblemCode::DescriptionNotString,
            format!(
                "field `description` must be a string, found {}{}",
                describe(node),
                quote_hint(node)
            ),
            Some(node.pos),
        )),
        StrField::Str(s, pos) => {
            if s.trim().is_empty() {
                out.push(Problem::error(
                    ProblemCode::DescriptionEmpty,
                    "field `description` is empty; say what the skill does and when to use it"
                        .into(),
                    Some(pos),
                ));
            } else {
                let len = s.chars().count();
                if len > DESCRIPTION_MAX {
                    out.push(Problem::error(
                        ProblemCode::DescriptionTooLong,
                        format!(
                            "description is {len} characters; the limit is {DESCRIPTION_MAX} (Unicode code points)"
                        ),
                        Some(pos),
                    ));
                }
            }
        }
    }
}

fn check_compatibility(fm: &Frontmatter, out: &mut Vec<Problem>) {
    let key_pos = fm.entry("compatibility").map(|e| e.key.pos);
    match fm.compatibility() {
        StrField::Absent => {}
        StrField::Other(node) if node.ty() == YamlType::Null => out.push(Problem::warning(
            ProblemCode::CompatibilityEmpty,
            "field `compatibility` is empty; the spec wants 1-500 characters when present (skills-ref accepts it)".into(),
            key_pos,
        )),
        StrField::Other(node) => out.push(Problem::error(
            ProblemCode::CompatibilityNotString,
            format!(
                "field `compatibility` must be a string, found {}{}",
                describe(node),
                quote_hint(node)
            ),
            Some(node.pos),
        )),
        StrField::Str(s, pos) => {
            let len = s.chars().count();
            if len > COMPATIBILITY_MAX {
                out.push(Problem::error(
                    ProblemCode::CompatibilityTooLong,
                    format!(
                        "compatibility is {len} characters; the limit is {COMPATIBILITY_MAX} (Unicode code points)"
                    ),
                    Some(pos),
                ));
            } else if len == 0 {
                out.push(Problem::warning(
                    ProblemCode::CompatibilityEmpty,
                    "field `compatibility` is empty; the spec wants 1-500 characters when present (skills-ref accepts it)".into(),
                    Some(pos),
                ));
            }
        }
    }
}

/// Whether a `metadata-not-map` problem is about `metadata` itself not being a map (what an
/// agent expecting a map checks), rather than one of its keys or values not being a string.
pub fn metadata_itself(p: &Problem) -> bool {
    p.code == ProblemCode::MetadataNotMap && p.message.starts_with(METADATA_ITSELF)
}

const METADATA_ITSELF: &str = "field `metadata` must be a map";

fn check_optional_types(fm: &Frontmatter, out: &mut Vec<Problem>) {
    if let Some(node) = fm.get("metadata") {
        match node.entries() {
            None => out.push(Problem::warning(
                ProblemCode::MetadataNotMap,
                format!(
                    "{METADATA_ITSELF} from string keys to string values, found {}",
                    describe(node)
                ),
                Some(node.pos),
            )),
            Some(entries) => {
                for e in entries {
                    let key = e.key.scalar_text().unwrap_or("<non-scalar key>");
                    if e.key.as_str().is_none() {
                        out.push(Problem::warning(
                            ProblemCode::MetadataNotMap,
                            format!("metadata key `{key}` is a {}, not a string", e.key.ty()),
                            Some(e.key.pos),
                        ));
                    } else if e.value.as_str().is_none() {
                        out.push(Problem::warning(
                            ProblemCode::MetadataNotMap,
                            format!(
                                "metadata.{key} must be a string, found {}{}",
                                describe(&e.value),
                                quote_hint(&e.value)
                            ),
                            Some(e.value.pos),
                        ));
                    }
                }
            }
        }
    }
    if let StrField::Other(node) = fm.allowed_tools() {
        let hint = if node.ty() == YamlType::Sequence {
            "; write the tools as one space-separated string, e.g. `allowed-tools: Bash(git:*) Read`"
        } else {
            ""
        };
        out.push(Problem::warning(
            ProblemCode::AllowedToolsNotString,
            format!(
                "field `allowed-tools` must be a space-separated string, found {}{hint}",
                describe(node)
            ),
            Some(node.pos),
        ));
    }
    if let StrField::Other(node) = fm.license() {
        out.push(Problem::warning(
            ProblemCode::LicenseNotString,
            format!(
                "field `license` should be a string (a license name or a bundled file), found {}",
                describe(node)
            ),
            Some(node.pos),
        ));
    }
}
