//! How many random trees each agent runs: `SKILLTUI_ORACLE_TREES`, a count for every agent
//! (`20`), optionally followed by per-agent counts (`20,qoder-cli=4,kilo=8`). The bounded CI
//! mode gives slow agents fewer trees, so the oracle step stays within its time budget.

use std::collections::BTreeMap;

/// Random trees per agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeCounts {
    /// The count for agents not named.
    pub default: u64,
    /// Agent id → its own count.
    pub per_agent: BTreeMap<String, u64>,
}

impl TreeCounts {
    /// Parses `N[,AGENT=N]…` (spaces allowed around the parts). An empty text is `default`.
    pub fn parse(spec: &str, default: u64) -> Result<TreeCounts, String> {
        let mut t = TreeCounts {
            default,
            per_agent: BTreeMap::new(),
        };
        for (i, part) in spec.split(',').map(str::trim).enumerate() {
            if part.is_empty() {
                continue;
            }
            let count = |n: &str| {
                n.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("`{part}`: the tree count must be a whole number"))
            };
            match part.split_once('=') {
                Some((agent, n)) if !agent.trim().is_empty() => {
                    t.per_agent.insert(agent.trim().to_string(), count(n)?);
                }
                Some(_) => return Err(format!("`{part}`: an agent id is missing before `=`")),
                None if i == 0 => t.default = count(part)?,
                None => {
                    return Err(format!(
                        "`{part}`: only the first part is a bare count; write AGENT=N"
                    ));
                }
            }
        }
        Ok(t)
    }

    /// The number of random trees `agent` runs.
    pub fn for_agent(&self, agent: &str) -> u64 {
        self.per_agent.get(agent).copied().unwrap_or(self.default)
    }

    /// The most trees any of `agents` runs (how many seeds to generate).
    pub fn most(&self, agents: &[String]) -> u64 {
        agents.iter().map(|a| self.for_agent(a)).max().unwrap_or(0)
    }
}
