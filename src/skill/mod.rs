//! A SKILL.md: reading it from disk, splitting frontmatter and body, and the YAML tree.
//!
//! [`SkillMd::read`] reads a file once; [`SkillMd::parse`] splits and parses it with the
//! canonical rules (the spec's), and [`parse_with`] with any agent's variations, on the same
//! text, so that no file is read twice however many agents look at it.

pub mod body;
pub mod code;
pub mod frontmatter;
#[doc(hidden)]
pub mod simple_yaml;
pub mod source;
pub mod yaml;

pub use code::ProblemCode;
pub use frontmatter::{MissingCause, Split, SplitError, SplitOptions};
pub use source::{MAX_FILE_BYTES, ReadError};
pub use yaml::{Entry, Node, Pos, Value, YamlError, YamlOptions, YamlType};

use crate::memo::Memo;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// The six fields the Agent Skills specification defines.
pub const SPEC_FIELDS: [&str; 6] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// The text of a SKILL.md file, and its splits into frontmatter and body, each made the first
/// time it is asked for and kept with the text (every agent with the same split options
/// shares it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillMd {
    text: String,
    /// [`SkillMd::split`]'s answers, by [`SplitOptions::index`].
    splits: [Memo<Result<frontmatter::Spans, SplitError>>; SplitOptions::COUNT],
}

impl SkillMd {
    /// Reads a file within the size limit, refusing binary and non-UTF-8 content.
    pub fn read(path: &Path) -> Result<SkillMd, ReadError> {
        source::read_text(path).map(SkillMd::from_text)
    }

    /// [`SkillMd::read`] of a file a walk found to be a regular file
    /// ([`source::read_walked_text`]).
    pub fn read_walked(path: &Path) -> Result<SkillMd, ReadError> {
        source::read_walked_text(path).map(SkillMd::from_text)
    }

    /// From bytes already in memory, with the same checks as [`SkillMd::read`].
    pub fn from_bytes(bytes: Vec<u8>) -> Result<SkillMd, ReadError> {
        source::decode(bytes).map(SkillMd::from_text)
    }

    /// From text already decoded.
    pub fn from_text(text: String) -> SkillMd {
        SkillMd {
            text,
            splits: Default::default(),
        }
    }

    /// The file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// [`frontmatter::split`] of the text with `opts`: made once per options, then shared.
    pub fn split(&self, opts: SplitOptions) -> Result<Split<'_>, SplitError> {
        self.splits[opts.index()]
            .get_or_init(|| frontmatter::split(&self.text, opts).map(|s| s.spans(&self.text)))
            .as_ref()
            .map(|spans| spans.of(&self.text))
            .map_err(|e| *e)
    }

    /// Splits and parses with the spec's rules.
    pub fn parse(&self) -> Result<Document<'_>, ParseError> {
        parse_with(&self.text, SplitOptions::CANONICAL, YamlOptions::default())
    }
}

/// Why a SKILL.md has no usable frontmatter mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    Split(SplitError),
    Yaml(YamlError),
    /// The frontmatter is valid YAML but not a mapping (a list, a scalar, or empty).
    NotMapping {
        ty: YamlType,
        pos: Pos,
    },
}

impl ParseError {
    pub fn code(&self) -> ProblemCode {
        match self {
            ParseError::Split(e) => e.code(),
            ParseError::Yaml(_) => ProblemCode::YamlInvalid,
            ParseError::NotMapping { .. } => ProblemCode::FrontmatterNotMapping,
        }
    }

    pub fn pos(&self) -> Option<Pos> {
        match self {
            ParseError::Split(SplitError::Unclosed) => Some(Pos { line: 1, column: 1 }),
            ParseError::Split(_) => Some(Pos { line: 1, column: 1 }),
            ParseError::Yaml(e) => Some(e.pos),
            ParseError::NotMapping { pos, .. } => Some(*pos),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Split(e) => e.fmt(f),
            ParseError::Yaml(e) => {
                write!(f, "invalid YAML in frontmatter: {}", e.message)?;
                if let Some(hint) = yaml_hint(&e.message) {
                    write!(f, " ({hint})")?;
                }
                Ok(())
            }
            ParseError::NotMapping { ty, .. } => {
                if *ty == YamlType::Null {
                    write!(
                        f,
                        "frontmatter is empty; it must be a YAML mapping of fields (`name: …`)"
                    )
                } else {
                    write!(
                        f,
                        "frontmatter must be a YAML mapping of fields, not a {ty}"
                    )
                }
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// A fix for the YAML mistakes SKILL.md authors make most.
fn yaml_hint(message: &str) -> Option<&'static str> {
    if message.contains("mapping values are not allowed") {
        Some("a value containing `: ` must be quoted, e.g. `description: \"Use when: …\"`")
    } else if message.contains("tab") {
        Some("indent with spaces, not tabs")
    } else if message.contains("duplicate key") {
        Some("each field may appear once")
    } else {
        None
    }
}

/// A parsed SKILL.md: the frontmatter mapping and the body.
#[derive(Debug, Clone, PartialEq)]
pub struct Document<'a> {
    pub frontmatter: Frontmatter,
    pub body: &'a str,
    /// 1-based line where the body starts.
    pub body_line: usize,
    /// The file started with a BOM that the split skipped.
    pub bom: bool,
}

/// Splits and parses `text` with the given variations.
pub fn parse_with(
    text: &str,
    split: SplitOptions,
    yaml_opts: YamlOptions,
) -> Result<Document<'_>, ParseError> {
    let parts = frontmatter::split(text, split).map_err(ParseError::Split)?;
    let root = yaml::parse(parts.yaml, parts.yaml_line, yaml_opts).map_err(ParseError::Yaml)?;
    document(parts, Arc::new(root))
}

/// The document of a split whose YAML parsed to `root` (an error unless it is a mapping).
fn document<'a>(parts: Split<'a>, root: Arc<Node>) -> Result<Document<'a>, ParseError> {
    if root.ty() != YamlType::Mapping {
        return Err(ParseError::NotMapping {
            ty: root.ty(),
            pos: root.pos,
        });
    }
    Ok(Document {
        frontmatter: Frontmatter { root },
        body: parts.body,
        body_line: parts.body_line,
        bom: parts.bom,
    })
}

/// The YAML parses of one file's frontmatter, shared by everyone who reads the file: each
/// distinct (YAML text, first line, options) is parsed once and its tree shared. Every agent
/// whose split and YAML options give the same text as another's (most agents: the canonical
/// split) reuses that tree; an agent's lenient retry (a text rewrite) is a parse of its own, made
/// only when asked for. Lives as long as one file is being resolved, on one thread.
#[derive(Debug, Default)]
pub struct Parses {
    done: RefCell<Vec<Parsed>>,
    asked: Cell<usize>,
    /// Texts the agents made of the file (a description as listed), one copy of each.
    texts: RefCell<Vec<Arc<str>>>,
}

#[derive(Debug)]
struct Parsed {
    yaml: Box<str>,
    line: usize,
    opts: YamlOptions,
    result: Result<Arc<Node>, YamlError>,
}

impl Parses {
    pub fn new() -> Parses {
        Parses::default()
    }

    /// `yaml` (whose first line is `line` of the file) parsed with `opts`: from an earlier
    /// identical request, or parsed now.
    /// A request that accepts repeated keys is answered by the strict parse when that succeeds
    /// (without a repeated key both give the same tree): the lenient parse is made only when
    /// the strict one fails.
    pub fn yaml(&self, yaml: &str, line: usize, opts: YamlOptions) -> Result<Arc<Node>, YamlError> {
        if opts.allow_duplicate_keys {
            let strict = YamlOptions {
                allow_duplicate_keys: false,
            };
            if let Ok(root) = self.yaml(yaml, line, strict) {
                return Ok(root);
            }
        } else {
            self.asked.set(self.asked.get() + 1);
        }
        self.lookup(yaml, line, opts)
    }

    fn lookup(&self, yaml: &str, line: usize, opts: YamlOptions) -> Result<Arc<Node>, YamlError> {
        if let Some(p) = self
            .done
            .borrow()
            .iter()
            .find(|p| p.line == line && p.opts == opts && &*p.yaml == yaml)
        {
            return p.result.clone();
        }
        let result = yaml::parse(yaml, line, opts).map(Arc::new);
        self.done.borrow_mut().push(Parsed {
            yaml: yaml.into(),
            line,
            opts,
            result: result.clone(),
        });
        result
    }

    /// [`parse_with`], the YAML parse shared.
    pub fn parse_with<'a>(
        &self,
        text: &'a str,
        split: SplitOptions,
        yaml_opts: YamlOptions,
    ) -> Result<Document<'a>, ParseError> {
        let parts = frontmatter::split(text, split).map_err(ParseError::Split)?;
        let root = self
            .yaml(parts.yaml, parts.yaml_line, yaml_opts)
            .map_err(ParseError::Yaml)?;
        document(parts, root)
    }

    /// [`Parses::parse_with`] of `md`'s text, its split kept with `md` ([`SkillMd::split`]).
    pub fn parse_md<'a>(
        &self,
        md: &'a SkillMd,
        split: SplitOptions,
        yaml_opts: YamlOptions,
    ) -> Result<Document<'a>, ParseError> {
        let parts = md.split(split).map_err(ParseError::Split)?;
        let root = self
            .yaml(parts.yaml, parts.yaml_line, yaml_opts)
            .map_err(ParseError::Yaml)?;
        document(parts, root)
    }

    /// `text` as one copy shared by every agent that makes the same text of this file (most
    /// agents list a description as its YAML value reads).
    pub fn shared_text(&self, text: &str) -> Arc<str> {
        if let Some(t) = self.texts.borrow().iter().find(|t| ***t == *text) {
            return t.clone();
        }
        let t: Arc<str> = text.into();
        self.texts.borrow_mut().push(t.clone());
        t
    }

    /// How many YAML parses were made (distinct requests).
    pub fn parsed(&self) -> usize {
        self.done.borrow().len()
    }

    /// How many YAML parses were asked for (each request, shared or not).
    pub fn asked(&self) -> usize {
        self.asked.get()
    }
}

/// The frontmatter mapping with typed access to its fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Frontmatter {
    root: Arc<Node>,
}

/// A field's value as a string, or why it is not one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StrField<'a> {
    Absent,
    /// A string scalar.
    Str(&'a str, Pos),
    /// Present with another YAML type (the node tells which).
    Other(&'a Node),
}

impl Frontmatter {
    /// Wraps a parsed mapping node (callers check that it is a mapping).
    pub fn from_node(root: Node) -> Frontmatter {
        Frontmatter {
            root: Arc::new(root),
        }
    }

    /// Wraps a parsed mapping node shared with other readers of the same file.
    pub fn from_shared(root: Arc<Node>) -> Frontmatter {
        Frontmatter { root }
    }

    /// Every top-level entry, in file order.
    pub fn entries(&self) -> &[Entry] {
        self.root.entries().unwrap_or(&[])
    }

    /// Top-level keys as text (non-scalar keys are shown as their YAML type).
    pub fn keys(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.entries()
            .iter()
            .map(|e| (e.key.scalar_text().unwrap_or("<non-scalar key>"), e))
    }

    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.entries()
            .iter()
            .find(|e| e.key.scalar_text() == Some(key))
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    /// A field read as a string scalar.
    pub fn string(&self, key: &str) -> StrField<'_> {
        match self.get(key) {
            None => StrField::Absent,
            Some(n) => match n.as_str() {
                Some(s) => StrField::Str(s, n.pos),
                None => StrField::Other(n),
            },
        }
    }

    pub fn name(&self) -> StrField<'_> {
        self.string("name")
    }
    pub fn description(&self) -> StrField<'_> {
        self.string("description")
    }
    pub fn license(&self) -> StrField<'_> {
        self.string("license")
    }
    pub fn compatibility(&self) -> StrField<'_> {
        self.string("compatibility")
    }
    pub fn allowed_tools(&self) -> StrField<'_> {
        self.string("allowed-tools")
    }
    /// `metadata` when it is a mapping.
    pub fn metadata(&self) -> Option<&[Entry]> {
        self.get("metadata").and_then(Node::entries)
    }

    /// Keys that are not among the spec's six fields, with their YAML type.
    pub fn extra_fields(&self) -> impl Iterator<Item = (&str, YamlType, Pos)> {
        self.keys()
            .filter(|(k, _)| !SPEC_FIELDS.contains(k))
            .map(|(k, e)| (k, e.value.ty(), e.key.pos))
    }

    /// The root node.
    pub fn node(&self) -> &Node {
        &self.root
    }
}
