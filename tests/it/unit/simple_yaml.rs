//! The unit tests of `skilltui::skill::simple_yaml` (`src/skill/simple_yaml.rs`): wherever the
//! shortcut reads a block, it gives the tree the YAML parser's events give.

use proptest::prelude::*;
use skilltui::skill::frontmatter::{SplitOptions, split};
use skilltui::skill::simple_yaml;
use skilltui::skill::yaml::{YamlOptions, parse, parse_by_events};

/// Whether the shortcut read `yaml`; when it did, its tree is the parser's (with and without
/// repeated keys allowed), and [`parse`] gives it.
fn taken(yaml: &str, line: usize) -> bool {
    let Some(fast) = simple_yaml::parse(yaml, line) else {
        return false;
    };
    for allow_duplicate_keys in [false, true] {
        let opts = YamlOptions {
            allow_duplicate_keys,
        };
        assert_eq!(
            parse_by_events(yaml, line, opts),
            Ok(fast.clone()),
            "{yaml:?}"
        );
        assert_eq!(parse(yaml, line, opts), Ok(fast.clone()), "{yaml:?}");
    }
    true
}

#[test]
fn the_common_shapes_are_read_as_the_parser_reads_them() {
    for yaml in [
        "name: a\ndescription: b\n",
        "name: pdf-tools\ndescription: Fill PDF forms, e.g. tax (1040) & W-2; see docs/forms.md.\n",
        "name: x\nmetadata:\n  author: example-org\n  version: \"1.5\"\nlicense: MIT\n",
        "allowed-tools: Read, Bash(git:*)\n",
        "k: 'single'\nq: \"double\"\nr: \"it's\"\ns: 'say \"hi\"'\n",
        "int: 12\nfloat: 1.5\nbool: true\nnull: null\ntilde: ~\nhex: 0x1F\nplus: +1\n",
        "k: é ü 中文 🙂\n",
        "\nname: a\n\ndescription: b\n\n",
        "k: a#b\nl: don't\nm: x:y\nn: C++, C#\n",
        "k:   spaced\n",
        "_k: v\nk.v-x: y\nTrue: 1\n1: one\n",
        "metadata:\n    deep: v\n    other: w\nafter: z",
        "a: 1\nb:\n  c: 2\nd:\n  e: 3\n",
        "tools:\n  - Read\n  - \"Write\"\n  - 'Bash(git:*)'\n",
        "tools:\n- Read\n- Write\nname: x\n",
        "tools: [Read, Write, web-fetch, a/b, 1, true]\n",
        "tags: []\nmore: [ x ]\n",
        "description: |\n  text\n  more: text # not a comment\n",
        "description: |-\n    deep\n    text\nname: y\n",
        "description: >\n  folded\n  text\n\nname: z\n",
        "description: >-\n  Use when: folding \"quotes\"\n  and 'more'.\n",
        "k: plain\n  continued\n  and more\nl: v\n",
        "m:\n  n:\n    k: v\n  o: w\n",
        "m:\n  list:\n    - a\n    - b\n  text: >-\n    x\n    y\n",
    ] {
        assert!(taken(yaml, 2), "the shortcut should read {yaml:?}");
        assert!(taken(yaml, 7), "{yaml:?}");
    }
}

#[test]
fn anything_else_is_left_to_the_parser() {
    for yaml in [
        "",
        "\n\n",
        "# a comment\nname: a\n",
        "name: a # a comment\n",
        "m: {a: b}\n",
        "k: \"a\\nb\"\n",
        "k: 'it''s'\n",
        "k:\tv\n",
        "k: v\r\nl: w\r\n",
        "k: v\nk: w\n",
        "m:\n  k: v\n  k: w\n",
        "k:\n",
        "k:\nl: v\n",
        "k: \n",
        "k:v\n",
        "k: &a v\nl: *a\n",
        "k: !!str 1\n",
        "k: a: b\n",
        "k: trailing \n",
        "k: ends:\n",
        "---\nk: v\n",
        "  k: v\n",
        "m:\n  k: v\n    deeper: w\n",
        "m:\n  k: v\n l: w\n",
        "key : v\n",
        "-k: v\n",
        "\"k\": v\n",
        "k: \u{a0}x\n",
        "k: a\u{2028}b\n",
        "k: \u{feff}x\n",
        "k: @x\n",
        "k: `x`\n",
        "k: %x\n",
        "k: -x\n",
        "k: ?x\n",
        "k: \"unclosed\n",
        "description: |\n\n  leading blank\n",
        "description: >\n  a\n\n  b\n",
        "description: >\n  a\n    more indented\n",
        "description: |+\n  keep\n",
        "description: |2\n  explicit\n",
        "description: > # comment\n  a\n",
        "description: >\nname: a\n",
        "k: plain\n\n  after a blank\n",
        "k: \"quoted\"\n  continued\n",
        "tools:\n  - a\n    continued\n",
        "tools:\n  - a: b\n",
        "tools:\n  -\n",
        "tools:\n  - [a]\n",
        "tools:\n  - a\n   - b\n",
        "tags: [a b]\n",
        "tags: [a, ]\n",
        "tags: [\"a\"]\n",
        "tags: [a, [b]]\n",
        "tags: [a]\n  more\n",
        "m:\n  k: v\n    x: y\n",
        "a:\n b:\n  c:\n   d:\n    e:\n     f: deep\n",
    ] {
        assert!(simple_yaml::parse(yaml, 2).is_none(), "{yaml:?}");
        // Whatever the parser makes of it, the public parse is the parser's.
        assert_eq!(
            parse(yaml, 2, YamlOptions::default()),
            parse_by_events(yaml, 2, YamlOptions::default()),
            "{yaml:?}"
        );
    }
}

/// A block past the parser's node budget is the parser's, with its error; so is a long key.
#[test]
fn blocks_past_the_parsers_limits_are_left_to_it() {
    for yaml in [
        format!("tags: [{}]\n", vec!["a"; 12_000].join(",")),
        format!("tags:\n{}", "- a\n".repeat(12_000)),
    ] {
        assert!(simple_yaml::parse(&yaml, 2).is_none());
        let err = parse(&yaml, 2, YamlOptions::default()).unwrap_err();
        assert!(err.message.contains("YAML nodes"), "{err:?}");
    }
    for n in [129, 1_100, 5_000] {
        let yaml = format!("{}: v\n", "k".repeat(n));
        assert!(simple_yaml::parse(&yaml, 2).is_none(), "{n}");
        assert_eq!(
            parse(&yaml, 2, YamlOptions::default()),
            parse_by_events(&yaml, 2, YamlOptions::default())
        );
    }
    assert!(taken(&format!("{}: v\n", "k".repeat(128)), 2));
}

/// The frontmatter the catalog generator writes (the benchmarks' trees): the shortcut reads
/// most of it, always as the parser does.
#[test]
fn generated_frontmatter_is_mostly_read_by_the_shortcut() {
    let dir = tempfile::tempdir().unwrap();
    let opts = skilltui::r#gen::Options {
        skills: 400,
        seed: 7,
    };
    skilltui::r#gen::generate(dir.path(), &opts).unwrap();
    let (blocks, read) = taken_under(dir.path());
    assert!(blocks > 300, "{blocks} frontmatter blocks");
    assert!(
        read * 10 >= blocks * 8,
        "{read} of {blocks} read by the shortcut"
    );
}

/// Every SKILL.md under `SKILLTUI_YAML_CORPUS` (e.g. a folder of public catalogs): the shortcut
/// gives the parser's tree wherever it reads a block. Run with
/// `SKILLTUI_YAML_CORPUS=DIR cargo test --release yaml_corpus -- --ignored --nocapture`.
#[test]
#[ignore]
fn yaml_corpus() {
    let Some(root) = std::env::var_os("SKILLTUI_YAML_CORPUS") else {
        return;
    };
    let (blocks, read) = taken_under(std::path::Path::new(&root));
    println!("{read} of {blocks} frontmatter blocks read by the shortcut");
}

/// The frontmatter blocks of every SKILL.md under `root` (links followed), and how many of
/// them the shortcut read ([`taken`]: each as the parser reads it).
fn taken_under(root: &std::path::Path) -> (usize, usize) {
    let (mut blocks, mut read) = (0, 0);
    for e in walkdir::WalkDir::new(root)
        .follow_links(true)
        .into_iter()
        .flatten()
    {
        if !e.file_name().eq_ignore_ascii_case("SKILL.md") || !e.file_type().is_file() {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(e.path()) else {
            continue;
        };
        let Ok(parts) = split(&text, SplitOptions::CANONICAL) else {
            continue;
        };
        blocks += 1;
        read += usize::from(taken(parts.yaml, parts.yaml_line));
    }
    (blocks, read)
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z][a-z0-9_-]{0,8}",
        1 => Just("name".to_string()),
        1 => Just("description".to_string()),
        1 => Just("true".to_string()),
        1 => Just("1".to_string()),
        1 => Just("a.b".to_string()),
        1 => Just("-k".to_string()),
        1 => Just("k k".to_string()),
        1 => Just("\"q\"".to_string()),
        1 => "\\PC{0,4}",
    ]
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[ -~]{0,16}",
        2 => "[a-zA-Z][a-zA-Z0-9 ,.()]{0,20}",
        1 => Just("\"q\"".to_string()),
        1 => Just("'s'".to_string()),
        1 => Just("\"a\\\"b\"".to_string()),
        1 => Just("'it''s'".to_string()),
        1 => Just("[a, b]".to_string()),
        1 => Just("{a: b}".to_string()),
        1 => Just("&x v".to_string()),
        1 => Just("*x".to_string()),
        1 => Just("|".to_string()),
        1 => Just(">-".to_string()),
        1 => Just("a: b".to_string()),
        1 => Just("a #c".to_string()),
        1 => Just("é ü 中文".to_string()),
        1 => Just("\u{a0}x".to_string()),
        1 => Just("1.5".to_string()),
        1 => Just("~".to_string()),
        1 => Just("0x1F".to_string()),
        1 => Just("-1".to_string()),
        1 => Just("- a".to_string()),
        1 => Just("null".to_string()),
        1 => Just("".to_string()),
        1 => "\\PC{0,6}",
    ]
}

/// One line (or a `key:` line with its indented block) of a frontmatter block.
fn line() -> impl Strategy<Value = String> {
    let sep = prop_oneof![
        4 => Just(" "),
        1 => Just(""),
        1 => Just("  "),
        1 => Just("\t"),
        1 => Just(" \t")
    ];
    let indent = prop_oneof![Just(1usize), Just(2), Just(3), Just(4)].boxed();
    prop_oneof![
        6 => (key(), sep.clone(), value()).prop_map(|(k, s, v)| format!("{k}:{s}{v}")),
        2 => (key(), indent.clone(), proptest::collection::vec((key(), sep.clone(), value(), 0usize..3), 1..4))
            .prop_map(|(k, n, children)| {
                let mut out = format!("{k}:");
                for (ck, s, v, odd) in children {
                    let pad = if odd == 0 { n + 1 } else { n };
                    out.push_str(&format!("\n{}{ck}:{s}{v}", " ".repeat(pad)));
                }
                out
            }),
        2 => (key(), prop_oneof![Just(">"), Just(">-"), Just("|"), Just("|-"), Just("|+"), Just("> #c")], indent.clone(),
              proptest::collection::vec((value(), 0usize..4), 0..4))
            .prop_map(|(k, h, n, lines)| {
                let mut out = format!("{k}: {h}");
                for (v, odd) in lines {
                    let pad = match odd { 0 => n + 1, 1 => 0, _ => n };
                    out.push_str(&format!("\n{}{v}", " ".repeat(pad)));
                }
                out
            }),
        2 => (key(), indent.clone(), proptest::collection::vec((value(), 0usize..4), 1..4))
            .prop_map(|(k, n, items)| {
                let mut out = format!("{k}:");
                for (v, odd) in items {
                    let pad = match odd { 0 => 0, 1 => n + 1, _ => n };
                    out.push_str(&format!("\n{}- {v}", " ".repeat(pad)));
                }
                out
            }),
        1 => (key(), proptest::collection::vec(prop_oneof![
                3 => "[a-z0-9/._+-]{1,6}",
                1 => value(),
            ], 0..4), prop_oneof![Just(", "), Just(","), Just(" , ")])
            .prop_map(|(k, items, sep)| format!("{k}: [{}]", items.join(sep))),
        2 => (key(), value(), indent, proptest::collection::vec(value(), 1..3))
            .prop_map(|(k, v, n, more)| {
                let mut out = format!("{k}: {v}");
                for m in more {
                    out.push_str(&format!("\n{}{m}", " ".repeat(n)));
                }
                out
            }),
        1 => Just(String::new()),
        1 => Just("# note".to_string()),
        1 => Just("---".to_string()),
        1 => Just("  continued".to_string()),
        1 => Just("- item".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

    /// Any block of such lines: the shortcut reads it as the parser does, or leaves it.
    #[test]
    fn any_block(lines in proptest::collection::vec(line(), 0..8), end in prop_oneof![Just(""), Just("\n")], first in 1usize..5) {
        let yaml = lines.join("\n") + end;
        taken(&yaml, first);
    }
}

/// A word of a value the shortcut takes, or now and then one it does not.
fn clean_value() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => "[A-Za-z][A-Za-z0-9 ,.()/+_'-]{0,24}[A-Za-z0-9.)]",
        2 => "[0-9]{1,3}(\\.[0-9]{1,2})?",
        1 => Just("true".to_string()),
        1 => Just("~".to_string()),
        2 => "\"[A-Za-z0-9 :#,.'-]{0,12}\"",
        2 => "'[A-Za-z0-9 :#,.\"-]{0,12}'",
        1 => "[A-Za-z]{1,6}( #| :|: |:| )[a-z]{0,3}",
        1 => "é[a-zà-ÿ]{0,5} 中文",
    ]
}

/// A frontmatter block of the shapes the shortcut reads, with distinct keys.
fn clean_block() -> impl Strategy<Value = String> {
    let entry = prop_oneof![
        5 => clean_value().prop_map(|v| format!(": {v}")),
        2 => (prop_oneof![Just(">"), Just(">-"), Just("|"), Just("|-")], 1usize..5,
              proptest::collection::vec(clean_value(), 1..4), 0usize..8)
            .prop_map(|(h, n, lines, blank)| {
                let mut out = format!(": {h}");
                for (i, l) in lines.iter().enumerate() {
                    if blank == 0 && i == 1 {
                        out.push('\n');
                    }
                    out.push_str(&format!("\n{}{l}", " ".repeat(n)));
                }
                out
            }),
        2 => (0usize..4, proptest::collection::vec(clean_value(), 1..4))
            .prop_map(|(n, items)| {
                let mut out = ":".to_string();
                for i in items {
                    out.push_str(&format!("\n{}- {i}", " ".repeat(n)));
                }
                out
            }),
        1 => proptest::collection::vec("[a-z0-9/._+-]{1,6}", 0..4)
            .prop_map(|items| format!(": [{}]", items.join(", "))),
        2 => (1usize..5, proptest::collection::vec(("[a-z]{1,6}", clean_value()), 1..4))
            .prop_map(|(n, kids)| {
                let mut out = ":".to_string();
                for (i, (k, v)) in kids.into_iter().enumerate() {
                    out.push_str(&format!("\n{}{k}{i}: {v}", " ".repeat(n)));
                }
                out
            }),
        1 => (clean_value(), 1usize..5, proptest::collection::vec(clean_value(), 1..3))
            .prop_map(|(v, n, more)| {
                let mut out = format!(": {v}");
                for m in more {
                    out.push_str(&format!("\n{}{m}", " ".repeat(n)));
                }
                out
            }),
    ];
    proptest::collection::vec(("[a-z][a-z-]{0,8}", entry, 0usize..12), 1..7).prop_map(|entries| {
        let mut out = String::new();
        for (i, (k, e, blank)) in entries.into_iter().enumerate() {
            out.push_str(&format!("{k}{i}{e}\n"));
            if blank == 0 {
                out.push('\n');
            }
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

    /// Blocks of the common shapes (now and then with a blank line or a value the shortcut
    /// leaves): read as the parser reads them.
    #[test]
    fn common_blocks(yaml in clean_block(), first in 1usize..5) {
        taken(&yaml, first);
    }
}
