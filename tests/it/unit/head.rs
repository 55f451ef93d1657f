//! The unit tests of the catalog's file head (`skilltui::catalog::head_of`).

use proptest::prelude::*;
use skilltui::catalog::head_of;

/// The head as its rule says: whole lines (each with its line end, the last one may have none)
/// taken one by one while there are at most 40 of them and they fit in 3,072 bytes.
fn plain_head(text: &str) -> &str {
    let mut taken = 0;
    let mut count = 0;
    let mut rest = text;
    while !rest.is_empty() && count < 40 {
        let line_len = rest.find('\n').map_or(rest.len(), |i| i + 1);
        if taken + line_len > 3072 {
            break;
        }
        taken += line_len;
        count += 1;
        rest = &rest[line_len..];
    }
    &text[..taken]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

    #[test]
    fn the_head_is_whole_lines_within_40_and_3072_bytes(
        lines in proptest::collection::vec(("[a-zé ]{0,200}", any::<bool>()), 0..60),
        last in "[a-z]{0,50}",
    ) {
        let mut text: String = lines
            .iter()
            .map(|(l, crlf)| format!("{l}{}", if *crlf { "\r\n" } else { "\n" }))
            .collect();
        text.push_str(&last);
        prop_assert_eq!(head_of(&text), plain_head(&text));
    }
}

#[test]
fn the_head_at_its_bounds() {
    let forty: String = (0..45).map(|i| format!("{i}\n")).collect();
    assert_eq!(head_of(&forty).lines().count(), 40);
    assert_eq!(head_of("a\nb"), "a\nb");
    assert_eq!(head_of(""), "");
    let long = format!("{}\n{}\n", "x".repeat(3000), "y".repeat(100));
    assert_eq!(head_of(&long), format!("{}\n", "x".repeat(3000)));
    let unterminated = format!("a\n{}", "z".repeat(3071));
    assert_eq!(head_of(&unterminated), "a\n");
}
