//! The unit tests of `skilltui::sanitize` (`src/sanitize.rs`).

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

/// `lossy` gives the text `OsStr::to_string_lossy` gives, borrowed for UTF-8 and with the same
/// replacement characters for the bytes that are not.
#[test]
fn lossy_is_to_string_lossy() {
    for bytes in [
        &b"pdf"[..],
        b"",
        "caf\u{e9} \u{4e2d}\u{6587}".as_bytes(),
        b"a\xffb",
        b"\xc3(",
        b"\xe2\x82",
        b"x\xf0\x9f\x98\x80y\x80",
    ] {
        let s = OsStr::from_bytes(bytes);
        let got = skilltui::sanitize::lossy(s);
        assert_eq!(got, s.to_string_lossy(), "{bytes:?}");
        assert_eq!(
            matches!(got, std::borrow::Cow::Borrowed(_)),
            std::str::from_utf8(bytes).is_ok()
        );
    }
}
