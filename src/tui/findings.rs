//! The findings worker: makes each snapshot's findings ([`Problems`]) on a thread of its own,
//! after the snapshot has been sent, so that neither the explorer nor the watcher waits for
//! them. At 100,000 skills they take over a second after every edit, where the edit's snapshot
//! takes a few milliseconds; the explorer shows the snapshot at once, with the findings it had
//! (their marks too when the skills are the same), and takes the new ones when they come
//! (`Msg::Findings`). When snapshots come faster than their findings, only the newest one's
//! are made: the explorer would drop the others.

use super::app::{self, Collision, Problems, SkillTexts, SnapshotFindings};
use super::update::Msg;
use crate::agents::AgentModel;
use crate::catalog::Catalog;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};

/// What the worker is given: a snapshot sent, with the name collisions sent with it.
type Job = (Arc<Catalog>, Arc<Vec<Collision>>);

/// Where snapshots are sent from (the watcher's callback, the scan worker): the explorer's
/// channel, and the worker's when its thread runs.
pub struct FindingsWorker {
    explorer: Sender<Msg>,
    worker: Option<Sender<Job>>,
    models: Arc<Vec<AgentModel>>,
}

impl FindingsWorker {
    /// Starts the worker's thread (without it, findings are made where the snapshot is sent,
    /// before it, as they were before the worker).
    pub fn start(models: Arc<Vec<AgentModel>>, explorer: Sender<Msg>) -> FindingsWorker {
        let (tx, rx) = mpsc::channel();
        let (for_thread, to_explorer) = (models.clone(), explorer.clone());
        let started = std::thread::Builder::new()
            .name("skilltui-findings".into())
            .spawn(move || run(&rx, &for_thread, &to_explorer));
        FindingsWorker {
            explorer,
            worker: started.is_ok().then_some(tx),
            models,
        }
    }

    /// Sends `catalog` to the explorer as a snapshot (with the search texts of its new skills
    /// and what changed), then has its findings made. `previous` is the snapshot sent before
    /// it, when it is still held: an edit in place keeps every skill where it was, so the
    /// findings the explorer shows meanwhile still mark the right rows. False when the
    /// explorer is gone.
    pub fn send(
        &self,
        catalog: Arc<Catalog>,
        previous: Option<&Catalog>,
        texts: Option<SkillTexts>,
        update: Option<Box<crate::watch::Update>>,
    ) -> bool {
        let collisions = Arc::new(app::collisions(&catalog));
        let findings = match &self.worker {
            Some(_) => SnapshotFindings::Coming {
                collisions: collisions.clone(),
                same_skills: previous.is_some_and(|p| same_skills(p, &catalog)),
            },
            None => SnapshotFindings::Made(Arc::new(Problems::with_collisions(
                &catalog,
                &self.models,
                collisions.clone(),
            ))),
        };
        let coming = matches!(findings, SnapshotFindings::Coming { .. });
        let msg = Msg::Snapshot {
            catalog: catalog.clone(),
            findings,
            texts,
            update,
        };
        if self.explorer.send(msg).is_err() {
            return false;
        }
        // Only now: the findings must not reach the explorer before their snapshot.
        if coming && let Some(w) = &self.worker {
            let _ = w.send((catalog, collisions));
        }
        true
    }
}

/// Whether two snapshots list the same skills (by path) in the same order: a row of one is the
/// same skill's row in the other.
pub fn same_skills(a: &Catalog, b: &Catalog) -> bool {
    a.skills.len() == b.skills.len()
        && a.skills
            .iter()
            .zip(&b.skills)
            .all(|(x, y)| Arc::ptr_eq(x, y) || x.path == y.path)
}

/// The worker's loop: the newest snapshot waiting, its findings made and sent, until either
/// channel closes.
fn run(rx: &Receiver<Job>, models: &[AgentModel], explorer: &Sender<Msg>) {
    while let Ok(mut next) = rx.recv() {
        while let Ok(newer) = rx.try_recv() {
            next = newer;
        }
        let (cat, collisions) = next;
        let of = Arc::downgrade(&cat);
        // With the collisions sent with the snapshot, not made again.
        let problems = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Problems::with_collisions(&cat, models, collisions)
        }))
        .map(Arc::new)
        .map_err(|e| crate::watch::panic_text(&e, "the findings panicked"));
        drop(cat);
        if explorer.send(Msg::Findings { of, problems }).is_err() {
            return;
        }
    }
}
