//! Files a SKILL.md body refers to: Markdown links and bare relative paths such as
//! `references/setup-guide.md` or `scripts/run.sh` (in text or code).

/// The folders skills conventionally bundle (the spec's `scripts/`, `references/`, `assets/`).
pub const CONVENTIONAL_DIRS: [&str; 7] = [
    "scripts",
    "references",
    "assets",
    "templates",
    "examples",
    "docs",
    "reference",
];

/// At most this many references are reported per skill.
pub const MAX_REFERENCES: usize = 100;

/// One reference found in a body.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BodyRef {
    /// The path as written (without `#anchor`).
    pub target: String,
    /// 1-based line in the file.
    pub line: usize,
    /// Written as a Markdown link (`[x](target)`), not as a bare path.
    pub link: bool,
}

fn is_external(t: &str) -> bool {
    t.is_empty()
        || t.starts_with('#')
        || t.starts_with('/')
        || t.starts_with('~')
        || t.starts_with('$')
        || t.contains("://")
        || t.starts_with("mailto:")
        || t.contains("${")
}

fn path_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')
}

/// Whether a bare token looks like a path into the skill folder: `dir/…` whose first folder is a
/// conventional one, or ending in a file extension.
fn looks_like_skill_path(t: &str) -> bool {
    let t = t.strip_prefix("./").unwrap_or(t);
    let Some((first, rest)) = t.split_once('/') else {
        return false;
    };
    if first.is_empty() || rest.is_empty() || first == ".." || first.starts_with('.') {
        return false;
    }
    let last = rest.rsplit('/').next().unwrap_or(rest);
    let has_ext = last.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=5).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
    });
    CONVENTIONAL_DIRS.contains(&first) && (has_ext || rest.ends_with('/'))
        || (has_ext && rest.contains('/'))
}

/// References in `body`, whose first line is `first_line` of the file.
pub fn references(body: &str, first_line: usize) -> Vec<BodyRef> {
    let mut out: Vec<BodyRef> = Vec::new();
    let push = |target: &str, line: usize, link: bool, out: &mut Vec<BodyRef>| {
        let target = target.split('#').next().unwrap_or("").trim();
        if out.len() < MAX_REFERENCES
            && !is_external(target)
            && !out.iter().any(|r| r.target == target)
        {
            out.push(BodyRef {
                target: target.to_string(),
                line,
                link,
            });
        }
    };
    for (i, line) in body.lines().enumerate() {
        let n = first_line + i;
        // Markdown links: [text](target "title")
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let inner = after[..end].trim();
            let target = inner.split_whitespace().next().unwrap_or("");
            let target = target.trim_start_matches('<').trim_end_matches('>');
            if !target.is_empty() {
                push(target, n, true, &mut out);
            }
            rest = &after[end..];
        }
        // Bare paths in text and code: maximal runs of path characters.
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        let mut k = 0;
        while k < chars.len() {
            if !path_char(chars[k].1) {
                k += 1;
                continue;
            }
            let start = chars[k].0;
            let preceded_by_link = start >= 2 && line[..start].ends_with("](");
            let prev = line[..start].chars().last();
            while k < chars.len() && path_char(chars[k].1) {
                k += 1;
            }
            let end = if k < chars.len() {
                chars[k].0
            } else {
                line.len()
            };
            let token = line[start..end].trim_end_matches(['.', '/']);
            let token = if line[start..end].ends_with('/') && !token.is_empty() {
                &line[start..end.min(start + token.len() + 1)]
            } else {
                token
            };
            // A path that is part of a URL or a variable is not bare.
            if preceded_by_link || matches!(prev, Some('$' | '}' | ':' | '@' | '~')) {
                continue;
            }
            if looks_like_skill_path(token) {
                push(token, n, false, &mut out);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_bare_paths() {
        let body = "# T\nSee [the guide](references/guide.md#setup) and https://x.y/a/b.md.\nRun `python scripts/extract.py FILE`.\nUse ${CLAUDE_SKILL_DIR}/scripts/ok.sh and ./assets/logo.png.\n";
        let refs = references(body, 5);
        let targets: Vec<&str> = refs.iter().map(|r| r.target.as_str()).collect();
        assert_eq!(
            targets,
            [
                "references/guide.md",
                "scripts/extract.py",
                "./assets/logo.png"
            ]
        );
        assert_eq!(refs[0].line, 6);
        assert!(refs[0].link && !refs[1].link);
    }
}
