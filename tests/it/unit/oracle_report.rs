//! The unit tests of `skilltui::oracle` (`src/oracle/mod.rs`).

use skilltui::oracle::*;
use skilltui::resolve::Status;
use std::path::Path;

fn known(agent: &str, case: &str, contains: &str) -> KnownDivergence {
    KnownDivergence {
        agent: agent.into(),
        case: case.into(),
        contains: contains.into(),
        rule: format!("{agent}/some.rule"),
    }
}

fn case(name: &str) -> Case {
    let mut c = cases::random(1);
    c.name = name.into();
    c
}

fn missing(path: &str) -> Diff {
    Diff::Missing {
        name: "x".into(),
        path: path.into(),
        agent_error: None,
    }
}

#[test]
fn a_crashed_listing_is_one_difference_naming_the_known_bug_that_predicts_it() {
    let crashed = Listing::parse(
        r#"{"agent":"amp","version":"1","crashed":"TypeError: n.name.localeCompare is not a function"}"#,
    )
    .unwrap();
    let mut pred = Prediction::default();
    pred.visible.insert(("a".into(), "/p/a/SKILL.md".into()));
    let c = compare(&pred, &crashed, Path::new("/p"), false);
    assert_eq!(c.diffs.len(), 1);
    assert!(c.diffs[0].to_string().contains("no known bug predicts it"));
    pred.bugs.insert("amp/bugs.numeric-name-crash".into());
    let c = compare(&pred, &crashed, Path::new("/p"), false);
    assert!(
        c.diffs[0]
            .to_string()
            .contains("skilltui: known bug amp/bugs.numeric-name-crash"),
        "{}",
        c.diffs[0]
    );
}

#[test]
fn a_names_only_listing_is_compared_on_the_set_of_names() {
    let l = Listing::parse(
        r#"{"agent":"auggie","version":"1","names_only":true,"skills":[{"name":"a","path":""},{"name":"odd","path":""},{"name":"maybe","path":""}]}"#,
    )
    .unwrap();
    assert!(l.names_only);
    let mut pred = Prediction::default();
    pred.visible
        .insert(("a".into(), "/p/.augment/skills/a/SKILL.md".into()));
    pred.visible
        .insert(("b".into(), "/p/.augment/skills/b/SKILL.md".into()));
    pred.unknown
        .insert("/p/.augment/skills/maybe/SKILL.md".into());
    pred.status
        .insert("/p/.augment/skills/odd/SKILL.md".into(), Status::Rejected);
    pred.reason.insert(
        "/p/.augment/skills/odd/SKILL.md".into(),
        "auggie/parse.yaml_error (bad)".into(),
    );
    let c = compare(&pred, &l, Path::new("/p"), false);
    let text: Vec<String> = c.diffs.iter().map(|d| d.to_string()).collect();
    assert_eq!(text.len(), 2, "{text:?}");
    assert!(
        text.iter()
            .any(|t| t
                == "skilltui: visible as `b`; agent: not listed — /p/.augment/skills/b/SKILL.md"),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t
                .starts_with("agent lists `odd`; skilltui: rejected by auggie/parse.yaml_error")),
        "{text:?}"
    );
    // The same set of names agrees.
    let agree = Listing::parse(
        r#"{"agent":"auggie","version":"1","names_only":true,"skills":[{"name":"a","path":""},{"name":"b","path":""}]}"#,
    )
    .unwrap();
    assert!(compare(&pred, &agree, Path::new("/p"), false).agrees());
}

#[test]
fn verdict_json_keys_drive_the_prediction() {
    let v: serde_json::Value = serde_json::from_str(
        r#"{"status":"visible","as":"x","description_as_listed":"A b","conditional":["src/**"]}"#,
    )
    .unwrap();
    assert!(is_conditional(&v));
    assert_eq!(described(&v), Some(Some("A b".into())));
    let plain: serde_json::Value =
        serde_json::from_str(r#"{"status":"visible","as":"x"}"#).unwrap();
    assert!(!is_conditional(&plain));
    assert_eq!(described(&plain), None);
    let null: serde_json::Value =
        serde_json::from_str(r#"{"description_as_listed":null,"conditional":[]}"#).unwrap();
    assert!(!is_conditional(&null));
    assert_eq!(described(&null), Some(None));

    // A conditional skill the agent lists at session start is a difference; one it leaves
    // out is agreement.
    let mut pred = Prediction::default();
    pred.conditional.insert("/p/c/SKILL.md".into());
    let none = Listing::default();
    assert!(compare(&pred, &none, Path::new("/p"), false).agrees());
    let listing = Listing {
        skills: vec![listed("c", "/p/c/SKILL.md", None)],
        ..Listing::default()
    };
    let c = compare(&pred, &listing, Path::new("/p"), false);
    assert_eq!(c.diffs.len(), 1);
    assert!(c.diffs[0].to_string().contains("skilltui: conditional"));
}

#[test]
fn the_listing_carries_each_listed_description() {
    let l = Listing::parse(
        r#"{"agent":"pi","version":"1","skills":[{"name":"a","path":"/p/a/SKILL.md","description":"A\tb\n"},{"name":"b","path":"/p/b/SKILL.md","description":null},{"name":"c","path":"/p/c/SKILL.md"}],"errors":[],"builtin":[]}"#,
    )
    .unwrap();
    let d: Vec<Option<&str>> = l.skills.iter().map(|s| s.description.as_deref()).collect();
    assert_eq!(d, vec![Some("A\tb\n"), None, None]);
    // `c` has no description key: it is not compared on its description.
    let described: Vec<bool> = l.skills.iter().map(|s| s.described).collect();
    assert_eq!(described, vec![true, true, false]);
}

fn listed(name: &str, path: &str, description: Option<&str>) -> Listed {
    Listed {
        name: name.into(),
        path: path.into(),
        description: description.map(String::from),
        described: true,
    }
}

#[test]
fn descriptions_are_compared_when_the_verdict_predicts_one() {
    let project = Path::new("/p");
    let mut pred = Prediction::default();
    pred.visible.insert(("a".into(), "/p/a/SKILL.md".into()));
    pred.visible.insert(("b".into(), "/p/b/SKILL.md".into()));
    pred.visible.insert(("c".into(), "/p/c/SKILL.md".into()));
    pred.description
        .insert("/p/a/SKILL.md".into(), Some("line one line two".into()));
    pred.description.insert("/p/c/SKILL.md".into(), None);
    let listing = |a: Option<&str>, c: Option<&str>| Listing {
        skills: vec![
            listed("a", "/p/a/SKILL.md", a),
            // No prediction for b's description: never compared.
            listed("b", "/p/b/SKILL.md", Some("whatever")),
            // A row without path (Claude Code's dialog only) is matched by name.
            listed("c", "", c),
        ],
        ..Listing::default()
    };
    let same = compare(
        &pred,
        &listing(Some("line one line two"), None),
        project,
        false,
    );
    assert!(same.agrees(), "{:?}", same.diffs);
    let c = compare(
        &pred,
        &listing(Some("line one\nline two\n"), Some("Title")),
        project,
        false,
    );
    assert_eq!(c.diffs.len(), 2, "{:?}", c.diffs);
    let text: Vec<String> = c.diffs.iter().map(|d| d.to_string()).collect();
    assert!(
        text.iter().any(|t| {
            t.contains(
        r#"description: skilltui "line one line two", agent "line one\nline two\n" — /p/a/SKILL.md"#
    )
        }),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains(r#"description: skilltui none, agent "Title""#)),
        "{text:?}"
    );
    // A known divergence can name the difference by its text.
    let k = KnownDivergence {
        agent: "pi".into(),
        case: "*".into(),
        contains: "description: skilltui none".into(),
        rule: "pi/x".into(),
    };
    assert!(c.diffs.iter().any(|d| k.matches("pi", "fields-pi", d)));
}

#[test]
fn known_entries_that_match_nothing_are_reported_once_their_case_ran() {
    let mut r = Report {
        known: vec![
            known("pi", "a", "/used/"),
            known("pi", "a", "/stale/"),
            known("pi", "never-ran", "/x/"),
            known("codex", "*", "/other-agent/"),
        ],
        ..Report::default()
    };
    let c = Comparison {
        diffs: vec![missing("/p/used/SKILL.md")],
        ..Comparison::default()
    };
    r.record("pi", &case("a"), Ok((Listing::default(), c)));
    let unused: Vec<&str> = r
        .unused_known()
        .iter()
        .map(|k| k.contains.as_str())
        .collect();
    // `/used/` matched; `never-ran` and codex's entry were not exercised.
    assert_eq!(unused, vec!["/stale/"]);
    assert_eq!(r.agents["pi"].random, (1, 1), "a known-only run agrees");
    assert!(r.render(true).contains("unused known divergence `/stale/`"));

    r.record(
        "codex",
        &case("b"),
        Ok((Listing::default(), Comparison::default())),
    );
    let unused: Vec<&str> = r
        .unused_known()
        .iter()
        .map(|k| k.contains.as_str())
        .collect();
    assert_eq!(unused, vec!["/stale/", "/other-agent/"]);
}

#[test]
fn replay_reports_only_what_the_comparison_reads() {
    let mut a = Prediction::default();
    a.visible.insert(("x".into(), "/t/x/SKILL.md".into()));
    a.description
        .insert("/t/x/SKILL.md".into(), Some("One.".into()));
    let mut b = a.clone();
    // The decisive reason's text is not compared: no change.
    b.reason.insert("/t/x/SKILL.md".into(), "r (m)".into());
    assert!(prediction_changes(&a, &b).is_empty());
    b.description
        .insert("/t/x/SKILL.md".into(), Some("Two.".into()));
    b.visible.insert(("y".into(), "/t/y/SKILL.md".into()));
    b.rejected.insert("/t/z/SKILL.md".into());
    let d = prediction_changes(&a, &b);
    assert_eq!(d.len(), 3, "{d:?}");
    assert!(
        d.iter()
            .any(|l| l.starts_with("visible now") && l.contains("\"y\""))
    );
    assert!(
        d.iter()
            .any(|l| l.starts_with("description of /t/x/SKILL.md"))
    );
}
