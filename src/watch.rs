//! The live catalog: a thread that watches every root (and the folders on the way to roots that
//! do not exist yet), debounces bursts of file events, rescans off the caller's thread and sends
//! whole new snapshots.
//!
//! What is watched: each existing root recursively; for a root that does not exist, its nearest
//! existing ancestor (not recursively), so that creating `~/.claude/skills` or `.agents/skills`
//! is seen; the folder of each agent settings file the models read (`.claude/settings.local.json`,
//! `~/.codex/config.toml`, `opencode.json`…), or its nearest existing ancestor; the project
//! folder's ancestors (a new `.git` changes the walk). Events outside those paths are ignored;
//! an edit of a settings file rescans. A burst (a branch switch, an editor's write-then-rename) is
//! coalesced by the debouncer and by draining what arrived during a scan, so thousands of events
//! give a handful of rescans.

use crate::agents::AgentModel;
use crate::catalog::Catalog;
use crate::env::Env;
use crate::live::Live;
use foldhash::HashMap;
use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, new_debouncer};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a burst of events must be quiet before a rescan.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// Why a snapshot was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    Initial,
    /// File events (how many, after debouncing).
    Files(usize),
    /// `r` in the explorer, or a control message.
    Forced,
}

/// A new snapshot and what changed since the previous one.
#[derive(Debug, Clone)]
pub struct Update {
    pub catalog: Arc<Catalog>,
    /// Counts snapshots: 0 is the initial scan.
    pub generation: u64,
    /// SKILL.md paths added, removed or with a different verdict, problem or text.
    pub changed: Vec<PathBuf>,
    pub cause: Cause,
    /// How long the rescan took.
    pub took: Duration,
    /// The files read again for this snapshot (None: a full rescan, every root walked and every
    /// file read).
    pub reread: Option<usize>,
    /// The roots walked again: 0 when only known files were edited in place; None: a full
    /// rescan.
    pub rewalked: Option<usize>,
    /// The files resolved again over all agents (the changed ones and the other copies of the
    /// names they had and have); None: everything was resolved.
    pub resolved: Option<usize>,
}

/// What the watcher thread reports.
#[derive(Debug, Clone)]
pub enum Report {
    Update(Update),
    /// Not fatal: a folder that could not be watched, an event error.
    Warning(String),
    /// While the first scan runs: the files walked and read so far, every [`PROGRESS_EVERY`]
    /// when they changed, then once more with the final counts just before the first snapshot.
    Progress(crate::scan::Counts),
}

/// Messages to the watcher thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    Rescan,
    Stop,
}

enum Input {
    Fs(DebounceEventResult),
    Control(Control),
    /// Asks for the state behind the current snapshot (see [`LiveTap`]).
    Live(Sender<Arc<Live>>),
}

/// A way to reach the watcher's live state from another thread (a planning job): the watcher
/// answers between two snapshots with an `Arc` of the state it keeps, so nothing is cloned
/// unless the watcher changes the state while the asker still holds it (then the watcher
/// clones its own copy before editing).
#[derive(Clone)]
pub struct LiveTap {
    control: Sender<Input>,
}

impl LiveTap {
    /// The live state, waiting while the watcher finishes a rescan; None when the watcher has
    /// stopped or `give_up` says so (checked every 50 ms).
    pub fn get(&self, give_up: impl Fn() -> bool) -> Option<Arc<Live>> {
        let (tx, rx) = mpsc::channel();
        self.control.send(Input::Live(tx)).ok()?;
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(l) => return Some(l),
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(mpsc::RecvTimeoutError::Timeout) if give_up() => return None,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

/// A running watcher.
pub struct WatchHandle {
    control: Sender<Input>,
    thread: Option<JoinHandle<Result<(), String>>>,
}

impl WatchHandle {
    pub fn rescan(&self) {
        let _ = self.control.send(Input::Control(Control::Rescan));
    }

    /// A handle that reaches the live state from another thread.
    pub fn tap(&self) -> LiveTap {
        LiveTap {
            control: self.control.clone(),
        }
    }

    /// Whether the thread has ended (stopped, or died).
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(|t| t.is_finished())
    }

    /// Waits for the thread and says why it ended.
    pub fn join(mut self) -> Result<(), String> {
        let _ = self.control.send(Input::Control(Control::Stop));
        match self.thread.take() {
            Some(t) => t.join().unwrap_or_else(|e| Err(panic_text(&e, "panic"))),
            None => Ok(()),
        }
    }

    /// Why a finished thread ended (None while it runs).
    pub fn exit_reason(&mut self) -> Option<String> {
        if !self.is_finished() {
            return None;
        }
        let t = self.thread.take()?;
        Some(match t.join() {
            Ok(Ok(())) => "the watcher stopped".into(),
            Ok(Err(e)) => e,
            Err(e) => format!("the watcher crashed: {}", panic_text(&e, "panic")),
        })
    }
}

impl Drop for WatchHandle {
    fn drop(&mut self) {
        let _ = self.control.send(Input::Control(Control::Stop));
    }
}

/// What a caught panic said (`otherwise` when it said nothing readable).
pub fn panic_text(e: &Box<dyn std::any::Any + Send>, otherwise: &str) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| otherwise.into())
}

/// Every root folder (scanned, outside the walk, former or never scanned) of every agent.
pub fn root_paths(models: &[AgentModel], env: &Env) -> Vec<PathBuf> {
    let settings = crate::settings::read(models, env);
    let (roots, former) = crate::scan::roots::expand(models, env, &settings);
    roots
        .into_iter()
        .map(|r| r.path)
        .chain(former.into_iter().map(|f| f.path))
        .collect()
}

/// What the watcher follows: every root folder, and the agents' settings files (which add
/// roots, disable or hide skills).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Watched {
    pub roots: Vec<PathBuf>,
    pub settings: Vec<PathBuf>,
}

impl Watched {
    pub fn of(models: &[AgentModel], env: &Env) -> Watched {
        Watched {
            roots: root_paths(models, env),
            settings: crate::settings::files(models, env),
        }
    }
}

/// The folders to watch: (path, recursive). Each existing root recursively; the nearest
/// existing ancestor of a missing root, of each settings file (its folder, not recursively:
/// `~/.codex` holds much else) and of the project folder's ancestors (a new `.git` changes the
/// walk).
pub fn watch_set(w: &Watched, env: &Env) -> Vec<(PathBuf, bool)> {
    let mut wanted: BTreeSet<(PathBuf, bool)> = BTreeSet::new();
    let nearest = |p: &Path| p.ancestors().find(|a| a.is_dir()).map(Path::to_path_buf);
    for r in &w.roots {
        if r.is_dir() {
            wanted.insert((r.to_path_buf(), true));
        } else if let Some(a) = r.parent().and_then(nearest) {
            wanted.insert((a, false));
        }
    }
    for f in &w.settings {
        if let Some(a) = f.parent().and_then(nearest) {
            wanted.insert((a, false));
        }
    }
    for a in env.project.ancestors() {
        wanted.insert((a.to_path_buf(), false));
    }
    // A recursive watch covers the folders below it.
    let recursive: Vec<PathBuf> = wanted
        .iter()
        .filter(|(_, r)| *r)
        .map(|(p, _)| p.clone())
        .collect();
    wanted
        .into_iter()
        .filter(|(p, rec)| {
            !recursive
                .iter()
                .any(|r| p != r && p.starts_with(r) || (!rec && p == r))
        })
        .collect()
}

/// Whether an event path can change the catalog: inside a root, on the way to a root or to a
/// settings file, a settings file, or a `.git` at the project's ancestors.
pub fn relevant(path: &Path, w: &Watched, env: &Env) -> bool {
    if path.file_name().is_some_and(|n| n == ".git") {
        return env
            .project
            .starts_with(path.parent().unwrap_or(Path::new("/")));
    }
    w.roots
        .iter()
        .any(|r| path.starts_with(r) || r.starts_with(path))
        || w.settings.iter().any(|f| f.starts_with(path))
}

/// SKILL.md paths whose verdicts, problems or description differ between two snapshots.
pub fn changed(old: &Catalog, new: &Catalog) -> Vec<PathBuf> {
    let sig = crate::catalog::signature;
    let before: HashMap<&Path, String> = old
        .skills
        .iter()
        .map(|s| (s.path.as_path(), sig(s)))
        .collect();
    let after: HashMap<&Path, String> = new
        .skills
        .iter()
        .map(|s| (s.path.as_path(), sig(s)))
        .collect();
    let mut out: BTreeSet<PathBuf> = BTreeSet::new();
    for (p, s) in &after {
        if before.get(p) != Some(s) {
            out.insert(p.to_path_buf());
        }
    }
    for p in before.keys() {
        if !after.contains_key(p) {
            out.insert(p.to_path_buf());
        }
    }
    out.into_iter().collect()
}

/// Sorts the paths a burst touched: known skill files that are still there (written in place,
/// or replaced by an editor's write-then-rename) are edits; editors' swap and temp files
/// ([`crate::scan::walk::is_editor_temp`]) and paths the burst created that are gone again
/// (a temp file renamed over a SKILL.md, vim's `4913` probe) leave the tree as it was; anything
/// else (a file or folder made, removed or renamed, a settings file) is structural.
fn classify(
    live: &Live,
    touched: &BTreeSet<PathBuf>,
    created: &BTreeSet<PathBuf>,
) -> (BTreeSet<PathBuf>, bool) {
    let mut edited = BTreeSet::new();
    let mut structural = false;
    for p in touched {
        let gone = std::fs::symlink_metadata(p).is_err();
        // A folder with a temp-like name may hold skills: only files are passed over.
        let temp = !p.is_dir()
            && p.file_name()
                .is_some_and(|n| crate::scan::walk::is_editor_temp(&n.to_string_lossy()));
        if live.still_a_known_file(p) {
            edited.insert(p.clone());
        } else if temp || (gone && created.contains(p)) {
            continue;
        } else {
            structural = true;
        }
    }
    (edited, structural)
}

/// How often the first scan's progress is reported while it runs.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Starts the watcher. `report` is called from the watcher thread for every snapshot, warning
/// and, during the first scan, its progress; when it returns false (nobody listens any more)
/// the watcher stops. The first [`Report::Update`] is the initial snapshot.
pub fn spawn(
    models: Arc<Vec<AgentModel>>,
    env: Env,
    debounce: Duration,
    report: impl FnMut(Report) -> bool + Send + 'static,
) -> std::io::Result<WatchHandle> {
    let (tx, rx) = mpsc::channel::<Input>();
    let control = tx.clone();
    let thread = std::thread::Builder::new()
        .name("skilltui-watch".into())
        .spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run(models, env, debounce, tx, rx, report)
            }));
            match result {
                Ok(r) => r,
                Err(e) => Err(format!("the watcher crashed: {}", panic_text(&e, "panic"))),
            }
        })?;
    Ok(WatchHandle {
        control,
        thread: Some(thread),
    })
}

/// The first scan, on a thread of its own, while this one reports its progress.
fn first_scan(
    models: &Arc<Vec<AgentModel>>,
    env: &Env,
    report: &mut impl FnMut(Report) -> bool,
) -> Live {
    let counts = crate::scan::Progress::new();
    let (done_tx, done_rx) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        let worker = s.spawn(|| {
            let live = Live::new_with(models.clone(), env.clone(), &counts);
            let _ = done_tx.send(());
            live
        });
        let mut last = crate::scan::Counts::default();
        // Until the worker says it is done (or ends without saying so: a panic).
        while let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(PROGRESS_EVERY) {
            let now = counts.counts();
            if now != last {
                report(Report::Progress(now));
                last = now;
            }
        }
        let live = worker
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        let now = counts.counts();
        if now != last {
            report(Report::Progress(now));
        }
        live
    })
}

type Debouncer = notify_debouncer_full::Debouncer<
    notify::RecommendedWatcher,
    notify_debouncer_full::RecommendedCache,
>;

/// What the watcher watches: the folders it asked the file watcher for, and the roots and
/// settings files they stand for.
struct Watching {
    debouncer: Debouncer,
    watched: BTreeSet<(PathBuf, bool)>,
    roots: Watched,
}

impl Watching {
    /// The debounced file watcher, sending its events to `tx`; nothing watched yet.
    fn start(debounce: Duration, tx: &Sender<Input>) -> Result<Watching, String> {
        let fs_tx = tx.clone();
        let debouncer = new_debouncer(debounce, None, move |r: DebounceEventResult| {
            let _ = fs_tx.send(Input::Fs(r));
        })
        .map_err(|e| format!("cannot start the file watcher: {e}"))?;
        Ok(Watching {
            debouncer,
            watched: BTreeSet::new(),
            roots: Watched::default(),
        })
    }

    /// Watches what the models and environment ask for now, and nothing else.
    fn rewatch(
        &mut self,
        models: &[AgentModel],
        env: &Env,
        report: &mut impl FnMut(Report) -> bool,
    ) {
        self.roots = Watched::of(models, env);
        let wanted: BTreeSet<(PathBuf, bool)> = watch_set(&self.roots, env).into_iter().collect();
        for (p, _) in self.watched.difference(&wanted) {
            let _ = self.debouncer.unwatch(p);
        }
        for (p, rec) in wanted.difference(&self.watched) {
            let mode = if *rec {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            if let Err(e) = self.debouncer.watch(p, mode) {
                report(Report::Warning(format!(
                    "cannot watch {}: {e}",
                    p.display()
                )));
            }
        }
        self.watched = wanted;
    }
}

/// One burst of inputs: the relevant file events, whether a rescan was asked for, every path
/// the burst touched and those it created.
#[derive(Default)]
struct Burst {
    events: usize,
    forced: bool,
    touched: BTreeSet<PathBuf>,
    created: BTreeSet<PathBuf>,
}

impl Burst {
    /// Takes in one input (answering a request for the live state at once); false: stop.
    fn take(
        &mut self,
        input: Input,
        live: &Arc<Live>,
        roots: &Watched,
        env: &Env,
        report: &mut impl FnMut(Report) -> bool,
    ) -> bool {
        match input {
            Input::Live(reply) => {
                let _ = reply.send(live.clone());
            }
            Input::Control(Control::Stop) => return false,
            Input::Control(Control::Rescan) => self.forced = true,
            Input::Fs(Ok(evs)) => {
                // Reads (our own scans open every SKILL.md) change nothing.
                for e in evs
                    .iter()
                    .filter(|e| !matches!(e.kind, notify::EventKind::Access(_)))
                    .filter(|e| e.paths.iter().any(|p| relevant(p, roots, env)))
                {
                    self.events += 1;
                    if matches!(e.kind, notify::EventKind::Create(_)) {
                        self.created.extend(e.paths.iter().cloned());
                    }
                    self.touched.extend(e.paths.iter().cloned());
                }
            }
            Input::Fs(Err(errs)) => {
                // Overflow and other watcher errors: fall back to a full rescan.
                self.forced = true;
                for e in errs {
                    report(Report::Warning(format!("file watcher: {e}")));
                }
            }
        }
        true
    }
}

/// The next burst: the first input to arrive and whatever else is already waiting. None: stop.
fn next_burst(
    rx: &Receiver<Input>,
    live: &Arc<Live>,
    roots: &Watched,
    env: &Env,
    report: &mut impl FnMut(Report) -> bool,
) -> Option<Burst> {
    let mut burst = Burst::default();
    let first = rx.recv().ok()?;
    if !burst.take(first, live, roots, env, report) {
        return None;
    }
    // Coalesce whatever else is already waiting.
    while let Ok(i) = rx.try_recv() {
        if !burst.take(i, live, roots, env, report) {
            return None;
        }
    }
    Some(burst)
}

/// Brings the live state up to date after a burst. In-place edits: re-read and re-resolve their
/// names. Files or folders made, removed or renamed inside existing roots: walk those roots
/// again. Anything else (a root or a settings file, an overflow, `r`): everything. None: the
/// burst changed nothing.
fn refresh(
    live: &mut Arc<Live>,
    models: &Arc<Vec<AgentModel>>,
    env: &Env,
    burst: &Burst,
    started: Instant,
    generation: u64,
) -> Option<Update> {
    if burst.events == 0 && !burst.forced {
        return None;
    }
    let (edited, structural) = classify(live, &burst.touched, &burst.created);
    if edited.is_empty() && !structural && !burst.forced {
        // Only editors' swap and temp files, or files that came and went.
        return None;
    }
    let partial = if burst.forced {
        None
    } else if structural {
        Arc::make_mut(live).restructure(&burst.touched)
    } else {
        Some(Arc::make_mut(live).edit(&edited))
    };
    let (diff, reread, rewalked, resolved) = match partial {
        Some(e) => (
            e.changed,
            Some(e.reread),
            Some(e.rewalked),
            Some(e.resolved),
        ),
        None => {
            let before = live.catalog().clone();
            match Arc::get_mut(live) {
                Some(l) => l.rescan(),
                // A job still reads the old state: a new one, not a copy to rescan.
                None => *live = Arc::new(Live::new(models.clone(), env.clone())),
            }
            (changed(&before, live.catalog()), None, None, None)
        }
    };
    Some(Update {
        catalog: live.catalog().clone(),
        generation,
        changed: diff,
        cause: if burst.forced {
            Cause::Forced
        } else {
            Cause::Files(burst.events)
        },
        took: started.elapsed(),
        reread,
        rewalked,
        resolved,
    })
}

fn run(
    models: Arc<Vec<AgentModel>>,
    env: Env,
    debounce: Duration,
    tx: Sender<Input>,
    rx: Receiver<Input>,
    mut report: impl FnMut(Report) -> bool,
) -> Result<(), String> {
    let mut watching = Watching::start(debounce, &tx)?;
    // Watch first, then scan: a change made right after the first snapshot is never missed.
    watching.rewatch(&models, &env, &mut report);
    let started = Instant::now();
    // The state behind the snapshot is kept: an edit to a known SKILL.md re-reads that file and
    // re-resolves the names it touches, nothing else.
    // Held in an `Arc` so that a planning job can read it (`LiveTap`) while this thread goes on.
    let mut live = Arc::new(first_scan(&models, &env, &mut report));
    let mut generation = 0u64;
    if !report(Report::Update(Update {
        catalog: live.catalog().clone(),
        generation,
        changed: Vec::new(),
        cause: Cause::Initial,
        took: started.elapsed(),
        reread: None,
        rewalked: None,
        resolved: None,
    })) {
        return Ok(());
    }
    loop {
        let Some(burst) = next_burst(&rx, &live, &watching.roots, &env, &mut report) else {
            return Ok(());
        };
        let started = Instant::now();
        let Some(update) = refresh(&mut live, &models, &env, &burst, started, generation + 1)
        else {
            continue;
        };
        generation += 1;
        if !report(Report::Update(update)) {
            return Ok(());
        }
        // Roots may have appeared or vanished.
        watching.rewatch(&models, &env, &mut report);
    }
}
