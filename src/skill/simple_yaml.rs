//! The common shapes of a frontmatter block read without the YAML parser, which takes some
//! fifty thousand instructions on a block of ten lines (a tenth of a catalog's build):
//! - `key: value` lines, and `key:` lines opening an indented block of the same;
//! - values that are plain scalars (on one line or folded over several), quoted scalars with
//!   nothing to unescape, folded or literal block scalars (`>`, `>-`, `|`, `|-`), lists of
//!   such scalars (`- item` lines) and one-line flow lists of plain words (`[a, b]`).
//!
//! [`parse`] gives the tree [`super::yaml::parse`] gives (the same values, YAML types and
//! positions), or None for anything else (a comment, an anchor, a tag, an escape, a tab, a
//! blank line inside a value, a repeated key, an empty value, deeper shapes...), which the
//! parser then reads. The two are held to the same trees by a property test, on the generated
//! catalogs and on real ones (`tests/it/unit/simple_yaml.rs`).

use super::yaml::{Entry, Node, Pos, ScalarKind, Value, YamlType, resolve_plain};

/// Longer blocks are left to the parser. Every node the shortcut makes takes at least one byte
/// of the block, so it never makes more than [`super::yaml::MAX_NODES`] (the parser's budget,
/// whose error it leaves to the parser).
const MAX_BYTES: usize = 8 * 1024;
const _: () = assert!(MAX_BYTES < super::yaml::MAX_NODES);
/// Longer blocks are left to the parser.
const MAX_LINES: usize = 400;
/// Longer keys are left to the parser.
const MAX_KEY: usize = 128;
/// Deeper mappings are left to the parser.
const MAX_DEPTH: usize = 4;

/// The tree of `yaml` (whose first line is `first_line` of the file), when it has a simple
/// shape; None otherwise.
pub fn parse(yaml: &str, first_line: usize) -> Option<Node> {
    if yaml.len() > MAX_BYTES || yaml.contains(['\r', '\t']) {
        return None;
    }
    let lines: Vec<&str> = yaml.split('\n').collect();
    if lines.len() > MAX_LINES {
        return None;
    }
    let mut block = Block {
        lines,
        at: 0,
        first_line,
    };
    let root = block.mapping(0, 0)?;
    // Nothing may be left over (a less indented line after an indented first key).
    block.skip_blank();
    (block.at == block.lines.len()).then_some(root)
}

/// The lines of a block and the next one to read.
struct Block<'a> {
    lines: Vec<&'a str>,
    at: usize,
    first_line: usize,
}

impl<'a> Block<'a> {
    /// The position of byte `col0` of line `i` (the line's characters before it are ASCII).
    fn pos(&self, i: usize, col0: usize) -> Pos {
        Pos {
            line: self.first_line + i,
            column: col0 + 1,
        }
    }

    fn skip_blank(&mut self) {
        while self.lines.get(self.at).is_some_and(|l| l.is_empty()) {
            self.at += 1;
        }
    }

    /// The next line that is not blank: its index and indent.
    fn peek(&mut self) -> Option<(usize, usize)> {
        self.skip_blank();
        let line = self.lines.get(self.at)?;
        Some((self.at, indent_of(line)))
    }

    /// The mapping whose keys are at `indent` from the next line on.
    fn mapping(&mut self, indent: usize, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut entries: Vec<Entry> = Vec::new();
        while let Some((i, at)) = self.peek() {
            if at < indent {
                break;
            }
            if at > indent {
                return None;
            }
            let line = self.lines[i];
            self.at += 1;
            let (key, rest) = key_of(&line[indent..])?;
            let key = scalar_node(key.to_string(), ScalarKind::Plain, self.pos(i, indent));
            let col0 = line.len() - rest.len();
            let value = if rest.is_empty() {
                self.under_key(indent, depth)?
            } else if rest.starts_with(['>', '|']) {
                self.block_scalar(rest, indent)?
            } else if rest.starts_with('[') {
                self.no_more_lines(indent)?;
                flow_list(rest, self.pos(i, col0))?
            } else {
                self.scalar_lines(rest, i, col0, indent)?
            };
            let k = key.scalar_text()?;
            if entries.iter().any(|e| e.key.scalar_text() == Some(k)) {
                // The parser decides what a repeated key means.
                return None;
            }
            entries.push(Entry { key, value });
        }
        let pos = entries.first()?.key.pos;
        Some(node(Value::Mapping(entries), pos, false))
    }

    /// The value of a bare `key:` at `indent`: a list of `- item` lines (at that indent or
    /// deeper), or a deeper mapping. An empty value is left to the parser.
    fn under_key(&mut self, indent: usize, depth: usize) -> Option<Node> {
        let (i, at) = self.peek()?;
        let item = self.lines[i][at..].starts_with('-');
        match (item, at > indent) {
            (true, _) if at >= indent => self.list(at, at == indent),
            (false, true) => self.mapping(at, depth + 1),
            _ => None,
        }
    }

    /// A list of one-line scalars, each `- item` at `indent` (`indentless`: the indent of its
    /// key).
    fn list(&mut self, indent: usize, indentless: bool) -> Option<Node> {
        let mut items = Vec::new();
        let mut pos = None;
        while let Some((i, at)) = self.peek() {
            let line = self.lines[i];
            if at < indent || (at == indent && !line[at..].starts_with('-')) {
                break;
            }
            let after = line[at..].strip_prefix("- ")?;
            if at > indent {
                return None;
            }
            self.at += 1;
            let rest = after.trim_start_matches(' ');
            let col0 = line.len() - rest.len();
            // A list is where its first `-` is, one at its key's indent where its first item
            // is (as the parser places them).
            pos.get_or_insert(self.pos(i, if indentless { col0 } else { at }));
            // An item's value on one line; a deeper line would continue it.
            self.no_more_lines(indent)?;
            items.push(one_line_scalar(rest, self.pos(i, col0))?);
        }
        Some(node(Value::Sequence(items), pos?, false))
    }

    /// None when the next line that is not blank is deeper than `indent` (it would continue
    /// the value just read).
    fn no_more_lines(&mut self, indent: usize) -> Option<()> {
        let saved = self.at;
        let deeper = self.peek().is_some_and(|(_, at)| at > indent);
        self.at = saved;
        (!deeper).then_some(())
    }

    /// A scalar that starts on line `i` at byte `col0` (`rest` to the line's end), under a key
    /// at `indent`: on that line alone, or a plain one folded over the deeper lines after it.
    fn scalar_lines(&mut self, rest: &str, i: usize, col0: usize, indent: usize) -> Option<Node> {
        let first = one_line_scalar(rest, self.pos(i, col0))?;
        // Deeper lines right after it continue a plain scalar, each joined with a space; a
        // blank line among them would be a line break.
        let mut text: Option<String> = None;
        while let Some(line) = self.lines.get(self.at) {
            let at = indent_of(line);
            if line.is_empty() {
                self.no_more_lines(indent)?;
                break;
            }
            if at <= indent {
                break;
            }
            let Value::Scalar {
                kind: ScalarKind::Plain,
                text: start,
                ..
            } = &first.value
            else {
                return None;
            };
            let more = &line[at..];
            if !plain_text(more) {
                return None;
            }
            let t = text.get_or_insert_with(|| start.clone());
            t.push(' ');
            t.push_str(more);
            self.at += 1;
        }
        Some(match text {
            None => first,
            Some(text) => scalar_node(text, ScalarKind::Plain, first.pos),
        })
    }

    /// A block scalar (`>`, `>-`, `|`, `|-`) under a key at `indent`: its lines, all at one
    /// deeper indent, without blank lines among them.
    fn block_scalar(&mut self, header: &str, indent: usize) -> Option<Node> {
        let (kind, strip) = match header {
            ">" => (ScalarKind::Folded, false),
            ">-" => (ScalarKind::Folded, true),
            "|" => (ScalarKind::Literal, false),
            "|-" => (ScalarKind::Literal, true),
            _ => return None,
        };
        // A blank line before the first line of text would be part of it.
        if self.lines.get(self.at).is_none_or(|l| l.is_empty()) {
            return None;
        }
        let (first, content) = self.peek()?;
        if content <= indent {
            return None;
        }
        let mut text = String::new();
        let mut last = None;
        while let Some(line) = self.lines.get(self.at) {
            if line.is_empty() {
                // A blank line ends it when what follows is not deeper (the next key).
                self.no_more_lines(indent)?;
                break;
            }
            let at = indent_of(line);
            if at <= indent {
                break;
            }
            // A more (or less) indented line keeps its break or its spaces: left to the parser.
            if at != content {
                return None;
            }
            let more = &line[at..];
            if more.is_empty() || more.ends_with(' ') || !more.chars().all(printable) {
                return None;
            }
            if last.is_some() {
                text.push(if kind == ScalarKind::Folded {
                    ' '
                } else {
                    '\n'
                });
            }
            text.push_str(more);
            last = Some(self.at);
            self.at += 1;
        }
        last?;
        if !strip {
            text.push('\n');
        }
        // The scalar is where its text starts (as the parser places it).
        Some(scalar_node_typed(
            text,
            kind,
            YamlType::String,
            self.pos(first, content),
        ))
    }
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The key of a line (from its indent on) and what follows its `: ` (empty after a bare
/// `key:`). Keys are ASCII letters, digits, `_`, `-` and `.`, starting with a letter, digit or
/// `_`.
fn key_of(line: &str) -> Option<(&str, &str)> {
    let end = line.find(':')?;
    let key = &line[..end];
    // An implicit key is at most 1,024 characters long in YAML: long ones are the parser's.
    if key.len() > MAX_KEY {
        return None;
    }
    let first = key.bytes().next()?;
    if !(first.is_ascii_alphanumeric() || first == b'_')
        || !key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
    {
        return None;
    }
    let after = &line[end + 1..];
    if after.is_empty() {
        return Some((key, after));
    }
    let rest = after.trim_start_matches(' ');
    // `key:value` is one plain scalar; `key: ` with only spaces is an empty value.
    if rest.len() == after.len() || rest.is_empty() {
        return None;
    }
    Some((key, rest))
}

/// A scalar on one line: double-quoted or single-quoted with nothing to unescape, or plain.
fn one_line_scalar(text: &str, pos: Pos) -> Option<Node> {
    let quoted = |q: char| -> Option<&str> {
        let inner = text.strip_prefix(q)?.strip_suffix(q)?;
        (!inner.contains([q, '\\']) && inner.chars().all(printable)).then_some(inner)
    };
    let (text, kind) = match *text.as_bytes().first()? {
        b'"' => (quoted('"')?, ScalarKind::DoubleQuoted),
        b'\'' => (quoted('\'')?, ScalarKind::SingleQuoted),
        first if is_indicator(first) => return None,
        _ if plain_text(text) => (text, ScalarKind::Plain),
        _ => return None,
    };
    Some(scalar_node(text.to_string(), kind, pos))
}

/// The first bytes that make a value something else than a plain scalar (or a plain scalar
/// the fast path leaves to the parser).
fn is_indicator(b: u8) -> bool {
    matches!(
        b,
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}

/// A line of a plain scalar: printable, not starting with an indicator, without `: ` or ` #`,
/// not ending with a space or `:`.
/// One pass over the bytes (a description is most of a block): UTF-8 puts the ASCII pairs
/// looked for only where those characters are, and a text that is not all ASCII has its
/// characters checked as well.
fn plain_text(text: &str) -> bool {
    let b = text.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    if is_indicator(first) || last == b' ' || last == b':' {
        return false;
    }
    let mut other = false;
    let mut prev = 0u8;
    for &c in b {
        match c {
            b' ' if prev == b':' => return false,
            b'#' if prev == b' ' => return false,
            b' '..=b'~' => {}
            0x80.. => other = true,
            // A control character or DEL.
            _ => return false,
        }
        prev = c;
    }
    !other || text.chars().all(printable)
}

/// `[a, b]` on one line, each item a word of letters, digits and `_ - . / + @ ( )` (nothing a
/// flow list treats apart).
fn flow_list(text: &str, pos: Pos) -> Option<Node> {
    let inner = text.strip_prefix('[')?.strip_suffix(']')?;
    let mut items = Vec::new();
    if !inner.trim_start_matches(' ').is_empty() {
        let mut start = 1;
        for part in inner.split(',') {
            let word = part.trim_start_matches(' ');
            let lead = part.len() - word.len();
            let word = word.trim_end_matches(' ');
            let plain_word = word.as_bytes().first().is_some_and(|&b| !is_indicator(b))
                && word.bytes().all(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/' | b'+')
                });
            if !plain_word {
                return None;
            }
            items.push(scalar_node(
                word.to_string(),
                ScalarKind::Plain,
                Pos {
                    line: pos.line,
                    column: pos.column + start + lead,
                },
            ));
            start += part.len() + 1;
        }
    }
    Some(node(Value::Sequence(items), pos, true))
}

/// Characters the fast path takes: printable, and no line or paragraph separator, byte order
/// mark, no-break space or C1 control (each of which YAML treats apart).
fn printable(c: char) -> bool {
    match c {
        ' '..='~' => true,
        '\u{0}'..='\u{a0}' => false,
        '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}' => false,
        _ => true,
    }
}

/// A scalar typed as YAML types it: a plain one by its text, a quoted one a string.
fn scalar_node(text: String, kind: ScalarKind, pos: Pos) -> Node {
    let ty = match kind {
        ScalarKind::Plain => resolve_plain(&text),
        _ => YamlType::String,
    };
    scalar_node_typed(text, kind, ty, pos)
}

fn scalar_node_typed(text: String, kind: ScalarKind, ty: YamlType, pos: Pos) -> Node {
    node(Value::Scalar { text, kind, ty }, pos, false)
}

fn node(value: Value, pos: Pos, flow: bool) -> Node {
    Node {
        value,
        pos,
        flow,
        anchored: false,
        aliased: false,
        tag: None,
    }
}
