//! The unit tests of `skilltui::present` (`src/present.rs`).

use skilltui::agents::AgentModel;
use skilltui::env::Env;
use skilltui::present::*;
use std::path::Path;

#[test]
fn cut_keeps_short_text_and_marks_a_cut() {
    assert_eq!(cut("codex", 5), "codex");
    assert_eq!(cut("copilot-cli", 6), "copil…");
    assert_eq!(cut("copilot", 1), "…");
    assert_eq!(cut("copilot", 0), "");
    assert_eq!(cut("ñandú-skill", 4), "ñan…");
}

#[test]
fn agent_labels_take_the_most_telling_form_that_fits() {
    let models = skilltui::agents::builtin();
    let m = models.iter().find(|m| m.id == "copilot-cli").unwrap();
    assert_eq!(agent_label(m, 20), "copilot-cli");
    assert_eq!(agent_label(m, 11), "copilot-cli");
    assert_eq!(agent_label(m, 10), "copilot");
    assert_eq!(agent_label(m, 7), "copilot");
    assert_eq!(agent_label(m, 6), "copil…");
    assert_eq!(agent_label(m, 4), "cop…");
    assert_eq!(agent_label(m, 2), m.abbrev());
    let pi = models.iter().find(|m| m.id == "pi").unwrap();
    assert_eq!(agent_label(pi, 2), "pi");
    for m in &models {
        for w in 2..24 {
            assert!(agent_label(m, w).chars().count() <= w, "{} {w}", m.id);
        }
    }
}

#[test]
fn cut_words_ends_on_a_whole_word() {
    assert_eq!(cut_words("short", 10), "short");
    assert_eq!(
        cut_words("batch rendering multiple views, or more", 34),
        "batch rendering multiple views…"
    );
    assert_eq!(cut_words("one two three", 8), "one two…");
    assert_eq!(cut_words("one two three", 9), "one two…");
    assert_eq!(cut_words("abcdefghij", 5), "abcd…");
    assert_eq!(cut_words("x", 0), "");
    // A long path after a short word is cut in the path, not before it.
    assert_eq!(
        cut_words("the name ~/.claude/skills/brainstorming/SKILL.md is", 20),
        "the name ~/.claude/…"
    );
    for n in 1..40 {
        let c = cut_words("Configure and optimize rendering in 3ds Max — V-Ray", n);
        assert!(c.chars().count() <= n, "{n}: {c}");
    }
}

#[test]
fn labels_side_by_side_stay_apart_at_every_width() {
    let models = skilltui::agents::builtin();
    assert!(models.len() >= 21, "{}", models.len());
    let all: Vec<&AgentModel> = models.iter().collect();
    for w in 2..=24 {
        let labels = agent_labels(&all, w);
        let mut seen = std::collections::BTreeSet::new();
        for (m, l) in all.iter().zip(&labels) {
            assert!(l.chars().count() <= w, "{} {w}: {l}", m.id);
            assert!(
                seen.insert(l.to_lowercase()),
                "{l} twice at {w}: {labels:?}"
            );
        }
        // Any subset too (the columns shown), e.g. every other agent.
        let some: Vec<&AgentModel> = all.iter().copied().step_by(2).collect();
        let l2 = agent_labels(&some, w);
        let set: std::collections::BTreeSet<_> = l2.iter().collect();
        assert_eq!(set.len(), l2.len(), "{w}: {l2:?}");
    }
    let labels = column_labels(&models);
    let set: std::collections::BTreeSet<_> = labels.iter().collect();
    assert_eq!(set.len(), labels.len(), "{labels:?}");
}

#[test]
fn clashing_forms_step_down_together() {
    let models = skilltui::agents::builtin();
    let claude = models.iter().find(|m| m.id == "claude-code").unwrap();
    let mut twin = claude.clone();
    twin.id = "claude-x".into();
    twin.short = Some("cx2".into());
    // Alone, each is `claude` at 7; together they keep their ids, or step down to codes.
    assert_eq!(agent_label(claude, 7), "claude");
    let l = agent_labels(&[claude, &twin], 11);
    assert_eq!(l, ["claude-code", "claude-x"]);
    let l = agent_labels(&[claude, &twin], 7);
    assert_ne!(l[0], l[1], "{l:?}");
    assert_eq!(
        column_labels(&[claude.clone(), twin]),
        ["claude-code", "claude-x"]
    );
}

#[test]
fn handling_labels_shorten_without_cutting() {
    use skilltui::agents::Handling;
    assert_eq!(handling_label(Handling::Unsupported, 11), "unsupported");
    assert_eq!(handling_label(Handling::Unsupported, 10), "uns");
    assert_eq!(handling_label(Handling::Ignored, 4), "ign");
    assert_eq!(handling_label(Handling::Read, 4), "read");
    assert_eq!(handling_label(Handling::Read, 3), "r");
    assert_eq!(handling_label(Handling::Unknown, 2), "?");
}

#[test]
fn tokens_show_their_ratio_to_the_budget() {
    assert_eq!(thousands(0), "0");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1000), "1,000");
    assert_eq!(thousands(141_897), "141,897");
    assert_eq!(thousands(1_234_567), "1,234,567");
    assert_eq!(
        tokens_of_budget(141_897, Some(4_000)),
        "141,897 / 4,000 (35×)"
    );
    assert_eq!(tokens_of_budget(5_000, Some(4_000)), "5,000 / 4,000 (1.2×)");
    assert_eq!(tokens_of_budget(1_200, Some(4_000)), "1,200 / 4,000 (30%)");
    assert_eq!(tokens_of_budget(1_200, None), "1,200");
    assert_eq!(tokens_of_budget(1_200, Some(0)), "1,200");
}

#[test]
fn paths_are_shown_relative_and_escaped() {
    let env = Env::new(Path::new("/p"), Path::new("/h"));
    assert_eq!(show_path(&env, Path::new("/p/a/SKILL.md")), "a/SKILL.md");
    assert_eq!(show_path(&env, Path::new("/h/a/SKILL.md")), "~/a/SKILL.md");
    assert_eq!(show_path(&env, Path::new("/x/a\x1b")), "/x/a\\u{1b}");
    assert_eq!(shorten(&env, "see /p/a and /h/b"), "see a and ~/b");
}
