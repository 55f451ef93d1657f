//! The unit tests of `skilltui::pattern` (`src/pattern.rs`).

use skilltui::agents::Wildcards::{Star, StarQuestion};
use skilltui::pattern::{ignored_by, wildcards_match as m};
use std::path::Path;

/// The `star` dialect (the default of pattern settings): `*` is any run of characters, line
/// ends included; everything else literal.
#[test]
fn star_dialect() {
    assert!(m(Star, "no-*", "no-thanks") && m(Star, "no-*", "no-"));
    assert!(m(Star, "*", "") && m(Star, "*", "a/b\\c"));
    assert!(m(Star, "*-x-*", "a-x-b") && !m(Star, "*-x-*", "a-y-b"));
    assert!(!m(Star, "a?", "ab") && m(Star, "a?", "a?"));
    assert!(m(Star, "a.c", "a.c") && !m(Star, "a.c", "abc"));
    assert!(m(Star, "[ab]", "[ab]") && !m(Star, "[ab]", "a"));
    assert!(m(Star, "a*", "a\nb"), "a star runs over line ends");
    assert!(!m(Star, "Deploy", "deploy"), "case matters");
    assert!(m(Star, "é*", "école") && !m(Star, "é*", "ecole"));
}

/// OpenCode's `star-question`: `*` any run (so `**` is `*`), `?` one character, `\` is `/`,
/// a trailing ` *` optional.
#[test]
fn star_question_dialect() {
    assert!(m(StarQuestion, "a?", "ab") && !m(StarQuestion, "a?", "abc"));
    assert!(!m(StarQuestion, "a?", "a"));
    assert!(m(StarQuestion, "a**", "abc") && m(StarQuestion, "**", ""));
    assert!(m(StarQuestion, "*-review", "code-review"));
    assert!(!m(StarQuestion, "*-review", "code-reviews"));
    assert!(m(StarQuestion, "git *", "git") && m(StarQuestion, "git *", "git status"));
    assert!(!m(StarQuestion, "git *", "gitx"));
    assert!(m(StarQuestion, "a\\b", "a/b") && m(StarQuestion, "a/b", "a\\b"));
    assert!(
        m(StarQuestion, "é?", "éà"),
        "? is one character, not one byte"
    );
    assert!(
        m(StarQuestion, "a?c", "a\nc"),
        "? matches a line end (regex flag s)"
    );
    assert!(m(StarQuestion, "a.c", "a.c") && !m(StarQuestion, "a.c", "abc"));
    assert!(m(StarQuestion, "(x)+", "(x)+") && !m(StarQuestion, "(x)+", "xx"));
    let long = "a".repeat(10_000);
    assert!(!m(StarQuestion, "*a*a*a*a*a*a*a*b", &long));
}

fn ign(patterns: &[&str], rel: &str) -> Option<String> {
    let p: Vec<String> = patterns.iter().map(|s| s.to_string()).collect();
    ignored_by(&p, Path::new(rel)).map(String::from)
}

/// pi's ignore files (`.gitignore`, `.ignore`, `.fdignore` inside a root), gitignore rules.
#[test]
fn gitignore_dialect() {
    // Unanchored names match at any level; a trailing `/` only folders.
    assert_eq!(ign(&["ign/"], "ign/x/SKILL.md").as_deref(), Some("ign/"));
    assert_eq!(ign(&["ign/"], "a/ign/x/SKILL.md").as_deref(), Some("ign/"));
    assert_eq!(ign(&["SKILL.md/"], "x/SKILL.md"), None);
    assert_eq!(
        ign(&["SKILL.md"], "x/SKILL.md").as_deref(),
        Some("SKILL.md")
    );
    // A `/` inside or in front anchors to the ignore file's folder.
    assert_eq!(ign(&["/ign"], "a/ign/x/SKILL.md"), None);
    assert_eq!(ign(&["/ign"], "ign/x/SKILL.md").as_deref(), Some("/ign"));
    assert_eq!(
        ign(&["a/ign"], "a/ign/x/SKILL.md").as_deref(),
        Some("a/ign")
    );
    assert_eq!(ign(&["a/ign"], "b/a/ign/x/SKILL.md"), None);
    // `*` and `?` stay in one name; `**` crosses folders.
    assert_eq!(ign(&["a/*/x"], "a/b/x/SKILL.md").as_deref(), Some("a/*/x"));
    assert_eq!(ign(&["a/*/x"], "a/b/c/x/SKILL.md"), None);
    assert_eq!(
        ign(&["a/**/x"], "a/b/c/x/SKILL.md").as_deref(),
        Some("a/**/x")
    );
    assert_eq!(ign(&["?x"], "ax/SKILL.md").as_deref(), Some("?x"));
    assert_eq!(
        ign(&["drafts-*"], "drafts-1/SKILL.md").as_deref(),
        Some("drafts-*")
    );
    // Classes, as in git and the `ignore` npm package.
    assert_eq!(ign(&["[ab]x"], "bx/SKILL.md").as_deref(), Some("[ab]x"));
    assert_eq!(ign(&["[ab]x"], "cx/SKILL.md"), None);
    // The last matching pattern decides; `!` re-includes.
    assert_eq!(ign(&["*", "!keep"], "keep/SKILL.md"), Some("*".into()));
    assert_eq!(ign(&["x*", "!xkeep"], "xkeep/SKILL.md"), None);
    assert_eq!(
        ign(&["!xkeep", "x*"], "xkeep/SKILL.md").as_deref(),
        Some("x*")
    );
    // Nothing below an excluded folder comes back (git's rule; the hand-written matcher
    // before the `ignore` crate let a later `!` win).
    assert_eq!(
        ign(&["ign/", "!ign/keep"], "ign/keep/SKILL.md").as_deref(),
        Some("ign/")
    );
    // Comments, blank and invalid lines change nothing.
    assert_eq!(
        ign(&["# x", "", "[", "x"], "x/SKILL.md").as_deref(),
        Some("x")
    );
    assert_eq!(ign(&["[", "# x"], "x/SKILL.md"), None);
    assert_eq!(ign(&[], "x/SKILL.md"), None);
}
