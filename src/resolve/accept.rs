//! Does an agent accept a SKILL.md it reached, and under which name? The parse rules (BOM,
//! delimiters, YAML leniency, errors) and the name and description rules decide.

use super::repair;
use super::verdict::{Message, Reason};
use crate::agents::{
    AgentModel, Bom, Charset, CoerceOrReject, Expects, FieldRule, HidesFromModel, Known,
    LengthLimit, MissingDescription, MissingName, NameSource, NoFrontmatter, Posture, Provenance,
    Rule, TextCoercion, TextStep, Unclosed, ValueKind, ValueOutcome, ValueRule, Whitespace,
    YamlErrorPosture, YamlRepair,
};
use crate::msg;
use crate::skill::{
    self, Frontmatter, MissingCause, Node, ParseError, ReadError, SkillMd, SplitError,
    SplitOptions, YamlOptions, YamlType,
};
use std::borrow::Cow;
use std::sync::Arc;

/// A skill the agent loads.
#[derive(Debug, Clone, PartialEq)]
pub struct Accepted {
    /// The name it is listed and invoked under.
    pub name: String,
    /// The name from the frontmatter, when it differs from `name` (display label).
    pub display: Option<String>,
    /// Shared by the agents of the file that read the same text.
    pub description: std::sync::Arc<str>,
    /// Warnings and notes (the skill still loads).
    pub notes: Vec<Reason>,
    /// Set when the skill is loaded but kept from the model.
    pub hidden_from_model: Option<Reason>,
    /// The description after the agent's listing normalisation (None: not established),
    /// shared with the other agents that list the same text.
    pub description_as_listed: Option<std::sync::Arc<str>>,
    /// Set for a conditional skill: the patterns whose files make the agent list it.
    pub conditional: Option<Vec<String>>,
    /// The agent lists the skill with no description at all (so none is "as listed").
    pub no_listed_description: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Acceptance {
    Accepted(Box<Accepted>),
    Rejected(Reason),
    Unknown(Reason),
}

struct Ctx<'a> {
    m: &'a AgentModel,
}

impl Ctx<'_> {
    fn reason<T>(&self, rule: &Rule<T>, message: impl Into<Message>) -> Reason {
        Reason::from_rule(&rule.from, message)
    }
    fn reason_from(&self, from: &Provenance, message: impl Into<Message>) -> Reason {
        Reason::from_rule(from, message)
    }
    fn unknown<T>(&self, rule: &Rule<T>, what: &str) -> Acceptance {
        Acceptance::Unknown(self.reason(
            rule,
            msg!(
                "{}; how {} handles this is not established",
                what,
                self.m.name
            ),
        ))
    }
}

/// The body's first paragraph (headings skipped), as agents that infer a description use it.
/// The description an agent gives a skill it loads without usable metadata (no frontmatter, or
/// a YAML error it loads anyway): what its `description_rules.missing` rule says, else the
/// body's first paragraph. Returns the text and how it was taken, for the reason's sentence.
fn body_description(m: &AgentModel, body: &str) -> (String, &'static str) {
    match &m.description_rules.missing.value {
        Known::Known(MissingDescription::FirstLine) => (
            first_line(body),
            "the body's first line (a heading without its `#`) as description",
        ),
        _ => (first_paragraph(body), "the first paragraph as description"),
    }
}

pub fn first_paragraph(body: &str) -> String {
    let mut para: Vec<&str> = Vec::new();
    for line in body.lines() {
        let t = line.trim();
        if t.is_empty() {
            if !para.is_empty() {
                break;
            }
            continue;
        }
        if t.starts_with('#') && para.is_empty() {
            continue;
        }
        para.push(t);
    }
    para.join(" ")
}

/// The body's first non-blank line, a heading's `#` marks removed, as Claude Code derives a
/// description: over 100 characters it is cut to 97 and `...` added; an empty body gives `Skill`.
pub fn first_line(body: &str) -> String {
    const MAX: usize = 100;
    let line = body
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| l.trim_start_matches('#').trim().to_string())
        .unwrap_or_default();
    if line.is_empty() {
        return "Skill".into();
    }
    if line.chars().count() > MAX {
        let mut cut: String = line.chars().take(MAX - 3).collect();
        cut.push_str("...");
        return cut;
    }
    line
}

/// The body text without its leading heading, cut to `limit` characters.
fn body_text(body: &str, limit: usize) -> String {
    let text: String = body
        .lines()
        .skip_while(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    collapse(&text).chars().take(limit).collect()
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Decides whether agent `m` loads `content`. `folder` is the name the agent would fall back to
/// (the skill folder, or the file stem of a loose `foo.md`).
pub fn accept(m: &AgentModel, content: &Result<SkillMd, ReadError>, folder: &str) -> Acceptance {
    accept_with(m, content, folder, &skill::Parses::new())
}

/// [`accept`], with the file's YAML parses shared with the other agents that read it: an agent
/// whose split and YAML options give a text already parsed reuses that tree.
pub fn accept_with(
    m: &AgentModel,
    content: &Result<SkillMd, ReadError>,
    folder: &str,
    parses: &skill::Parses,
) -> Acceptance {
    let mut a = accept_unlisted(m, content, folder, parses);
    if let Acceptance::Accepted(acc) = &mut a
        && acc.description_as_listed.is_none()
        && !acc.no_listed_description
        && let Some(Known::Known(steps)) = m.description_rules.listed.as_ref().map(|r| &r.value)
    {
        // `strip-final-newline` is the newline before the closing `---`, which the agent leaves
        // out of the YAML text: only a value that ends the frontmatter loses it.
        let ends = || {
            content
                .as_ref()
                .is_ok_and(|md| last_frontmatter_key(md.text()) == Some("description"))
        };
        let steps: Vec<TextStep> = if steps.contains(&TextStep::StripFinalNewline) && !ends() {
            steps
                .iter()
                .copied()
                .filter(|s| *s != TextStep::StripFinalNewline)
                .collect()
        } else {
            steps.clone()
        };
        acc.description_as_listed =
            Some(parses.shared_text(&TextStep::apply_all(&steps, &acc.description)));
    }
    a
}

/// The last top-level key of the frontmatter (a line at column 0 with `key:`), read from the
/// text between the opening `---` line and the next line that starts with `---`.
fn last_frontmatter_key(text: &str) -> Option<&str> {
    let mut lines = text.trim_start_matches('\u{feff}').lines();
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    let mut last = None;
    for l in lines {
        if l.starts_with("---") {
            return last;
        }
        if l.starts_with(|c: char| c.is_whitespace() || c == '#') || l.is_empty() {
            continue;
        }
        if let Some((k, _)) = l.split_once(':') {
            last = Some(k.trim().trim_matches(['"', '\'']));
        }
    }
    None
}

/// The kind of a frontmatter value, as value rules tell them apart.
pub fn value_kind(node: &Node) -> ValueKind {
    use skill::yaml::{ScalarKind, Value};
    match &node.value {
        Value::Scalar { text, kind, ty } => match ty {
            YamlType::Null if text.is_empty() && *kind == ScalarKind::Plain => ValueKind::Bare,
            YamlType::Null => ValueKind::Null,
            YamlType::Bool => ValueKind::Bool,
            YamlType::Int => ValueKind::Int,
            YamlType::Float => ValueKind::Float,
            _ if matches!(kind, ScalarKind::Literal | ScalarKind::Folded) => ValueKind::BlockScalar,
            _ if text.trim().is_empty() => ValueKind::EmptyString,
            _ => ValueKind::String,
        },
        Value::Sequence(items) => {
            let strings = items.iter().filter(|i| i.as_str().is_some()).count();
            if items.is_empty() {
                ValueKind::EmptyList
            } else if strings == items.len() {
                ValueKind::StringList
            } else if strings > 0 {
                ValueKind::MixedList
            } else {
                ValueKind::List
            }
        }
        Value::Mapping(_) => ValueKind::Mapping,
    }
}

/// JavaScript's `String(value)` of a parsed YAML value: list items joined with `,` (null items
/// empty), a mapping `[object Object]`, numbers in JavaScript's form.
pub fn js_string(node: &Node) -> String {
    use skill::yaml::Value;
    match &node.value {
        Value::Scalar { text, ty, .. } => match ty {
            YamlType::Null => "null".into(),
            YamlType::Bool => text.to_ascii_lowercase(),
            YamlType::Int => text
                .replace('_', "")
                .parse::<i64>()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| text.clone()),
            YamlType::Float => match text.parse::<f64>() {
                Ok(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e21 => {
                    format!("{}", f as i64)
                }
                Ok(f) if f.is_finite() => format!("{f}"),
                _ => text.clone(),
            },
            _ => text.clone(),
        },
        Value::Sequence(items) => items
            .iter()
            .map(|i| {
                if i.ty() == YamlType::Null {
                    String::new()
                } else {
                    js_string(i)
                }
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Mapping(_) => "[object Object]".into(),
    }
}

/// The strings in a value: the string itself, or a list's string items.
fn strings_of(node: &Node) -> Vec<String> {
    match &node.value {
        skill::yaml::Value::Sequence(items) => items
            .iter()
            .filter_map(|i| i.as_str())
            .filter(|s| !s.trim().is_empty())
            .map(String::from)
            .collect(),
        _ => node
            .as_str()
            .filter(|s| !s.trim().is_empty())
            .map(|s| vec![s.to_string()])
            .unwrap_or_default(),
    }
}

/// A field's value matched by one of the field's value rules.
struct ValueHit<'a> {
    key: &'a str,
    node: &'a Node,
    kind: ValueKind,
    rule: &'a ValueRule,
}

impl ValueHit<'_> {
    fn outcome(&self) -> Option<ValueOutcome> {
        self.rule.outcome.as_known().copied()
    }

    /// "`key` is a list (line 3): CONSEQUENCE", citing the value rule (and its quick fix).
    fn reason(&self, cx: &Ctx, consequence: impl std::fmt::Display) -> Reason {
        let mut r = cx.reason_from(
            &self.rule.from,
            msg!(
                "`{}` is {} (line {}): {}",
                self.key,
                self.kind.phrase(),
                self.node.pos.line,
                consequence
            ),
        );
        r.fix = self.rule.fix.clone();
        r
    }

    /// The verdict for a `reject` or `unknown` outcome.
    fn refusal(&self, cx: &Ctx) -> Option<Acceptance> {
        let m = cx.m;
        match self.outcome() {
            Some(ValueOutcome::Reject) => {
                let said = self
                    .rule
                    .message
                    .as_ref()
                    .map(|msg| {
                        let value = match self.node.as_str() {
                            Some(t) => t.to_string(),
                            None => js_string(self.node),
                        };
                        format!(" (\"{}\")", msg.replace("{value}", &value))
                    })
                    .unwrap_or_default();
                Some(Acceptance::Rejected(
                    self.reason(cx, msg!("{} drops the skill{}", m.name, said)),
                ))
            }
            None => Some(Acceptance::Unknown(
                self.reason(cx, msg!("how {} handles this is not established", m.name)),
            )),
            _ => None,
        }
    }

    fn text(&self) -> String {
        match self.rule.text {
            Some(TextCoercion::Source) => self
                .node
                .scalar_text()
                .map(String::from)
                .unwrap_or_else(|| js_string(self.node)),
            _ => js_string(self.node),
        }
    }
}

fn field_node<'a>(fm: &'a Frontmatter, key: &str) -> Option<&'a Node> {
    match fm.get(key) {
        Some(n) => Some(n),
        None => key
            .split_once('.')
            .and_then(|(outer, inner)| fm.get(outer).and_then(|n| n.get(inner))),
    }
}

fn value_hit<'a>(fm: &'a Frontmatter, key: &'a str, rule: &'a FieldRule) -> Option<ValueHit<'a>> {
    if rule.values.is_empty() {
        return None;
    }
    let node = field_node(fm, key)?;
    let kind = value_kind(node);
    let (pair, one);
    let kinds: &[ValueKind] = match node.as_bool() {
        Some(true) if kind == ValueKind::Bool => {
            pair = [ValueKind::True, kind];
            &pair
        }
        Some(false) if kind == ValueKind::Bool => {
            pair = [ValueKind::False, kind];
            &pair
        }
        _ => {
            one = [kind];
            &one
        }
    };
    let (kind, vr) = rule.value_rule(kinds)?;
    Some(ValueHit {
        key,
        node,
        kind,
        rule: vr,
    })
}

/// What a name or description value gives, as the agent reads it.
enum Got<'a> {
    /// The text as read: borrowed from the parsed frontmatter unless the agent made it.
    Text(Cow<'a, str>),
    /// A value rule replaces the value (folder name, first paragraph, empty).
    Instead(ValueOutcome, Reason),
}

/// The phases of acceptance in the order the agents apply them: the file is read, its
/// frontmatter block found, its YAML parsed, then [`FIELD_CHECKS`] decide on the fields. A
/// phase that decides (rejects, cannot tell, or loads the file without usable metadata) ends it.
/// [`accept_with`] without the description as the agent lists it (`description_as_listed`
/// left as the checks set it): for a caller that keeps only whether and under which name the
/// skill is loaded (the keys pass).
pub(crate) fn accept_unlisted(
    m: &AgentModel,
    content: &Result<SkillMd, ReadError>,
    folder: &str,
    parses: &skill::Parses,
) -> Acceptance {
    let cx = Ctx { m };
    let decided = || -> Result<Acceptance, Acceptance> {
        let md = readable(m, content)?;
        let parts = frontmatter_block(&cx, md, folder)?;
        let (root, notes) = yaml_mapping(&cx, &parts, folder, parses)?;
        let fm = skill::Frontmatter::from_shared(root);
        let mut draft = Draft::new(&fm, parts.body, folder, notes);
        for (_, check) in FIELD_CHECKS {
            check(&cx, &mut draft)?;
        }
        Ok(draft.accepted(parses))
    };
    decided().unwrap_or_else(|decision| decision)
}

/// The file as read, or the verdict on a file skilltui could not read.
fn readable<'a>(
    m: &AgentModel,
    content: &'a Result<SkillMd, ReadError>,
) -> Result<&'a SkillMd, Acceptance> {
    match content {
        Ok(md) => Ok(md),
        Err(e @ ReadError::Io { .. }) => Err(Acceptance::Rejected(Reason::skilltui(
            "read",
            msg!(
                "the file cannot be read ({}), so no agent running as this user can load it",
                e
            ),
        ))),
        Err(e) => Err(Acceptance::Unknown(Reason::skilltui(
            "read",
            msg!(
                "skilltui does not read this file ({}); what {} does with it is unknown",
                e,
                m.name
            ),
        ))),
    }
}

/// The frontmatter block with the agent's split options (BOM, padded delimiters, unclosed
/// block), or the verdict on a file without a usable block.
fn frontmatter_block<'t>(
    cx: &Ctx,
    md: &'t SkillMd,
    folder: &str,
) -> Result<skill::frontmatter::Split<'t>, Acceptance> {
    let parse = &cx.m.parse;
    let text = md.text();
    let has_bom = text.starts_with('\u{feff}');
    let strip_bom = match (&parse.bom.value, has_bom) {
        (_, false) => false,
        (Known::Known(Bom::Strip), true) => true,
        (Known::Known(Bom::NoFrontmatter | Bom::AsNoFrontmatter), true) => false,
        (Known::Unknown, true) => {
            return Err(cx.unknown(&parse.bom, "the file starts with a UTF-8 BOM"));
        }
    };
    let opts = SplitOptions {
        strip_bom,
        padded_delimiters: matches!(parse.padded_delimiters.value, Known::Known(true)),
        unclosed_rest_is_yaml: matches!(parse.unclosed.value, Known::Known(Unclosed::RestIsYaml)),
    };
    md.split(opts)
        .map_err(|e| no_frontmatter(cx, e, text, folder))
}

/// A file without a usable frontmatter block: the rule that decides such a file, applied.
fn no_frontmatter(cx: &Ctx, error: SplitError, text: &str, folder: &str) -> Acceptance {
    let (m, parse) = (cx.m, &cx.m.parse);
    let (rule, what): (&Rule<NoFrontmatter>, String) = match error {
        SplitError::Missing(MissingCause::BlankFirstLine) => (
            &parse.blank_first_line,
            "the file starts with a blank line, so there is no frontmatter".into(),
        ),
        SplitError::Missing(MissingCause::Bom) => {
            // `as-no-frontmatter`: the file is what `no_frontmatter` says of a file without
            // one (Qoder CLI loads it, named after its folder, `---` as description).
            if !matches!(parse.bom.value, Known::Known(Bom::AsNoFrontmatter)) {
                return Acceptance::Rejected(cx.reason(
                    &parse.bom,
                    msg!("the file starts with a UTF-8 BOM, which hides the opening `---` from {}: no frontmatter", m.name),
                ));
            }
            (
                &parse.no_frontmatter,
                format!(
                    "the file starts with a UTF-8 BOM, which hides the opening `---` from {}: no frontmatter",
                    m.name
                ),
            )
        }
        SplitError::Unclosed => {
            if parse.unclosed.value.is_unknown() {
                return cx.unknown(&parse.unclosed, "the frontmatter has no closing `---`");
            }
            (
                &parse.no_frontmatter,
                "the frontmatter has no closing `---`, so there is no frontmatter".into(),
            )
        }
        SplitError::Missing(_) => (
            &parse.no_frontmatter,
            "the file has no frontmatter (it does not start with a `---` line)".into(),
        ),
    };
    match &rule.value {
        Known::Known(NoFrontmatter::Reject) => {
            Acceptance::Rejected(cx.reason(rule, msg!("{}; {} skips such files", what, m.name)))
        }
        Known::Known(NoFrontmatter::LoadBody) => {
            let (description, how) = body_description(m, text.trim_start_matches('\u{feff}'));
            let note = cx.reason(
                rule,
                msg!(
                    "{}; {} loads it anyway, named after its folder, with {}",
                    what,
                    m.name,
                    how
                ),
            );
            loaded_without_metadata(folder, description, note)
        }
        Known::Unknown => cx.unknown(rule, &what),
    }
}

/// A skill loaded without usable metadata: named after its folder, with one note saying why.
fn loaded_without_metadata(folder: &str, description: String, note: Reason) -> Acceptance {
    Acceptance::Accepted(Box::new(Accepted {
        name: folder.to_string(),
        display: None,
        description: description.into(),
        notes: vec![note],
        hidden_from_model: None,
        description_as_listed: None,
        conditional: None,
        no_listed_description: false,
    }))
}

/// The frontmatter's YAML as a mapping, with the agent's leniency (repairs, repeated keys, an
/// empty block), and the notes the leniency leaves; or the verdict on YAML it does not take.
fn yaml_mapping(
    cx: &Ctx,
    parts: &skill::frontmatter::Split,
    folder: &str,
    parses: &skill::Parses,
) -> Result<(Arc<Node>, Vec<Reason>), Acceptance> {
    let (m, parse) = (cx.m, &cx.m.parse);
    let repair_mode = match &parse.yaml_repair.value {
        Known::Known(r) => *r,
        Known::Unknown => YamlRepair::None,
    };
    let yopts = YamlOptions {
        allow_duplicate_keys: matches!(
            parse.duplicate_keys.value,
            Known::Known(Posture::Accept | Posture::Warn | Posture::Truncate)
        ),
    };
    let first = repair::first(parts.yaml, repair_mode);
    let empty_is_mapping = matches!(
        parse.empty_block_is_mapping.as_ref().map(|r| &r.value),
        Some(Known::Known(true))
    );
    // Parsed once per distinct text and options, whichever agent asks first.
    let mapping = |yaml: &str| -> Result<Arc<Node>, ParseError> {
        let root = parses
            .yaml(yaml, parts.yaml_line, yopts)
            .map_err(ParseError::Yaml)?;
        if empty_is_mapping && root.ty() == YamlType::Null && yaml.trim().is_empty() {
            return Ok(Arc::new(Node {
                value: skill::yaml::Value::Mapping(Vec::new()),
                ..(*root).clone()
            }));
        }
        if root.ty() != YamlType::Mapping {
            return Err(ParseError::NotMapping {
                ty: root.ty(),
                pos: root.pos,
            });
        }
        Ok(root)
    };
    let mut notes = Vec::new();
    if empty_is_mapping
        && parts.yaml.trim().is_empty()
        && let Some(rule) = &parse.empty_block_is_mapping
    {
        notes.push(cx.reason(
            rule,
            msg!(
                "the frontmatter block is empty; {} reads it as a block with no fields",
                m.name
            ),
        ));
    }
    let parsed = match mapping(&first) {
        Ok(root) => {
            if first != parts.yaml && parses.yaml(parts.yaml, parts.yaml_line, yopts).is_err() {
                notes.push(cx.reason(
                    &parse.yaml_repair,
                    msg!("the frontmatter is not valid YAML (e.g. an unquoted `: ` in a value); {} reads such values literally", m.name),
                ));
            }
            Ok(root)
        }
        Err(e) => {
            match repair::retry(parts.yaml, repair_mode).map(|again| mapping(&again)) {
                Some(Ok(root)) => {
                    notes.push(cx.reason(
                    &parse.yaml_repair,
                    msg!("the frontmatter is not valid YAML ({}); {} repaired it on a second try", e, m.name),
                ));
                    Ok(root)
                }
                _ => Err(e),
            }
        }
    };
    match parsed {
        Ok(root) => Ok((root, notes)),
        Err(e) => Err(yaml_refused(cx, e, parts.body, folder)),
    }
}

/// Frontmatter whose YAML does not parse (or repeats a key): the rule that decides, applied.
fn yaml_refused(cx: &Ctx, error: ParseError, body: &str, folder: &str) -> Acceptance {
    let (m, parse) = (cx.m, &cx.m.parse);
    let is_dup = matches!(&error, ParseError::Yaml(y) if y.message.starts_with("duplicate key"));
    if is_dup && parse.duplicate_keys.value.is_unknown() {
        return cx.unknown(&parse.duplicate_keys, &error.to_string());
    }
    let at = error
        .pos()
        .map(|pos| format!(" (line {}, column {})", pos.line, pos.column))
        .unwrap_or_default();
    let what = format!("{error}{at}");
    if is_dup {
        return Acceptance::Rejected(cx.reason(
            &parse.duplicate_keys,
            msg!("{}; {} rejects a repeated key", what, m.name),
        ));
    }
    match &parse.yaml_error.value {
        Known::Known(YamlErrorPosture::Reject) => Acceptance::Rejected(cx.reason(
            &parse.yaml_error,
            msg!(
                "{}; {} skips a skill whose frontmatter does not parse",
                what,
                m.name
            ),
        )),
        Known::Known(YamlErrorPosture::LoadBody) => {
            let (description, how) = body_description(m, body);
            let note = cx.reason(
                &parse.yaml_error,
                msg!(
                    "{}; {} loads the skill anyway with empty metadata: named after its folder, {}",
                    what,
                    m.name,
                    how
                ),
            );
            loaded_without_metadata(folder, description, note)
        }
        Known::Unknown => cx.unknown(&parse.yaml_error, &what),
    }
}

/// A string-valued field as the agent reads it: Ok(None) absent, Ok(Some) text (or what a value
/// rule puts instead), Err verdict.
fn read_string<'f>(
    cx: &Ctx,
    fm: &'f Frontmatter,
    key: &str,
    folder: &str,
    notes: &mut Vec<Reason>,
) -> Result<Option<Got<'f>>, Acceptance> {
    let m = cx.m;
    let Some(node) = fm.get(key) else {
        return Ok(None);
    };
    if let Some(hit) = m.fields.get(key).and_then(|f| value_hit(fm, key, f)) {
        if let Some(a) = hit.refusal(cx) {
            return Err(a);
        }
        match hit.outcome() {
            Some(ValueOutcome::Text) => {
                let text = hit.text();
                notes.push(hit.reason(cx, msg!("{} reads it as the text `{}`", m.name, text)));
                return Ok(Some(Got::Text(Cow::Owned(text))));
            }
            Some(ValueOutcome::Ignored) => {
                notes.push(hit.reason(
                    cx,
                    msg!("{} ignores it, as if `{}` were missing", m.name, key),
                ));
                return Ok(None);
            }
            Some(
                o @ (ValueOutcome::FolderName | ValueOutcome::FirstParagraph | ValueOutcome::Empty),
            ) => {
                let what = match o {
                    ValueOutcome::FolderName => {
                        format!("{} uses the folder name `{folder}`", m.name)
                    }
                    ValueOutcome::FirstParagraph => {
                        format!("{} uses the body's first paragraph", m.name)
                    }
                    _ => format!("{} loads it with an empty {key}", m.name),
                };
                return Ok(Some(Got::Instead(o, hit.reason(cx, what))));
            }
            _ => {}
        }
    }
    let null_is_a_value = matches!(
        m.parse.null_scalars.as_ref().map(|r| &r.value),
        Some(Known::Known(crate::agents::NullScalars::NonString))
    );
    if node.ty() == YamlType::Null && !null_is_a_value {
        return Ok(Some(Got::Text(Cow::Borrowed(""))));
    }
    // An agent whose YAML schema has timestamps reads a plain `2024-01-01` as a date.
    let date = matches!(
        m.parse.timestamps.as_ref().map(|r| &r.value),
        Some(Known::Known(true))
    ) && node.tag.is_none()
        && matches!(
            &node.value,
            skill::yaml::Value::Scalar {
                kind: skill::yaml::ScalarKind::Plain,
                ty: YamlType::String,
                text,
            } if is_yaml11_timestamp(text)
        );
    if let Some(s) = node.as_str().filter(|_| !date) {
        return Ok(Some(Got::Text(Cow::Borrowed(s))));
    }
    let ty = if date {
        "timestamp".to_string()
    } else {
        node.ty().to_string()
    };
    if let Some(text) = node.scalar_text() {
        return match &m.parse.non_string_scalars.value {
            Known::Known(CoerceOrReject::Coerce) => Ok(Some(Got::Text(Cow::Borrowed(text)))),
            Known::Known(CoerceOrReject::Reject) => Err(Acceptance::Rejected(cx.reason(
                &m.parse.non_string_scalars,
                msg!("`{}: {}` is a YAML {} (line {}), not a string, and {} skips the skill; quote the value", key, text, ty, node.pos.line, m.name),
            ))),
            Known::Unknown => Err(cx.unknown(
                &m.parse.non_string_scalars,
                &format!("`{key}` is a YAML {ty}, not a string"),
            )),
        };
    }
    let msg = format!(
        "`{key}` is a YAML {} (line {}) where a string is expected",
        node.ty(),
        node.pos.line
    );
    match m.fields.get(key) {
        Some(f) if f.on_invalid == Some(Posture::Reject) => Err(Acceptance::Rejected(
            cx.reason_from(&f.from, msg!("{}; {} skips the skill", msg, m.name)),
        )),
        Some(f) if matches!(f.on_invalid, Some(Posture::Warn | Posture::Accept)) => Ok(None),
        Some(f) => Err(Acceptance::Unknown(cx.reason_from(
            &f.from,
            msg!("{}; what {} does then is not established", msg, m.name),
        ))),
        None => Err(Acceptance::Unknown(Reason::skilltui(
            "model",
            msg!("{}; the model of {} has no rule for `{}`", msg, m.name, key),
        ))),
    }
}

/// Applies a length limit. Ok(value possibly cut, or the `fallback` for the posture
/// `folder-name`) or the verdict.
#[allow(clippy::too_many_arguments)]
fn limit<'v>(
    cx: &Ctx,
    rule: &Rule<LengthLimit>,
    what: &str,
    value: Cow<'v, str>,
    spec_max: usize,
    fallback: Option<&str>,
    notes: &mut Vec<Reason>,
) -> Result<Cow<'v, str>, Acceptance> {
    let m = cx.m;
    match &rule.value {
        Known::Known(LengthLimit {
            limit: Some(n),
            unit,
            posture,
        }) => {
            // Every unit counts at most one per byte: a value within the limit in bytes is
            // within it in any unit, without counting.
            if value.len() <= *n as usize {
                return Ok(value);
            }
            let len = unit.count(&value);
            if len <= *n as usize {
                return Ok(value);
            }
            let msg = format!(
                "the {what} is {len} {} long; {}'s limit is {n}",
                unit.as_str(),
                m.name
            );
            match posture {
                Posture::Reject => Err(Acceptance::Rejected(
                    cx.reason(rule, msg!("{}, and it skips the skill", msg)),
                )),
                Posture::Warn => {
                    notes.push(cx.reason(rule, msg!("{}; it warns and loads it whole", msg)));
                    Ok(value)
                }
                Posture::Truncate => {
                    notes.push(cx.reason(rule, msg!("{}; it cuts the text", msg)));
                    Ok(Cow::Owned(cut(&value, *n as usize, *unit)))
                }
                Posture::Accept => Ok(value),
                Posture::FolderName => match fallback {
                    Some(f) => {
                        notes.push(cx.reason(
                            rule,
                            msg!("{}; it uses the folder name `{}` instead", msg, f),
                        ));
                        Ok(Cow::Owned(f.to_string()))
                    }
                    None => Ok(value),
                },
            }
        }
        Known::Known(_) => Ok(value),
        Known::Unknown => {
            // Unknown unit too: over the spec's limit in code points or in UTF-16 units (each
            // at most one per byte: a value within the limit in bytes is not counted).
            if value.len() > spec_max
                && value.chars().count().max(value.encode_utf16().count()) > spec_max
            {
                Err(cx.unknown(
                    rule,
                    &format!("the {what} is longer than the spec's {spec_max} characters"),
                ))
            } else {
                Ok(value)
            }
        }
    }
}

fn cut(s: &str, n: usize, unit: crate::agents::Unit) -> String {
    let mut out = String::new();
    for c in s.chars() {
        out.push(c);
        if unit.count(&out) > n {
            out.pop();
            break;
        }
    }
    out
}

fn charset_ok(charset: Charset, name: &str) -> bool {
    match charset {
        Charset::Any => true,
        Charset::AsciiKebab => {
            !name.is_empty()
                && name.split('-').all(|p| {
                    !p.is_empty()
                        && p.bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                })
        }
        Charset::AsciiKebabAnyCase => {
            !name.is_empty()
                && name
                    .split('-')
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric()))
        }
        Charset::UnicodeKebab => {
            let n = crate::spec::normalize_name(name);
            crate::spec::name_rule_problems(&n)
                .iter()
                .all(|(code, _)| *code == crate::spec::ProblemCode::NameTooLong)
        }
        Charset::CopilotName => {
            let mut chars = name.chars();
            chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | ' '))
        }
        Charset::QwenName => {
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'))
        }
    }
}

fn charset_label(c: Charset) -> &'static str {
    match c {
        Charset::Any => "any characters",
        Charset::AsciiKebab => "lowercase ASCII letters, digits and single inner hyphens",
        Charset::AsciiKebabAnyCase => "ASCII letters, digits and single inner hyphens",
        Charset::UnicodeKebab => "lowercase letters, digits and single inner hyphens",
        Charset::CopilotName => {
            "ASCII letters, digits, `-`, `_`, `.`, `:` and spaces, starting with a letter or digit"
        }
        Charset::QwenName => "letters, digits, `_`, `:`, `.` and `-`",
    }
}

fn truthy(node: &Node) -> bool {
    match node.scalar_text() {
        Some(t) => matches!(
            t.to_ascii_lowercase().as_str(),
            "true" | "yes" | "on" | "1" | "y"
        ),
        None => false,
    }
}

/// A skill being accepted: what the field checks have decided so far.
struct Draft<'a> {
    fm: &'a Frontmatter,
    body: &'a str,
    folder: &'a str,
    notes: Vec<Reason>,
    /// Fields a value rule matched (their type is not checked again).
    valued: Vec<&'a str>,
    conditional: Option<Vec<String>>,
    /// The frontmatter `name` as read (absent: `None`), until the name checks settle `name`.
    read_name: Option<Got<'a>>,
    name: String,
    display: Option<String>,
    /// Borrowed from the frontmatter while no check changes it.
    description: Cow<'a, str>,
    hidden_from_model: Option<Reason>,
    no_listed_description: bool,
}

impl<'a> Draft<'a> {
    fn new(fm: &'a Frontmatter, body: &'a str, folder: &'a str, notes: Vec<Reason>) -> Self {
        Draft {
            fm,
            body,
            folder,
            notes,
            valued: Vec::new(),
            conditional: None,
            read_name: None,
            name: String::new(),
            display: None,
            description: Cow::Borrowed(""),
            hidden_from_model: None,
            no_listed_description: false,
        }
    }

    /// The accepted skill; its description one copy shared by the agents of the file that read
    /// the same text (`parses`).
    fn accepted(self, parses: &skill::Parses) -> Acceptance {
        Acceptance::Accepted(Box::new(Accepted {
            name: self.name,
            display: self.display,
            description: parses.shared_text(&self.description),
            notes: self.notes,
            hidden_from_model: self.hidden_from_model,
            description_as_listed: None,
            conditional: self.conditional,
            no_listed_description: self.no_listed_description,
        }))
    }
}

/// A field check: `Err` when it decides (the skill is rejected or its fate is unknown).
type FieldCheck = for<'a> fn(&Ctx<'a>, &mut Draft<'a>) -> Result<(), Acceptance>;

/// The field checks in the order the agents apply them: the first that decides wins; a skill
/// no check refuses is accepted with what they settled.
const FIELD_CHECKS: &[(&str, FieldCheck)] = &[
    ("field-values", field_values),
    ("field-types", field_types),
    ("name-read", name_read),
    ("name-line-break", name_line_break),
    ("name-listed-form", name_listed_form),
    ("name-missing-or-empty", name_missing_or_empty),
    ("name-length", name_length),
    ("name-charset", name_charset),
    ("name-folder-mismatch", name_folder_mismatch),
    ("name-listed-spaces", name_listed_spaces),
    ("name-source", name_source),
    ("description", description),
    ("description-length", description_length),
    ("hidden-by-field", hidden_by_field),
];

/// Value rules of the other fields: what this skill's value of each does.
fn field_values<'a>(cx: &Ctx<'a>, draft: &mut Draft<'a>) -> Result<(), Acceptance> {
    let m = cx.m;
    let fm = draft.fm;
    for (key, rule) in &m.fields {
        if key == "name" || key == "description" || key == "*" {
            continue;
        }
        let Some(hit) = value_hit(fm, key, rule) else {
            continue;
        };
        draft.valued.push(key);
        if let Some(refused) = hit.refusal(cx) {
            return Err(refused);
        }
        let note = match hit.outcome() {
            Some(ValueOutcome::Conditional) => {
                let patterns = strings_of(hit.node);
                let shown: Vec<String> = patterns.iter().map(|p| format!("`{p}`")).collect();
                draft
                    .conditional
                    .get_or_insert_with(Vec::new)
                    .extend(patterns);
                msg!(
                    "the skill is conditional: {} leaves it out of the listing at session start and loads it once files matching {} are touched",
                    m.name,
                    shown.join(", ")
                )
            }
            Some(ValueOutcome::Text) => {
                msg!("{} reads it as the text `{}`", m.name, hit.text())
            }
            Some(ValueOutcome::Ignored) => msg!("{} ignores it", m.name),
            Some(ValueOutcome::Empty) => msg!("{} reads it as empty", m.name),
            _ => continue,
        };
        draft.notes.push(hit.reason(cx, note));
    }
    Ok(())
}

/// Type checks of other fields that make the agent reject a skill.
fn field_types(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    let m = cx.m;
    let coerces = matches!(
        m.parse.non_string_scalars.value,
        Known::Known(CoerceOrReject::Coerce)
    );
    for (key, rule) in &m.fields {
        if key == "name"
            || key == "description"
            || rule.on_invalid != Some(Posture::Reject)
            || draft.valued.contains(&key.as_str())
        {
            continue;
        }
        let Some(expects) = rule.expects else {
            continue;
        };
        let Some(node) = field_node_split(draft.fm, key) else {
            continue;
        };
        let ok = match expects {
            Expects::String => node.as_str().is_some() || (coerces && node.scalar_text().is_some()),
            Expects::Map => node.ty() == YamlType::Mapping,
            Expects::Bool => node.ty() == YamlType::Bool,
            Expects::StringOrList => node.as_str().is_some() || node.ty() == YamlType::Sequence,
        };
        if !ok {
            return Err(Acceptance::Rejected(cx.reason_from(
                &rule.from,
                msg!(
                    "`{}` is a YAML {} (line {}), and {} skips a skill unless it is a {}",
                    key,
                    node.ty(),
                    node.pos.line,
                    m.name,
                    match expects {
                        Expects::String => "string",
                        Expects::Map => "map",
                        Expects::Bool => "boolean",
                        Expects::StringOrList => "string or list",
                    }
                ),
            )));
        }
    }
    Ok(())
}

/// A dotted key's node (`outer.inner`), else the key itself.
fn field_node_split<'a>(fm: &'a Frontmatter, key: &str) -> Option<&'a Node> {
    match key.split_once('.') {
        Some((outer, inner)) => fm.get(outer).and_then(|n| n.get(inner)),
        None => fm.get(key),
    }
}

/// The frontmatter `name` as the agent reads it (its value rules, its type).
fn name_read(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    draft.read_name = read_string(cx, draft.fm, "name", draft.folder, &mut draft.notes)?;
    Ok(())
}

/// A name with a line break (`name_rules.multiline`).
fn name_line_break(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    let m = cx.m;
    let Some(Got::Text(name)) = &draft.read_name else {
        return Ok(());
    };
    let Some(rule) = &m.name_rules.multiline else {
        return Ok(());
    };
    if !name.contains(['\n', '\r']) {
        return Ok(());
    }
    let situation = format!("the name `{}` has a line break", name.escape_debug());
    let instead = match &rule.value {
        Known::Known(MissingName::Folder) => (
            ValueOutcome::FolderName,
            msg!(
                "{}; {} uses the folder name `{}`",
                situation,
                m.name,
                draft.folder
            ),
        ),
        Known::Known(MissingName::Empty) => (
            ValueOutcome::Empty,
            msg!("{}; {} loads it with an empty name", situation, m.name),
        ),
        Known::Known(MissingName::Reject) => {
            return Err(Acceptance::Rejected(cx.reason(
                rule,
                msg!("{}, and {} skips the skill", situation, m.name),
            )));
        }
        Known::Unknown => return Err(cx.unknown(rule, &situation)),
    };
    draft.read_name = Some(Got::Instead(instead.0, cx.reason(rule, instead.1)));
    Ok(())
}

/// The agent's own normalisation of the name (`name_rules.listed`: trimming).
fn name_listed_form(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    let m = cx.m;
    if let Some(Got::Text(name)) = &mut draft.read_name
        && let Some(rule) = &m.name_rules.listed
        && let Known::Known(steps) = &rule.value
    {
        let listed = TextStep::apply_all(steps, name);
        if listed != *name && !listed.is_empty() {
            draft.notes.push(cx.reason(
                rule,
                msg!(
                    "{} reads the name `{}` as `{}`",
                    m.name,
                    name.escape_debug(),
                    listed
                ),
            ));
        }
        if listed != **name {
            *name = Cow::Owned(listed.into_owned());
        }
    }
    Ok(())
}

/// The name, or what the agent uses when it is missing or empty (`name_rules.missing`,
/// `name_rules.empty`).
fn name_missing_or_empty(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    let (m, rules) = (cx.m, &cx.m.name_rules);
    let (rule, situation) = match &draft.read_name {
        None => (&rules.missing, "the frontmatter has no `name`"),
        Some(Got::Text(name)) if name.trim().is_empty() => {
            (&rules.empty, "the frontmatter `name` is empty")
        }
        Some(Got::Text(name)) => {
            draft.name = if collapses_whitespace(m) {
                collapse(name)
            } else {
                name.to_string()
            };
            return Ok(());
        }
        Some(Got::Instead(outcome, reason)) => {
            draft.notes.push(reason.clone());
            draft.name = match outcome {
                ValueOutcome::Empty => String::new(),
                _ => draft.folder.to_string(),
            };
            return Ok(());
        }
    };
    let folder = draft.folder;
    let (name, note) = match &rule.value {
        Known::Known(MissingName::Folder) => (
            folder.to_string(),
            msg!(
                "{}; {} uses the folder name `{}`",
                situation,
                m.name,
                folder
            ),
        ),
        Known::Known(MissingName::Empty) => (
            String::new(),
            msg!("{}; {} loads it with an empty name", situation, m.name),
        ),
        Known::Known(MissingName::Reject) => {
            return Err(Acceptance::Rejected(cx.reason(
                rule,
                msg!("{}, and {} skips the skill", situation, m.name),
            )));
        }
        Known::Unknown => return Err(cx.unknown(rule, situation)),
    };
    draft.notes.push(cx.reason(rule, note));
    draft.name = name;
    Ok(())
}

fn collapses_whitespace(m: &AgentModel) -> bool {
    matches!(m.parse.whitespace.value, Known::Known(Whitespace::Collapse))
}

/// The name's length (`name_rules.length`).
fn name_length(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    let name = std::mem::take(&mut draft.name);
    draft.name = limit(
        cx,
        &cx.m.name_rules.length,
        "name",
        Cow::Owned(name),
        crate::spec::NAME_MAX,
        Some(draft.folder),
        &mut draft.notes,
    )?
    .into_owned();
    Ok(())
}

/// The name's characters (`name_rules.charset`).
fn name_charset(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    let (m, rule) = (cx.m, &cx.m.name_rules.charset);
    let name = &draft.name;
    match &rule.value {
        Known::Known(charset) if !charset_ok(charset.charset, name) => {
            let msg = format!(
                "the name `{name}` breaks {}'s name rule ({})",
                m.name,
                charset_label(charset.charset)
            );
            match charset.posture {
                Posture::Reject => {
                    return Err(Acceptance::Rejected(
                        cx.reason(rule, msg!("{}, and it skips the skill", msg)),
                    ));
                }
                Posture::Warn => draft
                    .notes
                    .push(cx.reason(rule, msg!("{}; it warns and loads it", msg))),
                _ => {}
            }
        }
        Known::Unknown if !charset_ok(Charset::AsciiKebab, name) => {
            return Err(cx.unknown(
                rule,
                &format!("the name `{name}` is not lowercase ASCII letters, digits and hyphens"),
            ));
        }
        _ => {}
    }
    Ok(())
}

/// A name that differs from its folder (`name_rules.folder_mismatch`).
fn name_folder_mismatch(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    let (m, rule) = (cx.m, &cx.m.name_rules.folder_mismatch);
    let (name, folder) = (&draft.name, draft.folder);
    if name.is_empty() || name == folder {
        return Ok(());
    }
    match &rule.value {
        Known::Known(Posture::Reject) => Err(Acceptance::Rejected(cx.reason(
            rule,
            msg!(
                "the name `{}` differs from the folder `{}`, and {} skips the skill",
                name,
                folder,
                m.name
            ),
        ))),
        Known::Known(Posture::Warn) => {
            draft.notes.push(cx.reason(
                rule,
                msg!(
                    "the name `{}` differs from the folder `{}`; {} warns and loads it",
                    name,
                    folder,
                    m.name
                ),
            ));
            Ok(())
        }
        Known::Unknown => Err(cx.unknown(
            rule,
            &format!("the name `{name}` differs from the folder `{folder}`"),
        )),
        _ => Ok(()),
    }
}

/// Spaces in the listed name replaced (`name_rules.listed_spaces`).
fn name_listed_spaces(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    if let Some(rule) = &cx.m.name_rules.listed_spaces
        && let Known::Known(with) = &rule.value
        && draft.name.contains(' ')
    {
        let listed = draft.name.replace(' ', with);
        draft.notes.push(cx.reason(
            rule,
            msg!(
                "{} lists the name `{}` as `{}`",
                cx.m.name,
                draft.name,
                listed
            ),
        ));
        draft.name = listed;
    }
    Ok(())
}

/// An agent that lists a skill under its folder shows the frontmatter name beside it
/// (`name_rules.source`).
fn name_source(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    if let Known::Known(NameSource::Folder) = &cx.m.name_rules.source.value
        && draft.name != draft.folder
    {
        draft.display = Some(std::mem::replace(&mut draft.name, draft.folder.to_string()));
    }
    Ok(())
}

/// The description, or what the agent uses when it is missing or empty
/// (`description_rules.missing`, `description_rules.empty`).
fn description(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    let m = cx.m;
    let read = read_string(cx, draft.fm, "description", draft.folder, &mut draft.notes)?;
    draft.description = match read {
        Some(Got::Text(text)) if !text.trim().is_empty() => {
            if collapses_whitespace(m) {
                Cow::Owned(collapse(&text))
            } else {
                text
            }
        }
        Some(Got::Instead(outcome, reason)) => {
            draft.notes.push(reason);
            match outcome {
                ValueOutcome::FirstParagraph => Cow::Owned(first_paragraph(draft.body)),
                _ => Cow::Borrowed(""),
            }
        }
        other => Cow::Owned(description_instead(cx, draft, other.is_none())?),
    };
    Ok(())
}

/// What the agent uses for a missing (`absent`) or empty description.
fn description_instead(cx: &Ctx, draft: &mut Draft, absent: bool) -> Result<String, Acceptance> {
    let (m, rules, body) = (cx.m, &cx.m.description_rules, draft.body);
    let (rule, situation) = if absent {
        (&rules.missing, "the frontmatter has no `description`")
    } else {
        (&rules.empty, "the frontmatter `description` is empty")
    };
    let value = match &rule.value {
        Known::Known(MissingDescription::Reject) => {
            return Err(Acceptance::Rejected(cx.reason(
                rule,
                msg!("{}, and {} skips the skill", situation, m.name),
            )));
        }
        Known::Unknown => return Err(cx.unknown(rule, situation)),
        Known::Known(MissingDescription::Unlisted) => {
            draft.no_listed_description = true;
            draft.hidden_from_model = Some(cx.reason(
                rule,
                msg!(
                    "{}; {} loads it but leaves it out of the model's listing",
                    situation,
                    m.name
                ),
            ));
            return Ok(String::new());
        }
        Known::Known(instead) => instead,
    };
    let (text, note) = match value {
        MissingDescription::FirstParagraph => (
            first_paragraph(body),
            msg!("{}; {} uses the body's first paragraph", situation, m.name),
        ),
        MissingDescription::FirstLine => (
            first_line(body),
            msg!(
                "{}; {} uses the body's first line (a heading without its `#`)",
                situation,
                m.name
            ),
        ),
        MissingDescription::BodyText => {
            let n = match &rules.length.value {
                Known::Known(LengthLimit { limit: Some(n), .. }) => *n as usize,
                _ => crate::spec::DESCRIPTION_MAX,
            };
            (
                body_text(body, n),
                msg!(
                    "{}; {} uses the body text (without its heading), cut at {} characters",
                    situation,
                    m.name,
                    n
                ),
            )
        }
        _ => (
            String::new(),
            msg!(
                "{}; {} loads it with an empty description",
                situation,
                m.name
            ),
        ),
    };
    draft.notes.push(cx.reason(rule, note));
    Ok(text)
}

/// The description's length (`description_rules.length`).
fn description_length(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    let description = std::mem::replace(&mut draft.description, Cow::Borrowed(""));
    draft.description = limit(
        cx,
        &cx.m.description_rules.length,
        "description",
        description,
        crate::spec::DESCRIPTION_MAX,
        None,
        &mut draft.notes,
    )?;
    Ok(())
}

/// Fields that keep a loaded skill from the model (`hides_from_model`).
fn hidden_by_field(cx: &Ctx, draft: &mut Draft) -> Result<(), Acceptance> {
    if draft.hidden_from_model.is_some() {
        return Ok(());
    }
    for (key, rule) in &cx.m.fields {
        // The field is looked up only for the few rules that can hide a skill.
        let Some(mode) = rule.hides_from_model else {
            continue;
        };
        let Some(node) = draft.fm.get(key) else {
            continue;
        };
        let hides = match mode {
            HidesFromModel::WhenTrue => node.as_bool() == Some(true),
            HidesFromModel::WhenTruthy => truthy(node),
            HidesFromModel::WhenFalse => node.as_bool() == Some(false),
            HidesFromModel::WhenTrueOrYes => {
                node.as_bool() == Some(true)
                    || node
                        .as_str()
                        .is_some_and(|t| matches!(t.to_ascii_lowercase().as_str(), "true" | "yes"))
            }
        };
        if hides {
            draft.hidden_from_model = Some(cx.reason_from(
                &rule.from,
                msg!(
                    "`{}: {}` keeps it out of the model's listing; the user can still invoke it",
                    key,
                    node.scalar_text().unwrap_or("…")
                ),
            ));
            break;
        }
    }
    Ok(())
}

/// YAML 1.1's timestamp form (js-yaml's `timestamp` type): `YYYY-MM-DD`, or
/// `YYYY-M-D` followed by `T`/`t` or blanks, `H:MM:SS`, optional fraction and optional zone
/// (`Z`, `±H`, `±HH:MM`).
pub fn is_yaml11_timestamp(s: &str) -> bool {
    fn digits(s: &[u8], min: usize, max: usize) -> Option<usize> {
        let n = s
            .iter()
            .take(max)
            .take_while(|b| b.is_ascii_digit())
            .count();
        (n >= min).then_some(n)
    }
    let b = s.as_bytes();
    // YYYY-MM-DD exactly.
    if b.len() == 10
        && digits(b, 4, 4) == Some(4)
        && b[4] == b'-'
        && digits(&b[5..], 2, 2) == Some(2)
        && b[7] == b'-'
        && digits(&b[8..], 2, 2) == Some(2)
    {
        return true;
    }
    let mut i = 0;
    let take = |min: usize, max: usize, i: &mut usize| -> bool {
        match digits(&b[*i..], min, max) {
            Some(n) => {
                *i += n;
                true
            }
            None => false,
        }
    };
    let sep = |c: u8, i: &mut usize| -> bool {
        if b.get(*i) == Some(&c) {
            *i += 1;
            true
        } else {
            false
        }
    };
    let date = take(4, 4, &mut i)
        && sep(b'-', &mut i)
        && take(1, 2, &mut i)
        && sep(b'-', &mut i)
        && take(1, 2, &mut i);
    if !date {
        return false;
    }
    // `T`, `t` or blanks between date and time.
    match b.get(i) {
        Some(b'T' | b't') => i += 1,
        Some(b' ' | b'\t') => {
            while matches!(b.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
        }
        _ => return false,
    }
    if !(take(1, 2, &mut i)
        && sep(b':', &mut i)
        && take(2, 2, &mut i)
        && sep(b':', &mut i)
        && take(2, 2, &mut i))
    {
        return false;
    }
    if sep(b'.', &mut i) {
        while matches!(b.get(i), Some(c) if c.is_ascii_digit()) {
            i += 1;
        }
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    match b.get(i) {
        None => true,
        Some(b'Z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            i += 1;
            if !take(1, 2, &mut i) {
                return false;
            }
            if sep(b':', &mut i) && !take(2, 2, &mut i) {
                return false;
            }
            i == b.len()
        }
        _ => false,
    }
}
