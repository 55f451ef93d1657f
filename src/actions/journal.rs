//! Applying a plan and undoing it, with a journal in skilltui's data folder.
//!
//! The journal (`<data>/journal.jsonl`) has one JSON object per line: `{"begin": entry}` written
//! (and fsynced) before any operation, `{"done": id}` after the last, `{"undone": id}` after an
//! undo. An entry records, per operation, what undo needs: the bytes before and after a write
//! (hex), the two ends of a rename, the trash location. Undo reverts the newest entry not undone,
//! also a half-applied one (operations that did not happen are skipped), and refuses when a file
//! changed since the action.
//!
//! Writes are atomic: a temp file in the same folder, fsync, rename, fsync of the folder.
//! Deleting moves to `<data>/trash/<timestamp>-<name>/`; nothing is ever unlinked, except what
//! the action itself created (an empty folder, a symlink) when it is undone.

use super::{Op, Plan, Refusal, RefusalKind, check_ops};
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Overrides the data folder (tests use it).
pub const DATA_DIR_VAR: &str = "SKILLTUI_DATA_DIR";

/// skilltui's data folder: `$SKILLTUI_DATA_DIR`, else the platform's data folder.
pub fn data_dir() -> Result<PathBuf, Refusal> {
    if let Some(d) = std::env::var_os(DATA_DIR_VAR).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d));
    }
    directories::ProjectDirs::from("", "", "skilltui")
        .map(|p| p.data_dir().to_path_buf())
        .ok_or_else(|| {
            Refusal::new(
                RefusalKind::Io,
                format!("no data folder for skilltui (no home folder?); set {DATA_DIR_VAR}"),
            )
        })
}

/// One journaled operation with what undo needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Done {
    Write {
        path: PathBuf,
        /// Hex of the bytes before (None: the file did not exist).
        before: Option<String>,
        after: String,
    },
    CreateDir {
        path: PathBuf,
    },
    Rename {
        from: PathBuf,
        to: PathBuf,
    },
    Copy {
        from: PathBuf,
        to: PathBuf,
    },
    Symlink {
        target: PathBuf,
        link: PathBuf,
    },
    Trash {
        path: PathBuf,
        trash: PathBuf,
    },
}

/// One action as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalEntry {
    pub id: String,
    /// Seconds since the epoch.
    pub time: u64,
    pub title: String,
    pub ops: Vec<Done>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Line {
    Begin(JournalEntry),
    Done(String),
    Undone(String),
}

pub fn hex(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        s.push_str(&format!("{x:02x}"));
    }
    s
}

pub fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

fn io_refusal(what: &Path, e: io::Error) -> Refusal {
    Refusal::new(RefusalKind::Io, format!("{}: {e}", what.display()))
}

fn append(data: &Path, line: &Line) -> Result<(), Refusal> {
    fs::create_dir_all(data).map_err(|e| io_refusal(data, e))?;
    let path = data.join("journal.jsonl");
    let mut f = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| io_refusal(&path, e))?;
    let mut s =
        serde_json::to_string(line).map_err(|e| Refusal::new(RefusalKind::Io, e.to_string()))?;
    s.push('\n');
    f.write_all(s.as_bytes())
        .and_then(|_| f.sync_all())
        .map_err(|e| io_refusal(&path, e))
}

/// Every entry with its state: (entry, done, undone).
pub fn entries(data: &Path) -> Result<Vec<(JournalEntry, bool, bool)>, Refusal> {
    let path = data.join("journal.jsonl");
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_refusal(&path, e)),
    };
    let mut out: Vec<(JournalEntry, bool, bool)> = Vec::new();
    for l in text.lines().filter(|l| !l.trim().is_empty()) {
        // A torn last line (a crash while appending) is skipped.
        let Ok(line) = serde_json::from_str::<Line>(l) else {
            continue;
        };
        match line {
            Line::Begin(e) => out.push((e, false, false)),
            Line::Done(id) => {
                if let Some(x) = out.iter_mut().find(|x| x.0.id == id) {
                    x.1 = true;
                }
            }
            Line::Undone(id) => {
                if let Some(x) = out.iter_mut().find(|x| x.0.id == id) {
                    x.2 = true;
                }
            }
        }
    }
    Ok(out)
}

fn now() -> (u64, u128) {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    (d.as_secs(), d.as_nanos())
}

/// Writes `bytes` to `path` atomically: a temp file in the same folder, fsync, rename, fsync
/// of the folder. Keeps the permissions of the file it replaces.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (_, nanos) = now();
    let tmp = dir.join(format!(
        ".{name}.skilltui-{}-{nanos}.tmp",
        std::process::id()
    ));
    let result = (|| {
        let mut f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        if let Ok(m) = fs::metadata(path) {
            f.set_permissions(m.permissions())?;
        }
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)?;
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn sync_dir(p: &Path) {
    if let Some(d) = p.parent()
        && let Ok(f) = fs::File::open(d)
    {
        let _ = f.sync_all();
    }
}

fn exists(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok()
}

/// Copies a tree into a temporary sibling of `to`, then renames it into place: a crash leaves
/// a whole copy or none (and at worst a `.skilltui-…tmp` folder beside it), never a half-copied
/// skill.
pub fn copy_tree_atomic(from: &Path, to: &Path) -> io::Result<()> {
    if exists(to) {
        return Err(io::Error::new(io::ErrorKind::AlreadyExists, "exists"));
    }
    let name = to
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let tmp = to.with_file_name(format!(
        ".{name}.skilltui-{}-{stamp}.tmp",
        std::process::id()
    ));
    let result = copy_tree(from, &tmp).and_then(|()| {
        if let Ok(f) = fs::File::open(&tmp) {
            let _ = f.sync_all();
        }
        fs::rename(&tmp, to)
    });
    if result.is_err() {
        let _ = if fs::symlink_metadata(&tmp).is_ok_and(|m| m.is_dir()) {
            fs::remove_dir_all(&tmp)
        } else {
            fs::remove_file(&tmp)
        };
    }
    result
}

/// Copies a tree; symlinks are copied as symlinks. `to` must not exist.
pub fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    let meta = fs::symlink_metadata(from)?;
    if meta.file_type().is_symlink() {
        let target = fs::read_link(from)?;
        return symlink(&target, to);
    }
    if meta.is_dir() {
        fs::create_dir(to)?;
        let mut names: Vec<_> = fs::read_dir(from)?.collect::<Result<_, _>>()?;
        names.sort_by_key(|e| e.file_name());
        for e in names {
            copy_tree(&e.path(), &to.join(e.file_name()))?;
        }
        return Ok(());
    }
    if exists(to) {
        return Err(io::Error::new(io::ErrorKind::AlreadyExists, "exists"));
    }
    fs::copy(from, to)?;
    fs::File::open(to)?.sync_all()
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(windows)]
fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    let dir = link
        .parent()
        .map(|p| p.join(target))
        .is_some_and(|t| t.is_dir());
    if dir {
        std::os::windows::fs::symlink_dir(target, link)
    } else {
        std::os::windows::fs::symlink_file(target, link)
    }
}

/// `target` relative to the folder holding `link`, when both are absolute.
pub fn relative_target(target: &Path, link: &Path) -> PathBuf {
    let Some(base) = link.parent() else {
        return target.to_path_buf();
    };
    let t: Vec<_> = target.components().collect();
    let b: Vec<_> = base.components().collect();
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return target.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c.as_os_str());
    }
    out
}

/// Moves a file or folder (rename; across file systems, copy then remove the source).
fn move_path(from: &Path, to: &Path) -> io::Result<()> {
    if exists(to) {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} already exists", to.display()),
        ));
    }
    match fs::rename(from, to) {
        Ok(()) => {
            sync_dir(to);
            sync_dir(from);
            Ok(())
        }
        Err(e) if e.raw_os_error() == Some(18) => {
            // EXDEV: another file system (the data folder may be elsewhere).
            copy_tree_atomic(from, to)?;
            if fs::symlink_metadata(from)?.is_dir() {
                fs::remove_dir_all(from)
            } else {
                fs::remove_file(from)
            }
        }
        Err(e) => Err(e),
    }
}

/// Plans the journal record of each operation (trash locations are chosen here).
fn record(plan: &Plan, data: &Path, id: &str) -> Vec<Done> {
    plan.ops
        .iter()
        .enumerate()
        .map(|(i, op)| match op {
            Op::Write { path, old, new } => Done::Write {
                path: path.clone(),
                before: old.as_deref().map(hex),
                after: hex(new),
            },
            Op::CreateDir { path } => Done::CreateDir { path: path.clone() },
            Op::Rename { from, to } => Done::Rename {
                from: from.clone(),
                to: to.clone(),
            },
            Op::Copy { from, to } => Done::Copy {
                from: from.clone(),
                to: to.clone(),
            },
            Op::Symlink { target, link } => Done::Symlink {
                target: relative_target(target, link),
                link: link.clone(),
            },
            Op::Trash { path } => {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "skill".into());
                Done::Trash {
                    path: path.clone(),
                    trash: data.join("trash").join(format!("{id}-{i}-{name}")),
                }
            }
        })
        .collect()
}

/// Checks that an operation can be done now (nothing changed since planning).
fn precheck(d: &Done) -> Result<(), Refusal> {
    match d {
        Done::Write { path, before, .. } => {
            let cur = fs::read(path).ok();
            let want = before.as_deref().and_then(unhex);
            if cur != want {
                return Err(Refusal::new(
                    RefusalKind::Changed,
                    format!(
                        "{} changed since it was read; nothing was done (rescan and try again)",
                        path.display()
                    ),
                ));
            }
        }
        Done::Rename { from, to } => {
            if !exists(from) {
                return Err(Refusal::new(
                    RefusalKind::Changed,
                    format!("{} no longer exists", from.display()),
                ));
            }
            if exists(to) {
                return Err(Refusal::new(
                    RefusalKind::Conflict,
                    format!("{} already exists", to.display()),
                ));
            }
        }
        Done::Copy { from, to } => {
            if !exists(from) {
                return Err(Refusal::new(
                    RefusalKind::Changed,
                    format!("{} no longer exists", from.display()),
                ));
            }
            if exists(to) {
                return Err(Refusal::new(
                    RefusalKind::Conflict,
                    format!("{} already exists", to.display()),
                ));
            }
        }
        Done::Symlink { link, .. } => {
            if exists(link) {
                return Err(Refusal::new(
                    RefusalKind::Conflict,
                    format!("{} already exists", link.display()),
                ));
            }
        }
        Done::Trash { path, .. } => {
            if !exists(path) {
                return Err(Refusal::new(
                    RefusalKind::Changed,
                    format!("{} no longer exists", path.display()),
                ));
            }
        }
        Done::CreateDir { .. } => {}
    }
    Ok(())
}

fn perform(d: &Done) -> io::Result<()> {
    match d {
        Done::Write { path, after, .. } => atomic_write(path, &unhex(after).unwrap_or_default()),
        Done::CreateDir { path } => {
            if path.is_dir() {
                Ok(())
            } else {
                fs::create_dir_all(path)
            }
        }
        Done::Rename { from, to } => {
            if let Some(p) = to.parent() {
                fs::create_dir_all(p)?;
            }
            move_path(from, to)
        }
        Done::Copy { from, to } => {
            copy_tree_atomic(from, to)?;
            sync_dir(to);
            Ok(())
        }
        Done::Symlink { target, link } => {
            symlink(target, link)?;
            sync_dir(link);
            Ok(())
        }
        Done::Trash { path, trash } => {
            if let Some(p) = trash.parent() {
                fs::create_dir_all(p)?;
            }
            move_path(path, trash)
        }
    }
}

/// Applies a plan: checks it again (roots, symlinks, files unchanged), journals it, performs
/// each operation, marks it done. On a failure midway the operations done are reverted.
pub fn apply(plan: &Plan) -> Result<JournalEntry, Refusal> {
    let data = data_dir()?;
    apply_in(plan, &data)
}

/// [`apply`] with an explicit data folder.
pub fn apply_in(plan: &Plan, data: &Path) -> Result<JournalEntry, Refusal> {
    if plan.ops.is_empty() {
        return Err(Refusal::new(RefusalKind::Unchanged, "nothing to do"));
    }
    check_ops(&plan.ops, &plan.roots)?;
    for (p, bytes) in &plan.reads {
        if fs::read(p).ok().as_ref() != Some(bytes) {
            return Err(Refusal::new(
                RefusalKind::Changed,
                format!(
                    "{} changed since it was read; nothing was done (rescan and try again)",
                    p.display()
                ),
            ));
        }
    }
    let (secs, nanos) = now();
    let id = format!("{secs}-{}-{}", std::process::id(), nanos % 1_000_000_000);
    let entry = JournalEntry {
        id: id.clone(),
        time: secs,
        title: plan.title.clone(),
        ops: record(plan, data, &id),
    };
    if let Some(first) = entry.ops.first() {
        precheck(first)?;
    }
    append(data, &Line::Begin(entry.clone()))?;
    for (i, d) in entry.ops.iter().enumerate() {
        let step = precheck(d).and_then(|_| {
            perform(d).map_err(|e| {
                Refusal::new(RefusalKind::Io, format!("{}: {e}", op_path(d).display()))
            })
        });
        if let Err(e) = step {
            // Revert what was done, then record the entry as undone.
            let partial = JournalEntry {
                ops: entry.ops[..i].to_vec(),
                ..entry.clone()
            };
            let reverted = revert_in(&partial, Some(data));
            let _ = append(data, &Line::Undone(id.clone()));
            return Err(match reverted {
                Ok(()) => Refusal::new(e.1, format!("{e}; nothing was changed")),
                Err(r) => Refusal::new(e.1, format!("{e}; reverting failed too: {r}")),
            });
        }
    }
    append(data, &Line::Done(id))?;
    Ok(entry)
}

fn op_path(d: &Done) -> &Path {
    match d {
        Done::Write { path, .. }
        | Done::CreateDir { path }
        | Done::Trash { path, .. }
        | Done::Rename { from: path, .. } => path,
        Done::Copy { to, .. } => to,
        Done::Symlink { link, .. } => link,
    }
}

/// What undoing one operation would do now.
enum Step {
    Skip,
    Do,
}

fn undo_check(d: &Done) -> Result<Step, Refusal> {
    let changed = |p: &Path| {
        Refusal::new(
            RefusalKind::Changed,
            format!(
                "{} changed since the action; undo would overwrite that change, so nothing was undone",
                p.display()
            ),
        )
    };
    Ok(match d {
        Done::Write {
            path,
            before,
            after,
        } => {
            let cur = fs::read(path).ok();
            let before = before.as_deref().and_then(unhex);
            if cur.as_deref() == unhex(after).as_deref() {
                Step::Do
            } else if cur == before {
                Step::Skip
            } else {
                return Err(changed(path));
            }
        }
        Done::CreateDir { path } => {
            if path.is_dir() {
                Step::Do
            } else {
                Step::Skip
            }
        }
        Done::Rename { from, to } => match (exists(from), exists(to)) {
            (false, true) => Step::Do,
            (true, false) => Step::Skip,
            _ => return Err(changed(to)),
        },
        Done::Copy { to, .. } => {
            if exists(to) {
                Step::Do
            } else {
                Step::Skip
            }
        }
        Done::Symlink { target, link } => match fs::read_link(link) {
            Ok(t) if &t == target => Step::Do,
            Ok(_) => return Err(changed(link)),
            Err(_) if !exists(link) => Step::Skip,
            Err(_) => return Err(changed(link)),
        },
        Done::Trash { path, trash } => match (exists(path), exists(trash)) {
            (false, true) => Step::Do,
            (true, false) => Step::Skip,
            _ => return Err(changed(path)),
        },
    })
}

fn undo_one(d: &Done, data: Option<&Path>) -> io::Result<()> {
    match d {
        Done::Write { path, before, .. } => match before.as_deref().and_then(unhex) {
            Some(b) => atomic_write(path, &b),
            None => match data {
                Some(data) => {
                    let (_, n) = now();
                    let t = data.join("trash").join(format!("undo-{n}"));
                    fs::create_dir_all(data.join("trash"))?;
                    move_path(path, &t)
                }
                None => Ok(()),
            },
        },
        Done::CreateDir { path } => {
            // Only an empty folder the action created; anything put in it since stays.
            if fs::read_dir(path)?.next().is_none() {
                fs::remove_dir(path)?;
            }
            Ok(())
        }
        Done::Rename { from, to } => move_path(to, from),
        Done::Copy { to, .. } => {
            let data = data
                .map(Path::to_path_buf)
                .unwrap_or_else(std::env::temp_dir);
            let (_, n) = now();
            let name = to
                .file_name()
                .map(|x| x.to_string_lossy().into_owned())
                .unwrap_or_default();
            let t = data.join("trash").join(format!("undo-{n}-{name}"));
            fs::create_dir_all(data.join("trash"))?;
            move_path(to, &t)
        }
        Done::Symlink { link, .. } => fs::remove_file(link),
        Done::Trash { path, trash } => move_path(trash, path),
    }
}

/// Where a path an operation names is now, after the later operations moved it.
fn forward(p: &Path, later: &[Done]) -> PathBuf {
    let mut cur = p.to_path_buf();
    for d in later {
        let (from, to) = match d {
            Done::Rename { from, to } => (from, to),
            Done::Trash { path, trash } => (path, trash),
            _ => continue,
        };
        if let Ok(rest) = cur.strip_prefix(from) {
            cur = if rest.as_os_str().is_empty() {
                to.clone()
            } else {
                to.join(rest)
            };
        }
    }
    cur
}

/// An operation with its paths moved to where they are now.
fn at_now(d: &Done, later: &[Done]) -> Done {
    let f = |p: &PathBuf| forward(p, later);
    match d {
        Done::Write {
            path,
            before,
            after,
        } => Done::Write {
            path: f(path),
            before: before.clone(),
            after: after.clone(),
        },
        Done::CreateDir { path } => Done::CreateDir { path: f(path) },
        Done::Rename { from, to } => Done::Rename {
            from: from.clone(),
            to: f(to),
        },
        Done::Copy { from, to } => Done::Copy {
            from: from.clone(),
            to: f(to),
        },
        Done::Symlink { target, link } => Done::Symlink {
            target: target.clone(),
            link: f(link),
        },
        Done::Trash { path, trash } => Done::Trash {
            path: path.clone(),
            trash: trash.clone(),
        },
    }
}

fn revert_in(entry: &JournalEntry, data: Option<&Path>) -> Result<(), Refusal> {
    // Check every step first (with the paths where later steps put them), then undo in reverse.
    let mut steps = Vec::new();
    let mut applied_later: Vec<Done> = Vec::new();
    for d in entry.ops.iter().rev() {
        // Later operations that are in effect, in their order.
        let later: Vec<Done> = applied_later.iter().rev().cloned().collect();
        let step = undo_check(&at_now(d, &later))?;
        if let Step::Do = step {
            applied_later.push(d.clone());
        }
        steps.push((d, step));
    }
    for (d, s) in steps {
        if let Step::Do = s {
            undo_one(d, data).map_err(|e| {
                Refusal::new(RefusalKind::Io, format!("{}: {e}", op_path(d).display()))
            })?;
        }
    }
    Ok(())
}

/// Undoes a journaled entry (also a half-applied one) and records it as undone.
pub fn undo(entry: &JournalEntry) -> Result<(), Refusal> {
    let data = data_dir()?;
    undo_in(entry, &data)
}

pub fn undo_in(entry: &JournalEntry, data: &Path) -> Result<(), Refusal> {
    revert_in(entry, Some(data))?;
    append(data, &Line::Undone(entry.id.clone()))
}

/// Undoes the newest entry that is not undone yet; Ok(None) when there is none.
pub fn undo_last() -> Result<Option<JournalEntry>, Refusal> {
    let data = data_dir()?;
    undo_last_in(&data)
}

pub fn undo_last_in(data: &Path) -> Result<Option<JournalEntry>, Refusal> {
    let all = entries(data)?;
    let Some((e, _, _)) = all.into_iter().rev().find(|(_, _, undone)| !undone) else {
        return Ok(None);
    };
    undo_in(&e, data)?;
    Ok(Some(e))
}

/// Undoes the entry with this id (the explorer's `u` undoes its own session's actions).
pub fn undo_id(id: &str) -> Result<JournalEntry, Refusal> {
    undo_id_in(id, &data_dir()?)
}

/// [`undo_id`] with an explicit data folder.
pub fn undo_id_in(id: &str, data: &Path) -> Result<JournalEntry, Refusal> {
    let all = entries(data)?;
    match all.into_iter().find(|(e, _, _)| e.id == id) {
        Some((_, _, true)) => Err(Refusal::new(
            RefusalKind::Unchanged,
            "that action was already undone",
        )),
        Some((e, _, false)) => {
            undo_in(&e, data)?;
            Ok(e)
        }
        None => Err(Refusal::new(
            RefusalKind::NotFound,
            format!("no journal entry {id}"),
        )),
    }
}
