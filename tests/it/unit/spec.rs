//! The unit tests of `skilltui::spec` (`src/spec/mod.rs`).

use proptest::prelude::*;
use skilltui::spec::{nfkc, normalize_name};
use unicode_normalization::UnicodeNormalization;

fn full(text: &str) -> String {
    text.nfkc().collect()
}

/// ASCII text is its own NFKC form, which the shortcut relies on: every ASCII character and
/// every pair of them, against the full normalisation.
#[test]
fn ascii_is_its_own_nfkc_form() {
    for a in 0u8..128 {
        for b in 0u8..128 {
            let t = String::from_utf8(vec![a, b]).unwrap();
            assert_eq!(full(&t), t, "{t:?}");
            assert_eq!(nfkc(&t), t.as_str());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    /// The shortcut gives the full normalisation on any text: ASCII, compatibility forms
    /// (ligatures, full-width letters, superscripts), combining marks and Hangul jamo.
    #[test]
    fn nfkc_as_the_full_normalisation(
        parts in proptest::collection::vec(
            prop_oneof![Just("a".to_string()), Just("e\u{301}".to_string()),
                Just("\u{fb01}".to_string()), Just("Ｐｄｆ".to_string()), Just("²".to_string()),
                Just("\u{1100}\u{1161}".to_string()), Just("-".to_string()), Just(" ".to_string()),
                Just("\u{301}".to_string()), "\\PC{0,3}"],
            0..8,
        )
    ) {
        let t = parts.concat();
        prop_assert_eq!(nfkc(&t), full(&t));
        prop_assert_eq!(normalize_name(&t), full(t.trim()));
    }
}
