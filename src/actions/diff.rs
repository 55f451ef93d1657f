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

#[cfg(test)]
mod tests {
    #[test]
    fn one_line_changed() {
        let d = super::unified("f", "f", "a\nb\nc\n", "a\nB\nc\n");
        assert_eq!(d, "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    }

    #[test]
    fn equal_texts_give_no_diff() {
        assert_eq!(super::unified("f", "f", "a\nb\n", "a\nb\n"), "");
    }

    #[test]
    fn changes_far_apart_are_two_hunks_with_two_lines_of_context() {
        let a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
        let b = "x\n2\n3\n4\n5\n6\n7\n8\n9\ny\n";
        let d = super::unified("a", "b", a, b);
        assert_eq!(
            d,
            "--- a/a\n+++ b/b\n@@ -1,3 +1,3 @@\n-1\n+x\n 2\n 3\n@@ -8,3 +8,3 @@\n 8\n 9\n-10\n+y\n"
        );
        // Four unchanged lines between two changes keep them in one hunk.
        let d = super::unified("f", "f", "1\n2\n3\n4\n5\n6\n", "x\n2\n3\n4\n5\ny\n");
        assert_eq!(d.matches("@@ -").count(), 1, "{d}");
    }

    #[test]
    fn a_delete_before_an_insert_starts_the_hunk_at_the_first_line_of_both_sides() {
        // Myers gives this delete a position on the new side past the equal line after it.
        let d = super::unified("f", "f", "a\na\r\nd\na\r\n", "a\r\na\r\nd\na\r\n");
        assert!(d.contains("@@ -1,4 +1,4 @@\n"), "{d}");
    }

    #[test]
    fn inserts_into_an_empty_file_and_line_ends_are_shown() {
        let d = super::unified("f", "f", "", "\u{feff}a\r\nb");
        assert_eq!(
            d,
            "--- a/f\n+++ b/f\n@@ -1,0 +1,2 @@\n+<BOM>a\u{240d}\n+b\n\\ No newline at end of file\n"
        );
    }

    #[test]
    fn large_files_get_a_real_diff() {
        let a: String = (0..10_000).map(|i| format!("line {i}\n")).collect();
        let b = a.replace("line 5000\n", "changed\n");
        let d = super::unified("f", "f", &a, &b);
        assert_eq!(
            d,
            "--- a/f\n+++ b/f\n@@ -4999,5 +4999,5 @@\n line 4998\n line 4999\n-line 5000\n+changed\n line 5001\n line 5002\n"
        );
    }
}
