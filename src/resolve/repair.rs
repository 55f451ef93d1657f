//! The YAML leniencies agents apply to frontmatter that strict YAML rejects, as text rewrites
//! before (or, for OpenCode, after a failed) parse. Each rewrite keeps line numbers unchanged
//! except OpenCode's, which turns one line into two exactly as OpenCode does.

use std::borrow::Cow;

use crate::agents::YamlRepair;

/// Splits `key: value` at the first `:` followed by a blank or the end of the line.
/// Returns (indent, key, value) for lines that look like a mapping entry.
fn key_value(line: &str) -> Option<(&str, &str, &str)> {
    let body = line.trim_start_matches(' ');
    let indent = &line[..line.len() - body.len()];
    let first = body.chars().next()?;
    if matches!(first, '#' | '-' | '?' | '\'' | '"' | '[' | '{' | '|' | '>') {
        return None;
    }
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b':' {
            let next = bytes.get(i + 1).copied();
            if matches!(next, None | Some(b' ') | Some(b'\t')) {
                let key = &body[..i];
                let value = body[i + 1..].trim_start_matches([' ', '\t']);
                return Some((indent, key, value));
            }
        }
        i += 1;
    }
    None
}

fn single_quote(v: &str) -> String {
    format!("'{}'", v.replace('\'', "''"))
}

/// Strips a trailing ` # comment` (a `#` after a blank).
fn strip_comment(v: &str) -> &str {
    match v.find(" #").or_else(|| v.find("\t#")) {
        Some(i) => v[..i].trim_end(),
        None => v.trim_end(),
    }
}

/// A flow collection that closes on the same line, at the end of the value (then it is real
/// YAML); `[filename] [format]` closes early and is not.
fn closed_flow(v: &str) -> bool {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for (i, c) in v.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return v[i + 1..].trim().is_empty();
                }
            }
            _ => {}
        }
    }
    false
}

/// Codex 0.171.0 (inferred from observed cases): a `key: value` line whose value contains `": "`
/// or starts with a character a YAML scanner cannot start (`@`, a backtick, an unclosed `[`/`{`)
/// is read literally, unless the value starts with a quote; `%x`/`*x` keys are read literally.
/// Public for the unit tests in `tests/it/unit/`.
#[doc(hidden)]
pub fn codex_literal(yaml: &str) -> String {
    codex_literal_lines(yaml).into_owned()
}

/// [`codex_literal`], borrowing `yaml` when no line changes (the common case).
fn codex_literal_lines(yaml: &str) -> Cow<'_, str> {
    rewrite_lines(yaml, |line| {
        let (content, cr) = match line.strip_suffix('\r') {
            Some(c) => (c, "\r"),
            None => (line, ""),
        };
        let (indent, key, value) = key_value(content)?;
        let key_out = if key.starts_with('%') || key.starts_with('*') {
            single_quote(key)
        } else {
            key.to_string()
        };
        let v = strip_comment(value);
        let literal = !v.is_empty()
            && !v.starts_with('\'')
            && !v.starts_with('"')
            && (v.contains(": ")
                || v.starts_with('@')
                || v.starts_with('`')
                || ((v.starts_with('[') || v.starts_with('{')) && !closed_flow(v)));
        if literal && !v.ends_with(':') {
            Some(format!("{indent}{key_out}: {}{cr}", single_quote(v)))
        } else if key_out != key {
            Some(format!("{indent}{key_out}: {value}{cr}"))
        } else {
            None
        }
    })
}

/// `yaml` with each line that `rewrite` gives a replacement for replaced (lines split at `\n`,
/// given with their `\r`), borrowed when no line is.
fn rewrite_lines(yaml: &str, rewrite: impl Fn(&str) -> Option<String>) -> Cow<'_, str> {
    let mut out: Option<String> = None;
    // Where the current line starts in `yaml`.
    let mut start = 0;
    for line in yaml.split('\n') {
        let new = rewrite(line);
        match (&mut out, new) {
            (Some(out), new) => {
                out.push('\n');
                out.push_str(new.as_deref().unwrap_or(line));
            }
            (None, Some(new)) => {
                // The lines before, as they are (with the `\n` that ends the last of them).
                let mut o = String::with_capacity(yaml.len() + 16);
                o.push_str(&yaml[..start]);
                o.push_str(&new);
                out = Some(o);
            }
            (None, None) => {}
        }
        start += line.len() + 1;
    }
    match out {
        Some(o) => Cow::Owned(o),
        None => Cow::Borrowed(yaml),
    }
}

/// Claude Code: a value containing an unquoted `": "` loads as a plain string (any key, any
/// indentation).
/// Public for the unit tests in `tests/it/unit/`.
#[doc(hidden)]
pub fn quote_colon_values(yaml: &str) -> String {
    quote_colon_lines(yaml).into_owned()
}

/// [`quote_colon_values`], borrowing `yaml` when no line changes (the common case).
fn quote_colon_lines(yaml: &str) -> Cow<'_, str> {
    rewrite_lines(yaml, |line| {
        let (content, cr) = match line.strip_suffix('\r') {
            Some(c) => (c, "\r"),
            None => (line, ""),
        };
        match key_value(content) {
            Some((indent, key, value))
                if value.contains(": ")
                    && !value.starts_with('\'')
                    && !value.starts_with('"')
                    && !value.starts_with('[')
                    && !value.starts_with('{') =>
            {
                Some(format!(
                    "{indent}{key}: {}{cr}",
                    single_quote(strip_comment(value))
                ))
            }
            _ => None,
        }
    })
}

/// OpenCode's `sanitize`: unindented `[A-Za-z_][A-Za-z0-9_]*: value` lines whose value holds a
/// `:` and is not quoted or a block indicator become `key: |-` plus the value on the next line.
/// Public for the unit tests in `tests/it/unit/`.
#[doc(hidden)]
pub fn opencode_sanitize(yaml: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    for line in yaml.split('\n') {
        let content = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = content.trim();
        if trimmed.starts_with('#') || trimmed.is_empty() || content.starts_with([' ', '\t']) {
            lines.push(line.to_string());
            continue;
        }
        let key_end = content
            .char_indices()
            .take_while(|(i, c)| {
                if *i == 0 {
                    c.is_ascii_alphabetic() || *c == '_'
                } else {
                    c.is_ascii_alphanumeric() || *c == '_'
                }
            })
            .count();
        let key = &content[..key_end];
        let after = content[key_end..].trim_start();
        let Some(rest) = after.strip_prefix(':').filter(|_| key_end > 0) else {
            lines.push(line.to_string());
            continue;
        };
        let v = rest.trim();
        if v.is_empty()
            || v == ">"
            || v == "|"
            || v.starts_with('"')
            || v.starts_with('\'')
            || !v.contains(':')
        {
            lines.push(line.to_string());
            continue;
        }
        lines.push(format!("{key}: |-"));
        lines.push(format!("  {v}"));
    }
    lines.join("\n")
}

/// Factory Droid's fallback after a YAML error: unindented `key: value` lines become
/// `key: 'value'` (the value as written, quotes and all), a key without a value stays null, and
/// every other line (indented, list items, comments) is blanked; line numbers are kept. A key
/// given twice keeps its last value.
/// Public for the unit tests in `tests/it/unit/`.
#[doc(hidden)]
pub fn line_values(yaml: &str) -> String {
    let mut seen: Vec<(String, usize)> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for line in yaml.split('\n') {
        let content = line.strip_suffix('\r').unwrap_or(line);
        // A line indented with a tab is inside the value above, like one indented with spaces.
        let kv = key_value(content)
            .filter(|(indent, _, _)| indent.is_empty() && !content.starts_with('\t'));
        let Some((_, key, value)) = kv else {
            lines.push(String::new());
            continue;
        };
        if let Some((_, at)) = seen.iter().find(|(k, _)| k == key) {
            lines[*at] = String::new();
        }
        seen.retain(|(k, _)| k != key);
        seen.push((key.to_string(), lines.len()));
        let value = value.trim_end();
        if value.is_empty() {
            lines.push(format!("{key}:"));
        } else {
            lines.push(format!("{key}: {}", single_quote(value)));
        }
    }
    lines.join("\n")
}

/// The text to parse first: `yaml` itself (borrowed) unless the agent's rewrite changes a line.
pub fn first(yaml: &str, repair: YamlRepair) -> Cow<'_, str> {
    match repair {
        YamlRepair::CodexLiteralValues => codex_literal_lines(yaml),
        YamlRepair::QuoteColonValues => quote_colon_lines(yaml),
        YamlRepair::None | YamlRepair::OpencodeQuoteColons | YamlRepair::LineValues => {
            Cow::Borrowed(yaml)
        }
    }
}

/// The text to retry with after the first text failed to parse, for an agent that retries.
pub fn retry(yaml: &str, repair: YamlRepair) -> Option<String> {
    match repair {
        YamlRepair::OpencodeQuoteColons => Some(opencode_sanitize(yaml)),
        YamlRepair::LineValues => Some(line_values(yaml)),
        YamlRepair::None | YamlRepair::CodexLiteralValues | YamlRepair::QuoteColonValues => None,
    }
}
