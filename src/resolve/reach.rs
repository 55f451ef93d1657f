//! Does an agent reach a candidate file through one of its root folders? The traversal rules
//! (depth, hidden folders, node_modules, nested skills, symlinks, ignore files, file name,
//! files directly in a root) decide, each cited in the reasons.
//!
//! [`CHECKS`] lists them in the order the agents apply them; the first check that decides
//! wins, and a candidate no check stops is reached. A new traversal rule is one check function
//! (usually one call of [`decide`]) and one line in the table.

use super::verdict::shown;
use super::verdict::{Message, Reason};
use crate::agents::{
    AgentModel, Depth, EnterOrSkip, FileNameMatch, FollowOrIgnore, Known, LooseMd, Nested,
    RootSkillMd, RootSpec, Rule,
};
use crate::msg;
use crate::scan::{AgentRoot, Candidate, RootState, WalkedRoot};
use std::path::Path;

/// The outcome of one root for one candidate.
#[derive(Debug, Clone, PartialEq)]
pub enum Reach {
    Reached,
    NotFound(Reason),
    Unknown(Reason),
}

/// What a check looks at: one candidate under one root instance of one agent.
pub struct Look<'a> {
    pub agent: &'a AgentModel,
    pub root: &'a AgentRoot,
    pub spec: &'a RootSpec,
    pub walked: &'a WalkedRoot,
    pub candidate: &'a Candidate,
}

/// A traversal check: `None` when it does not decide (the next one does).
pub type Check = fn(&Look) -> Option<Reach>;

/// The traversal checks in the order the agents apply them: the first that decides wins.
pub const CHECKS: &[(&str, Check)] = &[
    ("root-state", root_state),
    ("file-in-root", file_in_root),
    ("file-name", file_name),
    ("root-is-one-skill", root_is_one_skill),
    ("depth", depth),
    ("hidden-folder", hidden_folder),
    ("node-modules", node_modules),
    ("nested-skill", nested_skill),
    ("symlinked-folder", symlinked_folder),
    ("symlinked-file", symlinked_file),
    ("ignore-files", ignore_files),
    ("folder-cap", folder_cap),
];

/// Checks one candidate under one root instance of agent `agent`.
pub fn reach(
    agent: &AgentModel,
    root: &AgentRoot,
    walked: &WalkedRoot,
    candidate: &Candidate,
) -> Reach {
    let look = Look {
        agent,
        root,
        spec: crate::scan::roots::spec_of(agent, root),
        walked,
        candidate,
    };
    CHECKS
        .iter()
        .find_map(|(_, check)| check(&look))
        .unwrap_or(Reach::Reached)
}

/// The one shape of a rule's check: a known value gives not-found when `stops` says why, an
/// unknown value gives unknown when `unknown` says what is not established; otherwise the next
/// check decides. Each sentence is made only when it is used.
pub fn decide<T>(
    rule: &Rule<T>,
    stops: impl FnOnce(&T) -> Option<Message>,
    unknown: impl FnOnce() -> Option<Message>,
) -> Option<Reach> {
    match &rule.value {
        Known::Known(value) => {
            stops(value).map(|message| Reach::NotFound(Reason::from_rule(&rule.from, message)))
        }
        Known::Unknown => {
            unknown().map(|message| Reach::Unknown(Reason::from_rule(&rule.from, message)))
        }
    }
}

/// A traversal rule after the root's override.
fn eff<'a, T>(over: &'a Option<Rule<T>>, default: &'a Rule<T>) -> &'a Rule<T> {
    over.as_ref().unwrap_or(default)
}

impl Look<'_> {
    fn skill_md_in_root(&self) -> &Rule<RootSkillMd> {
        eff(
            &self.spec.traversal.skill_md_in_root,
            &self.agent.traversal.skill_md_in_root,
        )
    }
    fn nested(&self) -> &Rule<Nested> {
        eff(&self.spec.traversal.nested, &self.agent.traversal.nested)
    }
    fn root_path(&self) -> super::verdict::Shown<'_> {
        shown(&self.root.path)
    }
}

/// A root skipped as a whole: outside the walk, variable unset, not first in its group,
/// untrusted folder, dropped by the environment.
fn root_state(look: &Look) -> Option<Reach> {
    let (agent, root, spec) = (look.agent, look.root, look.spec);
    let walk_from = spec.walk.as_ref().map_or(&spec.from, |w| &w.from);
    let not_found = |from, message| Some(Reach::NotFound(Reason::from_rule(from, message)));
    match &root.state {
        RootState::Scanned => None,
        RootState::OutsideWalk(why) => not_found(
            walk_from,
            msg!("{} does not scan {}: {}", agent.name, shown(&root.path), why),
        ),
        RootState::WalkUnknown(why) => Some(Reach::Unknown(Reason::from_rule(
            walk_from,
            msg!(
                "whether {} scans {} is unknown: {}",
                agent.name,
                shown(&root.path),
                why
            ),
        ))),
        RootState::UnsetVar(var) => not_found(
            &spec.from,
            msg!(
                "{} scans `{}` only when ${} is set, and it is not",
                agent.name,
                spec.path,
                var
            ),
        ),
        RootState::NotFirstInGroup { group, first } => Some(Reach::NotFound(
            Reason::from_rule(
                &spec.from,
                msg!("not read: {} comes first in its group `{}`; {} reads only the first existing folder of the group", shown(&first), group, agent.name),
            )
            .with_topic(crate::agents::Topic::RootGroup),
        )),
        RootState::Untrusted(trust) => Some(untrusted(look, trust)),
        RootState::DroppedByEnv(why) => not_found(
            &spec.from,
            msg!(
                "{} does not scan {} because {}",
                agent.name,
                shown(&root.path),
                why
            ),
        ),
    }
}

/// A trust-gated root in a folder not (known to be) trusted.
fn untrusted(look: &Look, trust: &crate::trust::TrustDecision) -> Reach {
    let agent = look.agent;
    let from = trust.rule(agent).unwrap_or(&look.spec.from);
    let project = shown(&trust.folder);
    match trust.trusted {
        None => Reach::Unknown(Reason::from_rule(
            from,
            msg!(
                "{} reads {} only in a trusted folder, and whether {} is trusted is not established: {}",
                agent.name,
                look.root_path(),
                project,
                trust.why
            ),
        )),
        _ => Reach::NotFound(Reason::from_rule(
            from,
            msg!(
                "{} reads {} only in a trusted folder, and {} is not trusted: {}; to trust it, {}",
                agent.name,
                look.root_path(),
                project,
                trust.why,
                trust.how
            ),
        )),
    }
}

/// A file directly in the root: a SKILL.md there (`skill_md_in_root`) or a loose `*.md`
/// (`loose_md`).
fn file_in_root(look: &Look) -> Option<Reach> {
    let (agent, candidate) = (look.agent, look.candidate);
    if candidate.depth != 0 {
        return None;
    }
    if candidate.is_skill_md() {
        return decide(
            look.skill_md_in_root(),
            |mode| {
                matches!(mode, RootSkillMd::Ignored).then(|| msg!("the SKILL.md sits directly in the root {}; {} ignores a SKILL.md there (put it in a folder: <root>/<name>/SKILL.md)", look.root_path(), agent.name))
            },
            || {
                Some(msg!(
                    "how {} treats a SKILL.md directly in a root is not established",
                    agent.name
                ))
            },
        );
    }
    let loose = eff(&look.spec.traversal.loose_md, &agent.traversal.loose_md);
    if let Known::Known(LooseMd::Skill) = loose.value {
        return Some(loose_file_as_skill(look));
    }
    decide(
        loose,
        |_| {
            Some(msg!(
                "{} is a loose Markdown file in the root; {} only loads <root>/<name>/SKILL.md",
                candidate.file_name,
                agent.name
            ))
        },
        || {
            Some(msg!(
                "whether {} loads loose *.md files in a root is not established",
                agent.name
            ))
        },
    )
}

/// A loose `*.md` in a root of an agent that loads them: a SKILL.md in the root makes the root a
/// skill, and an agent that stops at a skill does not look at the root's other files.
fn loose_file_as_skill(look: &Look) -> Reach {
    let traversal = &look.agent.traversal;
    let nested = look.nested();
    let exact = !matches!(
        traversal.file_name.value,
        Known::Known(FileNameMatch::CaseInsensitive)
    );
    let root_skill = look.walked.candidates.iter().any(|other| {
        other.depth == 0
            && if exact {
                other.file_name == "SKILL.md"
            } else {
                other.is_skill_md()
            }
    });
    if root_skill
        && matches!(
            look.skill_md_in_root().value,
            Known::Known(RootSkillMd::Skill)
        )
        && matches!(nested.value, Known::Known(Nested::Stop))
    {
        return Reach::NotFound(Reason::from_rule(
            &nested.from,
            msg!(
                "the root {} holds a SKILL.md, so {} takes the root for a skill and does not look at the other files in it",
                look.root_path(),
                look.agent.name
            ),
        ));
    }
    Reach::Reached
}

/// The file's name against the agent's spelling of SKILL.md (`file_name`).
fn file_name(look: &Look) -> Option<Reach> {
    let (agent, candidate) = (look.agent, look.candidate);
    let named = |exact: &str| candidate.file_name == exact;
    decide(
        &agent.traversal.file_name,
        |matching| match matching {
            FileNameMatch::Exact if !named("SKILL.md") => Some(msg!(
                "the file is named {}; {} only loads files named exactly SKILL.md",
                candidate.file_name,
                agent.name
            )),
            FileNameMatch::UpperThenLower if !named("SKILL.md") && !named("skill.md") => {
                Some(msg!(
                    "the file is named {}; {} loads SKILL.md or skill.md",
                    candidate.file_name,
                    agent.name
                ))
            }
            _ => None,
        },
        || {
            (!named("SKILL.md")).then(|| msg!("the file is named {}; whether {} accepts other spellings than SKILL.md is not established", candidate.file_name, agent.name))
        },
    )
}

/// A SKILL.md directly in the root that turns the root into one skill hides the rest.
fn root_is_one_skill(look: &Look) -> Option<Reach> {
    let candidate = look.candidate;
    let in_root = look.skill_md_in_root();
    let hidden = candidate.depth > 0
        && matches!(in_root.value, Known::Known(RootSkillMd::WholeRoot))
        && candidate
            .skill_ancestors
            .iter()
            .any(|(dir, name)| dir.as_os_str().is_empty() && name == "SKILL.md");
    hidden.then(|| Reach::NotFound(Reason::from_rule(&in_root.from, msg!("the root {} has its own SKILL.md, which makes the whole root one skill and hides everything below it", look.root_path()))))
}

/// How deep below a root the agent looks (`max_depth`).
fn depth(look: &Look) -> Option<Reach> {
    let (agent, candidate) = (look.agent, look.candidate);
    decide(
        eff(&look.spec.traversal.max_depth, &agent.traversal.max_depth),
        |max| match max {
            Depth::Limited(n) if candidate.depth > *n as usize => {
                let how = if *n == 1 {
                    "only looks at direct children of a root (<root>/<name>/SKILL.md)".to_string()
                } else {
                    format!("looks at most {n} folders deep")
                };
                Some(msg!(
                    "the skill folder is {} levels below the root {}; {} {}",
                    candidate.depth,
                    look.root_path(),
                    agent.name,
                    how
                ))
            }
            _ => None,
        },
        || {
            (candidate.depth > 1).then(|| msg!("the skill folder is {} levels below the root; how deep {} looks is not established", candidate.depth, agent.name))
        },
    )
}

/// A hidden folder on the way (`hidden`).
fn hidden_folder(look: &Look) -> Option<Reach> {
    let agent = look.agent;
    let folder = look.candidate.hidden_dir.as_ref()?;
    decide(
        eff(&look.spec.traversal.hidden, &agent.traversal.hidden),
        |enter| {
            matches!(enter, EnterOrSkip::Skip).then(|| {
                msg!(
                    "the path goes through the hidden folder {}, which {} skips",
                    folder,
                    agent.name
                )
            })
        },
        || {
            Some(msg!(
                "the path goes through the hidden folder {}; whether {} enters hidden folders is not established",
                folder,
                agent.name
            ))
        },
    )
}

/// A node_modules folder on the way (`node_modules`).
fn node_modules(look: &Look) -> Option<Reach> {
    let agent = look.agent;
    if !look.candidate.node_modules {
        return None;
    }
    decide(
        eff(
            &look.spec.traversal.node_modules,
            &agent.traversal.node_modules,
        ),
        |enter| {
            matches!(enter, EnterOrSkip::Skip).then(|| {
                msg!(
                    "the path goes through node_modules, which {} skips",
                    agent.name
                )
            })
        },
        || {
            Some(msg!(
                "the path goes through node_modules; whether {} enters it is not established",
                agent.name
            ))
        },
    )
}

/// A skill inside another skill's folder (`nested`).
fn nested_skill(look: &Look) -> Option<Reach> {
    let agent = look.agent;
    let skill_file_name = |name: &str| match &agent.traversal.file_name.value {
        Known::Known(FileNameMatch::CaseInsensitive) => name.eq_ignore_ascii_case("SKILL.md"),
        Known::Known(FileNameMatch::UpperThenLower) => name == "SKILL.md" || name == "skill.md",
        _ => name == "SKILL.md",
    };
    let root_is_skill = matches!(
        look.skill_md_in_root().value,
        Known::Known(RootSkillMd::Skill) | Known::Unknown
    );
    let (outer_dir, _) = look.candidate.skill_ancestors.iter().find(|(dir, name)| {
        skill_file_name(name) && (!dir.as_os_str().is_empty() || root_is_skill)
    })?;
    let outer_path = look.root.path.join(outer_dir);
    decide(
        look.nested(),
        |nested| {
            matches!(nested, Nested::Stop).then(|| {
                msg!(
                    "it is inside the skill folder {}; {} does not look for skills inside a skill",
                    shown(&outer_path),
                    agent.name
                )
            })
        },
        || {
            Some(msg!(
                "it is inside the skill folder {}; whether {} registers nested skills is not established",
                shown(&outer_path),
                agent.name
            ))
        },
    )
}

/// A symlinked folder on the way (`symlinked_dirs`).
fn symlinked_folder(look: &Look) -> Option<Reach> {
    let agent = look.agent;
    if !look.candidate.symlinked_dir {
        return None;
    }
    decide(
        eff(
            &look.spec.traversal.symlinked_dirs,
            &agent.traversal.symlinked_dirs,
        ),
        |follow| {
            matches!(follow, FollowOrIgnore::Ignore).then(|| {
                msg!(
                    "the path goes through a symlinked folder, which {} does not follow",
                    agent.name
                )
            })
        },
        || {
            Some(msg!(
                "the path goes through a symlinked folder; whether {} follows it is not established",
                agent.name
            ))
        },
    )
}

/// SKILL.md itself a symlink (`symlinked_files`).
fn symlinked_file(look: &Look) -> Option<Reach> {
    let agent = look.agent;
    if !look.candidate.file_symlink {
        return None;
    }
    decide(
        &agent.traversal.symlinked_files,
        |follow| {
            matches!(follow, FollowOrIgnore::Ignore).then(|| {
                msg!(
                    "SKILL.md is a symlink, and {} ignores symlinked SKILL.md files",
                    agent.name
                )
            })
        },
        || {
            Some(msg!(
                "SKILL.md is a symlink; whether {} follows symlinked files is not established",
                agent.name
            ))
        },
    )
}

/// Ignore files inside the root above the skill (`ignore_files`).
fn ignore_files(look: &Look) -> Option<Reach> {
    let (agent, candidate) = (look.agent, look.candidate);
    // Most roots hold no ignore file.
    if look.walked.ignore_files.is_empty() {
        return None;
    }
    let skill_dir = candidate.rel.parent().unwrap_or(Path::new(""));
    let relevant: Vec<_> = look
        .walked
        .ignore_files
        .iter()
        .filter(|file| skill_dir.starts_with(&file.dir))
        .collect();
    if relevant.is_empty() {
        return None;
    }
    let matched = |file: &crate::scan::IgnoreFile| -> bool {
        let sub = candidate
            .rel
            .strip_prefix(&file.dir)
            .unwrap_or(&candidate.rel);
        file.ignores(sub).is_some()
    };
    decide(
        eff(
            &look.spec.traversal.ignore_files,
            &agent.traversal.ignore_files,
        ),
        |names| {
            if folder_prefixed(&agent.traversal.ignore_anchoring) {
                return ignored_folder_prefixed(look, &relevant, names);
            }
            relevant
                .iter()
                .filter(|file| names.contains(&file.name))
                .find_map(|file| {
                    let sub = candidate.rel.strip_prefix(&file.dir).unwrap_or(&candidate.rel);
                    file.ignores(sub).map(|pattern| (file, pattern))
                })
                .map(|(file, pattern)| msg!("{} in {} ignores it (pattern `{}`), and {} honours {} inside a skills root", file.name, shown(&look.root.path.join(&file.dir)), pattern, agent.name, file.name))
        },
        || {
            relevant.iter().find(|file| matched(file)).map(|file| {
                msg!(
                    "{} in {} matches it; whether {} honours ignore files is not established",
                    file.name,
                    shown(&look.root.path.join(&file.dir)),
                    agent.name
                )
            })
        },
    )
}

/// pi: one matcher for the root, the ignore files shallowest first, each pattern with its folder in front.
fn ignored_folder_prefixed(
    look: &Look,
    relevant: &[&crate::scan::IgnoreFile],
    names: &[String],
) -> Option<crate::resolve::Message> {
    let mut files: Vec<_> = relevant
        .iter()
        .filter(|file| names.contains(&file.name))
        .collect();
    files.sort_by_key(|file| {
        let at = names.iter().position(|n| *n == file.name);
        (file.dir.components().count(), at)
    });
    let lines: Vec<_> = files
        .iter()
        .map(|file| (file.dir.as_path(), file.patterns.as_slice()))
        .collect();
    let (i, pattern) = ignored_by_prefixed(&lines, &look.candidate.rel)?;
    let file = files[i];
    let agent = look.agent;
    Some(msg!(
        "{} in {} ignores it (pattern `{}`, with the folder in front: {} anchors every pattern at the skills root), and {} honours {} inside a skills root",
        file.name,
        shown(&look.root.path.join(&file.dir)),
        pattern,
        agent.name,
        agent.name,
        file.name
    ))
}

/// Whether an ignore file's patterns get their folder in front (pi), not git's anchoring.
fn folder_prefixed(rule: &Option<crate::agents::Rule<crate::agents::IgnoreAnchoring>>) -> bool {
    rule.as_ref()
        .is_some_and(|r| r.value == Known::Known(crate::agents::IgnoreAnchoring::FolderPrefixed))
}

/// A cap on the folders walked per root (`max_dirs`).
fn folder_cap(look: &Look) -> Option<Reach> {
    let agent = look.agent;
    let cap = agent.traversal.max_dirs.as_ref()?;
    decide(
        cap,
        |n| {
            (look.candidate.dir_rank >= *n as usize).then(|| msg!(
                "{} stops walking a root after {} folders, and this skill's folder comes later in its breadth-first walk of {} (order approximated by sorted names)",
                agent.name,
                n,
                look.root_path()
            ))
        },
        || None,
    )
}

use crate::pattern::ignored_by_prefixed;
