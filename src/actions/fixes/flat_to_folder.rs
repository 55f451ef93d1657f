//! `flat-to-folder`: turn a loose `NAME.md` skill file into `NAME/SKILL.md`.

use super::{Facts, FixCode, QuickFix};
use crate::actions::{Builder, Op, Refusal};

pub(super) struct FlatToFolder;

impl QuickFix for FlatToFolder {
    fn code(&self) -> FixCode {
        FixCode::FlatToFolder
    }
    fn applies(&self, f: &Facts) -> bool {
        !f.file_name.eq_ignore_ascii_case("SKILL.md")
            && f.file_name.to_ascii_lowercase().ends_with(".md")
    }
    fn title(&self, f: &Facts) -> String {
        let stem = &f.file_name[..f.file_name.len() - 3];
        format!("turn `{}` into `{stem}/SKILL.md`", f.file_name)
    }
    fn plan(&self, b: &mut Builder) -> Result<(), Refusal> {
        let fname = b
            .cur
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = fname[..fname.len().saturating_sub(3)].to_string();
        let dir = b.cur.with_file_name(&stem);
        b.free(&dir)?;
        b.moves.push(format!("create {}", b.show(&dir)));
        b.path_ops.push(Op::CreateDir { path: dir.clone() });
        let from = b.cur.clone();
        b.rename(from, dir.join("SKILL.md"))
    }
}
