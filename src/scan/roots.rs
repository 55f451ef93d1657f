//! Expanding each agent's root templates into folders for one project, home and environment.
//!
//! A project root is expanded at the project folder and at every ancestor up to `/`; each
//! instance says whether the agent's walk reaches it, so that a skill in a folder the walk skips
//! is explained ("above the git root") instead of silently ignored.

use crate::agents::{
    AgentModel, Known, NoGitWalk, ProjectWalk, Provenance, RootSpec, Scope, SettingRank, Topic,
};
use crate::env::Env;
use crate::settings::Settings;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Whether an agent scans a root instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootState {
    Scanned,
    /// Outside the agent's project walk (a sentence saying why).
    OutsideWalk(String),
    /// The walk rule that decides this folder is unknown.
    WalkUnknown(String),
    /// A variable the path needs is not set.
    UnsetVar(String),
    /// Dropped because an environment variable is set.
    DroppedByEnv(String),
    /// Not read: an earlier root of its `group` exists (`first` is that root's folder).
    NotFirstInGroup {
        group: String,
        first: PathBuf,
    },
    /// Not read: the root's scope needs a trusted folder and the project folder is not
    /// trusted (or whether it is is unknown: `trusted` None).
    Untrusted(crate::trust::TrustDecision),
}

/// One folder an agent's root template expands to.
#[derive(Debug, Clone)]
pub struct AgentRoot {
    /// Index of the agent in the model list.
    pub agent: usize,
    /// Index of the root in the agent's `roots` (its precedence rank); roots added by settings
    /// come after the model's roots, in the order read.
    pub spec: usize,
    /// The root spec of a root added by a setting (None for the model's own roots).
    pub extra: Option<Arc<RootSpec>>,
    pub path: PathBuf,
    pub scope: Scope,
    /// Levels above the project folder where a project root was expanded (0 for other scopes).
    pub distance: usize,
    /// Position in the agent's walk order (nearest first, or git root first).
    pub walk_index: usize,
    pub state: RootState,
    /// A root added by a setting that ranks before every root of the model (`rank = "first"`).
    pub ahead: bool,
}

impl AgentRoot {
    /// One of the model's own roots (`at`: agent and spec index; `place`: distance above the
    /// project and walk index, both 0 outside the project), not ahead of the others.
    fn of_model(
        (agent, spec): (usize, usize),
        scope: Scope,
        path: PathBuf,
        (distance, walk_index): (usize, usize),
        state: RootState,
    ) -> AgentRoot {
        AgentRoot {
            agent,
            spec,
            extra: None,
            path,
            scope,
            distance,
            walk_index,
            state,
            ahead: false,
        }
    }
}

/// A root the agent no longer scans (or is known never to scan), expanded.
#[derive(Debug, Clone)]
pub struct FormerRootInstance {
    pub agent: usize,
    pub index: usize,
    pub path: PathBuf,
    /// True for a `not_roots` entry, false for a `former_roots` entry.
    pub never: bool,
}

fn walk_rule_label(walk: ProjectWalk) -> &'static str {
    match walk {
        ProjectWalk::CwdOnly => "only in the project folder",
        ProjectWalk::UpToGitRoot => "from the project folder up to the git root",
        ProjectWalk::DownFromGitRoot => "from the git root down to the project folder",
        ProjectWalk::GitRoot => "only in the git root",
        ProjectWalk::CwdAndGitRoot => "in the project folder and in the git root",
        ProjectWalk::UpToFsRoot => "from the project folder up to /",
    }
}

/// Which project ancestors (by distance) a walk reaches: Ok(true) scanned, Ok(false) not, Err
/// when the deciding rule is unknown.
fn reaches(
    env: &Env,
    git_root: Option<&Path>,
    dir: &Path,
    distance: usize,
    walk: &Known<ProjectWalk>,
    no_git: Option<&Known<NoGitWalk>>,
) -> Result<Result<(), String>, String> {
    // The project folder itself is read by every walk but `git-root` (which reads it only when
    // it is the git root, or when there is no git and `no_git` says so).
    if distance == 0 && !matches!(walk, Known::Known(ProjectWalk::GitRoot)) {
        return Ok(Ok(()));
    }
    let walk = match walk {
        Known::Known(w) => *w,
        Known::Unknown => {
            return Err(
                "whether the agent looks in folders above the project folder is not established"
                    .into(),
            );
        }
    };
    if walk == ProjectWalk::UpToFsRoot {
        return Ok(Ok(()));
    }
    if walk == ProjectWalk::CwdOnly {
        return Ok(Err(format!(
            "{} is above the project folder and this root is scanned {}",
            dir.display(),
            walk_rule_label(walk)
        )));
    }
    match git_root {
        Some(g) if matches!(walk, ProjectWalk::GitRoot | ProjectWalk::CwdAndGitRoot) => {
            if dir == g {
                Ok(Ok(()))
            } else if dir.starts_with(g) {
                Ok(Err(format!(
                    "{} is not the git root {}; this root is scanned {}",
                    dir.display(),
                    g.display(),
                    walk_rule_label(walk)
                )))
            } else {
                Ok(Err(format!(
                    "{} is above the git root {}; this root is scanned {}",
                    dir.display(),
                    g.display(),
                    walk_rule_label(walk)
                )))
            }
        }
        None if walk == ProjectWalk::GitRoot && distance == 0 => match no_git {
            None | Some(Known::Unknown) => Err(
                "the project is not in a git repository, and where the agent then looks is not established".into(),
            ),
            Some(Known::Known(_)) => Ok(Ok(())),
        },
        Some(g) => {
            if dir.starts_with(g) {
                Ok(Ok(()))
            } else {
                Ok(Err(format!(
                    "{} is above the git root {}; this root is scanned {}",
                    dir.display(),
                    g.display(),
                    walk_rule_label(walk)
                )))
            }
        }
        None => match no_git {
            None | Some(Known::Unknown) => Err(
                "the project is not in a git repository, and how far up the agent then looks is not established".into(),
            ),
            Some(Known::Known(NoGitWalk::CwdOnly)) => Ok(Err(format!(
                "the project is not in a git repository, so only the project folder itself is scanned, not {}",
                dir.display()
            ))),
            Some(Known::Known(NoGitWalk::UpToFsRoot)) => Ok(Ok(())),
            Some(Known::Known(NoGitWalk::UpToFsRootBelowHome)) => {
                let home = &env.home;
                if env.project.starts_with(home) && !(dir.starts_with(home) && dir != home) {
                    Ok(Err(format!(
                        "the project is not in a git repository; the walk goes up from the project folder but stops below the home folder {}",
                        home.display()
                    )))
                } else {
                    Ok(Ok(()))
                }
            }
        },
    }
}

/// The spec of a root instance: the model's, or the one a setting made.
pub fn spec_of<'a>(m: &'a AgentModel, r: &'a AgentRoot) -> &'a RootSpec {
    match &r.extra {
        Some(spec) => spec,
        None => &m.roots[r.spec],
    }
}

/// Expands every agent's roots, with the roots the agents' settings add.
pub fn expand(
    models: &[AgentModel],
    env: &Env,
    settings: &Settings,
) -> (Vec<AgentRoot>, Vec<FormerRootInstance>) {
    let place = Place {
        env,
        work_tree: env.git_root(),
        dot_git: env.dot_git_root(),
        ancestors: env.project.ancestors().collect(),
    };
    let mut roots = Vec::new();
    let mut former = Vec::new();
    for (ai, m) in models.iter().enumerate() {
        let first_of_agent = roots.len();
        let trust = crate::trust::decide(m, env);
        for (si, spec) in m.roots.iter().enumerate() {
            if !spec.on_this_os() {
                continue;
            }
            let dropped = spec
                .unless_env
                .iter()
                .find(|v| env.is_truthy(v))
                .map(|v| RootState::DroppedByEnv(format!("{v} is set")));
            if spec.scope == Scope::Project {
                place.project_roots(m, (ai, si), dropped, &mut roots);
            } else {
                let (path, state) = match env.expand(&spec.path, &env.home) {
                    Ok(p) => (p, dropped.unwrap_or(RootState::Scanned)),
                    Err(var) => (PathBuf::from(&spec.path), RootState::UnsetVar(var)),
                };
                roots.push(AgentRoot::of_model(
                    (ai, si),
                    spec.scope,
                    path,
                    (0, 0),
                    state,
                ));
            }
        }
        gate_and_group(m, trust, &mut roots[first_of_agent..]);
        place.former_roots(m, ai, &mut former);
    }
    setting_roots(models, settings, &mut roots);
    (roots, former)
}

/// Where roots are expanded: the environment, the git work tree and `.git` folder above the
/// project, and the project folder's ancestors (nearest first).
struct Place<'a> {
    env: &'a Env,
    work_tree: Option<PathBuf>,
    dot_git: Option<PathBuf>,
    ancestors: Vec<&'a Path>,
}

impl Place<'_> {
    /// A project root of agent `m` (`at`: agent and spec index) at every ancestor of the
    /// project, each with what the project walk says of it.
    fn project_roots(
        &self,
        m: &AgentModel,
        (ai, si): (usize, usize),
        dropped: Option<RootState>,
        roots: &mut Vec<AgentRoot>,
    ) {
        let env = self.env;
        let spec = &m.roots[si];
        let walk = spec
            .walk
            .as_ref()
            .map(|r| r.value.clone())
            .unwrap_or(Known::Unknown);
        let n = self.ancestors.len();
        for (distance, dir) in self.ancestors.iter().enumerate() {
            let path = match env.expand(&spec.path, dir) {
                Ok(p) => p,
                Err(var) => {
                    if distance == 0 {
                        roots.push(AgentRoot::of_model(
                            (ai, si),
                            spec.scope,
                            dir.join(&spec.path),
                            (distance, 0),
                            RootState::UnsetVar(var),
                        ));
                    }
                    break;
                }
            };
            let state = match (&dropped, self.user_root_at(m, spec, &path)) {
                (Some(d), _) => d.clone(),
                (None, Some(u)) => RootState::OutsideWalk(format!(
                    "{} is the user root `{}`, and the project walk leaves it to that root",
                    path.display(),
                    u.path
                )),
                (None, None) => self.walk_state(spec, dir, distance, &walk),
            };
            let walk_index = match walk {
                Known::Known(ProjectWalk::DownFromGitRoot) => n - distance,
                _ => distance,
            };
            roots.push(AgentRoot::of_model(
                (ai, si),
                spec.scope,
                path,
                (distance, walk_index),
                state,
            ));
        }
    }

    /// The user root that `path` is, when the spec leaves user roots to themselves
    /// (`except_user_roots`).
    fn user_root_at<'m>(
        &self,
        m: &'m AgentModel,
        spec: &RootSpec,
        path: &Path,
    ) -> Option<&'m RootSpec> {
        let env = self.env;
        spec.except_user_roots
            .as_ref()
            .filter(|r| matches!(r.value, Known::Known(true)))
            .and_then(|_| {
                m.roots
                    .iter()
                    .filter(|r| r.scope != Scope::Project && r.on_this_os())
                    .find(|r| env.expand(&r.path, &env.home).ok().as_deref() == Some(path))
            })
    }

    /// Whether the project walk reaches the folder `dir` (`distance` levels up).
    fn walk_state(
        &self,
        spec: &RootSpec,
        dir: &Path,
        distance: usize,
        walk: &Known<ProjectWalk>,
    ) -> RootState {
        let marker = match spec.git_marker.as_ref().map(|r| &r.value) {
            Some(Known::Known(crate::agents::GitMarker::DotGit)) => self.dot_git.as_deref(),
            _ => self.work_tree.as_deref(),
        };
        match reaches(
            self.env,
            marker,
            dir,
            distance,
            walk,
            spec.no_git.as_ref().map(|r| &r.value),
        ) {
            Ok(Ok(())) => RootState::Scanned,
            Ok(Err(why)) => RootState::OutsideWalk(why),
            Err(why) => RootState::WalkUnknown(why),
        }
    }

    /// Roots no longer scanned, and folders never scanned: expanded like roots, for reasons.
    fn former_roots(&self, m: &AgentModel, ai: usize, former: &mut Vec<FormerRootInstance>) {
        let env = self.env;
        let former_specs = m
            .former_roots
            .iter()
            .enumerate()
            .filter(|(_, f)| f.when_env.is_empty() || f.when_env.iter().any(|v| env.is_truthy(v)))
            .map(|(i, f)| (i, f.path.as_str(), f.scope, false));
        let never_specs = m
            .not_roots
            .iter()
            .enumerate()
            .map(|(i, n)| (i, n.path.as_str(), n.scope, true));
        for (index, template, scope, never) in former_specs.chain(never_specs) {
            let bases: Vec<&Path> = if scope == Scope::Project {
                self.ancestors.clone()
            } else {
                vec![env.home.as_path()]
            };
            for dir in bases {
                if let Ok(path) = env.expand(template, dir) {
                    former.push(FormerRootInstance {
                        agent: ai,
                        index,
                        path,
                        never,
                    });
                }
            }
        }
    }
}

/// Roots added by settings rank after the model's roots, or before them (`rank = "first"`).
fn setting_roots(models: &[AgentModel], settings: &Settings, roots: &mut Vec<AgentRoot>) {
    for (k, x) in settings.roots.iter().enumerate() {
        let m = &models[x.agent];
        let setting = &m.settings[x.setting];
        let mut from = setting.from.clone();
        from.note = Some(format!("added by {}", x.origin));
        // Its reasons are about the root the setting adds.
        from.id = from.id.as_topic(Topic::SettingRoot);
        let spec = RootSpec {
            id: setting.from.id.key().to_string(),
            path: x.path.display().to_string(),
            scope: Scope::Other,
            walk: None,
            no_git: None,
            git_marker: None,
            unless_env: Vec::new(),
            except_user_roots: None,
            traversal: Default::default(),
            since: None,
            os: Vec::new(),
            group: None,
            from,
        };
        roots.push(AgentRoot {
            agent: x.agent,
            spec: m.roots.len() + k,
            extra: Some(Arc::new(spec)),
            path: x.path.clone(),
            scope: Scope::Other,
            distance: 0,
            walk_index: 0,
            state: RootState::Scanned,
            ahead: matches!(
                setting.rank.as_ref().map(|r| &r.value),
                Some(Known::Known(SettingRank::First))
            ),
        });
    }
}

/// The provenance of a root spec, for reasons.
pub fn root_provenance<'a>(m: &'a AgentModel, r: &'a AgentRoot) -> &'a Provenance {
    &spec_of(m, r).from
}

/// Folder trust and root groups, on one agent's root instances: a root of a scope that needs a
/// trusted folder is not read in an untrusted one; of the roots that share a `group` (at one
/// place of the project walk), only the first in file order whose folder exists is read.
fn gate_and_group(
    m: &AgentModel,
    trust: Option<crate::trust::TrustDecision>,
    roots: &mut [AgentRoot],
) {
    if let Some(t) = trust.filter(|t| t.trusted != Some(true)) {
        for r in roots.iter_mut() {
            if r.state == RootState::Scanned && crate::trust::gates(m, r.scope) {
                r.state = RootState::Untrusted(t.clone());
            }
        }
    }
    group(m, roots, &|p: &Path| p.is_dir());
}

/// Of the roots that share a `group` (at one place of the project walk), only the first in file
/// order whose folder exists (as `exists` says) is read; the others are `NotFirstInGroup`.
fn group(m: &AgentModel, roots: &mut [AgentRoot], exists: &dyn Fn(&Path) -> bool) {
    if m.roots.iter().all(|r| r.group.is_none()) {
        return;
    }
    // (group, distance) → the scanned instances, in file order.
    let mut groups: std::collections::BTreeMap<(&str, usize), Vec<usize>> = Default::default();
    for (i, r) in roots.iter().enumerate() {
        if r.extra.is_some() || r.state != RootState::Scanned {
            continue;
        }
        if let Some(g) = m.roots[r.spec].group.as_deref() {
            groups.entry((g, r.distance)).or_default().push(i);
        }
    }
    let mut demote: Vec<(usize, String, PathBuf)> = Vec::new();
    for ((g, _), mut members) in groups {
        members.sort_by_key(|&i| roots[i].spec);
        let Some(pos) = members.iter().position(|&i| exists(&roots[i].path)) else {
            continue;
        };
        let first = roots[members[pos]].path.clone();
        for (k, &i) in members.iter().enumerate() {
            if k != pos {
                demote.push((i, g.to_string(), first.clone()));
            }
        }
    }
    for (i, group, first) in demote {
        roots[i].state = RootState::NotFirstInGroup { group, first };
    }
}

/// The root groups decided again as if the folders `made` existed too (a plan that makes a
/// root folder, predicted in memory: the first existing folder of a group may change). Returns
/// the paths of the root instances whose state changed.
pub fn regroup(models: &[AgentModel], roots: &mut [AgentRoot], made: &[PathBuf]) -> Vec<PathBuf> {
    let exists = |p: &Path| made.iter().any(|m| m == p) || p.is_dir();
    let mut changed = Vec::new();
    for (ai, m) in models.iter().enumerate() {
        if m.roots.iter().all(|r| r.group.is_none()) {
            continue;
        }
        let idx: Vec<usize> = (0..roots.len()).filter(|&i| roots[i].agent == ai).collect();
        let before: Vec<RootState> = idx.iter().map(|&i| roots[i].state.clone()).collect();
        let mut mine: Vec<AgentRoot> = idx.iter().map(|&i| roots[i].clone()).collect();
        for r in &mut mine {
            if matches!(r.state, RootState::NotFirstInGroup { .. }) {
                r.state = RootState::Scanned;
            }
        }
        group(m, &mut mine, &exists);
        for ((&i, was), r) in idx.iter().zip(before).zip(mine) {
            if r.state != was {
                changed.push(r.path.clone());
            }
            roots[i] = r;
        }
    }
    changed
}
