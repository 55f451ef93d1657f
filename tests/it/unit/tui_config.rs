//! The unit tests of `skilltui::tui::config` (`src/tui/config.rs`).

use skilltui::tui::config::*;

#[test]
fn the_default_text_parses_to_the_defaults_and_each_line_uncommented_too() {
    let text = default_text();
    assert_eq!(parse(&text).unwrap(), Config::default());
    let uncommented: String = text
        .lines()
        .map(|l| match l.strip_prefix("# ") {
            Some(rest)
                if rest.split_once(" = ").is_some_and(|(k, _)| {
                    k.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                }) =>
            {
                rest.to_string()
            }
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        parse(&uncommented).unwrap(),
        Config::default(),
        "{uncommented}"
    );
}

#[test]
fn line_and_column_are_1_based() {
    assert_eq!(line_col("ab\ncd", 4), (2, 2));
    assert_eq!(line_col("", 0), (1, 1));
}
