//! Walking one root folder once, permissively, recording what every agent's traversal rules
//! need to decide later: depth, hidden folders, `node_modules`, symlinks, skill folders above a
//! file, ignore files, and the folder order (for per-root folder caps).
//!
//! The walk enters everything but `.git`, follows symlinked folders (walkdir detects loops) and is
//! bounded in depth and folder count; when a bound is hit the result says so.

use foldhash::{HashMap, HashMapExt, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use walkdir::WalkDir;

/// Deepest folder level walked below a root (deeper than any agent is known to look).
pub const MAX_WALK_DEPTH: usize = 32;
/// Folders visited per root before the walk stops.
pub const MAX_WALK_DIRS: usize = 50_000;
/// Ignore files recorded for agents that honour them.
pub const IGNORE_FILE_NAMES: [&str; 3] = [".gitignore", ".ignore", ".fdignore"];

/// Whether a file name is an editor's swap, backup, lock or temp file: vim (`.x.swp`, `.x.swo`,
/// `.x.swx`, `x~`), Emacs (`.#x`, `#x#`, `x~`), JetBrains (`x___jb_tmp___`, `x___jb_old___`),
/// GTK (`.goutputstream-*`), Kate (`.x.kate-swp`) and atomic writers (`*.tmp`, skilltui's own
/// `.x.skilltui-*.tmp`). No agent loads them as skills, and they come and go while someone
/// types, so the walk does not count them as bundled files and the watcher does not rescan for
/// them.
pub fn is_editor_temp(name: &str) -> bool {
    let ends = |suffix: &str| {
        name.len() > suffix.len()
            && name.is_char_boundary(name.len() - suffix.len())
            && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
    };
    name.ends_with('~')
        || name.starts_with(".#")
        || (name.len() > 2 && name.starts_with('#') && name.ends_with('#'))
        || (name.starts_with('.')
            && [".swp", ".swo", ".swx", ".swpx", ".kate-swp"]
                .iter()
                .any(|s| ends(s)))
        || ends(".tmp")
        || name.contains("___jb_tmp___")
        || name.contains("___jb_old___")
        || name.starts_with(".goutputstream-")
}

/// A folder below the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirInfo {
    /// Path relative to the root ("" is the root itself).
    pub rel: PathBuf,
    pub depth: usize,
    /// Regular files directly inside.
    pub files: u32,
    /// Characters of those files' names.
    pub name_chars: u32,
    /// Where the names of every entry directly inside that is not a folder (files, editor
    /// temporaries, links to files) are in [`WalkedRoot::file_names`], in the walk's order;
    /// empty when the walk did not record them (a folder an action's preview put there).
    pub names: (u32, u32),
}

/// A file that some agent may load as a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Path relative to the root.
    pub rel: PathBuf,
    /// Root joined with `rel` (the path through any symlinks).
    pub path: PathBuf,
    /// The file's name as on disk (`SKILL.md`, `skill.md`, `foo.md`).
    pub file_name: String,
    /// Folders between the root and the file: 0 = directly in the root, 1 = `<root>/<skill>/`.
    pub depth: usize,
    /// The file itself is a symlink.
    pub file_symlink: bool,
    /// Some folder between the root (exclusive) and the file is a symlink.
    pub symlinked_dir: bool,
    /// The first hidden folder (name starting with `.`) between the root and the file.
    pub hidden_dir: Option<String>,
    /// A `node_modules` folder lies between the root and the file.
    pub node_modules: bool,
    /// Folders above the file's folder (root included) holding a `skill.md` in any letter case,
    /// outermost first: (folder relative to root, file name).
    pub skill_ancestors: Vec<(PathBuf, String)>,
    /// Rank of the file's folder in breadth-first order (0 = the root).
    pub dir_rank: usize,
    /// Where the folders at and below the file's folder are in its root's `dirs`
    /// ([`WalkedRoot::dirs_of`]): found when first asked, then kept.
    dirs: crate::memo::Memo<std::ops::Range<usize>>,
}

impl Candidate {
    /// The name of the folder that holds the file ("" when the file is directly in the root).
    pub fn folder_name(&self) -> String {
        self.rel
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| crate::sanitize::lossy(n).into_owned())
            .unwrap_or_default()
    }

    pub fn is_skill_md(&self) -> bool {
        self.file_name.eq_ignore_ascii_case("SKILL.md")
    }
}

/// An ignore file found below the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoreFile {
    /// Folder holding it, relative to the root.
    pub dir: PathBuf,
    pub name: String,
    pub patterns: Vec<String>,
    /// `patterns` compiled when first asked ([`IgnoreFile::ignores`]), then shared by every
    /// agent and file.
    matcher: crate::memo::Memo<crate::pattern::IgnoreMatcher>,
}

impl IgnoreFile {
    /// The pattern that excludes `rel` (a path relative to this file's folder), as
    /// [`crate::pattern::ignored_by`] decides it.
    pub fn ignores(&self, rel: &Path) -> Option<&str> {
        self.matcher
            .get_or_init(|| crate::pattern::IgnoreMatcher::new(&self.patterns))
            .ignores(&self.patterns, rel)
    }
}

/// The folders directly inside one folder, as a walk saw them ([`WalkedRoot::folders_in`]).
pub struct FoldersIn<'w> {
    names: Vec<&'w std::ffi::OsStr>,
    complete: bool,
}

impl FoldersIn<'_> {
    /// Whether the folder holds a folder `name`: None when the walk cannot tell (ask the file
    /// system), which is also the answer for a name that differs only in letter case from one
    /// walked (a file system that ignores case has it).
    pub fn has(&self, name: &str) -> Option<bool> {
        if self.names.iter().any(|n| *n == name) {
            return Some(true);
        }
        // The walk never enters `.git`.
        if name == ".git" {
            return None;
        }
        let lower = std::cell::OnceCell::new();
        let other_case = || {
            self.names.iter().any(|n| match n.to_str() {
                // Two ASCII names: their lower cases are their ASCII lower cases. (A non-ASCII
                // name can lower-case to ASCII: the Kelvin sign to `k`.)
                Some(n) if n.is_ascii() && name.is_ascii() => n.eq_ignore_ascii_case(name),
                _ => {
                    n.to_string_lossy().to_lowercase() == *lower.get_or_init(|| name.to_lowercase())
                }
            })
        };
        (self.complete && !other_case()).then_some(false)
    }
}

/// The result of walking one root.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WalkedRoot {
    pub path: PathBuf,
    pub exists: bool,
    pub dirs: Vec<DirInfo>,
    pub candidates: Vec<Candidate>,
    pub ignore_files: Vec<IgnoreFile>,
    /// Folders that could not be read, symlink loops.
    pub errors: Vec<String>,
    /// Set when a walk bound was hit.
    pub truncated: Option<String>,
    /// The folders (relative to the root) directly holding an entry (file or folder) named
    /// like one of the names the walk watched for ([`walk_watching`]): ASCII letter case
    /// ignored and every non-ASCII name counted, so a file system that ignores case is covered.
    /// None: it watched for nothing.
    pub watched_in: Option<Vec<PathBuf>>,
    /// The root's canonical path, when the caller worked it out (the scan does).
    pub canonical: Option<PathBuf>,
    /// The names of the entries that are not folders, each followed by a `/` (which no name
    /// holds), folder by folder (`DirInfo::names`): what [`WalkedRoot::saw`] answers from.
    pub file_names: Vec<u8>,
}

/// Walks `root`.
pub fn walk(root: &Path) -> WalkedRoot {
    walk_counted(root, &AtomicUsize::new(0))
}

/// Walks `root`, adding each file walked to `walked` as it goes (the scan's progress).
pub fn walk_counted(root: &Path, walked: &AtomicUsize) -> WalkedRoot {
    walk_inner(root, walked, None)
}

/// [`walk_counted`], also telling which folders hold an entry named like one of `watch`
/// ([`WalkedRoot::watched_in`]): a plugin manifest's folder, which then need not be looked for
/// in the other folders the walk listed.
pub fn walk_watching(root: &Path, walked: &AtomicUsize, watch: &[&str]) -> WalkedRoot {
    walk_inner(root, walked, Some(watch))
}

/// Whether an entry named `name` may be `watched` on some file system: the same name in ASCII
/// letter case, or a name that is not ASCII (whose case folding skilltui does not model).
fn named_like(name: &std::ffi::OsStr, watched: &str) -> bool {
    // ASCII bytes are their own UTF-8: no decoding needed to tell.
    let name = name.as_encoded_bytes();
    !name.is_ascii() || name.eq_ignore_ascii_case(watched.as_bytes())
}

fn walk_inner(root: &Path, walked: &AtomicUsize, watch: Option<&[&str]>) -> WalkedRoot {
    let mut out = WalkedRoot {
        path: root.to_path_buf(),
        watched_in: watch.map(|_| Vec::new()),
        ..Default::default()
    };
    match std::fs::metadata(root) {
        Ok(m) if m.is_dir() => out.exists = true,
        Ok(_) => {
            out.errors
                .push(format!("{} is not a folder", root.display()));
            return out;
        }
        Err(_) => return out,
    }
    let found = walk_tree(root, walked, watch.unwrap_or(&[]), &mut out);
    if let Some(w) = &mut out.watched_in {
        // Indices in `dirs` while walking (a folder once, though several of its entries match).
        let mut at: Vec<usize> = found.watched_in.clone();
        at.sort_unstable();
        at.dedup();
        w.extend(at.into_iter().map(|i| out.dirs[i].rel.clone()));
    }
    // Sorted by path (the walk's order already, sorted by file name), which `dirs_under` relies on.
    out.dirs.sort_by(|a, b| walked_cmp(&a.rel, &b.rel));
    out.candidates = candidates(root, &out.dirs, found);
    out
}

/// What the walk found besides folders and ignore files: symlinked folders, the folders
/// holding a SKILL.md (with its spelling), and the candidate files (path, name, symlink).
#[derive(Default)]
struct Found {
    symlinked: HashSet<PathBuf>,
    skill_dirs: Vec<(PathBuf, String)>,
    files: Vec<(PathBuf, String, bool)>,
    /// The folders (indices in `dirs`) holding an entry named like a watched name.
    watched_in: Vec<usize>,
}

/// An entry's file name. Below the root an entry's path is its folder's joined with its name
/// (never `.`, `..` or holding a `/`), so on Unix its name is the bytes after the last `/`,
/// taken without parsing the path's components as `DirEntry::file_name` does at each call.
fn name_of(e: &walkdir::DirEntry) -> &std::ffi::OsStr {
    #[cfg(unix)]
    if e.depth() > 0 {
        use std::os::unix::ffi::OsStrExt;
        let bytes = e.path().as_os_str().as_bytes();
        if let Some(at) = memchr::memrchr(b'/', bytes)
            && at + 1 < bytes.len()
        {
            return std::ffi::OsStr::from_bytes(&bytes[at + 1..]);
        }
    }
    e.file_name()
}

/// What siblings are sorted by: their file names, as `WalkDir::sort_by_file_name` sorts them.
fn sort_name(e: &walkdir::DirEntry) -> &[u8] {
    name_of(e).as_encoded_bytes()
}

/// The bounded walk itself: folders into `out.dirs`, ignore files into `out.ignore_files`,
/// errors and truncation into `out`.
fn walk_tree(root: &Path, walked: &AtomicUsize, watch: &[&str], out: &mut WalkedRoot) -> Found {
    let mut found = Found::default();
    // A symlinked folder that points at the root or one of its ancestors (`/`, home) would walk
    // the file system up to the folder bound; it is not followed, and said so.
    let root_canon = std::fs::canonicalize(root).ok();
    let escapes: std::cell::RefCell<Vec<String>> = Default::default();
    let it = WalkDir::new(root)
        .follow_links(true)
        .max_depth(MAX_WALK_DEPTH + 1)
        .sort_by(|a, b| sort_name(a).cmp(sort_name(b)))
        .into_iter()
        .filter_entry(|e| {
            if !e.file_type().is_dir() || e.depth() == 0 {
                return true;
            }
            if name_of(e) == ".git" {
                return false;
            }
            if e.path_is_symlink()
                && let (Some(rc), Ok(target)) = (&root_canon, std::fs::canonicalize(e.path()))
                && rc.starts_with(&target)
            {
                escapes.borrow_mut().push(format!(
                    "{} links to {}, which holds the root: not followed",
                    e.path().display(),
                    target.display()
                ));
                return false;
            }
            true
        });
    let mut dirs_seen = 0usize;
    // Index in `out.dirs` of the open folder at each depth: the walk is depth-first, so a file's
    // folder is the last one opened one level up (no path is built for the many bundled files).
    let mut open: Vec<usize> = Vec::new();
    // The names of the entries that are not folders in each open folder (`open`'s depths),
    // moved to `out.file_names` when the folder is done (buffers reused).
    let mut names: Vec<Vec<u8>> = Vec::new();
    for entry in it {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let what = match (e.loop_ancestor(), e.path()) {
                    (Some(a), Some(p)) => format!(
                        "symlink loop: {} points back to {}",
                        p.display(),
                        a.display()
                    ),
                    _ => e.to_string(),
                };
                out.errors.push(what);
                continue;
            }
        };
        if entry.depth() > 0 && watch.iter().any(|w| named_like(name_of(&entry), w)) {
            // The open folder one level up holds it (the walk is depth first).
            if let Some(&d) = open.get(entry.depth() - 1) {
                found.watched_in.push(d);
            }
        }
        if !entry.file_type().is_dir() {
            let d = entry.depth().checked_sub(1);
            if let Some(buf) = d.filter(|&d| d < open.len()).and_then(|d| names.get_mut(d)) {
                buf.extend_from_slice(name_of(&entry).as_encoded_bytes());
                buf.push(b'/');
            }
        }
        if entry.file_type().is_dir() {
            if entry.depth() > MAX_WALK_DEPTH {
                out.truncated.get_or_insert_with(|| {
                    format!("folders deeper than {MAX_WALK_DEPTH} levels were not walked")
                });
                continue;
            }
            dirs_seen += 1;
            if dirs_seen > MAX_WALK_DIRS {
                out.truncated = Some(format!("the walk stopped after {MAX_WALK_DIRS} folders"));
                break;
            }
            let rel = rel_of(root, &entry, &open, &out.dirs);
            if entry.path_is_symlink() && entry.depth() > 0 {
                found.symlinked.insert(rel.clone());
            }
            let k = entry.depth().min(open.len());
            close_dirs(out, &open[k..], &mut names[k..]);
            open.truncate(entry.depth());
            open.push(out.dirs.len());
            if names.len() < open.len() {
                names.push(Vec::new());
            }
            out.dirs.push(DirInfo {
                rel,
                depth: entry.depth(),
                files: 0,
                name_chars: 0,
                names: (0, 0),
            });
        } else if entry.file_type().is_file() {
            walked.fetch_add(1, Ordering::Relaxed);
            take_file(root, &entry, &open, out, &mut found);
        }
    }
    close_dirs(out, &open, &mut names);
    out.file_names.shrink_to_fit();
    out.errors.extend(escapes.take());
    found
}

/// The folders `done` (indices in `out.dirs`) are walked: their names (`names`, by the same
/// depths) go to `out.file_names`.
fn close_dirs(out: &mut WalkedRoot, done: &[usize], names: &mut [Vec<u8>]) {
    for (&d, buf) in done.iter().zip(names) {
        let start = out.file_names.len();
        out.file_names.extend_from_slice(buf);
        // Past 4 GiB of names a folder keeps none (the file system is asked).
        out.dirs[d].names = match (u32::try_from(start), u32::try_from(out.file_names.len())) {
            (Ok(a), Ok(b)) => (a, b),
            _ => (0, 0),
        };
        buf.clear();
    }
}

/// `entry`'s path relative to `root`: the open folder a level up (`open`, indices in `dirs`)
/// joined with its name, which spares comparing the whole path with the root component by
/// component; the root itself is the empty path.
fn rel_of(root: &Path, entry: &walkdir::DirEntry, open: &[usize], dirs: &[DirInfo]) -> PathBuf {
    let Some(up) = entry.depth().checked_sub(1) else {
        return PathBuf::new();
    };
    match open.get(up) {
        // `Path::join` without its second allocation (it copies the parent, then grows).
        Some(&i) => {
            let (parent, name) = (&dirs[i].rel, name_of(entry));
            let mut rel = PathBuf::with_capacity(parent.as_os_str().len() + 1 + name.len());
            rel.push(parent);
            rel.push(name);
            rel
        }
        None => entry
            .path()
            .strip_prefix(root)
            .map(Path::to_path_buf)
            .unwrap_or_default(),
    }
}

/// One file of the walk: counted in its folder; kept when it is a SKILL.md, a loose `*.md`
/// directly in the root, or an ignore file (read at once, up to 1,000 pattern lines).
fn take_file(
    root: &Path,
    entry: &walkdir::DirEntry,
    open: &[usize],
    out: &mut WalkedRoot,
    found: &mut Found,
) {
    let os_name = name_of(entry);
    let lossy;
    let name: &str = match os_name.to_str() {
        Some(n) => n,
        None => {
            lossy = os_name.to_string_lossy();
            &lossy
        }
    };
    if is_editor_temp(name) {
        return;
    }
    let dir = entry
        .depth()
        .checked_sub(1)
        .and_then(|d| open.get(d).copied());
    if let Some(d) = dir.map(|i| &mut out.dirs[i]) {
        d.files += 1;
        d.name_chars += name.chars().count() as u32;
    }
    let is_skill_md = name.eq_ignore_ascii_case("SKILL.md");
    let loose = entry.depth() == 1
        && name.len() > 3
        && name.is_char_boundary(name.len() - 3)
        && name[name.len() - 3..].eq_ignore_ascii_case(".md");
    let ignore_file = IGNORE_FILE_NAMES.contains(&name);
    if !(is_skill_md || loose || ignore_file) {
        return;
    }
    let rel = rel_of(root, entry, open, &out.dirs);
    let parent = rel.parent().map(Path::to_path_buf).unwrap_or_default();
    let name = name.to_string();
    if is_skill_md {
        found.skill_dirs.push((parent.clone(), name.clone()));
    }
    if is_skill_md || loose {
        found.files.push((rel, name, entry.path_is_symlink()));
    } else {
        let patterns = std::fs::read_to_string(entry.path())
            .map(|t| {
                t.lines()
                    .map(str::trim_end)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .take(1000)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        out.ignore_files.push(IgnoreFile {
            dir: parent,
            name,
            patterns,
            matcher: Default::default(),
        });
    }
}

/// The candidates with what traversal rules need: depth, hidden folder, node_modules,
/// symlinked folder on the way, the skill folders above, the breadth-first rank of the folder.
fn candidates(root: &Path, dirs: &[DirInfo], found: Found) -> Vec<Candidate> {
    let Found {
        symlinked,
        skill_dirs,
        files,
        ..
    } = found;
    // Breadth-first rank of every folder: by depth, then path (sorted read order). `dirs` is
    // sorted by path already, so a stable sort by depth alone gives that order without
    // comparing paths.
    debug_assert!(dirs.is_sorted_by(|a, b| a.rel <= b.rel));
    let mut order: Vec<usize> = (0..dirs.len()).collect();
    order.sort_by_key(|&a| dirs[a].depth);
    let mut rank_of: foldhash::HashMap<&Path, usize> = Default::default();
    for (rank, &i) in order.iter().enumerate() {
        rank_of.insert(dirs[i].rel.as_path(), rank);
    }
    let mut skill_dir_index: HashMap<&Path, Vec<String>> = HashMap::new();
    for (d, n) in &skill_dirs {
        skill_dir_index
            .entry(d.as_path())
            .or_default()
            .push(n.clone());
    }
    let mut candidates = Vec::with_capacity(files.len());
    for (rel, name, file_symlink) in files {
        let parent = rel.parent().map(Path::to_path_buf).unwrap_or_default();
        let depth = parent.components().count();
        let mut hidden_dir = None;
        let mut node_modules = false;
        let mut symlinked_dir = false;
        let mut prefix = PathBuf::new();
        for c in parent.components() {
            prefix.push(c);
            let n = c.as_os_str().to_string_lossy();
            if hidden_dir.is_none() && n.starts_with('.') {
                hidden_dir = Some(n.to_string());
            }
            node_modules |= n == "node_modules";
            symlinked_dir |= symlinked.contains(&prefix);
        }
        // Folders strictly above the file's folder, outermost first, looked up by path (a
        // linear scan of every skill folder per candidate would be quadratic in a large root).
        let mut skill_ancestors: Vec<(PathBuf, String)> = Vec::new();
        if !skill_dirs.is_empty() {
            let above: Vec<&Path> = parent.ancestors().skip(1).collect();
            for d in above.into_iter().rev() {
                if let Some(names) = skill_dir_index.get(d) {
                    skill_ancestors.extend(names.iter().map(|n| (d.to_path_buf(), n.clone())));
                }
            }
        }
        candidates.push(Candidate {
            path: root.join(&rel),
            dir_rank: rank_of.get(parent.as_path()).copied().unwrap_or(0),
            rel,
            file_name: name,
            depth,
            file_symlink,
            symlinked_dir,
            hidden_dir,
            node_modules,
            skill_ancestors,
            dirs: Default::default(),
        });
    }
    candidates
}

impl WalkedRoot {
    /// The folders directly inside `rel` (relative to the root) as the walk saw them, and
    /// whether the walk saw them all: no bound hit, no error, no link left unfollowed, `rel` not
    /// too deep and not inside a `.git` folder (never entered). The walk follows symlinks as
    /// `Path::is_dir` does.
    pub fn folders_in(&self, rel: &Path) -> FoldersIn<'_> {
        self.folders_in_run(rel, self.dirs_under(rel))
    }

    /// [`WalkedRoot::folders_in`] with `run`, the folders at and below `rel`.
    fn folders_in_run<'w>(&'w self, rel: &Path, run: &'w [DirInfo]) -> FoldersIn<'w> {
        let depth = rel.components().count() + 1;
        let names = run
            .iter()
            .filter(|d| d.depth == depth)
            .filter_map(|d| d.rel.file_name())
            .collect();
        FoldersIn {
            names,
            complete: self.exists
                && self.truncated.is_none()
                && self.errors.is_empty()
                && depth <= MAX_WALK_DEPTH
                && !rel.components().any(|c| c.as_os_str() == ".git"),
        }
    }

    /// [`WalkedRoot::dirs_under`] the folder of `c`, one of this root's candidates: found once
    /// per candidate, then kept (every agent that lists the skill asks for its bundle).
    pub fn dirs_of(&self, c: &Candidate) -> &[DirInfo] {
        let at = c
            .dirs
            .get_or_init(|| self.dirs_at(c.rel.parent().unwrap_or(Path::new(""))));
        self.dirs.get(at.clone()).unwrap_or(&[])
    }

    /// Drops the names of the files the walk saw (once the body references are worked out):
    /// [`WalkedRoot::saw`] then answers no more.
    pub fn forget_file_names(&mut self) {
        self.file_names = Vec::new();
    }

    /// Whether the walk saw a file or folder at `target`, a path relative to the folder of `c`
    /// (one of this root's candidates), as `Path::exists` resolves it. Only a yes is an answer:
    /// false says the walk did not see it (ask the file system), as for a path through `..`, an
    /// absolute path, a trailing `/` after a file, a name in another letter case, or a folder
    /// whose names the walk did not record.
    pub fn saw(&self, c: &Candidate, target: &str) -> bool {
        fn bytes(p: &Path) -> &[u8] {
            p.as_os_str().as_encoded_bytes()
        }
        // The walk joins names with `/` (Unix): elsewhere the file system is asked.
        if cfg!(not(unix)) || target.starts_with('/') {
            return false;
        }
        let Some(skill_dir) = c.rel.parent() else {
            return false;
        };
        // The path below the root, joined as the walk joins it (`.` and empty parts dropped, as
        // `Path::components` drops them); where its last part starts.
        let mut full: Vec<u8> = Vec::with_capacity(skill_dir.as_os_str().len() + target.len() + 1);
        full.extend_from_slice(bytes(skill_dir));
        let mut last = None;
        for part in target.split('/') {
            match part {
                "" | "." => continue,
                ".." => return false,
                _ => {}
            }
            if !full.is_empty() {
                full.push(b'/');
            }
            last = Some(full.len());
            full.extend_from_slice(part.as_bytes());
        }
        let Some(last) = last else {
            return false;
        };
        let (up, name) = (&full[..last.saturating_sub(1)], &full[last..]);
        // The folders at and below the skill folder are few: looked through once.
        let mut dir = None;
        for d in self.dirs_of(c) {
            let b = bytes(&d.rel);
            if b == full {
                return true;
            }
            if b == up {
                dir = Some(d);
            }
        }
        let Some(dir) = dir else {
            return false;
        };
        if target.ends_with('/') {
            return false;
        }
        let (start, end) = (dir.names.0 as usize, dir.names.1 as usize);
        let Some(names) = self.file_names.get(start..end) else {
            return false;
        };
        names.split(|&b| b == b'/').any(|n| n == name)
    }

    /// [`WalkedRoot::folders_in`] the folder of `c`, one of this root's candidates (None when
    /// its path has no parent).
    pub fn folders_of(&self, c: &Candidate) -> Option<FoldersIn<'_>> {
        let rel = c.rel.parent()?;
        Some(self.folders_in_run(rel, self.dirs_of(c)))
    }

    /// The folders at and below `skill_dir` (relative to the root). `dirs` is sorted by path
    /// (the walk sorts it, component by component), so they are one run starting at its own
    /// position: the cost is the size of the run, not of the root.
    pub fn dirs_under(&self, skill_dir: &Path) -> &[DirInfo] {
        &self.dirs[self.dirs_at(skill_dir)]
    }

    /// Where [`WalkedRoot::dirs_under`] `skill_dir` is in `dirs`.
    fn dirs_at(&self, skill_dir: &Path) -> std::ops::Range<usize> {
        // Every `rel` is spelt as the walk spells it: compared by bytes when `skill_dir` is too,
        // else by components.
        let spelt = walk_spelt(skill_dir);
        let before = |d: &DirInfo| match spelt {
            true => walked_cmp(&d.rel, skill_dir).is_lt(),
            false => d.rel.as_path() < skill_dir,
        };
        let under = |d: &&DirInfo| match spelt {
            true => walked_starts_with(&d.rel, skill_dir),
            false => d.rel.starts_with(skill_dir),
        };
        let start = self.dirs.partition_point(before);
        start..start + self.dirs[start..].iter().take_while(under).count()
    }
}

/// Whether `p` is spelt as the walk spells the relative paths it makes: names joined by single
/// `/`s, none `.` or `..`, no `/` at either end (the root's own is empty). Only on Unix: other
/// systems have more separators and prefixes.
fn walk_spelt(p: &Path) -> bool {
    let b = p.as_os_str().as_encoded_bytes();
    cfg!(unix)
        && (b.is_empty()
            || b.split(|&x| x == b'/')
                .all(|c| !c.is_empty() && c != b"." && c != b".."))
}

/// `a.cmp(b)` (component by component) for two paths [`walk_spelt`] spells, from their bytes:
/// their components are compared as bytes, and a `/` ends a component, so it ranks below every
/// byte a name holds (a name holds no NUL).
fn walked_cmp(a: &Path, b: &Path) -> std::cmp::Ordering {
    if !cfg!(unix) {
        return a.cmp(b);
    }
    let (a, b) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    let rank = |x: u8| if x == b'/' { 0 } else { x };
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => rank(a[i]).cmp(&rank(b[i])),
        None => a.len().cmp(&b.len()),
    }
}

/// `a.starts_with(b)` (whole components) for two paths [`walk_spelt`] spells, from their bytes.
fn walked_starts_with(a: &Path, b: &Path) -> bool {
    if !cfg!(unix) {
        return a.starts_with(b);
    }
    let (a, b) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    b.is_empty() || (a.starts_with(b) && (a.len() == b.len() || a[b.len()] == b'/'))
}

/// Where folder `dir` lies below `skill_dir`: the first folder of the path between them ("" for
/// `skill_dir` itself) and the characters that path takes, both as `to_string_lossy` writes
/// them; None when `dir` is not below `skill_dir`. From the paths' bytes when the walk spelt
/// `skill_dir` (then `dir`, spelt by the walk too, holds it followed by a `/` or nothing), else
/// by their components.
pub fn below<'a>(dir: &'a Path, skill_dir: &Path) -> Option<(std::borrow::Cow<'a, str>, usize)> {
    if walk_spelt(skill_dir) {
        if !walked_starts_with(dir, skill_dir) {
            return None;
        }
        let (rel, skill) = (
            dir.as_os_str().as_encoded_bytes(),
            skill_dir.as_os_str().as_encoded_bytes(),
        );
        let sub = match rel.len() - skill.len() {
            0 => &[][..],
            _ if skill.is_empty() => rel,
            _ => &rel[skill.len() + 1..],
        };
        let top = sub.split(|&b| b == b'/').next().unwrap_or(&[]);
        let chars = String::from_utf8_lossy(sub).chars().count();
        return Some((String::from_utf8_lossy(top), chars));
    }
    let sub = dir.strip_prefix(skill_dir).ok()?;
    let top = sub
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    Some((top.into(), sub.to_string_lossy().chars().count()))
}

/// For the tests: [`walk_spelt`], [`walked_cmp`] and [`walked_starts_with`] of `a` and `b`.
#[doc(hidden)]
pub fn walked_order(a: &Path, b: &Path) -> (bool, std::cmp::Ordering, bool) {
    (
        walk_spelt(a) && walk_spelt(b),
        walked_cmp(a, b),
        walked_starts_with(a, b),
    )
}
