//! How much of a long randomized or exhaustive run a test does. `cargo test` runs a bounded part,
//! so the README's test command stays within CI's time (as the fuzzers and the oracle do there);
//! `SKILLTUI_TEST_FULL=1 cargo test` runs all of it. Each test that scales says what it bounds.

/// Whether `SKILLTUI_TEST_FULL` asks for the full runs (set and neither empty nor `0`).
pub fn full() -> bool {
    std::env::var_os("SKILLTUI_TEST_FULL").is_some_and(|v| !v.is_empty() && v != "0")
}

/// `bounded` by default, `all` for the full run.
pub fn pick<T>(bounded: T, all: T) -> T {
    if full() { all } else { bounded }
}
