//! The unit tests of `skilltui::plugin` (`src/plugin.rs`).

use skilltui::plugin::manifest_name;

#[test]
fn names_as_serde_reads_them() {
    let n = |s: &str| manifest_name(s.as_bytes(), "name");
    assert_eq!(n(r#"{"name":"p"}"#), Some("p".into()));
    assert_eq!(n(r#"{"description":"x"}"#), Some("".into()));
    assert_eq!(n(r#"{"name":""}"#), Some("".into()));
    assert_eq!(n(r#" {"name":" sp ","skills":"./"} "#), Some(" sp ".into()));
    assert_eq!(n("[]"), Some("".into()));
    assert_eq!(n(r#"["q"]"#), Some("q".into()));
    for bad in [
        r#"{"name":null}"#,
        r#"{"name":5}"#,
        r#"{"name":{"a":1}}"#,
        r#"{"name":"a","name":"b"}"#,
        r#"{"name":"tr",}"#,
        "{not json",
        "",
        "\u{feff}{\"name\":\"bom\"}",
        r#"{"name":"x"} trailing"#,
        r#"["a","b"]"#,
        "5",
        "null",
    ] {
        assert_eq!(n(bad), None, "{bad}");
    }
}
