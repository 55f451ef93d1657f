//! The frontmatter YAML reader on any text: no panic, bounded nodes and nesting, positions
//! inside the input; and wherever the shortcut for simple blocks reads the text, the tree the
//! YAML parser's events give.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skilltui::skill::yaml::{self, MAX_NESTING, MAX_NODES};
use skilltui::skill::{Node, Value, YamlOptions};

/// (nodes, depth) of a tree.
fn measure(n: &Node, depth: usize, lines: usize) -> (usize, usize) {
    assert!(n.pos.line >= 1 && n.pos.column >= 1, "{:?}", n.pos);
    assert!(
        n.pos.line <= lines + 1,
        "line {} past the input ({lines} lines)",
        n.pos.line
    );
    match &n.value {
        Value::Scalar { .. } => (1, depth),
        Value::Sequence(items) => items.iter().fold((1, depth), |(c, d), i| {
            let (ci, di) = measure(i, depth + 1, lines);
            (c + ci, d.max(di))
        }),
        Value::Mapping(entries) => entries.iter().fold((1, depth), |(c, d), e| {
            let (ck, dk) = measure(&e.key, depth + 1, lines);
            let (cv, dv) = measure(&e.value, depth + 1, lines);
            (c + ck + cv, d.max(dk).max(dv))
        }),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // Line breaks as YAML counts them: LF, CRLF, and a CR alone.
    let lines =
        text.matches('\n').count() + text.matches('\r').count() - text.matches("\r\n").count() + 1;
    for dup in [false, true] {
        let opts = YamlOptions {
            allow_duplicate_keys: dup,
        };
        let parsed = yaml::parse(&text, 1, opts);
        if let Some(fast) = skilltui::skill::simple_yaml::parse(&text, 1) {
            assert_eq!(yaml::parse_by_events(&text, 1, opts), Ok(fast), "{text:?}");
        }
        match parsed {
            Ok(root) => {
                let (nodes, depth) = measure(&root, 0, lines);
                // The alias budget counts every node, copies included; block and flow nesting are
                // limited separately.
                assert!(nodes <= MAX_NODES + 1, "{nodes} nodes");
                assert!(depth <= 2 * MAX_NESTING + 2, "depth {depth}");
            }
            Err(e) => {
                assert!(e.pos.line >= 1 && e.pos.column >= 1, "{e:?}");
                let _ = e.to_string();
            }
        }
    }
});
