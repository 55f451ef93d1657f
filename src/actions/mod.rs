//! Actions that make a skill visible: rename, move/copy/link to another root, make one copy win
//! a collision, quick fixes, delete to trash — and undo.
//!
//! The engine has four steps, shared by the CLI (`rename`, `mv`, `fix`, `rm`, `undo`) and the
//! explorer:
//!
//! 1. [`plan`]: from the catalog and a [`Request`], a [`Plan`] — file operations (write new bytes
//!    over expected old bytes, create a folder, rename, copy, symlink, move to trash) and a
//!    unified diff. Reads files, writes nothing. Refuses ([`Refusal`]) a name that breaks the spec,
//!    a path outside the roots being inspected (or one reached through a symlink leading out of
//!    them), a clash at the destination, a file changed since the scan.
//! 2. [`preview::preview`]: the per-agent verdicts before and after, computed on a mirror of the
//!    catalog in a temporary folder (the user's tree is not touched).
//! 3. [`journal::apply`]: journal the entry (fsync), apply each operation atomically (temp file in
//!    the same folder, fsync, rename), re-checking that nothing changed; mark the entry done.
//! 4. [`journal::undo`]: revert an entry (also a half-applied one) back to identical bytes.
//!
//! Edits are byte-span edits of the original text ([`text`]); YAML is never re-serialized.
//! Skill scripts are never run.

pub mod diff;
pub mod fixes;
pub mod journal;
pub mod overlay;
pub mod planner;
pub mod preview;
pub mod text;

use crate::agents::{AgentModel, Scope};
use crate::catalog::{Catalog, Skill};
use crate::env::Env;
use crate::resolve::Status;
use crate::spec;
use std::fmt;
use std::path::{Path, PathBuf};

pub use fixes::{Fix, FixCode, fixes};
pub use journal::{DATA_DIR_VAR, JournalEntry, apply, data_dir, undo, undo_last};
pub use preview::{Change, Preview, preview};

/// What kind of refusal: what a front end may act on without reading the sentence (the
/// explorer drops a [`RefusalKind::Cancelled`] job quietly; `context::refusal_exit` maps each
/// kind to the exit status). The names are stable (kebab-case).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumIter, strum::IntoStaticStr, strum::Display,
)]
#[strum(serialize_all = "kebab-case")]
pub enum RefusalKind {
    /// The person cancelled the search (the explorer's Esc); not an answer.
    Cancelled,
    /// The skill, root, agent, fix or journal entry named is not there.
    NotFound,
    /// A name several skills hold; the sentence lists them.
    Ambiguous,
    /// A path outside the roots being inspected (or reached through a symlink leading out of
    /// them, or in a system root): skilltui writes only inside the user's roots.
    OutsideRoots,
    /// The destination is taken (a file, a folder, a skill of the same name).
    Conflict,
    /// A file changed (or went away) since it was scanned or since the action.
    Changed,
    /// Nothing to do: the skill is already so, or the action was already undone.
    Unchanged,
    /// The skill or the name cannot take this action (a name the spec refuses, no frontmatter,
    /// not UTF-8, too large, no folder of its own).
    Invalid,
    /// No rename, move, link or delete reaches the goal.
    NoPlan,
    /// Reading or writing failed (the sentence holds the error).
    Io,
}

/// Why an action is not done: the sentence for people (`.0`, shown as it is) and its kind
/// (`.1`, for the code that acts on it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal(pub String, pub RefusalKind);

impl Refusal {
    pub fn new(kind: RefusalKind, msg: impl Into<String>) -> Refusal {
        Refusal(msg.into(), kind)
    }

    pub fn kind(&self) -> RefusalKind {
        self.1
    }

    /// The sentence for people.
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refusal {}

fn refuse<T>(kind: RefusalKind, msg: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::new(kind, msg))
}

/// The copies that compete with `skill` for `agent`: every other copy the agent lists, shadows
/// or cannot decide on that is the verdict's winner, has the same name, or meets `also` (each
/// planner adds its own kinship).
pub(crate) fn competitors<'a>(
    cat: &'a Catalog,
    skill: &Skill,
    agent: &str,
    also: impl Fn(&Skill) -> bool,
) -> Vec<&'a Skill> {
    let winner = skill.verdict(agent).and_then(|v| v.winner.as_deref());
    cat.skills
        .iter()
        .map(|c| &**c)
        .filter(|c| c.path != skill.path)
        .filter(|c| winner == Some(c.path.as_path()) || c.label() == skill.label() || also(c))
        .filter(|c| {
            c.verdict(agent).is_some_and(|w| {
                matches!(
                    w.status,
                    Status::Visible | Status::Shadowed | Status::Unknown
                )
            })
        })
        .collect()
}

/// Whether the copy with verdict `v` already wins for `agent`: it is visible and none of its
/// competitors is.
pub(crate) fn already_wins(
    v: &crate::resolve::Verdict,
    competitors: &[&Skill],
    agent: &str,
) -> bool {
    v.status == Status::Visible
        && competitors.iter().all(|c| {
            c.verdict(agent)
                .is_some_and(|w| w.status != Status::Visible)
        })
}

/// Move, copy or symlink; the verb is the lowercase name.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::Display, strum::EnumIter,
)]
#[strum(serialize_all = "lowercase")]
pub enum Mode {
    Move,
    Copy,
    Link,
}

impl Mode {
    pub fn verb(self) -> &'static str {
        self.into()
    }
}

/// What the user asks for. `skill` is the SKILL.md path as in the catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Set the frontmatter name; with `folder`, rename the folder to match.
    Rename {
        skill: PathBuf,
        name: String,
        folder: bool,
    },
    /// Move, copy or symlink the skill folder into another root.
    Move {
        skill: PathBuf,
        root: PathBuf,
        mode: Mode,
    },
    /// Quick fixes: the codes to apply (empty: every fix that applies).
    Fix { skill: PathBuf, only: Vec<String> },
    /// Make this copy the one `agent` lists under its name.
    Win { skill: PathBuf, agent: String },
    /// Move the skill folder to the trash.
    Delete { skill: PathBuf },
}

impl Request {
    pub fn skill(&self) -> &Path {
        match self {
            Request::Rename { skill, .. }
            | Request::Move { skill, .. }
            | Request::Fix { skill, .. }
            | Request::Win { skill, .. }
            | Request::Delete { skill } => skill,
        }
    }
}

/// One file operation. Paths are absolute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// Replace (or create, when `old` is None) a file's bytes; refused at apply time when the
    /// file no longer holds `old`.
    Write {
        path: PathBuf,
        old: Option<Vec<u8>>,
        new: Vec<u8>,
    },
    CreateDir {
        path: PathBuf,
    },
    /// Rename a file or folder; `to` must not exist.
    Rename {
        from: PathBuf,
        to: PathBuf,
    },
    /// Copy a folder (or file) tree; `to` must not exist. Symlinks are copied as symlinks.
    Copy {
        from: PathBuf,
        to: PathBuf,
    },
    /// Create `link` pointing to `target` (relative when possible).
    Symlink {
        target: PathBuf,
        link: PathBuf,
    },
    /// Move a file or folder into skilltui's trash.
    Trash {
        path: PathBuf,
    },
}

impl Op {
    /// The paths the operation writes (creates, changes or removes).
    pub fn written(&self) -> Vec<&Path> {
        match self {
            Op::Write { path, .. } | Op::CreateDir { path } | Op::Trash { path } => vec![path],
            Op::Rename { from, to } => vec![from, to],
            Op::Copy { to, .. } => vec![to],
            Op::Symlink { link, .. } => vec![link],
        }
    }
}

/// A planned action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// One line: what is done, e.g. "rename `foo` to `bar`".
    pub title: String,
    /// The codes of the quick fixes included (empty for other actions).
    pub fixes: Vec<String>,
    pub ops: Vec<Op>,
    /// Unified diff of SKILL.md changes, and one line per move, copy, link or trash.
    pub diff: String,
    /// Explanations (length counts in each agent's unit, what was chosen and why).
    pub notes: Vec<String>,
    /// The SKILL.md acted on, and where it is afterwards (None when trashed).
    pub skill: PathBuf,
    pub after: Option<PathBuf>,
    /// Files read while planning, with the bytes read: apply refuses when any changed.
    pub reads: Vec<(PathBuf, Vec<u8>)>,
    /// The folders the plan may write into.
    pub roots: Vec<PathBuf>,
    pub project: PathBuf,
    pub home: PathBuf,
}

impl Plan {
    /// Where a path (a SKILL.md before the plan) is after it: moved with a renamed folder,
    /// or None when trashed.
    pub fn map_path(&self, p: &Path) -> Option<PathBuf> {
        let mut cur = p.to_path_buf();
        for op in &self.ops {
            match op {
                Op::Rename { from, to } => {
                    if let Ok(rest) = cur.strip_prefix(from) {
                        cur = if rest.as_os_str().is_empty() {
                            to.clone()
                        } else {
                            to.join(rest)
                        };
                    }
                }
                Op::Trash { path } if cur.starts_with(path) => return None,
                _ => {}
            }
        }
        Some(cur)
    }

    /// Whether the plan changes nothing.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

// ---------------------------------------------------------------------------------------------
// Finding the skill and the roots.

/// The catalog's skill for a command-line argument: a skill folder or its SKILL.md (or a loose
/// `foo.md` an agent loads).
pub fn find_skill<'a>(cat: &'a Catalog, arg: &Path) -> Result<&'a Skill, Refusal> {
    find_skill_at(cat, arg).or_else(|e| {
        // A relative path not found from the current folder: from the project folder.
        if arg.is_relative() {
            find_skill_at(cat, &cat.project.join(arg)).map_err(|_| e)
        } else {
            Err(e)
        }
    })
}

fn find_skill_at<'a>(cat: &'a Catalog, arg: &Path) -> Result<&'a Skill, Refusal> {
    let abs = crate::env::normalize(&std::path::absolute(arg).unwrap_or_else(|_| arg.into()));
    let canon = std::fs::canonicalize(&abs).ok();
    let hit = |s: &&Skill| {
        let parent = s.path.parent();
        let is_md_in_folder = s
            .path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case("SKILL.md"));
        s.path == abs
            || (is_md_in_folder && parent == Some(abs.as_path()))
            || canon.as_ref().is_some_and(|c| {
                std::fs::canonicalize(&s.path).ok().as_ref() == Some(c)
                    || (is_md_in_folder
                        && parent.and_then(|p| std::fs::canonicalize(p).ok()).as_ref() == Some(c))
            })
    };
    match cat.skills.iter().map(|s| &**s).find(|s| hit(s)) {
        Some(s) => Ok(s),
        None => refuse(
            RefusalKind::NotFound,
            format!(
                "{} is not a skill any agent's root holds (give a skill folder or its SKILL.md; `skilltui list` shows them)",
                arg.display()
            ),
        ),
    }
}

/// A root of the catalog for a command-line argument (relative to the current folder, else to
/// the project folder); Err lists the roots.
pub fn find_root(cat: &Catalog, arg: &Path) -> Result<PathBuf, Refusal> {
    let abs =
        |p: &Path| crate::env::normalize(&std::path::absolute(p).unwrap_or_else(|_| p.into()));
    let mut tries = vec![abs(arg)];
    if arg.is_relative() {
        tries.push(abs(&cat.project.join(arg)));
    }
    for t in &tries {
        if cat.roots.iter().any(|r| &r.path == t) {
            return Ok(t.clone());
        }
    }
    let env = Env::new(&cat.project, &cat.home);
    let list: Vec<String> = cat
        .roots
        .iter()
        .filter(|r| r.scope != Scope::System)
        .map(|r| crate::present::show_path(&env, &r.path))
        .collect();
    refuse(
        RefusalKind::NotFound,
        format!(
            "{} is not a root any agent scans; the roots are: {}",
            arg.display(),
            list.join(", ")
        ),
    )
}

/// The folders actions may write into: the catalog's project, user and other roots, and the
/// root of every skill (system roots are left to the agents that own them).
pub fn writable_roots(cat: &Catalog) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = cat
        .roots
        .iter()
        .filter(|r| r.scope != Scope::System)
        .map(|r| r.path.clone())
        .chain(
            cat.skills
                .iter()
                .filter(|s| s.scope != Scope::System)
                .filter_map(|s| s.root.clone()),
        )
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The nearest existing ancestor, canonicalized, joined with the rest. With `follow_last`
/// false, the last component is not resolved (a symlink is the link itself).
pub fn canonical_nearest(p: &Path, follow_last: bool) -> PathBuf {
    if !follow_last && let (Some(parent), Some(name)) = (p.parent(), p.file_name()) {
        return canonical_nearest(parent, true).join(name);
    }
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    let mut cur = p;
    loop {
        if let Ok(c) = std::fs::canonicalize(cur) {
            let mut out = c;
            for r in rest.iter().rev() {
                out.push(r);
            }
            return out;
        }
        match (cur.parent(), cur.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                cur = parent;
            }
            _ => return p.to_path_buf(),
        }
    }
}

/// Refuses a path outside the roots, lexically or through a symlink that leads out of them.
pub fn check_inside(p: &Path, roots: &[PathBuf], follow_last: bool) -> Result<(), Refusal> {
    let norm = crate::env::normalize(p);
    if norm != p {
        return refuse(
            RefusalKind::OutsideRoots,
            format!("{}: not a normalized path", p.display()),
        );
    }
    let lexical: Vec<&PathBuf> = roots.iter().filter(|r| p.starts_with(r)).collect();
    if lexical.is_empty() {
        return refuse(
            RefusalKind::OutsideRoots,
            format!(
                "{} is outside every skill root being inspected; skilltui writes only inside them",
                p.display()
            ),
        );
    }
    let real = canonical_nearest(p, follow_last);
    let inside = roots
        .iter()
        .any(|r| real.starts_with(canonical_nearest(r, true)));
    if !inside {
        return refuse(
            RefusalKind::OutsideRoots,
            format!(
                "{} leads through a symlink to {}, outside the skill roots; skilltui does not write there",
                p.display(),
                real.display()
            ),
        );
    }
    Ok(())
}

/// Checks every path an operation writes.
pub fn check_ops(ops: &[Op], roots: &[PathBuf]) -> Result<(), Refusal> {
    for op in ops {
        match op {
            Op::Write { path, .. } => check_inside(path, roots, true)?,
            Op::Rename { from, to } => {
                check_inside(from, roots, false)?;
                check_inside(to, roots, false)?;
            }
            Op::Trash { path } => check_inside(path, roots, false)?,
            // A missing folder above a root (`.claude` for `.claude/skills`) may be created.
            Op::CreateDir { path } if roots.iter().any(|r| r.starts_with(path)) => {}
            Op::CreateDir { path } | Op::Copy { to: path, .. } | Op::Symlink { link: path, .. } => {
                check_inside(path, roots, false)?
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Planning.

/// The state of a plan being built: the SKILL.md's text as edited so far, and path operations.
pub struct Builder<'a> {
    cat: &'a Catalog,
    models: &'a [AgentModel],
    skill: &'a Skill,
    /// The file to write (the SKILL.md, through a symlinked file to its target).
    file: PathBuf,
    orig: Vec<u8>,
    /// Current bytes (edited).
    bytes: Vec<u8>,
    /// The SKILL.md's path as path operations move it.
    cur: PathBuf,
    path_ops: Vec<Op>,
    moves: Vec<String>,
    notes: Vec<String>,
    fixes: Vec<String>,
    roots: Vec<PathBuf>,
}

impl<'a> Builder<'a> {
    fn new(cat: &'a Catalog, models: &'a [AgentModel], skill: &'a Skill) -> Result<Self, Refusal> {
        let roots = writable_roots(cat);
        if skill.scope == Scope::System {
            return refuse(
                RefusalKind::OutsideRoots,
                format!(
                    "{} is in a system root; skilltui leaves system roots to the agents that own them",
                    skill.path.display()
                ),
            );
        }
        let file = std::fs::canonicalize(&skill.path).map_err(|e| {
            Refusal::new(
                RefusalKind::Changed,
                format!(
                    "{}: {e} (it changed since the scan; rescan)",
                    skill.path.display()
                ),
            )
        })?;
        let meta =
            std::fs::metadata(&file).map_err(|e| Refusal::new(RefusalKind::Io, e.to_string()))?;
        if meta.len() > crate::skill::MAX_FILE_BYTES {
            return refuse(
                RefusalKind::Invalid,
                format!(
                    "{} is over {} bytes; skilltui does not edit it",
                    skill.path.display(),
                    crate::skill::MAX_FILE_BYTES
                ),
            );
        }
        let orig = std::fs::read(&file)
            .map_err(|e| Refusal::new(RefusalKind::Io, format!("{}: {e}", file.display())))?;
        if !orig.starts_with(skill.head.as_bytes()) {
            return refuse(
                RefusalKind::Changed,
                format!(
                    "{} changed since it was scanned; rescan and try again",
                    skill.path.display()
                ),
            );
        }
        Ok(Builder {
            cat,
            models,
            skill,
            file,
            bytes: orig.clone(),
            orig,
            cur: skill.path.clone(),
            path_ops: Vec::new(),
            moves: Vec::new(),
            notes: Vec::new(),
            fixes: Vec::new(),
            roots,
        })
    }

    fn text(&self) -> Result<String, Refusal> {
        String::from_utf8(self.bytes.clone()).map_err(|e| {
            Refusal::new(
                RefusalKind::Invalid,
                format!(
                    "{} is not valid UTF-8 (byte {}); skilltui edits only UTF-8 text",
                    self.skill.path.display(),
                    e.utf8_error().valid_up_to()
                ),
            )
        })
    }

    fn set_text(&mut self, t: String) {
        self.bytes = t.into_bytes();
    }

    /// The folder that holds the SKILL.md (None for a loose `foo.md` or a SKILL.md directly in
    /// a root).
    fn skill_folder(&self) -> Option<PathBuf> {
        let is_md = self
            .cur
            .file_name()
            .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case("SKILL.md"));
        let parent = self.cur.parent()?.to_path_buf();
        let in_root = self
            .skill
            .root
            .as_ref()
            .is_some_and(|r| self.map_back(&parent) == *r);
        (is_md && !in_root).then_some(parent)
    }

    /// A path as it was before the path operations so far (for comparing with the catalog).
    fn map_back(&self, p: &Path) -> PathBuf {
        let mut cur = p.to_path_buf();
        for op in self.path_ops.iter().rev() {
            if let Op::Rename { from, to } = op
                && let Ok(rest) = cur.strip_prefix(to)
            {
                cur = if rest.as_os_str().is_empty() {
                    from.clone()
                } else {
                    from.join(rest)
                };
            }
        }
        cur
    }

    fn show(&self, p: &Path) -> String {
        crate::present::show_path(&Env::new(&self.cat.project, &self.cat.home), p)
    }

    fn free(&self, p: &Path) -> Result<(), Refusal> {
        if std::fs::symlink_metadata(p).is_ok() {
            let what = self
                .cat
                .skills
                .iter()
                .find(|s| s.path.starts_with(p))
                .map(|s| format!(" (skill `{}`)", s.label()))
                .unwrap_or_default();
            return refuse(
                RefusalKind::Conflict,
                format!(
                    "{} already exists{what}; rename one of them first",
                    self.show(p)
                ),
            );
        }
        if self.path_ops.iter().any(|op| op.written().contains(&p)) {
            return refuse(
                RefusalKind::Conflict,
                format!("{} is used twice by this action", self.show(p)),
            );
        }
        Ok(())
    }

    fn rename(&mut self, from: PathBuf, to: PathBuf) -> Result<(), Refusal> {
        self.free(&to)?;
        self.moves
            .push(format!("rename {} → {}", self.show(&from), self.show(&to)));
        if let Ok(rest) = self.cur.strip_prefix(&from) {
            self.cur = if rest.as_os_str().is_empty() {
                to.clone()
            } else {
                to.join(rest)
            };
        }
        self.path_ops.push(Op::Rename { from, to });
        Ok(())
    }

    fn finish(self, title: String) -> Result<Plan, Refusal> {
        let mut ops = Vec::new();
        let mut diff = String::new();
        if self.bytes != self.orig {
            let label = self.show(&self.skill.path);
            let a = String::from_utf8_lossy(&self.orig);
            let b = String::from_utf8_lossy(&self.bytes);
            diff.push_str(&diff::unified(&label, &label, &a, &b));
            if a == b {
                diff.push_str(&format!("{label}: bytes changed (not shown)\n"));
            }
            ops.push(Op::Write {
                path: self.file.clone(),
                old: Some(self.orig.clone()),
                new: self.bytes.clone(),
            });
        }
        for m in &self.moves {
            diff.push_str(m);
            diff.push('\n');
        }
        ops.extend(self.path_ops);
        check_ops(&ops, &self.roots)?;
        let trashed = ops
            .iter()
            .any(|op| matches!(op, Op::Trash { path } if self.skill.path.starts_with(path)));
        Ok(Plan {
            title,
            fixes: self.fixes,
            ops,
            diff,
            notes: self.notes,
            skill: self.skill.path.clone(),
            after: (!trashed).then_some(self.cur),
            reads: vec![(self.file, self.orig)],
            roots: self.roots,
            project: self.cat.project.clone(),
            home: self.cat.home.clone(),
        })
    }
}

/// Refuses a name the spec rejects, saying why (every rule it breaks).
pub fn check_name(name: &str) -> Result<(), Refusal> {
    let n = spec::normalize_name(name);
    if n.is_empty() {
        return refuse(RefusalKind::Invalid, "the name is empty");
    }
    let problems = spec::name_rule_problems(&n);
    if problems.is_empty() {
        return Ok(());
    }
    let why: Vec<String> = problems
        .iter()
        .map(|(code, msg)| format!("{msg} [{code}]"))
        .collect();
    refuse(
        RefusalKind::Invalid,
        format!(
            "`{name}` breaks the Agent Skills specification: {}",
            why.join("; ")
        ),
    )
}

/// Plans an action (reads files, writes nothing).
pub fn plan(
    cat: &Catalog,
    models: &[AgentModel],
    env: &Env,
    req: &Request,
) -> Result<Plan, Refusal> {
    let skill = cat.skill(req.skill()).ok_or_else(|| {
        Refusal::new(
            RefusalKind::NotFound,
            format!("{}: not in the catalog", req.skill().display()),
        )
    })?;
    match req {
        Request::Rename { name, folder, .. } => plan_rename(cat, models, skill, name, *folder),
        Request::Move { root, mode, .. } => plan_move(cat, models, skill, root, *mode),
        Request::Fix { only, .. } => fixes::plan_fixes(cat, models, skill, only),
        Request::Delete { .. } => plan_delete(cat, models, skill),
        Request::Win { agent, .. } => planner::first_plan(models, env, &skill.path, agent),
    }
}

fn plan_rename(
    cat: &Catalog,
    models: &[AgentModel],
    skill: &Skill,
    name: &str,
    folder: bool,
) -> Result<Plan, Refusal> {
    check_name(name)?;
    let mut b = Builder::new(cat, models, skill)?;
    let text = b.text()?;
    if text::block(&text).is_none() {
        return refuse(
            RefusalKind::Invalid,
            format!(
                "{} has no frontmatter block to hold a name; run `skilltui fix` first",
                skill.path.display()
            ),
        );
    }
    let same_name = skill.name.as_deref() == Some(name);
    if !same_name {
        let t = text::set_field(&text, "name", name, &[])
            .ok_or_else(|| Refusal::new(RefusalKind::Invalid, "no frontmatter"))?;
        b.set_text(t);
    }
    if folder {
        match b.skill_folder() {
            Some(dir) => {
                if dir.file_name().is_some_and(|n| n != name) {
                    let to = dir.with_file_name(name);
                    b.rename(dir, to)?;
                }
            }
            None => {
                // A loose `foo.md`: rename the file.
                let is_loose = !b
                    .cur
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case("SKILL.md"));
                if is_loose {
                    let to = b.cur.with_file_name(format!("{name}.md"));
                    if to != b.cur {
                        b.rename(b.cur.clone(), to)?;
                    }
                } else {
                    return refuse(
                        RefusalKind::Invalid,
                        "the SKILL.md sits directly in a root: there is no folder to rename",
                    );
                }
            }
        }
    }
    if b.bytes == b.orig && b.path_ops.is_empty() {
        return refuse(
            RefusalKind::Unchanged,
            format!("the skill is already named `{name}`"),
        );
    }
    let title = format!(
        "rename `{}` to `{name}`{}",
        skill.label(),
        if folder { " (and its folder)" } else { "" }
    );
    b.finish(title)
}

fn plan_move(
    cat: &Catalog,
    models: &[AgentModel],
    skill: &Skill,
    root: &Path,
    mode: Mode,
) -> Result<Plan, Refusal> {
    let root = crate::env::normalize(&std::path::absolute(root).unwrap_or_else(|_| root.into()));
    let Some(info) = cat.roots.iter().find(|r| r.path == root) else {
        return refuse(
            RefusalKind::NotFound,
            format!(
                "{} is not a root any agent scans (`skilltui roots` lists them)",
                root.display()
            ),
        );
    };
    if info.scope == Scope::System {
        return refuse(
            RefusalKind::OutsideRoots,
            format!(
                "{} is a system root; skilltui does not write there",
                root.display()
            ),
        );
    }
    let mut b = Builder::new(cat, models, skill)?;
    let (src, name) = match b.skill_folder() {
        Some(dir) => {
            let n = dir
                .file_name()
                .map(|n| n.to_os_string())
                .unwrap_or_default();
            (dir, n)
        }
        None => {
            let n = b
                .cur
                .file_name()
                .map(|n| n.to_os_string())
                .unwrap_or_default();
            (b.cur.clone(), n)
        }
    };
    if skill.root.as_deref() == Some(root.as_path()) && src.parent() == Some(root.as_path()) {
        return refuse(
            RefusalKind::Unchanged,
            format!("the skill is already in {}", b.show(&root)),
        );
    }
    if root.starts_with(&src) {
        return refuse(
            RefusalKind::Invalid,
            "the destination root is inside the skill folder",
        );
    }
    let dest = root.join(&name);
    b.free(&dest)?;
    // Clashes by name at the destination (another folder name, same frontmatter name).
    for s in cat
        .skills
        .iter()
        .filter(|s| s.root.as_deref() == Some(root.as_path()))
    {
        if s.label() == skill.label() && s.path != skill.path {
            b.notes.push(format!(
                "{} in the destination already has the name `{}`: see the verdicts below",
                b.show(&s.path),
                s.label()
            ));
        }
    }
    // Create the missing folders one by one, so that undo removes exactly those.
    let missing: Vec<PathBuf> = root
        .ancestors()
        .take_while(|a| std::fs::symlink_metadata(a).is_err())
        .map(Path::to_path_buf)
        .collect();
    for dir in missing.into_iter().rev() {
        b.moves.push(format!("create {}", b.show(&dir)));
        b.path_ops.push(Op::CreateDir { path: dir });
    }
    let rel_skill = skill
        .path
        .strip_prefix(&src)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    match mode {
        Mode::Move => {
            b.moves
                .push(format!("move {} → {}", b.show(&src), b.show(&dest)));
            b.path_ops.push(Op::Rename {
                from: src.clone(),
                to: dest.clone(),
            });
            b.cur = if rel_skill.as_os_str().is_empty() {
                dest.clone()
            } else {
                dest.join(&rel_skill)
            };
        }
        Mode::Copy => {
            b.moves
                .push(format!("copy {} → {}", b.show(&src), b.show(&dest)));
            b.path_ops.push(Op::Copy {
                from: src.clone(),
                to: dest.clone(),
            });
        }
        Mode::Link => {
            b.moves
                .push(format!("symlink {} → {}", b.show(&dest), b.show(&src)));
            b.path_ops.push(Op::Symlink {
                target: src.clone(),
                link: dest.clone(),
            });
        }
    }
    let title = format!("{} `{}` to {}", mode.verb(), skill.label(), b.show(&root));
    b.finish(title)
}

fn plan_delete(cat: &Catalog, models: &[AgentModel], skill: &Skill) -> Result<Plan, Refusal> {
    let mut b = Builder::new(cat, models, skill)?;
    let target = b.skill_folder().unwrap_or_else(|| b.cur.clone());
    b.moves
        .push(format!("move {} to skilltui's trash", b.show(&target)));
    b.path_ops.push(Op::Trash { path: target });
    b.finish(format!("delete `{}` (to the trash)", skill.label()))
}

/// Whether any verdict in a catalog names a status for an agent (for tests and callers).
pub fn status_of(cat: &Catalog, path: &Path, agent: &str) -> Option<Status> {
    cat.skill(path)
        .and_then(|s| s.verdict(agent))
        .map(|v| v.status)
}
