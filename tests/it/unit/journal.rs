//! The unit tests of `skilltui::actions::journal` (`src/actions/journal.rs`).

#[test]
fn hex_round_trip() {
    let b = b"\x00\xffabc".to_vec();
    assert_eq!(
        skilltui::actions::journal::unhex(&skilltui::actions::journal::hex(&b)),
        Some(b)
    );
}

#[test]
fn relative_targets() {
    use std::path::Path;
    assert_eq!(
        skilltui::actions::journal::relative_target(
            Path::new("/p/.agents/skills/x"),
            Path::new("/p/.claude/skills/x")
        ),
        Path::new("../../.agents/skills/x")
    );
}
