//! Search: fuzzy (nucleo-matcher) over a skill's name and path, and by words over its
//! description; the matched characters of a name for highlighting.
//!
//! A fuzzy subsequence over a description of hundreds of characters matches nearly any query
//! (and costs most of the time at 10k skills), so descriptions are matched by words instead: a
//! skill whose name and path do not match is kept when every word of the query occurs in its
//! description (ignoring case), ranked after every name or path match.

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
    /// The query's words, lowercased (for descriptions).
    words: Vec<String>,
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
        self.words = q.split_whitespace().map(str::to_lowercase).collect();
        self.query = q;
    }

    fn with_matcher<R>(&self, f: impl FnOnce(&mut Matcher) -> R) -> R {
        let mut m = self.matcher.borrow_mut();
        let m = m.get_or_insert_with(|| Matcher::new(Config::DEFAULT.match_paths()));
        f(m)
    }

    /// The score of a skill: nucleo's score for `name_path` (name and shown path) when it
    /// matches; else 0 when every word of the query occurs in `description` (lowercased); None
    /// when neither.
    pub fn score(&self, name_path: &str, description: &str) -> Option<u32> {
        let p = self.pattern.as_ref()?;
        let mut buf = Vec::new();
        let fuzzy = self.with_matcher(|m| p.score(Utf32Str::new(name_path, &mut buf), m));
        match fuzzy {
            Some(s) => Some(s.max(1)),
            None if !self.words.is_empty()
                && self.words.iter().all(|w| description.contains(w.as_str())) =>
            {
                Some(0)
            }
            None => None,
        }
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

#[cfg(test)]
mod tests {
    use super::Search;

    #[test]
    fn names_and_paths_fuzzily_descriptions_by_words_ranked_after() {
        let mut s = Search::default();
        s.set_query("deploy stag".into());
        // Fuzzy over name and path: a name match scores at least 1.
        let name = s.score("deploy-staging .claude/skills/deploy-staging/SKILL.md", "");
        assert!(name.is_some_and(|v| v >= 1), "{name:?}");
        // Every word in the description (ignoring case; descriptions come lowercased): 0.
        assert_eq!(
            s.score(
                "ship-it .claude/skills/ship-it/SKILL.md",
                "deploy to staging"
            ),
            Some(0)
        );
        // One word missing: no match, though a fuzzy subsequence of the description exists.
        assert_eq!(
            s.score(
                "ship-it .claude/skills/ship-it/SKILL.md",
                "deploy to the server, it takes a long time"
            ),
            None
        );
        s.set_query("  ".into());
        assert_eq!(s.score("anything", "anything"), None);
    }
}
