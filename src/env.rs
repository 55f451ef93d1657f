//! The inputs every agent's discovery depends on: project folder, home folder, environment.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// Project folder (the agent's working folder), home folder and environment variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Env {
    pub project: PathBuf,
    pub home: PathBuf,
    vars: BTreeMap<String, String>,
    /// Folders given with `--add-dir` (as Claude Code takes them).
    pub add_dirs: Vec<PathBuf>,
    /// The program search path (`PATH`), for telling which agents are installed
    /// ([`crate::agents::in_use`]); None: not known.
    pub search_path: Option<std::ffi::OsString>,
}

impl Env {
    /// An environment with no variables set.
    pub fn new(project: impl Into<PathBuf>, home: impl Into<PathBuf>) -> Env {
        Env {
            project: normalize(&absolute(&project.into())),
            home: normalize(&absolute(&home.into())),
            vars: BTreeMap::new(),
            add_dirs: Vec::new(),
            search_path: None,
        }
    }

    /// Project and home as given (or the current folder and `$HOME`), with the process's values
    /// of the variables named in `keys` (the ones the agent models read:
    /// [`crate::agents::referenced_vars`]).
    pub fn from_process<'a>(
        project: Option<PathBuf>,
        home: Option<PathBuf>,
        keys: impl IntoIterator<Item = &'a str>,
    ) -> Env {
        let project = project
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."));
        let home = home
            .or_else(std::env::home_dir)
            .unwrap_or_else(|| PathBuf::from("/"));
        let mut env = Env::new(project, home);
        env.search_path = std::env::var_os("PATH");
        for k in keys {
            if let Some(v) = std::env::var_os(k) {
                env.vars
                    .insert(k.to_string(), v.to_string_lossy().into_owned());
            }
        }
        env
    }

    /// Adds a folder as `--add-dir` does.
    pub fn with_add_dir(mut self, dir: impl Into<PathBuf>) -> Env {
        self.add_dirs.push(normalize(&absolute(&dir.into())));
        self
    }

    /// The program search path (a `PATH` value).
    pub fn with_search_path(mut self, path: impl Into<std::ffi::OsString>) -> Env {
        self.search_path = Some(path.into());
        self
    }

    pub fn with_var(mut self, key: &str, value: &str) -> Env {
        self.vars.insert(key.to_string(), value.to_string());
        self
    }

    /// A variable's value when set and non-empty.
    pub fn var(&self, key: &str) -> Option<&str> {
        self.vars
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }

    /// Set, non-empty and not `0`/`false`/`no`/`off` (how agents read switch variables).
    pub fn is_truthy(&self, key: &str) -> bool {
        self.var(key).is_some_and(|v| {
            !matches!(
                v.to_ascii_lowercase().as_str(),
                "0" | "false" | "no" | "off"
            )
        })
    }

    pub fn vars(&self) -> &BTreeMap<String, String> {
        &self.vars
    }

    /// Expands a root template: `~` is the home folder, `${VAR}` and `${VAR:-default}` read the
    /// environment. A relative result is taken relative to `base`. Err names the unset variable.
    pub fn expand(&self, template: &str, base: &Path) -> Result<PathBuf, String> {
        let mut out = String::new();
        let mut rest = template;
        while let Some(i) = rest.find("${") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            let Some(end) = after.find('}') else {
                return Err(format!("unclosed ${{ in `{template}`"));
            };
            let inner = &after[..end];
            let (name, default) = match inner.split_once(":-") {
                Some((n, d)) => (n, Some(d)),
                None => (inner, None),
            };
            match (self.var(name), default) {
                (Some(v), _) => out.push_str(v),
                (None, Some(d)) => out.push_str(d),
                (None, None) => return Err(name.to_string()),
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        let path = if out == "~" {
            self.home.clone()
        } else if let Some(r) = out.strip_prefix("~/") {
            self.home.join(r)
        } else {
            let p = PathBuf::from(&out);
            if p.is_absolute() { p } else { base.join(p) }
        };
        Ok(normalize(&path))
    }

    /// The nearest folder at or above the project that is the top of a git work tree: its
    /// `.git` is a repository folder (with `HEAD`, `objects/` and `refs/`, as git checks) or a
    /// `gitdir:` file (worktrees, submodules). A bare `.git` folder does not count: the agents
    /// that ask git for the root do not take it for one (observed on Codex 0.171.0 and Copilot
    /// CLI 1.0.102, tests/oracle).
    pub fn git_root(&self) -> Option<PathBuf> {
        self.project
            .ancestors()
            .find(|d| is_git_work_tree_top(d))
            .map(Path::to_path_buf)
    }

    /// The nearest folder from the project up that holds any `.git` entry (what agents that
    /// only test for `.git` take for the project root).
    pub fn dot_git_root(&self) -> Option<PathBuf> {
        self.project
            .ancestors()
            .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
            .map(Path::to_path_buf)
    }
}

/// Whether `dir/.git` makes `dir` the top of a git work tree.
pub fn is_git_work_tree_top(dir: &Path) -> bool {
    let git = dir.join(".git");
    match std::fs::metadata(&git) {
        Ok(m) if m.is_dir() => {
            git.join("HEAD").is_file() && git.join("objects").is_dir() && git.join("refs").is_dir()
        }
        Ok(m) if m.is_file() => std::fs::read(&git)
            .map(|b| b.starts_with(b"gitdir:"))
            .unwrap_or(false),
        _ => false,
    }
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The names of the `${VAR}` / `${VAR:-default}` variables in a path template.
pub fn template_vars(template: &str) -> impl Iterator<Item = &str> {
    template.split("${").skip(1).filter_map(|rest| {
        let inner = &rest[..rest.find('}')?];
        Some(inner.split_once(":-").map_or(inner, |(name, _)| name))
    })
}

/// Removes `.` and resolves `..` lexically (no symlink resolution).
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}
