//! The final touches on a listed copy, after its agent's collision step: how it is listed and
//! invoked, whether the model sees it, what its listing entry and bundled files cost, and notes
//! on what its body asks for.
//!
//! What of that does not depend on the agent (the file's references and scripts, its path's
//! length, its folder's files) is a [`Touch`], found once per entry when an agent first lists
//! it and shared by the agents after it ([`Touches`]).

use super::verdict::shown;
use super::verdict::{Bundle, Reason, Status, Verdict};
use super::{Contender, Entry, accept, template};
use crate::agents::{AgentModel, BundledFiles, Known};
use crate::msg;
use crate::scan::{Reference, Scan};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

/// What the final touches of a listed copy need that does not depend on the agent.
#[derive(Debug)]
pub(super) struct Touch {
    /// The body's references to files in the skill folder by a bare relative path (not
    /// through a link): the first, and how many.
    bare: Option<(String, usize)>,
    /// The file's folder holds a `scripts/` folder.
    scripts: bool,
    /// The characters of the file's path and of its folder, as the listing writes them.
    path_chars: usize,
    dir_chars: usize,
    /// The path holds a `{` (so may its folder; a listing entry is then made to be counted).
    brace: bool,
    /// Per top-level folder of the skill folder ("": the folder itself), sorted by name: its
    /// files, and the characters their paths take in a listing.
    tops: Vec<(String, u32, u64)>,
}

impl Touch {
    /// Entry `e`'s touch, with its body references (None: it has none).
    fn of(scan: &Scan, e: &Entry, references: Option<&[Reference]>) -> Touch {
        let path = &e.path;
        let mut bare = references
            .into_iter()
            .flatten()
            .filter(|r| r.exists && !r.link);
        let first = bare.next().map(|r| r.target.clone());
        let bare = first.map(|first| (first, 1 + bare.count()));
        let dir = path.parent();
        let scripts = scan.with_scripts.contains(dir.unwrap_or(Path::new("")));
        let path_text = path.to_string_lossy();
        let dir_chars = dir.map_or(0, |d| d.to_string_lossy().chars().count());
        let (wi, ci) = e.found[0];
        let w = &scan.walked[wi];
        let c = &w.candidates[ci];
        let skill_dir = c.rel.parent().unwrap_or(Path::new(""));
        let mut tops: BTreeMap<String, (u32, u64)> = BTreeMap::new();
        for d in w.dirs_of(c) {
            if d.files == 0 {
                continue;
            }
            let Some((top, prefix)) = crate::scan::walk::below(&d.rel, skill_dir) else {
                continue;
            };
            let prefix = prefix as u64;
            let sep = u64::from(prefix > 0);
            // A top folder's name is copied once, not once per folder under it.
            let t = match tops.get_mut(&*top) {
                Some(t) => t,
                None => tops.entry(top.into_owned()).or_default(),
            };
            t.0 += d.files;
            t.1 += d.name_chars as u64 + (prefix + sep) * d.files as u64;
        }
        Touch {
            bare,
            scripts,
            path_chars: path_text.chars().count(),
            dir_chars,
            brace: path_text.contains('{'),
            tops: tops.into_iter().map(|(k, (f, c))| (k, f, c)).collect(),
        }
    }
}

/// The [`Touch`] of each entry a collision step may list, made when an agent first lists it.
pub(super) struct Touches<'r> {
    /// The entries, sorted (None: every entry, by its index).
    ids: Option<Vec<usize>>,
    cells: Vec<OnceLock<Touch>>,
    /// Every entry's body references, by index, where the resolution worked them out (a scan
    /// that kept no texts); None: the scan's ([`Scan::references`]).
    references: Option<&'r [Option<Vec<Reference>>]>,
}

impl<'r> Touches<'r> {
    /// For every one of `n` entries, with these body references (one per entry; None: the
    /// scan's).
    pub(super) fn all(n: usize, references: Option<&'r [Option<Vec<Reference>>]>) -> Touches<'r> {
        Touches {
            ids: None,
            cells: (0..n).map(|_| OnceLock::new()).collect(),
            references,
        }
    }

    /// For the entries `ids`, with the scan's body references.
    pub(super) fn of(mut ids: Vec<usize>) -> Touches<'r> {
        ids.sort_unstable();
        ids.dedup();
        Touches {
            cells: ids.iter().map(|_| OnceLock::new()).collect(),
            ids: Some(ids),
            references: None,
        }
    }

    /// `f` of entry `ei`'s touch (made now, and not kept, for an entry not among them).
    fn with<R>(&self, scan: &Scan, entries: &[Entry], ei: usize, f: impl FnOnce(&Touch) -> R) -> R {
        let e = &entries[ei];
        // The references are looked up only when the touch is made (once an entry).
        let make = || {
            let references = match self.references {
                None => scan.references.get(&e.path).map(Vec::as_slice),
                Some(worked_out) => worked_out.get(ei).and_then(Option::as_deref),
            };
            Touch::of(scan, e, references)
        };
        let at = match &self.ids {
            None => Some(ei),
            Some(ids) => ids.binary_search(&ei).ok(),
        };
        match at.and_then(|i| self.cells.get(i)) {
            Some(cell) => f(cell.get_or_init(make)),
            None => f(&make()),
        }
    }
}

/// Final touches on visible skills: how they are listed and invoked, model visibility, listing
/// cost, bundled files, notes on the body.
pub(super) fn final_touches(
    m: &AgentModel,
    scan: &Scan,
    entries: &[Entry],
    touches: &Touches,
    contenders: &[Contender],
    verdicts: &mut [Verdict],
) {
    let shape = EntryShape::of(m);
    for c in contenders {
        let v = &mut verdicts[c.local];
        if v.status != Status::Visible {
            continue;
        }
        let invoke = template::NameIn {
            template: match &m.name_rules.invoke.value {
                Known::Known(t) => t,
                Known::Unknown => "",
            },
            name: &c.accepted.name,
        };
        let name = &c.accepted.name;
        let msg = match (&c.accepted.display, invoke.is_empty()) {
            (None, true) => msg!("listed as `{}`", name),
            (None, false) => msg!("listed as `{}`; invoked as `{}`", name, invoke),
            (Some(d), true) => msg!("listed as `{}` (shown as `{}`)", name, d),
            (Some(d), false) => msg!(
                "listed as `{}` (shown as `{}`); invoked as `{}`",
                name,
                d,
                invoke
            ),
        };
        v.reasons
            .push(Reason::from_rule(&m.name_rules.source.from, msg));
        let path = &entries[c.entry].path;
        touches.with(scan, entries, c.entry, |touch| {
            match &c.accepted.hidden_from_model {
                Some(r) => {
                    v.model = Some(false);
                    v.reasons.push(r.clone());
                }
                None if v.model == Some(false) => {}
                None => {
                    v.model = Some(true);
                    v.listing_tokens = listing_tokens(shape.as_ref(), &c.accepted, path, touch);
                }
            }
            v.bundle = bundle(m, touch).map(Box::new);
            body_notes(m, touch, v);
        });
    }
}

/// Notes on what a visible skill's body asks for: bare relative paths on agents that resolve
/// them against the working folder, and bundled scripts in the agent's default mode.
fn body_notes(m: &AgentModel, touch: &Touch, v: &mut Verdict) {
    use crate::agents::{RelativeBase, ScriptPolicy};
    let Some(b) = &m.body else { return };
    if let Some((first, bare)) = &touch.bare {
        let (first, bare) = (first.as_str(), *bare);
        match &b.relative_paths.value {
            Known::Known(RelativeBase::Cwd) => {
                let fix = match b.skill_dir_variable.as_ref().and_then(|r| r.known()) {
                    Some(var) => format!("write it as `{var}/{}`", first.trim_start_matches("./")),
                    None => "state in the body that paths are relative to the skill folder".into(),
                };
                v.reasons.push(Reason::from_rule(
                    &b.relative_paths.from,
                    msg!("the body refers to `{}`{} by a bare relative path; {} resolves it against the working folder, not the skill folder, so the first try fails (the model may recover); {}", first, if bare > 1 { format!(" and {} more", bare - 1) } else { String::new() }, m.name, fix),
                ));
            }
            Known::Unknown => v.reasons.push(Reason::from_rule(
                &b.relative_paths.from,
                msg!("the body refers to `{}` by a bare relative path; what {} resolves it against is not established", first, m.name),
            )),
            _ => {}
        }
    }
    if touch.scripts {
        let at = match &b.allowed_tools_changes_scripts.value {
            Known::Known(false) => "; `allowed-tools` does not change that",
            _ => "",
        };
        let msg = match &b.scripts.value {
            Known::Known(ScriptPolicy::Runs) => {
                msg!(
                    "its scripts/ run in {}'s default mode without asking{}",
                    m.name,
                    at
                )
            }
            Known::Known(ScriptPolicy::Blocked) => msg!(
                "its scripts/ need approval in {}'s default mode, and are blocked where nobody can approve (headless){}",
                m.name,
                at
            ),
            Known::Unknown => msg!(
                "whether {} runs its scripts/ in its default mode is not established",
                m.name
            ),
        };
        v.reasons.push(Reason::from_rule(&b.scripts.from, msg));
    }
}

/// What a listing entry's length needs of an agent's entry template (`listing.entry`), worked
/// out once per agent: the template, the description's cap, the template's own characters, its
/// placeholders of each kind and its `{`s.
struct EntryShape<'m> {
    template: &'m str,
    max: Option<usize>,
    chars: usize,
    counts: [usize; 4],
    braces: usize,
}

impl<'m> EntryShape<'m> {
    fn of(m: &'m AgentModel) -> Option<EntryShape<'m>> {
        let Known::Known(template) = &m.listing.entry.value else {
            return None;
        };
        let max = match &m.listing.budget.value {
            Known::Known(b) => b.entry_max_chars.map(|m| m as usize),
            _ => None,
        };
        let (counts, braces) = template::placeholder_counts(template);
        Some(EntryShape {
            template,
            max,
            chars: template.chars().count(),
            counts,
            braces,
        })
    }
}

/// Estimated tokens of one listing entry (characters / 4, rounded up).
fn listing_tokens(
    shape: Option<&EntryShape>,
    a: &accept::Accepted,
    path: &Path,
    touch: &Touch,
) -> Option<u64> {
    let &EntryShape {
        template,
        max,
        chars,
        counts,
        braces,
    } = shape?;
    // The entry's length without making it: the template's own characters plus each value once
    // per placeholder. Exact when every `{` of the template opens a placeholder and no value
    // holds one (no replacement can then make a placeholder the next one would replace).
    let description = |max: Option<usize>| match max {
        Some(max) => a.description.chars().take(max).count(),
        None => a.description.chars().count(),
    };
    let (mut placeholders, mut chars) = (0, chars);
    for (key, n) in template::PLACEHOLDERS.into_iter().zip(counts) {
        placeholders += n;
        if n > 0 {
            let len = match key {
                "{name}" => a.name.chars().count(),
                "{description}" => description(max),
                "{path}" => touch.path_chars,
                _ => touch.dir_chars,
            };
            chars = chars + n * len - n * key.len();
        }
    }
    let tokens = if braces == placeholders
        && !a.name.contains('{')
        && !a.description.contains('{')
        && !touch.brace
    {
        chars
    } else {
        listing_entry(template, max, a, path).chars().count()
    };
    debug_assert_eq!(
        tokens,
        listing_entry(template, max, a, path).chars().count(),
        "the entry's length counted without making it"
    );
    Some(tokens.div_ceil(4) as u64)
}

/// A skill's entry in the listing: the model's template with the skill's values.
fn listing_entry(template: &str, max: Option<usize>, a: &accept::Accepted, path: &Path) -> String {
    let mut description = a.description.to_string();
    if let Some(max) = max {
        description = description.chars().take(max).collect();
    }
    let dir = path
        .parent()
        .map(|p| shown(&p).to_string())
        .unwrap_or_default();
    template
        .replace("{name}", &a.name)
        .replace("{description}", &description)
        .replace("{path}", &shown(&path).to_string())
        .replace("{dir}", &dir)
}

/// The files a listing shows beside the skill (`listing.bundled_files`): all of them, or a
/// sample, without the folders the agent leaves out (`listing.bundle_excludes`).
fn bundle(m: &AgentModel, touch: &Touch) -> Option<Bundle> {
    let all = match m.listing.bundled_files.value {
        Known::Known(BundledFiles::All) => true,
        Known::Known(BundledFiles::Sample) => false,
        _ => return None,
    };
    let excluded: Vec<String> = m
        .listing
        .bundle_excludes
        .as_ref()
        .and_then(|r| r.known().cloned())
        .unwrap_or_default();
    let tops = touch
        .tops
        .iter()
        .filter(|(top, _, _)| top.is_empty() || !excluded.contains(top));
    let (mut files, mut chars) = (0u32, 0u64);
    let mut heaviest: Vec<(String, u32)> = Vec::new();
    for (top, f, c) in tops {
        files += f;
        chars += c;
        if !top.is_empty() {
            heaviest.push((top.clone(), *f));
        }
    }
    heaviest.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    heaviest.truncate(3);
    let (files, tokens) = if all {
        (files, (chars + 3 * files as u64).div_ceil(4))
    } else {
        let shown = files.min(10);
        let avg = if files > 0 { chars / files as u64 } else { 0 };
        (shown, ((avg + 3) * shown as u64).div_ceil(4))
    };
    Some(Bundle {
        files,
        tokens,
        heaviest,
        excluded,
    })
}
