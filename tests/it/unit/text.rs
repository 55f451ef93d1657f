//! The unit tests of `skilltui::actions::text` (`src/actions/text.rs`).

use skilltui::actions::text::*;

const T: &str = "---\n# a comment\nname: foo   # keep\ndescription: Use when: x\nmetadata:\n  a: b\n---\n# Body\n";

#[test]
fn finds_fields_and_spans() {
    let b = block(T).unwrap();
    let fs = fields(T, &b);
    let keys: Vec<&str> = fs.iter().map(|f| f.key.as_str()).collect();
    assert_eq!(keys, ["name", "description", "metadata"]);
    assert_eq!(fs[0].value(T), "foo");
    assert_eq!(fs[1].value(T), "Use when: x");
    assert!(fs[2].multiline);
}

#[test]
fn set_keeps_everything_else() {
    let out = set_field(T, "name", "bar", &[]).unwrap();
    assert_eq!(out, T.replace("name: foo   # keep", "name: bar   # keep"));
    let crlf = T.replace('\n', "\r\n");
    let out = set_field(&crlf, "name", "bar", &[]).unwrap();
    assert_eq!(out, crlf.replace("name: foo", "name: bar"));
}

#[test]
fn inserts_a_missing_field_after_name() {
    let t = "---\nname: foo\nlicense: MIT\n---\nbody\n";
    let out = set_field(t, "description", "Does x", &["name"]).unwrap();
    assert_eq!(
        out,
        "---\nname: foo\ndescription: Does x\nlicense: MIT\n---\nbody\n"
    );
}

#[test]
fn quotes_a_colon() {
    let f = unquoted_colon(T, "description").unwrap();
    let out = quote_value(T, &f);
    assert!(out.contains("description: \"Use when: x\"\n"));
    assert!(unquoted_colon(&out, "description").is_none());
}

#[test]
fn keeps_quote_style() {
    let t = "---\nname: 'foo'\n---\n";
    assert_eq!(
        set_field(t, "name", "bar", &[]).unwrap(),
        "---\nname: 'bar'\n---\n"
    );
}

#[test]
fn shortens() {
    assert_eq!(shorten_name("abc-def-ghi", 9), "abc-def");
    assert_eq!(shorten_name("abc-def-ghi", 7), "abc-def");
    let d = "word ".repeat(300);
    let s = shorten(&d, 1024, |x| x.chars().count());
    assert!(s.chars().count() <= 1024);
    assert!(s.ends_with("word…"));
}
