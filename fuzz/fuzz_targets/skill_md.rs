//! The SKILL.md reader: bytes → text (size, NUL, UTF-8 checks) → split → YAML → typed fields,
//! with the canonical rules, every split/YAML variation, and the spec validator. Also checks
//! that what the terminal gate lets through is free of control and invisible characters.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skilltui::sanitize;
use skilltui::skill::{SkillMd, SplitOptions, StrField, YamlOptions, frontmatter, parse_with};

fn assert_terminal_safe(s: &str) {
    for c in sanitize::line(s).chars() {
        assert!(
            !sanitize::is_unsafe(c, false),
            "{c:?} survived sanitize::line"
        );
    }
    for c in sanitize::text(s).chars() {
        assert!(
            !sanitize::is_unsafe(c, true),
            "{c:?} survived sanitize::text"
        );
    }
}

fn exercise(doc: &skilltui::skill::Document<'_>, text: &str) {
    let fm = &doc.frontmatter;
    for (k, e) in fm.keys() {
        assert_terminal_safe(k);
        let _ = e.value.ty();
    }
    for (k, _, pos) in fm.extra_fields() {
        assert!(pos.line >= 1 && pos.column >= 1, "{k}: {pos:?}");
    }
    for f in [
        fm.name(),
        fm.description(),
        fm.license(),
        fm.compatibility(),
        fm.allowed_tools(),
    ] {
        if let StrField::Str(s, pos) = f {
            assert!(pos.line >= 1);
            assert_terminal_safe(s);
        }
    }
    let _ = fm.metadata();
    // The body is a suffix of the text.
    assert!(text.ends_with(doc.body), "body is not the tail of the file");
    assert!(doc.body_line >= 1);
}

fuzz_target!(|data: &[u8]| {
    let md = match SkillMd::from_bytes(data.to_vec()) {
        Ok(md) => md,
        Err(e) => {
            // Errors are described, and positions are inside the input.
            let _ = e.to_string();
            if let Some(line) = e.line() {
                assert!(line >= 1 && line <= data.iter().filter(|&&b| b == b'\n').count() + 1);
            }
            return;
        }
    };
    let text = md.text();
    assert_terminal_safe(text);
    if let Ok(doc) = md.parse() {
        exercise(&doc, text);
    } else if let Err(e) = md.parse() {
        let _ = (e.to_string(), e.code(), e.pos());
    }
    for p in skilltui::spec::validate_text(text, Some("x")) {
        let _ = format!("{p:?}");
    }
    for bits in 0..16u8 {
        let split = SplitOptions {
            strip_bom: bits & 1 != 0,
            padded_delimiters: bits & 2 != 0,
            unclosed_rest_is_yaml: bits & 4 != 0,
        };
        let yaml = YamlOptions {
            allow_duplicate_keys: bits & 8 != 0,
        };
        if let Ok(s) = frontmatter::split(text, split) {
            // The split returns slices of the text, in order.
            assert!(text.ends_with(s.body));
            assert!(s.yaml_line >= 1 && s.body_line >= s.yaml_line);
        }
        match parse_with(text, split, yaml) {
            Ok(doc) => exercise(&doc, text),
            Err(e) => {
                let _ = (e.to_string(), e.code(), e.pos());
            }
        }
    }
});
