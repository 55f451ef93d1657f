//! Pieces of the screen, each a pure function of the app state.

pub mod action;
pub mod footer;
pub mod help;
pub mod other;
pub mod problems;
pub mod skills;
pub mod style;
