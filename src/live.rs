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
use foldhash::{HashMap, HashMapExt, HashSet};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Above this many touched paths, [`Live::restructure`] leaves the work to a rescan.
pub const MAX_TOUCHED: usize = 256;

/// What an edit did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Edit {
    /// Files read again.
    pub reread: usize,
    /// Roots walked again (0 for an in-place edit).
    pub rewalked: usize,
    /// Files resolved again (the edited ones and the other copies of the names they touch), over
    /// all agents.
    pub resolved: usize,
    /// SKILL.md paths whose verdicts, problems or text changed.
    pub changed: Vec<PathBuf>,
}

/// One agent's part of an edit: the entries resolved again, their verdicts, and the edited
/// entries' new collision keys.
type AgentPatch = (Vec<usize>, Vec<Verdict>, Vec<Option<String>>);

/// Per entry, the agents that resolved it again and their verdicts.
type PerEntry = HashMap<usize, Vec<(usize, Verdict)>>;

/// The state [`Live::patch_roots`] replaces, and what decided the walked roots' files before
/// their walk.
struct Before {
    entries: Vec<Entry>,
    keys: Vec<Keys>,
    pos: Vec<Option<usize>>,
    by_path: HashMap<PathBuf, usize>,
    /// Each file of the walked roots: what decides it.
    footprints: HashMap<PathBuf, Footprint>,
    /// Each walked root's ignore files.
    ignores: Vec<Vec<crate::scan::walk::IgnoreFile>>,
    sidecar_specs: Vec<(usize, usize)>,
}

/// Whether entry `e` was found in one of the walked roots `which`.
fn in_roots(e: &Entry, which: &[usize]) -> bool {
    e.found.iter().any(|(wi, _)| which.contains(wi))
}

/// The state behind the current snapshot.
#[derive(Clone)]
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
        Live::new_with(models, env, &scan::Progress::new())
    }

    /// [`Live::new`], counting in `progress` the files walked and read as the scan goes.
    pub fn new_with(models: Arc<Vec<AgentModel>>, env: Env, progress: &scan::Progress) -> Live {
        let scan = scan::scan_with(&models, &env, progress);
        Live::from_scan(models, env, scan)
    }

    pub fn from_scan(models: Arc<Vec<AgentModel>>, env: Env, scan: Scan) -> Live {
        let entries = resolve::entries(&scan);
        let resolved = resolve::resolve_all(&models, &scan, &entries, |ei, parses| {
            catalog::facts_with(&scan, &entries[ei], parses)
        });
        let (per_agent, keys): (Vec<Vec<Verdict>>, Vec<Keys>) = resolved.agents.into_iter().unzip();
        let catalog = Catalog::assemble(&models, &scan, &entries, per_agent, resolved.extra);
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

    /// The agent models the state was resolved with.
    pub fn models(&self) -> &[AgentModel] {
        &self.models
    }

    /// The project, home and environment the state was scanned for.
    pub fn env(&self) -> &Env {
        &self.env
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
        let edited = self.entries_of_files(paths);
        if edited.is_empty() {
            return Edit::default();
        }
        let reread: BTreeSet<PathBuf> = edited
            .iter()
            .map(|&e| self.entries[e].path.clone())
            .collect();
        self.scan.reread(&reread);
        let (resolved, per_entry) = self.resolve_edited(&edited);
        let mut skills = self.catalog.skills.clone();
        let (mut changed, moved) = self.patch_edited_skills(&mut skills, &edited, per_entry);
        self.put_back_in_order(&mut skills, &moved);
        // The skills are shared with the previous snapshot; only the patched ones are new.
        let mut catalog = (*self.catalog).clone();
        catalog.skills = skills;
        self.catalog = Arc::new(catalog);
        changed.sort();
        Edit {
            reread: reread.len(),
            rewalked: 0,
            resolved,
            changed,
        }
    }

    /// Every entry that is the same file as one of `paths` (by canonical path), sorted.
    fn entries_of_files(&self, paths: &BTreeSet<PathBuf>) -> Vec<usize> {
        let mut edited: BTreeSet<usize> = BTreeSet::new();
        for p in paths {
            if let Some(c) = self.scan.canonical.get(p)
                && let Some(es) = self.by_canon.get(c)
            {
                edited.extend(es.iter().copied());
            }
        }
        edited.into_iter().collect()
    }

    /// Per agent: resolves the edited entries alone (their new collision keys, which are kept),
    /// then with every member of their old and new key groups. Returns how many verdicts were
    /// made, and per entry (in order) the agents' new verdicts.
    fn resolve_edited(
        &mut self,
        edited: &[usize],
    ) -> (usize, BTreeMap<usize, Vec<(usize, Verdict)>>) {
        let models = &self.models;
        let (scan, entries) = (&self.scan, &self.entries);
        let agents: Vec<usize> = (0..models.len()).collect();
        let keys = &self.keys;
        let patches: Vec<AgentPatch> = crate::par::par_map(&agents, |&ai| {
            let (_, now) = resolve::resolve_subset(models, ai, scan, entries, edited);
            let k = &keys[ai];
            let mut touched: BTreeSet<usize> = edited.iter().copied().collect();
            for (&e, new) in edited.iter().zip(&now) {
                for key in [k.of(e).map(|k| &**k), new.as_deref()]
                    .into_iter()
                    .flatten()
                {
                    touched.extend(k.members(key).iter().map(|&m| m as usize));
                }
            }
            let touched: Vec<usize> = touched.into_iter().collect();
            let (verdicts, _) = resolve::resolve_subset(models, ai, scan, entries, &touched);
            (touched, verdicts, now)
        });
        let mut resolved = 0;
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
        (resolved, per_entry)
    }

    /// Patches the new verdicts into `skills`: an edited file's skill is built again from its
    /// new content (fields included), another copy of its names keeps its fields. Returns the
    /// paths of the skills whose signature changed and the entries whose label changed (their
    /// place in the sorted list may too).
    fn patch_edited_skills(
        &self,
        skills: &mut [Arc<Skill>],
        edited: &[usize],
        per_entry: BTreeMap<usize, Vec<(usize, Verdict)>>,
    ) -> (Vec<PathBuf>, Vec<usize>) {
        let scope_of = catalog::scopes(&self.scan);
        let mut changed: Vec<PathBuf> = Vec::new();
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
                let mut all: Vec<(Arc<str>, Verdict)> = old.verdicts.clone();
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
        (changed, moved)
    }

    /// Puts renamed skills back in (label, path) order: takes them all out (what stays is
    /// sorted), then inserts each where it belongs, and re-indexes the span that moved.
    fn put_back_in_order(&mut self, skills: &mut Vec<Arc<Skill>>, moved: &[usize]) {
        if moved.is_empty() {
            return;
        }
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
        self.reindex(skills, lo, hi);
    }

    /// Files or folders made, removed or renamed inside roots that exist: walks those roots
    /// again (reading only new files and files at or below a touched path), then re-resolves
    /// every file of those roots and every copy of the names they had and have; every other
    /// skill is shared with the previous snapshot. None, with nothing changed, when a touched
    /// path is not inside an existing root (a root appearing or vanishing, a settings file, a
    /// `.git`): that needs a [`Live::rescan`].
    pub fn restructure(&mut self, touched: &BTreeSet<PathBuf>) -> Option<Edit> {
        if touched.is_empty() {
            return Some(Edit::default());
        }
        // A storm (a branch switch, an unpacked archive) is cheaper to rescan than to compare
        // every file with every touched path.
        if touched.len() > MAX_TOUCHED {
            return None;
        }
        // A path reached through a symlink is also where the link points (the nearest existing
        // ancestor resolved, for a path that is gone).
        let mut all: BTreeSet<PathBuf> = touched.clone();
        for t in touched {
            let mut base = t.as_path();
            let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
            while std::fs::symlink_metadata(base).is_err() {
                match (base.parent(), base.file_name()) {
                    (Some(p), Some(n)) => {
                        rest.push(n);
                        base = p;
                    }
                    _ => break,
                }
            }
            if let Ok(mut real) = std::fs::canonicalize(base) {
                real.extend(rest.iter().rev());
                all.insert(real);
            }
        }
        // And where links lead to it: a path inside a linked skill folder, seen through the link.
        let mut aliases: Vec<PathBuf> = Vec::new();
        for w in &self.scan.walked {
            for c in w
                .candidates
                .iter()
                .filter(|c| c.symlinked_dir || c.file_symlink)
            {
                let (Some(canon), Some(link_dir)) =
                    (self.scan.canonical.get(&c.path), c.path.parent())
                else {
                    continue;
                };
                let Some(canon_dir) = canon.parent() else {
                    continue;
                };
                for t in &all {
                    if let Ok(rest) = t.strip_prefix(canon_dir) {
                        aliases.push(link_dir.join(rest));
                    }
                }
            }
        }
        all.extend(aliases);
        let touched = &all;
        // A root (or a folder above one) made, removed or renamed changes the root list; so may
        // a settings file or a `.git` (the project walk), even inside a root.
        let settings = crate::settings::files(&self.models, &self.env);
        if touched.iter().any(|t| {
            self.scan.walked.iter().any(|w| w.path.starts_with(t))
                || settings.iter().any(|f| f.starts_with(t))
                || t.components().any(|c| c.as_os_str() == ".git")
        }) {
            return None;
        }
        // The walked roots that hold a touched path (strictly inside).
        let mut which: BTreeSet<usize> = BTreeSet::new();
        for t in touched {
            let mut inside = false;
            for (wi, w) in self.scan.walked.iter().enumerate() {
                if w.exists && t != &w.path && t.starts_with(&w.path) {
                    which.insert(wi);
                    inside = true;
                }
            }
            if !inside {
                return None;
            }
        }
        // Roots reaching a touched path through a symlink are walked again too.
        for (wi, w) in self.scan.walked.iter().enumerate() {
            if which.contains(&wi) {
                continue;
            }
            let through_link = w
                .candidates
                .iter()
                .filter(|c| c.symlinked_dir || c.file_symlink)
                .filter_map(|c| self.scan.canonical.get(&c.path))
                .any(|canon| {
                    let dir = canon.parent().unwrap_or(canon);
                    touched
                        .iter()
                        .any(|t| dir.starts_with(t) || t.starts_with(dir))
                });
            if through_link {
                which.insert(wi);
            }
        }
        let which: Vec<usize> = which.into_iter().collect();
        Some(self.patch_roots(touched, &which, |scan, models, which| {
            scan.rewalk(models, which, touched)
        }))
    }

    /// The roots `which` (indices into the scan's walked roots) changed, as `walk` says (it
    /// updates the scan for them, returning how many files it read): re-resolves every file of
    /// those roots whose place or facts changed, and every copy of the names they had and have.
    /// [`Live::restructure`] walks the file system; a preview (`actions::overlay`) applies planned
    /// operations to the scan in memory instead.
    ///
    /// Its phases: what decides each file of those roots before the walk, the walk, the files
    /// to resolve again, every agent's re-resolution, the skills patched into a new snapshot.
    pub fn patch_roots(
        &mut self,
        touched: &BTreeSet<PathBuf>,
        which: &[usize],
        walk: impl FnOnce(&mut Scan, &[AgentModel], &[usize]) -> usize,
    ) -> Edit {
        let old = Before {
            entries: std::mem::take(&mut self.entries),
            keys: std::mem::take(&mut self.keys),
            pos: std::mem::take(&mut self.pos),
            by_path: std::mem::take(&mut self.by_path),
            footprints: HashMap::new(),
            ignores: Vec::new(),
            sidecar_specs: scan::sidecar_specs(&self.models),
        };
        let old = self.before_walk(old, which);
        let reread = walk(&mut self.scan, &self.models, which);
        let entries = resolve::entries(&self.scan);
        let by_path: HashMap<PathBuf, usize> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.path.clone(), i))
            .collect();
        // New index → old index, for entries that were there before.
        let old_of: Vec<Option<usize>> = entries
            .iter()
            .map(|e| old.by_path.get(&e.path).copied())
            .collect();
        let dirty = self.dirty_after_walk(&old, &entries, &old_of, which, touched);
        let dirty_set: HashSet<usize> = dirty.iter().copied().collect();
        // Old files whose names may have been given up: gone, or resolved again.
        let dirty_old: Vec<usize> = (0..old.entries.len())
            .filter(|&o| match by_path.get(&old.entries[o].path) {
                None => true,
                Some(i) => dirty_set.contains(i),
            })
            .collect();
        let (per_entry, keys, resolved) =
            self.re_resolve(&entries, &dirty, &dirty_old, &old_of, &old.keys);
        let (skills, changed) =
            self.patched_skills(&old, &entries, &old_of, &by_path, &dirty_set, per_entry);
        let catalog = Catalog::around(&self.models, &self.scan, skills);
        self.install(entries, by_path, keys, catalog);
        Edit {
            reread,
            rewalked: which.len(),
            resolved,
            changed: changed.into_iter().collect(),
        }
    }

    /// What decides each file of the roots `which` before they are walked again (compared
    /// after it), and their ignore files.
    fn before_walk(&self, mut old: Before, which: &[usize]) -> Before {
        old.footprints = old
            .entries
            .iter()
            .filter(|e| in_roots(e, which))
            .map(|e| (e.path.clone(), footprint(&self.scan, e, &old.sidecar_specs)))
            .collect();
        old.ignores = which
            .iter()
            .map(|&wi| self.scan.walked[wi].ignore_files.clone())
            .collect();
        old
    }

    /// Files to resolve again after the walk: new ones, and those of the walked roots whose
    /// place, walk facts, references, sidecars or content may have changed.
    fn dirty_after_walk(
        &self,
        old: &Before,
        entries: &[Entry],
        old_of: &[Option<usize>],
        which: &[usize],
        touched: &BTreeSet<PathBuf>,
    ) -> Vec<usize> {
        // A changed ignore file can hide or show any file of its root.
        let ignores_changed: Vec<usize> = which
            .iter()
            .zip(&old.ignores)
            .filter(|(wi, before)| self.scan.walked[**wi].ignore_files != **before)
            .map(|(wi, _)| *wi)
            .collect();
        let near_touched = |e: &Entry| {
            let canon = self.scan.canonical.get(&e.path).unwrap_or(&e.path);
            [e.path.as_path(), canon.as_path()].iter().any(|p| {
                let dir = p.parent().unwrap_or(p);
                touched
                    .iter()
                    .any(|t| p.starts_with(t) || t.starts_with(dir))
            })
        };
        (0..entries.len())
            .filter(|&i| {
                let e = &entries[i];
                if old_of[i].is_none() {
                    return true;
                }
                let Some(before) = old.footprints.get(&e.path) else {
                    return in_roots(e, which);
                };
                e.found.iter().any(|(wi, _)| ignores_changed.contains(wi))
                    || near_touched(e)
                    || *before != footprint(&self.scan, e, &old.sidecar_specs)
            })
            .collect()
    }

    /// Every agent resolves the dirty entries again, with every copy of a name they had
    /// (`dirty_old`) or have: the new verdicts by entry, every agent's keys, how many files were
    /// resolved.
    fn re_resolve(
        &self,
        entries: &[Entry],
        dirty: &[usize],
        dirty_old: &[usize],
        old_of: &[Option<usize>],
        old_keys: &[Keys],
    ) -> (PerEntry, Vec<Keys>, usize) {
        let (models, scan) = (&self.models, &self.scan);
        let agents: Vec<usize> = (0..models.len()).collect();
        let results: Vec<(Keys, Vec<usize>, Vec<Verdict>)> = crate::par::par_map(&agents, |&ai| {
            let (_, now) = resolve::resolve_subset(models, ai, scan, entries, dirty);
            // The keys of the new entries: re-resolved ones from now, the others as before.
            let mut keys: Vec<Option<String>> = old_of
                .iter()
                .map(|o| o.and_then(|o| old_keys[ai].of(o).map(|k| k.to_string())))
                .collect();
            for (&e, k) in dirty.iter().zip(now) {
                keys[e] = k;
            }
            let k = Keys::new(keys);
            // Every copy of a name a re-resolved file had or has.
            let mut names: BTreeSet<&str> = BTreeSet::new();
            for &o in dirty_old {
                if let Some(key) = old_keys[ai].of(o).map(|k| &**k) {
                    names.insert(key);
                }
            }
            for &e in dirty {
                if let Some(key) = k.of(e).map(|k| &**k) {
                    names.insert(key);
                }
            }
            let mut affected: BTreeSet<usize> = dirty.iter().copied().collect();
            for n in names {
                affected.extend(k.members(n).iter().map(|&m| m as usize));
            }
            let affected: Vec<usize> = affected.into_iter().collect();
            let (verdicts, _) = resolve::resolve_subset(models, ai, scan, entries, &affected);
            (k, affected, verdicts)
        });
        let mut per_entry: PerEntry = HashMap::new();
        let mut keys = Vec::with_capacity(results.len());
        let mut resolved = 0;
        for (ai, (k, affected, verdicts)) in results.into_iter().enumerate() {
            resolved += affected.len();
            for (e, v) in affected.into_iter().zip(verdicts) {
                per_entry.entry(e).or_default().push((ai, v));
            }
            keys.push(k);
        }
        (per_entry, keys, resolved)
    }

    /// The new snapshot's skills, sorted: untouched ones shared with the old snapshot, those
    /// resolved again by some agents patched, the dirty and new ones made from the scan; and the
    /// paths whose skill changed (gone ones included).
    fn patched_skills(
        &self,
        old: &Before,
        entries: &[Entry],
        old_of: &[Option<usize>],
        by_path: &HashMap<PathBuf, usize>,
        dirty_set: &HashSet<usize>,
        mut per_entry: PerEntry,
    ) -> (Vec<Arc<Skill>>, BTreeSet<PathBuf>) {
        let scope_of = catalog::scopes(&self.scan);
        let old_skill = |o: usize| old.pos[o].map(|p| &self.catalog.skills[p]);
        let mut skills: Vec<Arc<Skill>> = Vec::with_capacity(entries.len());
        let mut changed: BTreeSet<PathBuf> = BTreeSet::new();
        for (e, entry) in entries.iter().enumerate() {
            let before = old_of[e].and_then(old_skill);
            let patch = per_entry.remove(&e);
            let new: Option<Arc<Skill>> = match (before, patch) {
                (Some(before), None) => Some(before.clone()),
                (Some(before), Some(patch)) if !dirty_set.contains(&e) => {
                    let mut s = (**before).clone();
                    for (ai, mut v) in patch {
                        v.fields = s.verdicts[ai].1.fields.clone();
                        s.verdicts[ai].1 = v;
                    }
                    Some(Arc::new(s))
                }
                (_, patch) => self.skill_from_scan(entry, patch, &scope_of),
            };
            match (before, &new) {
                (Some(o), Some(n)) if Arc::ptr_eq(o, n) => {}
                (Some(o), Some(n)) => {
                    if catalog::signature(o) != catalog::signature(n) {
                        changed.insert(n.path.clone());
                    }
                }
                (None, Some(n)) => {
                    changed.insert(n.path.clone());
                }
                (Some(o), None) => {
                    changed.insert(o.path.clone());
                }
                (None, None) => {}
            }
            if let Some(n) = new {
                skills.push(n);
            }
        }
        // Skills that are gone.
        for (o, e) in old.entries.iter().enumerate() {
            if !by_path.contains_key(&e.path)
                && let Some(s) = old_skill(o)
            {
                changed.insert(s.path.clone());
            }
        }
        skills.sort_by(|a, b| (a.label(), &a.path).cmp(&(b.label(), &b.path)));
        (skills, changed)
    }

    /// A skill re-resolved for every agent (or new), made from the scan.
    fn skill_from_scan(
        &self,
        entry: &Entry,
        patch: Option<Vec<(usize, Verdict)>>,
        scope_of: &HashMap<&Path, crate::agents::Scope>,
    ) -> Option<Arc<Skill>> {
        let models = &self.models;
        let mut verdicts: Vec<Option<Verdict>> = vec![None; models.len()];
        for (ai, v) in patch.into_iter().flatten() {
            verdicts[ai] = Some(v);
        }
        let facts = catalog::facts(&self.scan, entry);
        let fields = catalog::field_tables(models, &facts.keys);
        let all: Option<Vec<(Arc<str>, Verdict)>> = models
            .iter()
            .zip(verdicts)
            .zip(fields)
            .map(|((m, v), f)| {
                v.map(|mut v| {
                    v.fields = f;
                    (Arc::from(m.id.as_str()), v)
                })
            })
            .collect();
        all.and_then(|all| catalog::skill(&self.scan, entry, facts, all, scope_of))
            .map(Arc::new)
    }

    /// Makes `entries` and `catalog` the current state.
    fn install(
        &mut self,
        entries: Vec<Entry>,
        by_path: HashMap<PathBuf, usize>,
        keys: Vec<Keys>,
        catalog: Catalog,
    ) {
        let mut by_canon: HashMap<PathBuf, Vec<usize>> = HashMap::new();
        for (i, e) in entries.iter().enumerate() {
            if let Some(c) = self.scan.canonical.get(&e.path) {
                by_canon.entry(c.clone()).or_default().push(i);
            }
        }
        self.entries = entries;
        self.by_path = by_path;
        self.by_canon = by_canon;
        self.keys = keys;
        self.catalog = Arc::new(catalog);
        self.pos = vec![None; self.entries.len()];
        let skills = self.catalog.skills.clone();
        self.reindex(&skills, 0, skills.len());
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

/// What the scan says about one file besides its content: where it was found and what the walk
/// recorded there (the breadth-first rank aside: adding a folder shifts every rank but keeps
/// their order), its canonical path, references, bundled scripts and sidecars.
#[derive(Debug, PartialEq)]
struct Footprint {
    found: Vec<(PathBuf, crate::scan::walk::Candidate)>,
    canonical: Option<PathBuf>,
    references: Option<Vec<crate::scan::Reference>>,
    scripts: bool,
    sidecars: Vec<Option<Result<String, String>>>,
}

fn footprint(scan: &Scan, e: &Entry, sidecar_specs: &[(usize, usize)]) -> Footprint {
    let dir = e.path.parent().map(Path::to_path_buf).unwrap_or_default();
    Footprint {
        found: e
            .found
            .iter()
            .map(|&(wi, ci)| {
                let mut c = scan.walked[wi].candidates[ci].clone();
                c.dir_rank = 0;
                (scan.walked[wi].path.clone(), c)
            })
            .collect(),
        canonical: scan.canonical.get(&e.path).cloned(),
        references: scan.references.get(&e.path).cloned(),
        scripts: scan.with_scripts.contains(&dir),
        sidecars: sidecar_specs
            .iter()
            .map(|&(ai, si)| scan.sidecars.get(&(ai, si, dir.clone())).cloned())
            .collect(),
    }
}
