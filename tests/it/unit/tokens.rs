//! The unit tests of `skilltui::cli::tokens` (`src/cli/tokens.rs`).

use skilltui::cli::tokens::{against_budget, thousands};

#[test]
fn figures() {
    assert_eq!(thousands(0), "0");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(4000), "4,000");
    assert_eq!(thousands(141_897), "141,897");
    assert_eq!(thousands(1_234_567), "1,234,567");
    assert_eq!(against_budget(141_897, Some(4000)), "141,897 / 4,000 (35×)");
    assert_eq!(against_budget(6_000, Some(4000)), "6,000 / 4,000 (1.5×)");
    assert_eq!(against_budget(1_200, Some(4000)), "1,200 / 4,000 (30 %)");
    assert_eq!(against_budget(1_200, None), "1,200 / ? (budget unknown)");
}
