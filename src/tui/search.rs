//! Fuzzy search with nucleo-matcher: a score for a haystack, and the matched characters of a
//! name for highlighting.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use std::cell::RefCell;

#[derive(Default)]
pub struct Search {
    /// The query as typed.
    pub query: String,
    /// The search line has the keyboard.
    pub editing: bool,
    pattern: Option<Pattern>,
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

impl Search {
    pub fn set_query(&mut self, q: String) {
        self.pattern = if q.trim().is_empty() {
            None
        } else {
            Some(Pattern::parse(
                &q,
                CaseMatching::Smart,
                Normalization::Smart,
            ))
        };
        self.query = q;
    }

    fn with_matcher<R>(&self, f: impl FnOnce(&mut Matcher) -> R) -> R {
        let mut m = self.matcher.borrow_mut();
        let m = m.get_or_insert_with(|| Matcher::new(Config::DEFAULT.match_paths()));
        f(m)
    }

    /// The score of `haystack`, None when it does not match.
    pub fn score(&self, haystack: &str) -> Option<u32> {
        let p = self.pattern.as_ref()?;
        let mut buf = Vec::new();
        self.with_matcher(|m| p.score(Utf32Str::new(haystack, &mut buf), m))
    }

    /// Character indices of `text` that the query matches (empty when it does not match).
    pub fn hits(&self, text: &str) -> Vec<u32> {
        let Some(p) = self.pattern.as_ref() else {
            return Vec::new();
        };
        let mut buf = Vec::new();
        let mut idx = Vec::new();
        self.with_matcher(|m| {
            if p.indices(Utf32Str::new(text, &mut buf), m, &mut idx)
                .is_none()
            {
                idx.clear();
            }
        });
        idx.sort_unstable();
        idx.dedup();
        idx
    }
}
