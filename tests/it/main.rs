//! The integration tests, one binary with a module per area (ripgrep's and fd's layout: one link
//! step instead of one per file). Shared fixtures live in `common` and `tui_support`. Separate
//! binaries remain only where a test needs what the others must not wait for: `tests/tui_tmux.rs`
//! (a real terminal in tmux, mostly waiting for frames) and `tests/oracle.rs` (the real agent
//! releases, `SKILLTUI_ORACLE=1`).

mod common;
mod scale;
mod tui_support;

mod actions;
mod actions_tui;
mod adversarial;
mod agent_models;
mod agents_in_use;
mod body_references;
mod check_ci;
mod cli_catalog;
mod cli_parity;
mod config_cli;
mod crash_safety;
mod field_values;
mod json_schema;
mod lean;
mod live;
mod model_format;
mod more_agents;
mod parse_once;
mod planner;
mod plugin_namespace;
mod reader_never_panics;
mod settings;
mod share_cause;
mod skills_ref_conformance;
mod stable_names;
mod tui_frames;
mod tui_search;
mod tui_update;
mod unit;
mod validate_codes;
mod verify;
mod visibility_conformance;
mod watch;
