//! `remove-bom`: drop the UTF-8 byte order mark before `---`.

use super::{Facts, FixCode, QuickFix};
use crate::actions::{Builder, Refusal, text};

pub(super) struct RemoveBom;

impl QuickFix for RemoveBom {
    fn code(&self) -> FixCode {
        FixCode::RemoveBom
    }
    fn applies(&self, f: &Facts) -> bool {
        f.bytes.starts_with(text::BOM.as_bytes())
    }
    fn title(&self, _: &Facts) -> String {
        "remove the UTF-8 byte order mark before `---`".into()
    }
    fn plan(&self, b: &mut Builder) -> Result<(), Refusal> {
        if b.bytes.starts_with(text::BOM.as_bytes()) {
            b.bytes.drain(..text::BOM.len());
        }
        Ok(())
    }
}
