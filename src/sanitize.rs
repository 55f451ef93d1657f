//! Making untrusted text (from skill files, folder names, paths) safe for a terminal.
//!
//! Control characters (C0, DEL, C1 — which start ANSI CSI/OSC sequences, clipboard writes and
//! cursor moves), bidirectional overrides and zero-width characters are replaced by a visible
//! `\u{…}` escape, so a skill can neither drive the terminal nor disguise its text. JSON output
//! keeps the original text (serde escapes it); only text meant for a terminal passes here.

use std::borrow::Cow;
use std::fmt::Write;

/// Characters that must not reach a terminal as they are.
pub fn is_unsafe(c: char, keep_newlines: bool) -> bool {
    match c {
        '\n' => !keep_newlines,
        '\t' => false,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        // Bidi marks, embeddings, overrides and isolates.
        '\u{061c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}' => true,
        // Zero-width space/joiners, word joiner and invisible operators, BOM.
        '\u{200b}'..='\u{200d}' | '\u{2060}'..='\u{2064}' | '\u{feff}' => true,
        // Line and paragraph separators.
        '\u{2028}' | '\u{2029}' => true,
        _ => false,
    }
}

fn escape(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    if !s.chars().any(|c| is_unsafe(c, keep_newlines)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c, keep_newlines) {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                _ => {
                    let _ = write!(out, "\\u{{{:x}}}", c as u32);
                }
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// For one line of terminal output: every unsafe character, newlines included, escaped.
pub fn line(s: &str) -> Cow<'_, str> {
    escape(s, false)
}

/// For multi-line terminal output: newlines kept, everything else unsafe escaped.
pub fn text(s: &str) -> Cow<'_, str> {
    escape(s, true)
}

/// `s` as text, as `OsStr::to_string_lossy` gives it: borrowed when it is UTF-8, which is
/// checked faster than `to_string_lossy` decodes it (a folder name per agent and file).
pub fn lossy(s: &std::ffi::OsStr) -> Cow<'_, str> {
    match s.to_str() {
        Some(t) => Cow::Borrowed(t),
        None => s.to_string_lossy(),
    }
}

/// A path for terminal output (lossy for non-UTF-8 names, then escaped).
pub fn path(p: &std::path::Path) -> String {
    line(&lossy(p.as_os_str())).into_owned()
}

/// Serde helpers that write paths as strings, lossily for non-UTF-8 names (JSON has no bytes).
pub mod lossy_path {
    use serde::Serializer;
    use std::path::{Path, PathBuf};

    pub fn path<S: Serializer>(p: &Path, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::lossy(p.as_os_str()))
    }

    pub fn opt<S: Serializer>(p: &Option<PathBuf>, s: S) -> Result<S::Ok, S::Error> {
        match p {
            Some(p) => s.serialize_str(&super::lossy(p.as_os_str())),
            None => s.serialize_none(),
        }
    }

    pub fn vec<S: Serializer>(v: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|p| super::lossy(p.as_os_str())))
    }
}
