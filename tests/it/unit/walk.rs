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

use proptest::prelude::*;

/// A path as a walk or a caller may spell it: names (some of them `.`, `..`, empty, with `-`,
/// `.` or non-ASCII letters, which sort around `/` in bytes) joined by `/`.
fn spelt_path() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        Just(String::new()),
        Just(".".to_string()),
        Just("..".to_string()),
        Just("a".to_string()),
        Just("a-b".to_string()),
        Just("a.b".to_string()),
        Just("ab".to_string()),
        Just("A".to_string()),
        Just("é".to_string()),
        "[a-c./ -]{1,3}",
    ];
    proptest::collection::vec(name, 0..5).prop_map(|names| names.join("/"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, .. ProptestConfig::default() })]

    /// The walk orders its folders and finds a folder's subtree from their bytes: for every two
    /// paths spelt as the walk spells them, the same order and prefix answer as `Path`'s own
    /// (component by component); any other spelling is said to be one.
    #[test]
    fn walked_paths_order_as_paths_do(a in spelt_path(), b in spelt_path()) {
        let (a, b) = (Path::new(&a), Path::new(&b));
        let (spelt, order, starts) = skilltui::scan::walk::walked_order(a, b);
        let walk_like = |p: &Path| {
            let s = p.to_str().unwrap();
            s.is_empty() || s.split('/').all(|c| !c.is_empty() && c != "." && c != "..")
        };
        prop_assert_eq!(spelt, walk_like(a) && walk_like(b));
        if spelt {
            prop_assert_eq!(order, a.cmp(b), "{:?} {:?}", a, b);
            prop_assert_eq!(starts, a.starts_with(b), "{:?} {:?}", a, b);
        }
    }

    /// Where a folder lies below a skill folder (its first folder there, and the characters of
    /// the path between them) reads as `strip_prefix` and `components` give it, for any two
    /// spellings: from the bytes where the walk spelt them, else by components.
    #[test]
    fn below_a_skill_folder_as_components_say(a in spelt_path(), b in spelt_path()) {
        let (a, b) = (Path::new(&a), Path::new(&b));
        let plain = a.strip_prefix(b).ok().map(|sub| {
            let top = sub
                .components()
                .next()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .unwrap_or_default();
            (top, sub.to_string_lossy().chars().count())
        });
        let (_, _, starts) = skilltui::scan::walk::walked_order(a, b);
        // The walk's folders below a skill folder are spelt as it spells them.
        let walk_like = |p: &Path| {
            let s = p.to_str().unwrap();
            s.is_empty() || s.split('/').all(|c| !c.is_empty() && c != "." && c != "..")
        };
        if walk_like(a) || !walk_like(b) {
            let got = skilltui::scan::walk::below(a, b).map(|(t, n)| (t.into_owned(), n));
            prop_assert_eq!(got, plain, "{:?} {:?} {}", a, b, starts);
        }
    }
}
