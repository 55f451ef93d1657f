//! Findings: what is wrong in a catalog, for which agent, why, and what to do — as data.
//!
//! [`findings`] turns a [`Catalog`] into [`Finding`]s; every front end renders these and none
//! assembles its own. Severity follows the consequence (README, "Severity by consequence"):
//!
//! - *error*: what an agent loads differs from the user's evident intent — a copy rejected,
//!   shadowed, disabled by a setting, not found inside a root the agent does scan, a verdict the
//!   research cannot decide (`unknown`), or a skill no agent sees at all;
//! - *warning*: a spec problem that some agent model enforces (its rule rejects, warns or
//!   truncates), a file problem every agent meets, or a body reference that is missing;
//! - *info*: spec problems no agent acts on, and a root an agent never reads (one finding per
//!   root and agent, with how to share those skills with that agent).
//!
//! A finding's [`Cause`] is the shared fact behind it (a rule id × a root, or a spec code);
//! [`group`] gathers findings by cause into [`Group`]s, most severe first.

use crate::agents::{AgentModel, MissingDescription, MissingName, Posture, RuleId, Scope, Topic};
use crate::catalog::{Catalog, Skill};
use crate::resolve::{Status, Verdict};
use crate::spec::ProblemCode;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How much a finding matters; ordered from most to least severe.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    strum::IntoStaticStr,
    strum::Display,
    strum::EnumString,
    strum::EnumIter,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// `error`, `warning` or `info`.
    pub fn parse(s: &str) -> Option<Severity> {
        s.parse().ok()
    }

    pub const ALL: [Severity; 3] = [Severity::Error, Severity::Warning, Severity::Info];
}

/// What kind of finding it is: an agent's verdict on a skill (or a root), or a problem of the
/// skill file itself ([`Code::Spec`]). The kebab-case string form is stable: scripts depend on
/// it. A spec problem's string is its [`ProblemCode`]'s; [`Code::all`] lists the verdict codes
/// first, then every problem code in [`ProblemCode`]'s order (the derived order is the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// Another copy takes this skill's name for the agent.
    Shadowed,
    /// The agent reaches the file and refuses it.
    Rejected,
    /// One of the agent's own settings disables the skill.
    Disabled,
    /// A deciding rule is not established by the research.
    Unknown,
    /// Inside a root the agent scans, but never reached (too deep, inside another skill, …).
    NotFound,
    /// No agent sees the skill at all.
    Invisible,
    /// A root (with its skills) that an agent never reads.
    RootNotScanned,
    /// The catch-all for a spec problem with no code of its own. No finding carries it (every
    /// [`ProblemCode`] is a [`Code::Spec`]); the string `spec-other` and its SARIF rule stay
    /// stable.
    SpecOther,
    /// A problem of the skill file: the spec's, the file's or the frontmatter's, or a missing
    /// body reference.
    Spec(ProblemCode),
}

impl Code {
    /// The codes that are not spec problems, in [`Code::all`] order.
    const VERDICTS: [Code; 8] = [
        Code::Shadowed,
        Code::Rejected,
        Code::Disabled,
        Code::Unknown,
        Code::NotFound,
        Code::Invisible,
        Code::RootNotScanned,
        Code::SpecOther,
    ];

    /// The stable string form.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Shadowed => "shadowed",
            Code::Rejected => "rejected",
            Code::Disabled => "disabled",
            Code::Unknown => "unknown",
            Code::NotFound => "not-found",
            Code::Invisible => "invisible",
            Code::RootNotScanned => "root-not-scanned",
            Code::SpecOther => "spec-other",
            Code::Spec(p) => p.as_str(),
        }
    }

    /// The code for a stable string (a spec problem code or a verdict code).
    pub fn parse(s: &str) -> Option<Code> {
        Code::all().find(|c| c.as_str() == s)
    }

    /// Every code: the verdict codes, then every spec problem code in [`ProblemCode`]'s order.
    pub fn all() -> impl Iterator<Item = Code> {
        Code::VERDICTS
            .into_iter()
            .chain(ProblemCode::all().map(Code::Spec))
    }
}

impl From<ProblemCode> for Code {
    fn from(p: ProblemCode) -> Code {
        Code::Spec(p)
    }
}

impl std::str::FromStr for Code {
    type Err = strum::ParseError;

    fn from_str(s: &str) -> Result<Code, strum::ParseError> {
        Code::parse(s).ok_or(strum::ParseError::VariantNotFound)
    }
}

impl From<Code> for &'static str {
    fn from(c: Code) -> &'static str {
        c.as_str()
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

impl AsRef<str> for Code {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// What a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Subject {
    /// `path` is a SKILL.md (or a loose `*.md` an agent loads).
    Skill,
    /// `path` is a root folder.
    Root,
}

/// The shared fact behind a finding: the rule that decided (`claude-code/not_roots.agents-skills`,
/// `copilot-cli/precedence.order`, or `spec/<code>` for the specification) and, where the
/// fact is about a place, the root it applies to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Cause {
    pub rule: RuleId,
    #[serde(serialize_with = "crate::sanitize::lossy_path::opt")]
    pub root: Option<PathBuf>,
}

impl Cause {
    /// `rule × root`, or the rule alone.
    pub fn id(&self) -> String {
        match &self.root {
            Some(r) => format!("{} × {}", self.rule, r.display()),
            None => self.rule.to_string(),
        }
    }
}

/// What to do about a finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// One sentence for people.
    pub text: String,
    /// The code of a quick fix (`skilltui fix SKILL --only CODE`) where one exists.
    pub quick_fix: Option<&'static str>,
    /// A root folder the fix moves or links skills into, where it names one.
    #[serde(serialize_with = "crate::sanitize::lossy_path::opt")]
    pub target: Option<PathBuf>,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub subject: Subject,
    /// The skill file or root folder.
    #[serde(serialize_with = "crate::sanitize::lossy_path::path")]
    pub path: PathBuf,
    /// The agent concerned; none for spec findings and skills no agent sees.
    pub agent: Option<String>,
    pub severity: Severity,
    pub code: Code,
    pub cause: Cause,
    pub message: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub fix: Option<Fix>,
    /// Where the deciding rule comes from, and its evidence label (agent findings).
    pub source: Option<Arc<str>>,
    pub evidence: Option<Arc<str>>,
    /// For a spec problem, the agent rules that act on it (`codex/fields.metadata`): why it is
    /// a warning rather than info.
    pub enforced_by: Vec<String>,
    /// Skills the finding covers: 1 for a skill, the skills under the root for a root.
    pub skills: usize,
}

/// Findings that share a cause (and code and severity), with a few examples.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    pub severity: Severity,
    pub code: Code,
    /// The cause shared by the group's findings; for a root several agents never read, the
    /// rule of the first agent (`rules` has every one).
    pub cause: Cause,
    /// The roots its findings apply in, the most affected first (one for a root never read).
    #[serde(serialize_with = "crate::sanitize::lossy_path::vec")]
    pub roots: Vec<PathBuf>,
    /// Every rule id behind the group's findings.
    pub rules: Vec<String>,
    /// Agents concerned, in model order.
    pub agents: Vec<String>,
    /// Skills covered (for root findings, the skills under the root, counted once).
    pub skills: usize,
    /// Findings in the group.
    pub count: usize,
    /// One sentence saying what the group is.
    pub summary: String,
    /// Indices (into the findings given to [`group`]) of up to [`EXAMPLES`] findings.
    pub examples: Vec<usize>,
    /// Every distinct fix of the group's findings, in order (at most one per agent).
    pub fixes: Vec<Fix>,
}

/// Examples kept per group.
pub const EXAMPLES: usize = 3;

/// Per agent: how many of the catalog's skills it sees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentSummary {
    pub id: String,
    pub name: String,
    pub visible: usize,
    pub total: usize,
    /// Error findings for this agent.
    pub errors: usize,
}

/// Every finding of a catalog, in a stable order (severity, code, cause, path, agent).
pub fn findings(cat: &Catalog, models: &[AgentModel]) -> Vec<Finding> {
    Collector::over(cat, models).finish().0
}

/// [`findings`] and the per-agent summary ([`agent_summaries`]) made in the same pass.
pub fn findings_and_summaries(
    cat: &Catalog,
    models: &[AgentModel],
) -> (Vec<Finding>, Vec<AgentSummary>) {
    Collector::over(cat, models).finish()
}

/// Gathers the findings one skill at a time, so that a caller that makes the skills a batch at a
/// time ([`crate::catalog::with_skills`]: `check` on a large catalog) never holds them all.
pub struct Collector<'a> {
    /// The catalog's header: its agents and roots (its skills are not read).
    cat: &'a Catalog,
    models: &'a [AgentModel],
    out: Vec<Finding>,
    unread: Unread,
    /// Per agent of `cat.agents`, the skills it sees.
    visible: Vec<usize>,
    skills: usize,
    /// The agent of each verdict position (as the first skill lists them).
    verdict_agents: Vec<std::sync::Arc<str>>,
    /// The skill being taken in: where its root is in `unread`, once looked up.
    root_slot: Option<usize>,
}

/// The name of agent `id` in `cat` (the id when it has none).
fn name_in<'c>(cat: &'c Catalog, id: &'c str) -> &'c str {
    cat.agents
        .iter()
        .find(|a| a.id == id)
        .map_or(id, |a| a.name.as_str())
}

impl<'a> Collector<'a> {
    /// A collector for the skills of `cat` (whose `agents` and `roots` it reads).
    pub fn new(cat: &'a Catalog, models: &'a [AgentModel]) -> Collector<'a> {
        Collector {
            cat,
            models,
            out: Vec::new(),
            unread: Vec::new(),
            visible: vec![0; cat.agents.len()],
            skills: 0,
            verdict_agents: Vec::new(),
            root_slot: None,
        }
    }

    /// A collector that has taken in every skill of `cat`.
    // On one core: split over both (a run of skills each, merged in order) it took about as
    // long at 100k (460 against 490 ms: the verdicts' reasons are read from memory, not
    // worked out).
    pub fn over(cat: &'a Catalog, models: &'a [AgentModel]) -> Collector<'a> {
        let mut c = Collector::new(cat, models);
        for s in &cat.skills {
            c.add(s);
        }
        c
    }

    /// The skills taken in so far.
    pub fn skills(&self) -> usize {
        self.skills
    }

    /// Takes in one skill's findings.
    pub fn add(&mut self, s: &Skill) {
        self.skills += 1;
        if self.verdict_agents.is_empty() {
            self.verdict_agents = s.verdicts.iter().map(|(a, _)| a.clone()).collect();
        }
        let (cat, models) = (self.cat, self.models);
        self.root_slot = None;
        each_finding(cat, models, s, self);
    }

    /// One more skill under `root` that its agent at `place` never reads; the reason and its
    /// rule copied only for the first.
    // A `RuleId` is ordered by its id text, which never changes.
    #[allow(clippy::mutable_key_type)]
    fn count_unread(
        &mut self,
        root: &Path,
        place: usize,
        reason: &crate::resolve::Reason,
        scope: Scope,
    ) {
        // A skill's entries all share its root: looked up once a skill (among a few roots).
        let slot = match self.root_slot {
            Some(slot) => slot,
            None => {
                let bytes = root.as_os_str().as_encoded_bytes();
                let slot = match self
                    .unread
                    .iter()
                    .position(|(r, _)| r.as_os_str().as_encoded_bytes() == bytes)
                {
                    Some(slot) => slot,
                    None => {
                        self.unread.push((root.to_path_buf(), Vec::new()));
                        self.unread.len() - 1
                    }
                };
                self.root_slot = Some(slot);
                slot
            }
        };
        let in_root = &mut self.unread[slot].1;
        if in_root.len() <= place {
            in_root.resize_with(place + 1, BTreeMap::new);
        }
        let by_rule = &mut in_root[place];
        match by_rule.get_mut(&reason.rule) {
            Some(e) => e.0 += 1,
            None => {
                by_rule.insert(reason.rule.clone(), (1, reason.clone(), scope));
            }
        }
    }

    /// Takes in what one skill adds ([`skill_findings`]).
    // A `RuleId` is ordered by its id text, which never changes; what it caches (the cited
    // sources) takes no part in the order.
    #[allow(clippy::mutable_key_type)]
    pub fn take(&mut self, f: SkillFindings) {
        self.skills += 1;
        if self.verdict_agents.is_empty() {
            self.verdict_agents = f.agents;
        }
        self.out.extend(f.findings);
        for i in f.visible {
            if let Some(n) = self.visible.get_mut(i) {
                *n += 1;
            }
        }
        self.root_slot = None;
        for (place, reason, scope) in &f.unread {
            self.count_unread(&f.unread_root, *place, reason, *scope);
        }
    }

    /// Every finding taken in, in a stable order (severity, code, cause, path, agent), and the
    /// per-agent summary.
    pub fn finish(mut self) -> (Vec<Finding>, Vec<AgentSummary>) {
        let cat = self.cat;
        // The roots an agent never reads: one finding each.
        let mut unread = std::mem::take(&mut self.unread);
        unread.sort_by(|a, b| a.0.cmp(&b.0));
        for (root, in_root) in unread {
            for (ai, by_rule) in in_root.into_iter().enumerate() {
                let Some(agent) = self.verdict_agents.get(ai) else {
                    continue;
                };
                for (rule, (n, reason, scope)) in by_rule {
                    self.out.push(unread_root_finding(
                        cat,
                        agent,
                        name_in(cat, agent),
                        (root.clone(), rule),
                        n,
                        &reason,
                        scope,
                    ));
                }
            }
        }
        let order: BTreeMap<&str, usize> = cat
            .agents
            .iter()
            .enumerate()
            .map(|(i, a)| (a.id.as_str(), i))
            .collect();
        let out = sorted(self.out, |f| {
            f.agent.as_deref().and_then(|x| order.get(x)).copied()
        });
        let summaries = summaries(cat, &self.visible, self.skills, &out);
        (out, summaries)
    }
}

/// `findings` in a stable order: severity, code, cause, path, then the agent's place (`place`),
/// line and column. At 100k skills there are 200k findings, most of them tied up to the path:
/// the distinct causes and paths are ranked once (paths in `Path`'s own order, written out as
/// [`crate::path_order::Key`]s), so that the sort compares numbers only, and the findings are
/// then moved into place without a second vector.
fn sorted(mut findings: Vec<Finding>, place: impl Fn(&Finding) -> Option<usize>) -> Vec<Finding> {
    let cause = ranks(findings.iter().map(|f| &f.cause), ByBytes::Cause, |c| c);
    let path = ranks(
        findings.iter().map(|f| f.path.as_path()),
        ByBytes::Path,
        crate::path_order::Key::new,
    );
    let mut keys: Vec<_> = findings
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let at = (f.severity, f.code, cause[i], path[i]);
            (at, place(f), f.line, f.column, i as u32)
        })
        .collect();
    drop((cause, path));
    // The index last: equal findings keep their order, as a stable sort keeps it.
    keys.sort_unstable();
    // Where each finding goes, then each moved there by swaps (one per finding).
    let mut to = vec![0u32; keys.len()];
    for (k, key) in keys.iter().enumerate() {
        to[key.4 as usize] = k as u32;
    }
    drop(keys);
    for i in 0..findings.len() {
        while to[i] as usize != i {
            let j = to[i] as usize;
            findings.swap(i, j);
            to.swap(i, j);
        }
    }
    findings
}

/// A cause or a path, hashed and compared by its bytes (its rule id and root): the same value
/// twice is found at once; two spellings of one path (`a/b/`, `a/b`) are two entries that
/// [`ranks`] then ranks alike.
#[derive(Clone, Copy)]
enum ByBytes<'a> {
    Cause(&'a Cause),
    Path(&'a Path),
}

impl ByBytes<'_> {
    fn parts(&self) -> (&str, &[u8]) {
        match self {
            ByBytes::Cause(c) => (
                c.rule.as_str(),
                c.root
                    .as_deref()
                    .map_or(&[][..], |r| r.as_os_str().as_encoded_bytes()),
            ),
            ByBytes::Path(p) => ("", p.as_os_str().as_encoded_bytes()),
        }
    }
}

impl PartialEq for ByBytes<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.parts(), other.parts());
        // A cause with a root and one without differ even if the bytes read alike.
        let rooted = |x: &Self| matches!(x, ByBytes::Cause(c) if c.root.is_some());
        a == b && rooted(self) == rooted(other)
    }
}

impl Eq for ByBytes<'_> {}

impl std::hash::Hash for ByBytes<'_> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.parts().hash(h)
    }
}

/// Each value's rank among the distinct values (in the order of their `order` keys; values
/// whose keys are equal share one), in the order given. Values are told apart by `bytes`
/// first, so that only the distinct ones are given an `order` key and sorted.
// `ByBytes` hashes and compares bytes only, never the rules' cached citations.
#[allow(clippy::mutable_key_type)]
fn ranks<'a, T: Copy + 'a, K: Ord>(
    values: impl Iterator<Item = T>,
    bytes: impl Fn(T) -> ByBytes<'a>,
    order: impl Fn(T) -> K,
) -> Vec<u32> {
    let mut ids: foldhash::HashMap<ByBytes<'a>, u32> = Default::default();
    let mut distinct: Vec<(K, u32)> = Vec::new();
    let of: Vec<u32> = values
        .map(|v| {
            *ids.entry(bytes(v)).or_insert_with(|| {
                let id = distinct.len() as u32;
                distinct.push((order(v), id));
                id
            })
        })
        .collect();
    drop(ids);
    distinct.sort_unstable();
    let mut rank = vec![0u32; distinct.len()];
    let mut r = 0u32;
    for (k, (key, id)) in distinct.iter().enumerate() {
        if k > 0 && distinct[k - 1].0 != *key {
            r += 1;
        }
        rank[*id as usize] = r;
    }
    of.into_iter().map(|id| rank[id as usize]).collect()
}

impl<'s> Sink<'s> for Collector<'_> {
    fn finding(&mut self, f: Finding) {
        self.out.push(f);
    }
    fn visible(&mut self, agent: usize) {
        if let Some(n) = self.visible.get_mut(agent) {
            *n += 1;
        }
    }
    fn unread(
        &mut self,
        root: &'s Path,
        place: usize,
        reason: &'s crate::resolve::Reason,
        scope: Scope,
    ) {
        self.count_unread(root, place, reason, scope);
    }
}

/// root → agent (its place among a skill's verdicts) → rule → (skills, first reason, scope)
/// for roots an agent never reads (by root first: a skill's entries all share its root).
/// The roots in the order first met (sorted by path when the findings are made).
type Unread = Vec<(
    PathBuf,
    Vec<BTreeMap<RuleId, (usize, crate::resolve::Reason, Scope)>>,
)>;

/// A skill in a root its agent never reads: the agent's place among the skill's verdicts, the
/// deciding reason (its rule is the key it is counted under in [`Unread`], below the skill's
/// root) and the scope.
type UnreadRoot = (usize, crate::resolve::Reason, Scope);

/// What one agent's verdict on a skill it does not load adds.
// Returned and matched at once, never stored: boxing the finding would cost an allocation each.
#[allow(clippy::large_enum_variant)]
enum VerdictFinding<'s> {
    /// A finding of its own.
    Finding(Finding),
    /// One more skill in a root the agent never reads (one finding per root, at the end): the
    /// verdict's deciding reason.
    Unread(&'s crate::resolve::Reason),
}

/// Where [`each_finding`] hands what a skill adds: gathered for later ([`SkillFindings`]) or
/// taken in at once ([`Collector`]).
trait Sink<'s> {
    fn finding(&mut self, f: Finding);
    /// The skill is seen by the catalog's agent `agent`.
    fn visible(&mut self, agent: usize);
    /// The skill (under `root`) is in a root that its verdict at `place` (an index into its
    /// verdicts) says the agent never reads.
    fn unread(
        &mut self,
        root: &'s Path,
        place: usize,
        reason: &'s crate::resolve::Reason,
        scope: Scope,
    );
}

/// What one skill adds to a [`Collector`] ([`skill_findings`]).
#[derive(Default)]
pub struct SkillFindings {
    /// The agent of each of its verdicts.
    agents: Vec<std::sync::Arc<str>>,
    findings: Vec<Finding>,
    /// The index in the catalog's agents of each agent that sees it.
    visible: Vec<usize>,
    /// The skill's root (empty without one), for `unread`.
    unread_root: PathBuf,
    unread: Vec<UnreadRoot>,
}

/// What skill `s` of `cat` adds to a [`Collector`], worked out on its own (on any core;
/// [`Collector::take`] adds it, in catalog order, with what the skills before it added).
pub fn skill_findings(cat: &Catalog, models: &[AgentModel], s: &Skill) -> SkillFindings {
    let mut f = SkillFindings::default();
    each_finding(cat, models, s, &mut f);
    if !f.unread.is_empty() {
        f.agents = s.verdicts.iter().map(|(a, _)| a.clone()).collect();
    }
    f
}

impl<'s> Sink<'s> for SkillFindings {
    fn finding(&mut self, f: Finding) {
        self.findings.push(f);
    }
    fn visible(&mut self, agent: usize) {
        self.visible.push(agent);
    }
    fn unread(
        &mut self,
        root: &'s Path,
        place: usize,
        reason: &'s crate::resolve::Reason,
        scope: Scope,
    ) {
        if self.unread.is_empty() {
            self.unread_root = root.to_path_buf();
        }
        self.unread.push((place, reason.clone(), scope));
    }
}

/// What skill `s` adds, handed to `sink` as it is found.
fn each_finding<'s>(cat: &Catalog, models: &[AgentModel], s: &'s Skill, sink: &mut impl Sink<'s>) {
    for p in &s.problems {
        sink.finding(spec_finding(models, s, p));
    }
    let mut seen = false;
    for (ai, (agent, v)) in s.verdicts.iter().enumerate() {
        if v.status == Status::Visible {
            seen = true;
            // A skill's verdicts are in the catalog's agent order: the place first.
            let at = match cat.agents.get(ai) {
                Some(a) if *a.id == **agent => Some(ai),
                _ => cat.agents.iter().position(|a| *a.id == **agent),
            };
            if let Some(i) = at {
                sink.visible(i);
            }
            continue;
        }
        match verdict_finding(cat, s, agent, v) {
            Some(VerdictFinding::Finding(x)) => sink.finding(x),
            Some(VerdictFinding::Unread(reason)) => {
                let root = s.root.as_deref().unwrap_or(Path::new(""));
                sink.unread(root, ai, reason, s.scope)
            }
            None => {}
        }
    }
    if !seen && !s.verdicts.is_empty() && is_skill_md(&s.path) {
        sink.finding(invisible_finding(s));
    }
}

/// What one agent's verdict on a skill it does not load adds: its finding, or (for a root the
/// agent never reads) one more skill in that root; what is not wrong gives nothing.
fn verdict_finding<'s>(
    cat: &Catalog,
    s: &Skill,
    agent: &str,
    v: &'s crate::resolve::Verdict,
) -> Option<VerdictFinding<'s>> {
    let reason = v.decisive()?;
    let topic = reason.topic;
    let code = match v.status {
        Status::Visible => return None,
        // The same file reached twice through a symlink is loaded once: nothing wrong.
        Status::Shadowed
            if matches!(topic, Topic::Precedence | Topic::SameFile) && v.winner.is_some() =>
        {
            if same_file_shadow(v) {
                return None;
            }
            Code::Shadowed
        }
        Status::Shadowed => Code::Shadowed,
        Status::Rejected if topic == Topic::Setting => Code::Disabled,
        Status::Rejected => Code::Rejected,
        Status::Unknown => Code::Unknown,
        Status::NotFound if topic.is_root_level() => {
            return Some(VerdictFinding::Unread(reason));
        }
        // A loose `*.md` beside the skills (a README) that an agent does not load is what the
        // user expects; the loose file is listed only because another agent may load it.
        Status::NotFound if !is_skill_md(&s.path) => return None,
        Status::NotFound => Code::NotFound,
    };
    let root = v.root.clone().or_else(|| s.root.clone());
    Some(VerdictFinding::Finding(Finding {
        subject: Subject::Skill,
        path: s.path.clone(),
        agent: Some(agent.to_string()),
        severity: Severity::Error,
        code,
        cause: Cause {
            rule: reason.rule.clone(),
            root,
        },
        message: reason.message.to_string(),
        line: None,
        column: None,
        fix: verdict_fix(cat, s, agent, name_in(cat, agent), code, topic, v),
        source: Some(reason.source().clone()),
        evidence: Some(reason.evidence().clone()),
        enforced_by: Vec::new(),
        skills: 1,
    }))
}

/// A SKILL.md no agent loads.
fn invisible_finding(s: &Skill) -> Finding {
    let root = s.root.clone();
    Finding {
        subject: Subject::Skill,
        path: s.path.clone(),
        agent: None,
        severity: Severity::Error,
        code: Code::Invisible,
        cause: Cause {
            rule: RuleId::skilltui("visible-to-none"),
            root: root.clone(),
        },
        message: "no agent loads this skill".into(),
        line: None,
        column: None,
        fix: Some(Fix {
            text: "move it into a folder an agent scans (`skilltui roots` lists them), or fix what each agent's verdict names (`skilltui why`)".into(),
            quick_fix: None,
            target: None,
        }),
        source: None,
        evidence: None,
        enforced_by: Vec::new(),
        skills: 1,
    }
}

/// One finding for a root an agent never reads, holding `n` skills.
fn unread_root_finding(
    cat: &Catalog,
    agent: &str,
    name: &str,
    (root, rule): (PathBuf, RuleId),
    n: usize,
    reason: &crate::resolve::Reason,
    scope: Scope,
) -> Finding {
    let target = share_target(cat, agent, scope);
    let fix = match &target {
        Some(t) => Fix {
            text: format!(
                "to share these skills with {name}, link each skill folder into {} (`ln -s {}/NAME {}/NAME`), or move them there (`skilltui mv`)",
                t.display(),
                root.display(),
                t.display()
            ),
            quick_fix: None,
            target: Some(t.clone()),
        },
        None => Fix {
            text: format!(
                "{name} scans no folder that exists here; `skilltui roots` lists where it looks"
            ),
            quick_fix: None,
            target: None,
        },
    };
    Finding {
        subject: Subject::Root,
        path: root.clone(),
        agent: Some(agent.to_string()),
        severity: Severity::Info,
        code: Code::RootNotScanned,
        cause: Cause {
            rule,
            root: Some(root.clone()),
        },
        message: format!(
            "{n} skill{} in {}: not read by {name} ({})",
            if n == 1 { "" } else { "s" },
            root.display(),
            reason.message
        ),
        line: None,
        column: None,
        fix: Some(fix),
        source: Some(reason.source().clone()),
        evidence: Some(reason.evidence().clone()),
        enforced_by: Vec::new(),
        skills: n,
    }
}

/// Keeps the findings that concern one of `agents` (and every finding without an agent).
pub fn for_agents(findings: Vec<Finding>, agents: &[String]) -> Vec<Finding> {
    if agents.is_empty() {
        return findings;
    }
    findings
        .into_iter()
        .filter(|f| f.agent.as_ref().is_none_or(|a| agents.contains(a)))
        .collect()
}

/// Groups findings by severity, code and cause: a root several agents never read is one
/// group; findings of different agents under the same rule key and root are one group.
/// Most severe first, then the largest.
pub fn group(cat: &Catalog, findings: &[Finding]) -> Vec<Group> {
    group_members(cat, findings)
        .into_iter()
        .map(|(g, _)| g)
        .collect()
}

/// [`group`], each group with the indices (into `findings`) of all its findings, in order.
pub fn group_members(cat: &Catalog, findings: &[Finding]) -> Vec<(Group, Vec<usize>)> {
    // Hashed by borrowed keys, then the few keys sorted: the order a map by key would give.
    type Key<'f> = (Severity, Code, &'f str, Option<&'f Path>);
    let mut by_key: foldhash::HashMap<Key, Vec<usize>> = Default::default();
    for (i, f) in findings.iter().enumerate() {
        // A root an agent never reads is its own cause; any other rule is one cause across the
        // roots it applies in (their number is bounded by the model, not the catalog).
        let key = match f.code {
            Code::RootNotScanned => ("", f.cause.root.as_deref()),
            _ => (f.cause.rule.key(), None),
        };
        by_key
            .entry((f.severity, f.code, key.0, key.1))
            .or_default()
            .push(i);
    }
    let mut groups: Vec<(Key, Vec<usize>)> = by_key.into_iter().collect();
    groups.sort_unstable_by_key(|(k, _)| *k);
    let agent_order = |id: &str| cat.agents.iter().position(|a| a.id == id);
    let name_of = |id: &str| -> String {
        cat.agents
            .iter()
            .find(|a| a.id == id)
            .map_or_else(|| id.to_string(), |a| a.name.clone())
    };
    let mut out: Vec<(Group, Vec<usize>)> = groups
        .into_iter()
        .map(|((severity, code, _, _), members)| {
            let first = &findings[members[0]];
            // The roots the group's findings apply in, the most affected first.
            let mut per_root: BTreeMap<&Path, usize> = BTreeMap::new();
            // Findings come sorted by cause: a run shares its root (the same bytes), counted
            // once a run.
            let mut run: Option<(&Path, usize)> = None;
            for &i in &members {
                let Some(r) = findings[i].cause.root.as_deref() else {
                    continue;
                };
                match &mut run {
                    Some((p, n)) if p.as_os_str() == r.as_os_str() => *n += 1,
                    _ => {
                        if let Some((p, n)) = run.replace((r, 1)) {
                            *per_root.entry(p).or_default() += n;
                        }
                    }
                }
            }
            if let Some((p, n)) = run {
                *per_root.entry(p).or_default() += n;
            }
            let mut roots: Vec<(&Path, usize)> = per_root.into_iter().collect();
            roots.sort_by_key(|(p, n)| (std::cmp::Reverse(*n), *p));
            let roots: Vec<PathBuf> = roots.into_iter().map(|(p, _)| p.to_path_buf()).collect();
            let mut agents: Vec<String> = Vec::new();
            let mut rules: Vec<String> = Vec::new();
            let mut fixes: Vec<Fix> = Vec::new();
            let mut paths: Vec<&Path> = Vec::new();
            let mut root_skills = 0;
            for &i in &members {
                let f = &findings[i];
                if let Some(a) = &f.agent
                    && !agents.contains(a)
                {
                    agents.push(a.clone());
                }
                if !rules.iter().any(|r| f.cause.rule == *r) {
                    rules.push(f.cause.rule.to_string());
                }
                if let Some(x) = &f.fix
                    && !fixes.contains(x)
                    && fixes.len() < cat.agents.len().max(1)
                {
                    fixes.push(x.clone());
                }
                if f.subject == Subject::Root {
                    root_skills = root_skills.max(f.skills);
                } else {
                    paths.push(&f.path);
                }
            }
            agents.sort_by_key(|a| agent_order(a));
            // Distinct skills, counted by hashing (a group may hold 100k findings).
            let distinct: foldhash::HashSet<&Path> = paths.into_iter().collect();
            let skills = if code == Code::RootNotScanned {
                root_skills
            } else {
                distinct.len()
            };
            // Examples: distinct subjects first.
            let mut examples: Vec<usize> = Vec::new();
            let mut shown: Vec<&Path> = Vec::new();
            for &i in &members {
                if examples.len() == EXAMPLES {
                    break;
                }
                if !shown.contains(&findings[i].path.as_path()) {
                    shown.push(&findings[i].path);
                    examples.push(i);
                }
            }
            let names: Vec<String> = agents.iter().map(|a| name_of(a)).collect();
            let summary = summary(code, severity, skills, members.len(), &roots, &names, first);
            let mut cause = first.cause.clone();
            if roots.len() > 1 {
                cause.root = None;
            }
            let g = Group {
                severity,
                code,
                cause,
                roots,
                rules,
                agents,
                skills,
                count: members.len(),
                summary,
                examples,
                fixes,
            };
            (g, members)
        })
        .collect();
    out.sort_by(|(a, _), (b, _)| {
        (a.severity, std::cmp::Reverse(a.skills), a.code, &a.cause).cmp(&(
            b.severity,
            std::cmp::Reverse(b.skills),
            b.code,
            &b.cause,
        ))
    });
    out
}

/// A skill a group of findings covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Affected {
    /// Index into the catalog's skills.
    pub skill: usize,
    /// The agents concerned (in model order); empty for spec findings and skills no agent sees.
    pub agents: Vec<String>,
    /// Its own finding's message and fix (the first of its findings in the group); none for a
    /// skill of a root never read (the root's finding says it).
    pub finding: Option<usize>,
}

/// Every skill the findings `members` (a group's, from [`group_members`]) cover, in catalog
/// order: the skill of each skill finding, and the skills under a root never read (those the
/// root's agent does not find there, by the same rule).
pub fn affected(cat: &Catalog, findings: &[Finding], members: &[usize]) -> Vec<Affected> {
    affected_all(cat, findings, std::slice::from_ref(&members.to_vec()))
        .pop()
        .unwrap_or_default()
}

/// [`affected`] for every group at once (the catalog indexed once: linear in skills and
/// findings).
pub fn affected_all<'a>(
    cat: &Catalog,
    findings: &'a [Finding],
    groups: &[Vec<usize>],
) -> Vec<Vec<Affected>> {
    // By the paths' bytes (a finding's path is a copy of its skill's or root's; hashing a
    // `Path` walks its components).
    let bytes = |p: &'a Path| p.as_os_str().as_encoded_bytes();
    let mut index: foldhash::HashMap<&[u8], usize> =
        foldhash::HashMap::with_capacity_and_hasher(cat.skills.len(), Default::default());
    let mut by_root: foldhash::HashMap<&[u8], Vec<usize>> = Default::default();
    for (i, s) in cat.skills.iter().enumerate() {
        index.insert(s.path.as_os_str().as_encoded_bytes(), i);
        if let Some(r) = &s.root {
            by_root
                .entry(r.as_os_str().as_encoded_bytes())
                .or_default()
                .push(i);
        }
    }
    let places: foldhash::HashMap<&str, usize> = cat
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| (a.id.as_str(), i))
        .collect();
    let order = |id: &str| places.get(id).copied();
    // The groups on every core (each on its own: a root's group covers tens of thousands).
    crate::par::par_map(groups, |members| {
        // Skill → its own finding, and each agent concerned (its place in the catalog's
        // agents, looked up once a finding, not once a skill) in the order met.
        type Agents<'f> = Vec<(Option<usize>, &'f String)>;
        // Hashed, then sorted by skill once (a root's group covers tens of thousands).
        let mut by_skill: foldhash::HashMap<usize, (Option<usize>, Agents)> = Default::default();
        let mut add =
            |skill: usize, agent: Option<(Option<usize>, &'a String)>, finding: Option<usize>| {
                let e = by_skill.entry(skill).or_insert((finding, Vec::new()));
                if let Some(a) = agent
                    && !e.1.iter().any(|x| x.1 == a.1)
                {
                    e.1.push(a);
                }
            };
        // A run of findings about one root (the agents that never read it) is taken skill
        // by skill: each skill under the root is read once for all of them, in the run's
        // order (a skill's agents are met in the same order as one finding at a time).
        let mut at = 0;
        while at < members.len() {
            let Some(f) = findings.get(members[at]) else {
                at += 1;
                continue;
            };
            if f.subject == Subject::Skill {
                let agent = f.agent.as_ref().map(|a| (order(a), a));
                if let Some(&si) = index.get(bytes(&f.path)) {
                    add(si, agent, Some(members[at]));
                }
                at += 1;
                continue;
            }
            let root = f.path.as_path();
            let mut run: Vec<(Option<usize>, &'a String, &RuleId)> = Vec::new();
            while let Some(g) = members.get(at).and_then(|&i| findings.get(i)) {
                if g.subject != Subject::Root || g.path != root {
                    break;
                }
                if let Some(a) = &g.agent {
                    run.push((order(a), a, &g.cause.rule));
                }
                at += 1;
            }
            for &si in by_root.get(bytes(root)).into_iter().flatten() {
                let s = &cat.skills[si];
                for &(place, name, rule) in &run {
                    let by_rule = s.verdict_at(place, name).is_some_and(|v| {
                        v.status == Status::NotFound
                            && v.decisive().is_some_and(|r| r.rule == *rule)
                    });
                    if by_rule {
                        add(si, Some((place, name)), None);
                    }
                }
            }
        }
        let mut by_skill: Vec<_> = by_skill.into_iter().collect();
        by_skill.sort_unstable_by_key(|(skill, _)| *skill);
        by_skill
            .into_iter()
            .map(|(skill, (finding, mut agents))| {
                agents.sort_by_key(|(place, _)| *place);
                Affected {
                    skill,
                    agents: agents.into_iter().map(|(_, a)| a.clone()).collect(),
                    finding,
                }
            })
            .collect()
    })
}

/// Per agent in the catalog: skills visible of all skills, and its error findings.
pub fn agent_summaries(cat: &Catalog, findings: &[Finding]) -> Vec<AgentSummary> {
    // One pass over the skills (each one's verdicts are read once, not once per agent): a
    // verdict's agent is found at its place in the catalog's agents, where it almost always is.
    let mut visible = vec![0; cat.agents.len()];
    for s in &cat.skills {
        for (i, (agent, v)) in s.verdicts.iter().enumerate() {
            if v.status != Status::Visible {
                continue;
            }
            let at = match cat.agents.get(i) {
                Some(a) if *a.id == **agent => Some(i),
                _ => cat.agents.iter().position(|a| *a.id == **agent),
            };
            if let Some(at) = at {
                visible[at] += 1;
            }
        }
    }
    summaries(cat, &visible, cat.skills.len(), findings)
}

/// Per agent of `cat.agents`: `visible[i]` of `total` skills seen, and its error findings.
fn summaries(
    cat: &Catalog,
    visible: &[usize],
    total: usize,
    findings: &[Finding],
) -> Vec<AgentSummary> {
    let mut out = cat
        .agents
        .iter()
        .zip(visible)
        .map(|(a, &visible)| AgentSummary {
            id: a.id.clone(),
            name: a.name.clone(),
            visible,
            total,
            errors: 0,
        })
        .collect::<Vec<_>>();
    // One pass over the findings; an agent's place is looked up by name once per run of
    // findings of the same agent (they come sorted, so runs are long).
    let mut last: Option<(&str, Option<usize>)> = None;
    for f in findings {
        let Some(agent) = f.agent.as_deref() else {
            continue;
        };
        if f.severity != Severity::Error {
            continue;
        }
        let at = match last {
            Some((a, at)) if a == agent => at,
            _ => {
                let at = out.iter().position(|s| s.id == agent);
                last = Some((agent, at));
                at
            }
        };
        if let Some(at) = at {
            out[at].errors += 1;
        }
    }
    out
}

/// Findings per severity, in [`Severity::ALL`] order.
pub fn counts(findings: &[Finding]) -> [usize; 3] {
    let mut c = [0; 3];
    for f in findings {
        c[f.severity as usize] += 1;
    }
    c
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [a] => a.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn summary(
    code: Code,
    severity: Severity,
    skills: usize,
    count: usize,
    roots: &[PathBuf],
    agents: &[String],
    first: &Finding,
) -> String {
    let skills_s = plural(skills, "skill", "skills");
    let in_root = match roots {
        [] => String::new(),
        [r] => format!(" in {}", r.display()),
        [a, b] => format!(" in {} and {}", a.display(), b.display()),
        [a, b, rest @ ..] => format!(
            " in {}, {} and {}",
            a.display(),
            b.display(),
            plural(rest.len(), "more folder", "more folders")
        ),
    };
    let for_agents = if agents.is_empty() {
        String::new()
    } else {
        format!(" for {}", list(agents))
    };
    match code {
        Code::RootNotScanned => format!("{skills_s}{in_root}: not read by {}", list(agents)),
        Code::Shadowed => format!("{skills_s}{in_root} shadowed by another copy{for_agents}"),
        Code::Rejected => format!("{skills_s}{in_root} rejected{for_agents}"),
        Code::Disabled => format!("{skills_s}{in_root} disabled by a setting{for_agents}"),
        Code::Unknown => format!("{skills_s}{in_root} with an unknown verdict{for_agents}"),
        Code::NotFound => {
            format!("{skills_s}{in_root} never reached{for_agents}, though the folder is scanned")
        }
        Code::Invisible => format!("{skills_s}{in_root} visible to no agent"),
        _ => {
            let n = if count == skills {
                skills_s
            } else {
                format!("{skills_s} ({count} findings)")
            };
            let why = match severity {
                Severity::Warning if !first.enforced_by.is_empty() => {
                    format!("; enforced by {}", first.enforced_by.join(", "))
                }
                Severity::Info => "; no agent acts on it".to_string(),
                _ => String::new(),
            };
            format!("{n}: {code}{why}")
        }
    }
}

/// What a group's findings share, as one sentence for its row: their own reason when they all
/// give the same one (so a group of one finding keeps its specific reason), else the general
/// statement of the group's rule, which holds for every finding of it (one finding's reason
/// names its own skill, copy and agent). None for a root never read and a spec problem: the
/// row names the folder, or who enforces the problem.
pub fn group_reason<'a>(
    g: &Group,
    findings: &'a [Finding],
    members: &[usize],
) -> Option<std::borrow::Cow<'a, str>> {
    if matches!(
        g.code,
        Code::RootNotScanned | Code::SpecOther | Code::Spec(_)
    ) {
        return None;
    }
    let mut messages = members
        .iter()
        .filter_map(|&i| findings.get(i))
        .map(|f| f.message.as_str());
    let first = messages.next()?;
    if messages.all(|m| m == first) {
        return (!first.is_empty()).then_some(first.into());
    }
    rule_statement(g.code, &g.cause.rule).map(Into::into)
}

/// What a verdict's rule says, in general: the same for every skill, copy and agent it decides.
fn rule_statement(code: Code, rule: &RuleId) -> Option<String> {
    let topic = rule.topic();
    let about = || -> Option<String> {
        Some(match topic {
            Topic::NameLength => "the name's length".into(),
            Topic::NameCharset => "the name's characters".into(),
            Topic::NameFolderMismatch => "a name that differs from its folder".into(),
            Topic::NameMissing => "a missing name".into(),
            Topic::NameEmpty => "an empty name".into(),
            Topic::Name | Topic::NameSource => "the name".into(),
            Topic::DescriptionMissing => "a missing description".into(),
            Topic::DescriptionEmpty => "an empty description".into(),
            Topic::DescriptionLength => "the description's length".into(),
            Topic::Description => "the description".into(),
            Topic::FileName => "the file's name".into(),
            Topic::Parse | Topic::YamlError => "frontmatter that does not parse".into(),
            Topic::Field | Topic::FieldValue => match rule.field() {
                Some(f) => format!("the `{f}` field's value"),
                None => "a field's value".into(),
            },
            Topic::Setting => "a setting".into(),
            _ => return None,
        })
    };
    Some(match code {
        Code::Shadowed => "another copy takes the name".into(),
        Code::Disabled => "a setting of the agent disables it".into(),
        Code::Invisible => "no agent loads it".into(),
        Code::NotFound => match topic {
            Topic::MaxDepth => "deeper in the scanned folder than the agent looks".into(),
            _ => "inside a scanned folder, but never reached".into(),
        },
        Code::Rejected if topic == Topic::KnownBug => {
            "a known bug of the agent's release refuses the skill".into()
        }
        Code::Rejected => match about() {
            Some(a) => format!("{a}: the agent refuses it"),
            None => "the agent refuses the skill".into(),
        },
        Code::Unknown => match topic {
            Topic::Precedence | Topic::PrecedenceOrder | Topic::SameFile => {
                "which copy of a name the agent keeps is not established".into()
            }
            Topic::MaxDepth => "whether the agent looks this deep is not established".into(),
            Topic::KnownBug => "whether a known bug of the release bites is not established".into(),
            Topic::Traversal | Topic::RootTraversal | Topic::RootWalk => {
                "whether the agent reaches the skill folder is not established".into()
            }
            _ => match about() {
                Some(a) => format!("{a}: how the agent handles it is not established"),
                None => "what the agent does here is not established".into(),
            },
        },
        Code::RootNotScanned | Code::SpecOther | Code::Spec(_) => return None,
    })
}

/// A `SKILL.md` (any case), not a loose `*.md`.
fn is_skill_md(p: &Path) -> bool {
    p.file_name()
        .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case("SKILL.md"))
}

/// A copy shadowed by the same file reached through a symlink (the agent loads it once).
fn same_file_shadow(v: &Verdict) -> bool {
    v.reasons.iter().any(|r| r.topic == Topic::SameFile)
}

/// The root an agent scans that is best for sharing skills of a root of `scope` with it: one
/// that exists, of the same scope, else any of its roots. A system (managed or built-in) root is
/// never a target: skills of a system root are shared through a user root.
fn share_target(cat: &Catalog, agent: &str, scope: Scope) -> Option<PathBuf> {
    let scope = if scope == Scope::System {
        Scope::User
    } else {
        scope
    };
    let mine: Vec<&crate::catalog::RootInfo> = cat
        .roots
        .iter()
        .filter(|r| r.scope != Scope::System && r.agents.iter().any(|a| a == agent))
        .collect();
    let same_scope = |r: &&&crate::catalog::RootInfo| r.scope == scope;
    mine.iter()
        .filter(same_scope)
        .find(|r| r.exists)
        .or_else(|| mine.iter().find(same_scope))
        .or_else(|| mine.iter().find(|r| r.exists))
        .or_else(|| mine.first())
        .map(|r| r.path.clone())
}

fn verdict_fix(
    cat: &Catalog,
    s: &Skill,
    agent: &str,
    name: &str,
    code: Code,
    topic: Topic,
    v: &Verdict,
) -> Option<Fix> {
    let fix = |text: String, quick_fix: Option<&'static str>| {
        Some(Fix {
            text,
            quick_fix,
            target: None,
        })
    };
    match code {
        Code::Shadowed => {
            let winner = v
                .winner
                .as_ref()
                .map(|w| w.display().to_string())
                .unwrap_or_else(|| "another copy".into());
            fix(
                format!(
                    "{winner} wins this name for {name}: remove the copy you do not want (`skilltui rm`), or rename one (`skilltui rename`)"
                ),
                None,
            )
        }
        Code::Disabled => fix(
            format!(
                "remove the skill from the {name} setting named above if {name} should load it"
            ),
            None,
        ),
        Code::Unknown => fix(
            format!(
                "what {name} does here is not established; `skilltui agents {agent}` shows the rule, and `skilltui agents --verify` runs the agent where it is installed"
            ),
            None,
        ),
        Code::NotFound => {
            let quick = (topic == Topic::MaxDepth).then_some("ungroup");
            let root = v.root.as_ref().or(s.root.as_ref());
            fix(
                match root {
                    Some(r) => format!(
                        "move the skill folder to where {name} looks: directly under {}",
                        r.display()
                    ),
                    None => {
                        format!("move the skill folder to where {name} looks (`skilltui roots`)")
                    }
                },
                quick,
            )
        }
        Code::Rejected => {
            let quick = match topic {
                Topic::DescriptionLength => Some("shorten-description"),
                Topic::NameLength => Some("shorten-name"),
                Topic::DescriptionMissing | Topic::DescriptionEmpty => Some("add-description"),
                Topic::NameFolderMismatch => Some("name-folder-match"),
                Topic::FileName => Some("skill-md-case"),
                // A value rule names its own quick fix (`quote-value` for a list argument-hint).
                _ => v
                    .decisive()
                    .and_then(|r| r.fix.as_deref())
                    .and_then(|f| f.parse::<crate::actions::FixCode>().ok())
                    .map(crate::actions::FixCode::as_str),
            };
            let _ = cat;
            let why = format!("`skilltui why {} --agent {agent}` explains it", s.label());
            fix(
                match quick {
                    Some(q) => format!("`skilltui fix {} --only {q}`; {why}", s.path.display()),
                    None => why,
                },
                quick,
            )
        }
        _ => None,
    }
}

/// The quick fix for a spec problem, where one exists (from the file's head where
/// [`ProblemCode::fix_reads_head`]).
fn spec_quick_fix(code: ProblemCode, s: &Skill) -> Option<&'static str> {
    match code {
        ProblemCode::DescriptionMissing | ProblemCode::DescriptionEmpty => Some("add-description"),
        ProblemCode::DescriptionTooLong => Some("shorten-description"),
        ProblemCode::NameTooLong => Some("shorten-name"),
        ProblemCode::NameDirectoryMismatch if s.name.is_some() => Some("name-folder-match"),
        ProblemCode::SkillMdLowercase => Some("skill-md-case"),
        ProblemCode::FrontmatterMissing if s.head.starts_with('\u{feff}') => Some("remove-bom"),
        ProblemCode::YamlInvalid
            if crate::actions::text::unquoted_colon(&s.head, "description").is_some() =>
        {
            Some("quote-description")
        }
        _ => None,
    }
}

fn spec_finding(models: &[AgentModel], s: &Skill, p: &crate::spec::Problem) -> Finding {
    let enforcers = enforced_by(models, p);
    let severity = if always_warning(p.code) || !enforcers.is_empty() {
        Severity::Warning
    } else {
        Severity::Info
    };
    let fix = spec_quick_fix(p.code, s).map(|q| Fix {
        text: format!("`skilltui fix {} --only {q}`", s.path.display()),
        quick_fix: Some(q),
        target: None,
    });
    Finding {
        subject: Subject::Skill,
        path: s.path.clone(),
        agent: None,
        severity,
        code: Code::Spec(p.code),
        cause: Cause {
            rule: RuleId::spec(p.code.as_str()),
            root: None,
        },
        message: p.message.clone(),
        line: p.line,
        column: p.column,
        fix,
        source: None,
        evidence: None,
        enforced_by: enforcers,
        skills: 1,
    }
}

/// A spec problem that is a warning whatever the agents do: a problem with the file itself
/// (every agent meets it), or a body reference that is missing.
fn always_warning(code: ProblemCode) -> bool {
    code == ProblemCode::ReferenceMissing || code.file_level()
}

/// The agent rules (`agent/key`) that act on a spec problem: their known value rejects, warns
/// or truncates. Empty when no agent model is known to act on it.
pub fn enforced_by(models: &[AgentModel], p: &crate::spec::Problem) -> Vec<String> {
    let acts = |posture: &Posture| *posture != Posture::Accept;
    let mut out = Vec::new();
    for m in models {
        let nr = &m.name_rules;
        let dr = &m.description_rules;
        let field_rule = |field: &str| -> Option<RuleId> {
            m.fields
                .get(field)
                .filter(|f| f.handling == crate::agents::Handling::Read)
                .filter(|f| f.on_invalid.is_some_and(|p| acts(&p)))
                .map(|f| f.from.id.clone())
        };
        let missing_description = |r: &MissingDescription| {
            matches!(r, MissingDescription::Reject | MissingDescription::Unlisted)
        };
        let rule: Option<RuleId> = match p.code {
            ProblemCode::NameTooLong => nr
                .length
                .known()
                .filter(|l| l.limit.is_some() && acts(&l.posture))
                .map(|_| nr.length.from.id.clone()),
            ProblemCode::NameNotLowercase
            | ProblemCode::NameInvalidChars
            | ProblemCode::NameHyphenEdge
            | ProblemCode::NameConsecutiveHyphens => nr
                .charset
                .known()
                .filter(|c| acts(&c.posture))
                .map(|_| nr.charset.from.id.clone()),
            ProblemCode::NameDirectoryMismatch => nr
                .folder_mismatch
                .known()
                .filter(|p| acts(p))
                .map(|_| nr.folder_mismatch.from.id.clone()),
            ProblemCode::NameMissing => nr
                .missing
                .known()
                .filter(|r| **r == MissingName::Reject)
                .map(|_| nr.missing.from.id.clone()),
            ProblemCode::NameEmpty => nr
                .empty
                .known()
                .filter(|r| **r == MissingName::Reject)
                .map(|_| nr.empty.from.id.clone()),
            ProblemCode::DescriptionMissing => dr
                .missing
                .known()
                .filter(|r| missing_description(r))
                .map(|_| dr.missing.from.id.clone()),
            ProblemCode::DescriptionEmpty => dr
                .empty
                .known()
                .filter(|r| missing_description(r))
                .map(|_| dr.empty.from.id.clone()),
            ProblemCode::DescriptionTooLong => dr
                .length
                .known()
                .filter(|l| l.limit.is_some() && acts(&l.posture))
                .map(|_| dr.length.from.id.clone()),
            ProblemCode::NameNotString => field_rule("name"),
            ProblemCode::DescriptionNotString => field_rule("description"),
            ProblemCode::CompatibilityNotString => field_rule("compatibility"),
            ProblemCode::LicenseNotString => field_rule("license"),
            ProblemCode::AllowedToolsNotString => field_rule("allowed-tools"),
            // Only `metadata` itself not being a map is something an agent checks (a map
            // expected); a metadata value that is not a string is the spec's alone.
            ProblemCode::MetadataNotMap if crate::spec::metadata_itself(p) => {
                field_rule("metadata")
            }
            _ => None,
        };
        if let Some(r) = rule {
            out.push(r.to_string());
        }
    }
    out
}

impl Code {
    /// What the code means, in one sentence.
    pub fn description(self) -> &'static str {
        match self {
            Code::Shadowed => "Another copy of the skill takes its name for the agent.",
            Code::Rejected => "The agent reaches the skill file and refuses to load it.",
            Code::Disabled => "One of the agent's own settings disables the skill.",
            Code::Unknown => {
                "What the agent does with the skill is not established by the research."
            }
            Code::NotFound => {
                "The skill is inside a folder the agent scans, but the agent never reaches it (too deep, inside another skill, past a folder cap, ...)."
            }
            Code::Invisible => "No agent loads the skill.",
            Code::RootNotScanned => "A folder of skills that the agent never reads.",
            Code::SpecOther => "A problem against the Agent Skills specification.",
            Code::Spec(p) => p.description(),
        }
    }

    /// What to do about it, in general (each finding carries its own fix).
    pub fn help(self) -> &'static str {
        match self {
            Code::Shadowed => {
                "Remove the copy you do not want or rename one; `skilltui why NAME` shows which copy wins for each agent and why."
            }
            Code::Rejected => {
                "`skilltui why NAME --agent AGENT` names the rule; `skilltui fix` applies the quick fixes that exist."
            }
            Code::Disabled => {
                "Remove the skill from the agent's setting that disables it, if the agent should load it."
            }
            Code::Unknown => {
                "`skilltui agents AGENT` shows the undecided rule; `skilltui agents --verify` runs the installed agent."
            }
            Code::NotFound => {
                "Move the skill folder directly under a root the agent scans (`skilltui fix --only ungroup` for a grouping folder)."
            }
            Code::Invisible => {
                "Move the skill into a folder an agent scans (`skilltui roots` lists them)."
            }
            Code::RootNotScanned => {
                "To share these skills with the agent, link each skill folder into a root it scans, or move them there (`skilltui mv`)."
            }
            Code::Spec(ProblemCode::ReferenceMissing) => {
                "Add the file to the skill folder, or correct the reference."
            }
            Code::SpecOther | Code::Spec(_) => {
                "See the message; `skilltui validate PATH` and `skilltui fix --list SKILL` show the spec problems and their quick fixes."
            }
        }
    }

    /// The severity a finding of this code has when nothing about the agents changes it (spec
    /// codes: warning when an agent model acts on the problem, info otherwise).
    pub fn default_severity(self) -> Severity {
        match self {
            Code::Shadowed
            | Code::Rejected
            | Code::Disabled
            | Code::Unknown
            | Code::NotFound
            | Code::Invisible => Severity::Error,
            Code::RootNotScanned => Severity::Info,
            Code::SpecOther => Severity::Warning,
            Code::Spec(p) if always_warning(p) => Severity::Warning,
            Code::Spec(_) => Severity::Info,
        }
    }

    /// How the severity is decided, in a few words.
    pub fn severity_note(self) -> &'static str {
        match self.default_severity() {
            Severity::Error => "error: it changes what an agent loads",
            Severity::Warning => "warning: every agent meets it",
            Severity::Info if self == Code::RootNotScanned => {
                "info: one finding per folder and agent; the skills may be meant for other agents"
            }
            Severity::Info => "warning when an agent model acts on it, info otherwise",
        }
    }
}
