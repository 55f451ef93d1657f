//! Byte-span edits of a SKILL.md's frontmatter: find a top-level field's value by lines (the
//! file may not even parse as YAML: quoting a colon is the fix for that), replace only that span,
//! insert a line, drop a BOM. Every byte outside the edited span is kept: comments, key order,
//! other values' quoting, line ends, the body.

/// The UTF-8 byte order mark.
pub const BOM: &str = "\u{feff}";

/// Where the frontmatter block lies in a text (byte offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// Start of the first YAML line (after the opening `---` line).
    pub yaml_start: usize,
    /// Start of the closing `---` line.
    pub yaml_end: usize,
    /// The file's line end (`\r\n` when the opening line ends so).
    pub crlf: bool,
}

impl Block {
    pub fn eol(&self) -> &'static str {
        if self.crlf { "\r\n" } else { "\n" }
    }
}

/// One line: its start, content end (before the line end) and the start of the next line.
#[derive(Debug, Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    next: usize,
}

fn lines(text: &str, from: usize, to: usize) -> Vec<Line> {
    let mut out = Vec::new();
    let mut i = from;
    while i < to {
        let rest = &text[i..to];
        let (end, next) = match rest.find('\n') {
            Some(n) => {
                let e = if n > 0 && rest.as_bytes()[n - 1] == b'\r' {
                    i + n - 1
                } else {
                    i + n
                };
                (e, i + n + 1)
            }
            None => (to, to),
        };
        out.push(Line {
            start: i,
            end,
            next,
        });
        i = next;
    }
    out
}

/// Finds the frontmatter block (a BOM before the opening `---` is skipped).
pub fn block(text: &str) -> Option<Block> {
    let from = if text.starts_with(BOM) { BOM.len() } else { 0 };
    let all = lines(text, from, text.len());
    let first = all.first()?;
    if text[first.start..first.end].trim_end() != "---" {
        return None;
    }
    let crlf = text[first.end..first.next].starts_with('\r');
    let close = all[1..]
        .iter()
        .find(|l| text[l.start..l.end].trim_end() == "---")?;
    Some(Block {
        yaml_start: first.next,
        yaml_end: close.start,
        crlf,
    })
}

/// A top-level `key: value` entry of the frontmatter, by lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub key: String,
    /// Start of the key's line.
    pub line_start: usize,
    /// The value's span (without a trailing comment on a one-line plain value).
    pub value_start: usize,
    pub value_end: usize,
    /// End of the entry: the start of the next entry's line (or of the closing `---`).
    pub end: usize,
    /// The value spans more than one line (a block scalar or a folded plain scalar).
    pub multiline: bool,
}

impl Field {
    pub fn value<'a>(&self, text: &'a str) -> &'a str {
        &text[self.value_start..self.value_end]
    }
}

/// The top-level entries of the frontmatter, in file order.
pub fn fields(text: &str, b: &Block) -> Vec<Field> {
    let ls = lines(text, b.yaml_start, b.yaml_end);
    let mut out: Vec<Field> = Vec::new();
    let mut i = 0;
    while i < ls.len() {
        let l = ls[i];
        let content = &text[l.start..l.end];
        let top = !content.is_empty()
            && !content.starts_with([' ', '\t', '#', '-'])
            && content != "..."
            && key_end(content).is_some();
        if !top {
            i += 1;
            continue;
        }
        let colon = key_end(content).unwrap_or(0);
        let key = unquote_key(content[..colon].trim());
        let after = &content[colon + 1..];
        let lead = after.len() - after.trim_start_matches([' ', '\t']).len();
        let value_start = l.start + colon + 1 + lead;
        let first_value = &text[value_start..l.end];
        let mut value_end = value_start + scalar_len(first_value);
        // Continuation lines: blank or indented.
        let mut j = i + 1;
        let mut last_content = None;
        while j < ls.len() {
            let c = &text[ls[j].start..ls[j].end];
            if c.trim().is_empty() {
                j += 1;
                continue;
            }
            if c.starts_with([' ', '\t']) {
                last_content = Some(ls[j]);
                j += 1;
                continue;
            }
            if c.starts_with('#') {
                j += 1;
                continue;
            }
            break;
        }
        let multiline = last_content.is_some();
        if let Some(lc) = last_content {
            value_end = lc.end;
        }
        // A trailing run of blank or comment lines belongs to no value: the entry ends after its
        // last content line.
        let end = match last_content {
            Some(lc) => lc.next,
            None => l.next,
        };
        out.push(Field {
            key,
            line_start: l.start,
            value_start,
            value_end,
            end,
            multiline,
        });
        i = j.max(i + 1);
    }
    out
}

/// The byte offset of the `:` that ends a top-level key (a `:` followed by a blank or the end).
fn key_end(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut quote = None;
    for (i, &c) in b.iter().enumerate() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if i == 0 && (c == b'"' || c == b'\'') => quote = Some(c),
            None if c == b':' && (i + 1 == b.len() || b[i + 1] == b' ' || b[i + 1] == b'\t') => {
                return Some(i);
            }
            None => {}
        }
    }
    None
}

fn unquote_key(k: &str) -> String {
    let b = k.as_bytes();
    if b.len() >= 2 && (b[0] == b'"' || b[0] == b'\'') && b[b.len() - 1] == b[0] {
        k[1..k.len() - 1].to_string()
    } else {
        k.to_string()
    }
}

/// Length of a one-line scalar value: a quoted scalar through its closing quote, a plain one
/// without a trailing ` # comment` and trailing blanks.
fn scalar_len(v: &str) -> usize {
    let b = v.as_bytes();
    if b.first() == Some(&b'"') {
        let mut i = 1;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 2,
                b'"' => return i + 1,
                _ => i += 1,
            }
        }
        return v.trim_end().len();
    }
    if b.first() == Some(&b'\'') {
        let mut i = 1;
        while i < b.len() {
            if b[i] == b'\'' {
                if b.get(i + 1) == Some(&b'\'') {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i += 1;
        }
        return v.trim_end().len();
    }
    let mut end = v.len();
    for (i, _) in v.match_indices('#') {
        if i > 0 && matches!(b[i - 1], b' ' | b'\t') {
            end = i;
            break;
        }
    }
    v[..end].trim_end().len()
}

/// How a field's value is written (for keeping the style when it is replaced).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    Single,
    Double,
    /// A block scalar (`|`, `>`) or a multi-line plain value.
    Block,
}

pub fn style_of(f: &Field, text: &str) -> Style {
    let v = f.value(text);
    if v.starts_with('|') || v.starts_with('>') || f.multiline {
        Style::Block
    } else if v.starts_with('"') {
        Style::Double
    } else if v.starts_with('\'') {
        Style::Single
    } else {
        Style::Plain
    }
}

/// Whether `s` can be written as a plain YAML scalar that reads back as the same string.
pub fn plain_ok(s: &str) -> bool {
    if s.is_empty() || s != s.trim() || s.contains(['\n', '\r', '\t']) {
        return false;
    }
    if s.chars().any(|c| c.is_control() || c == '\u{feff}') {
        return false;
    }
    if s.starts_with([
        '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@',
        '`',
    ]) {
        return false;
    }
    if s.contains(": ") || s.ends_with(':') || s.contains(" #") {
        return false;
    }
    // Would resolve to another type (core schema).
    let l = s.to_ascii_lowercase();
    if matches!(
        l.as_str(),
        "null" | "~" | "true" | "false" | "yes" | "no" | "on" | "off" | ".nan" | ".inf" | "-.inf"
    ) {
        return false;
    }
    if s.parse::<f64>().is_ok() || s.starts_with("0x") || s.starts_with("0o") {
        return false;
    }
    true
}

/// `s` as a double-quoted YAML scalar.
pub fn double_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || c == '\u{feff}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `s` as a scalar in the style `prefer` when that style can hold it, else plain when safe,
/// else double-quoted.
pub fn render(s: &str, prefer: Style) -> String {
    let single_ok = !s.contains(['\n', '\r']) && !s.chars().any(char::is_control);
    match prefer {
        Style::Single if single_ok => format!("'{}'", s.replace('\'', "''")),
        Style::Double => double_quoted(s),
        _ if plain_ok(s) => s.to_string(),
        _ => double_quoted(s),
    }
}

/// Replaces the bytes `start..end` of `text` with `with`.
pub fn splice(text: &str, start: usize, end: usize, with: &str) -> String {
    let mut out = String::with_capacity(text.len() + with.len());
    out.push_str(&text[..start]);
    out.push_str(with);
    out.push_str(&text[end..]);
    out
}

/// Sets a top-level string field: its value span is replaced (keeping the quoting style where
/// it can), or, when absent, a `key: value` line is inserted after `after` (or at the end of the
/// block). None when the file has no frontmatter block.
pub fn set_field(text: &str, key: &str, value: &str, after: &[&str]) -> Option<String> {
    let b = block(text)?;
    let fs = fields(text, &b);
    if let Some(f) = fs.iter().find(|f| f.key == key) {
        let rendered = render(value, style_of(f, text));
        return Some(splice(text, f.value_start, f.value_end, &rendered));
    }
    let line = format!("{key}: {}{}", render(value, Style::Plain), b.eol());
    let at = after
        .iter()
        .find_map(|k| fs.iter().find(|f| f.key == *k))
        .map_or(b.yaml_end, |f| f.end);
    // Inserting at the end of the block after a last line without a line end cannot happen:
    // the closing `---` line starts after a line end.
    Some(splice(text, at, at, &line))
}

/// The value of a one-line plain field that holds an unquoted `: ` (or ends with `:`), which
/// YAML reads as a nested mapping or rejects.
pub fn unquoted_colon(text: &str, key: &str) -> Option<Field> {
    let b = block(text)?;
    fields(text, &b).into_iter().find(|f| {
        f.key == key && !f.multiline && style_of(f, text) == Style::Plain && {
            let v = f.value(text);
            v.contains(": ") || v.ends_with(':') || v.contains(":\t")
        }
    })
}

/// Double-quotes a one-line plain value as it is written (the text it meant).
pub fn quote_value(text: &str, f: &Field) -> String {
    let v = f.value(text).to_string();
    splice(text, f.value_start, f.value_end, &double_quoted(&v))
}

/// The first paragraph of the body that is not a heading, as one line (for a description).
pub fn first_paragraph(text: &str) -> Option<String> {
    let b = block(text)?;
    let body_start = lines(text, b.yaml_end, text.len())
        .first()
        .map_or(text.len(), |l| l.next);
    let mut para: Vec<&str> = Vec::new();
    let mut in_code = false;
    for l in text[body_start..].lines() {
        let t = l.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_code = !in_code;
            if !para.is_empty() {
                break;
            }
            continue;
        }
        if in_code {
            continue;
        }
        if t.starts_with("<!--") && t.ends_with("-->") {
            continue;
        }
        if t.is_empty() || t.starts_with('#') {
            if !para.is_empty() {
                break;
            }
            continue;
        }
        para.push(t);
    }
    let s = para.join(" ");
    (!s.is_empty()).then_some(s)
}

/// Cuts `s` to at most `max` units (as counted by `count`), at a word boundary when there is
/// one in the last fifth, with a trailing `…` when cut.
pub fn shorten(s: &str, max: usize, count: impl Fn(&str) -> usize) -> String {
    if count(s) <= max {
        return s.to_string();
    }
    let ell = "…";
    let budget = max.saturating_sub(count(ell));
    let mut cut = 0;
    for (i, c) in s.char_indices() {
        if count(&s[..i + c.len_utf8()]) > budget {
            break;
        }
        cut = i + c.len_utf8();
    }
    let head = &s[..cut];
    let word = head
        .rfind(char::is_whitespace)
        .filter(|&w| count(&head[..w]) * 5 >= budget * 4)
        .map_or(head, |w| &head[..w]);
    format!("{}{ell}", word.trim_end())
}

/// A kebab-case name cut to at most `max` characters at a hyphen when possible.
pub fn shorten_name(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        return name.to_string();
    }
    let cut: String = name.chars().take(max).collect();
    let at_hyphen = match cut.rfind('-') {
        Some(i) if i > 0 && name[cut.len()..].starts_with('-') => cut.clone(),
        Some(i) if i > 0 => cut[..i].to_string(),
        _ => cut.clone(),
    };
    at_hyphen.trim_matches('-').to_string()
}
