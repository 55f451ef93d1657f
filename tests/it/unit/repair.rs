//! The unit tests of `skilltui::resolve::repair` (`src/resolve/repair.rs`).

use skilltui::resolve::repair::*;

#[test]
fn opencode_rewrites_only_simple_top_level_keys() {
    let y =
        "name: x\ndescription: Use when: y\ndisable-model-invocation: a: b\nmetadata:\n  k: v: w";
    let s = opencode_sanitize(y);
    assert!(s.contains("description: |-\n  Use when: y"));
    assert!(s.contains("disable-model-invocation: a: b"));
    assert!(s.contains("  k: v: w"));
}

#[test]
fn codex_reads_text_after_a_closed_flow_list_literally() {
    let out = codex_literal("argument-hint: [filename] [format]\nother: [a, b]\nx: [a] # c");
    assert_eq!(
        out,
        "argument-hint: '[filename] [format]'\nother: [a, b]\nx: [a] # c"
    );
}

#[test]
fn codex_reads_colon_values_literally_but_not_quoted_ones() {
    let s = codex_literal("description: Use when: x # note\nname: \"a: b\" tail\nx: @me");
    assert!(s.contains("description: 'Use when: x'"), "{s}");
    assert!(s.contains("name: \"a: b\" tail"), "{s}");
    assert!(s.contains("x: '@me'"), "{s}");
}

#[test]
fn line_values_reads_top_level_lines_as_text() {
    let y = "name: x\ndescription: Use when: x\nmetadata:\n\tk: v\n- item\ndescription: `two`";
    assert_eq!(
        line_values(y),
        "name: 'x'\n\nmetadata:\n\n\ndescription: '`two`'"
    );
    assert_eq!(line_values("d: \"open"), "d: '\"open'");
}

#[test]
fn quote_colon_values_keeps_lines() {
    let s = quote_colon_values("a: b: c\r\n  d: e: f\nok: fine");
    assert_eq!(s, "a: 'b: c'\r\n  d: 'e: f'\nok: fine");
}

#[test]
fn the_first_text_is_borrowed_unless_a_line_changes_and_then_is_the_rewrite() {
    use skilltui::agents::YamlRepair;
    use std::borrow::Cow;
    let cases = [
        "name: a\ndescription: plain",
        "name: a\r\ndescription: Use when: x\r\nmetadata:\n  k: v",
        "description: Use when: x\nname: a",
        "name: a\ndescription: Use when: x",
        "%x: 1\nname: a\n",
        "",
        "\n\n",
        "x: @me\ny: `code`\nz: [a] tail",
    ];
    for yaml in cases {
        for (mode, rewrite) in [
            (
                YamlRepair::CodexLiteralValues,
                codex_literal as fn(&str) -> String,
            ),
            (YamlRepair::QuoteColonValues, quote_colon_values),
        ] {
            let first = first(yaml, mode);
            assert_eq!(first, rewrite(yaml), "{mode:?} {yaml:?}");
            assert_eq!(
                matches!(first, Cow::Borrowed(_)),
                first == yaml,
                "{mode:?} {yaml:?}"
            );
        }
        for mode in [
            YamlRepair::None,
            YamlRepair::OpencodeQuoteColons,
            YamlRepair::LineValues,
        ] {
            assert!(matches!(first(yaml, mode), Cow::Borrowed(t) if t == yaml));
        }
    }
    // A change on the first line, on a middle line with CRLF ends, and on the last line.
    assert_eq!(
        quote_colon_values("description: Use when: x\nname: a"),
        "description: 'Use when: x'\nname: a"
    );
    assert_eq!(
        codex_literal("name: a\r\ndescription: Use when: x\r\nmetadata:\n  k: v"),
        "name: a\r\ndescription: 'Use when: x'\r\nmetadata:\n  k: v"
    );
    assert_eq!(
        codex_literal("name: a\ndescription: Use when: x"),
        "name: a\ndescription: 'Use when: x'"
    );
    // Retries are made only for the agents that retry.
    assert!(retry("a: b: c", YamlRepair::OpencodeQuoteColons).is_some());
    assert!(retry("a: b: c", YamlRepair::LineValues).is_some());
    assert!(retry("a: b: c", YamlRepair::CodexLiteralValues).is_none());
    assert!(retry("a: b: c", YamlRepair::None).is_none());
}
