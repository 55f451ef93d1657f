//! The unit tests of `skilltui::actions::fixes` (`src/actions/fixes/mod.rs`).

use skilltui::actions::fixes::*;
use strum::IntoEnumIterator;

#[test]
fn registry_lists_every_code_once_in_order() {
    let codes: Vec<FixCode> = REGISTRY.iter().map(|f| f.code()).collect();
    assert_eq!(codes, FixCode::iter().collect::<Vec<_>>());
}

#[test]
fn codes_keep_their_strings() {
    let s: Vec<&str> = FixCode::iter().map(FixCode::as_str).collect();
    assert_eq!(
        s,
        [
            "remove-bom",
            "quote-description",
            "quote-value",
            "add-description",
            "shorten-description",
            "shorten-name",
            "name-folder-match",
            "skill-md-case",
            "flat-to-folder",
            "ungroup",
        ]
    );
    for c in FixCode::iter() {
        assert_eq!(c.as_str().parse::<FixCode>(), Ok(c));
        assert_eq!(
            <FixCode as clap::ValueEnum>::from_str(c.as_str(), false),
            Ok(c)
        );
    }
}
