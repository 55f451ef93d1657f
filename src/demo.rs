//! The demo catalog embedded in the binary (`--demo`): a project and a home folder showing the
//! cases skilltui explains, written to a temporary folder that is removed afterwards.

use std::path::{Path, PathBuf};

const CATALOG: &str = include_str!("../assets/demo/catalog.txt");

/// A materialised demo: `project` and `home` folders under a temporary base.
#[derive(Debug)]
pub struct Demo {
    pub base: PathBuf,
    pub project: PathBuf,
    pub home: PathBuf,
}

impl Demo {
    /// Writes the demo tree under a fresh temporary folder.
    pub fn create() -> std::io::Result<Demo> {
        let base = std::env::temp_dir().join(format!(
            "skilltui-demo-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        ));
        write_tree(&base, CATALOG)?;
        Ok(Demo {
            project: base.join("project"),
            home: base.join("home"),
            base,
        })
    }
}

impl Demo {
    /// Writes the demo tree under `base` (emptied first); removed again when dropped. A fixed
    /// place gives reproducible paths (snapshot tests).
    pub fn create_at(base: &Path) -> std::io::Result<Demo> {
        let _ = std::fs::remove_dir_all(base);
        write_tree(base, CATALOG)?;
        Ok(Demo {
            project: base.join("project"),
            home: base.join("home"),
            base: base.to_path_buf(),
        })
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.base);
    }
}

/// Writes a tree described as `@@ PATH` + content blocks and `@@ mkdir PATH` lines.
pub fn write_tree(base: &Path, spec: &str) -> std::io::Result<()> {
    let mut current: Option<(PathBuf, String)> = None;
    let flush = |cur: &mut Option<(PathBuf, String)>| -> std::io::Result<()> {
        if let Some((p, text)) = cur.take() {
            if let Some(parent) = p.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(p, text)?;
        }
        Ok(())
    };
    for line in spec.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("@@ ") {
            flush(&mut current)?;
            let rest = rest.trim_end();
            if let Some(dir) = rest.strip_prefix("mkdir ") {
                std::fs::create_dir_all(base.join(dir))?;
            } else {
                current = Some((base.join(rest), String::new()));
            }
        } else if let Some((_, text)) = current.as_mut() {
            text.push_str(line);
        }
    }
    flush(&mut current)
}
