//! YAML frontmatter as a generic tree with positions and YAML types.
//!
//! Built from the events of `granit-parser` (pure Rust, panic-free, bounded nesting), following
//! YAML 1.2 and its core schema: plain `123` is an integer, `true` a boolean, `~` null, and
//! anything quoted a string. Each node keeps its source position, its style (block or flow,
//! plain or quoted) and its source text, so that callers can both check types like the spec and
//! coerce scalars to strings like most agents do. Aliases are expanded under a node budget, so an
//! alias bomb ("billion laughs") is an error, not an allocation storm.

use granit_parser::{Event, Options, Parser, ScalarStyle, StructureStyle};
use std::fmt;

/// The most nodes one frontmatter block may expand to (aliases included).
pub const MAX_NODES: usize = 10_000;
/// The most scalar text (bytes) that alias expansion may copy in one frontmatter block: a large
/// anchored string aliased thousands of times stays under [`MAX_NODES`] but would copy gigabytes.
pub const MAX_ALIAS_BYTES: usize = 4 * 1024 * 1024;
/// The deepest nesting of collections accepted.
pub const MAX_NESTING: usize = 64;

/// A 1-based line and column in the SKILL.md file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

/// The YAML type of a value (core schema). The lowercase name (`boolean`, `integer` for the
/// two the schema spells out) appears in problem messages.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::Display,
    strum::EnumString,
    strum::EnumIter,
)]
#[strum(serialize_all = "lowercase")]
pub enum YamlType {
    Null,
    #[strum(serialize = "boolean")]
    Bool,
    #[strum(serialize = "integer")]
    Int,
    Float,
    String,
    Sequence,
    Mapping,
}

impl YamlType {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// How a scalar was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScalarKind {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

impl ScalarKind {
    pub fn is_quoted(self) -> bool {
        !matches!(self, ScalarKind::Plain)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A scalar: its text after YAML processing, how it was written, and its resolved type.
    Scalar {
        text: String,
        kind: ScalarKind,
        ty: YamlType,
    },
    Sequence(Vec<Node>),
    Mapping(Vec<Entry>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub pos: Pos,
    /// Written in flow style (`[a, b]`, `{a: b}`).
    pub flow: bool,
    /// Carries an anchor (`&x`) or is the expansion of an alias (`*x`).
    pub anchored: bool,
    pub aliased: bool,
    /// An explicit tag (`!!str`, `!custom`) as written.
    pub tag: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: Node,
    pub value: Node,
}

impl Node {
    pub fn ty(&self) -> YamlType {
        match &self.value {
            Value::Scalar { ty, .. } => *ty,
            Value::Sequence(_) => YamlType::Sequence,
            Value::Mapping(_) => YamlType::Mapping,
        }
    }

    /// The text of a string scalar.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar {
                text,
                ty: YamlType::String,
                ..
            } => Some(text),
            _ => None,
        }
    }

    /// The text of any scalar (how agents that coerce scalars to strings read it).
    pub fn scalar_text(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match &self.value {
            Value::Scalar {
                text,
                ty: YamlType::Bool,
                ..
            } => Some(text.eq_ignore_ascii_case("true")),
            _ => None,
        }
    }

    pub fn entries(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Mapping(e) => Some(e),
            _ => None,
        }
    }

    /// The value of `key` in a mapping whose keys are scalars.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries()?
            .iter()
            .find(|e| e.key.scalar_text() == Some(key))
            .map(|e| &e.value)
    }

    /// Bytes of scalar text (and tags) in this subtree (for the alias budget).
    fn text_bytes(&self) -> usize {
        self.tag.as_ref().map_or(0, String::len)
            + match &self.value {
                Value::Scalar { text, .. } => text.len(),
                Value::Sequence(items) => items.iter().map(Node::text_bytes).sum(),
                Value::Mapping(entries) => entries
                    .iter()
                    .map(|e| e.key.text_bytes() + e.value.text_bytes())
                    .sum(),
            }
    }

    /// Nodes in this subtree (for budgets).
    fn count(&self) -> usize {
        1 + match &self.value {
            Value::Scalar { .. } => 0,
            Value::Sequence(items) => items.iter().map(Node::count).sum(),
            Value::Mapping(entries) => entries
                .iter()
                .map(|e| e.key.count() + e.value.count())
                .sum(),
        }
    }
}

/// A YAML error with its position in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub message: String,
    pub pos: Pos,
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (line {}, column {})",
            self.message, self.pos.line, self.pos.column
        )
    }
}

impl std::error::Error for YamlError {}

/// Parser variations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct YamlOptions {
    /// A repeated key is accepted and the last value wins (otherwise an error).
    pub allow_duplicate_keys: bool,
}

/// YAML 1.2 core schema resolution of a plain scalar.
pub fn resolve_plain(s: &str) -> YamlType {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return YamlType::Null,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => return YamlType::Bool,
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF"
        | ".nan" | ".NaN" | ".NAN" => return YamlType::Float,
        _ => {}
    }
    let b = s.as_bytes();
    if let Some(hex) = s.strip_prefix("0x")
        && !hex.is_empty()
        && hex.bytes().all(|c| c.is_ascii_hexdigit())
    {
        return YamlType::Int;
    }
    if let Some(oct) = s.strip_prefix("0o")
        && !oct.is_empty()
        && oct.bytes().all(|c| (b'0'..=b'7').contains(&c))
    {
        return YamlType::Int;
    }
    let digits = match b.first() {
        Some(b'-' | b'+') => &b[1..],
        _ => b,
    };
    if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
        return YamlType::Int;
    }
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    let mut i = 0;
    let n = digits.len();
    let int_start = i;
    while i < n && digits[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    let mut dot = false;
    if i < n && digits[i] == b'.' {
        dot = true;
        i += 1;
        let f = i;
        while i < n && digits[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - f;
    }
    if int_digits == 0 && frac_digits == 0 {
        return YamlType::String;
    }
    let mut exp = false;
    if i < n && (digits[i] == b'e' || digits[i] == b'E') {
        i += 1;
        if i < n && (digits[i] == b'-' || digits[i] == b'+') {
            i += 1;
        }
        let e = i;
        while i < n && digits[i].is_ascii_digit() {
            i += 1;
        }
        if i == e {
            return YamlType::String;
        }
        exp = true;
    }
    if i == n && (dot || exp) {
        YamlType::Float
    } else {
        YamlType::String
    }
}

fn scalar_kind(s: ScalarStyle) -> ScalarKind {
    match s {
        ScalarStyle::Plain => ScalarKind::Plain,
        ScalarStyle::SingleQuoted => ScalarKind::SingleQuoted,
        ScalarStyle::DoubleQuoted => ScalarKind::DoubleQuoted,
        ScalarStyle::Literal => ScalarKind::Literal,
        ScalarStyle::Folded => ScalarKind::Folded,
    }
}

fn tag_type(tag: &granit_parser::Tag) -> Option<YamlType> {
    if !tag.is_yaml_core_schema() {
        return None;
    }
    match tag.suffix() {
        "str" => Some(YamlType::String),
        "int" => Some(YamlType::Int),
        "float" => Some(YamlType::Float),
        "bool" => Some(YamlType::Bool),
        "null" => Some(YamlType::Null),
        _ => None,
    }
}

/// A collection being built, with its anchor id (0 = none).
enum Open {
    Seq(Node, Vec<Node>, usize),
    /// A mapping being built, with its key waiting for a value.
    Map(Node, Vec<Entry>, Option<Node>, usize),
}

/// Parses a frontmatter block. `first_line` is the file line where `yaml` starts, so that
/// positions refer to the SKILL.md file. An empty block is a null node.
pub fn parse(yaml: &str, first_line: usize, opts: YamlOptions) -> Result<Node, YamlError> {
    guarded(first_line, || {
        // Most frontmatter has a shape read faster without the parser, to the same tree.
        match super::simple_yaml::parse(yaml, first_line) {
            Some(node) => Ok(node),
            None => parse_events(yaml, first_line, opts),
        }
    })
}

/// [`parse`] by the YAML parser's events alone, without the shortcut for simple blocks: what
/// the tests hold the shortcut to.
#[doc(hidden)]
pub fn parse_by_events(
    yaml: &str,
    first_line: usize,
    opts: YamlOptions,
) -> Result<Node, YamlError> {
    guarded(first_line, || parse_events(yaml, first_line, opts))
}

/// A panic inside the parser must not take the program down; the crate is fuzzed and
/// documented as panic-free, this is a second line of defence.
fn guarded(
    first_line: usize,
    parse: impl FnOnce() -> Result<Node, YamlError> + std::panic::UnwindSafe,
) -> Result<Node, YamlError> {
    std::panic::catch_unwind(parse).unwrap_or_else(|_| {
        Err(YamlError {
            message: "the YAML parser failed on this input".into(),
            pos: Pos {
                line: first_line,
                column: 1,
            },
        })
    })
}

fn parse_events(yaml: &str, first_line: usize, opts: YamlOptions) -> Result<Node, YamlError> {
    let mut options = Options::default();
    options.flow_nesting_limit = MAX_NESTING;
    options.block_nesting_limit = MAX_NESTING;
    let at = |line: usize, col0: usize| Pos {
        line: line + first_line - 1,
        column: col0 + 1,
    };
    let parser = Parser::new_from_str_with_options(yaml, options);
    let mut tree = Tree {
        opts,
        ..Tree::default()
    };
    let mut documents = 0usize;
    for item in parser {
        let (event, span) = item.map_err(|e| YamlError {
            message: e.info(),
            pos: at(e.marker().line(), e.marker().col()),
        })?;
        let pos = at(span.start.line(), span.start.col());
        let complete: Option<(Node, usize)> = match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => None,
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > 1 {
                    return Err(YamlError {
                        message: "more than one YAML document in the frontmatter".into(),
                        pos,
                    });
                }
                None
            }
            Event::Scalar(text, style, anchor, tag) => {
                let kind = scalar_kind(style);
                // The parser reports a missing value (`key:`) as `~` with an empty span: keep
                // it apart from a written `~` (the source text is empty).
                let text = if kind == ScalarKind::Plain
                    && text == "~"
                    && span.end.index() == span.start.index()
                {
                    std::borrow::Cow::Borrowed("")
                } else {
                    text
                };
                let ty = tag.as_deref().and_then(tag_type).unwrap_or(match kind {
                    ScalarKind::Plain if tag.is_none() => resolve_plain(&text),
                    _ => YamlType::String,
                });
                let value = Value::Scalar {
                    text: text.into_owned(),
                    kind,
                    ty,
                };
                Some((
                    opened(value, pos, false, anchor, tag.map(|t| t.original())),
                    anchor,
                ))
            }
            Event::SequenceStart(style, anchor, tag) => {
                let flow = style == StructureStyle::Flow;
                let node = opened(
                    Value::Sequence(Vec::new()),
                    pos,
                    flow,
                    anchor,
                    tag.map(|t| t.original()),
                );
                tree.stack.push(Open::Seq(node, Vec::new(), anchor));
                None
            }
            Event::MappingStart(style, anchor, tag) => {
                let flow = style == StructureStyle::Flow;
                let node = opened(
                    Value::Mapping(Vec::new()),
                    pos,
                    flow,
                    anchor,
                    tag.map(|t| t.original()),
                );
                tree.stack.push(Open::Map(node, Vec::new(), None, anchor));
                None
            }
            Event::SequenceEnd => match tree.stack.pop() {
                Some(Open::Seq(mut node, items, anchor)) => {
                    node.value = Value::Sequence(items);
                    Some((node, anchor))
                }
                _ => None,
            },
            Event::MappingEnd => match tree.stack.pop() {
                Some(Open::Map(mut node, entries, _, anchor)) => {
                    node.value = Value::Mapping(entries);
                    Some((node, anchor))
                }
                _ => None,
            },
            Event::Alias(id) => Some((tree.alias(id, pos)?, 0)),
            _ => None,
        };
        if let Some((node, anchor)) = complete {
            tree.place(node, anchor)?;
        }
    }
    Ok(tree.root.unwrap_or(Node {
        value: Value::Scalar {
            text: String::new(),
            kind: ScalarKind::Plain,
            ty: YamlType::Null,
        },
        pos: at(1, 0),
        flow: false,
        anchored: false,
        aliased: false,
        tag: None,
    }))
}

/// A node as its event opens it (a scalar is complete at once).
fn opened(value: Value, pos: Pos, flow: bool, anchor: usize, tag: Option<String>) -> Node {
    Node {
        value,
        pos,
        flow,
        anchored: anchor != 0,
        aliased: false,
        tag,
    }
}

/// The tree being built from the parser's events, within the node and alias budgets.
#[derive(Default)]
struct Tree {
    opts: YamlOptions,
    stack: Vec<Open>,
    anchors: foldhash::HashMap<usize, Node>,
    root: Option<Node>,
    nodes: usize,
    alias_bytes: usize,
}

impl Tree {
    fn budget_err(pos: Pos) -> YamlError {
        YamlError {
            message: format!(
                "the frontmatter expands to more than {MAX_NODES} YAML nodes (alias expansion?)"
            ),
            pos,
        }
    }

    /// A copy of the anchored node, counted against the budgets first, so that a bomb is
    /// refused before it is copied.
    fn alias(&mut self, id: usize, pos: Pos) -> Result<Node, YamlError> {
        let Some(target) = self.anchors.get(&id) else {
            return Err(YamlError {
                message: "alias to an unknown anchor".into(),
                pos,
            });
        };
        self.nodes += target.count();
        if self.nodes > MAX_NODES {
            return Err(Self::budget_err(pos));
        }
        self.alias_bytes += target.text_bytes();
        if self.alias_bytes > MAX_ALIAS_BYTES {
            return Err(YamlError {
                message: format!(
                    "aliases in the frontmatter expand to more than {} MiB of text",
                    MAX_ALIAS_BYTES / (1024 * 1024)
                ),
                pos,
            });
        }
        let mut node = target.clone();
        node.pos = pos;
        node.aliased = true;
        Ok(node)
    }

    /// A complete node, counted, kept under its anchor, and put where it belongs: the root, the
    /// open sequence, or the open mapping (as its pending key, or that key's value; a repeated
    /// key replaces the first when the options allow it).
    fn place(&mut self, node: Node, anchor: usize) -> Result<(), YamlError> {
        if !node.aliased {
            self.nodes += 1;
            if self.nodes > MAX_NODES {
                return Err(Self::budget_err(node.pos));
            }
        }
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Open::Seq(_, items, _)) => items.push(node),
            Some(Open::Map(_, entries, pending, _)) => match pending.take() {
                None => *pending = Some(node),
                Some(key) => {
                    if let Some(k) = key.scalar_text()
                        && let Some(i) = entries.iter().position(|e| e.key.scalar_text() == Some(k))
                    {
                        if !self.opts.allow_duplicate_keys {
                            return Err(YamlError {
                                message: format!(
                                    "duplicate key `{k}` (first at line {})",
                                    entries[i].key.pos.line
                                ),
                                pos: key.pos,
                            });
                        }
                        entries.remove(i);
                    }
                    entries.push(Entry { key, value: node });
                }
            },
        }
        Ok(())
    }
}
