//! Property: the SKILL.md reader and the validator accept any byte sequence without panicking,
//! and the split is consistent with the text.

use proptest::prelude::*;
use skilltui::skill::{SkillMd, SplitOptions, YamlOptions, frontmatter, parse_with};
use skilltui::spec;

/// Fragments that steer random text into the interesting corners of the grammar.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("---\n".to_string()),
        Just("---\r\n".to_string()),
        Just("  ---  \n".to_string()),
        Just("\u{feff}".to_string()),
        Just("name: ".to_string()),
        Just("description: ".to_string()),
        Just("metadata:\n  ".to_string()),
        Just(": ".to_string()),
        Just("\n".to_string()),
        Just("\t".to_string()),
        Just("- ".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("&a ".to_string()),
        Just("*a".to_string()),
        Just("!!str ".to_string()),
        Just("!x ".to_string()),
        Just("'".to_string()),
        Just("\"".to_string()),
        Just("|\n  ".to_string()),
        Just(">-\n  ".to_string()),
        Just("# c".to_string()),
        Just("%YAML 1.2\n".to_string()),
        Just("...\n".to_string()),
        Just("? ".to_string()),
        "[a-z0-9-]{0,12}".prop_map(|s| s),
        "\\PC{0,6}".prop_map(|s| s),
    ]
}

fn check(text: &str) {
    let _ = spec::validate_text(text, Some("x"));
    // The split kept with the text is the split of the text, asked once or again.
    let md = SkillMd::from_text(text.to_string());
    for strip_bom in [false, true] {
        for padded in [false, true] {
            for rest in [false, true] {
                let opts = SplitOptions {
                    strip_bom,
                    padded_delimiters: padded,
                    unclosed_rest_is_yaml: rest,
                };
                let split = frontmatter::split(text, opts);
                assert_eq!(md.split(opts), split);
                assert_eq!(md.split(opts), split);
                if let Ok(s) = split {
                    // The parts are slices of the text, in order.
                    assert!(s.yaml.len() + s.body.len() <= text.len());
                    assert!(s.body_line >= 2);
                }
                for dup in [false, true] {
                    let _ = parse_with(
                        text,
                        opts,
                        YamlOptions {
                            allow_duplicate_keys: dup,
                        },
                    );
                }
            }
        }
    }
}

#[test]
fn each_split_option_set_has_its_own_slot() {
    let mut seen = std::collections::BTreeSet::new();
    for strip_bom in [false, true] {
        for padded_delimiters in [false, true] {
            for unclosed_rest_is_yaml in [false, true] {
                let opts = SplitOptions {
                    strip_bom,
                    padded_delimiters,
                    unclosed_rest_is_yaml,
                };
                assert!(opts.index() < SplitOptions::COUNT);
                seen.insert(opts.index());
            }
        }
    }
    assert_eq!(seen.len(), SplitOptions::COUNT);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

    #[test]
    fn any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        if let Ok(md) = SkillMd::from_bytes(bytes) {
            check(md.text());
        }
    }

    #[test]
    fn yaml_shaped_text(parts in proptest::collection::vec(fragment(), 0..60)) {
        let text = format!("---\n{}", parts.concat());
        check(&text);
        let closed = format!("---\n{}\n---\nbody", parts.concat());
        check(&closed);
    }
}
