//! `skill-md-case`: rename `skill.md` (any case) to `SKILL.md`.

use super::{Facts, FixCode, QuickFix};
use crate::actions::{Builder, Refusal};

pub(super) struct SkillMdCase;

impl QuickFix for SkillMdCase {
    fn code(&self) -> FixCode {
        FixCode::SkillMdCase
    }
    fn applies(&self, f: &Facts) -> bool {
        f.file_name != "SKILL.md" && f.file_name.eq_ignore_ascii_case("SKILL.md")
    }
    fn title(&self, f: &Facts) -> String {
        format!("rename `{}` to `SKILL.md`", f.file_name)
    }
    fn plan(&self, b: &mut Builder) -> Result<(), Refusal> {
        let to = b.cur.with_file_name("SKILL.md");
        let from = b.cur.clone();
        b.rename(from, to)
    }
}
