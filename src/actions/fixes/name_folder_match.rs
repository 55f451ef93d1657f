//! `name-folder-match`: make the name and the folder match (the folder takes the name when it
//! can, else the name takes the folder's).

use super::{Facts, FixCode, QuickFix, group_depth, has_problem};
use crate::actions::{Builder, Refusal, RefusalKind, check_name, refuse, text};
use crate::spec::ProblemCode;

pub(super) struct NameFolderMatch;

impl QuickFix for NameFolderMatch {
    fn code(&self) -> FixCode {
        FixCode::NameFolderMatch
    }
    fn applies(&self, f: &Facts) -> bool {
        let in_own_folder =
            f.file_name.eq_ignore_ascii_case("SKILL.md") && group_depth(f.skill) >= 1;
        has_problem(f.skill, ProblemCode::NameDirectoryMismatch)
            && f.skill.name.is_some()
            && in_own_folder
    }
    fn title(&self, f: &Facts) -> String {
        format!(
            "make the name and the folder match (`{}` / `{}`)",
            f.skill.name.as_deref().unwrap_or(""),
            f.skill.dir
        )
    }
    fn plan(&self, b: &mut Builder) -> Result<(), Refusal> {
        if b.fixes.iter().any(|f| f == FixCode::ShortenName.as_str()) {
            b.notes.push("name-folder-match: the shortened name decides; run `fix` again if they still differ".into());
            return Ok(());
        }
        let skill = b.skill;
        let name = skill.name.clone().unwrap_or_default();
        let dir_ok = check_name(&skill.dir).is_ok();
        let folder = b.skill_folder();
        let folder_rename = folder.as_ref().filter(|d| {
            check_name(&name).is_ok() && std::fs::symlink_metadata(d.with_file_name(&name)).is_err()
        });
        if let Some(dir) = folder_rename.cloned() {
            let to = dir.with_file_name(&name);
            b.notes.push(format!(
                "the folder takes the name `{name}` (the name most agents list)"
            ));
            b.rename(dir, to)?;
        } else if dir_ok {
            let t = b.text()?;
            let out = text::set_field(&t, "name", &skill.dir, &[])
                .ok_or_else(|| Refusal::new(RefusalKind::Invalid, "no frontmatter block"))?;
            b.notes
                .push(format!("the name becomes the folder's, `{}`", skill.dir));
            b.set_text(out);
        } else {
            return refuse(
                RefusalKind::Invalid,
                format!(
                    "neither the name `{name}` nor the folder `{}` is a valid skill name; use `skilltui rename`",
                    skill.dir
                ),
            );
        }
        Ok(())
    }
}
