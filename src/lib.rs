//! skilltui: why does this agent not see my skill, and which copy wins?
//!
//! The library holds all logic; the binary only parses arguments and dispatches.
//! Data flows one way: agent model ([`agents`]) → scan roots → parse SKILL.md ([`skill`])
//! → resolve per agent → catalog snapshot → UI. See ARCHITECTURE.md.
//!
//! The `testkit` feature adds test tooling that installs leave out: the catalog generator
//! (`gen`) and the oracle's cases (`oracle::cases`). Tests, benchmarks and examples enable it
//! through the package's dev-dependency on itself.

#![forbid(unsafe_code)]

pub mod actions;
pub mod agents;
pub mod catalog;
pub mod cli;
pub mod context;
pub mod crash;
pub mod demo;
pub mod env;
pub mod export;
pub mod findings;
#[cfg(feature = "testkit")]
pub mod r#gen;
pub mod listing;
pub mod live;
pub mod memo;
pub mod oracle;
pub mod par;
pub mod path_order;
pub mod pattern;
pub mod plugin;
pub mod present;
pub mod resolve;
pub mod sanitize;
pub mod scan;
pub mod settings;
pub mod skill;
pub mod spec;
pub mod trust;
pub mod tui;
pub mod watch;
