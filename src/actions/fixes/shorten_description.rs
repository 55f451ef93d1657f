//! `shorten-description`: shorten the description to every agent's limit.

use super::{Facts, FixCode, QuickFix, count_all, length_note, limits};
use crate::actions::{Builder, Refusal, RefusalKind, text};

pub(super) struct ShortenDescription;

impl QuickFix for ShortenDescription {
    fn code(&self) -> FixCode {
        FixCode::ShortenDescription
    }
    fn applies(&self, f: &Facts) -> bool {
        let lim = limits(f.models, false);
        f.skill
            .description
            .as_deref()
            .is_some_and(|d| !count_all(d, &lim))
    }
    fn title(&self, _: &Facts) -> String {
        "shorten the description to every agent's limit".into()
    }
    fn plan(&self, b: &mut Builder) -> Result<(), Refusal> {
        let t = b.text()?;
        let d = b.skill.description.clone().unwrap_or_default();
        let lim = limits(b.models, false);
        let new = text::shorten(
            &d,
            lim.iter().map(|(n, _, _)| *n).min().unwrap_or(1024),
            |s| lim.iter().map(|(_, u, _)| u.count(s)).max().unwrap_or(0),
        );
        b.notes.push(length_note("description", &d, &new, &lim));
        let out = text::set_field(&t, "description", &new, &[])
            .ok_or_else(|| Refusal::new(RefusalKind::Invalid, "no frontmatter block"))?;
        b.set_text(out);
        Ok(())
    }
}
