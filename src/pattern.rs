//! The agents' pattern dialects, compiled once onto maintained matchers.
//!
//! - Name patterns in settings ([`NamePattern`], the dialects of [`Wildcards`]): translated into
//!   an anchored regular expression the way OpenCode's own `Wildcard.match` does it (`*` → `.*`,
//!   `?` → `.`, everything else literal, `.` matching line ends too) and run by the `regex`
//!   crate, so `?` is one character of a non-ASCII name, as in the agent.
//! - Ignore files inside a skills root ([`ignored_by`], pi's `.gitignore`, `.ignore`,
//!   `.fdignore`): the `ignore` crate's gitignore matcher (ripgrep's, on `globset`), applied
//!   top-down the way a walk applies it: a folder an ignore file excludes hides everything below
//!   it, and a later `!` pattern cannot re-include a file under it (git's rule, and the `ignore`
//!   npm package's that pi uses).

use crate::agents::Wildcards;
use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use regex::Regex;
use std::path::Path;

/// A name pattern of a setting, in its agent's wildcard dialect.
#[derive(Debug, Clone)]
pub struct NamePattern {
    source: String,
    wildcards: Wildcards,
    /// None when the pattern is too large to compile: it then matches nothing.
    re: Option<Regex>,
}

impl PartialEq for NamePattern {
    fn eq(&self, other: &NamePattern) -> bool {
        self.source == other.source && self.wildcards == other.wildcards
    }
}

impl NamePattern {
    /// Compiles `pattern` in the dialect `wildcards`.
    pub fn new(wildcards: Wildcards, pattern: &str) -> NamePattern {
        let mut re = String::from("(?s)^");
        let body = match wildcards {
            Wildcards::Star => pattern.to_string(),
            Wildcards::StarQuestion => pattern.replace('\\', "/"),
        };
        // StarQuestion: a trailing ` *` is optional (`git *` also matches `git`).
        let (body, optional_tail) = match wildcards {
            Wildcards::StarQuestion => match body.strip_suffix(" *") {
                Some(head) => (head.to_string(), true),
                None => (body, false),
            },
            Wildcards::Star => (body, false),
        };
        let mut literal = String::new();
        for c in body.chars() {
            let token = match (c, wildcards) {
                ('*', _) => ".*",
                ('?', Wildcards::StarQuestion) => ".",
                _ => {
                    literal.push(c);
                    continue;
                }
            };
            re.push_str(&regex::escape(&literal));
            literal.clear();
            re.push_str(token);
        }
        re.push_str(&regex::escape(&literal));
        if optional_tail {
            re.push_str("(?: .*)?");
        }
        re.push('$');
        NamePattern {
            source: pattern.to_string(),
            wildcards,
            re: Regex::new(&re).ok(),
        }
    }

    /// The pattern as the settings file wrote it.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Its dialect.
    pub fn wildcards(&self) -> Wildcards {
        self.wildcards
    }

    /// Whether `text` (a skill's name) matches.
    pub fn matches(&self, text: &str) -> bool {
        let Some(re) = &self.re else {
            return false;
        };
        match self.wildcards {
            Wildcards::StarQuestion if text.contains('\\') => re.is_match(&text.replace('\\', "/")),
            _ => re.is_match(text),
        }
    }
}

/// The pattern of an ignore file that excludes `rel` (a file's path relative to the ignore
/// file's folder), in gitignore's rules: the last matching pattern decides, `!` re-includes, a
/// trailing `/` matches folders only, a pattern with an inner or leading `/` is anchored to the
/// ignore file's folder, `*` and `?` stay within one folder name, `**` crosses folders,
/// `[a-z]` is a class. Folders are decided before what they hold: a file under an excluded
/// folder stays excluded whatever later patterns say. Lines that are not valid globs are
/// skipped.
pub fn ignored_by<'a>(patterns: &'a [String], rel: &Path) -> Option<&'a str> {
    IgnoreMatcher::new(patterns).ignores(patterns, rel)
}

/// An ignore file's patterns compiled once, to ask of many paths ([`ignored_by`]'s rules).
#[derive(Debug, Clone)]
pub struct IgnoreMatcher {
    /// None: the matcher could not be built (then nothing is ignored).
    gi: Option<Gitignore>,
}

impl IgnoreMatcher {
    pub fn new(patterns: &[String]) -> IgnoreMatcher {
        let mut b = GitignoreBuilder::new("");
        for p in patterns {
            // An invalid line (an unclosed `[`) is skipped, the way git skips it.
            let _ = b.add_line(None, p);
        }
        IgnoreMatcher { gi: b.build().ok() }
    }

    /// The pattern of `patterns` (the ones this matcher was made from) that excludes `rel`.
    pub fn ignores<'a>(&self, patterns: &'a [String], rel: &Path) -> Option<&'a str> {
        let gi = self.gi.as_ref()?;
        let hit = |m: Match<&ignore::gitignore::Glob>| match m {
            Match::Ignore(g) => Some(
                patterns
                    .iter()
                    .map(String::as_str)
                    .rfind(|p| *p == g.original() || p.trim_end() == g.original())
                    .unwrap_or_else(|| patterns.last().map_or("", String::as_str)),
            ),
            _ => None,
        };
        let comps: Vec<&std::ffi::OsStr> = rel.components().map(|c| c.as_os_str()).collect();
        let mut prefix = std::path::PathBuf::new();
        for (i, c) in comps.iter().enumerate() {
            prefix.push(c);
            let is_dir = i + 1 < comps.len();
            if let Some(p) = hit(gi.matched(&prefix, is_dir)) {
                return Some(p);
            }
        }
        None
    }
}

/// The pattern that excludes `rel` (a path relative to the skills root) when the ignore `files`
/// ((folder relative to the root, lines), shallowest first) feed one matcher for the whole root,
/// each line with its folder in front after one leading `/` is dropped (`!` and `\!` kept in
/// front), the way pi's `prefixIgnorePattern` feeds the `ignore` npm package. Returns the index
/// of the file and the line as that file wrote it.
pub fn ignored_by_prefixed<'a>(
    files: &[(&Path, &'a [String])],
    rel: &Path,
) -> Option<(usize, &'a str)> {
    let mut lines: Vec<String> = Vec::new();
    let mut origin: Vec<(usize, &'a str)> = Vec::new();
    for (i, (dir, patterns)) in files.iter().enumerate() {
        let prefix = dir
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .map(|c| c + "/")
            .collect::<String>();
        for p in patterns.iter() {
            let (neg, body) = match (p.strip_prefix('!'), p.strip_prefix("\\!")) {
                (Some(b), _) => ("!", b),
                (None, Some(_)) => ("", &p[1..]),
                _ => ("", p.as_str()),
            };
            let body = body.strip_prefix('/').unwrap_or(body);
            lines.push(format!("{neg}{prefix}{body}"));
            origin.push((i, p.as_str()));
        }
    }
    let hit = ignored_by(&lines, rel)?;
    let at = lines.iter().position(|l| std::ptr::eq(l.as_str(), hit))?;
    Some(origin[at])
}

/// Whether `text` matches `pattern` in the wildcard dialect `w` (compiles the pattern; keep a
/// [`NamePattern`] to match many names).
pub fn wildcards_match(w: Wildcards, pattern: &str, text: &str) -> bool {
    NamePattern::new(w, pattern).matches(text)
}
