//! The unit tests of `skilltui::resolve::template` (`src/resolve/template.rs`).

use skilltui::resolve::template::{NameIn, PLACEHOLDERS, placeholder_counts, with_name};

/// The one-pass helpers give what `str::replace` and `str::matches` give, on templates with
/// placeholders repeated, nested in braces, cut short, and names that hold a placeholder.
#[test]
fn placeholders_are_counted_and_filled_as_str_replace_and_matches_do() {
    let templates = [
        "",
        "{name}",
        "- {name}: {description}",
        "{name}{name} {{name}} {nam {dir}/{path} {x}",
        "<skill name=\"{name}\" at=\"{path}\" in=\"{dir}\">{description}</skill>{",
        "/{name",
        "ünï{name}cödé{",
        "{name}{name}",
        "{na{name}me}",
    ];
    for t in templates {
        for name in ["", "pdf", "{name}", "a{b", "é"] {
            assert_eq!(
                with_name(t, name),
                t.replace("{name}", name),
                "{t:?} {name:?}"
            );
            let shown = NameIn { template: t, name };
            assert_eq!(
                shown.is_empty(),
                with_name(t, name).is_empty(),
                "{t:?} {name:?}"
            );
        }
        let (counts, braces) = placeholder_counts(t);
        let expected: Vec<usize> = PLACEHOLDERS.iter().map(|k| t.matches(k).count()).collect();
        assert_eq!(counts.to_vec(), expected, "{t:?}");
        assert_eq!(braces, t.matches('{').count(), "{t:?}");
    }
    assert_eq!(placeholder_counts("{name} {name} {dir}").0, [2, 0, 0, 1]);
}
