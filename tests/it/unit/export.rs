//! The unit tests of `skilltui::export` (`src/export.rs`).

use skilltui::export::*;

#[test]
fn fields_parse_skill_and_verdict_keys() {
    let f = Fields::parse(&["path,agents.status".into()]).unwrap();
    assert!(f.skill("path") && f.skill("agents") && !f.skill("name"));
    assert!(f.verdict("status") && !f.verdict("reasons"));
    let all = Fields::parse(&["agents".into(), "agents.status".into()]).unwrap();
    assert!(all.verdict("reasons"), "`agents` keeps every verdict key");
    let e = Fields::parse(&["path,nmae".into()]).unwrap_err();
    assert!(e.contains("`nmae`") && e.contains("agents.status"), "{e}");
    assert!(Fields::parse(&["agents.bogus".into()]).is_err());
    assert!(Fields::parse(&[",".into()]).is_err());
}
