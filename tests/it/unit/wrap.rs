//! The unit tests of `skilltui::tui::view::wrap` (`src/tui/view/wrap.rs`).

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use skilltui::tui::view::wrap::*;

fn text(lines: &[Line]) -> Vec<String> {
    lines.iter().map(|l| l.to_string()).collect()
}

#[test]
fn wraps_at_spaces_with_a_hanging_indent() {
    let l = wrap(
        vec![Span::raw("✗ copilot  rejected: "), Span::raw("a b c dd ee")],
        13,
        4,
    );
    assert_eq!(
        text(&l),
        ["✗ copilot", "    rejected:", "    a b c dd", "    ee"]
    );
    for row in &l {
        assert!(row.width() <= 13);
    }
}

#[test]
fn breaks_a_long_word_and_keeps_styles() {
    let st = Style::new().bold();
    let l = wrap(vec![Span::styled("abcdefghij", st)], 4, 1);
    assert_eq!(text(&l), ["abcd", " efg", " hij"]);
    assert_eq!(l[1].spans[1].style, st);
    assert_eq!(text(&wrap(vec![], 10, 2)), [""]);
    assert_eq!(text(&wrap(vec![Span::raw("short")], 10, 2)), ["short"]);
}
