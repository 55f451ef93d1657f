//! What happens on a panic: the terminal is restored first (when the explorer owns it), then a
//! report with the message, the place and a backtrace is written to skilltui's data folder (or
//! the temp folder), and its path is printed.

use std::io::Write;
use std::path::PathBuf;

/// Where crash reports go: `<data folder>/crashes/`, else the temp folder.
pub fn report_dir() -> PathBuf {
    crate::actions::journal::data_dir()
        .map(|d| d.join("crashes"))
        .unwrap_or_else(|_| std::env::temp_dir().join("skilltui-crashes"))
}

/// Writes a report and returns its path.
pub fn write_report(message: &str) -> Option<PathBuf> {
    let dir = report_dir();
    std::fs::create_dir_all(&dir).ok()?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    let path = dir.join(format!("crash-{stamp}-{}.txt", std::process::id()));
    let mut f = std::fs::File::create(&path).ok()?;
    let _ = writeln!(
        f,
        "skilltui {} crashed\nthread: {}\n{message}\n\nbacktrace:\n{}",
        env!("CARGO_PKG_VERSION"),
        std::thread::current().name().unwrap_or("?"),
        std::backtrace::Backtrace::force_capture()
    );
    Some(path)
}

/// Installs the hook. `restore` runs first (the explorer passes its terminal restoration).
pub fn install(restore: fn()) {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        let report = write_report(&info.to_string());
        previous(info);
        match report {
            Some(p) => eprintln!(
                "skilltui crashed; a report was written to {}",
                crate::sanitize::path(&p)
            ),
            None => eprintln!("skilltui crashed (no report could be written)"),
        }
    }));
}
