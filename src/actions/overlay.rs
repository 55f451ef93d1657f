//! Fast previews: a plan's operations applied to the live state in memory.
//!
//! The scan behind the current snapshot (`live::Live`) is cloned, each operation is replayed on
//! the walked roots it touches (a folder renamed or moved: its candidates, folders, ignore files,
//! canonical paths, contents, references, scripts and sidecars follow it; a symlink: the target's
//! candidates appear under the link; a copy: under the new path with their own canonical paths;
//! the trash: they go; a SKILL.md written: its content is parsed from the new bytes), the walk's
//! derived facts (depth, breadth-first rank, hidden folders, skill ancestors) are recomputed for
//! those roots, and [`Live::patch_roots`] re-resolves only the files of those roots whose facts
//! changed and every copy of the names they had and have — the same code that follows file events.
//! Nothing is read from or written to the user's tree except the canonical path of a folder the
//! plan writes into.
//!
//! A root folder the plan makes appears (walked empty, then filled by the plan's operations),
//! and the agents' root groups are decided again with it (`scan::roots::regroup`): a root that
//! stops or starts being the first existing folder of its group has every file resolved again.
//!
//! What the replay does not model is refused ([`Unsupported`]) so that the caller can fall back to
//! the mirror preview: a file outside the walked roots, a symlinked file or folder moved, trashed or copied, a folder another link points
//! into, a plugin-namespaced skill moved, a walk cut short by its bounds.

use super::Op;
use crate::agents::AgentModel;
use crate::live::{Edit, Live};
use crate::scan::Scan;
use crate::scan::walk::{Candidate, DirInfo, IgnoreFile, WalkedRoot};
use foldhash::{HashMap, HashMapExt};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a plan cannot be replayed in memory (a sentence).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

fn no<T>(why: impl Into<String>) -> Result<T, Unsupported> {
    Err(Unsupported(why.into()))
}

/// The live state after `ops`, and what changed. The given state is not modified.
pub fn predict(live: &Live, ops: &[Op]) -> Result<(Live, Edit), Unsupported> {
    let mut reach = Footprint::new(live.scan());
    for op in ops {
        reach.admit(op)?;
    }
    let regrouped = reach.regroup_appearing(live.models())?;
    let Footprint { touched, which, .. } = reach;
    let which: Vec<usize> = which.into_iter().collect();
    let mut next = live.clone();
    let mut failed: Option<Unsupported> = None;
    let edit = next.patch_roots(&touched, &which, |scan, models, which| {
        if let Some(roots) = regrouped {
            scan.agent_roots = roots;
        }
        if let Err(e) = replay(scan, models, which, ops) {
            failed = Some(e);
        }
        0
    });
    match failed {
        Some(e) => Err(e),
        None => Ok((next, edit)),
    }
}

/// What a plan reaches in the scan: the paths it changes, the walked roots holding them, and
/// the missing roots it makes. Each operation is admitted in turn or the plan is refused.
struct Footprint<'a> {
    scan: &'a Scan,
    /// The canonical folder of each walked root that exists.
    root_canon: Vec<Option<PathBuf>>,
    touched: BTreeSet<PathBuf>,
    which: BTreeSet<usize>,
    /// Roots the plan makes (their folder created by a `CreateDir`), by index.
    appearing: BTreeSet<usize>,
}

impl<'a> Footprint<'a> {
    fn new(scan: &'a Scan) -> Footprint<'a> {
        let root_canon = scan
            .walked
            .iter()
            .map(|w| {
                w.exists
                    .then(|| std::fs::canonicalize(&w.path).ok())
                    .flatten()
            })
            .collect();
        Footprint {
            scan,
            root_canon,
            touched: BTreeSet::new(),
            which: BTreeSet::new(),
            appearing: BTreeSet::new(),
        }
    }

    /// The walked roots holding a path (strictly inside a root that exists or is made).
    fn holders(&self, p: &Path) -> Vec<usize> {
        self.scan
            .walked
            .iter()
            .enumerate()
            .filter(|(i, w)| {
                (w.exists || self.appearing.contains(i)) && p != w.path && p.starts_with(&w.path)
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// Records `p` as changed, or refuses it: a root (or above one), outside every root, also
    /// reached through another root by a symlink, or in a walk cut short.
    fn need(&mut self, p: &Path) -> Result<(), Unsupported> {
        let scan = self.scan;
        if scan.walked.iter().any(|w| w.path.starts_with(p)) {
            return no(format!("{} is a root or holds one", p.display()));
        }
        let h = self.holders(p);
        if h.is_empty() {
            return no(format!("{} is outside every walked root", p.display()));
        }
        // Another root that is the same folder through a symlink would see the change too.
        let cp = super::canonical_nearest(p, false);
        for (i, rc) in self.root_canon.iter().enumerate() {
            if !h.contains(&i)
                && let Some(rc) = rc
                && cp.starts_with(rc)
            {
                return no(format!(
                    "{} is also reached through the root {}",
                    p.display(),
                    scan.walked[i].path.display()
                ));
            }
        }
        for &wi in &h {
            if scan.walked[wi].truncated.is_some() {
                return no(format!(
                    "the walk of {} was cut short",
                    scan.walked[wi].path.display()
                ));
            }
        }
        self.which.extend(h);
        self.touched.insert(p.to_path_buf());
        Ok(())
    }

    /// Admits one operation (its paths recorded) or refuses the plan.
    fn admit(&mut self, op: &Op) -> Result<(), Unsupported> {
        match op {
            Op::Write { path, .. } => self.admit_write(path),
            Op::CreateDir { path } => self.admit_create_dir(path),
            Op::Rename { from, to } | Op::Copy { from, to } => {
                self.admit_move(from, to, matches!(op, Op::Rename { .. }))
            }
            Op::Symlink { target, link } => self.admit_symlink(target, link),
            Op::Trash { path } => self.admit_trash(path),
        }
    }

    /// A SKILL.md written, by its canonical path: every candidate that is that file.
    fn admit_write(&mut self, path: &Path) -> Result<(), Unsupported> {
        let cands: Vec<PathBuf> = self
            .scan
            .canonical
            .iter()
            .filter(|(_, c)| *c == path)
            .map(|(p, _)| p.clone())
            .collect();
        if cands.is_empty() {
            return no(format!("{} is not a scanned skill file", path.display()));
        }
        for p in &cands {
            self.need(p)?;
        }
        Ok(())
    }

    /// A missing root made (or a folder above missing roots): the root appears. Any other new
    /// folder is a change inside the roots holding it.
    fn admit_create_dir(&mut self, path: &Path) -> Result<(), Unsupported> {
        let scan = self.scan;
        let roots: Vec<usize> = scan
            .walked
            .iter()
            .enumerate()
            .filter(|(_, w)| w.path.starts_with(path))
            .map(|(i, _)| i)
            .collect();
        if roots.is_empty() {
            return self.need(path);
        }
        if roots.iter().any(|&i| scan.walked[i].exists) {
            return no(format!("{} holds a root that exists", path.display()));
        }
        for i in roots {
            if scan.walked[i].path == *path {
                self.appearing.insert(i);
            }
        }
        Ok(())
    }

    /// A folder renamed (`rename`) or copied: refused when it is a symlink that would lead
    /// elsewhere from its new place (or is copied), or when links into it would dangle.
    fn admit_move(&mut self, from: &Path, to: &Path, rename: bool) -> Result<(), Unsupported> {
        self.need(from)?;
        self.need(to)?;
        let is_link = std::fs::symlink_metadata(from).is_ok_and(|m| m.file_type().is_symlink());
        if is_link {
            // A link keeps leading where it did only if its target is absolute or
            // resolves the same from the new place; a copy of a link is not modelled.
            let same = rename
                && std::fs::read_link(from).is_ok_and(|t| {
                    t.is_absolute()
                        || to.parent().is_some_and(|d| {
                            super::canonical_nearest(&crate::env::normalize(&d.join(&t)), true)
                                == super::canonical_nearest(from, true)
                        })
                });
            if !same {
                return no(format!("{} is a symlink", from.display()));
            }
        }
        let dangling = plain(self.scan, from)?;
        if rename && !dangling.is_empty() {
            // The links left dangling are walk errors in a real scan: not modelled.
            return no(format!("{} is the target of a symlink", from.display()));
        }
        Ok(())
    }

    /// A link made to a folder that holds scanned skills.
    fn admit_symlink(&mut self, target: &Path, link: &Path) -> Result<(), Unsupported> {
        self.need(link)?;
        if !self.scan.walked.iter().any(|w| {
            w.candidates
                .iter()
                .any(|c| c.path.starts_with(target) && c.path != *target)
        }) {
            return no(format!("{} holds no scanned skill", target.display()));
        }
        Ok(())
    }

    /// A path trashed: refused when links into it would dangle.
    fn admit_trash(&mut self, path: &Path) -> Result<(), Unsupported> {
        self.need(path)?;
        if !plain(self.scan, path)?.is_empty() {
            return no(format!("{} is the target of a symlink", path.display()));
        }
        Ok(())
    }

    /// The roots that appear join the roots to resolve again. A root that appears may be the
    /// first existing folder of its group for an agent (Kimi reads only the first of
    /// `~/.config/agents/skills` and `~/.agents/skills`): the roots whose state changes are
    /// resolved again, every file in them. Returns the agents' roots regrouped (None when no
    /// root appears).
    fn regroup_appearing(
        &mut self,
        models: &[AgentModel],
    ) -> Result<Option<Vec<crate::scan::AgentRoot>>, Unsupported> {
        let scan = self.scan;
        self.which.extend(self.appearing.iter().copied());
        if self.appearing.is_empty() {
            return Ok(None);
        }
        let made: Vec<PathBuf> = self
            .appearing
            .iter()
            .map(|&i| scan.walked[i].path.clone())
            .collect();
        let mut roots = scan.agent_roots.clone();
        let changed = crate::scan::roots::regroup(models, &mut roots, &made);
        for p in changed {
            if let Some(i) = scan.walked.iter().position(|w| w.path == p) {
                if scan.walked[i].truncated.is_some() {
                    return no(format!("the walk of {} was cut short", p.display()));
                }
                self.which.insert(i);
            }
            self.touched.insert(p);
        }
        Ok(Some(roots))
    }
}

/// The candidates outside `p` that are reached through a symlink into it (moving or trashing
/// `p` leaves those links dangling: the caller refuses); refuses a symlink deeper inside `p` and a plugin-namespaced skill.
/// `p` itself may be a symlink (then nothing links into it through it).
fn plain(scan: &Scan, p: &Path) -> Result<Vec<PathBuf>, Unsupported> {
    let is_link = std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
    let canon_p = std::fs::canonicalize(p).ok();
    let mut dangling = Vec::new();
    for w in &scan.walked {
        for c in &w.candidates {
            let inside = c.path.starts_with(p);
            if inside && !is_link && (c.symlinked_dir || c.file_symlink) {
                return no(format!("{} is reached through a symlink", c.path.display()));
            }
            if !inside
                && !is_link
                && let (Some(cp), Some(canon)) = (&canon_p, scan.canonical.get(&c.path))
                && canon.starts_with(cp)
            {
                dangling.push(c.path.clone());
            }
        }
    }
    if let Some(cp) = &canon_p
        && scan.plugins.keys().any(|(_, d)| d.starts_with(cp))
    {
        return no(format!("{} holds a plugin skill", p.display()));
    }
    Ok(dangling)
}

/// Removes candidates (by path) from every walked root and the scan's per-path facts.
fn drop_paths(scan: &mut Scan, paths: &[PathBuf]) {
    if paths.is_empty() {
        return;
    }
    let set: foldhash::HashSet<&PathBuf> = paths.iter().collect();
    for w in &mut scan.walked {
        w.candidates.retain(|c| !set.contains(&c.path));
    }
    for p in paths {
        scan.canonical.remove(p);
        scan.references.remove(p);
    }
}

/// What a folder (or file) carries when it moves: candidates, folders and ignore files with
/// paths relative to it.
#[derive(Default)]
struct Parcel {
    cands: Vec<Candidate>,
    dirs: Vec<DirInfo>,
    ignores: Vec<IgnoreFile>,
}

fn rel_to(p: &Path, base: &Path) -> Option<PathBuf> {
    p.strip_prefix(base).ok().map(Path::to_path_buf)
}

/// Takes (remove = true) or copies what root `w` holds at or under `p`.
fn pick(w: &mut WalkedRoot, p: &Path, remove: bool) -> Parcel {
    let Some(rel) = rel_to(p, &w.path) else {
        return Parcel::default();
    };
    let mut out = Parcel::default();
    let under = |r: &Path| r.starts_with(&rel);
    for c in &w.candidates {
        if under(&c.rel) {
            let mut c = c.clone();
            c.rel = rel_to(&c.rel, &rel).unwrap_or_default();
            out.cands.push(c);
        }
    }
    for d in &w.dirs {
        if under(&d.rel) {
            let mut d = d.clone();
            d.rel = rel_to(&d.rel, &rel).unwrap_or_default();
            out.dirs.push(d);
        }
    }
    for i in &w.ignore_files {
        if under(&i.dir) {
            let mut i = i.clone();
            i.dir = rel_to(&i.dir, &rel).unwrap_or_default();
            out.ignores.push(i);
        }
    }
    if remove {
        w.candidates.retain(|c| !under(&c.rel));
        w.dirs.retain(|d| !under(&d.rel));
        w.ignore_files.retain(|i| !under(&i.dir));
    }
    out
}

/// Puts a parcel at `p` (inside `w`).
fn place(w: &mut WalkedRoot, p: &Path, parcel: &Parcel, linked: bool) {
    let Some(rel) = rel_to(p, &w.path) else {
        return;
    };
    let base_depth = rel.components().count();
    for c in &parcel.cands {
        let mut c = c.clone();
        c.rel = if c.rel.as_os_str().is_empty() {
            rel.clone()
        } else {
            rel.join(&c.rel)
        };
        c.symlinked_dir |= linked;
        w.candidates.push(c);
    }
    for d in &parcel.dirs {
        let mut d = d.clone();
        d.rel = if d.rel.as_os_str().is_empty() {
            rel.clone()
        } else {
            rel.join(&d.rel)
        };
        d.depth += base_depth;
        // Its names are in the other root's `file_names` (or moved): not answered from.
        d.names = (0, 0);
        w.dirs.push(d);
    }
    for i in &parcel.ignores {
        let mut i = i.clone();
        i.dir = rel.join(&i.dir);
        w.ignore_files.push(i);
    }
}

/// The walk's derived facts again, after candidates and folders changed (as `walk::walk` makes
/// them: folders sorted by path, breadth-first ranks by depth then path, candidates in walk
/// order).
fn refresh(w: &mut WalkedRoot) {
    w.dirs.sort_by(|a, b| a.rel.cmp(&b.rel));
    w.dirs.dedup_by(|a, b| a.rel == b.rel);
    let mut order: Vec<usize> = (0..w.dirs.len()).collect();
    order.sort_by(|&a, &b| {
        (w.dirs[a].depth, &w.dirs[a].rel).cmp(&(w.dirs[b].depth, &w.dirs[b].rel))
    });
    let mut rank_of: HashMap<PathBuf, usize> = HashMap::new();
    for (rank, &i) in order.iter().enumerate() {
        rank_of.insert(w.dirs[i].rel.clone(), rank);
    }
    w.candidates.sort_by(|a, b| a.rel.cmp(&b.rel));
    let skill_dirs: HashMap<PathBuf, Vec<String>> = w
        .candidates
        .iter()
        .filter(|c| c.is_skill_md())
        .fold(HashMap::new(), |mut m, c| {
            m.entry(c.rel.parent().map(Path::to_path_buf).unwrap_or_default())
                .or_default()
                .push(c.file_name.clone());
            m
        });
    let root = w.path.clone();
    for c in &mut w.candidates {
        let parent = c.rel.parent().map(Path::to_path_buf).unwrap_or_default();
        c.path = root.join(&c.rel);
        c.depth = parent.components().count();
        c.hidden_dir = None;
        c.node_modules = false;
        for comp in parent.components() {
            let n = comp.as_os_str().to_string_lossy();
            if c.hidden_dir.is_none() && n.starts_with('.') {
                c.hidden_dir = Some(n.to_string());
            }
            c.node_modules |= n == "node_modules";
        }
        c.skill_ancestors.clear();
        let above: Vec<&Path> = parent.ancestors().skip(1).collect();
        for d in above.into_iter().rev() {
            if let Some(names) = skill_dirs.get(d) {
                c.skill_ancestors
                    .extend(names.iter().map(|n| (d.to_path_buf(), n.clone())));
            }
        }
        c.dir_rank = rank_of.get(&parent).copied().unwrap_or(0);
    }
}

/// Moves the per-path facts of the scan (canonical path, content, references, scripts,
/// sidecars) of every candidate path under `from` to the same place under `to`; `keep` leaves
/// the originals (a copy, a link). With `canon_to`, the files get new canonical paths there (a
/// move, a copy); without, they keep theirs (a link). Returns the new canonical folders.
fn carry(
    scan: &mut Scan,
    from: &Path,
    to: &Path,
    keep: bool,
    canon_to: Option<&Path>,
) -> Vec<PathBuf> {
    let under = |p: &Path, base: &Path, onto: &Path| -> Option<PathBuf> {
        let rest = p.strip_prefix(base).ok()?;
        Some(if rest.as_os_str().is_empty() {
            onto.to_path_buf()
        } else {
            onto.join(rest)
        })
    };
    // (old path, new path, old canonical, new canonical)
    let moved: Vec<(PathBuf, PathBuf, PathBuf, PathBuf)> = scan
        .canonical
        .iter()
        .filter_map(|(p, c)| {
            let n = under(p, from, to)?;
            let nc = match canon_to {
                Some(ct) => under(p, from, ct).unwrap_or_else(|| c.clone()),
                None => c.clone(),
            };
            Some((p.clone(), n, c.clone(), nc))
        })
        .collect();
    let mut dirs = Vec::new();
    for (old, new, oc, nc) in &moved {
        if nc != oc
            && let Some(content) = scan.files.get(oc).cloned()
        {
            if !keep {
                scan.files.remove(oc);
            }
            scan.files.insert(nc.clone(), content);
        }
        if !keep {
            scan.canonical.remove(old);
        }
        scan.canonical.insert(new.clone(), nc.clone());
        let refs = if keep {
            scan.references.get(old).cloned()
        } else {
            scan.references.remove(old)
        };
        if let Some(r) = refs {
            scan.references.insert(new.clone(), r);
        }
        if let Some(d) = nc.parent() {
            dirs.push(d.to_path_buf());
        }
    }
    let scripts: Vec<PathBuf> = scan
        .with_scripts
        .iter()
        .filter(|d| d.starts_with(from))
        .cloned()
        .collect();
    for d in scripts {
        if !keep {
            scan.with_scripts.remove(&d);
        }
        if let Some(n) = under(&d, from, to) {
            scan.with_scripts.insert(n);
        }
    }
    let sidecars: Vec<(usize, usize, PathBuf)> = scan
        .sidecars
        .keys()
        .filter(|(_, _, d)| d.starts_with(from))
        .cloned()
        .collect();
    for k in sidecars {
        let v = if keep {
            scan.sidecars.get(&k).cloned()
        } else {
            scan.sidecars.remove(&k)
        };
        if let (Some(v), Some(n)) = (v, under(&k.2, from, to)) {
            scan.sidecars.insert((k.0, k.1, n), v);
        }
    }
    dirs
}

/// Replays the operations on the scan (only the roots `which` change).
fn replay(
    scan: &mut Scan,
    models: &[AgentModel],
    which: &[usize],
    ops: &[Op],
) -> Result<(), Unsupported> {
    let mut new_dirs: Vec<PathBuf> = Vec::new();
    for op in ops {
        match op {
            Op::Write { path, new, .. } => replay_write(scan, path, new),
            Op::CreateDir { path } => replay_create_dir(scan, which, path),
            Op::Rename { from, to } | Op::Copy { from, to } => {
                let keep = matches!(op, Op::Copy { .. });
                new_dirs.extend(replay_move(scan, which, from, to, keep));
            }
            Op::Symlink { target, link } => replay_symlink(scan, which, target, link)?,
            Op::Trash { path } => replay_trash(scan, which, path),
        }
    }
    for &wi in which {
        refresh(&mut scan.walked[wi]);
    }
    // The plugin of each folder that appeared (read from the manifests above it).
    if !new_dirs.is_empty() {
        let dirs: Vec<&Path> = new_dirs.iter().map(PathBuf::as_path).collect();
        let found = crate::plugin::plugins(models, &dirs, |_| false);
        scan.plugins.extend(found);
    }
    Ok(())
}

/// A SKILL.md written: its content parsed from the new bytes, and the references of every
/// candidate that is that file read from it.
fn replay_write(scan: &mut Scan, path: &PathBuf, new: &[u8]) {
    let content: crate::scan::FileContent =
        Arc::new(crate::skill::SkillMd::from_bytes(new.to_vec()));
    let paths: Vec<PathBuf> = scan
        .canonical
        .iter()
        .filter(|(_, c)| *c == path)
        .map(|(p, _)| p.clone())
        .collect();
    for p in &paths {
        if let (Some(dir), Some(refs)) = (p.parent(), scan.references.get_mut(p)) {
            *refs = match &*content {
                Ok(md) => crate::scan::body_references(md, dir),
                Err(_) => Vec::new(),
            };
        }
    }
    scan.files.insert(path.clone(), content);
}

/// A folder made: a missing root appears (walked empty), any other folder is an empty folder
/// of the roots holding it.
fn replay_create_dir(scan: &mut Scan, which: &[usize], path: &Path) {
    for &wi in which {
        let w = &mut scan.walked[wi];
        if w.path == *path && !w.exists {
            w.exists = true;
            w.dirs = vec![DirInfo {
                rel: PathBuf::new(),
                depth: 0,
                files: 0,
                name_chars: 0,
                names: (0, 0),
            }];
            continue;
        }
        if let Some(rel) = rel_to(path, &w.path)
            && !rel.as_os_str().is_empty()
        {
            let depth = rel.components().count();
            w.dirs.push(DirInfo {
                rel,
                depth,
                files: 0,
                name_chars: 0,
                names: (0, 0),
            });
        }
    }
}

/// A folder moved (or copied, `keep`): its walked entries picked up and placed under `to`, its
/// per-path facts carried along. Returns the new canonical folders (their plugins are read).
fn replay_move(
    scan: &mut Scan,
    which: &[usize],
    from: &Path,
    to: &Path,
    keep: bool,
) -> Vec<PathBuf> {
    let is_link = std::fs::symlink_metadata(from).is_ok_and(|m| m.file_type().is_symlink());
    let mut parcel: Option<Parcel> = None;
    for &wi in which {
        if from.starts_with(&scan.walked[wi].path) {
            let p = pick(&mut scan.walked[wi], from, !keep);
            if parcel.as_ref().is_none_or(|q| q.cands.is_empty()) {
                parcel = Some(p);
            }
        }
    }
    let parcel = parcel.unwrap_or_default();
    for &wi in which {
        if to.starts_with(&scan.walked[wi].path) {
            place(&mut scan.walked[wi], to, &parcel, false);
        }
    }
    if is_link {
        carry(scan, from, to, false, None);
        Vec::new()
    } else {
        let canon_to = super::canonical_nearest(to, false);
        carry(scan, from, to, keep, Some(&canon_to))
    }
}

/// A link made: the target's candidates appear under the link, keeping their canonical paths.
fn replay_symlink(
    scan: &mut Scan,
    which: &[usize],
    target: &Path,
    link: &Path,
) -> Result<(), Unsupported> {
    let mut parcel: Option<Parcel> = None;
    for wi in 0..scan.walked.len() {
        let w = &scan.walked[wi];
        if target.starts_with(&w.path) && w.candidates.iter().any(|c| c.path.starts_with(target)) {
            parcel = Some(pick(&mut scan.walked[wi], target, false));
            break;
        }
    }
    let Some(parcel) = parcel else {
        return no(format!("{} holds no scanned skill", target.display()));
    };
    for &wi in which {
        if link.starts_with(&scan.walked[wi].path) {
            place(&mut scan.walked[wi], link, &parcel, true);
        }
    }
    carry(scan, target, link, true, None);
    Ok(())
}

/// A path trashed: its walked entries and per-path facts go, and the contents no path reads.
fn replay_trash(scan: &mut Scan, which: &[usize], path: &Path) {
    for &wi in which {
        if path.starts_with(&scan.walked[wi].path) {
            pick(&mut scan.walked[wi], path, true);
        }
    }
    let gone: Vec<PathBuf> = scan
        .canonical
        .keys()
        .filter(|p| p.starts_with(path))
        .cloned()
        .collect();
    drop_paths(scan, &gone);
    let live: foldhash::HashSet<&PathBuf> = scan.canonical.values().collect();
    let unread: Vec<PathBuf> = scan
        .files
        .keys()
        .filter(|c| !live.contains(c))
        .cloned()
        .collect();
    for c in unread {
        scan.files.remove(&c);
    }
    scan.with_scripts.retain(|d| !d.starts_with(path));
    scan.sidecars.retain(|(_, _, d), _| !d.starts_with(path));
}
