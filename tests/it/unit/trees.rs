//! The unit tests of `skilltui::oracle::trees` (`src/oracle/trees.rs`).

use skilltui::oracle::trees::*;

#[test]
fn a_bare_count_is_every_agents_and_named_agents_override_it() {
    let t = TreeCounts::parse("20, qoder-cli=4,kilo = 8", 1).unwrap();
    assert_eq!(t.for_agent("codex"), 20);
    assert_eq!(t.for_agent("qoder-cli"), 4);
    assert_eq!(t.for_agent("kilo"), 8);
    let agents = ["qoder-cli".to_string(), "kilo".to_string()];
    assert_eq!(t.most(&agents), 8);
    let only_named = TreeCounts::parse("amp=3", 20).unwrap();
    assert_eq!(only_named.for_agent("amp"), 3);
    assert_eq!(only_named.for_agent("pi"), 20);
    assert_eq!(TreeCounts::parse("", 20).unwrap().for_agent("pi"), 20);
}

#[test]
fn malformed_counts_are_refused_with_the_part_that_is_wrong() {
    for bad in ["x", "20,5", "=4", "kilo=", "kilo=-1", "20,kilo=two"] {
        let e = TreeCounts::parse(bad, 20).unwrap_err();
        assert!(e.starts_with('`'), "{bad}: {e}");
    }
}
