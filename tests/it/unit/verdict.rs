//! The unit tests of `skilltui::resolve::verdict` (`src/resolve/verdict.rs`).

use skilltui::agents::{Strength, Topic};
use skilltui::resolve::verdict::*;

fn r(topic: Topic, msg: &str) -> Reason {
    Reason::skilltui("test", msg.to_string()).with_topic(topic)
}

/// A reason citing an agent rule that nothing establishes (evidence `NONE`).
fn unknown(topic: Topic, msg: &str) -> Reason {
    let mut from: skilltui::agents::Provenance = toml::from_str(
        r#"evidence = "NONE"
source = [{ inferred = "nothing establishes it" }]"#,
    )
    .expect("a provenance");
    from.id = skilltui::agents::RuleId::agent_rule("test", "precedence.mode", topic, None, &from);
    let r = Reason::from_rule(&from, msg.to_string()).with_topic(topic);
    assert_eq!(r.strength(), Some(Strength::None));
    r
}

fn decides(status: Status, reasons: Vec<Reason>) -> Option<String> {
    Verdict::new(status, reasons)
        .deciding()
        .map(|r| r.message.to_string())
}

#[test]
fn a_message_renders_as_format_would() {
    let path = std::path::Path::new("/p/{x}");
    let m = skilltui::msg!(
        "{} does not scan {}; {{literal}} {}",
        "Codex",
        path.display(),
        3
    );
    assert_eq!(
        m.to_string(),
        format!(
            "{} does not scan {}; {{literal}} {}",
            "Codex",
            path.display(),
            3
        )
    );
    assert_eq!(m.template(), "{} does not scan {}; {{literal}} {}");
    assert_eq!(m.values().collect::<Vec<_>>(), ["Codex", "/p/{x}", "3"]);
    // Deref renders once and keeps it; equal messages compare equal either way.
    assert!(m.contains("does not scan /p/{x}"));
    assert_eq!(m, Message::from(m.to_string()));
    assert_eq!(skilltui::msg!("no values").as_str(), "no values");
    assert!(positional_only("a {} b {{c}}"));
    assert!(!positional_only("a {name}"));
    assert!(!positional_only("a {:?}"));
    assert!(!positional_only("a } b"));
    // An unchecked template never panics.
    assert_eq!(Message::new("{", vec![]).to_string(), "{");
    assert_eq!(Message::new("{}{}", vec!["a".into()]).to_string(), "a");
}

#[test]
fn the_deciding_reason_follows_status_and_topic() {
    // Not found: the refusal of the folder, not the list of roots after it.
    assert_eq!(
        decides(
            Status::NotFound,
            vec![
                r(Topic::NotRoot, "not scanned"),
                r(Topic::Root, "roots are")
            ]
        )
        .as_deref(),
        Some("not scanned")
    );
    // …also when the list of roots comes first; too deep beats where it was found.
    assert_eq!(
        decides(
            Status::NotFound,
            vec![
                r(Topic::Root, "roots are"),
                r(Topic::Found, "under"),
                r(Topic::MaxDepth, "too deep")
            ]
        )
        .as_deref(),
        Some("too deep")
    );
    // Rejected: the refusal, not a note appended after it.
    assert_eq!(
        decides(
            Status::Rejected,
            vec![
                r(Topic::Found, "found"),
                r(Topic::FieldValue, "a list"),
                r(Topic::Body, "body note")
            ]
        )
        .as_deref(),
        Some("a list")
    );
    // Shadowed: the precedence rule, even with a field note after it.
    assert_eq!(
        decides(
            Status::Shadowed,
            vec![
                r(Topic::Found, "found"),
                r(Topic::PrecedenceOrder, "taken by"),
                r(Topic::Field, "field note")
            ]
        )
        .as_deref(),
        Some("taken by")
    );
    // Unknown: the rule nothing establishes, not a later established note.
    assert_eq!(
        decides(
            Status::Unknown,
            vec![
                r(Topic::Found, "found"),
                unknown(Topic::Precedence, "which one is not established"),
                r(Topic::Description, "long description")
            ]
        )
        .as_deref(),
        Some("which one is not established")
    );
    // Visible: where it was found.
    assert_eq!(
        decides(
            Status::Visible,
            vec![r(Topic::Body, "scripts"), r(Topic::Found, "under root")]
        )
        .as_deref(),
        Some("under root")
    );
    assert_eq!(decides(Status::Rejected, vec![]), None);
    // Only context: the first of it rather than nothing.
    assert_eq!(
        decides(Status::NotFound, vec![r(Topic::Root, "roots are")]).as_deref(),
        Some("roots are")
    );
}

/// `shown` gives the text `Path::display` gives: for a path that is UTF-8, for one that is not
/// (bytes replaced the same way), and with a width.
#[test]
fn shown_is_what_display_shows() {
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    let odd = std::ffi::OsStr::from_bytes(b"/tmp/a\xffb/\xc3(c/SKILL.md");
    for p in [
        Path::new("/home/u/.claude/skills/pdf"),
        Path::new("rel/é/中文 x"),
        Path::new(""),
        Path::new(odd),
    ] {
        let shown = skilltui::resolve::verdict::shown(p);
        assert_eq!(shown.to_string(), p.display().to_string());
        assert_eq!(format!("[{shown:>40}]"), format!("[{:>40}]", p.display()));
    }
}

#[test]
fn a_message_keeps_any_number_of_values_in_order() {
    // Past the few a template takes inline, empty ones and non-ASCII ones included.
    for n in [0, 1, 7, 8, 9, 12] {
        let values: Vec<Box<str>> = (0..n)
            .map(|i| match i % 3 {
                0 => format!("v{i}"),
                1 => String::new(),
                _ => format!("ü{i}/{{x}}"),
            })
            .map(String::into_boxed_str)
            .collect();
        let template: &'static str = "{}|".repeat(n).leak();
        let m = Message::new(template, values.clone());
        let kept: Vec<&str> = m.values().collect();
        let want: Vec<&str> = values.iter().map(|v| &**v).collect();
        assert_eq!(kept, want, "{n} values");
        assert_eq!(m.values().len(), n);
        assert_eq!(
            m.to_string(),
            want.iter().map(|v| format!("{v}|")).collect::<String>(),
            "{n} values"
        );
        assert_eq!(placeholders(template), n);
    }
    assert_eq!(placeholders("a {{}} {} }}{{ {}"), 2);
    // `msg!` without values, and with a value that makes a message of its own while it is
    // written (each keeps its own values).
    assert_eq!(skilltui::msg!("no values").to_string(), "no values");
    struct Nested;
    impl std::fmt::Display for Nested {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            let inner = skilltui::msg!("inner {} {}", "x", "y");
            write!(f, "<{inner}>")
        }
    }
    let outer = skilltui::msg!("{} then {} then {}", "a", Nested, "b");
    assert_eq!(outer.to_string(), "a then <inner x y> then b");
    assert_eq!(
        outer.values().collect::<Vec<_>>(),
        ["a", "<inner x y>", "b"]
    );
    // `msg!` and `Message::new` make the same message.
    let made = skilltui::msg!("{} and {}", "a", 2);
    assert_eq!(
        made,
        Message::new("{} and {}", vec!["a".into(), "2".into()])
    );
    assert_eq!(made.values().collect::<Vec<_>>(), ["a", "2"]);
}
