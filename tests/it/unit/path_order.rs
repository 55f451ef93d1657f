//! `path_order::Key` orders paths as `Path::cmp` does on every pair: long shared prefixes, `.`, `..`,
//! empty components, trailing separators, relative and absolute paths, names that sort around
//! the separator (`-`, `.`, `0`).

use proptest::prelude::*;
use skilltui::path_order::Key;
use std::path::Path;

fn part() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("/".to_string()),
        Just("//".to_string()),
        Just(".".to_string()),
        Just("..".to_string()),
        Just("a".to_string()),
        Just("a-b".to_string()),
        Just("a.b".to_string()),
        Just("a0".to_string()),
        Just("é".to_string()),
        Just("skills".to_string()),
        Just("/home/someone/projects/with-a-long-shared-prefix/".to_string()),
        "[a./-]{0,4}".prop_map(|s| s),
    ]
}

fn path() -> impl Strategy<Value = String> {
    prop::collection::vec(part(), 0..8).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]
    #[test]
    fn the_same_order_as_path_cmp(a in path(), b in path()) {
        let (a, b) = (Path::new(&a), Path::new(&b));
        prop_assert_eq!(Key::new(a).cmp(&Key::new(b)), a.cmp(b), "{:?} vs {:?}", a, b);
    }

    #[test]
    fn the_same_order_on_one_prefix(p in path(), a in path(), b in path()) {
        let (a, b) = (format!("{p}{a}"), format!("{p}{b}"));
        let (a, b) = (Path::new(&a), Path::new(&b));
        prop_assert_eq!(Key::new(a).cmp(&Key::new(b)), a.cmp(b), "{:?} vs {:?}", a, b);
    }
}

#[test]
fn pairs_that_differ_by_component_and_by_byte() {
    let cases = [
        ("/r/a-b/x", "/r/a/x"),
        ("/r/a/b", "/r/a/b/"),
        ("/r/a//b", "/r/a/b"),
        ("/r/./a", "/r/a"),
        ("/r/../a", "/r/-a"),
        ("r/a", "/r/a"),
        ("./a", "a"),
        (
            "/home/someone/projects/with-a-long-shared-prefix/x",
            "/home/someone/projects/with-a-long-shared-prefix.d",
        ),
    ];
    for (a, b) in cases {
        let (a, b) = (Path::new(a), Path::new(b));
        assert_eq!(Key::new(a).cmp(&Key::new(b)), a.cmp(b), "{a:?} vs {b:?}");
        assert_eq!(Key::new(b).cmp(&Key::new(a)), b.cmp(a), "{b:?} vs {a:?}");
        assert_eq!(Key::new(a) == Key::new(b), a == b, "{a:?} == {b:?}");
    }
}
