//! A unified diff of two texts, by lines (the `similar` crate's Myers diff), in the shape
//! `diff -u` prints, with line ends and BOMs made visible.

use similar::{ChangeTag, TextDiff};

/// Lines kept around each change.
const CONTEXT: usize = 2;

/// `--- a/<label>` / `+++ b/<label>` and hunks; empty when the texts are equal.
pub fn unified(label_a: &str, label_b: &str, a: &str, b: &str) -> String {
    if a == b {
        return String::new();
    }
    let diff = TextDiff::from_lines(a, b);
    let mut out = format!("--- a/{label_a}\n+++ b/{label_b}\n");
    for group in diff.grouped_ops(CONTEXT) {
        // Where the hunk starts on each side: the least index of its operations (the index of
        // the other side a Myers delete or insert carries may point past the hunk's start).
        let old = group
            .iter()
            .map(|op| op.old_range().start)
            .min()
            .unwrap_or(0);
        let new = group
            .iter()
            .map(|op| op.new_range().start)
            .min()
            .unwrap_or(0);
        let al: usize = group.iter().map(|op| op.old_range().len()).sum();
        let bl: usize = group.iter().map(|op| op.new_range().len()).sum();
        out.push_str(&format!("@@ -{},{al} +{},{bl} @@\n", old + 1, new + 1));
        for op in &group {
            for change in diff.iter_changes(op) {
                out.push(match change.tag() {
                    ChangeTag::Equal => ' ',
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                });
                out.push_str(&show_line(change.value()));
            }
        }
    }
    out
}

/// A line for the diff: line end shown when it is not a plain `\n`, a BOM made visible.
fn show_line(l: &str) -> String {
    let (body, end) = if let Some(b) = l.strip_suffix("\r\n") {
        (b, "␍\n")
    } else if let Some(b) = l.strip_suffix('\n') {
        (b, "\n")
    } else {
        (l, "\n\\ No newline at end of file\n")
    };
    let body = body.replace('\u{feff}', "<BOM>");
    format!("{body}{end}")
}
