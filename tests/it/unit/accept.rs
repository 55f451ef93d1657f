//! The unit tests of `skilltui::resolve::accept` (`src/resolve/accept.rs`).

use skilltui::resolve::accept::is_yaml11_timestamp as ts;

#[test]
fn yaml11_timestamps() {
    for yes in [
        "2024-01-01",
        "2001-12-14t21:59:43.10-05:00",
        "2001-12-14 21:59:43.10 -5",
        "2001-12-15T02:59:43.1Z",
        "2002-12-14 1:02:03",
    ] {
        assert!(ts(yes), "{yes}");
    }
    for no in [
        "2024-1-1",
        "2024-01-01x",
        "24-01-01",
        "2024-01-01 ",
        "2024-01-01T",
        "2024-01-01 12:00",
        "Deploys the app",
        "",
    ] {
        assert!(!ts(no), "{no}");
    }
}
