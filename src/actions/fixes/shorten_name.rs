//! `shorten-name`: shorten the name to every agent's limit (and the folder with it, when it
//! matched).

use super::{Facts, FixCode, QuickFix, count_all, length_note, limits};
use crate::actions::{Builder, Refusal, RefusalKind, check_name, text};

pub(super) struct ShortenName;

impl QuickFix for ShortenName {
    fn code(&self) -> FixCode {
        FixCode::ShortenName
    }
    fn applies(&self, f: &Facts) -> bool {
        let lim = limits(f.models, true);
        f.skill.name.as_deref().is_some_and(|n| !count_all(n, &lim))
    }
    fn title(&self, _: &Facts) -> String {
        "shorten the name to every agent's limit".into()
    }
    fn plan(&self, b: &mut Builder) -> Result<(), Refusal> {
        let t = b.text()?;
        let n = b.skill.name.clone().unwrap_or_default();
        let lim = limits(b.models, true);
        let max = lim.iter().map(|(l, _, _)| *l).min().unwrap_or(64);
        let mut new = text::shorten_name(&n, max);
        while !count_all(&new, &lim) && !new.is_empty() {
            new.pop();
        }
        check_name(&new)?;
        b.notes.push(length_note("name", &n, &new, &lim));
        let out = text::set_field(&t, "name", &new, &[])
            .ok_or_else(|| Refusal::new(RefusalKind::Invalid, "no frontmatter block"))?;
        b.set_text(out);
        if let Some(dir) = b.skill_folder()
            && dir.file_name().is_some_and(|f| f.to_string_lossy() == n)
        {
            let to = dir.with_file_name(&new);
            b.rename(dir, to)?;
        }
        Ok(())
    }
}
