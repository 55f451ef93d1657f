//! `add-description`: add a missing or empty description, from the body's first paragraph.

use super::{Facts, FixCode, QuickFix, has_problem};
use crate::actions::{Builder, Refusal, RefusalKind, text};
use crate::spec::ProblemCode;

pub(super) struct AddDescription;

impl QuickFix for AddDescription {
    fn code(&self) -> FixCode {
        FixCode::AddDescription
    }
    fn applies(&self, f: &Facts) -> bool {
        has_problem(f.skill, ProblemCode::DescriptionMissing)
            || has_problem(f.skill, ProblemCode::DescriptionEmpty)
    }
    fn title(&self, _: &Facts) -> String {
        "add a description (from the body's first paragraph)".into()
    }
    fn plan(&self, b: &mut Builder) -> Result<(), Refusal> {
        let t = b.text()?;
        let d = text::first_paragraph(&t)
            .map(|p| text::shorten(&p, 200, |s| s.chars().count()))
            .unwrap_or_else(|| {
                format!(
                    "TODO: say what {} does and when to use it.",
                    b.skill.label()
                )
            });
        let out = text::set_field(&t, "description", &d, &["name"])
            .ok_or_else(|| Refusal::new(RefusalKind::Invalid, "no frontmatter block"))?;
        b.notes.push("the new description is the body's first paragraph (or a placeholder): edit it to say when to use the skill".into());
        b.set_text(out);
        Ok(())
    }
}
