//! The listing each agent sends the model at session start: its estimated size for a project,
//! against the agent's budget where the research knows it, and what would be cut first.

use crate::agents::{AgentModel, Known};
use crate::catalog::Catalog;
use crate::resolve::Status;
use serde::Serialize;
use std::path::PathBuf;

/// The context window assumed when a budget is a share of it.
pub const ASSUMED_CONTEXT_TOKENS: u64 = 200_000;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListingEntry {
    #[serde(serialize_with = "crate::sanitize::lossy_path::path")]
    pub path: PathBuf,
    pub name: String,
    pub tokens: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListingReport {
    pub agent: String,
    /// Entries of skills visible to the model, in catalog order.
    pub entries: Vec<ListingEntry>,
    pub total_tokens: u64,
    /// The budget in tokens, when known.
    pub budget_tokens: Option<u64>,
    /// How the budget was derived, or why it is unknown.
    pub budget_note: String,
    /// Visible skills kept out of the listing (e.g. `disable-model-invocation`).
    pub hidden_from_model: usize,
    /// Conditional skills (Claude Code `paths`): not in the listing at session start, listed
    /// once matching files are touched; counted apart from `entries` and `total_tokens`.
    pub conditional: Vec<ListingEntry>,
    /// Tokens the conditional entries add when all of them are triggered.
    pub conditional_tokens: u64,
    /// Entries that would not fit, largest first (an estimate: agents cut by their own order).
    #[serde(skip)]
    pub cut_first: Vec<PathBuf>,
    /// Tokens of the file lists sent on activation, for agents that send them (sum).
    pub bundle_tokens: Option<u64>,
}

/// One report per agent, in agent order.
pub fn reports(cat: &Catalog, models: &[AgentModel]) -> Vec<ListingReport> {
    models
        .iter()
        .map(|m| {
            let mut entries = Vec::new();
            let mut conditional = Vec::new();
            let mut hidden = 0;
            let mut bundle: Option<u64> = None;
            for s in &cat.skills {
                let Some(v) = s.verdict(&m.id) else { continue };
                if v.status != Status::Visible {
                    continue;
                }
                if let Some(b) = &v.bundle {
                    *bundle.get_or_insert(0) += b.tokens;
                }
                match (v.model, v.listing_tokens) {
                    (Some(false), _) => hidden += 1,
                    (_, Some(t)) => {
                        let e = ListingEntry {
                            path: s.path.clone(),
                            name: v.as_name.clone().unwrap_or_default(),
                            tokens: t,
                        };
                        if v.conditional.is_some() {
                            conditional.push(e);
                        } else {
                            entries.push(e);
                        }
                    }
                    _ => {}
                }
            }
            let total: u64 = entries.iter().map(|e| e.tokens).sum();
            let conditional_tokens: u64 = conditional.iter().map(|e| e.tokens).sum();
            let (budget_tokens, budget_note) = match &m.listing.budget.value {
                Known::Known(b) => match (b.context_fraction, b.fallback_chars) {
                    (Some(f), _) => {
                        let t = (ASSUMED_CONTEXT_TOKENS as f64 * f).round() as u64;
                        (
                            Some(t),
                            format!(
                                "{}% of the context window ({t} tokens of an assumed {ASSUMED_CONTEXT_TOKENS}) {}",
                                f * 100.0,
                                m.listing.budget.from.citation()
                            ),
                        )
                    }
                    (None, Some(c)) => (
                        Some(u64::from(c).div_ceil(4)),
                        format!("{c} characters {}", m.listing.budget.from.citation()),
                    ),
                    _ => (None, format!("no budget {}", m.listing.budget.from.citation())),
                },
                Known::Unknown => (None, "the listing budget is not established".into()),
            };
            let mut cut_first = Vec::new();
            if let Some(b) = budget_tokens
                && total > b
            {
                let mut by_size: Vec<&ListingEntry> = entries.iter().collect();
                by_size.sort_by(|a, b| b.tokens.cmp(&a.tokens).then(a.path.cmp(&b.path)));
                let mut over = total - b;
                for e in by_size {
                    if over == 0 {
                        break;
                    }
                    cut_first.push(e.path.clone());
                    over = over.saturating_sub(e.tokens);
                }
            }
            ListingReport {
                agent: m.id.clone(),
                entries,
                total_tokens: total,
                budget_tokens,
                budget_note,
                hidden_from_model: hidden,
                conditional,
                conditional_tokens,
                cut_first,
                bundle_tokens: bundle,
            }
        })
        .collect()
}
