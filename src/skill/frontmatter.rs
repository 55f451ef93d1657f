//! Splitting a SKILL.md into its YAML frontmatter block and its Markdown body.
//!
//! Canonical rule (the spec, skills-ref and Codex): the first line is `---`, the block ends at
//! the next line that is `---`; CRLF line ends are accepted and so are trailing blanks on a
//! delimiter line. Agents differ at the edges (a BOM, padded delimiters, an unclosed block);
//! [`SplitOptions`] expresses those differences so that one splitter serves every agent model.

use super::ProblemCode;
use std::fmt;

/// Variations of the split that agents make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SplitOptions {
    /// A UTF-8 BOM before `---` is skipped (otherwise it hides the frontmatter).
    pub strip_bom: bool,
    /// Delimiter lines may have leading blanks too (`  ---  `).
    pub padded_delimiters: bool,
    /// Without a closing `---`, the rest of the file is the YAML block and the body is empty.
    pub unclosed_rest_is_yaml: bool,
}

impl SplitOptions {
    /// The spec's rule, as skills-ref and the validator apply it.
    pub const CANONICAL: SplitOptions = SplitOptions {
        strip_bom: false,
        padded_delimiters: false,
        unclosed_rest_is_yaml: false,
    };
}

impl SplitOptions {
    /// How many distinct options there are.
    pub const COUNT: usize = 8;

    /// These options as a number below [`SplitOptions::COUNT`], distinct per options.
    pub fn index(self) -> usize {
        usize::from(self.strip_bom)
            | usize::from(self.padded_delimiters) << 1
            | usize::from(self.unclosed_rest_is_yaml) << 2
    }
}

impl Default for SplitOptions {
    fn default() -> Self {
        Self::CANONICAL
    }
}

/// The two parts of a SKILL.md. Offsets are byte offsets into the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split<'a> {
    /// The file started with a UTF-8 BOM (which was skipped).
    pub bom: bool,
    /// The YAML text between the delimiters (may be empty).
    pub yaml: &'a str,
    /// 1-based line of the first YAML line.
    pub yaml_line: usize,
    /// The Markdown after the closing delimiter line.
    pub body: &'a str,
    /// 1-based line where the body starts.
    pub body_line: usize,
    /// False when the block was never closed (only with `unclosed_rest_is_yaml`).
    pub closed: bool,
}

/// A [`Split`] as byte ranges of its text, to be kept with the text ([`crate::skill::SkillMd`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spans {
    bom: bool,
    yaml: std::ops::Range<usize>,
    yaml_line: usize,
    body: std::ops::Range<usize>,
    body_line: usize,
    closed: bool,
}

impl<'a> Split<'a> {
    /// This split as ranges of `text`, the text it was made from.
    pub fn spans(&self, text: &str) -> Spans {
        let at = |part: &str| {
            if part.is_empty() {
                return 0..0;
            }
            let start = part.as_ptr() as usize - text.as_ptr() as usize;
            start..start + part.len()
        };
        Spans {
            bom: self.bom,
            yaml: at(self.yaml),
            yaml_line: self.yaml_line,
            body: at(self.body),
            body_line: self.body_line,
            closed: self.closed,
        }
    }
}

impl Spans {
    /// The split of `text` (the text these spans were made from).
    pub fn of<'a>(&self, text: &'a str) -> Split<'a> {
        Split {
            bom: self.bom,
            yaml: &text[self.yaml.clone()],
            yaml_line: self.yaml_line,
            body: &text[self.body.clone()],
            body_line: self.body_line,
            closed: self.closed,
        }
    }
}

/// Why a file has no usable frontmatter block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MissingCause {
    /// The file is empty.
    EmptyFile,
    /// A UTF-8 byte order mark precedes `---`.
    Bom,
    /// The first line is blank and `---` comes later.
    BlankFirstLine,
    /// `---` is indented.
    IndentedDelimiter,
    /// The file does not start with `---`.
    NoDelimiter,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SplitError {
    /// `frontmatter-missing`.
    Missing(MissingCause),
    /// `frontmatter-unclosed`: the opening `---` has no closing `---` line.
    Unclosed,
}

impl SplitError {
    pub fn code(self) -> ProblemCode {
        match self {
            SplitError::Missing(_) => ProblemCode::FrontmatterMissing,
            SplitError::Unclosed => ProblemCode::FrontmatterUnclosed,
        }
    }
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hint = match self {
            SplitError::Missing(MissingCause::EmptyFile) => {
                "SKILL.md is empty; it must start with a `---` line, YAML frontmatter and a closing `---` line"
            }
            SplitError::Missing(MissingCause::Bom) => {
                "SKILL.md starts with a UTF-8 byte order mark (BOM) before `---`; save the file as UTF-8 without BOM"
            }
            SplitError::Missing(MissingCause::BlankFirstLine) => {
                "SKILL.md starts with a blank line; `---` must be the very first line"
            }
            SplitError::Missing(MissingCause::IndentedDelimiter) => {
                "the opening `---` is indented; it must start at the first column of the first line"
            }
            SplitError::Missing(MissingCause::NoDelimiter) => {
                "SKILL.md must start with YAML frontmatter: a `---` line, the fields, then a closing `---` line"
            }
            SplitError::Unclosed => {
                "SKILL.md frontmatter is not closed: add a line with only `---` after the fields"
            }
        };
        f.write_str(hint)
    }
}

impl std::error::Error for SplitError {}

/// One line of the text: content without its line end, and where the next line starts.
struct Line<'a> {
    start: usize,
    content: &'a str,
    next: usize,
}

fn lines(text: &str, from: usize) -> impl Iterator<Item = Line<'_>> {
    let mut pos = from;
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        let rest = &text[pos..];
        // `memchr` (vectorised) rather than `str::find`, which sets up a searcher per line.
        let (raw, next) = match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => (&rest[..i], pos + i + 1),
            None => (rest, text.len()),
        };
        let content = raw.strip_suffix('\r').unwrap_or(raw);
        let line = Line {
            start: pos,
            content,
            next,
        };
        pos = next;
        Some(line)
    })
}

fn is_delimiter(line: &str, padded: bool) -> bool {
    let line = line.trim_end_matches([' ', '\t']);
    let line = if padded {
        line.trim_start_matches([' ', '\t'])
    } else {
        line
    };
    line == "---"
}

/// Splits `text` into frontmatter and body.
pub fn split(text: &str, opts: SplitOptions) -> Result<Split<'_>, SplitError> {
    let (bom, start) = match text.strip_prefix('\u{feff}') {
        Some(_) if opts.strip_bom => (true, '\u{feff}'.len_utf8()),
        Some(_) => return Err(SplitError::Missing(MissingCause::Bom)),
        None => (false, 0),
    };
    let mut it = lines(text, start);
    let first = match it.next() {
        Some(l) => l,
        None => return Err(SplitError::Missing(MissingCause::EmptyFile)),
    };
    if !is_delimiter(first.content, opts.padded_delimiters) {
        let cause = if first.content.trim().is_empty() {
            let later = lines(text, first.next).find(|l| !l.content.trim().is_empty());
            match later {
                Some(l) if is_delimiter(l.content, true) => MissingCause::BlankFirstLine,
                _ if text[start..].trim().is_empty() => MissingCause::EmptyFile,
                _ => MissingCause::NoDelimiter,
            }
        } else if is_delimiter(first.content, true) {
            MissingCause::IndentedDelimiter
        } else {
            MissingCause::NoDelimiter
        };
        return Err(SplitError::Missing(cause));
    }
    let yaml_start = first.next;
    for (i, line) in it.enumerate() {
        if is_delimiter(line.content, opts.padded_delimiters) {
            return Ok(Split {
                bom,
                yaml: &text[yaml_start..line.start],
                yaml_line: 2,
                body: &text[line.next..],
                body_line: i + 3,
                closed: true,
            });
        }
    }
    if opts.unclosed_rest_is_yaml {
        let line_count = text[start..].matches('\n').count();
        return Ok(Split {
            bom,
            yaml: &text[yaml_start..],
            yaml_line: 2,
            body: "",
            body_line: line_count + 2,
            closed: false,
        });
    }
    Err(SplitError::Unclosed)
}
