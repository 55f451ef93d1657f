//! The unit tests of `skilltui::scan::walk` (`src/scan/walk.rs`).

use skilltui::scan::walk::walk;
use std::path::Path;

fn put(base: &Path, rel: &str, content: &str) {
    let p = base.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, content).unwrap();
}

/// The walk goes depth first with each folder's entries in the byte order of their names (what
/// the catalog's order and every "first copy wins" rests on): `a` and everything under it before
/// `a-b`, although `a-b/…` sorts before `a/…` as a whole path; capitals before lower case;
/// non-ASCII names last.
#[test]
fn the_walk_visits_siblings_in_the_byte_order_of_their_names() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("skills");
    let skill = "---\nname: s\ndescription: d\n---\n";
    for dir in [
        "z", "\u{e4}", "ab", "aB", "a0", "a.b", "a-b", "a", "a/x", "a/X", "B", "b",
    ] {
        put(&root, &format!("{dir}/SKILL.md"), skill);
    }
    let w = walk(&root);
    let order: Vec<String> = w
        .candidates
        .iter()
        .map(|c| c.rel.to_string_lossy().into_owned())
        .collect();
    let expected = [
        "B", "a", "a/X", "a/x", "a-b", "a.b", "a0", "aB", "ab", "b", "z", "\u{e4}",
    ];
    let expected: Vec<String> = expected.iter().map(|d| format!("{d}/SKILL.md")).collect();
    assert_eq!(order, expected);
}
