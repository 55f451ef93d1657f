//! Files a SKILL.md body uses as files of the skill.
//!
//! A body is full of paths that are not the skill's: example code, paths of the user's project
//! (`src/lib/auth.ts`), placeholders (`path/to/file`), URLs, version lists (`4.6/4.7`). Only these
//! count as references to the skill's own files:
//! - relative Markdown link and image targets (`[guide](references/guide.md)`,
//!   `![logo](assets/logo.png)`, `[id]: references/guide.md`) outside code;
//! - a path after a skill-folder variable (`${CLAUDE_SKILL_DIR}/scripts/run.sh`,
//!   `$SKILL_DIR/…`, `{baseDir}/…`), anywhere, code blocks included: the variable says whose
//!   file it is;
//! - a path in prose or in an inline code span (`` `scripts/run.sh` ``) whose first folder is a
//!   top-level folder the skill really has;
//! - in a fenced or indented code block, such a path only as [`RefKind::Block`], which the
//!   caller keeps when the file exists and never reports as missing (a block can as well be
//!   an example of the user's project).

/// At most this many references are reported per skill.
pub const MAX_REFERENCES: usize = 100;

/// How a body refers to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefKind {
    /// A Markdown link or image target, or a link reference definition.
    Link,
    /// A path after a skill-folder variable (`${CLAUDE_SKILL_DIR}/…`).
    SkillDir,
    /// A bare relative path in prose or an inline code span, under a folder the skill has.
    Path,
    /// A bare relative path in a code block, under a folder the skill has.
    Block,
}

impl RefKind {
    /// Whether the body names the file without saying where it is: a bare relative path that
    /// an agent may resolve against the working folder.
    pub fn is_bare(self) -> bool {
        matches!(self, RefKind::Path | RefKind::Block)
    }

    /// Whether a missing target is a missing file of the skill (not so for code blocks).
    pub fn missing_is_reported(self) -> bool {
        self != RefKind::Block
    }
}

/// One reference found in a body.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BodyRef {
    /// The path inside the skill folder as written (without `#anchor`, without the variable).
    pub target: String,
    /// 1-based line in the file.
    pub line: usize,
    pub kind: RefKind,
}

/// Whether a variable name stands for the skill's own folder: `CLAUDE_SKILL_DIR`, `SKILL_DIR`,
/// `SKILL_ROOT`, `skill-dir`, `baseDir` (case and `-`/`_` ignored). `SKILLS_DIR` (every skill),
/// `CLAUDE_PLUGIN_ROOT` (the plugin) and `BASE` are not.
pub fn is_skill_dir_variable(name: &str) -> bool {
    if name.is_ascii() {
        return skill_dir_variable_ascii(name.as_bytes());
    }
    is_skill_dir_variable_by_chars(name)
}

/// [`is_skill_dir_variable`] of an ASCII name, from its last letters (lowercased, `-` and `_`
/// dropped) and how many it has, without a lowercased copy.
fn skill_dir_variable_ascii(name: &[u8]) -> bool {
    const KEEP: usize = 12;
    let (mut tail, mut kept) = ([0u8; KEEP], 0);
    let mut letters = name
        .iter()
        .rev()
        .filter(|b| !matches!(b, b'-' | b'_'))
        .map(u8::to_ascii_lowercase);
    for b in letters.by_ref().take(KEEP) {
        kept += 1;
        tail[KEEP - kept] = b;
    }
    let more = letters.next().is_some();
    let last = &tail[KEEP - kept..];
    last.ends_with(b"skilldir")
        || last.ends_with(b"skillroot")
        || last.ends_with(b"skillpath")
        || !more && (last == b"basedir" || last == b"skillbasedir")
}

/// [`is_skill_dir_variable`] by the definition: lowercased, `-` and `_` dropped. Public for
/// the tests, which hold the ASCII shortcut to it.
#[doc(hidden)]
pub fn is_skill_dir_variable_by_chars(name: &str) -> bool {
    let n: String = name
        .chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    n.ends_with("skilldir")
        || n.ends_with("skillroot")
        || n.ends_with("skillpath")
        || n == "basedir"
        || n == "skillbasedir"
}

fn path_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '+' | '@')
}

/// [`path_char`] of an ASCII byte (false for any other byte): an ASCII character is
/// alphanumeric exactly when it is an ASCII letter or digit.
fn path_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/' | b'+' | b'@')
}

/// A URL, an absolute or home path, an anchor, or a path starting with a variable.
/// Public for the unit tests in `tests/it/unit/`.
#[doc(hidden)]
pub fn is_external(t: &str) -> bool {
    if t.is_empty()
        || t.starts_with('#')
        || t.starts_with('/')
        || t.starts_with('\\')
        || t.starts_with('~')
        || t.starts_with('$')
        || t.starts_with('%')
        || t.starts_with("//")
    {
        return true;
    }
    // `scheme:` (http:, mailto:, file:, data:, vscode:…) or a drive (`C:`).
    t.split_once(':').is_some_and(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

/// A version or number list (`4.6/4.7/4.8`, `v1/v2`, `2024/01/31`, `1/2`).
fn is_version_list(t: &str) -> bool {
    t.split('/').filter(|s| !s.is_empty()).all(|s| {
        let s = s.strip_prefix(['v', 'V']).unwrap_or(s);
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == 'x')
    })
}

/// A placeholder rather than a file: `path/to/…`, `<name>`, `{name}`, `[name]`, `…`, `*`,
/// `your-…`, `xxx`, `foo/bar`; with `example…` as the first folder unless the skill has it.
fn is_placeholder(t: &str, has_first: bool) -> bool {
    if t.contains([
        '<', '>', '{', '}', '[', ']', '*', '?', '|', '…', '"', '\'', '`', ' ',
    ]) || t.contains("...")
        || is_version_list(t)
    {
        return true;
    }
    named_placeholder(t, has_first)
}

/// Whether a segment of path `t` is a placeholder word (`your-…`, `foo`, `path/to`, a first
/// `example…` folder the skill lacks). The path's segments (none empty or `.`) are compared
/// in ASCII lowercase, as bytes: the words are ASCII, so a segment matches one exactly when
/// its lowercased copy would.
fn named_placeholder(t: &str, has_first: bool) -> bool {
    let starts = |s: &[u8], word: &str| {
        s.get(..word.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(word.as_bytes()))
    };
    let is = |s: &[u8], word: &str| s.eq_ignore_ascii_case(word.as_bytes());
    let segs = t
        .as_bytes()
        .split(|&b| b == b'/')
        .filter(|s| !s.is_empty() && *s != b".");
    let mut prev: Option<&[u8]> = None;
    for (i, s) in segs.enumerate() {
        if i == 0 && !has_first && starts(s, "example") {
            return true;
        }
        if prev.is_some_and(|p| is(p, "path")) && (is(s, "to") || starts(s, "to-")) {
            return true;
        }
        let placeholder = [
            "your-",
            "your_",
            "yourskill",
            "my-skill",
            "xxx",
            "placeholder",
        ]
        .iter()
        .any(|w| starts(s, w))
            || ["foo", "bar", "baz", "your", "some"]
                .iter()
                .any(|w| is(s, w));
        if placeholder {
            return true;
        }
        prev = Some(s);
    }
    false
}

/// For the tests: [`named_placeholder`].
#[doc(hidden)]
pub fn placeholder_named(target: &str, has_first: bool) -> bool {
    named_placeholder(target, has_first)
}

/// The first folder of a relative path (`./` dropped), when the path goes on below it.
fn first_folder(mut t: &str) -> Option<&str> {
    while let Some(rest) = t.strip_prefix("./") {
        t = rest;
    }
    // The first folder is a short name: a byte loop beats a search that sets up for long texts.
    let slash = t.bytes().position(|b| b == b'/')?;
    let (first, rest) = (&t[..slash], &t[slash + 1..]);
    (!first.is_empty() && first != ".." && first != "." && !rest.is_empty()).then_some(first)
}

/// Whether the last segment of `t` has a file extension (`run.py`, `logo.PNG`), or `t` ends
/// with `/` (a folder).
fn file_like(t: &str) -> bool {
    if t.ends_with('/') {
        return true;
    }
    let last = t.rsplit('/').next().unwrap_or(t);
    last.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=8).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// Byte ranges of the inline code spans of `line` (backtick runs of equal length).
fn code_spans(line: &str) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'`' {
            i += 1;
            continue;
        }
        let open = i;
        while i < b.len() && b[i] == b'`' {
            i += 1;
        }
        let n = i - open;
        // Find a closing run of exactly n backticks.
        let mut j = i;
        let mut close = None;
        while j < b.len() {
            if b[j] == b'`' {
                let s = j;
                while j < b.len() && b[j] == b'`' {
                    j += 1;
                }
                if j - s == n {
                    close = Some((s, j));
                    break;
                }
            } else {
                j += 1;
            }
        }
        match close {
            Some((s, e)) => {
                out.push((i, s));
                i = e;
            }
            None => break,
        }
    }
    out
}

/// What kind of Markdown line this is, tracked across lines.
#[derive(Default)]
struct Blocks {
    /// The open fence: its character and length.
    fence: Option<(char, usize)>,
    prev_blank: bool,
    prev_indented_code: bool,
    in_list: bool,
}

impl Blocks {
    /// Whether `line` is code (a fence line, inside a fence, or indented code).
    fn is_code(&mut self, line: &str) -> bool {
        self.plain(line)
            .unwrap_or_else(|| self.is_code_by_parts(line))
    }

    /// [`Blocks::is_code`] for an empty line, one that starts with a letter or a mark that
    /// opens nothing, or a list item at the margin, else None.
    fn plain(&mut self, line: &str) -> Option<bool> {
        // A blank line: code inside a fence, else code when indented code goes on after it.
        if line.is_empty() {
            if self.fence.is_some() {
                self.prev_blank = false;
                self.prev_indented_code = false;
                return Some(true);
            }
            self.prev_blank = true;
            return Some(self.prev_indented_code);
        }
        // Most lines start with a letter or a mark that opens nothing (no indent, no fence, no
        // list item): the answer is known from the first byte. Any other byte (white space,
        // a control or non-ASCII byte, a fence or list mark, a digit) takes the whole path.
        if let Some(&b) = line.as_bytes().first()
            && b > b' '
            && b < 0x80
            && !matches!(b, b'`' | b'~' | b'-' | b'*' | b'+' | b'0'..=b'9')
        {
            if self.fence.is_none() {
                self.in_list = false;
            }
            self.prev_blank = false;
            self.prev_indented_code = false;
            return Some(self.fence.is_some());
        }
        // A list item at the margin (`- `, `* `, `+ `): code inside a fence, else a list line
        // (no fence mark starts with these bytes).
        if let [b'-' | b'*' | b'+', b' ', ..] = line.as_bytes() {
            self.prev_blank = false;
            self.prev_indented_code = false;
            if self.fence.is_none() {
                self.in_list = true;
            }
            return Some(self.fence.is_some());
        }
        None
    }

    /// [`Blocks::is_code`] from the line's indent, fence and list marks.
    fn is_code_by_parts(&mut self, line: &str) -> bool {
        let trimmed = line.trim_start();
        let indent: usize = line[..line.len() - trimmed.len()]
            .chars()
            .map(|c| if c == '\t' { 4 } else { 1 })
            .sum();
        let fence_of = |t: &str| {
            let c = t.chars().next()?;
            if c != '`' && c != '~' {
                return None;
            }
            let n = t.chars().take_while(|&x| x == c).count();
            (n >= 3).then_some((c, n))
        };
        if let Some((c, n)) = self.fence {
            if let Some((c2, n2)) = fence_of(trimmed)
                && c2 == c
                && n2 >= n
                && trimmed[n2..].trim().is_empty()
            {
                self.fence = None;
            }
            self.prev_blank = false;
            self.prev_indented_code = false;
            return true;
        }
        if let Some(f) = fence_of(trimmed)
            && !(f.0 == '`' && trimmed[f.1..].contains('`'))
        {
            self.fence = Some(f);
            self.prev_blank = false;
            self.prev_indented_code = false;
            return true;
        }
        if trimmed.is_empty() {
            self.prev_blank = true;
            return self.prev_indented_code;
        }
        let list_item = {
            let t = trimmed;
            t.starts_with("- ")
                || t.starts_with("* ")
                || t.starts_with("+ ")
                // A numbered item starts with a digit (looked at first: the search below
                // walks the whole of any other line).
                || t.starts_with(|c: char| c.is_ascii_digit())
                    && t.split_once(['.', ')']).is_some_and(|(n, rest)| {
                    !n.is_empty()
                        && n.len() <= 9
                        && n.chars().all(|c| c.is_ascii_digit())
                        && rest.starts_with(' ')
                })
        };
        let code = indent >= 4
            && (self.prev_blank || self.prev_indented_code)
            && !self.in_list
            && !list_item;
        if !code {
            if list_item {
                self.in_list = true;
            } else if indent == 0 {
                self.in_list = false;
            }
        }
        self.prev_blank = false;
        self.prev_indented_code = code;
        code
    }
}

/// References in `body`, whose first line is `first_line` of the file. `has_folder(name)` says
/// whether the skill folder holds a top-level folder `name`.
pub fn references(
    body: &str,
    first_line: usize,
    has_folder: &dyn Fn(&str) -> bool,
) -> Vec<BodyRef> {
    let mut out: Vec<BodyRef> = Vec::new();
    let mut push = |target: &str, line: usize, kind: RefKind| {
        let target = target
            .split(['#', '?'])
            .next()
            .unwrap_or("")
            .trim()
            .trim_end_matches(['.', ',', ';', ':']);
        let has_first = first_folder(target).is_some_and(has_folder);
        if out.len() >= MAX_REFERENCES
            || target.is_empty()
            || target == "."
            || target == "./"
            || is_external(target)
            || is_placeholder(target, has_first)
            || out.iter().any(|r| r.target == target)
        {
            return;
        }
        out.push(BodyRef {
            target: target.to_string(),
            line,
            kind,
        });
    };
    let mut blocks = Blocks::default();
    for (i, (line, slash, bracket)) in marked_lines(body).enumerate() {
        let n = first_line + i;
        let in_block = blocks.is_code(line);
        // Every finder needs a `/` (a path) or, outside code, a `]` (a link): most lines have
        // neither.
        let bracket = bracket && !in_block;
        if !slash && !bracket {
            continue;
        }
        let mut found = |target: &str, kind: RefKind| push(target, n, kind);
        let var = slash && memchr::memchr3(b'$', b'{', b'<', line.as_bytes()).is_some();
        let taken = if var {
            variable_paths(line, &mut found)
        } else {
            Vec::new()
        };
        if bracket {
            link_targets(line, &mut found);
        }
        if slash {
            let kind = if in_block {
                RefKind::Block
            } else {
                RefKind::Path
            };
            bare_paths(line, &taken, kind, has_folder, &mut found);
        }
    }
    out
}

/// The lines of `text`, as [`str::lines`] gives them (a line ends at `\n` or `\r\n`; no
/// empty last line after a final line end), each with whether it holds a `/` and a `]`: found
/// in one search over the whole text for the three bytes (a search per line costs more to start
/// than it saves on lines this short).
fn marked_lines(text: &str) -> impl Iterator<Item = (&str, bool, bool)> {
    let bytes = text.as_bytes();
    let mut hits = memchr::memchr3_iter(b'\n', b'/', b']', bytes);
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= bytes.len() {
            return None;
        }
        let (mut slash, mut bracket) = (false, false);
        for at in hits.by_ref() {
            match bytes[at] {
                b'/' => slash = true,
                b']' => bracket = true,
                _ => {
                    // `\n` and `\r` are ASCII: every cut is at a char boundary.
                    let line = &text[start..at];
                    start = at + 1;
                    return Some((line.strip_suffix('\r').unwrap_or(line), slash, bracket));
                }
            }
        }
        let line = &text[start..];
        start = bytes.len();
        Some((line, slash, bracket))
    })
}

/// For the tests: [`marked_lines`].
#[doc(hidden)]
pub fn cut_lines(text: &str) -> Vec<(&str, bool, bool)> {
    marked_lines(text).collect()
}

/// For the tests: the run of path characters around the `/` at byte `at` of `line` that the
/// bare-path finder takes ([`path_run`]).
#[doc(hidden)]
pub fn path_run_at(line: &str, at: usize) -> (usize, usize) {
    path_run(line, at)
}

/// For the tests: the lines of `body` as the scanner cuts them, each with whether it is code,
/// told by [`Blocks::is_code`] (`plain`: with its shortcut for plain lines) or by the line's
/// parts alone.
#[doc(hidden)]
pub fn code_lines(body: &str, plain: bool) -> Vec<(&str, bool)> {
    let mut blocks = Blocks::default();
    marked_lines(body)
        .map(|(l, _, _)| {
            let code = if plain {
                blocks.is_code(l)
            } else {
                blocks.is_code_by_parts(l)
            };
            (l, code)
        })
        .collect()
}

/// Paths after a skill-folder variable: `${NAME}/…`, `$NAME/…`, `{NAME}/…`, `<NAME>/…`.
/// Returns the spans they take (placeholders included), which bare paths skip.
fn variable_paths(line: &str, found: &mut dyn FnMut(&str, RefKind)) -> Vec<(usize, usize)> {
    let mut taken: Vec<(usize, usize)> = Vec::new();
    // Only the ASCII bytes `$`, `{` and `<` can start a variable (and are char boundaries).
    let starts = line
        .bytes()
        .enumerate()
        .filter(|(_, b)| matches!(b, b'$' | b'{' | b'<'));
    for (at, b) in starts {
        let c = b as char;
        let rest = &line[at..];
        let (name, len) = match c {
            '$' if rest[1..].starts_with('{') => match rest.find('}') {
                Some(e) => (rest[2..e].split([':', '-']).next().unwrap_or(""), e + 1),
                None => continue,
            },
            '$' => {
                let e = rest[1..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(rest.len(), |e| e + 1);
                (&rest[1..e], e)
            }
            '{' | '<' => {
                let close = if c == '{' { '}' } else { '>' };
                match rest.find(close) {
                    Some(e) if at == 0 || !line[..at].ends_with('$') => (&rest[1..e], e + 1),
                    _ => continue,
                }
            }
            _ => continue,
        };
        if name.is_empty() || !is_skill_dir_variable(name) {
            continue;
        }
        let after = &rest[len..];
        let Some(path) = after.strip_prefix('/') else {
            continue;
        };
        let end = path.find(|c: char| !path_char(c)).unwrap_or(path.len());
        taken.push((at, at + len + 1 + end));
        // `${CLAUDE_SKILL_DIR}/scripts/<name>.py`: a placeholder.
        if path[end..].starts_with(['<', '{', '*', '[', '$']) {
            continue;
        }
        found(&path[..end], RefKind::SkillDir);
    }
    taken
}

/// Markdown links, images and link reference definitions (outside code blocks and spans).
fn link_targets(line: &str, found: &mut dyn FnMut(&str, RefKind)) {
    let spans = code_spans(line);
    let in_span = |at: usize| spans.iter().any(|&(s, e)| at >= s && at < e);
    let def = line
        .trim_start()
        .strip_prefix('[')
        .and_then(|t| t.split_once("]:"))
        .filter(|(label, _)| !label.is_empty() && !label.contains(']'))
        .map(|(_, t)| t.trim());
    if let Some(t) = def
        && line.len() - line.trim_start().len() <= 3
    {
        let t = t.split_whitespace().next().unwrap_or("");
        found(
            t.trim_start_matches('<').trim_end_matches('>'),
            RefKind::Link,
        );
    }
    let mut from = 0;
    while let Some(rel) = line[from..].find("](") {
        let at = from + rel;
        let after = &line[at + 2..];
        let Some(end) = after.find(')') else { break };
        from = at + 2 + end;
        if in_span(at) {
            continue;
        }
        let inner = after[..end].trim();
        let target = if let Some(t) = inner.strip_prefix('<') {
            t.split('>').next().unwrap_or("")
        } else {
            inner.split_whitespace().next().unwrap_or("")
        };
        found(target, RefKind::Link);
    }
}

/// The maximal run of path characters around the `/` at byte `at` of `line`: its start and end.
/// Byte by byte while the bytes are ASCII (each one char), char by char from the first
/// non-ASCII byte on (a run may hold letters of any script).
fn path_run(line: &str, at: usize) -> (usize, usize) {
    let b = line.as_bytes();
    let mut start = at;
    while start > 0 && path_byte(b[start - 1]) {
        start -= 1;
    }
    if start > 0 && b[start - 1] >= 0x80 {
        start = line[..start]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| path_char(c))
            .last()
            .map_or(start, |(j, _)| j);
    }
    // `/` is a path character: the run ends after it.
    let mut end = at;
    while end < b.len() && path_byte(b[end]) {
        end += 1;
    }
    if end < b.len() && b[end] >= 0x80 {
        end = line[end..]
            .char_indices()
            .find(|&(_, c)| !path_char(c))
            .map_or(line.len(), |(j, _)| end + j);
    }
    (start, end)
}

/// Bare paths: maximal runs of path characters whose first folder the skill has, naming a file
/// (with an extension) or a folder (`dir/`).
fn bare_paths(
    line: &str,
    taken: &[(usize, usize)],
    kind: RefKind,
    has_folder: &dyn Fn(&str) -> bool,
    found: &mut dyn FnMut(&str, RefKind),
) {
    // Each token is a run of path characters holding a `/`: found from its `/`s (most of a
    // line is not a token), each run once, left to right.
    let mut from = 0;
    while let Some(i) = line[from..].find('/') {
        let at = from + i;
        let (start, end) = path_run(line, at);
        from = end;
        let prev = line[..start].chars().last();
        let next = line[end..].chars().next();
        let token = line[start..end].trim_end_matches('.');
        // Part of a link target, a URL, a variable's path, a placeholder or a word.
        if line[..start].ends_with("](")
            || taken.iter().any(|&(s, e)| start >= s && start < e)
            || matches!(
                prev,
                Some('$' | '}' | ':' | '@' | '~' | '<' | '{' | '%' | '\\')
            )
            || matches!(next, Some('<' | '{' | '*' | '[' | '$' | '(' | ':'))
        {
            continue;
        }
        let Some(first) = first_folder(token) else {
            continue;
        };
        // `schemas/templates` in prose is two words; `references/Skill Card.txt` was cut at a
        // space: a bare path names a file (with an extension) or a folder (`dir/`).
        if !has_folder(first) || !file_like(token) {
            continue;
        }
        found(token, kind);
    }
}
