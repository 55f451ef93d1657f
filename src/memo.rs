//! A value worked out from its owner the first time it is asked for, then kept: what a file's
//! text, a walked candidate or an ignore file can answer once for every agent that asks.
//!
//! A memo is part of its owner only as a cache: two owners equal in everything else are equal
//! whatever their memos hold, and a clone starts with an empty memo (it is worked out again
//! from the clone, so it can never describe another owner).

use std::sync::OnceLock;

pub struct Memo<T>(OnceLock<T>);

impl<T> Memo<T> {
    pub const fn new() -> Memo<T> {
        Memo(OnceLock::new())
    }

    /// The value, worked out by `f` the first time (on one thread; others wait for it).
    pub fn get_or_init(&self, f: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(f)
    }
}

impl<T> Default for Memo<T> {
    fn default() -> Memo<T> {
        Memo::new()
    }
}

impl<T> Clone for Memo<T> {
    fn clone(&self) -> Memo<T> {
        Memo::new()
    }
}

impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Memo<T>) -> bool {
        true
    }
}

impl<T> Eq for Memo<T> {}

impl<T> std::fmt::Debug for Memo<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "Memo(kept)"
        } else {
            "Memo(empty)"
        })
    }
}
