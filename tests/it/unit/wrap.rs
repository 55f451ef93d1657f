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

/// The first `wrap`, one `(char, Style)` per character: the reference the one-pass version must
/// match on every input.
fn wrap_reference(spans: Vec<Span<'static>>, width: usize, indent: usize) -> Vec<Line<'static>> {
    fn char_width(c: char) -> usize {
        let mut buf = [0u8; 4];
        Span::raw(&*c.encode_utf8(&mut buf)).width()
    }
    let width = width.max(1);
    let indent = if indent * 2 > width { 0 } else { indent };
    let mut words: Vec<Vec<(char, Style)>> = Vec::new();
    let mut cur: Vec<(char, Style)> = Vec::new();
    for s in &spans {
        for c in s.content.chars() {
            cur.push((c, s.style));
            if c == ' ' {
                words.push(std::mem::take(&mut cur));
            }
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let mut rows: Vec<Vec<(char, Style)>> = vec![Vec::new()];
    let mut used = 0usize;
    for word in words {
        let ww: usize = word.iter().map(|(c, _)| char_width(*c)).sum();
        let ww_trim = ww - usize::from(word.last().is_some_and(|(c, _)| *c == ' '));
        let start = if rows.len() == 1 { 0 } else { indent };
        if used + ww_trim > width && used > start {
            rows.push(Vec::new());
            used = indent;
        }
        for (c, st) in word {
            let w = char_width(c);
            if used + w > width && c != ' ' {
                rows.push(Vec::new());
                used = indent;
            }
            if used + w > width {
                continue;
            }
            rows.last_mut().unwrap().push((c, st));
            used += w;
        }
    }
    rows.into_iter()
        .enumerate()
        .map(|(i, row)| {
            let mut out: Vec<Span<'static>> = Vec::new();
            if i > 0 && indent > 0 {
                out.push(Span::raw(" ".repeat(indent)));
            }
            let mut text = String::new();
            let mut style: Option<Style> = None;
            let n = row.len();
            let end = row
                .iter()
                .rposition(|(c, _)| *c != ' ')
                .map_or(if i == 0 { n } else { 0 }, |p| p + 1);
            for (c, st) in row.into_iter().take(end) {
                if style.is_some_and(|s| s != st) {
                    out.push(Span::styled(std::mem::take(&mut text), style.unwrap()));
                }
                style = Some(st);
                text.push(c);
            }
            if let Some(st) = style {
                out.push(Span::styled(text, st));
            }
            Line::from(out)
        })
        .collect()
}

mod same_as_the_reference {
    use super::*;
    use proptest::prelude::*;

    fn span() -> impl Strategy<Value = Span<'static>> {
        let styles = prop_oneof![
            Just(Style::new()),
            Just(Style::new().bold()),
            Just(Style::new().italic()),
        ];
        // Spaces (single and runs), ASCII, a wide character, a combining mark (width 0), a
        // control character (width 0 to ratatui).
        ("[ a-cé漢\u{301}\u{1}]{0,12}", styles).prop_map(|(t, st)| Span::styled(t, st))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn on_every_input(
            spans in prop::collection::vec(span(), 0..6),
            width in 0usize..14,
            indent in 0usize..8,
        ) {
            let ours = wrap(spans.clone(), width, indent);
            let reference = wrap_reference(spans, width, indent);
            prop_assert_eq!(ours, reference);
        }
    }
}
