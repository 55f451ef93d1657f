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
///
/// One pass over the characters: each word (a run of characters ending after a space) is measured
/// ahead on a copy of the iterator, then written straight into its row's spans, so nothing is
/// held per character.
pub fn wrap(spans: Vec<Span<'static>>, width: usize, indent: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let indent = if indent * 2 > width { 0 } else { indent };
    let mut chars = spans
        .iter()
        .flat_map(|s| s.content.chars().map(move |c| (c, s.style)));
    let mut rows = Rows::new(indent);
    let mut used = 0usize;
    loop {
        // Measure the next word: its characters, its width, whether it ends with a space.
        let (mut count, mut ww, mut spaced) = (0usize, 0usize, false);
        for (c, _) in chars.clone() {
            count += 1;
            ww += char_width(c);
            if c == ' ' {
                spaced = true;
                break;
            }
        }
        if count == 0 {
            break;
        }
        // The trailing space may hang past the edge.
        let ww_trim = ww - usize::from(spaced);
        let start = if rows.lines.is_empty() { 0 } else { indent };
        if used + ww_trim > width && used > start {
            rows.next_row();
            used = indent;
        }
        for (c, st) in chars.by_ref().take(count) {
            let w = char_width(c);
            if used + w > width && c != ' ' {
                rows.next_row();
                used = indent;
            }
            if used + w > width {
                continue;
            }
            rows.push(c, st);
            used += w;
        }
    }
    rows.finish()
}

/// The rows `wrap` writes: finished lines, and the current row as runs of one style.
struct Rows {
    lines: Vec<Line<'static>>,
    runs: Vec<(String, Style)>,
    /// Whether the current row holds a character other than a space.
    printed: bool,
    indent: usize,
}

impl Rows {
    fn new(indent: usize) -> Self {
        Rows {
            lines: Vec::new(),
            runs: Vec::new(),
            printed: false,
            indent,
        }
    }

    fn push(&mut self, c: char, style: Style) {
        match self.runs.last_mut() {
            Some((text, st)) if *st == style => text.push(c),
            _ => self.runs.push((c.to_string(), style)),
        }
        self.printed |= c != ' ';
    }

    /// Ends the current row: trailing spaces dropped (a first row of spaces only is kept whole, a
    /// later one dropped), later rows put after the indent.
    fn next_row(&mut self) {
        let first = self.lines.is_empty();
        let mut runs = std::mem::take(&mut self.runs);
        if self.printed {
            while let Some((text, _)) = runs.last_mut() {
                let kept = text.trim_end_matches(' ').len();
                if kept > 0 {
                    text.truncate(kept);
                    break;
                }
                runs.pop();
            }
        } else if !first {
            runs.clear();
        }
        let mut out: Vec<Span<'static>> = Vec::with_capacity(runs.len() + 1);
        if !first && self.indent > 0 {
            out.push(Span::raw(" ".repeat(self.indent)));
        }
        out.extend(runs.into_iter().map(|(text, st)| Span::styled(text, st)));
        self.lines.push(Line::from(out));
        self.printed = false;
    }

    fn finish(mut self) -> Vec<Line<'static>> {
        self.next_row();
        self.lines
    }
}

/// Every line of `lines` wrapped to `width` with the same hanging indent.
pub fn wrap_all(lines: Vec<Line<'static>>, width: usize, indent: usize) -> Vec<Line<'static>> {
    lines
        .into_iter()
        .flat_map(|l| wrap(l.spans, width, indent))
        .collect()
}
