//! The explorer's whole state. One `update` function changes it (update.rs); `draw` reads it.
//! Everything derived from the catalog (rows, search text) is recomputed here when its inputs
//! change, never while drawing; a snapshot's name collisions come made with it, its findings
//! ([`Problems`]) after it from the findings worker (`super::findings`); the listing reports (Tokens tab) are made once per snapshot, the first time
//! they are shown.

use super::search::{Haystack, Search};
use crate::agents::{AgentModel, Scope};
use crate::catalog::{Catalog, Skill};
use crate::env::Env;
use crate::findings::{self, Affected, AgentSummary, Finding, Group, Severity};
use crate::listing::{self, ListingReport};
use foldhash::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Skills,
    Collisions,
    Roots,
    Agents,
    Tokens,
    /// The findings grouped by cause, most severe first.
    Problems,
}

impl Tab {
    pub const ALL: [Tab; 6] = [
        Tab::Skills,
        Tab::Collisions,
        Tab::Roots,
        Tab::Agents,
        Tab::Tokens,
        Tab::Problems,
    ];
    pub fn title(self) -> &'static str {
        match self {
            Tab::Skills => "Skills",
            Tab::Collisions => "Collisions",
            Tab::Roots => "Roots",
            Tab::Agents => "Agents",
            Tab::Tokens => "Tokens",
            Tab::Problems => "Problems",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetailTab {
    Why,
    Fields,
    File,
}

impl DetailTab {
    pub const ALL: [DetailTab; 3] = [DetailTab::Why, DetailTab::Fields, DetailTab::File];
    pub fn title(self) -> &'static str {
        match self {
            DetailTab::Why => "Why",
            DetailTab::Fields => "Fields",
            DetailTab::File => "File",
        }
    }
}

/// Which pane receives movement keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    List,
    Detail,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    Name,
    Problems,
    Scope,
}

impl Sort {
    pub fn label(self) -> &'static str {
        match self {
            Sort::Name => "name",
            Sort::Problems => "problems",
            Sort::Scope => "scope",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    All,
    Problems,
    Collisions,
}

impl Filter {
    pub fn label(self) -> &'static str {
        match self {
            Filter::All => "all",
            Filter::Problems => "problems",
            Filter::Collisions => "collisions",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScanState {
    Scanning,
    Ready,
    Failed(String),
}

/// A name with more than one SKILL.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collision {
    pub name: String,
    /// Indices into the catalog's skills.
    pub skills: Vec<usize>,
}

/// The findings a snapshot arrives with ([`App::set_snapshot`]).
#[derive(Debug, Clone)]
pub enum SnapshotFindings {
    /// Made with the snapshot (the scan worker, tests).
    Made(Arc<Problems>),
    /// Made after it by the findings worker, and sent as `Msg::Findings`: at 100k skills they
    /// take over a second, which the snapshot does not wait for. It comes with its name
    /// collisions (one pass over its skills), and with whether it has the same skills in the
    /// same places as the snapshot sent before it (an edit in place), so that the findings
    /// shown meanwhile still mark the right rows.
    Coming {
        collisions: Arc<Vec<Collision>>,
        same_skills: bool,
    },
}

/// Whose findings the explorer shows against its snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FindingsShown {
    /// The snapshot's own.
    #[default]
    Own,
    /// The snapshot's are being made and none were made before (the first snapshot): no
    /// counts, marks or causes are shown.
    Coming,
    /// The snapshot's are being made; the previous snapshot's counts and causes are shown, and
    /// what they say of each skill (the rows' marks, a cause's skills) when `same_skills` (the
    /// same skills in the same places: an edit in place). After a skill was added or removed
    /// nothing is said of a skill until the snapshot's own come.
    Previous { same_skills: bool },
    /// The snapshot's could not be made (an internal error, said in a note): the previous
    /// snapshot's counts and causes stay when there were any (`previous`), and nothing is said
    /// of a skill until the next snapshot's come.
    Failed { previous: bool },
}

/// The findings of one snapshot as the explorer shows them (header counts, the Problems tab, the
/// `f` filter) and its name collisions (the Collisions tab): made once per snapshot, off the UI
/// thread (by the findings worker, after the snapshot is sent); never per frame.
#[derive(Debug, Default)]
pub struct Problems {
    /// Every finding (`crate::findings::findings`).
    pub findings: Vec<Finding>,
    /// The findings grouped by cause, most severe first.
    pub groups: Vec<Group>,
    /// Per group: indices into `findings` of all its findings.
    pub members: Vec<Vec<usize>>,
    /// Per group: every skill it covers, with the agents concerned.
    pub affected: Vec<Vec<Affected>>,
    /// Per agent, in catalog order: skills visible of all, and error findings.
    pub agents: Vec<AgentSummary>,
    /// Findings per severity (error, warning, info).
    pub counts: [usize; 3],
    /// Per skill (catalog index): its error and warning findings.
    pub marks: Vec<Mark>,
    /// Per group: the width of the widest agents cell of its skills list, measured over all of
    /// them when the group is first shown (a root's group covers tens of thousands of skills;
    /// a frame builds only the rows it shows).
    pub agents_widths: Vec<std::sync::OnceLock<usize>>,
    /// Names with more than one copy ([`collisions`]).
    pub collisions: Arc<Vec<Collision>>,
}

/// A skill's error and warning findings (info findings do not mark a skill).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mark {
    /// Error and warning findings.
    pub count: u32,
    /// The most severe of them.
    pub worst: Option<Severity>,
    /// One of them concerns no agent in particular (a spec or file problem, visible to none).
    pub general: bool,
    /// Bit `i`: one of them concerns the catalog's agent `i` (agents past 64 share bit 63).
    pub agents: u64,
}

impl Problems {
    /// The findings of a catalog, grouped, with everything the explorer derives from them.
    pub fn new(cat: &Catalog, models: &[AgentModel]) -> Problems {
        Problems::with_collisions(cat, models, Arc::new(collisions(cat)))
    }

    /// The same, with the catalog's name collisions ([`collisions`]) already made (they come
    /// with the snapshot: [`SnapshotFindings::Coming`]).
    pub fn with_collisions(
        cat: &Catalog,
        models: &[AgentModel],
        collisions: Arc<Vec<Collision>>,
    ) -> Problems {
        let (all, agents) = findings::findings_and_summaries(cat, models);
        let (groups, members): (Vec<Group>, Vec<Vec<usize>>) =
            findings::group_members(cat, &all).into_iter().unzip();
        let affected = findings::affected_all(cat, &all, &members);
        let counts = findings::counts(&all);
        // By the paths' bytes (a finding's path is a copy of its skill's; hashing a `Path`
        // walks its components).
        let index: HashMap<&[u8], usize> = cat
            .skills
            .iter()
            .enumerate()
            .map(|(i, s)| (s.path.as_os_str().as_encoded_bytes(), i))
            .collect();
        let places: HashMap<&str, usize> = cat
            .agents
            .iter()
            .enumerate()
            .map(|(i, a)| (a.id.as_str(), i))
            .collect();
        let mut marks = vec![Mark::default(); cat.skills.len()];
        for f in &all {
            if f.severity == Severity::Info || f.subject != findings::Subject::Skill {
                continue;
            }
            let Some(&i) = index.get(f.path.as_os_str().as_encoded_bytes()) else {
                continue;
            };
            let m = &mut marks[i];
            m.count += 1;
            m.worst = Some(m.worst.map_or(f.severity, |w| w.min(f.severity)));
            match f.agent.as_deref().and_then(|a| places.get(a)).copied() {
                Some(ai) => m.agents |= 1 << ai.min(63),
                None => m.general = true,
            }
        }
        Problems {
            findings: all,
            agents_widths: groups.iter().map(|_| Default::default()).collect(),
            collisions,
            groups,
            members,
            affected,
            agents,
            counts,
            marks,
        }
    }

    /// Whether skill `i` has an error or warning finding (for the catalog's agent `agent`, or
    /// one that concerns no agent in particular, when given).
    pub fn flagged(&self, i: usize, agent: Option<usize>) -> bool {
        self.marks.get(i).is_some_and(|m| match agent {
            _ if m.count == 0 => false,
            None => true,
            Some(a) => m.general || m.agents & (1 << a.min(63)) != 0,
        })
    }
}

/// One row of the skills table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub skill: usize,
}

/// A query and the skills it matched (under no filter) with their scores.
type SearchMemo = (String, Vec<(usize, u32)>);

/// What a new snapshot replaced in the explorer: the previous catalog and what the explorer made
/// from it. After a full rescan the new snapshot shares no skill with the old one, and freeing a
/// whole catalog of 10,000 skills takes tens of milliseconds, so `update` hands this to the run
/// loop ([`super::effects::Cmd::Release`]), which frees it on another thread. Dropped where it
/// is, it frees there.
#[derive(Default)]
// Most fields are held only to be freed with it.
#[allow(dead_code)]
pub struct Retired {
    catalog: Option<Arc<Catalog>>,
    problems: Option<Arc<Problems>>,
    listing: Option<Vec<ListingReport>>,
    collisions: Arc<Vec<Collision>>,
    searches: std::collections::VecDeque<SearchMemo>,
    /// Search texts of skills the new snapshot does not share (all of them after a full rescan).
    haystacks: Vec<Haystack>,
}

impl Retired {
    /// The catalog it holds (None: there was no snapshot before).
    pub fn catalog(&self) -> Option<&Arc<Catalog>> {
        self.catalog.as_ref()
    }

    /// Skills whose search text it holds (made for a snapshot that no longer shows them).
    pub fn derived(&self) -> usize {
        self.haystacks.len()
    }
}

impl std::fmt::Debug for Retired {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Retired")
            .field(
                "skills",
                &self.catalog.as_ref().map_or(0, |c| c.skills.len()),
            )
            .field("derived", &self.haystacks.len())
            .finish_non_exhaustive()
    }
}

/// An active filter that hides skills the search matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HiddenBy {
    /// `f`: problems or collisions only.
    Filter(Filter),
    /// `p`: one scope only.
    Scope(Scope),
}

/// Skills the search matched that the active filters hide: how many in all, and how many each
/// filter hides (a skill can fail several), in the order `f`, `p`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hidden {
    pub count: usize,
    pub by: Vec<(HiddenBy, usize)>,
}

/// How many recent queries are remembered (typing narrows from the longest remembered prefix;
/// erasing back to a remembered query does not score again).
const SEARCH_MEMOS: usize = 32;

/// The characters a skill's name (sanitized) and its root (as shown; 0 without one) take.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CellWidths {
    pub name: usize,
    pub root: usize,
}

/// What was kept for skill `s` of a snapshot from the one before it (the same `Arc`), taken
/// from `olds`: the skills before, each with what was kept for it, in the order both list their
/// skills (label, then path: `Catalog::skills`). So one walk over the two finds every shared
/// skill without a lookup; what `olds` holds for a skill that sorts before `s`, or in its place
/// (replaced by it), goes to `gone`. Called for each skill in order.
fn take_shared<'a, T>(
    olds: &mut std::iter::Peekable<impl Iterator<Item = (&'a Arc<Skill>, T)>>,
    s: &Arc<Skill>,
    mut gone: impl FnMut(T),
) -> Option<T> {
    while let Some((o, _)) = olds.peek() {
        if Arc::ptr_eq(o, s) {
            return olds.next().map(|(_, t)| t);
        }
        if (o.label(), &o.path) > (s.label(), &s.path) {
            return None;
        }
        if let Some((_, t)) = olds.next() {
            gone(t);
        }
    }
    None
}

/// A skill's search text and cell widths.
fn skill_text(s: &Skill, env: &Env) -> (Haystack, CellWidths) {
    let show = |p: &std::path::Path| crate::present::show_path(env, p);
    let haystack = Haystack::new(
        s.label(),
        &show(&s.path),
        s.description.as_deref().unwrap_or(""),
    );
    let widths = CellWidths {
        name: crate::sanitize::line(s.label()).chars().count(),
        root: s.root.as_deref().map_or(0, |r| show(r).chars().count()),
    };
    (haystack, widths)
}

/// The search texts and cell widths of the skills of a snapshot that the snapshot before it
/// does not share (all of them after a full rescan: 100k strings to lowercase and measure),
/// made where the snapshot is built, off the UI thread; in catalog order, `None` for a skill
/// the snapshot before shares (the explorer carries its text over). [`App::set_snapshot`]
/// makes what is missing itself.
#[derive(Debug, Clone, Default)]
pub struct SkillTexts(Vec<Option<(Haystack, CellWidths)>>);

impl SkillTexts {
    /// For each skill of `cat` that `before` does not hold (the same `Arc`, found by
    /// [`take_shared`]).
    pub fn new(cat: &Catalog, before: Option<&Catalog>, env: &Env) -> SkillTexts {
        let mut olds = before
            .map_or(&[][..], |b| &b.skills[..])
            .iter()
            .zip(std::iter::repeat(()))
            .peekable();
        SkillTexts(
            cat.skills
                .iter()
                .map(|s| {
                    take_shared(&mut olds, s, drop)
                        .is_none()
                        .then(|| skill_text(s, env))
                })
                .collect(),
        )
    }

    /// How many were made.
    pub fn made(&self) -> usize {
        self.0.iter().filter(|t| t.is_some()).count()
    }
}

pub struct App {
    pub models: Arc<Vec<AgentModel>>,
    pub env: Env,
    /// Where the journal of applied actions lives; None: [`crate::actions::data_dir`] (the
    /// `SKILLTUI_DATA_DIR` variable, else the platform's data folder). Tests set their own.
    pub data_dir: Option<PathBuf>,
    pub catalog: Option<Arc<Catalog>>,
    pub scan: ScanState,
    /// How far the first scan has come (shown in the header until its snapshot arrives).
    pub progress: Option<crate::scan::Counts>,
    /// The listing reports (Tokens tab), made the first time they are shown after a snapshot.
    listing: std::cell::OnceCell<Vec<ListingReport>>,
    /// Every model's label of at most 7 characters, all different, in model order (the
    /// Problems tab's agent lists): made the first time they are shown.
    agent_titles: std::cell::OnceCell<Vec<String>>,
    /// The snapshot's names with more than one copy (its [`Problems::collisions`]).
    pub collisions: Arc<Vec<Collision>>,

    pub tab: Tab,
    pub detail_tab: DetailTab,
    pub focus: Focus,
    pub help: bool,
    pub sort: Sort,
    pub filter: Filter,
    /// Index into `models` of the one agent shown, when filtered.
    pub agent_filter: Option<usize>,
    /// The agents shown as columns by default (indices into `models`: the config file's
    /// `[agents] show`, the agents in use on this machine or the seed agents); None: all.
    pub selection: Option<Vec<usize>>,
    /// `A`: every agent's column, whatever the selection.
    pub all_agents: bool,
    /// The first agent column shown (`<`/`>`), when not all fit beside the names.
    pub agent_offset: usize,
    /// Problems tab: only the causes that break a skill for some agent (error findings: an
    /// agent does not load it, or it is not established that it does).
    pub problems_broken: bool,
    pub scope_filter: Option<Scope>,
    pub search: Search,

    pub rows: Vec<Row>,
    /// What the search matches for each skill (name, shown path, description), made once per
    /// snapshot.
    pub haystacks: Vec<Haystack>,
    /// Per skill of the snapshot, the characters its name and its root take in the table (made
    /// once per snapshot, as the haystacks: the table sizes its columns by them).
    pub cell_widths: Vec<CellWidths>,
    /// The widest name and root among the rows ([`App::refresh_rows`]; None: no row).
    pub row_widths: Option<CellWidths>,
    /// Matches of the search that the active filters hide (empty without a query).
    pub hidden: Hidden,
    /// The snapshot's findings, grouped (header counts, Problems tab, `f` filter): made once
    /// per snapshot, off the UI thread by the findings worker (or the previous snapshot's until
    /// they come: `findings_shown`).
    pub problems: Arc<Problems>,
    /// Whether `problems` are the snapshot's own, or older ones shown until they arrive.
    pub findings_shown: FindingsShown,
    /// Cursor in the skills of the selected group (Problems tab, detail pane).
    pub problem_cursor: usize,
    /// Where the Problems tab was (group, skill) when Enter opened a skill: `6` returns there.
    pub problem_return: Option<(usize, usize)>,
    /// The last searches and the skills they matched: a query that only grows rescans those only.
    searches: std::collections::VecDeque<SearchMemo>,
    /// The selected skill, by path: survives re-sorting, filtering and new snapshots.
    pub selected: Option<PathBuf>,
    pub cursor: usize,
    pub offset: usize,
    pub detail_scroll: u16,
    /// Cursor in the side lists of the Collisions, Agents and Tokens tabs, and the Roots table.
    pub side_cursor: usize,
    pub side_scroll: u16,

    pub width: u16,
    pub height: u16,
    pub spinner: usize,
    pub quit: bool,

    /// Paths changed by the last update, marked for a few seconds.
    pub changed: foldhash::HashSet<PathBuf>,
    /// Ticks (100 ms) left before the change marks fade.
    pub changed_ticks: u16,
    /// Whether the messages updated since the last frame changed what the next one shows: set
    /// by `update` (every message but a tick that moves nothing on screen), taken by the run
    /// loop, which draws only then.
    pub frame_stale: bool,
    /// The last watcher update: generation, how many changed, ticks since.
    pub last_update: Option<(u64, usize, u64)>,
    /// The watcher's state, when it is not simply running.
    pub watch_note: Option<String>,

    /// The action overlay (rename, move, fix, win, delete, undo, pickers), when open.
    pub action: Option<ActionUi>,
    /// The job running on the worker (planning, previewing, applying…), with its spinner;
    /// keys keep acting meanwhile, Esc cancels it.
    pub busy: Option<Busy>,
    /// The id the next job gets.
    pub next_job: u64,
    /// Journal ids of the actions applied in this session, oldest first (`u` undoes the last).
    pub session_actions: Vec<String>,
    /// A transient message in the footer (a success, what `y` copied, a refusal of a key): it
    /// goes at the next key or after a few seconds.
    pub note: Option<Note>,
    /// The help overlay shows the evidence legend (`?` twice) instead of the keys.
    pub help_legend: bool,
    /// The key table (the defaults with the config file's `[keys]` over them).
    pub keymap: std::sync::Arc<super::keys::Keymap>,
    /// What is wrong with the config file (shown in the header; the defaults are in use).
    pub config_note: Option<String>,
}

/// The job the explorer waits for.
#[derive(Debug, Clone)]
pub struct Busy {
    pub id: u64,
    /// What it does, e.g. "finding the smallest change…".
    pub what: String,
    pub cancel: Arc<std::sync::atomic::AtomicBool>,
    /// Esc may drop it (planning, previewing; not applying or undoing).
    pub cancellable: bool,
}

/// A transient message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub text: String,
    pub kind: NoteKind,
    /// Ticks (100 ms) left before it goes.
    pub ticks: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteKind {
    Info,
    Success,
    Error,
}

/// Ticks a second: the run loop ticks after this long without a message
/// ([`TICK`]); the tick counts below and the "updated Ns ago" age are in ticks.
pub const TICKS_PER_SECOND: u16 = 10;
/// The time between two ticks.
pub const TICK: std::time::Duration =
    std::time::Duration::from_millis(1000 / TICKS_PER_SECOND as u64);

/// How long a transient message stays (in 100 ms ticks) when no key is pressed.
pub const NOTE_TICKS: u16 = 40;

/// What choosing an entry of a picker does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// Plan and preview this request.
    Request(crate::actions::Request),
    /// Show one agent's column (an index into `models`), or all.
    AgentFilter(Option<usize>),
    /// Make this copy win for the agent (`models` index): plan it.
    WinFor { skill: PathBuf, agent: usize },
    /// Share these skills with the agent (an id): plan it.
    Share { skills: Vec<PathBuf>, agent: String },
    /// Act on this copy of a colliding name.
    Copy {
        skill: PathBuf,
        action: super::keys::Action,
    },
}

/// The action overlay's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionUi {
    /// Typing a new name (`R`); Tab toggles renaming the folder too. `error` is what is wrong
    /// with the name as typed (checked at each key), or why the last attempt was refused.
    Input {
        skill: PathBuf,
        text: String,
        folder: bool,
        error: Option<String>,
    },
    /// Choosing one of several entries (roots for `M`, quick fixes for `F`, agents for `a` and
    /// `W`, copies on the Collisions tab).
    Choose {
        title: String,
        options: Vec<(String, Choice)>,
        cursor: usize,
    },
    /// A plan with its diff and the verdicts before and after; `y`/Enter applies.
    Preview {
        plan: Box<crate::actions::Plan>,
        lines: Vec<String>,
        scroll: u16,
    },
    /// `W`'s candidate plans for a copy and an agent, best first (`view::plans`); Enter
    /// previews the selected one (its diff and the verdicts after, from the planner's
    /// prediction), Enter again applies it, Esc backs out one step.
    Plans {
        skill: PathBuf,
        agent: String,
        list: PlanList,
        cursor: usize,
        /// The selected plan's preview lines and scroll, once asked for.
        preview: Option<(Vec<String>, u16)>,
    },
    /// A refusal or failure; any key closes it.
    Message { title: String, text: String },
}

/// The planner's candidates and the catalog they were judged against (shared, never copied;
/// equal when they are the same list).
#[derive(Debug, Clone)]
pub struct PlanList {
    pub before: Arc<Catalog>,
    pub candidates: Arc<Vec<crate::actions::planner::Candidate>>,
}

impl PartialEq for PlanList {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.candidates, &other.candidates) && Arc::ptr_eq(&self.before, &other.before)
    }
}

impl Eq for PlanList {}

/// How long the change marks stay (in 100 ms ticks).
pub const CHANGE_MARK_TICKS: u16 = 30;

impl App {
    pub fn new(models: Arc<Vec<AgentModel>>, env: Env, width: u16, height: u16) -> App {
        App {
            models,
            env,
            data_dir: None,
            catalog: None,
            scan: ScanState::Scanning,
            progress: None,
            listing: std::cell::OnceCell::new(),
            agent_titles: std::cell::OnceCell::new(),
            collisions: Default::default(),
            tab: Tab::Skills,
            detail_tab: DetailTab::Why,
            focus: Focus::List,
            help: false,
            sort: Sort::Name,
            filter: Filter::All,
            agent_filter: None,
            selection: None,
            all_agents: false,
            agent_offset: 0,
            problems_broken: false,
            scope_filter: None,
            search: Search::default(),
            rows: Vec::new(),
            haystacks: Vec::new(),
            cell_widths: Vec::new(),
            row_widths: None,
            problems: Arc::new(Problems::default()),
            findings_shown: FindingsShown::Own,
            problem_cursor: 0,
            problem_return: None,
            searches: Default::default(),
            hidden: Hidden::default(),
            selected: None,
            cursor: 0,
            offset: 0,
            detail_scroll: 0,
            side_cursor: 0,
            side_scroll: 0,
            width,
            height,
            spinner: 0,
            quit: false,
            changed: Default::default(),
            changed_ticks: 0,
            frame_stale: true,
            last_update: None,
            watch_note: None,
            action: None,
            busy: None,
            next_job: 0,
            session_actions: Vec::new(),
            note: None,
            help_legend: false,
            keymap: Default::default(),
            config_note: None,
        }
    }

    /// Installs a new snapshot and recomputes everything derived from it (its findings too:
    /// [`App::set_snapshot`] takes them made elsewhere).
    pub fn set_catalog(&mut self, cat: Arc<Catalog>) -> Retired {
        self.set_snapshot(cat, None, None)
    }

    /// Installs a new snapshot with its findings (or, when they are still being made, what is
    /// shown until they come: [`SnapshotFindings::Coming`]) and the search texts of its new
    /// skills (made where the snapshot was built; made here when none are given or they are
    /// not the snapshot's). Returns what it replaced, for the caller to free where it does not
    /// hold up the explorer ([`Retired`]).
    pub fn set_snapshot(
        &mut self,
        cat: Arc<Catalog>,
        findings: Option<SnapshotFindings>,
        texts: Option<SkillTexts>,
    ) -> Retired {
        let mut retired = Retired::default();
        match findings {
            Some(SnapshotFindings::Coming {
                collisions,
                same_skills,
            }) => {
                self.findings_shown = match self.findings_shown {
                    FindingsShown::Coming => FindingsShown::Coming,
                    _ if self.catalog.is_none() => FindingsShown::Coming,
                    FindingsShown::Previous { same_skills: was } => FindingsShown::Previous {
                        same_skills: was && same_skills,
                    },
                    FindingsShown::Failed { previous: false } => FindingsShown::Coming,
                    FindingsShown::Failed { previous: true } => {
                        FindingsShown::Previous { same_skills: false }
                    }
                    FindingsShown::Own => FindingsShown::Previous {
                        same_skills: same_skills && self.problems.marks.len() == cat.skills.len(),
                    },
                };
                retired.collisions = std::mem::replace(&mut self.collisions, collisions);
            }
            made => {
                let problems = match made {
                    Some(SnapshotFindings::Made(p)) if p.marks.len() == cat.skills.len() => p,
                    _ => Arc::new(Problems::new(&cat, &self.models)),
                };
                (retired.problems, retired.collisions) = self.take_problems(problems);
            }
        }
        retired.listing = std::mem::take(&mut self.listing).into_inner();
        retired.searches = std::mem::take(&mut self.searches);
        let mut made = texts
            .filter(|t| t.0.len() == cat.skills.len())
            .map(|t| t.0)
            .unwrap_or_default();
        let all_made = !made.is_empty() && made.iter().all(Option::is_some);
        // Skills the new snapshot shares with the previous one (unchanged since) keep their
        // search text: an edit of one file makes one new string, not one per skill
        // ([`take_shared`]).
        let old = self.catalog.clone().filter(|old| {
            !all_made
                && old.skills.len() == self.haystacks.len()
                && old.skills.len() == self.cell_widths.len()
        });
        let (old_haystacks, old_widths) = match old {
            Some(_) => (
                std::mem::take(&mut self.haystacks),
                std::mem::take(&mut self.cell_widths),
            ),
            None => Default::default(),
        };
        let mut olds = old
            .as_deref()
            .map_or(&[][..], |c| &c.skills[..])
            .iter()
            .zip(old_haystacks.into_iter().zip(old_widths))
            .peekable();
        let mut gone = Vec::new();
        let (haystacks, cell_widths) = cat
            .skills
            .iter()
            .enumerate()
            .map(|(i, s)| {
                take_shared(&mut olds, s, |(haystack, _)| gone.push(haystack))
                    .or_else(|| made.get_mut(i).and_then(Option::take))
                    .unwrap_or_else(|| skill_text(s, &self.env))
            })
            .unzip();
        // What was made for skills the new snapshot does not share (all of them after a full
        // rescan; the old list whole when none could be carried over).
        gone.extend(olds.map(|(_, (haystack, _))| haystack));
        retired.haystacks = std::mem::replace(&mut self.haystacks, haystacks);
        retired.haystacks.extend(gone);
        self.cell_widths = cell_widths;
        retired.catalog = self.catalog.replace(cat);
        self.scan = ScanState::Ready;
        self.progress = None;
        self.refresh_rows();
        retired
    }

    /// The snapshot's findings, made after it off the UI thread (`Msg::Findings`), for the
    /// catalog `of`: taken when it is the one shown, else returned (a newer snapshot's come
    /// next). Returns what it replaced, for the caller to free.
    pub fn set_findings(
        &mut self,
        of: &std::sync::Weak<Catalog>,
        problems: Arc<Problems>,
    ) -> Retired {
        let mut retired = Retired::default();
        let fits = self
            .catalog
            .as_ref()
            .is_some_and(|c| c.skills.len() == problems.marks.len());
        if !self.shows(of) || !fits {
            retired.problems = Some(problems);
            return retired;
        }
        (retired.problems, retired.collisions) = self.take_problems(problems);
        self.refresh_rows();
        retired
    }

    /// Whether `of` is the snapshot shown (findings sent for another one are not its own).
    pub fn shows(&self, of: &std::sync::Weak<Catalog>) -> bool {
        self.catalog
            .as_ref()
            .is_some_and(|c| std::ptr::eq(of.as_ptr(), Arc::as_ptr(c)))
    }

    /// Shows `problems` as the snapshot's own findings (and their collisions); the selected
    /// cause stays selected when it is still there. Returns the findings and collisions it
    /// replaced.
    fn take_problems(
        &mut self,
        problems: Arc<Problems>,
    ) -> (Option<Arc<Problems>>, Arc<Vec<Collision>>) {
        // The selected group stays selected when it is still there (by severity, code, cause).
        let key = |g: &Group| (g.severity, g.code, g.cause.clone());
        let was = self.problems.groups.get(self.side_cursor).map(key);
        if self.tab == Tab::Problems {
            match was.and_then(|k| problems.groups.iter().position(|g| key(g) == k)) {
                Some(i) => {
                    if i != self.side_cursor {
                        self.problem_cursor = 0;
                    }
                    self.side_cursor = i;
                }
                None => {
                    self.side_cursor = self
                        .side_cursor
                        .min(problems.groups.len().saturating_sub(1));
                    self.problem_cursor = 0;
                }
            }
            let n = problems.affected.get(self.side_cursor).map_or(0, Vec::len);
            self.problem_cursor = self.problem_cursor.min(n.saturating_sub(1));
        }
        self.findings_shown = FindingsShown::Own;
        let collisions = problems.collisions.clone();
        (
            Some(std::mem::replace(&mut self.problems, problems)),
            std::mem::replace(&mut self.collisions, collisions),
        )
    }

    /// Whether what the findings shown say of each skill (by its index) applies to the
    /// snapshot's skills: they are its own, or an edit in place's predecessor's.
    pub fn findings_fit_skills(&self) -> bool {
        matches!(
            self.findings_shown,
            FindingsShown::Own | FindingsShown::Previous { same_skills: true }
        )
    }

    /// Whether counts and causes are shown: the snapshot's findings, or ones before them.
    pub fn findings_counted(&self) -> bool {
        !matches!(
            self.findings_shown,
            FindingsShown::Coming | FindingsShown::Failed { previous: false }
        )
    }

    /// Whether the snapshot's findings are being made (the findings worker sends them).
    pub fn findings_pending(&self) -> bool {
        matches!(
            self.findings_shown,
            FindingsShown::Coming | FindingsShown::Previous { .. }
        )
    }

    /// Skill `i`'s error and warning findings (none while the findings shown do not fit the
    /// snapshot's skills: [`App::findings_fit_skills`]).
    pub fn mark(&self, i: usize) -> Mark {
        match self.findings_fit_skills() {
            true => self.problems.marks.get(i).copied().unwrap_or_default(),
            false => Mark::default(),
        }
    }

    /// Whether skill `i` has an error or warning finding (for the catalog's agent `agent`, or
    /// one that concerns no agent in particular, when given), as [`App::mark`] sees it.
    pub fn flagged(&self, i: usize, agent: Option<usize>) -> bool {
        self.findings_fit_skills() && self.problems.flagged(i, agent)
    }

    /// Every model's label of at most 7 characters, all different, in model order (made once:
    /// the models do not change).
    pub fn agent_titles(&self) -> &[String] {
        self.agent_titles.get_or_init(|| {
            let all: Vec<&AgentModel> = self.models.iter().collect();
            crate::present::agent_labels(&all, 7)
        })
    }

    /// The listing each agent sends the model, per agent (computed once per snapshot, when
    /// first asked for).
    pub fn listing(&self) -> &[ListingReport] {
        self.listing.get_or_init(|| match &self.catalog {
            Some(cat) => listing::reports(cat, &self.models),
            None => Vec::new(),
        })
    }

    pub fn skill(&self, i: usize) -> Option<&Skill> {
        self.catalog
            .as_ref()
            .and_then(|c| c.skills.get(i))
            .map(|s| &**s)
    }

    /// The source `o` and `y` act on: the decisive reason of the selected skill's verdict for
    /// the chosen agent (`a`), or else for the first agent with a problem, or else the first
    /// agent; its first source with a URL, or else its first source. With the reason's rule.
    pub fn current_source(&self) -> Option<(String, crate::agents::Source)> {
        let s = self.current()?;
        let shown: Vec<&crate::resolve::Verdict> = s
            .verdicts
            .iter()
            .enumerate()
            .filter(|(i, _)| self.agent_filter.is_none_or(|a| a == *i))
            .map(|(_, (_, v))| v)
            .collect();
        let v = shown
            .iter()
            .find(|v| v.status.is_problem())
            .or(shown.first())?;
        let r = v.decisive()?;
        let src = r
            .sources()
            .iter()
            .find(|s| s.url.is_some())
            .or(r.sources().iter().next())?;
        Some((r.rule.to_string(), src.clone()))
    }

    /// The skill under the cursor.
    pub fn current(&self) -> Option<&Skill> {
        self.rows.get(self.cursor).and_then(|r| self.skill(r.skill))
    }

    /// Rebuilds the table rows from filter, sort and search, keeping the selection.
    pub fn refresh_rows(&mut self) {
        let Some(cat) = self.catalog.clone() else {
            self.rows.clear();
            self.row_widths = None;
            return;
        };
        let searching = self.search.active();
        let matched = self.search_matches(cat.skills.len());
        let (kept, hidden) = self.filtered(&cat, matched);
        // What the filters hide is counted only for a search (the footer says it).
        self.hidden = if searching { hidden } else { Hidden::default() };
        let mut rows: Vec<(u32, Row)> = kept
            .into_iter()
            .map(|(i, score)| (score, Row { skill: i }))
            .collect();
        self.sort_rows(&cat, &mut rows, searching);
        self.rows = rows.into_iter().map(|(_, r)| r).collect();
        self.row_widths = self
            .rows
            .iter()
            .filter_map(|r| self.cell_widths.get(r.skill))
            .fold(None, |acc: Option<CellWidths>, w| {
                Some(match acc {
                    None => *w,
                    Some(a) => CellWidths {
                        name: a.name.max(w.name),
                        root: a.root.max(w.root),
                    },
                })
            });
        self.keep_selection(&cat);
        self.clamp_offset();
    }

    /// The skills the search matches (every skill, score 0, without a search), with their
    /// scores. The search runs under no filter (so that what the filters hide can be counted);
    /// the same query again is the remembered result, and a query that extends a remembered
    /// one can only match what that one matched.
    fn search_matches(&mut self, skills: usize) -> Vec<(usize, u32)> {
        let query = self.search.query.clone();
        let searching = self.search.active();
        if let Some((_, m)) = self.searches.iter().find(|(q, _)| *q == query) {
            return m.clone();
        }
        let from = self
            .searches
            .iter()
            .filter(|(q, _)| !q.trim().is_empty() && query.starts_with(q.as_str()))
            .max_by_key(|(q, _)| q.len());
        let matched: Vec<(usize, u32)> = match (searching, from) {
            (false, _) => (0..skills).map(|i| (i, 0)).collect(),
            (true, Some((_, m))) => m
                .iter()
                .filter_map(|&(i, _)| Some((i, self.search.score(&self.haystacks[i])?)))
                .collect(),
            (true, None) => (0..skills)
                .filter_map(|i| Some((i, self.search.score(&self.haystacks[i])?)))
                .collect(),
        };
        if searching {
            if self.searches.len() >= SEARCH_MEMOS {
                self.searches.pop_front();
            }
            self.searches.push_back((query, matched.clone()));
        }
        matched
    }

    /// The matches the filter and the scope keep, and what they hide (counted by each).
    fn filtered(&self, cat: &Catalog, matched: Vec<(usize, u32)>) -> (Vec<(usize, u32)>, Hidden) {
        let colliding: foldhash::HashSet<usize> = self
            .collisions
            .iter()
            .flat_map(|c| c.skills.iter().copied())
            .collect();
        // The agent shown (`a`), as an index into the catalog's agents (the findings' order).
        let agent = self
            .agent_filter
            .and_then(|i| cat.agents.iter().position(|a| a.id == self.models[i].id));
        let mut hidden = Hidden::default();
        let mut by_filter = 0;
        let mut by_scope = 0;
        let mut kept = Vec::with_capacity(matched.len());
        for (i, score) in matched {
            let s = &cat.skills[i];
            let scope_hides = self.scope_filter.is_some_and(|scope| s.scope != scope);
            let filter_hides = match self.filter {
                Filter::All => false,
                // An error or warning finding (for the agent shown), as `check` counts.
                Filter::Problems => !self.flagged(i, agent),
                Filter::Collisions => !colliding.contains(&i),
            };
            if scope_hides || filter_hides {
                hidden.count += 1;
                by_filter += usize::from(filter_hides);
                by_scope += usize::from(scope_hides);
                continue;
            }
            kept.push((i, score));
        }
        if by_filter > 0 {
            hidden.by.push((HiddenBy::Filter(self.filter), by_filter));
        }
        if let Some(scope) = self.scope_filter
            && by_scope > 0
        {
            hidden.by.push((HiddenBy::Scope(scope), by_scope));
        }
        (kept, hidden)
    }

    /// Rows in the sort chosen, best search matches first while searching. Problems: most
    /// severe first, then the most error and warning findings.
    fn sort_rows(&self, cat: &Catalog, rows: &mut [(u32, Row)], searching: bool) {
        let weight = |i: usize| {
            let m = self.mark(i);
            (m.worst.map_or(3, |w| w as u8), std::cmp::Reverse(m.count))
        };
        // A catalog lists its skills by label and path: their indices are in that order, and
        // are compared instead (no skill read, no path compared: 100k rows at scale).
        rows.sort_by(|(sa, a), (sb, b)| {
            let by_search = if searching {
                sb.cmp(sa)
            } else {
                std::cmp::Ordering::Equal
            };
            by_search.then_with(|| match self.sort {
                Sort::Name => a.skill.cmp(&b.skill),
                Sort::Problems => weight(a.skill)
                    .cmp(&weight(b.skill))
                    .then(a.skill.cmp(&b.skill)),
                Sort::Scope => {
                    let scope = |i: usize| cat.skills[i].scope;
                    (scope(a.skill), a.skill).cmp(&(scope(b.skill), b.skill))
                }
            })
        });
    }

    /// Keeps the selected skill if it is still listed; else stays at the same position.
    fn keep_selection(&mut self, cat: &Catalog) {
        // By the path's bytes first (a comparison of components for every row is slow at
        // 100k), then as paths.
        let found = self.selected.as_ref().and_then(|sel| {
            let path = |r: &Row| &cat.skills[r.skill].path;
            self.rows
                .iter()
                .position(|r| path(r).as_os_str() == sel.as_os_str())
                .or_else(|| self.rows.iter().position(|r| path(r) == sel))
        });
        match found {
            Some(i) => self.cursor = i,
            None => {
                self.cursor = self.cursor.min(self.rows.len().saturating_sub(1));
                self.selected = self.current().map(|s| s.path.clone());
            }
        }
    }

    /// Character indices of a row's name the search matched (for highlighting the drawn rows).
    pub fn hits(&self, row: &Row) -> Vec<u32> {
        if !self.search.active() {
            return Vec::new();
        }
        self.skill(row.skill)
            .map(|s| self.search.hits(s.label()))
            .unwrap_or_default()
    }

    /// Rows the skills table shows at once (from the layout).
    pub fn list_height(&self) -> usize {
        super::layout::list_rows(self)
    }

    /// Keeps the cursor inside the visible window of the table.
    pub fn clamp_offset(&mut self) {
        let h = self.list_height().max(1);
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + h {
            self.offset = self.cursor + 1 - h;
        }
        let max_offset = self.rows.len().saturating_sub(h);
        self.offset = self.offset.min(max_offset);
    }

    pub fn select(&mut self, i: usize) {
        if self.rows.is_empty() {
            return;
        }
        let i = i.min(self.rows.len() - 1);
        if i != self.cursor {
            self.detail_scroll = 0;
        }
        self.cursor = i;
        self.selected = self.current().map(|s| s.path.clone());
        self.clamp_offset();
    }

    /// The group selected in the Problems tab (none while the findings shown do not fit the
    /// snapshot's skills: its skills would be other ones).
    pub fn current_group(&self) -> Option<(&Group, &[Affected])> {
        if self.side_cursor >= self.problem_groups() || !self.findings_fit_skills() {
            return None;
        }
        let g = self.problems.groups.get(self.side_cursor)?;
        let a = self.problems.affected.get(self.side_cursor)?;
        Some((g, a))
    }

    /// Shows a skill in the Skills tab with its Why pane; filters and search that hide it are
    /// cleared. False when the skill is not in the snapshot.
    pub fn open_skill(&mut self, skill: usize) -> bool {
        let Some(path) = self.skill(skill).map(|s| s.path.clone()) else {
            return false;
        };
        if self.tab == Tab::Problems {
            self.problem_return = Some((self.side_cursor, self.problem_cursor));
        }
        self.tab = Tab::Skills;
        if !self.rows.iter().any(|r| r.skill == skill) {
            self.search.editing = false;
            self.search.set_query(String::new());
            self.filter = Filter::All;
            self.scope_filter = None;
            self.agent_filter = None;
            self.refresh_rows();
        }
        let Some(i) = self.rows.iter().position(|r| r.skill == skill) else {
            return false;
        };
        self.select(i);
        self.selected = Some(path);
        self.detail_tab = DetailTab::Why;
        self.detail_scroll = 0;
        self.focus = Focus::Detail;
        self.side_cursor = 0;
        true
    }

    /// Of several copies of one name, the one `W` most likely means: the copy another copy
    /// shadows for the most shown agents; then a project copy shadowed for some agent (the copy
    /// a user usually wants to win); then the copy shadowed for the most agents; ties go to the
    /// first. `None` when no copy is shadowed for any agent (then nothing is preferred).
    pub fn shadowed_copy(&self, copies: &[&Skill]) -> Option<usize> {
        let shown: Vec<&str> = self
            .shown_agents()
            .into_iter()
            .filter_map(|i| self.models.get(i).map(|m| m.id.as_str()))
            .collect();
        let losses = |s: &Skill| {
            let shadowed = s
                .verdicts
                .iter()
                .filter(|(_, v)| v.status == crate::resolve::Status::Shadowed);
            let for_shown = shadowed
                .clone()
                .filter(|(a, _)| shown.contains(&&**a))
                .count();
            (for_shown, s.scope == Scope::Project, shadowed.count())
        };
        let mut best: Option<(usize, (usize, bool, usize))> = None;
        for (i, s) in copies.iter().enumerate() {
            let l = losses(s);
            if l.2 > 0 && best.is_none_or(|(_, b)| l > b) {
                best = Some((i, l));
            }
        }
        best.map(|(i, _)| i)
    }

    /// After a new search: when the best match is a name with several copies, selects the copy
    /// another one shadows (`shadowed_copy`) — the one a collision job is about.
    pub fn select_shadowed_match(&mut self) {
        if !self.search.active() || self.rows.is_empty() {
            return;
        }
        let Some(cat) = self.catalog.clone() else {
            return;
        };
        let top = cat.skills[self.rows[0].skill].label();
        // The rows of that name (a search may rank its copies apart).
        let (rows, copies): (Vec<usize>, Vec<&Skill>) = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| (i, &*cat.skills[r.skill]))
            .filter(|(_, s)| s.label() == top)
            .unzip();
        if copies.len() < 2 {
            return;
        }
        if let Some(i) = self.shadowed_copy(&copies) {
            self.select(rows[i]);
        }
    }

    /// Agents shown as columns: the filtered one (`a`); every agent (`A`); else the selection
    /// (the agents in use, the config's, or the seed agents), else all.
    /// Agents the model knows whose columns are not shown (the default selection, `a`).
    pub fn hidden_agents(&self) -> usize {
        self.models.len().saturating_sub(self.shown_agents().len())
    }

    pub fn shown_agents(&self) -> Vec<usize> {
        match (self.agent_filter, &self.selection) {
            (Some(i), _) => vec![i],
            (None, Some(sel)) if !self.all_agents && !sel.is_empty() => sel.clone(),
            _ => (0..self.models.len()).collect(),
        }
    }

    /// Sets the default column set from agent ids (unknown ids are passed over).
    pub fn select_agents(&mut self, ids: &[String]) {
        let sel: Vec<usize> = ids
            .iter()
            .filter_map(|id| self.models.iter().position(|m| &m.id == id))
            .collect();
        self.selection = (sel.len() < self.models.len()).then_some(sel);
    }

    /// The causes the Problems tab lists: all, or with `problems_broken` the error causes
    /// (most severe come first, so they are a prefix of the groups).
    pub fn problem_groups(&self) -> usize {
        let g = &self.problems.groups;
        if self.problems_broken {
            g.iter()
                .take_while(|g| g.severity == Severity::Error)
                .count()
        } else {
            g.len()
        }
    }

    /// The skills broken for some agent: the distinct skills of the error causes.
    pub fn broken_skills(&self) -> usize {
        let p = &self.problems;
        let mut seen = std::collections::BTreeSet::new();
        for (g, a) in p.groups.iter().zip(&p.affected) {
            if g.severity == Severity::Error {
                seen.extend(a.iter().map(|a| a.skill));
            }
        }
        seen.len()
    }

    /// Length of the list the side cursor moves in, for the current tab.
    pub fn side_len(&self) -> usize {
        match self.tab {
            Tab::Collisions => self.collisions.len(),
            Tab::Agents | Tab::Tokens => self.models.len(),
            Tab::Roots => self.catalog.as_ref().map_or(0, |c| c.roots.len()),
            Tab::Problems => self.problem_groups(),
            Tab::Skills => 0,
        }
    }
}

/// Names (frontmatter name, else folder) held by more than one SKILL.md, in name order. A
/// catalog lists its skills by label ([`Catalog::skills`]): a name's copies are neighbours, found
/// in one pass, without a map of every name (100k at scale).
pub fn collisions(cat: &Catalog) -> Vec<Collision> {
    let mut out = Vec::new();
    let mut at = 0;
    for run in cat.skills.chunk_by(|a, b| a.label() == b.label()) {
        if run.len() > 1 {
            out.push(Collision {
                name: run[0].label().to_string(),
                skills: (at..at + run.len()).collect(),
            });
        }
        at += run.len();
    }
    out
}
