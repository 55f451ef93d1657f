//! The collision planner: every way to make a copy of a skill win for an agent ([`win`]), or to
//! make skills visible to an agent without losing any other ([`share`]), each candidate with its
//! [`Plan`] (the engine's: `plan`, `apply`, `undo`) and what it does per agent — gains and
//! losses — predicted through the live state ([`super::overlay`]: only what the plan touches is
//! resolved again; the mirror preview is the fallback for what the replay does not model).
//!
//! Candidates are ranked: the ones that reach the goal first, loss-free before lossy (fewest
//! losses first), then fewest file operations, then most agents gained. A lossy plan is never
//! first when a loss-free one reaches the goal.
//!
//! Turning the other copy off in the agent's own settings is not offered: no agent model sources
//! that a per-skill disable lets another copy take the name. The models' settings act after
//! precedence (`resolve::apply_settings`: a disabled winner becomes `rejected`, the copy it
//! shadowed stays shadowed; Crush's model says "applied after de-duplication"), and the
//! name-keyed settings (Copilot CLI's `disabledSkills`, Claude Code's `skillOverrides`, Crush's
//! `disabled_skills`) would turn off every copy of the name, this one too. Such a plan would
//! never reach the goal.

use super::{Mode, Op, Plan, Refusal, RefusalKind, Request};
use crate::agents::{AgentModel, Scope};
use crate::catalog::{Catalog, Skill};
use crate::env::Env;
use crate::live::Live;
use crate::resolve::{Status, Verdict};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a candidate does, as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Rename this copy (name and folder).
    RenameThis { name: String },
    /// Rename a competing copy (name and folder).
    RenameOther { other: PathBuf, name: String },
    /// Move, link or copy this copy (or, for `share`, every skill) into a root.
    Place { root: PathBuf, mode: Mode },
    /// Move a competing copy to skilltui's trash (undo brings it back).
    RemoveOther { other: PathBuf },
}

impl Kind {
    /// A stable code for JSON.
    pub fn code(&self) -> &'static str {
        match self {
            Kind::RenameThis { .. } => "rename-this",
            Kind::RenameOther { .. } => "rename-other",
            Kind::Place {
                mode: Mode::Move, ..
            } => "move",
            Kind::Place {
                mode: Mode::Link, ..
            } => "link",
            Kind::Place {
                mode: Mode::Copy, ..
            } => "copy",
            Kind::RemoveOther { .. } => "remove-other",
        }
    }
}

/// One agent gaining or losing one copy of a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effect {
    pub agent: String,
    /// The copy the agent lists after (a gain) or listed before (a loss).
    pub path: PathBuf,
    /// Its name as listed (before for a loss, after for a gain).
    pub name: String,
    pub before: Option<Status>,
    pub after: Option<Status>,
}

/// How a candidate's outcome was predicted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Predicted {
    /// The operations replayed on the live state in memory.
    Overlay,
    /// The slower mirror of the scanned files in a temporary folder.
    Mirror,
}

/// One candidate plan and its predicted outcome.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub kind: Kind,
    pub plan: Plan,
    /// Whether the plan reaches the goal (this copy listed by the agent; for `share`, every
    /// skill asked for).
    pub achieves: bool,
    /// Agents that list this copy, or any copy of the skill, after and did not before.
    pub gains: Vec<Effect>,
    /// Agents that listed this copy, or any copy of the skill (or any other skill), before and
    /// do not after.
    pub losses: Vec<Effect>,
    /// How many file operations the plan makes.
    pub files: usize,
    pub predicted: Predicted,
    /// The predicted catalog after the plan (overlay only).
    pub after: Option<Arc<Catalog>>,
    /// The mirror's preview (mirror only).
    pub mirror: Option<super::Preview>,
}

impl Candidate {
    /// Distinct agents gained.
    pub fn agents_gained(&self) -> BTreeSet<&str> {
        self.gains.iter().map(|e| e.agent.as_str()).collect()
    }

    /// Distinct agents that lose something.
    pub fn agents_lost(&self) -> BTreeSet<&str> {
        self.losses.iter().map(|e| e.agent.as_str()).collect()
    }

    fn rank(&self) -> (bool, bool, usize, usize, std::cmp::Reverse<usize>) {
        (
            !self.achieves,
            !self.losses.is_empty(),
            self.losses.len(),
            self.files,
            std::cmp::Reverse(self.agents_gained().len()),
        )
    }
}

/// Why planning stopped early.
pub const CANCELLED: &str = "cancelled";

fn models_of(live: &Live) -> &[AgentModel] {
    live.models()
}

/// Every way to make `skill` (a SKILL.md path in the live catalog) the copy `agent` lists under
/// its name, best first. `cancel` is checked between candidates (then: Err(CANCELLED)).
pub fn win(
    live: &Live,
    env: &Env,
    skill: &Path,
    agent: &str,
    cancel: &AtomicBool,
) -> Result<Vec<Candidate>, Refusal> {
    let cat = live.catalog().clone();
    let s = cat.skill(skill).ok_or_else(|| {
        Refusal::new(
            RefusalKind::NotFound,
            format!("{}: not in the catalog", skill.display()),
        )
    })?;
    let Some(v) = s.verdict(agent) else {
        return Err(Refusal::new(
            RefusalKind::NotFound,
            format!("unknown agent `{agent}`"),
        ));
    };
    refuse_same_file(s, v, agent)?;
    // Also a copy the agent lists under the same name (a namespaced or renamed listing).
    let competitors = super::competitors(&cat, s, agent, |c| {
        v.as_name.is_some()
            && c.verdict(agent).and_then(|w| w.as_name.as_deref()) == v.as_name.as_deref()
    });
    if super::already_wins(v, &competitors, agent) {
        return Err(Refusal::new(
            RefusalKind::Unchanged,
            format!(
                "{agent} already lists this copy as `{}`",
                v.as_name.as_deref().unwrap_or(s.label())
            ),
        ));
    }
    let reqs = win_requests(&cat, env, s, agent, &competitors);
    let mut tracked: Vec<PathBuf> = vec![s.path.clone()];
    tracked.extend(competitors.iter().map(|c| c.path.clone()));
    let goal = Goal {
        agent: agent.to_string(),
        this: vec![s.path.clone()],
        tracked,
    };
    let mut out = judge_all(live, env, &goal, reqs, cancel)?;
    if out.is_empty() {
        return Err(Refusal::new(
            RefusalKind::NoPlan,
            format!(
                "no rename, move, link or delete can be planned for this copy and {agent}; its verdict is {} (see `skilltui why`)",
                v.status.as_str()
            ),
        ));
    }
    out.sort_by_key(|c| c.rank());
    for c in &mut out {
        c.plan.title = format!("make `{}` win for {agent}: {}", s.label(), c.plan.title);
        // The plan speaks of this copy (a preview shows its verdicts), wherever it acts.
        c.plan.skill = s.path.clone();
        c.plan.after = c.plan.map_path(&s.path);
    }
    Ok(out)
}

/// Refuses a copy shadowed by the same SKILL.md reached another way (a symlink): the agent
/// loads that file once, under the winner's path; no rename, move or delete changes what it
/// loads, and such plans can only be previewed on a mirror of the tree (tens of seconds).
fn refuse_same_file(s: &Skill, v: &Verdict, agent: &str) -> Result<(), Refusal> {
    let canon = std::fs::canonicalize(&s.path).ok();
    if v.status == Status::Shadowed
        && let Some(w) = v.winner.as_deref()
        && canon.is_some()
        && std::fs::canonicalize(w).ok() == canon
    {
        return Err(Refusal::new(
            RefusalKind::Unchanged,
            format!(
                "{agent} already loads this file, through {} (the same SKILL.md by a symlink)",
                w.display()
            ),
        ));
    }
    Ok(())
}

/// The requests that may make `s` win for `agent`, in the order they are tried: rename each
/// competitor, rename this copy, move or link it into each other root the agent scans, delete
/// each competitor.
fn win_requests(
    cat: &Catalog,
    env: &Env,
    s: &Skill,
    agent: &str,
    competitors: &[&Skill],
) -> Vec<(Kind, Request)> {
    let mut reqs: Vec<(Kind, Request)> = Vec::new();
    for c in competitors {
        let name = free_name(cat, c);
        reqs.push((
            Kind::RenameOther {
                other: c.path.clone(),
                name: name.clone(),
            },
            Request::Rename {
                skill: c.path.clone(),
                name,
                folder: true,
            },
        ));
    }
    if !competitors.is_empty() {
        let name = free_name(cat, s);
        reqs.push((
            Kind::RenameThis { name: name.clone() },
            Request::Rename {
                skill: s.path.clone(),
                name,
                folder: true,
            },
        ));
    }
    for r in cat.roots.iter().filter(|r| {
        offered(r, env) && r.agents.iter().any(|a| a == agent) && s.root.as_ref() != Some(&r.path)
    }) {
        for mode in [Mode::Move, Mode::Link] {
            reqs.push((
                Kind::Place {
                    root: r.path.clone(),
                    mode,
                },
                Request::Move {
                    skill: s.path.clone(),
                    root: r.path.clone(),
                    mode,
                },
            ));
        }
    }
    for c in competitors {
        reqs.push((
            Kind::RemoveOther {
                other: c.path.clone(),
            },
            Request::Delete {
                skill: c.path.clone(),
            },
        ));
    }
    reqs
}

/// Plans and judges each request against the goal (a request that cannot be planned is
/// skipped); `cancel` is checked before each.
fn judge_all(
    live: &Live,
    env: &Env,
    goal: &Goal,
    reqs: Vec<(Kind, Request)>,
    cancel: &AtomicBool,
) -> Result<Vec<Candidate>, Refusal> {
    let cat = live.catalog();
    let mut out = Vec::new();
    for (kind, req) in reqs {
        if cancel.load(Ordering::Relaxed) {
            return Err(Refusal::new(RefusalKind::Cancelled, CANCELLED));
        }
        let Ok(plan) = super::plan(cat, models_of(live), env, &req) else {
            continue;
        };
        if let Some(c) = evaluate(live, env, goal, kind, plan) {
            out.push(c);
        }
    }
    Ok(out)
}

/// The best plan that makes `skill` win for `agent` (what `Request::Win` plans): the live state
/// is built for `env`, the candidates ranked, the first that reaches the goal taken.
pub fn first_plan(
    models: &[AgentModel],
    env: &Env,
    skill: &Path,
    agent: &str,
) -> Result<Plan, Refusal> {
    let live = Live::new(Arc::new(models.to_vec()), env.clone());
    let cands = win(&live, env, skill, agent, &AtomicBool::new(false))?;
    match cands.into_iter().find(|c| c.achieves) {
        Some(c) => {
            let mut plan = c.plan;
            if !c.losses.is_empty() {
                let lost: Vec<&str> = c.losses.iter().map(|e| e.agent.as_str()).collect();
                plan.notes.insert(
                    0,
                    format!(
                        "no plan reaches the goal without a loss; this one loses it for {}",
                        lost.join(", ")
                    ),
                );
            }
            Ok(plan)
        }
        None => Err(Refusal::new(
            RefusalKind::NoPlan,
            format!("no rename, move, link or delete makes this copy win for {agent}"),
        )),
    }
}

/// Ways to make `skills` visible to `agent` without losing any agent: one candidate per root the
/// agent scans and per mode (a symlink, or a copy for agents that do not follow links), each
/// placing every skill the agent does not list yet. Best first.
pub fn share(
    live: &Live,
    env: &Env,
    skills: &[PathBuf],
    agent: &str,
    cancel: &AtomicBool,
) -> Result<Vec<Candidate>, Refusal> {
    let cat = live.catalog().clone();
    let models = models_of(live);
    if !models.iter().any(|m| m.id == agent) {
        return Err(Refusal::new(
            RefusalKind::NotFound,
            format!("unknown agent `{agent}`"),
        ));
    }
    let mut todo: Vec<&Skill> = Vec::new();
    for p in skills {
        let s = cat.skill(p).ok_or_else(|| {
            Refusal::new(
                RefusalKind::NotFound,
                format!("{}: not in the catalog", p.display()),
            )
        })?;
        if s.verdict(agent)
            .is_some_and(|v| v.status != Status::Visible)
        {
            todo.push(s);
        }
    }
    if todo.is_empty() {
        return Err(Refusal::new(
            RefusalKind::Unchanged,
            format!(
                "{agent} already lists {}",
                if skills.len() == 1 {
                    "this skill"
                } else {
                    "every one of these skills"
                }
            ),
        ));
    }
    let goal = Goal {
        agent: agent.to_string(),
        this: todo.iter().map(|s| s.path.clone()).collect(),
        tracked: todo.iter().map(|s| s.path.clone()).collect(),
    };
    let mut out = Vec::new();
    for r in cat
        .roots
        .iter()
        .filter(|r| offered(r, env) && r.agents.iter().any(|a| a == agent))
    {
        for mode in [Mode::Link, Mode::Copy] {
            if cancel.load(Ordering::Relaxed) {
                return Err(Refusal::new(RefusalKind::Cancelled, CANCELLED));
            }
            let mut plans: Vec<Plan> = Vec::new();
            let mut skipped: Vec<String> = Vec::new();
            for s in &todo {
                let req = Request::Move {
                    skill: s.path.clone(),
                    root: r.path.clone(),
                    mode,
                };
                match super::plan(&cat, models, env, &req) {
                    Ok(p) => plans.push(p),
                    Err(e) => skipped.push(format!("{}: {e}", s.label())),
                }
            }
            let Some(mut plan) = merge(plans, &r.path, mode, env) else {
                continue;
            };
            if !skipped.is_empty() {
                plan.notes.push(format!(
                    "{} skill(s) left out: {}",
                    skipped.len(),
                    skipped.join("; ")
                ));
            }
            let kind = Kind::Place {
                root: r.path.clone(),
                mode,
            };
            if let Some(c) = evaluate(live, env, &goal, kind, plan) {
                out.push(c);
            }
        }
    }
    if out.is_empty() {
        return Err(Refusal::new(
            RefusalKind::NoPlan,
            format!("no root {agent} scans can take these skills (`skilltui roots` lists them)"),
        ));
    }
    out.sort_by_key(|c| c.rank());
    Ok(out)
}

/// A root the planner may place skills in: not a system root, and inside the project or the
/// home. Agents that search every folder up to `/` also scan `/.agents/skills` and the project's
/// other ancestors; writing there would touch folders the user did not point skilltui at.
fn offered(r: &crate::catalog::RootInfo, env: &Env) -> bool {
    r.scope != Scope::System && (r.path.starts_with(&env.project) || r.path.starts_with(&env.home))
}

/// One plan from several (the same root and mode): operations in order, a folder made once.
fn merge(plans: Vec<Plan>, root: &Path, mode: Mode, env: &Env) -> Option<Plan> {
    let n = plans.len();
    let mut it = plans.into_iter();
    let mut first = it.next()?;
    if n == 1 {
        return Some(first);
    }
    let mut made: BTreeSet<PathBuf> = first
        .ops
        .iter()
        .filter_map(|o| match o {
            Op::CreateDir { path } => Some(path.clone()),
            _ => None,
        })
        .collect();
    for p in it {
        for op in p.ops {
            if let Op::CreateDir { path } = &op
                && !made.insert(path.clone())
            {
                continue;
            }
            first.ops.push(op);
        }
        first.diff.push_str(&p.diff);
        first.reads.extend(p.reads);
        for r in p.roots {
            if !first.roots.contains(&r) {
                first.roots.push(r);
            }
        }
    }
    first.title = format!(
        "{} {n} skills to {}",
        mode.verb(),
        crate::present::show_path(env, root)
    );
    Some(first)
}

/// What a candidate is judged on.
struct Goal {
    agent: String,
    /// The copies the goal is about (listed by `agent` after).
    this: Vec<PathBuf>,
    /// Every copy whose loss or gain counts as the skill's (this copy and its competitors).
    tracked: Vec<PathBuf>,
}

/// A free name for a renamed copy: `<name>-<scope>`, then with a number.
fn free_name(cat: &Catalog, s: &Skill) -> String {
    let base = format!("{}-{}", s.label(), s.scope.as_str());
    let taken = |n: &str| cat.skills.iter().any(|x| x.label() == n || x.dir == n);
    if super::check_name(&base).is_ok() && !taken(&base) {
        return base;
    }
    for i in 2..100 {
        let n = format!("{base}-{i}");
        if super::check_name(&n).is_ok() && !taken(&n) {
            return n;
        }
    }
    format!("{base}-copy")
}

/// The outcome after a plan, however predicted.
enum Outcome {
    Overlay {
        after: Arc<Catalog>,
        changed: Vec<PathBuf>,
    },
    Mirror(super::Preview),
}

impl Outcome {
    /// A copy's status for an agent after the plan, by its path after (None: not a skill).
    fn status(
        &self,
        before: &Catalog,
        before_path: Option<&Path>,
        after_path: &Path,
        agent: &str,
    ) -> Option<Status> {
        match self {
            Outcome::Overlay { after, .. } => after
                .skill(after_path)
                .and_then(|s| s.verdict(agent))
                .map(|v| v.status),
            Outcome::Mirror(pv) => {
                if let Some(c) = pv
                    .others
                    .iter()
                    .find(|c| c.path == after_path && c.agent == agent)
                {
                    return c.after.as_ref().map(|b| b.status);
                }
                before_path
                    .and_then(|p| before.skill(p))
                    .and_then(|s| s.verdict(agent))
                    .map(|v| v.status)
            }
        }
    }

    fn name(&self, after_path: &Path, agent: &str) -> Option<String> {
        match self {
            Outcome::Overlay { after, .. } => after.skill(after_path).map(|s| {
                s.verdict(agent)
                    .and_then(|v| v.as_name.clone())
                    .unwrap_or_else(|| s.label().to_string())
            }),
            Outcome::Mirror(pv) => pv
                .others
                .iter()
                .find(|c| c.path == after_path && c.agent == agent)
                .map(|c| c.label.clone()),
        }
    }

    /// Skills that exist after and not before (new copies), and other changed paths.
    fn changed(&self) -> Vec<PathBuf> {
        match self {
            Outcome::Overlay { changed, .. } => changed.clone(),
            Outcome::Mirror(pv) => {
                let mut v: Vec<PathBuf> = pv.others.iter().map(|c| c.path.clone()).collect();
                v.sort();
                v.dedup();
                v
            }
        }
    }
}

fn visible(s: Option<Status>) -> bool {
    s == Some(Status::Visible)
}

/// Predicts a plan and judges it against the goal: per agent, the tracked copies it gains and
/// loses, and other skills it stops listing.
fn evaluate(live: &Live, env: &Env, goal: &Goal, kind: Kind, plan: Plan) -> Option<Candidate> {
    let before = live.catalog().clone();
    let (outcome, predicted) = predict_outcome(live, env, &plan)?;
    let j = Judged {
        before: &before,
        plan: &plan,
        outcome: &outcome,
        skill_after: plan.map_path(&plan.skill),
        new_copies: new_copies(&plan, &outcome, &before),
    };
    let changed = outcome.changed();
    let mut gains = Vec::new();
    let mut losses = Vec::new();
    let mut achieves = true;
    for m in live.models() {
        let a = m.id.as_str();
        achieves &= j.tracked_effects(goal, a, &mut gains, &mut losses);
        j.other_losses(goal, a, &changed, &mut losses);
    }
    // A loss of one tracked copy to the goal agent is the goal itself (another copy stops
    // being listed under the name): not counted when this copy takes its place.
    if achieves {
        losses.retain(|e| {
            !(e.agent == goal.agent
                && !goal.this.contains(&e.path)
                && goal.tracked.contains(&e.path))
        });
    }
    let files = plan.ops.len();
    let (after, mirror) = match outcome {
        Outcome::Overlay { after, .. } => (Some(after), None),
        Outcome::Mirror(pv) => (None, Some(pv)),
    };
    Some(Candidate {
        kind,
        plan,
        achieves,
        gains,
        losses,
        files,
        predicted,
        after,
        mirror,
    })
}

/// The catalog after the plan: on the live overlay when it can replay the operations, else on
/// a mirror of the tree (None: the mirror failed too).
fn predict_outcome(live: &Live, env: &Env, plan: &Plan) -> Option<(Outcome, Predicted)> {
    Some(match super::overlay::predict(live, &plan.ops) {
        Ok((next, edit)) => (
            Outcome::Overlay {
                after: next.catalog().clone(),
                changed: edit.changed,
            },
            Predicted::Overlay,
        ),
        Err(_) => (
            Outcome::Mirror(super::preview(plan, live.models(), env).ok()?),
            Predicted::Mirror,
        ),
    })
}

/// The new copies: skills after the plan under what it creates (links, copies, renames) that
/// were not skills before.
fn new_copies(plan: &Plan, outcome: &Outcome, before: &Catalog) -> Vec<PathBuf> {
    let dests: Vec<&Path> = plan
        .ops
        .iter()
        .filter_map(|o| match o {
            Op::Symlink { link, .. } => Some(link.as_path()),
            Op::Copy { to, .. } => Some(to.as_path()),
            Op::Rename { to, .. } => Some(to.as_path()),
            _ => None,
        })
        .collect();
    match outcome {
        Outcome::Overlay { after, .. } => after
            .skills
            .iter()
            .filter(|s| dests.iter().any(|d| s.path.starts_with(d)))
            .filter(|s| before.skill(&s.path).is_none())
            .map(|s| s.path.clone())
            .collect(),
        Outcome::Mirror(pv) => pv
            .others
            .iter()
            .filter(|c| c.before.is_none() && dests.iter().any(|d| c.path.starts_with(d)))
            .map(|c| c.path.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect(),
    }
}

/// A plan and its predicted outcome, with the lookups [`evaluate`] judges it by.
struct Judged<'a> {
    before: &'a Catalog,
    plan: &'a Plan,
    outcome: &'a Outcome,
    /// Where the acted-on skill is after the plan.
    skill_after: Option<PathBuf>,
    new_copies: Vec<PathBuf>,
}

impl Judged<'_> {
    fn status_before(&self, p: &Path, agent: &str) -> Option<Status> {
        self.before
            .skill(p)
            .and_then(|s| s.verdict(agent))
            .map(|v| v.status)
    }

    /// The name `agent` listed the copy at `p` under before the plan.
    fn label_before(&self, p: &Path, agent: &str) -> String {
        self.before
            .skill(p)
            .map(|s| {
                s.verdict(agent)
                    .and_then(|v| v.as_name.clone())
                    .unwrap_or_else(|| s.label().to_string())
            })
            .unwrap_or_default()
    }

    /// The acted-on skill's status after, as a mirror preview reports it apart (None: not a
    /// mirror preview, or the agent is not in it).
    fn mirror_skill(&self, agent: &str) -> Option<Option<Status>> {
        match self.outcome {
            Outcome::Mirror(pv) => pv
                .skill
                .iter()
                .find(|(a, _, _)| a == agent)
                .map(|(_, _, after)| after.as_ref().map(|b| b.status)),
            Outcome::Overlay { .. } => None,
        }
    }

    /// Whether the new copy `n` is a link or copy of the folder holding `p`.
    fn copy_of(&self, p: &Path, n: &Path) -> bool {
        self.plan.ops.iter().any(|o| match o {
            Op::Symlink {
                target: from,
                link: to,
            }
            | Op::Copy { from, to } => p.starts_with(from) && n.starts_with(to),
            _ => false,
        })
    }

    /// The status after the plan of the copy at `bp` before it.
    fn status_after(&self, bp: &Path, agent: &str) -> Option<Status> {
        let ap = self.plan.map_path(bp)?;
        if Some(&ap) == self.skill_after.as_ref()
            && let Some(s) = self.mirror_skill(agent)
        {
            return s;
        }
        self.outcome.status(self.before, Some(bp), &ap, agent)
    }

    fn new_copy_visible(&self, n: &Path, agent: &str) -> bool {
        visible(self.outcome.status(self.before, None, n, agent))
    }

    /// Where `agent` lists the tracked copy `tp` after the plan: itself, or a new copy of it.
    fn listed_after(&self, tp: &Path, agent: &str) -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = Vec::new();
        if visible(self.status_after(tp, agent))
            && let Some(ap) = self.plan.map_path(tp)
        {
            paths.push(ap);
        }
        for n in self.new_copies.iter().filter(|n| self.copy_of(tp, n)) {
            if self.new_copy_visible(n, agent) {
                paths.push(n.clone());
            }
        }
        paths
    }

    /// The gains and losses of the tracked copies for `agent`; false when the goal's copy is
    /// not listed after (the plan does not achieve the goal).
    fn tracked_effects(
        &self,
        goal: &Goal,
        a: &str,
        gains: &mut Vec<Effect>,
        losses: &mut Vec<Effect>,
    ) -> bool {
        let mut achieves = true;
        for tp in &goal.tracked {
            let vb = visible(self.status_before(tp, a));
            let va_paths = self.listed_after(tp, a);
            let va = !va_paths.is_empty();
            if goal.this.contains(tp) && a == goal.agent && !va {
                achieves = false;
            }
            if vb && !va && (goal.this.contains(tp) || !self.still_listed(goal, tp, a)) {
                losses.push(Effect {
                    agent: a.to_string(),
                    path: tp.clone(),
                    name: self.label_before(tp, a),
                    before: self.status_before(tp, a),
                    after: self.status_after(tp, a),
                });
            }
            if !vb && va {
                let was_other = goal
                    .tracked
                    .iter()
                    .any(|o| o != tp && visible(self.status_before(o, a)));
                if goal.this.contains(tp) || !was_other {
                    let p = va_paths[0].clone();
                    gains.push(Effect {
                        agent: a.to_string(),
                        name: self
                            .outcome
                            .name(&p, a)
                            .unwrap_or_else(|| self.label_before(tp, a)),
                        before: self.status_before(tp, a),
                        after: Some(Status::Visible),
                        path: p,
                    });
                }
            }
        }
        achieves
    }

    /// Whether the skill stays listed by `a` through another tracked copy than `tp` (or a new
    /// copy of one): then losing `tp` loses nothing.
    fn still_listed(&self, goal: &Goal, tp: &Path, a: &str) -> bool {
        goal.tracked.iter().any(|o| {
            o != tp
                && (visible(self.status_after(o, a))
                    || self
                        .new_copies
                        .iter()
                        .any(|n| self.copy_of(o, n) && self.new_copy_visible(n, a)))
        })
    }

    /// Any other skill `a` listed before and does not after (among the changed paths).
    fn other_losses(&self, goal: &Goal, a: &str, changed: &[PathBuf], losses: &mut Vec<Effect>) {
        for p in changed {
            if goal
                .tracked
                .iter()
                .any(|t| self.plan.map_path(t).as_deref() == Some(p.as_path()) || t == p)
                || self.new_copies.contains(p)
            {
                continue;
            }
            let b = self.status_before(p, a);
            let after = self.outcome.status(self.before, Some(p), p, a);
            if visible(b) && !visible(after) {
                losses.push(Effect {
                    agent: a.to_string(),
                    path: p.clone(),
                    name: self.label_before(p, a),
                    before: b,
                    after,
                });
            }
        }
    }
}

fn brief(s: &Skill, agent: &str) -> Option<super::preview::Brief> {
    s.verdict(agent).map(|v| super::preview::Brief {
        status: v.status,
        as_name: v.as_name.clone(),
        winner: v.winner.clone(),
    })
}

/// What a candidate does to the verdicts, as the preview shows it: from the predicted catalog
/// (only the skills the replay made anew are compared; the others are shared with `before`),
/// else the mirror's preview. `before` is the catalog the candidate was judged against.
pub fn preview_of(before: &Catalog, c: &Candidate, models: &[AgentModel]) -> super::Preview {
    let Some(after) = &c.after else {
        return c.mirror.clone().unwrap_or(super::Preview {
            skill: Vec::new(),
            others: Vec::new(),
        });
    };
    let plan = &c.plan;
    let agents: Vec<&str> = models.iter().map(|m| m.id.as_str()).collect();
    let after_at: foldhash::HashMap<&Path, &Arc<Skill>> =
        after.skills.iter().map(|s| (s.path.as_path(), s)).collect();
    let b_skill = before.skill(&plan.skill);
    let a_skill = plan
        .after
        .as_deref()
        .and_then(|p| after_at.get(p).map(|s| &***s));
    let skill = agents
        .iter()
        .map(|a| {
            (
                a.to_string(),
                b_skill.and_then(|s| brief(s, a)),
                a_skill.and_then(|s| brief(s, a)),
            )
        })
        .collect();
    let mut others = Vec::new();
    let mut seen: BTreeSet<&Path> = BTreeSet::new();
    if let Some(p) = plan.after.as_deref() {
        seen.insert(p);
    }
    for bs in &before.skills {
        if bs.path == plan.skill {
            continue;
        }
        let ap = plan.map_path(&bs.path);
        let as_ = ap.as_deref().and_then(|p| after_at.get(p).copied());
        if let Some(x) = as_ {
            seen.insert(x.path.as_path());
            // Shared with the snapshot before: the replay did not touch it.
            if Arc::ptr_eq(bs, x) {
                continue;
            }
        }
        for a in &agents {
            let b = brief(bs, a);
            let x = as_.and_then(|s| brief(s, a));
            if b != x && !(b.as_ref().is_some_and(|b| b.status == Status::NotFound) && x.is_none())
            {
                others.push(super::Change {
                    path: as_.map_or(bs.path.clone(), |s| s.path.clone()),
                    label: bs.label().to_string(),
                    agent: a.to_string(),
                    before: b,
                    after: x,
                });
            }
        }
    }
    for s in after
        .skills
        .iter()
        .filter(|s| !seen.contains(s.path.as_path()))
    {
        for a in &agents {
            let x = brief(s, a);
            if x.as_ref().is_some_and(|x| x.status != Status::NotFound) {
                others.push(super::Change {
                    path: s.path.clone(),
                    label: s.label().to_string(),
                    agent: a.to_string(),
                    before: None,
                    after: x,
                });
            }
        }
    }
    super::Preview { skill, others }
}
