//! Each built-in agent's acceptance rules on any SKILL.md text: the BOM, delimiter and YAML
//! leniencies, the YAML repairs (`repair::first`, `repair::retry`), name and description rules. No panic, and
//! the repairs keep the line count they promise.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skilltui::agents::{AgentModel, YamlRepair};
use skilltui::resolve::accept::{Acceptance, accept};
use skilltui::resolve::repair;
use skilltui::skill::{SkillMd, SplitOptions, frontmatter};
use std::sync::OnceLock;

fn models() -> &'static [AgentModel] {
    static MODELS: OnceLock<Vec<AgentModel>> = OnceLock::new();
    MODELS.get_or_init(skilltui::agents::builtin)
}

fn lines(s: &str) -> usize {
    s.matches('\n').count()
}

fuzz_target!(|data: &[u8]| {
    // The folder name comes from the input too (up to the first 0xff byte), as agents fall back
    // to it for the skill's name.
    let (folder, rest) = match data.iter().position(|&b| b == 0xff) {
        Some(i) if i <= 64 => (
            String::from_utf8_lossy(&data[..i]).into_owned(),
            &data[i + 1..],
        ),
        _ => ("folder".to_string(), data),
    };
    let Ok(md) = SkillMd::from_bytes(rest.to_vec()) else {
        return;
    };
    for m in models() {
        match accept(m, &Ok(md.clone()), &folder) {
            Acceptance::Accepted(a) => {
                let _ = (&a.name, &a.description, a.notes.len());
            }
            Acceptance::Rejected(r) | Acceptance::Unknown(r) => {
                assert!(!r.message.is_empty(), "{}: empty reason", r.rule);
            }
        }
    }
    // The repairs on the frontmatter block (or the whole text when it has none).
    let yaml = frontmatter::split(md.text(), SplitOptions::CANONICAL)
        .map(|s| s.yaml)
        .unwrap_or(md.text());
    // The split kept with the text is the split of the text.
    assert_eq!(
        md.split(SplitOptions::CANONICAL),
        frontmatter::split(md.text(), SplitOptions::CANONICAL)
    );
    for r in [
        YamlRepair::None,
        YamlRepair::CodexLiteralValues,
        YamlRepair::QuoteColonValues,
        YamlRepair::OpencodeQuoteColons,
        YamlRepair::LineValues,
    ] {
        let first = repair::first(yaml, r);
        let retry = repair::retry(yaml, r);
        if !matches!(r, YamlRepair::OpencodeQuoteColons) {
            assert_eq!(lines(&first), lines(yaml), "{r:?} changed the line count");
        }
        let _ = skilltui::skill::yaml::parse(&first, 2, Default::default());
        if let Some(t) = retry {
            let _ = skilltui::skill::yaml::parse(&t, 2, Default::default());
        }
    }
});
