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

#[cfg(test)]
mod tests {
    use super::{EXACT_NAME, Haystack, NAME_PREFIX, Search, compact};

    fn search(q: &str) -> Search {
        let mut s = Search::default();
        s.set_query(q.into());
        s
    }

    fn h(name: &str, description: &str) -> Haystack {
        Haystack::new(
            name,
            &format!(".agents/skills/{name}/SKILL.md"),
            description,
        )
    }

    /// The names of `skills` that match, best first (ties by name).
    fn ranked<'a>(q: &str, skills: &'a [Haystack]) -> Vec<&'a str> {
        let s = search(q);
        let mut m: Vec<(u32, &str)> = skills
            .iter()
            .filter_map(|h| Some((s.score(h)?, h.name.as_str())))
            .collect();
        m.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        m.into_iter().map(|(_, n)| n).collect()
    }

    #[test]
    fn exact_then_prefix_names_first() {
        let skills = [
            h("pdf-processing", "Work with PDF files"),
            h("nutrient-pdf", "pdf tools"),
            h("pdf", "Fill PDF forms, merge and split"),
            h("docs", "make pdf from markdown"),
            h("spdf", "an unrelated tool"),
        ];
        assert_eq!(
            ranked("pdf", &skills),
            ["pdf", "pdf-processing", "nutrient-pdf", "spdf", "docs"]
        );
        let exact = search("PDF").score(&skills[2]).unwrap();
        assert!(exact >= EXACT_NAME, "{exact}");
        let prefix = search("pdf").score(&skills[0]).unwrap();
        assert!((NAME_PREFIX..EXACT_NAME).contains(&prefix), "{prefix}");
    }

    #[test]
    fn every_word_must_match_over_name_and_description() {
        let skills = [
            h(
                "pdf",
                "Comprehensive PDF toolkit. Use it to fill in PDF forms or merge documents",
            ),
            h("forms", "Build web forms"),
            h("fill-helper", "fill things"),
            h("pdf-tools", "Read PDF files; fill in forms"),
        ];
        // `pdf` is the whole name and `fill`, `forms` are words of the description: the best
        // match; the name that starts with `pdf` next; names holding only `fill` or `forms`
        // lack the other words.
        assert_eq!(ranked("fill pdf forms", &skills), ["pdf", "pdf-tools"]);
        // One word missing everywhere: no match.
        assert_eq!(ranked("fill pdf spreadsheets", &skills), Vec::<&str>::new());
        // A plural in the query finds the singular in a description, below the plural.
        let singular = h("pdf-kit", "Fill a PDF form");
        let plural = h("pdf-box", "Fill PDF forms");
        let s = search("fill pdf forms");
        assert!(s.score(&singular).unwrap() < s.score(&plural).unwrap());
        // Case is ignored.
        assert_eq!(ranked("FILL Pdf", &skills), ["pdf", "pdf-tools"]);
    }

    #[test]
    fn scattered_fuzzy_matches_do_not_count() {
        assert!(compact(&[3, 4, 5]));
        assert!(compact(&[3, 4, 6, 7]));
        assert!(compact(&[0, 1, 4, 5]));
        assert!(!compact(&[0, 1, 5, 6]), "three letters skipped");
        assert!(!compact(&[0, 2, 4]), "three runs");
        assert!(!compact(&[]));
        let s = search("fill");
        // `f…i…l…l` scattered over a path: no match.
        let scattered = Haystack::new(
            "x",
            ".agents/skills/frontend-design-lint-tool/scripts/lib/SKILL.md",
            "",
        );
        assert_eq!(s.score(&scattered), None);
        // Compact in a path (a folder named `fill-in`): a match, below a description word.
        let in_path = Haystack::new("x", "skills/fill-in/x/SKILL.md", "");
        let in_description = Haystack::new("y", "skills/y/SKILL.md", "fill forms");
        let (p, d) = (
            s.score(&in_path).unwrap(),
            s.score(&in_description).unwrap(),
        );
        assert!(d > p, "{d} > {p}");
        // Compact fuzzy in a name (one letter skipped) beats the description; a scattered one
        // (three runs) does not count.
        assert_eq!(search("dply").score(&h("deploy", "")), None);
        let abbreviated = search("dploy");
        let fuzzy = abbreviated.score(&h("deploy", "")).unwrap();
        let described = abbreviated.score(&h("ship", "dploy it")).unwrap();
        assert!(fuzzy > described, "{fuzzy} > {described}");
    }

    #[test]
    fn grown_queries_match_a_subset() {
        // The explorer narrows a grown query from the last one's matches: check it on names,
        // descriptions and paths that exercise every kind of match.
        let skills = [
            h("deploy-staging", "Ship to staging"),
            h("dply", ""),
            h("ship-it", "deploy to the staging server"),
            Haystack::new("x", "skills/de-ploy/SKILL.md", ""),
            h("pdf", "fill forms"),
        ];
        let query = "deploy stag";
        for k in 1..query.len() {
            let (short, long) = (search(&query[..k]), search(&query[..=k]));
            for sk in &skills {
                if long.score(sk).is_some() {
                    assert!(
                        short.score(sk).is_some(),
                        "{:?} ⊄ {:?}: {sk:?}",
                        &query[..=k],
                        &query[..k]
                    );
                }
            }
        }
    }

    #[test]
    fn hits_mark_the_name_letters() {
        let s = search("stag dep");
        assert_eq!(s.hits("Deploy-Staging"), [0, 1, 2, 7, 8, 9, 10]);
        assert!(search("zzz").hits("deploy").is_empty());
        assert!(search("").hits("deploy").is_empty());
        assert_eq!(search("  ").score(&h("anything", "anything")), None);
    }
}
