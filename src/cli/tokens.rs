//! `skilltui tokens [--agent ID]… [--json]`: per agent, the size of the skill listing it sends
//! the model at session start against its budget (`listing`), e.g. `141,897 / 4,000 (35×)`.

use super::context::{Common, Context};
use super::{CliError, EXIT_OK, Outcome};
use crate::listing::{self, ListingReport};
use crate::sanitize;
use serde::Serialize;
use std::io::Write;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only these agents (repeatable; id, column title or name, any case); with one agent, its
    /// entries largest first.
    #[arg(long, value_name = "AGENT")]
    pub agent: Vec<String>,
    /// Print JSON: [{"agent", "total_tokens", "budget_tokens", "ratio", "over_budget",
    /// "budget_note", "entries", …}].
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct TokensJson<'a> {
    #[serde(flatten)]
    report: &'a ListingReport,
    /// The listing's size over the budget (null when the budget is unknown).
    ratio: Option<f64>,
    over_budget: Option<bool>,
}

/// `141897` → `141,897`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The listing against its budget: `141,897 / 4,000 (35×)`, `1,200 / 4,000 (30 %)`,
/// `1,200 / ? (budget unknown)`.
pub fn against_budget(total: u64, budget: Option<u64>) -> String {
    match budget {
        Some(b) if b > 0 => {
            let r = total as f64 / b as f64;
            let ratio = if r >= 10.0 {
                format!("{:.0}×", r)
            } else if r > 1.0 {
                format!("{:.1}×", r)
            } else {
                format!("{:.0} %", r * 100.0)
            };
            format!("{} / {} ({ratio})", thousands(total), thousands(b))
        }
        _ => format!("{} / ? (budget unknown)", thousands(total)),
    }
}

pub fn run(args: &Args, common: &Common, out: &mut dyn Write) -> Outcome {
    let cx = Context::new(common)?;
    let agents = match cx.resolve_agents(&args.agent) {
        Ok(a) => a,
        Err(e) => return Err(CliError::Usage(e)),
    };
    let cat = cx.catalog();
    let reports: Vec<ListingReport> = listing::reports(&cat, &cx.models)
        .into_iter()
        .filter(|r| agents.is_empty() || agents.contains(&r.agent))
        .collect();
    if args.json {
        let json: Vec<TokensJson> = reports
            .iter()
            .map(|r| TokensJson {
                report: r,
                ratio: r
                    .budget_tokens
                    .filter(|&b| b > 0)
                    .map(|b| r.total_tokens as f64 / b as f64),
                over_budget: r.budget_tokens.map(|b| r.total_tokens > b),
            })
            .collect();
        serde_json::to_writer_pretty(&mut *out, &json)?;
        writeln!(out)?;
        return Ok(EXIT_OK);
    }
    let aw = reports
        .iter()
        .map(|r| r.agent.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let sized: Vec<String> = reports
        .iter()
        .map(|r| against_budget(r.total_tokens, r.budget_tokens))
        .collect();
    let tw = sized
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    writeln!(
        out,
        "{:<aw$}  {:>6}  {:<tw$}  BUDGET SOURCE",
        "AGENT", "SKILLS", "TOKENS / BUDGET"
    )?;
    for (r, size) in reports.iter().zip(&sized) {
        let padded = format!("{size:<tw$}");
        let over = r.budget_tokens.is_some_and(|b| r.total_tokens > b);
        writeln!(
            out,
            "{:<aw$}  {:>6}  {}  {}",
            r.agent,
            r.entries.len(),
            if over {
                cx.paint("31", &padded)
            } else {
                padded
            },
            cx.say(&r.budget_note)
        )?;
    }
    for r in &reports {
        let mut notes = Vec::new();
        if r.hidden_from_model > 0 {
            notes.push(format!(
                "{} visible skill(s) kept out of the model's listing",
                r.hidden_from_model
            ));
        }
        if !r.conditional.is_empty() {
            notes.push(format!(
                "{} conditional skill(s) add ≈ {} tokens once matching files are touched",
                r.conditional.len(),
                thousands(r.conditional_tokens)
            ));
        }
        if let Some(b) = r.bundle_tokens {
            notes.push(format!(
                "file lists sent on activation: ≈ {} tokens in all",
                thousands(b)
            ));
        }
        for n in notes {
            writeln!(out, "note: {}: {n}", r.agent)?;
        }
    }
    if let [r] = reports.as_slice() {
        writeln!(out)?;
        let mut entries: Vec<_> = r.entries.iter().collect();
        entries.sort_by(|a, b| b.tokens.cmp(&a.tokens).then(a.path.cmp(&b.path)));
        let cut: foldhash::HashSet<&std::path::PathBuf> = r.cut_first.iter().collect();
        for e in entries {
            writeln!(
                out,
                "{:>7}  {}{}  {}",
                thousands(e.tokens),
                sanitize::line(&e.name),
                if cut.contains(&e.path) {
                    "  (cut first)"
                } else {
                    ""
                },
                cx.show(&e.path)
            )?;
        }
    }
    writeln!(
        out,
        "\nTokens are estimates (characters / 4) of each skill's entry in the agent's listing; `skilltui tokens --agent ID` lists one agent's skills, largest first."
    )?;
    Ok(EXIT_OK)
}
