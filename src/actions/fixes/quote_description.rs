//! `quote-description`: quote a description that holds an unquoted `: ` (invalid YAML, or an
//! agent's YAML error).

use super::{Facts, FixCode, QuickFix, has_problem, has_reason};
use crate::actions::{Builder, Refusal, text};
use crate::agents::Topic;
use crate::spec::ProblemCode;

pub(super) struct QuoteDescription;

impl QuickFix for QuoteDescription {
    fn code(&self) -> FixCode {
        FixCode::QuoteDescription
    }
    fn applies(&self, f: &Facts) -> bool {
        f.text
            .as_deref()
            .is_some_and(|t| text::unquoted_colon(t, "description").is_some())
            && (has_problem(f.skill, ProblemCode::YamlInvalid)
                || has_reason(f.skill, Topic::YamlError))
    }
    fn title(&self, _: &Facts) -> String {
        "quote the description (it holds an unquoted `: `)".into()
    }
    fn plan(&self, b: &mut Builder) -> Result<(), Refusal> {
        let t = b.text()?;
        if let Some(f) = text::unquoted_colon(&t, "description") {
            b.set_text(text::quote_value(&t, &f));
        }
        Ok(())
    }
}
