//! The catalog kept up to date between file events: the scan, its entries and every agent's
//! collision keys behind the current snapshot, so that an in-place edit of known SKILL.md files
//! re-reads those files and re-resolves only the names they touch.
//!
//! An edit cannot change which roots hold a file or whether an agent reaches it (traversal
//! depends on paths, not on content); it can change whether each agent accepts the file, under
//! which name, and through a collision the verdicts of the other copies of the old and the new
//! name. So, per agent: resolve the edited entries alone to learn their new collision keys, then
//! resolve the edited entries together with every member of their old and new key groups, and
//! patch those skills into a copy of the snapshot (the skills are shared, not copied). Anything
//! structural (files made, removed or renamed, settings) is a [`Live::rescan`].

use crate::agents::AgentModel;
use crate::catalog::{self, Catalog, Skill};
use crate::env::Env;
use crate::resolve::{self, Entry, Keys, Verdict};
use crate::scan::{self, Scan};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What an edit did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Edit {
    /// Files read again.
    pub reread: usize,
    /// Files resolved again (the edited ones and the other copies of the names they touch), over
    /// all agents.
    pub resolved: usize,
    /// SKILL.md paths whose verdicts, problems or text changed.
    pub changed: Vec<PathBuf>,
}

/// One agent's part of an edit: the entries resolved again, their verdicts, and the edited
/// entries' new collision keys.
type AgentPatch = (Vec<usize>, Vec<Verdict>, Vec<Option<String>>);

/// The state behind the current snapshot.
pub struct Live {
    models: Arc<Vec<AgentModel>>,
    env: Env,
    scan: Scan,
    entries: Vec<Entry>,
    /// Entry path → entry index.
    by_path: HashMap<PathBuf, usize>,
    /// Canonical path → the entries that are that file (symlinks give several).
    by_canon: HashMap<PathBuf, Vec<usize>>,
    /// Per agent, in model order.
    keys: Vec<Keys>,
    /// Entry index → position in `catalog.skills` (None: not in the catalog).
    pos: Vec<Option<usize>>,
    catalog: Arc<Catalog>,
}

impl Live {
    /// Scans and resolves everything.
    pub fn new(models: Arc<Vec<AgentModel>>, env: Env) -> Live {
        let scan = scan::scan(&models, &env);
        Live::from_scan(models, env, scan)
    }

    pub fn from_scan(models: Arc<Vec<AgentModel>>, env: Env, scan: Scan) -> Live {
        let entries = resolve::entries(&scan);
        let agents: Vec<usize> = (0..models.len()).collect();
        let (per_agent, keys): (Vec<Vec<Verdict>>, Vec<Keys>) = scan::par_map(&agents, |&ai| {
            resolve::resolve_keyed(&models, ai, &scan, &entries)
        })
        .into_iter()
        .unzip();
        let catalog = Catalog::assemble(&models, &scan, &entries, per_agent);
        let by_path: HashMap<PathBuf, usize> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.path.clone(), i))
            .collect();
        let mut by_canon: HashMap<PathBuf, Vec<usize>> = HashMap::new();
        for (i, e) in entries.iter().enumerate() {
            if let Some(c) = scan.canonical.get(&e.path) {
                by_canon.entry(c.clone()).or_default().push(i);
            }
        }
        let mut live = Live {
            models,
            env,
            scan,
            entries,
            by_path,
            by_canon,
            keys,
            pos: Vec::new(),
            catalog: Arc::new(catalog),
        };
        live.pos = vec![None; live.entries.len()];
        let skills = live.catalog.skills.clone();
        live.reindex(&skills, 0, skills.len());
        live
    }

    /// Scans and resolves everything again (roots or files appeared, vanished or moved).
    pub fn rescan(&mut self) {
        let scan = scan::scan(&self.models, &self.env);
        *self = Live::from_scan(self.models.clone(), self.env.clone(), scan);
    }

    pub fn catalog(&self) -> &Arc<Catalog> {
        &self.catalog
    }

    pub fn scan(&self) -> &Scan {
        &self.scan
    }

    /// Whether `path` is a file the current snapshot knows (an edit to it is an [`Live::edit`]).
    pub fn knows(&self, path: &Path) -> bool {
        self.by_path.contains_key(path)
    }

    /// Whether `path` is a known file that is still there as the same kind of file (a regular
    /// file, or a symlink to one, as when it was walked): then whatever happened to it —
    /// written in place, replaced by an editor's rename, re-created — is an [`Live::edit`].
    pub fn still_a_known_file(&self, path: &Path) -> bool {
        let Some(&e) = self.by_path.get(path) else {
            return false;
        };
        let link = self.entries[e].candidate(&self.scan).file_symlink;
        let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        link == is_link && std::fs::metadata(path).is_ok_and(|m| m.is_file())
    }

    /// Re-reads the edited files (known paths; others are ignored) and re-resolves the names
    /// they touch, for every agent.
    pub fn edit(&mut self, paths: &BTreeSet<PathBuf>) -> Edit {
        // Every path that is the same file as an edited one.
        let mut edited: BTreeSet<usize> = BTreeSet::new();
        for p in paths {
            if let Some(c) = self.scan.canonical.get(p)
                && let Some(es) = self.by_canon.get(c)
            {
                edited.extend(es.iter().copied());
            }
        }
        if edited.is_empty() {
            return Edit::default();
        }
        let edited: Vec<usize> = edited.into_iter().collect();
        let reread: BTreeSet<PathBuf> = edited
            .iter()
            .map(|&e| self.entries[e].path.clone())
            .collect();
        self.scan.reread(&reread);

        let models = &self.models;
        let (scan, entries) = (&self.scan, &self.entries);
        // Per agent: the entries to resolve again and their verdicts.
        let agents: Vec<usize> = (0..models.len()).collect();
        let keys = &self.keys;
        let patches: Vec<AgentPatch> = scan::par_map(&agents, |&ai| {
            let (_, now) = resolve::resolve_subset(models, ai, scan, entries, &edited);
            let k = &keys[ai];
            let mut touched: BTreeSet<usize> = edited.iter().copied().collect();
            for (&e, new) in edited.iter().zip(&now) {
                for key in [k.of[e].as_deref(), new.as_deref()].into_iter().flatten() {
                    touched.extend(k.members(key).iter().copied());
                }
            }
            let touched: Vec<usize> = touched.into_iter().collect();
            let (verdicts, _) = resolve::resolve_subset(models, ai, scan, entries, &touched);
            (touched, verdicts, now)
        });
        let mut resolved = 0;
        // Entry → (agent → verdict).
        let mut per_entry: BTreeMap<usize, Vec<(usize, Verdict)>> = BTreeMap::new();
        for (ai, (touched, verdicts, now)) in patches.into_iter().enumerate() {
            for (&e, key) in edited.iter().zip(now) {
                self.keys[ai].set(e, key);
            }
            resolved += touched.len();
            for (e, v) in touched.into_iter().zip(verdicts) {
                per_entry.entry(e).or_default().push((ai, v));
            }
        }

        let scope_of = catalog::scopes(&self.scan);
        let mut skills = self.catalog.skills.clone();
        let mut changed: Vec<PathBuf> = Vec::new();
        // Skills whose label (and so their place in the sorted list) changed.
        let mut moved: Vec<usize> = Vec::new();
        for (e, verdicts) in per_entry {
            let Some(at) = self.pos[e] else {
                // A loose `foo.md` no agent reaches stays out whatever it says.
                continue;
            };
            let old = &skills[at];
            let new: Skill = if edited.binary_search(&e).is_ok() {
                let facts = catalog::facts(&self.scan, &self.entries[e]);
                let fields = catalog::field_tables(&self.models, &facts.keys);
                let mut all: Vec<(String, Verdict)> = old.verdicts.clone();
                for (ai, v) in verdicts {
                    all[ai].1 = v;
                }
                for ((_, v), f) in all.iter_mut().zip(fields) {
                    v.fields = f;
                }
                match catalog::skill(&self.scan, &self.entries[e], facts, all, &scope_of) {
                    Some(s) => s,
                    None => continue,
                }
            } else {
                let mut s = (**old).clone();
                for (ai, mut v) in verdicts {
                    v.fields = s.verdicts[ai].1.fields.clone();
                    s.verdicts[ai].1 = v;
                }
                s
            };
            if catalog::signature(old) != catalog::signature(&new) {
                changed.push(new.path.clone());
            }
            if old.label() != new.label() {
                moved.push(e);
            }
            skills[at] = Arc::new(new);
        }
        // Put renamed skills back in (label, path) order: take them all out (what stays is
        // sorted), then insert each where it belongs.
        if !moved.is_empty() {
            let mut at: Vec<usize> = moved.iter().filter_map(|&e| self.pos[e]).collect();
            at.sort_unstable();
            let mut lo = at.first().copied().unwrap_or(0);
            let mut hi = at.last().copied().unwrap_or(0);
            let taken: Vec<Arc<Skill>> = at.iter().rev().map(|&i| skills.remove(i)).collect();
            for s in taken {
                let to = skills.partition_point(|x| (x.label(), &x.path) < (s.label(), &s.path));
                lo = lo.min(to);
                hi = hi.max(to);
                skills.insert(to, s);
            }
            // A later insertion before an earlier one shifts it: up to one place per skill.
            let hi = (hi + at.len()).min(skills.len().saturating_sub(1));
            self.reindex(&skills, lo, hi);
        }
        // The skills are shared with the previous snapshot; only the patched ones are new.
        let mut catalog = (*self.catalog).clone();
        catalog.skills = skills;
        self.catalog = Arc::new(catalog);
        changed.sort();
        Edit {
            reread: reread.len(),
            resolved,
            changed,
        }
    }

    /// Recomputes `pos` for the skills at positions `lo..=hi` of `skills`.
    fn reindex(&mut self, skills: &[Arc<Skill>], lo: usize, hi: usize) {
        for (i, s) in skills.iter().enumerate().take(hi + 1).skip(lo) {
            if let Some(&e) = self.by_path.get(&s.path) {
                self.pos[e] = Some(i);
            }
        }
    }
}
