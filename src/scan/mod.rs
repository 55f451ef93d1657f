//! Scanning: expand every agent's roots, walk each distinct folder once, read each candidate
//! file once (by canonical path), however many agents and roots reach it.

pub mod roots;
pub mod walk;

pub use roots::{AgentRoot, FormerRootInstance, RootState};
pub use walk::{Candidate, IgnoreFile, WalkedRoot};

use crate::agents::AgentModel;
use crate::env::Env;
use crate::skill::{ReadError, SkillMd};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A candidate file's content, read once.
pub type FileContent = Arc<Result<SkillMd, ReadError>>;

/// Everything read from disk for one project.
#[derive(Debug, Clone)]
pub struct Scan {
    pub env: Env,
    pub git_root: Option<PathBuf>,
    /// Every agent's root instances.
    pub agent_roots: Vec<AgentRoot>,
    pub former_roots: Vec<FormerRootInstance>,
    /// Each distinct root folder, walked once.
    pub walked: Vec<WalkedRoot>,
    walked_index: HashMap<PathBuf, usize>,
    /// Canonical path of each candidate path.
    pub canonical: HashMap<PathBuf, PathBuf>,
    /// Content by canonical path.
    pub files: HashMap<PathBuf, FileContent>,
}

impl Scan {
    pub fn walked(&self, path: &Path) -> Option<&WalkedRoot> {
        self.walked_index.get(path).map(|&i| &self.walked[i])
    }

    /// The content of a candidate.
    pub fn content(&self, path: &Path) -> Option<&FileContent> {
        self.canonical.get(path).and_then(|c| self.files.get(c))
    }
}

/// Scans the roots of `models` for `env`.
pub fn scan(models: &[AgentModel], env: &Env) -> Scan {
    let (agent_roots, former_roots) = roots::expand(models, env);
    let mut paths: Vec<PathBuf> = agent_roots
        .iter()
        .map(|r| r.path.clone())
        .chain(former_roots.iter().map(|f| f.path.clone()))
        .collect();
    paths.sort();
    paths.dedup();
    let walked: Vec<WalkedRoot> = paths.iter().map(|p| walk::walk(p)).collect();
    let walked_index = paths
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), i))
        .collect();
    let mut canonical = HashMap::new();
    let mut files: HashMap<PathBuf, FileContent> = HashMap::new();
    for w in &walked {
        for c in &w.candidates {
            let canon = std::fs::canonicalize(&c.path).unwrap_or_else(|_| c.path.clone());
            files
                .entry(canon.clone())
                .or_insert_with(|| Arc::new(SkillMd::read(&c.path)));
            canonical.insert(c.path.clone(), canon);
        }
    }
    Scan {
        env: env.clone(),
        git_root: env.git_root(),
        agent_roots,
        former_roots,
        walked,
        walked_index,
        canonical,
        files,
    }
}
