//! Lines broken to a width before drawing, with hanging indents, so that a pane knows how many
//! rows its content takes (scrolling is clamped to it) and continuation rows line up under the
//! text they continue.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Columns `c` takes, as ratatui measures it (printable ASCII, most of what is wrapped, without
/// making a span).
fn char_width(c: char) -> usize {
    if matches!(c, ' '..='~') {
        return 1;
    }
    let mut buf = [0u8; 4];
    Span::raw(&*c.encode_utf8(&mut buf)).width()
}

/// `spans` as rows of at most `width` columns, broken at spaces (a word longer than a row is
/// broken anywhere); rows after the first start with `indent` spaces. A row keeps every span's
/// style.
pub fn wrap(spans: Vec<Span<'static>>, width: usize, indent: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let indent = if indent * 2 > width { 0 } else { indent };
    // Words: runs of (char, style) ending after a space.
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
        // The trailing space may hang past the edge.
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
            // Trailing spaces dropped.
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

/// Every line of `lines` wrapped to `width` with the same hanging indent.
pub fn wrap_all(lines: Vec<Line<'static>>, width: usize, indent: usize) -> Vec<Line<'static>> {
    lines
        .into_iter()
        .flat_map(|l| wrap(l.spans, width, indent))
        .collect()
}
