//! One skill tree for the oracle: the files, links, folders and variables of a case, and how it
//! is written under a fresh base folder. The runner ([`super::run_case`]) takes a [`Case`]; the
//! cases themselves (targeted and seeded random trees) are test tooling in `cases`, compiled
//! only with the `testkit` feature.
//!
//! Paths in a case are relative to the base: the project (the agent's cwd) is usually
//! `w/project` with `w/project/.git`, the home `home`. Variable values may use `{base}`.

use super::Tree;
use std::path::Path;

/// One tree to run.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    /// Generated from a seed (counted as random in the report).
    pub random: bool,
    /// `@@ PATH` + content blocks and `@@ mkdir PATH` lines ([`crate::demo::write_tree`]).
    pub spec: String,
    /// (link, target), both relative to the base; written as absolute symlinks.
    pub symlinks: Vec<(String, String)>,
    /// The agent's working folder, relative to the base.
    pub cwd: String,
    /// The home folder, relative to the base.
    pub home: String,
    /// Environment variables (`{base}` is replaced by the base folder).
    pub vars: Vec<(String, String)>,
    /// Run only for these agents (None = every agent).
    pub agents: Option<Vec<&'static str>>,
    /// `@@ mkdir X/.git` folders are made real (empty) git repositories (HEAD, objects, refs);
    /// false leaves a bare `.git` folder, which git itself does not take for a repository.
    pub real_git: bool,
}

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Case {
    /// Whether the case is meant for `agent`.
    pub fn applies_to(&self, agent: &str) -> bool {
        self.agents.as_ref().is_none_or(|a| a.contains(&agent))
    }

    /// Writes the tree under a fresh folder inside `scratch`.
    pub fn write(&self, scratch: &Path) -> std::io::Result<Tree> {
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let slug: String = self
            .name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .take(40)
            .collect();
        let base = scratch.join(format!("{slug}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base)?;
        let base = std::fs::canonicalize(&base)?;
        let b = base.to_string_lossy().into_owned();
        // `{base}` in a file's text (a settings file naming an absolute folder) is the base.
        crate::demo::write_tree(&base, &self.spec.replace("{base}", &b))?;
        if self.real_git {
            for line in self.spec.lines() {
                if let Some(d) = line.strip_prefix("@@ mkdir ")
                    && d.trim_end().ends_with(".git")
                {
                    let g = base.join(d.trim_end());
                    std::fs::create_dir_all(g.join("objects"))?;
                    std::fs::create_dir_all(g.join("refs/heads"))?;
                    std::fs::write(g.join("HEAD"), "ref: refs/heads/main\n")?;
                    std::fs::write(
                        g.join("config"),
                        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n",
                    )?;
                }
            }
        }
        for (link, target) in &self.symlinks {
            let l = base.join(link);
            if let Some(p) = l.parent() {
                std::fs::create_dir_all(p)?;
            }
            let _ = std::fs::remove_file(&l);
            // A link whose place a nested skill already took is left out.
            #[cfg(unix)]
            let _ = std::os::unix::fs::symlink(base.join(target), &l);
        }
        let project = base.join(&self.cwd);
        let home = base.join(&self.home);
        std::fs::create_dir_all(&project)?;
        std::fs::create_dir_all(&home)?;
        let vars = self
            .vars
            .iter()
            .map(|(k, v)| (k.clone(), v.replace("{base}", &b)))
            .collect();
        Ok(Tree {
            base,
            project,
            home,
            vars,
        })
    }
}
