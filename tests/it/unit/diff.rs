//! The unit tests of `skilltui::actions::diff` (`src/actions/diff.rs`).

#[test]
fn one_line_changed() {
    let d = skilltui::actions::diff::unified("f", "f", "a\nb\nc\n", "a\nB\nc\n");
    assert_eq!(d, "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
}

#[test]
fn equal_texts_give_no_diff() {
    assert_eq!(
        skilltui::actions::diff::unified("f", "f", "a\nb\n", "a\nb\n"),
        ""
    );
}

#[test]
fn changes_far_apart_are_two_hunks_with_two_lines_of_context() {
    let a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
    let b = "x\n2\n3\n4\n5\n6\n7\n8\n9\ny\n";
    let d = skilltui::actions::diff::unified("a", "b", a, b);
    assert_eq!(
        d,
        "--- a/a\n+++ b/b\n@@ -1,3 +1,3 @@\n-1\n+x\n 2\n 3\n@@ -8,3 +8,3 @@\n 8\n 9\n-10\n+y\n"
    );
    // Four unchanged lines between two changes keep them in one hunk.
    let d = skilltui::actions::diff::unified("f", "f", "1\n2\n3\n4\n5\n6\n", "x\n2\n3\n4\n5\ny\n");
    assert_eq!(d.matches("@@ -").count(), 1, "{d}");
}

#[test]
fn a_delete_before_an_insert_starts_the_hunk_at_the_first_line_of_both_sides() {
    // Myers gives this delete a position on the new side past the equal line after it.
    let d = skilltui::actions::diff::unified("f", "f", "a\na\r\nd\na\r\n", "a\r\na\r\nd\na\r\n");
    assert!(d.contains("@@ -1,4 +1,4 @@\n"), "{d}");
}

#[test]
fn inserts_into_an_empty_file_and_line_ends_are_shown() {
    let d = skilltui::actions::diff::unified("f", "f", "", "\u{feff}a\r\nb");
    assert_eq!(
        d,
        "--- a/f\n+++ b/f\n@@ -1,0 +1,2 @@\n+<BOM>a\u{240d}\n+b\n\\ No newline at end of file\n"
    );
}

#[test]
fn large_files_get_a_real_diff() {
    let a: String = (0..10_000).map(|i| format!("line {i}\n")).collect();
    let b = a.replace("line 5000\n", "changed\n");
    let d = skilltui::actions::diff::unified("f", "f", &a, &b);
    assert_eq!(
        d,
        "--- a/f\n+++ b/f\n@@ -4999,5 +4999,5 @@\n line 4998\n line 4999\n-line 5000\n+changed\n line 5001\n line 5002\n"
    );
}
