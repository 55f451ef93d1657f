//! Does an agent reach a candidate file through one of its root folders? The traversal rules
//! (depth, hidden folders, node_modules, nested skills, symlinks, ignore files, file name,
//! files directly in a root) decide, each cited in the reasons.

use super::verdict::{Message, Reason};
use crate::agents::{
    AgentModel, Depth, EnterOrSkip, FileNameMatch, FollowOrIgnore, Known, LooseMd, Nested,
    RootSkillMd, Rule,
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

/// A rule after applying the root's override (its id and topic come from the model).
struct Eff<'a, T> {
    rule: &'a Rule<T>,
}

fn eff<'a, T>(over: &'a Option<Rule<T>>, default: &'a Rule<T>) -> Eff<'a, T> {
    Eff {
        rule: over.as_ref().unwrap_or(default),
    }
}

impl<T> Eff<'_, T> {
    fn reason(&self, message: impl Into<Message>) -> Reason {
        Reason::from_rule(&self.rule.from, message)
    }
}

/// Checks one candidate under one root instance of agent `m`.
pub fn reach(m: &AgentModel, root: &AgentRoot, walked: &WalkedRoot, c: &Candidate) -> Reach {
    let spec = crate::scan::roots::spec_of(m, root);
    match &root.state {
        RootState::Scanned => {}
        RootState::OutsideWalk(why) => {
            let from = spec.walk.as_ref().map_or(&spec.from, |w| &w.from);
            return Reach::NotFound(Reason::from_rule(
                from,
                msg!("{} does not scan {}: {}", m.name, root.path.display(), why),
            ));
        }
        RootState::WalkUnknown(why) => {
            let from = spec.walk.as_ref().map_or(&spec.from, |w| &w.from);
            return Reach::Unknown(Reason::from_rule(
                from,
                msg!(
                    "whether {} scans {} is unknown: {}",
                    m.name,
                    root.path.display(),
                    why
                ),
            ));
        }
        RootState::UnsetVar(var) => {
            return Reach::NotFound(Reason::from_rule(
                &spec.from,
                msg!(
                    "{} scans `{}` only when ${} is set, and it is not",
                    m.name,
                    spec.path,
                    var
                ),
            ));
        }
        RootState::NotFirstInGroup { group, first } => {
            return Reach::NotFound(
                Reason::from_rule(
                    &spec.from,
                    msg!("not read: {} comes first in its group `{}`; {} reads only the first existing folder of the group", first.display(), group, m.name),
                )
                .with_topic(crate::agents::Topic::RootGroup),
            );
        }
        RootState::Untrusted(t) => {
            let from = t.rule(m).unwrap_or(&spec.from);
            let project = t.folder.display();
            return match t.trusted {
                None => Reach::Unknown(Reason::from_rule(
                    from,
                    msg!(
                        "{} reads {} only in a trusted folder, and whether {} is trusted is not established: {}",
                        m.name,
                        root.path.display(),
                        project,
                        t.why
                    ),
                )),
                _ => Reach::NotFound(Reason::from_rule(
                    from,
                    msg!(
                        "{} reads {} only in a trusted folder, and {} is not trusted: {}; to trust it, {}",
                        m.name,
                        root.path.display(),
                        project,
                        t.why,
                        t.how
                    ),
                )),
            };
        }
        RootState::DroppedByEnv(why) => {
            return Reach::NotFound(Reason::from_rule(
                &spec.from,
                msg!(
                    "{} does not scan {} because {}",
                    m.name,
                    root.path.display(),
                    why
                ),
            ));
        }
    }
    let t = &m.traversal;
    let o = &spec.traversal;

    if c.depth == 0 {
        if c.is_skill_md() {
            let r = eff(&o.skill_md_in_root, &t.skill_md_in_root);
            match &r.rule.value {
                Known::Known(RootSkillMd::Skill | RootSkillMd::WholeRoot) => {}
                Known::Known(RootSkillMd::Ignored) => {
                    return Reach::NotFound(r.reason(msg!("the SKILL.md sits directly in the root {}; {} ignores a SKILL.md there (put it in a folder: <root>/<name>/SKILL.md)", root.path.display(), m.name),
                    ));
                }
                Known::Unknown => {
                    return Reach::Unknown(r.reason(msg!(
                        "how {} treats a SKILL.md directly in a root is not established",
                        m.name
                    )));
                }
            }
        } else {
            let r = eff(&o.loose_md, &t.loose_md);
            match &r.rule.value {
                Known::Known(LooseMd::Skill) => {
                    // A SKILL.md in the root makes the root a skill, and an agent that stops at
                    // a skill does not look at the root's other files.
                    let in_root = eff(&o.skill_md_in_root, &t.skill_md_in_root);
                    let nested = eff(&o.nested, &t.nested);
                    let exact = !matches!(
                        t.file_name.value,
                        Known::Known(FileNameMatch::CaseInsensitive)
                    );
                    let root_skill = walked.candidates.iter().any(|x| {
                        x.depth == 0
                            && if exact {
                                x.file_name == "SKILL.md"
                            } else {
                                x.is_skill_md()
                            }
                    });
                    if root_skill
                        && matches!(in_root.rule.value, Known::Known(RootSkillMd::Skill))
                        && matches!(nested.rule.value, Known::Known(Nested::Stop))
                    {
                        return Reach::NotFound(nested.reason(msg!("the root {} holds a SKILL.md, so {} takes the root for a skill and does not look at the other files in it", root.path.display(), m.name),
                        ));
                    }
                    return Reach::Reached;
                }
                Known::Known(LooseMd::Ignored) => {
                    return Reach::NotFound(r.reason(msg!("{} is a loose Markdown file in the root; {} only loads <root>/<name>/SKILL.md", c.file_name, m.name),
                    ));
                }
                Known::Unknown => {
                    return Reach::Unknown(r.reason(msg!(
                        "whether {} loads loose *.md files in a root is not established",
                        m.name
                    )));
                }
            }
        }
    }

    // File name.
    let fname = Eff { rule: &t.file_name };
    let name_ok = |exact: &str| c.file_name == exact;
    match &fname.rule.value {
        Known::Known(FileNameMatch::Exact) if !name_ok("SKILL.md") => {
            return Reach::NotFound(fname.reason(msg!(
                "the file is named {}; {} only loads files named exactly SKILL.md",
                c.file_name,
                m.name
            )));
        }
        Known::Known(FileNameMatch::UpperThenLower)
            if !name_ok("SKILL.md") && !name_ok("skill.md") =>
        {
            return Reach::NotFound(fname.reason(msg!(
                "the file is named {}; {} loads SKILL.md or skill.md",
                c.file_name,
                m.name
            )));
        }
        Known::Unknown if !name_ok("SKILL.md") => {
            return Reach::Unknown(fname.reason(msg!("the file is named {}; whether {} accepts other spellings than SKILL.md is not established", c.file_name, m.name),
            ));
        }
        _ => {}
    }

    // A SKILL.md directly in the root that turns the root into one skill hides the rest.
    let in_root_mode = eff(&o.skill_md_in_root, &t.skill_md_in_root);
    if c.depth > 0
        && matches!(
            in_root_mode.rule.value,
            Known::Known(RootSkillMd::WholeRoot)
        )
        && c.skill_ancestors
            .iter()
            .any(|(d, n)| d.as_os_str().is_empty() && n == "SKILL.md")
    {
        return Reach::NotFound(in_root_mode.reason(msg!("the root {} has its own SKILL.md, which makes the whole root one skill and hides everything below it", root.path.display()),
        ));
    }

    // Depth.
    let depth = eff(&o.max_depth, &t.max_depth);
    match &depth.rule.value {
        Known::Known(Depth::Limited(n)) if c.depth > *n as usize => {
            let how = if *n == 1 {
                "only looks at direct children of a root (<root>/<name>/SKILL.md)".to_string()
            } else {
                format!("looks at most {n} folders deep")
            };
            return Reach::NotFound(depth.reason(msg!(
                "the skill folder is {} levels below the root {}; {} {}",
                c.depth,
                root.path.display(),
                m.name,
                how
            )));
        }
        Known::Unknown if c.depth > 1 => {
            return Reach::Unknown(depth.reason(msg!("the skill folder is {} levels below the root; how deep {} looks is not established", c.depth, m.name),
            ));
        }
        _ => {}
    }

    // Hidden folders and node_modules.
    if let Some(h) = &c.hidden_dir {
        let r = eff(&o.hidden, &t.hidden);
        match &r.rule.value {
            Known::Known(EnterOrSkip::Skip) => {
                return Reach::NotFound(r.reason(msg!(
                    "the path goes through the hidden folder {}, which {} skips",
                    h,
                    m.name
                )));
            }
            Known::Unknown => {
                return Reach::Unknown(r.reason(msg!("the path goes through the hidden folder {}; whether {} enters hidden folders is not established", h, m.name),
                ));
            }
            _ => {}
        }
    }
    if c.node_modules {
        let r = eff(&o.node_modules, &t.node_modules);
        match &r.rule.value {
            Known::Known(EnterOrSkip::Skip) => {
                return Reach::NotFound(r.reason(msg!(
                    "the path goes through node_modules, which {} skips",
                    m.name
                )));
            }
            Known::Unknown => {
                return Reach::Unknown(r.reason(msg!(
                    "the path goes through node_modules; whether {} enters it is not established",
                    m.name
                )));
            }
            _ => {}
        }
    }

    // Nested inside another skill.
    let skill_file_name = |n: &str| match &fname.rule.value {
        Known::Known(FileNameMatch::CaseInsensitive) => n.eq_ignore_ascii_case("SKILL.md"),
        Known::Known(FileNameMatch::UpperThenLower) => n == "SKILL.md" || n == "skill.md",
        _ => n == "SKILL.md",
    };
    let root_is_skill = matches!(
        in_root_mode.rule.value,
        Known::Known(RootSkillMd::Skill) | Known::Unknown
    );
    let outer = c
        .skill_ancestors
        .iter()
        .find(|(d, n)| skill_file_name(n) && (!d.as_os_str().is_empty() || root_is_skill));
    if let Some((outer_dir, _)) = outer {
        let r = eff(&o.nested, &t.nested);
        let outer_path = root.path.join(outer_dir);
        match &r.rule.value {
            Known::Known(Nested::Stop) => {
                return Reach::NotFound(r.reason(msg!(
                    "it is inside the skill folder {}; {} does not look for skills inside a skill",
                    outer_path.display(),
                    m.name
                )));
            }
            Known::Unknown => {
                return Reach::Unknown(r.reason(msg!("it is inside the skill folder {}; whether {} registers nested skills is not established", outer_path.display(), m.name),
                ));
            }
            _ => {}
        }
    }

    // Symlinks.
    if c.symlinked_dir {
        let r = eff(&o.symlinked_dirs, &t.symlinked_dirs);
        match &r.rule.value {
            Known::Known(FollowOrIgnore::Ignore) => {
                return Reach::NotFound(r.reason(msg!(
                    "the path goes through a symlinked folder, which {} does not follow",
                    m.name
                )));
            }
            Known::Unknown => {
                return Reach::Unknown(r.reason(msg!("the path goes through a symlinked folder; whether {} follows it is not established", m.name),
                ));
            }
            _ => {}
        }
    }
    if c.file_symlink {
        let r = Eff {
            rule: &t.symlinked_files,
        };
        match &r.rule.value {
            Known::Known(FollowOrIgnore::Ignore) => {
                return Reach::NotFound(r.reason(msg!(
                    "SKILL.md is a symlink, and {} ignores symlinked SKILL.md files",
                    m.name
                )));
            }
            Known::Unknown => {
                return Reach::Unknown(r.reason(msg!(
                    "SKILL.md is a symlink; whether {} follows symlinked files is not established",
                    m.name
                )));
            }
            _ => {}
        }
    }

    // Ignore files inside the root.
    let ign = eff(&o.ignore_files, &t.ignore_files);
    let skill_dir = c.rel.parent().unwrap_or(Path::new(""));
    let relevant: Vec<_> = walked
        .ignore_files
        .iter()
        .filter(|f| skill_dir.starts_with(&f.dir))
        .collect();
    if !relevant.is_empty() {
        match &ign.rule.value {
            Known::Known(names) if folder_prefixed(&t.ignore_anchoring) => {
                // One matcher for the root, shallowest file first (pi).
                let mut files: Vec<_> = relevant
                    .iter()
                    .filter(|f| names.contains(&f.name))
                    .collect();
                files.sort_by_key(|f| {
                    let at = names.iter().position(|n| *n == f.name);
                    (f.dir.components().count(), at)
                });
                let lines: Vec<_> = files
                    .iter()
                    .map(|f| (f.dir.as_path(), f.patterns.as_slice()))
                    .collect();
                if let Some((i, p)) = ignored_by_prefixed(&lines, &c.rel) {
                    let f = files[i];
                    return Reach::NotFound(ign.reason(msg!("{} in {} ignores it (pattern `{}`, with the folder in front: {} anchors every pattern at the skills root), and {} honours {} inside a skills root", f.name, root.path.join(&f.dir).display(), p, m.name, m.name, f.name),
                    ));
                }
            }
            Known::Known(names) => {
                for f in relevant.iter().filter(|f| names.contains(&f.name)) {
                    let sub = c.rel.strip_prefix(&f.dir).unwrap_or(&c.rel);
                    if let Some(p) = ignored_by(&f.patterns, sub) {
                        return Reach::NotFound(ign.reason(msg!("{} in {} ignores it (pattern `{}`), and {} honours {} inside a skills root", f.name, root.path.join(&f.dir).display(), p, m.name, f.name),
                        ));
                    }
                }
            }
            Known::Unknown => {
                if let Some(f) = relevant.iter().find(|f| {
                    let sub = c.rel.strip_prefix(&f.dir).unwrap_or(&c.rel);
                    ignored_by(&f.patterns, sub).is_some()
                }) {
                    return Reach::Unknown(ign.reason(msg!(
                        "{} in {} matches it; whether {} honours ignore files is not established",
                        f.name,
                        root.path.join(&f.dir).display(),
                        m.name
                    )));
                }
            }
        }
    }

    // Folder cap per root.
    if let Some(cap) = &t.max_dirs
        && let Known::Known(n) = &cap.value
        && c.dir_rank >= *n as usize
    {
        return Reach::NotFound(Reason::from_rule(
            &cap.from,
            msg!(
                "{} stops walking a root after {} folders, and this skill's folder comes later in its breadth-first walk of {} (order approximated by sorted names)",
                m.name,
                n,
                root.path.display()
            ),
        ));
    }
    Reach::Reached
}

use crate::pattern::{ignored_by, ignored_by_prefixed};

/// Whether an ignore file's patterns get their folder in front (pi), not git's anchoring.
fn folder_prefixed(rule: &Option<crate::agents::Rule<crate::agents::IgnoreAnchoring>>) -> bool {
    rule.as_ref()
        .is_some_and(|r| r.value == Known::Known(crate::agents::IgnoreAnchoring::FolderPrefixed))
}
