//! `ungroup`: move a skill out of its grouping folder, directly into the root (for an agent
//! that does not reach that deep).

use super::{Facts, FixCode, QuickFix, group_depth, has_reason};
use crate::actions::{Builder, Refusal, RefusalKind, refuse};
use crate::agents::Topic;

pub(super) struct Ungroup;

impl QuickFix for Ungroup {
    fn code(&self) -> FixCode {
        FixCode::Ungroup
    }
    fn applies(&self, f: &Facts) -> bool {
        has_reason(f.skill, Topic::MaxDepth) && group_depth(f.skill) >= 2
    }
    fn title(&self, _: &Facts) -> String {
        "move the skill out of its grouping folder, directly into the root".into()
    }
    fn plan(&self, b: &mut Builder) -> Result<(), Refusal> {
        let Some(dir) = b.skill_folder() else {
            return refuse(
                RefusalKind::Invalid,
                "the skill has no folder of its own to move",
            );
        };
        let root = b
            .skill
            .root
            .clone()
            .ok_or_else(|| Refusal::new(RefusalKind::Invalid, "the skill has no root"))?;
        let name = dir
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_default();
        let to = root.join(name);
        b.rename(dir, to)
    }
}
