//! `quote-value`: quote, as a string, a one-line value whose type makes an agent drop the skill
//! (offered by a field value rule's reason).

use super::{Facts, FixCode, QuickFix};
use crate::actions::{Builder, Refusal, text};
use crate::agents::Topic;
use crate::catalog::Skill;

pub(super) struct QuoteValue;

impl QuickFix for QuoteValue {
    fn code(&self) -> FixCode {
        FixCode::QuoteValue
    }
    fn applies(&self, f: &Facts) -> bool {
        f.text
            .as_deref()
            .is_some_and(|t| !quotable_values(f.skill, t).is_empty())
    }
    fn title(&self, f: &Facts) -> String {
        let keys = quotable_values(f.skill, f.text.as_deref().unwrap_or_default());
        let shown: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        format!(
            "quote the value of {} as a string (an agent drops the skill over its type)",
            shown.join(", ")
        )
    }
    fn plan(&self, b: &mut Builder) -> Result<(), Refusal> {
        let t = b.text()?;
        let keys = quotable_values(b.skill, &t);
        let mut out = t.clone();
        for k in &keys {
            let Some(blk) = text::block(&out) else { break };
            if let Some(f) = text::fields(&out, &blk).into_iter().find(|f| f.key == *k) {
                out = text::quote_value(&out, &f);
                b.notes.push(format!(
                    "`{k}` becomes the string {} (the text as written)",
                    text::double_quoted(f.value(&t))
                ));
            }
        }
        b.set_text(out);
        Ok(())
    }
}

/// Top-level fields whose value some agent's verdict offers to quote (reason `fix` =
/// `quote-value`, a field value rule) and that are written on one line, so
/// quoting the text as written makes the value a string.
fn quotable_values(s: &Skill, text: &str) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for (_, v) in &s.verdicts {
        for r in &v.reasons {
            if r.fix.as_deref() != Some(FixCode::QuoteValue.as_str()) {
                continue;
            }
            let Some(key) = r
                .rule
                .field()
                .filter(|_| r.topic == Topic::FieldValue)
                .map(String::from)
            else {
                continue;
            };
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    let Some(b) = text::block(text) else {
        return Vec::new();
    };
    let fields = text::fields(text, &b);
    keys.retain(|k| {
        fields.iter().any(|f| {
            f.key == *k
                && !f.multiline
                && text::style_of(f, text) == text::Style::Plain
                && !f.value(text).trim().is_empty()
        })
    });
    keys
}
