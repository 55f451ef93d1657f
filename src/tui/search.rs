//! Search: the query's words, each of which must match somewhere in a skill (its name, its
//! description, or compactly its path), ranked so that exact and prefix name matches come first;
//! the matched characters of a name for highlighting.
//!
//! Ranking, best first:
//! 1. the whole query is the name (ignoring case), then the name starts with it;
//! 2. per word, the best place it matches: the name (a whole name part, the start of the name
//!    or of a part, inside it, then a compact fuzzy match), the description (a whole word, the
//!    start of a word, inside one, a plural's singular), the shown path (compactly; see
//!    [`compact`]); the skill's
//!    score is the sum over the words.
//!
//! A fuzzy subsequence of a long text matches nearly any query (`fill pdf forms` has a
//! scattered match in most paths), so fuzzy matches only count when they are compact: at most
//! two runs of consecutive letters with at most two letters skipped between them. A word that
//! grows keeps every compact match it had only if it still has one, and a query that grows
//! only ever matches fewer skills, so the explorer narrows a grown query from the last one's
//! matches.

use nucleo_matcher::pattern::{Atom, AtomKind, CaseMatching, Normalization};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use std::cell::RefCell;

/// What a skill is searched by, made once per snapshot: its name, shown path and description,
/// lowercased.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Haystack {
    pub name: String,
    pub path: String,
    pub description: String,
}

impl Haystack {
    pub fn new(name: &str, path: &str, description: &str) -> Haystack {
        Haystack {
            name: name.to_lowercase(),
            path: path.to_lowercase(),
            description: description.to_lowercase(),
        }
    }
}

/// The whole query is the name.
pub const EXACT_NAME: u32 = 1_000_000;
/// The name starts with the whole query.
pub const NAME_PREFIX: u32 = 500_000;

#[derive(Default)]
pub struct Search {
    /// The query as typed.
    pub query: String,
    /// The search line has the keyboard.
    pub editing: bool,
    /// The query's words, lowercased.
    words: Vec<String>,
    /// One fuzzy atom per word (for names and paths).
    atoms: Vec<Atom>,
    /// The query trimmed and lowercased, its words joined by one space.
    whole: String,
    matcher: RefCell<Option<Matcher>>,
}

impl std::fmt::Debug for Search {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search")
            .field("query", &self.query)
            .field("editing", &self.editing)
            .finish()
    }
}

/// Whether sorted match indices are compact: one run of consecutive characters, or two runs
/// with at most two characters skipped between them.
pub fn compact(indices: &[u32]) -> bool {
    let (Some(first), Some(last)) = (indices.first(), indices.last()) else {
        return false;
    };
    let runs = 1 + indices.windows(2).filter(|w| w[1] != w[0] + 1).count();
    let skipped = (last - first + 1) as usize - indices.len();
    runs <= 2 && skipped <= 2
}

/// Whether `text[at..]` starts a word (the text's start, or after a character that is not a
/// letter or digit).
fn word_start(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .next_back()
        .is_none_or(|c| !c.is_alphanumeric())
}

/// Whether `text[at..at + len]` ends a word.
fn word_end(text: &str, end: usize) -> bool {
    text[end..]
        .chars()
        .next()
        .is_none_or(|c| !c.is_alphanumeric())
}

/// The best of the word matches of `w` in `text`: 3 a whole word, 2 a word's start, 1 inside a
/// word, None no occurrence.
fn best_occurrence(text: &str, w: &str) -> Option<u8> {
    let mut best = None;
    for (at, _) in text.match_indices(w) {
        let start = word_start(text, at);
        let q = match (start, word_end(text, at + w.len())) {
            (true, true) => return Some(3),
            (true, false) => 2,
            _ => 1,
        };
        best = best.max(Some(q));
    }
    best
}

impl Search {
    pub fn set_query(&mut self, q: String) {
        self.words = q.split_whitespace().map(str::to_lowercase).collect();
        self.whole = self.words.join(" ");
        self.atoms = self
            .words
            .iter()
            .map(|w| {
                Atom::new(
                    w,
                    CaseMatching::Ignore,
                    Normalization::Smart,
                    AtomKind::Fuzzy,
                    false,
                )
            })
            .collect();
        self.query = q;
    }

    /// Whether the query has words to match.
    pub fn active(&self) -> bool {
        !self.words.is_empty()
    }

    fn with_matcher<R>(&self, f: impl FnOnce(&mut Matcher) -> R) -> R {
        let mut m = self.matcher.borrow_mut();
        let m = m.get_or_insert_with(|| Matcher::new(Config::DEFAULT.match_paths()));
        f(m)
    }

    /// Word `i`'s compact fuzzy match in `text`: nucleo's score, the indices in `idx`.
    fn compact_fuzzy(&self, i: usize, text: &str, idx: &mut Vec<u32>) -> Option<u16> {
        let mut buf = Vec::new();
        idx.clear();
        let score =
            self.with_matcher(|m| self.atoms[i].indices(Utf32Str::new(text, &mut buf), m, idx))?;
        idx.sort_unstable();
        idx.dedup();
        compact(idx).then_some(score)
    }

    /// How well word `i` matches the skill; None when it matches nowhere.
    fn word_score(&self, i: usize, h: &Haystack, idx: &mut Vec<u32>) -> Option<u32> {
        let w = self.words[i].as_str();
        // The name: the whole name, a whole part, the start of the name or of a part, inside.
        if h.name == w {
            return Some(1000);
        }
        if h.name.starts_with(w) {
            return Some(if word_end(&h.name, w.len()) { 900 } else { 800 });
        }
        match best_occurrence(&h.name, w) {
            Some(3) => return Some(900),
            Some(2) => return Some(700),
            Some(_) => return Some(500),
            None => {}
        }
        if let Some(s) = self.compact_fuzzy(i, &h.name, idx) {
            return Some(300 + u32::from(s).min(99));
        }
        // The description by words, then the path compactly.
        let description = match best_occurrence(&h.description, w) {
            Some(3) => Some(90),
            Some(2) => Some(80),
            Some(_) => Some(40),
            // A plural's singular (`forms` for `PDF form`), lower.
            None => w
                .strip_suffix('s')
                .filter(|stem| stem.chars().count() >= 3)
                .and_then(|stem| best_occurrence(&h.description, stem))
                .map(|q| if q >= 2 { 60 } else { 30 }),
        };
        if description >= Some(80) {
            return description;
        }
        let path = self
            .compact_fuzzy(i, &h.path, idx)
            .map(|s| 50 + u32::from(s).min(9));
        description.max(path)
    }

    /// The score of a skill, higher is better; None when a word of the query matches nowhere
    /// (or the query is empty).
    pub fn score(&self, h: &Haystack) -> Option<u32> {
        if self.words.is_empty() {
            return None;
        }
        let mut idx = Vec::new();
        let mut total: u32 = 0;
        for i in 0..self.words.len() {
            total = total.saturating_add(self.word_score(i, h, &mut idx)?);
        }
        if h.name == self.whole {
            total = total.saturating_add(EXACT_NAME);
        } else if h.name.starts_with(&self.whole) {
            total = total.saturating_add(NAME_PREFIX);
        }
        Some(total)
    }

    /// Character indices of `name` that the query's words match in it (each word's first
    /// occurrence ignoring case, else its compact fuzzy match); empty when none does.
    pub fn hits(&self, name: &str) -> Vec<u32> {
        let mut out = Vec::new();
        let mut idx = Vec::new();
        for i in 0..self.words.len() {
            if self.compact_fuzzy(i, name, &mut idx).is_some() {
                out.extend_from_slice(&idx);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}
