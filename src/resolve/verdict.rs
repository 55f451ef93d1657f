//! Verdicts as data: a status, the name a skill is listed under, the copy that wins, and the
//! reasons — each with the rule that decided, a sentence (a template and the few values it
//! needs, rendered when shown), its source and its evidence.

use crate::agents::{Handling, Provenance, RuleId, Scope, Sources, Strength, Topic};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What one agent does with one SKILL.md.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Status {
    /// Listed, under the name in `as`.
    Visible,
    /// Accepted, but another copy (the `winner`) takes its name.
    Shadowed,
    /// Reached and refused.
    Rejected,
    /// Never reached: root not scanned, too deep, inside another skill, wrong file name, …
    NotFound,
    /// A deciding rule is unknown.
    Unknown,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Invisible, shadowed or rejected: what `check` reports.
    pub fn is_problem(self) -> bool {
        matches!(self, Status::Shadowed | Status::Rejected | Status::NotFound)
    }

    pub const ALL: [Status; 5] = [
        Status::Visible,
        Status::Shadowed,
        Status::Rejected,
        Status::NotFound,
        Status::Unknown,
    ];
}

/// A reason's sentence by reference: a template fixed where the reason is made (`{}` stands for
/// the next value, `{{` and `}}` for braces, as in `format!`) and the values it needs. It is
/// rendered when shown: `&*message` (or `message.as_str()`) renders once and keeps the text;
/// `Display` renders without keeping it.
/// Shared (`Arc`): a reason made once and given to many verdicts (the roots sentence for a file
/// under none of an agent's roots) is not copied.
#[derive(Clone)]
pub struct Message(std::sync::Arc<Parts>);

/// A message's parts (behind an `Arc`: a reason stays small).
#[derive(Clone)]
struct Parts {
    template: &'static str,
    /// Text added after the template (a note appended to a reason made elsewhere).
    suffix: &'static str,
    /// The values, one after another, and where each ends.
    values: Values,
    shown: std::sync::OnceLock<Box<str>>,
}

/// Values a template takes, without a copy of its own: more are kept apart ([`Values`]).
const INLINE_VALUES: usize = 8;

/// A message's values, written one after another into one string (one allocation for all of
/// them, however many): what [`msg!`](crate::msg) builds.
#[doc(hidden)]
#[derive(Clone, PartialEq, Eq)]
pub struct Values {
    text: String,
    ends: Ends,
}

/// Where each value ends in [`Values::text`]: inline for the few values a template takes.
#[derive(Clone, PartialEq, Eq)]
enum Ends {
    Inline(u8, [u32; INLINE_VALUES]),
    Apart(Vec<u32>),
}

impl Values {
    /// Room for `n` values, about `bytes` long in all.
    pub fn with_capacity(n: usize, bytes: usize) -> Values {
        Values {
            text: String::with_capacity(bytes),
            ends: if n <= INLINE_VALUES {
                Ends::Inline(0, [0; INLINE_VALUES])
            } else {
                Ends::Apart(Vec::with_capacity(n))
            },
        }
    }

    /// The `n` values `write` pushes, kept in a string of their exact length: written into a
    /// buffer each thread reuses, then copied once (no growing, no room left over; no
    /// allocation at all for a template without values). What [`msg!`](crate::msg) builds.
    pub fn build(n: usize, write: impl FnOnce(&mut Values)) -> Values {
        thread_local! {
            static BUFFER: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
        }
        // Taken out of the cell while written (a value that made a message of its own would
        // find the cell empty and use a buffer of its own).
        let mut buffer = BUFFER.take();
        buffer.clear();
        let mut values = Values {
            text: buffer,
            ..Values::with_capacity(n, 0)
        };
        write(&mut values);
        let kept = Values {
            text: values.text.as_str().to_owned(),
            ends: values.ends,
        };
        BUFFER.set(values.text);
        kept
    }

    /// The next value, as `Display` writes it (the text `to_string` gives).
    pub fn push(&mut self, v: &dyn std::fmt::Display) {
        use std::fmt::Write;
        let _ = write!(self.text, "{v}");
        self.end_here();
    }

    /// The next value, as given.
    pub fn push_str(&mut self, v: &str) {
        self.text.push_str(v);
        self.end_here();
    }

    fn end_here(&mut self) {
        // Values past 4 GiB read as empty (no file skilltui reads holds one).
        let end = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        match &mut self.ends {
            Ends::Inline(n, ends) if usize::from(*n) < INLINE_VALUES => {
                ends[usize::from(*n)] = end;
                *n += 1;
            }
            Ends::Inline(n, ends) => {
                let mut apart = ends[..usize::from(*n)].to_vec();
                apart.push(end);
                self.ends = Ends::Apart(apart);
            }
            Ends::Apart(ends) => ends.push(end),
        }
    }

    fn ends(&self) -> &[u32] {
        match &self.ends {
            Ends::Inline(n, ends) => &ends[..usize::from(*n)],
            Ends::Apart(ends) => ends,
        }
    }

    /// The values in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        let ends = self.ends();
        ends.iter().enumerate().map(move |(i, &e)| {
            let start = if i == 0 { 0 } else { ends[i - 1] as usize };
            self.text.get(start..e as usize).unwrap_or("")
        })
    }
}

/// Whether a template has only positional `{}` placeholders (and `{{`, `}}` escapes): what
/// [`msg!`](crate::resolve::msg) checks at compile time.
pub const fn positional_only(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' {
            if i + 1 < b.len() && (b[i + 1] == b'{' || b[i + 1] == b'}') {
                i += 2;
                continue;
            }
            return false;
        }
        if b[i] == b'}' {
            if i + 1 < b.len() && b[i + 1] == b'}' {
                i += 2;
                continue;
            }
            return false;
        }
        i += 1;
    }
    true
}

/// How many `{}` placeholders a template has (`{{` and `}}` are escapes).
pub const fn placeholders(t: &str) -> usize {
    let b = t.as_bytes();
    let (mut i, mut n) = (0, 0);
    while i < b.len() {
        if b[i] == b'{' && i + 1 < b.len() && b[i + 1] == b'}' {
            n += 1;
            i += 2;
            continue;
        }
        if (b[i] == b'{' || b[i] == b'}') && i + 1 < b.len() && b[i + 1] == b[i] {
            i += 2;
            continue;
        }
        i += 1;
    }
    n
}

/// A path as `Path::display` shows it, made faster for the usual path that is valid UTF-8 (a
/// reason's values are made for every verdict; `display` decodes a path byte by byte).
pub fn shown<P: AsRef<std::path::Path> + ?Sized>(p: &P) -> Shown<'_> {
    Shown(p.as_ref())
}

/// See [`shown`].
#[derive(Clone, Copy)]
pub struct Shown<'a>(&'a std::path::Path);

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.to_str() {
            Some(s) => f.pad(s),
            None => std::fmt::Display::fmt(&self.0.display(), f),
        }
    }
}

/// A reason's [`Message`]: `msg!("{} does not scan {}", m.name, shown(&path))` keeps the
/// template and the values (each by `Display`); the text is the same as `format!` would make.
/// Templates take positional `{}` only (checked at compile time).
#[macro_export]
macro_rules! msg {
    ($t:literal $(, $v:expr)* $(,)?) => {{
        const _: () = assert!(
            $crate::resolve::verdict::positional_only($t),
            "a reason template takes positional {{}} only"
        );
        #[allow(clippy::useless_format)]
        if false {
            let _ = format!($t $(, $v)*);
        }
        const VALUES: usize = $crate::resolve::verdict::placeholders($t);
        #[allow(unused_variables)]
        let values = $crate::resolve::verdict::Values::build(VALUES, |values| {
            $(values.push(&$v);)*
        });
        $crate::resolve::Message::with_values($t, values)
    }};
}

impl Message {
    /// A template and its values (use [`msg!`](crate::msg), which checks the template).
    pub fn new(template: &'static str, values: Vec<Box<str>>) -> Message {
        let bytes = values.iter().map(|v| v.len()).sum();
        let mut kept = Values::with_capacity(values.len(), bytes);
        for v in &values {
            kept.push_str(v);
        }
        Message::with_values(template, kept)
    }

    /// A template and its values as [`msg!`](crate::msg) builds them.
    #[doc(hidden)]
    pub fn with_values(template: &'static str, values: Values) -> Message {
        Message(std::sync::Arc::new(Parts {
            template,
            suffix: "",
            values,
            shown: std::sync::OnceLock::new(),
        }))
    }

    /// The template: `{}` for each value in turn, `{{` and `}}` for braces.
    pub fn template(&self) -> std::borrow::Cow<'static, str> {
        if self.0.suffix.is_empty() {
            self.0.template.into()
        } else {
            format!(
                "{}{}",
                self.0.template,
                self.0.suffix.replace('{', "{{").replace('}', "}}")
            )
            .into()
        }
    }

    /// The template as made and the text appended to it: what identifies the template without
    /// building it.
    pub fn template_parts(&self) -> (&'static str, &'static str) {
        (self.0.template, self.0.suffix)
    }

    /// Appends fixed text to the sentence (and so to its template).
    pub fn append(&mut self, suffix: &'static str) {
        debug_assert!(self.0.suffix.is_empty(), "one suffix per message");
        let parts = std::sync::Arc::make_mut(&mut self.0);
        parts.suffix = suffix;
        parts.shown = std::sync::OnceLock::new();
    }

    /// The values, in the order of the template's placeholders.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.0.values.iter()
    }

    /// The sentence (rendered once, then kept).
    pub fn as_str(&self) -> &str {
        self.0
            .shown
            .get_or_init(|| self.to_string().into_boxed_str())
    }

    /// Writes the sentence: each `{}` replaced by the next value.
    pub fn render<'v>(
        template: &str,
        values: impl IntoIterator<Item = &'v str>,
        f: &mut dyn std::fmt::Write,
    ) -> std::fmt::Result {
        let mut next = values.into_iter();
        let mut rest = template;
        while let Some(i) = rest.find(['{', '}']) {
            f.write_str(&rest[..i])?;
            let b = rest.as_bytes();
            let step = match (b[i], b.get(i + 1)) {
                (b'{', Some(b'}')) => {
                    f.write_str(next.next().map_or("", |v| v))?;
                    2
                }
                (b'{', Some(b'{')) | (b'}', Some(b'}')) => {
                    f.write_char(b[i] as char)?;
                    2
                }
                (c, _) => {
                    f.write_char(c as char)?;
                    1
                }
            };
            rest = &rest[i + step..];
        }
        f.write_str(rest)
    }
}

impl From<String> for Message {
    /// A sentence made elsewhere: the template `{}` and the sentence as its value.
    fn from(s: String) -> Message {
        let mut values = Values {
            text: s,
            ends: Ends::Inline(0, [0; INLINE_VALUES]),
        };
        values.end_here();
        Message::with_values("{}", values)
    }
}

impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.shown.get() {
            Some(s) => f.write_str(s),
            None => {
                Message::render(self.0.template, self.0.values.iter(), f)?;
                f.write_str(self.0.suffix)
            }
        }
    }
}

impl std::fmt::Debug for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.to_string(), f)
    }
}

impl std::ops::Deref for Message {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Message {
    fn eq(&self, o: &Message) -> bool {
        (self.0.template == o.0.template
            && self.0.suffix == o.0.suffix
            && self.0.values == o.0.values)
            || self.as_str() == o.as_str()
    }
}
impl Eq for Message {}

impl PartialEq<str> for Message {
    fn eq(&self, o: &str) -> bool {
        self.as_str() == o
    }
}
impl PartialEq<&str> for Message {
    fn eq(&self, o: &&str) -> bool {
        self.as_str() == *o
    }
}

impl Serialize for Message {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// One step of an explanation: the rule it cites (by reference: the rule's source, sources,
/// evidence and strength live once, with its id in the model) and its sentence's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    /// The rule's id: `<agent>/<key path in the model>` as the model loader derived it, or
    /// `skilltui/<check>` for skilltui's own; it carries the rule's citation
    /// ([`Reason::source`], [`Reason::sources`], [`Reason::evidence`], [`Reason::strength`]).
    pub rule: RuleId,
    /// What the reason is about (the rule's topic, narrowed by the situation), for decisions
    /// that must not read the id or the message.
    pub topic: Topic,
    /// A plain sentence, by reference: its template and values ([`Message`]; `&*message` is
    /// the text).
    pub message: Message,
    /// The quick fix that removes the cause (`skilltui fix --only CODE`), when one exists.
    pub fix: Option<String>,
}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut m = s.serialize_struct("Reason", 7)?;
        m.serialize_field("rule", &self.rule)?;
        m.serialize_field("message", &self.message)?;
        m.serialize_field("source", &**self.source())?;
        m.serialize_field("sources", self.sources())?;
        m.serialize_field("evidence", &**self.evidence())?;
        m.serialize_field("strength", &self.strength())?;
        if let Some(fix) = &self.fix {
            m.serialize_field("fix", fix)?;
        }
        m.end()
    }
}

impl Reason {
    /// A reason citing a rule of an agent model (its id and topic come with it).
    pub fn from_rule(from: &Provenance, message: impl Into<Message>) -> Reason {
        Reason {
            rule: from.id.clone(),
            topic: from.id.topic(),
            message: message.into(),
            fix: None,
        }
    }

    /// A reason that comes from skilltui itself (reading limits and the like).
    pub fn skilltui(rule: &str, message: impl Into<Message>) -> Reason {
        Reason {
            rule: RuleId::skilltui(rule),
            topic: Topic::Other,
            message: message.into(),
            fix: None,
        }
    }

    /// Where the rule comes from, on one line (shared with the model).
    pub fn source(&self) -> &std::sync::Arc<str> {
        self.rule.source()
    }

    /// The rule's sources as data (shared with the model); empty for skilltui's own reasons.
    pub fn sources(&self) -> &Sources {
        self.rule.sources()
    }

    /// Evidence label with version or commit, e.g. `[OBS 0.171.0]` (shared with the model).
    pub fn evidence(&self) -> &std::sync::Arc<str> {
        self.rule.evidence()
    }

    /// How strong the rule's evidence is; `None` for skilltui's own reasons (not an agent's rule).
    pub fn strength(&self) -> Option<Strength> {
        self.rule.strength()
    }

    /// The same reason with a narrower topic (the situation says more than the rule).
    pub fn with_topic(mut self, topic: Topic) -> Reason {
        self.topic = topic;
        self
    }
}

/// The files an agent lists when the skill is activated (Copilot CLI lists all of them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Bundle {
    pub files: u32,
    /// Estimated tokens of the list.
    pub tokens: u64,
    /// The skill's top-level folders with the most files (folder, files), heaviest first.
    pub heaviest: Vec<(String, u32)>,
    /// Top-level folders the agent leaves out of the list.
    pub excluded: Vec<String>,
}

/// One agent's verdict on one SKILL.md. JSON has every field and `strength`
/// ([`Verdict::strength`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub status: Status,
    /// The name the skill is listed and invoked under.
    pub as_name: Option<String>,
    /// The SKILL.md that wins this skill's name (for `shadowed`).
    pub winner: Option<PathBuf>,
    /// The root the agent reached it through.
    pub root: Option<PathBuf>,
    pub scope: Option<Scope>,
    /// Whether the model sees it (None unless visible).
    pub model: Option<bool>,
    pub reasons: Vec<Reason>,
    /// Handling of each frontmatter field (and of the spec fields the skill lacks).
    pub fields: std::sync::Arc<BTreeMap<String, Handling>>,
    /// Estimated tokens of its entry in the listing the model receives (visible skills only).
    pub listing_tokens: Option<u64>,
    /// Files listed on activation, for agents that list them.
    pub bundle: Option<Box<Bundle>>,
    /// The description as the agent lists it, after its own normalisation (visible skills;
    /// absent where the model does not establish the normalisation).
    pub description_as_listed: Option<std::sync::Arc<str>>,
    /// A conditional skill: the agent lists it only once files matching these patterns are
    /// touched (not at session start).
    pub conditional: Option<Vec<String>>,
}

impl Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        struct Lossy<'a>(&'a Option<PathBuf>);
        impl Serialize for Lossy<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                crate::sanitize::lossy_path::opt(self.0, s)
            }
        }
        let mut m = s.serialize_struct("Verdict", 14)?;
        m.serialize_field("status", &self.status)?;
        m.serialize_field("as", &self.as_name)?;
        m.serialize_field("winner", &Lossy(&self.winner))?;
        m.serialize_field("root", &Lossy(&self.root))?;
        m.serialize_field("scope", &self.scope)?;
        m.serialize_field("model", &self.model)?;
        m.serialize_field("reasons", &self.reasons)?;
        m.serialize_field("strength", &self.strength())?;
        m.serialize_field("fields", &self.fields)?;
        m.serialize_field("listing_tokens", &self.listing_tokens)?;
        m.serialize_field("bundle", &self.bundle)?;
        if let Some(d) = &self.description_as_listed {
            m.serialize_field("description_as_listed", d)?;
        } else {
            m.skip_field("description_as_listed")?;
        }
        if let Some(c) = &self.conditional {
            m.serialize_field("conditional", c)?;
        } else {
            m.skip_field("conditional")?;
        }
        m.end()
    }
}

impl Verdict {
    /// How strong the verdict is: the weakest evidence among the agent rules that decided it
    /// (skilltui's own checks do not count); `None` when no agent rule is cited.
    pub fn strength(&self) -> Option<Strength> {
        self.reasons.iter().filter_map(|r| r.strength()).min()
    }

    /// The reason that decided the status: the first for `not-found` (the nearest root's
    /// refusal), the last otherwise (reasons accumulate in order of evaluation, and for a visible
    /// skill the last says what it is listed as).
    pub fn decisive(&self) -> Option<&Reason> {
        match self.status {
            Status::NotFound => self.reasons.first(),
            _ => self.reasons.last(),
        }
    }

    /// The reason that decides the status, chosen by status and reason topic (never by text):
    /// - visible: the root it was found under;
    /// - not found: the first refusal that is not the list of the agent's roots (the nearest
    ///   root's refusal: a folder it never scans, a depth, a file name);
    /// - shadowed: the precedence rule (or the same-file rule, or a setting) that gave the name
    ///   to another copy;
    /// - rejected: the last rule that refused it (parse, name, description, field value,
    ///   setting, a reading limit);
    /// - unknown: the last rule whose value nothing establishes, else the last refusal.
    ///
    /// Context reasons (where it was found, where its name comes from, listing and body notes)
    /// decide nothing but a visible verdict.
    pub fn deciding(&self) -> Option<&Reason> {
        self.deciding_index().map(|i| &self.reasons[i])
    }

    /// The index of [`Verdict::deciding`] in `reasons`.
    pub fn deciding_index(&self) -> Option<usize> {
        let context = |t: Topic| {
            matches!(
                t,
                Topic::Found | Topic::NameSource | Topic::Listing | Topic::Body
            )
        };
        let rs = &self.reasons;
        let first = |p: &dyn Fn(&Reason) -> bool| rs.iter().position(p);
        let last = |p: &dyn Fn(&Reason) -> bool| rs.iter().rposition(p);
        match self.status {
            Status::Visible => first(&|r| r.topic == Topic::Found),
            Status::NotFound => first(&|r| !context(r.topic) && r.topic != Topic::Root)
                .or_else(|| first(&|r| !context(r.topic))),
            Status::Shadowed => last(&|r| {
                matches!(
                    r.topic,
                    Topic::Precedence | Topic::PrecedenceOrder | Topic::SameFile | Topic::Setting
                )
            })
            .or_else(|| last(&|r| !context(r.topic))),
            Status::Rejected => last(&|r| !context(r.topic)),
            Status::Unknown => last(&|r| r.strength() == Some(Strength::None))
                .or_else(|| last(&|r| !context(r.topic))),
        }
    }

    pub fn new(status: Status, reasons: Vec<Reason>) -> Verdict {
        Verdict {
            status,
            as_name: None,
            winner: None,
            root: None,
            scope: None,
            model: None,
            reasons,
            fields: no_fields(),
            listing_tokens: None,
            bundle: None,
            description_as_listed: None,
            conditional: None,
        }
    }
}

/// The empty field table a new verdict starts with, shared by all of them (the catalog puts in
/// the table for the skill's keys): one allocation, not one a verdict.
fn no_fields() -> std::sync::Arc<BTreeMap<String, Handling>> {
    static EMPTY: std::sync::OnceLock<std::sync::Arc<BTreeMap<String, Handling>>> =
        std::sync::OnceLock::new();
    EMPTY.get_or_init(Default::default).clone()
}
