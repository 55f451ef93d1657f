//! Scanning: expand every agent's roots, walk each distinct folder once, read each candidate
//! file once (by canonical path), however many agents and roots reach it.

pub mod roots;
pub mod walk;

pub use roots::{AgentRoot, FormerRootInstance, RootState};
pub use walk::{Candidate, IgnoreFile, WalkedRoot};

use crate::agents::AgentModel;
use crate::env::Env;
use crate::par::par_map;
use crate::skill::{ReadError, SkillMd};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A file a skill's body refers to, and whether it is in the skill folder.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Reference {
    /// The path inside the skill folder, as written.
    pub target: String,
    pub line: usize,
    /// Not a bare relative path: a Markdown link, or a path after the skill-folder variable.
    pub link: bool,
    pub kind: crate::skill::body::RefKind,
    pub exists: bool,
}

/// The references in a SKILL.md's body, checked against its folder: the body's own files
/// ([`crate::skill::body`]); a path in a code block only when the file is there.
pub fn body_references(md: &SkillMd, skill_dir: &Path) -> Vec<Reference> {
    body_references_with(md, skill_dir, &|_| None, &|_| false)
}

/// [`body_references`], with `known(name)` answering whether the skill folder has a folder
/// `name` when it can (from the walk, [`WalkedRoot::folders_in`]); None asks the file system.
/// `seen(target)` says the walk saw the file a reference names ([`WalkedRoot::saw`]); when it
/// did not, the file system is asked.
fn body_references_with(
    md: &SkillMd,
    skill_dir: &Path,
    known: &dyn Fn(&str) -> Option<bool>,
    seen: &dyn Fn(&str) -> bool,
) -> Vec<Reference> {
    let lenient = crate::skill::SplitOptions {
        strip_bom: true,
        padded_delimiters: true,
        unclosed_rest_is_yaml: false,
    };
    let (body, line) = match md.split(lenient) {
        Ok(p) => (p.body, p.body_line),
        Err(_) => (md.text(), 1),
    };
    // Whether the skill has a top-level folder (symlinks followed): one `stat` per distinct
    // first folder the body names, only for bodies that name one.
    // A body names a few distinct first folders: a list searched in order beats hashing.
    let folders: std::cell::RefCell<Vec<(String, bool)>> = Default::default();
    let has_folder = |f: &str| {
        if let Some(&(_, known)) = folders.borrow().iter().find(|(name, _)| name == f) {
            return known;
        }
        let is = known(f).unwrap_or_else(|| skill_dir.join(f).is_dir());
        folders.borrow_mut().push((f.to_string(), is));
        is
    };
    crate::skill::body::references(body, line, &has_folder)
        .into_iter()
        .filter_map(|r| {
            let exists = seen(&r.target) || skill_dir.join(&r.target).exists();
            (exists || r.kind.missing_is_reported()).then(|| Reference {
                target: r.target,
                line: r.line,
                link: !r.kind.is_bare(),
                kind: r.kind,
                exists,
            })
        })
        .collect()
}

/// How far a scan has come, updated while it runs (from any of its threads): files walked,
/// SKILL.md files to read and read. Another thread reads it with [`Progress::counts`].
#[derive(Debug, Default)]
pub struct Progress {
    walked: AtomicUsize,
    to_read: AtomicUsize,
    read: AtomicUsize,
}

/// A reading of [`Progress`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Files seen by the walk so far (bundled files included).
    pub walked: usize,
    /// Candidate files to read (0 until the walk is done).
    pub to_read: usize,
    /// Candidate files read so far.
    pub read: usize,
}

impl Progress {
    pub fn new() -> Progress {
        Progress::default()
    }

    pub fn counts(&self) -> Counts {
        Counts {
            walked: self.walked.load(Ordering::Relaxed),
            to_read: self.to_read.load(Ordering::Relaxed),
            read: self.read.load(Ordering::Relaxed),
        }
    }
}

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
    /// The agents' settings (extra roots, disabled and hidden skills, unreadable files).
    pub settings: crate::settings::Settings,
    /// Sidecar settings that matched a skill folder: (agent, setting, skill folder) → what
    /// matched, or why the sidecar could not be read.
    pub sidecars: HashMap<(usize, usize, PathBuf), Result<String, String>>,
    /// Each distinct root folder, walked once.
    pub walked: Vec<WalkedRoot>,
    walked_index: HashMap<PathBuf, usize>,
    /// Canonical path of each candidate path.
    pub canonical: HashMap<PathBuf, PathBuf>,
    /// Content by canonical path.
    pub files: HashMap<PathBuf, FileContent>,
    /// Body references of each SKILL.md (by candidate path).
    pub references: HashMap<PathBuf, Vec<Reference>>,
    /// Skill folders that bundle a `scripts/` folder.
    pub with_scripts: HashSet<PathBuf>,
    /// The plugin of each canonical skill folder, per agent whose model namespaces plugin
    /// skills: (agent, folder) → the nearest plugin manifest (`crate::plugin`).
    pub plugins: HashMap<(usize, PathBuf), crate::plugin::Plugin>,
    /// Per agent: whether the project folder is trusted (None: the model has no `[trust]`).
    pub trust: Vec<Option<crate::trust::TrustDecision>>,
    /// Whether `files` and `references` hold the texts read ([`Texts`]).
    pub texts: Texts,
}

impl Scan {
    /// Reads these candidate files again (after an in-place edit): their content and their
    /// body references; nothing else is read.
    pub fn reread(&mut self, paths: &std::collections::BTreeSet<PathBuf>) {
        for p in paths {
            let Some(canon) = self.canonical.get(p).cloned() else {
                continue;
            };
            let content: FileContent = Arc::new(SkillMd::read(p));
            if let Some(dir) = p.parent()
                && let Some(refs) = self.references.get_mut(p)
            {
                *refs = match &*content {
                    Ok(md) => body_references(md, dir),
                    Err(_) => Vec::new(),
                };
            }
            self.files.insert(canon, content);
        }
    }

    /// Walks the roots `which` (indices into `walked`) again after files or folders inside them
    /// were made, removed or renamed: their candidates, canonical paths, sidecars, references
    /// and bundled scripts are recomputed; a file is read again when it is new or lies at or
    /// below a `touched` path, every other file keeps the content already read. The root list and
    /// the settings are kept (a root appearing or a settings file changing needs [`scan`]).
    /// Returns how many files were read.
    pub fn rewalk(
        &mut self,
        models: &[AgentModel],
        which: &[usize],
        touched: &std::collections::BTreeSet<PathBuf>,
    ) -> usize {
        let progress = Progress::new();
        let watch = crate::plugin::manifest_folders(models);
        let fresh: Vec<WalkedRoot> = par_map(which, |&wi| {
            walk_root(&self.walked[wi].path, &progress, watch.as_deref())
        });
        let roots: Vec<PathBuf> = which
            .iter()
            .map(|&wi| self.walked[wi].path.clone())
            .collect();
        let under_roots = |p: &Path| roots.iter().any(|r| p.starts_with(r));
        let is_touched = |p: &Path| touched.iter().any(|t| p.starts_with(t));
        // Canonical paths (as the full scan works them out) and the stale files to read.
        let (canonical, _) = canonical_paths(&fresh, Texts::Unread);
        let mut to_read: Vec<(PathBuf, PathBuf)> = Vec::new();
        let mut queued: HashSet<PathBuf> = HashSet::new();
        for w in &fresh {
            for c in &w.candidates {
                let canon = canonical
                    .get(&c.path)
                    .cloned()
                    .unwrap_or_else(|| c.path.clone());
                let stale =
                    !self.files.contains_key(&canon) || is_touched(&c.path) || is_touched(&canon);
                if stale && queued.insert(canon.clone()) {
                    to_read.push((canon.clone(), c.path.clone()));
                }
                self.canonical.insert(c.path.clone(), canon);
            }
        }
        let contents = par_map(&to_read, |(_, path)| Arc::new(SkillMd::read_walked(path)));
        let read = to_read.len();
        for ((canon, _), content) in to_read.into_iter().zip(contents) {
            self.files.insert(canon, content);
        }
        for (&wi, w) in which.iter().zip(fresh) {
            self.walked[wi] = w;
        }
        // Forget what no walked root holds any more.
        let mut all: HashSet<&Path> = HashSet::new();
        for w in &self.walked {
            for c in &w.candidates {
                all.insert(c.path.as_path());
            }
        }
        self.canonical.retain(|p, _| all.contains(p.as_path()));
        let bare = BareFolders::of(&self.walked);
        self.plugins =
            crate::plugin::plugins(models, &canonical_dirs(&self.canonical), |a| bare.holds(a));
        self.references.retain(|p, _| all.contains(p.as_path()));
        let live: HashSet<&PathBuf> = self.canonical.values().collect();
        self.files.retain(|c, _| live.contains(c));
        // Sidecars, references and scripts of every skill folder under these roots.
        self.with_scripts.retain(|d| !under_roots(d));
        self.sidecars.retain(|(_, _, d), _| !under_roots(d));
        let sidecar_specs = sidecar_specs(models);
        let mut dirs: HashSet<PathBuf> = HashSet::new();
        let mut skill_mds: Vec<(&WalkedRoot, &Candidate)> = Vec::new();
        for w in &self.walked {
            for c in &w.candidates {
                let Some(dir) = c.path.parent() else { continue };
                if !under_roots(dir) {
                    continue;
                }
                dirs.insert(dir.to_path_buf());
                if has_references(c) {
                    skill_mds.push((w, c));
                }
            }
        }
        let dirs: Vec<PathBuf> = dirs.into_iter().collect();
        let keys: Vec<(usize, usize, PathBuf)> = dirs
            .iter()
            .flat_map(|d| {
                sidecar_specs
                    .iter()
                    .map(move |&(ai, si)| (ai, si, d.clone()))
            })
            .collect();
        let found = par_map(&keys, |(ai, si, dir)| {
            crate::settings::sidecar(&models[*ai].settings[*si], dir)
        });
        for (k, r) in keys.into_iter().zip(found) {
            if let Some(r) = r {
                self.sidecars.insert(k, r);
            }
        }
        let found = par_map(&skill_mds, |&(w, c)| {
            references_and_scripts_of(w, c, self.content(&c.path).map(|a| &**a))
        });
        let paths: Vec<PathBuf> = skill_mds.iter().map(|(_, c)| c.path.clone()).collect();
        for (p, (refs, scripts)) in paths.into_iter().zip(found) {
            if scripts && let Some(dir) = p.parent() {
                self.with_scripts.insert(dir.to_path_buf());
            }
            self.references.insert(p, refs);
        }
        self.forget_file_names();
        read
    }

    /// Drops the walks' file names once the body references are worked out
    /// ([`WalkedRoot::forget_file_names`]).
    pub fn forget_file_names(&mut self) {
        for w in &mut self.walked {
            w.forget_file_names();
        }
    }

    pub fn walked(&self, path: &Path) -> Option<&WalkedRoot> {
        self.walked_index(path).map(|i| &self.walked[i])
    }

    /// The index in [`Scan::walked`] of the root walked at `path`.
    pub fn walked_index(&self, path: &Path) -> Option<usize> {
        self.walked_index.get(path).copied()
    }

    /// The content of a candidate, as read by the scan (None in a scan that read no texts).
    pub fn content(&self, path: &Path) -> Option<&FileContent> {
        self.canonical.get(path).and_then(|c| self.files.get(c))
    }

    /// The content of a candidate: the scan's, or, in a scan that read no texts, read now (None:
    /// not a candidate).
    pub fn text(&self, path: &Path) -> Option<FileContent> {
        match self.texts {
            Texts::Kept => self.content(path).cloned(),
            Texts::Unread => self
                .canonical
                .contains_key(path)
                .then(|| Arc::new(SkillMd::read_walked(path))),
        }
    }
}

/// The folders a walk listed whole and found nothing in named like a plugin manifest's folder
/// ([`walk::WalkedRoot::watched_in`]): every folder at or below the canonical path of a root
/// walked without error or bound, but those holding such an entry and those inside a `.git`
/// folder (never listed).
struct BareFolders<'w> {
    /// The canonical paths of those roots, as bytes (canonical paths are normalized: a folder
    /// below one starts with its bytes and a `/`).
    roots: HashSet<&'w [u8]>,
    /// The canonical paths of the folders in them that hold such an entry, as bytes.
    holding: HashSet<Vec<u8>>,
}

impl<'w> BareFolders<'w> {
    fn of(walked: impl IntoIterator<Item = &'w WalkedRoot>) -> BareFolders<'w> {
        let mut b = BareFolders {
            roots: HashSet::new(),
            holding: HashSet::new(),
        };
        for w in walked {
            let (Some(canon), Some(watched)) = (&w.canonical, &w.watched_in) else {
                continue;
            };
            if !(w.exists && w.truncated.is_none() && w.errors.is_empty()) {
                continue;
            }
            b.roots.insert(canon.as_os_str().as_encoded_bytes());
            for rel in watched {
                // (Joining an empty path would add a `/`.)
                let full = match rel.as_os_str().is_empty() {
                    true => canon.clone(),
                    false => canon.join(rel),
                };
                b.holding.insert(full.into_os_string().into_encoded_bytes());
            }
        }
        b
    }

    /// Whether canonical folder `a` is one of these.
    fn holds(&self, a: &Path) -> bool {
        if self.roots.is_empty() || !cfg!(unix) {
            return false;
        }
        let full = a.as_os_str().as_encoded_bytes();
        if self.holding.contains(full)
            || memchr::memmem::find(full, b"/.git").is_some()
                && a.components().any(|c| c.as_os_str() == ".git")
        {
            return false;
        }
        // `a` itself, then each folder above it, by its bytes up to a `/`.
        let mut b = full;
        loop {
            if self.roots.contains(b) {
                return true;
            }
            match memchr::memrchr(b'/', b) {
                Some(at) if at > 0 => b = &b[..at],
                _ => return false,
            }
        }
    }
}

/// The distinct folders of the candidates' canonical paths, sorted by their bytes (canonical
/// paths are normalized, so equal paths are equal bytes; a byte compare costs a fraction of
/// `Path`'s compare by components).
fn canonical_dirs(canonical: &HashMap<PathBuf, PathBuf>) -> Vec<&Path> {
    let mut dirs: Vec<&Path> = canonical.values().filter_map(|c| c.parent()).collect();
    dirs.sort_unstable_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    dirs.dedup();
    dirs
}

/// The (agent, setting) pairs of every sidecar setting (read per skill folder).
pub(crate) fn sidecar_specs(models: &[AgentModel]) -> Vec<(usize, usize)> {
    models
        .iter()
        .enumerate()
        .flat_map(|(ai, m)| {
            m.settings
                .iter()
                .enumerate()
                .filter(|(_, s)| s.kind == crate::agents::SettingKind::Sidecar)
                .map(move |(si, _)| (ai, si))
        })
        .collect()
}

/// Walks a root, with the root's own canonical path (`WalkedRoot::canonical`: one `realpath`
/// per root instead of one per file).
fn walk_root(p: &Path, progress: &Progress, watch: Option<&[&str]>) -> WalkedRoot {
    let w = match watch {
        Some(watch) => walk::walk_watching(p, &progress.walked, watch),
        None => walk::walk_counted(p, &progress.walked),
    };
    WalkedRoot {
        canonical: w.exists.then(|| std::fs::canonicalize(p).ok()).flatten(),
        ..w
    }
}

/// A candidate's canonical path: the canonical root joined with its relative path when no
/// symlink lies between them, else the file system's answer.
fn canonical_of(c: &walk::Candidate, canon_root: Option<&Path>) -> PathBuf {
    match canon_root {
        Some(r) if !asks_realpath(c, Some(r)) => r.join(&c.rel),
        _ => std::fs::canonicalize(&c.path).unwrap_or_else(|_| c.path.clone()),
    }
}

/// Whether [`canonical_of`] asks the file system (`realpath`): a symlink lies between the root
/// and the file, or the root's canonical path is not known.
fn asks_realpath(c: &walk::Candidate, canon_root: Option<&Path>) -> bool {
    canon_root.is_none() || c.symlinked_dir || c.file_symlink
}

/// Scans the roots of `models` for `env`.
pub fn scan(models: &[AgentModel], env: &Env) -> Scan {
    scan_with(models, env, &Progress::new())
}

/// Which candidate texts a scan reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Texts {
    /// Every distinct file read once and kept ([`Scan::files`]), with each SKILL.md's body
    /// references ([`Scan::references`]).
    Kept,
    /// No file read: `files` and `references` stay empty, and whoever resolves reads a text when
    /// it needs it ([`Scan::text`]) and works out the body references from that text
    /// ([`walked_references`]).
    Unread,
}

/// [`scan`], counting in `progress` the files walked and read as it goes.
pub fn scan_with(models: &[AgentModel], env: &Env, progress: &Progress) -> Scan {
    scan_texts(models, env, progress, Texts::Kept)
}

/// [`scan_with`], reading the candidates' texts or not (`texts`).
pub fn scan_texts(models: &[AgentModel], env: &Env, progress: &Progress, texts: Texts) -> Scan {
    let settings = crate::settings::read(models, env);
    let (agent_roots, former_roots) = roots::expand(models, env, &settings);
    let paths = roots_to_walk(&agent_roots, &former_roots);
    // Each root is walked once, the roots on all cores; the root's own canonical path comes
    // with it (one `realpath` per root instead of one per file).
    // Each walk also tells which of its folders hold something named like a plugin manifest's
    // folder: the manifests are not looked for in the other folders it listed.
    let watch = crate::plugin::manifest_folders(models);
    let walked: Vec<WalkedRoot> = par_map(&paths, |p| walk_root(p, progress, watch.as_deref()));
    let walked_index = paths
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), i))
        .collect();
    let (canonical, to_read) = canonical_paths(&walked, texts);
    let files = match texts {
        Texts::Kept => read_files(to_read, progress),
        Texts::Unread => HashMap::new(),
    };
    // The plugin manifests (looked for in every folder above a skill folder) are found on
    // another thread while the sidecars and body references are worked out on this one.
    let (plugins, sidecars, (references, with_scripts)) = std::thread::scope(|s| {
        let plugins = s.spawn(|| {
            let bare = BareFolders::of(&walked);
            crate::plugin::plugins(models, &canonical_dirs(&canonical), |a| bare.holds(a))
        });
        let sidecars = read_sidecars(models, &walked);
        let references = references_and_scripts(&walked, &canonical, &files, texts);
        let plugins = plugins
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        (plugins, sidecars, references)
    });
    let mut scan = Scan {
        trust: models
            .iter()
            .map(|m| crate::trust::decide(m, env))
            .collect(),
        plugins,
        env: env.clone(),
        git_root: env.git_root(),
        agent_roots,
        former_roots,
        settings,
        sidecars,
        references,
        with_scripts,
        walked,
        walked_index,
        canonical,
        files,
        texts,
    };
    // With the texts read, the references are worked out: the walk's file names are not needed
    // any more (without, whoever reads the texts works them out and then drops the names).
    if texts == Texts::Kept {
        scan.forget_file_names();
    }
    scan
}

/// Every distinct folder to walk: the agents' roots and their former roots, sorted.
fn roots_to_walk(agent_roots: &[AgentRoot], former_roots: &[FormerRootInstance]) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = agent_roots
        .iter()
        .map(|r| r.path.clone())
        .chain(former_roots.iter().map(|f| f.path.clone()))
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// The canonical path of every candidate, and each distinct canonical file once with the first
/// candidate path that reaches it: (canonical, path), in walk order.
type ToRead = Vec<(PathBuf, PathBuf)>;

/// Canonical path of every candidate: the canonical root joined with the relative path when no
/// symlink lies between them, else the file system's answer; and the distinct files to read
/// (none when the scan reads no text, `Texts::Unread`).
fn canonical_paths(walked: &[WalkedRoot], texts: Texts) -> (HashMap<PathBuf, PathBuf>, ToRead) {
    let mut canonical: HashMap<PathBuf, PathBuf> = HashMap::with_capacity(candidate_count(walked));
    let mut to_read: ToRead = Vec::new();
    let mut queued: HashSet<PathBuf> = HashSet::with_capacity(candidate_count(walked));
    // The file system's answers (a `realpath` each, for the files a symlink leads to) are asked
    // on all cores first, in the order the loop below takes them.
    let asked: Vec<&Candidate> = walked
        .iter()
        .flat_map(|w| {
            w.candidates
                .iter()
                .filter(|c| asks_realpath(c, w.canonical.as_deref()))
        })
        .collect();
    let mut real = par_map(&asked, |c| canonical_of(c, None)).into_iter();
    for w in walked {
        for c in &w.candidates {
            let canon = match asks_realpath(c, w.canonical.as_deref()) {
                true => real.next().unwrap_or_else(|| c.path.clone()),
                false => canonical_of(c, w.canonical.as_deref()),
            };
            if texts == Texts::Kept && queued.insert(canon.clone()) {
                to_read.push((canon.clone(), c.path.clone()));
            }
            canonical.insert(c.path.clone(), canon);
        }
    }
    (canonical, to_read)
}

/// Every distinct file read once, on all cores, by canonical path.
fn read_files(to_read: ToRead, progress: &Progress) -> HashMap<PathBuf, FileContent> {
    progress.to_read.store(to_read.len(), Ordering::Relaxed);
    let contents = par_map(&to_read, |(_, path)| {
        let content = Arc::new(SkillMd::read_walked(path));
        progress.read.fetch_add(1, Ordering::Relaxed);
        content
    });
    to_read
        .into_iter()
        .map(|(canon, _)| canon)
        .zip(contents)
        .collect()
}

/// Sidecar settings, read once per (agent, setting, skill folder).
fn read_sidecars(
    models: &[AgentModel],
    walked: &[WalkedRoot],
) -> HashMap<(usize, usize, PathBuf), Result<String, String>> {
    let sidecar_specs = sidecar_specs(models);
    let mut sidecar_keys: Vec<(usize, usize, PathBuf)> = Vec::new();
    if !sidecar_specs.is_empty() {
        // Sized once (growing it would hash every path again at each step).
        let mut seen: HashSet<&Path> = HashSet::with_capacity(candidate_count(walked));
        // The folder a sidecar is in (`agents` of `agents/openai.yaml`): a skill folder the
        // walk saw without it has no such file, and is not asked.
        let first_folders: Vec<Option<&str>> = sidecar_specs
            .iter()
            .map(|&(ai, si)| {
                let file = Path::new(models[ai].settings[si].file.as_deref()?);
                let mut parts = file.components();
                match (parts.next(), parts.next()) {
                    (Some(std::path::Component::Normal(first)), Some(_)) => first.to_str(),
                    _ => None,
                }
            })
            .collect();
        for w in walked {
            for c in &w.candidates {
                if let Some(dir) = c.path.parent()
                    && seen.insert(dir)
                {
                    let folders = w.folders_of(c);
                    for (&(ai, si), first) in sidecar_specs.iter().zip(&first_folders) {
                        let absent = first
                            .zip(folders.as_ref())
                            .and_then(|(first, folders)| folders.has(first))
                            == Some(false);
                        if !absent {
                            sidecar_keys.push((ai, si, dir.to_path_buf()));
                        }
                    }
                }
            }
        }
    }
    let found = par_map(&sidecar_keys, |(ai, si, dir)| {
        crate::settings::sidecar(&models[*ai].settings[*si], dir)
    });
    sidecar_keys
        .into_iter()
        .zip(found)
        .filter_map(|(k, r)| r.map(|r| (k, r)))
        .collect()
}

/// Whether a candidate's body references are recorded: a SKILL.md inside a skill folder.
pub fn has_references(c: &Candidate) -> bool {
    c.is_skill_md() && c.depth > 0
}

/// The body references of the SKILL.md at `path` with this content: none when it could not be
/// read (an empty list: the file is still one whose references a re-read updates).
pub fn references_of(content: &Result<SkillMd, ReadError>, path: &Path) -> Vec<Reference> {
    match (content, path.parent()) {
        (Ok(md), Some(dir)) => body_references(md, dir),
        _ => Vec::new(),
    }
}

/// The body references of a SKILL.md found by a walk (`w`'s candidate `c`) with this content:
/// which folders the skill has is answered from the walk where it can be.
pub fn walked_references(
    w: &WalkedRoot,
    c: &Candidate,
    content: &Result<SkillMd, ReadError>,
) -> Vec<Reference> {
    let folders = w.folders_of(c);
    references_in(content, w, c, folders.as_ref())
}

/// The body references of candidate `c` with this content, its folder's subfolders as the walk
/// saw them (None: ask the file system).
fn references_in(
    content: &Result<SkillMd, ReadError>,
    w: &WalkedRoot,
    c: &Candidate,
    folders: Option<&walk::FoldersIn>,
) -> Vec<Reference> {
    let (Ok(md), Some(dir)) = (content, c.path.parent()) else {
        return Vec::new();
    };
    body_references_with(md, dir, &|f| folders.and_then(|x| x.has(f)), &|target| {
        w.saw(c, target)
    })
}

/// The body references (none without `content`) and whether the folder holds `scripts/` of a
/// SKILL.md a walk found (`w`'s candidate `c`): which folders and files the skill folder has is
/// answered from the walk (no `stat`) where it can be.
fn references_and_scripts_of(
    w: &WalkedRoot,
    c: &Candidate,
    content: Option<&Result<SkillMd, ReadError>>,
) -> (Vec<Reference>, bool) {
    let folders = w.folders_of(c);
    let refs = content
        .map(|content| references_in(content, w, c, folders.as_ref()))
        .unwrap_or_default();
    let scripts = folders.as_ref().and_then(|f| f.has("scripts"));
    let dir = c.path.parent().unwrap_or(Path::new(""));
    (
        refs,
        scripts.unwrap_or_else(|| dir.join("scripts").is_dir()),
    )
}

/// The candidates of all the walks (a bound on the distinct paths or folders among them).
fn candidate_count(walked: &[WalkedRoot]) -> usize {
    walked.iter().map(|w| w.candidates.len()).sum()
}

/// Body references (on all cores: each lists its skill folder; only with the texts read) and
/// bundled scripts, once per SKILL.md.
fn references_and_scripts(
    walked: &[WalkedRoot],
    canonical: &HashMap<PathBuf, PathBuf>,
    files: &HashMap<PathBuf, FileContent>,
    texts: Texts,
) -> (HashMap<PathBuf, Vec<Reference>>, HashSet<PathBuf>) {
    let mut seen: HashSet<&Path> = HashSet::with_capacity(candidate_count(walked));
    // (SKILL.md, its folder, the root walked, the candidate)
    let mut skill_mds: Vec<(&Path, &Path, &WalkedRoot, &Candidate)> = Vec::new();
    for w in walked {
        for c in w.candidates.iter().filter(|c| has_references(c)) {
            if let Some(dir) = c.path.parent()
                && seen.insert(&c.path)
            {
                skill_mds.push((&c.path, dir, w, c));
            }
        }
    }
    let found = par_map(&skill_mds, |&(path, _, w, c)| {
        let content = canonical.get(path).and_then(|k| files.get(k));
        references_and_scripts_of(w, c, content.map(|a| &**a))
    });
    let mut references = match texts {
        Texts::Kept => HashMap::with_capacity(skill_mds.len()),
        Texts::Unread => HashMap::new(),
    };
    let mut with_scripts = HashSet::new();
    for (&(path, dir, _, _), (refs, scripts)) in skill_mds.iter().zip(found) {
        if texts == Texts::Kept {
            references.insert(path.to_path_buf(), refs);
        }
        if scripts {
            with_scripts.insert(dir.to_path_buf());
        }
    }
    (references, with_scripts)
}
