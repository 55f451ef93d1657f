//! The library's unit tests: a module per area of `src/`, reaching the items they test through
//! `skilltui::…` (items only tests call are `#[doc(hidden)] pub`). They live here rather than in
//! `#[cfg(test)]` modules so `cargo test` compiles the library once (`[lib] test = false`).

mod accept;
mod body;
mod cases;
mod collision_keys;
mod diff;
mod export;
mod fixes;
mod generator;
mod head;
mod journal;
mod keys;
mod memo;
mod oracle_report;
mod path_order;
mod pattern;
mod plugin;
mod present;
mod repair;
mod sanitize;
mod search;
mod simple_yaml;
mod spec;
mod template;
mod text;
mod text_steps;
mod tokens;
mod trees;
mod tui_config;
mod verdict;
mod walk;
mod wrap;
