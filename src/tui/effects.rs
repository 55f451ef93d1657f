//! The explorer's effects: what `update` asks for (`Cmd`) and the slow work it hands to a
//! worker thread (`Job`: plan and preview, the candidate plans of `W`, quick fixes, apply,
//! undo), whose result comes back as a `Msg`. Nothing here touches the terminal; the run loop (`tui::run`) does the commands
//! that need it (copy, editor) and starts the jobs with [`spawn`].

use super::update::Msg;
use crate::actions::{self, Request, journal};
use crate::agents::AgentModel;
use crate::catalog::Catalog;
use crate::env::Env;
use crate::live::Live;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;

/// What `update` asks the run loop to do.
#[derive(Debug)]
pub enum Cmd {
    /// Start a job on a worker thread.
    Run(Job),
    /// Scan the roots again (through the watcher when it runs).
    Rescan,
    /// Open a URL with the desktop's opener.
    OpenUrl(String),
    /// Put text on the terminal's clipboard (OSC 52).
    Copy(String),
    /// Open a SKILL.md in `$VISUAL`/`$EDITOR` (the terminal suspended meanwhile), then rescan.
    Edit(PathBuf),
    /// Free what a new snapshot replaced, off the UI thread.
    Release(super::app::Retired),
}

/// Slow work, run off the UI thread.
#[derive(Debug, Clone)]
pub struct Job {
    /// Matches the result to the job the app waits for (a cancelled job's result is dropped).
    pub id: u64,
    pub work: Work,
    /// Set by Esc; the job checks it between its steps and stops early.
    pub cancel: Arc<AtomicBool>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Work {
    /// Plan a request and preview it.
    Plan(Request),
    /// Every candidate plan that makes this copy win for the agent (`W`), best first, each
    /// predicted on the watcher's live state (`actions::planner::win`).
    Candidates {
        skill: PathBuf,
        agent: String,
    },
    /// List the quick fixes of a SKILL.md.
    Fixes(PathBuf),
    Apply(Box<actions::Plan>),
    /// Undo the journal entry with this id.
    Undo(String),
    /// Plan sharing these skills with an agent (`planner::share`: a link or copy of each into
    /// a root the agent scans, no agent lost) and preview the best plan.
    Share {
        skills: Vec<PathBuf>,
        agent: String,
    },
}

impl Work {
    /// Whether Esc may drop the result: not once files are being written (an applied or
    /// undone action must reach the journal list, so `u` can undo it).
    pub fn cancellable(&self) -> bool {
        matches!(
            self,
            Work::Plan(_) | Work::Fixes(_) | Work::Candidates { .. } | Work::Share { .. }
        )
    }
}

/// A job's result.
#[derive(Debug, Clone)]
pub enum Done {
    /// The request planned, with its preview lines (diff, notes, verdicts), or why not.
    Planned(Request, Result<(Box<actions::Plan>, Vec<String>), String>),
    Fixes(PathBuf, Result<Vec<actions::Fix>, String>),
    /// The candidate plans for a copy and an agent, best first, with the catalog they were
    /// judged against, or why there are none.
    Candidates {
        skill: PathBuf,
        agent: String,
        result: Result<super::app::PlanList, String>,
    },
    /// Applied (journal id, title), or why not.
    Applied(Result<(String, String), String>),
    Undone(Result<(String, String), String>),
    /// The best share plan with its preview lines, or why none.
    Shared(Result<(Box<actions::Plan>, Vec<String>), String>),
    /// The job saw its cancel flag and stopped.
    Cancelled,
}

/// What a job works on: the snapshot when it was started, and a way to the watcher's live
/// state (the planner predicts on it; without a watcher the job builds one).
#[derive(Clone)]
pub struct Context {
    pub catalog: Option<Arc<Catalog>>,
    pub models: Arc<Vec<AgentModel>>,
    pub env: Env,
    pub live: Option<crate::watch::LiveTap>,
    /// The journal's folder (the explorer's [`super::app::App::data_dir`]).
    pub data_dir: Option<std::path::PathBuf>,
}

impl Context {
    pub fn of(app: &super::app::App) -> Context {
        Context {
            catalog: app.catalog.clone(),
            models: app.models.clone(),
            env: app.env.clone(),
            live: None,
            data_dir: app.data_dir.clone(),
        }
    }

    /// The journal's folder: the explorer's own, else the default one.
    fn journal_dir(&self) -> Result<std::path::PathBuf, actions::Refusal> {
        match &self.data_dir {
            Some(d) => Ok(d.clone()),
            None => actions::data_dir(),
        }
    }

    /// The live state: the watcher's (no copy), else a scan of its own.
    fn live(&self, cancel: &AtomicBool) -> Option<Arc<Live>> {
        if let Some(tap) = &self.live
            && let Some(l) = tap.get(|| cancel.load(Ordering::Relaxed))
        {
            return Some(l);
        }
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        Some(Arc::new(Live::new(self.models.clone(), self.env.clone())))
    }
}

/// Does a job here (the worker thread calls it; tests call it directly).
pub fn perform(work: &Work, cx: &Context, cancel: &AtomicBool) -> Done {
    let cancelled = || cancel.load(Ordering::Relaxed);
    if cancelled() {
        return Done::Cancelled;
    }
    match work {
        Work::Plan(req) => {
            let result = match &cx.catalog {
                None => Err("the scan has not finished".to_string()),
                Some(cat) => match actions::plan(cat, &cx.models, &cx.env, req) {
                    Err(r) => Err(r.0),
                    Ok(_) if cancelled() => return Done::Cancelled,
                    Ok(plan) => actions::preview(&plan, &cx.models, &cx.env)
                        .map(|pv| {
                            let mut lines = vec![plan.title.clone(), String::new()];
                            lines.extend(plan.diff.lines().map(String::from));
                            lines.extend(plan.notes.iter().map(|n| format!("note: {n}")));
                            lines.push(String::new());
                            lines.extend(pv.lines(&cx.env));
                            (Box::new(plan), lines)
                        })
                        .map_err(|r| r.0),
                },
            };
            if cancelled() {
                return Done::Cancelled;
            }
            Done::Planned(req.clone(), result)
        }
        Work::Candidates { skill, agent } => {
            let Some(live) = cx.live(cancel) else {
                return Done::Cancelled;
            };
            let result = match actions::planner::win(&live, &cx.env, skill, agent, cancel) {
                Err(r) if r.kind() == actions::RefusalKind::Cancelled => return Done::Cancelled,
                Err(r) => Err(r.0),
                Ok(cands) => Ok(super::app::PlanList {
                    before: live.catalog().clone(),
                    candidates: Arc::new(cands),
                }),
            };
            if cancelled() {
                return Done::Cancelled;
            }
            Done::Candidates {
                skill: skill.clone(),
                agent: agent.clone(),
                result,
            }
        }
        Work::Fixes(skill) => Done::Fixes(
            skill.clone(),
            match cx
                .catalog
                .as_ref()
                .and_then(|c| c.skill(skill).map(|s| (c, s)))
            {
                Some((cat, s)) => Ok(actions::fixes(cat, &cx.models, s)),
                None => Err("the skill is no longer in the catalog".to_string()),
            },
        ),
        Work::Apply(plan) => Done::Applied(
            cx.journal_dir()
                .and_then(|d| journal::apply_in(plan, &d))
                .map(|e| (e.id, e.title))
                .map_err(|r| r.0),
        ),
        Work::Undo(id) => Done::Undone(
            cx.journal_dir()
                .and_then(|d| journal::undo_id_in(id, &d))
                .map(|e| (e.id, e.title))
                .map_err(|r| r.0),
        ),
        Work::Share { skills, agent } => {
            let live = crate::live::Live::new(cx.models.clone(), cx.env.clone());
            match actions::planner::share(&live, &cx.env, skills, agent, cancel) {
                Err(r) if r.kind() == actions::RefusalKind::Cancelled => Done::Cancelled,
                Err(r) => Done::Shared(Err(r.0)),
                Ok(cands) => {
                    let others = cands.len().saturating_sub(1);
                    Done::Shared(match cands.into_iter().next().filter(|c| c.achieves) {
                        None => Err(format!("no plan makes these skills visible to {agent}")),
                        Some(c) => {
                            let mut lines = crate::present::candidate_lines(&cx.env, &c, 200);
                            if others > 0 {
                                lines.push(String::new());
                                lines.push(format!(
                                    "note: the best of {} plans (`skilltui share --agent {agent}` lists them)",
                                    others + 1
                                ));
                            }
                            Ok((Box::new(c.plan), lines))
                        }
                    })
                }
            }
        }
    }
}

/// A thread that frees what new snapshots replaced ([`Cmd::Release`]), one after the other:
/// freeing a whole catalog after a full rescan takes tens of milliseconds at 10,000 skills,
/// which the explorer's thread would otherwise spend between two frames. Without the thread
/// (it could not start, or has stopped), what it is given is freed where it is.
pub struct Reaper<T: Send + 'static = super::app::Retired>(Option<Sender<T>>);

impl<T: Send + 'static> Reaper<T> {
    pub fn start() -> Reaper<T> {
        let (tx, rx) = std::sync::mpsc::channel::<T>();
        let started = std::thread::Builder::new()
            .name("skilltui-free".into())
            .spawn(move || rx.into_iter().for_each(drop));
        Reaper(started.is_ok().then_some(tx))
    }

    /// Frees `what` on the reaper's thread (here when it has none). The thread ends when the
    /// reaper is dropped, after freeing what it was given.
    pub fn release(&self, what: T) {
        match &self.0 {
            Some(tx) => {
                if let Err(back) = tx.send(what) {
                    drop(back.0);
                }
            }
            None => drop(what),
        }
    }
}

/// Runs a job on a worker thread; its result arrives as `Msg::Job`. A panic in the job is
/// reported as a refusal, not a crash.
pub fn spawn(job: Job, cx: Context, tx: Sender<Msg>) {
    let Job { id, work, cancel } = job;
    let fallback = tx.clone();
    let started = std::thread::Builder::new()
        .name("skilltui-job".into())
        .spawn(move || {
            let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                perform(&work, &cx, &cancel)
            }))
            .unwrap_or_else(|e| {
                let why = crate::watch::panic_text(&e, "the job panicked");
                let why = format!("internal error: {why}");
                match &work {
                    Work::Plan(req) => Done::Planned(req.clone(), Err(why)),
                    Work::Candidates { skill, agent } => Done::Candidates {
                        skill: skill.clone(),
                        agent: agent.clone(),
                        result: Err(why),
                    },
                    Work::Fixes(p) => Done::Fixes(p.clone(), Err(why)),
                    Work::Apply(_) => Done::Applied(Err(why)),
                    Work::Undo(_) => Done::Undone(Err(why)),
                    Work::Share { .. } => Done::Shared(Err(why)),
                }
            });
            let _ = tx.send(Msg::Job { id, done });
        });
    if let Err(e) = started {
        let _ = fallback.send(Msg::Job {
            id,
            done: Done::Applied(Err(format!("cannot start a worker thread: {e}"))),
        });
    }
}

/// Runs the jobs among `cmds` here, one after the other, feeding each result back through
/// `update` (and the jobs that asks for), and returns the other commands. For tests and
/// scripted use: the explorer itself runs jobs on a worker thread.
pub fn run_jobs_now(app: &mut super::app::App, cmds: Vec<Cmd>) -> Vec<Cmd> {
    let mut rest = Vec::new();
    let mut queue: std::collections::VecDeque<Cmd> = cmds.into();
    while let Some(cmd) = queue.pop_front() {
        match cmd {
            Cmd::Run(job) => {
                let done = perform(&job.work, &Context::of(app), &job.cancel);
                queue.extend(super::update::update(app, Msg::Job { id: job.id, done }));
            }
            other => rest.push(other),
        }
    }
    rest
}
