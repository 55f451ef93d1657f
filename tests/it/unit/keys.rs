//! The unit tests of `skilltui::tui::keys` (`src/tui/keys.rs`).

use skilltui::tui::keys::*;

#[test]
fn keys_parse_and_print_back() {
    for s in [
        "q",
        "G",
        "?",
        "ctrl-d",
        "alt-x",
        "esc",
        "enter",
        "tab",
        "shift-tab",
        "space",
        "up",
        "pagedown",
        "f5",
    ] {
        let k = Key::parse(s).unwrap();
        assert_eq!(Key::parse(&k.config_name()).unwrap(), k, "{s}");
    }
    assert!(Key::parse("").is_err());
    assert!(Key::parse("ctrl-").is_err());
    assert!(Key::parse("hyper-q").is_err());
    assert_eq!(Key::parse("-").unwrap(), Key::ch('-'));
}

#[test]
fn every_action_has_a_unique_name() {
    let all = Action::all();
    for a in &all {
        assert_eq!(Action::from_name(&a.name()), Some(*a));
    }
    let mut names: Vec<String> = all.iter().map(|a| a.name()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all.len());
}
