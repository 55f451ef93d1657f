//! Per-agent resolution: for each candidate file and each agent, reach (traversal), accept
//! (parsing and field rules), then decide collisions (precedence). The result is a verdict per
//! file and agent whose reasons are data.

pub mod accept;
pub mod namespace;
pub mod reach;
pub mod repair;
pub mod template;
mod touch;
pub mod verdict;

pub use crate::msg;
pub use verdict::{Bundle, Message, Reason, Status, Verdict};

use crate::agents::{
    AgentModel, CollisionKey, CollisionMode, Handling, Known, RankOrder, TieBreak, Topic,
};
use crate::scan::{self as scan, AgentRoot, Candidate, RootState, Scan, WalkedRoot};
use crate::skill::{Parses, SPEC_FIELDS};
use accept::Acceptance;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use reach::Reach;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use touch::Touches;
use verdict::shown;

/// One file some agent may load, with every place it was found.
#[derive(Debug, Clone)]
pub struct Entry {
    pub path: PathBuf,
    /// (index of the walked root, index of the candidate in it).
    pub found: Vec<(usize, usize)>,
}

impl Entry {
    pub fn candidate<'a>(&self, scan: &'a Scan) -> &'a Candidate {
        let (w, c) = self.found[0];
        &scan.walked[w].candidates[c]
    }
}

/// Groups candidates by path (a file under nested roots is found more than once).
pub fn entries(scan: &Scan) -> Vec<Entry> {
    // Sized once for every candidate (growing would hash every path again).
    let n = scan.walked.iter().map(|w| w.candidates.len()).sum();
    let mut index: HashMap<&Path, usize> = HashMap::with_capacity(n);
    let mut out: Vec<Entry> = Vec::with_capacity(n);
    for (wi, w) in scan.walked.iter().enumerate() {
        for (ci, c) in w.candidates.iter().enumerate() {
            match index.get(c.path.as_path()) {
                Some(&i) => out[i].found.push((wi, ci)),
                None => {
                    index.insert(c.path.as_path(), out.len());
                    out.push(Entry {
                        path: c.path.clone(),
                        found: vec![(wi, ci)],
                    });
                }
            }
        }
    }
    out
}

/// The name an agent falls back to and compares the name with: the folder holding the file
/// (the root folder itself for a SKILL.md or a loose `foo.md` directly in a root, as pi does).
pub fn fallback_name(c: &Candidate, root: &Path) -> String {
    if c.depth == 0 {
        root.file_name()
            .map(|n| crate::sanitize::lossy(n).into_owned())
            .unwrap_or_default()
    } else {
        c.folder_name()
    }
}

/// A reached and accepted copy waiting for the collision step.
struct Contender {
    /// Index in the verdicts being made.
    local: usize,
    /// Index in the entries.
    entry: usize,
    root: usize,
    accepted: accept::Accepted,
    key: String,
}

fn root_list(m: &AgentModel) -> String {
    m.roots
        .iter()
        .filter(|r| r.on_this_os())
        .map(|r| format!("{} ({})", r.path, r.scope.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Resolves every entry for agent `ai`.
pub fn resolve_agent(
    models: &[AgentModel],
    ai: usize,
    scan: &Scan,
    entries: &[Entry],
) -> Vec<Verdict> {
    resolve_keyed(models, ai, scan, entries).0
}

/// The collision keys of one agent's accepted copies: what an edit needs in order to re-resolve
/// only the names it touches ([`resolve_subset`]). Compact: at 10k skills and 21 agents the
/// keys of every agent are held at once (`list --json`, `check`), so a key's text is shared
/// (with the other agents' too, [`Keys::pooled`]) and the entries under each key are one run of a
/// single list.
#[derive(Debug, Clone, Default)]
pub struct Keys {
    /// Entry index → 1 + the index of its collision key in `keys` (0: not accepted, so in no
    /// collision): four bytes per entry and agent.
    of: Vec<u32>,
    /// The distinct keys, sorted; the entries under `keys[i]` are
    /// `entries[starts[i]..starts[i + 1]]`, in entry order.
    keys: Vec<Arc<str>>,
    starts: Vec<u32>,
    entries: Vec<u32>,
}

impl Keys {
    /// The keys of every entry: `keys[i]` is entry `i`'s (None: under no key).
    pub fn new(keys: Vec<Option<String>>) -> Keys {
        Keys::pooled(keys, &mut HashSet::new())
    }

    /// [`Keys::new`], each key's text taken from `pool` when it holds it (and added to it).
    pub fn pooled(keys: Vec<Option<String>>, pool: &mut HashSet<Arc<str>>) -> Keys {
        let mut of = vec![0u32; keys.len()];
        let mut keyed: Vec<(Arc<str>, u32)> = keys
            .into_iter()
            .enumerate()
            .filter_map(|(ei, k)| {
                let k = k?;
                let text = match pool.get(k.as_str()) {
                    Some(a) => a.clone(),
                    None => {
                        let a: Arc<str> = k.into();
                        pool.insert(a.clone());
                        a
                    }
                };
                Some((text, ei as u32))
            })
            .collect();
        keyed.sort_unstable();
        let (mut keys, mut starts) = (Vec::new(), Vec::new());
        let mut entries = Vec::with_capacity(keyed.len());
        for (i, (k, ei)) in keyed.into_iter().enumerate() {
            if keys.last() != Some(&k) {
                keys.push(k);
                starts.push(i as u32);
            }
            of[ei as usize] = keys.len() as u32;
            entries.push(ei);
        }
        starts.push(entries.len() as u32);
        keys.shrink_to_fit();
        starts.shrink_to_fit();
        Keys {
            of,
            keys,
            starts,
            entries,
        }
    }

    /// The index in `keys` of entry `ei`'s key (None: under no key).
    fn key_index(&self, ei: usize) -> Option<usize> {
        match self.of.get(ei).copied().unwrap_or(0) {
            0 => None,
            k => Some(k as usize - 1),
        }
    }

    /// Entry `ei`'s collision key (None: under no key).
    pub fn of(&self, ei: usize) -> Option<&Arc<str>> {
        self.keys.get(self.key_index(ei)?)
    }

    /// Every entry's collision key, in entry order.
    pub fn all(&self) -> impl Iterator<Item = Option<&Arc<str>>> {
        (0..self.of.len()).map(|ei| self.of(ei))
    }

    /// The entries under entry `ei`'s key, itself among them, in entry order (None: under no
    /// key).
    pub fn group(&self, ei: usize) -> Option<&[u32]> {
        Some(self.run(self.key_index(ei)?))
    }

    /// The entries under `keys[i]`.
    fn run(&self, i: usize) -> &[u32] {
        &self.entries[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Files entry `ei` under `key` (None: under no key): a live edit (a few memory moves, no
    /// rebuild).
    pub fn set(&mut self, ei: usize, key: Option<String>) {
        if self.of.len() <= ei {
            self.of.resize(ei + 1, 0);
        }
        let old = std::mem::take(&mut self.of[ei]);
        if old > 0 {
            let i = old as usize - 1;
            let (start, end) = (self.starts[i] as usize, self.starts[i + 1] as usize);
            if let Some(at) = self.entries[start..end]
                .iter()
                .position(|&e| e as usize == ei)
            {
                self.entries.remove(start + at);
                for s in &mut self.starts[i + 1..] {
                    *s -= 1;
                }
                if end - start == 1 {
                    self.keys.remove(i);
                    self.starts.remove(i);
                    // The keys after it moved down one place.
                    for o in self.of.iter_mut().filter(|o| **o > old) {
                        *o -= 1;
                    }
                }
            }
        }
        let Some(key) = key else {
            return;
        };
        let i = match self.keys.binary_search_by(|k| (**k).cmp(key.as_str())) {
            Ok(i) => i,
            Err(i) => {
                let start = self.starts.get(i).copied().unwrap_or(0);
                self.keys.insert(i, key.as_str().into());
                self.starts.insert(i, start);
                // The keys from `i` on moved up one place.
                for o in self.of.iter_mut().filter(|o| **o > i as u32) {
                    *o += 1;
                }
                i
            }
        };
        let (start, end) = (self.starts[i] as usize, self.starts[i + 1] as usize);
        let at = self.entries[start..end].partition_point(|&e| (e as usize) < ei);
        self.entries.insert(start + at, ei as u32);
        for s in &mut self.starts[i + 1..] {
            *s += 1;
        }
        self.of[ei] = i as u32 + 1;
    }

    /// The entries accepted under `key`, in entry order.
    pub fn members(&self, key: &str) -> &[u32] {
        match self.keys.binary_search_by(|k| (**k).cmp(key)) {
            Ok(i) => self.run(i),
            Err(_) => &[],
        }
    }
}

/// Resolves every entry for agent `ai`, and says which collision key each accepted copy has.
pub fn resolve_keyed(
    models: &[AgentModel],
    ai: usize,
    scan: &Scan,
    entries: &[Entry],
) -> (Vec<Verdict>, Keys) {
    let all: Vec<usize> = (0..entries.len()).collect();
    let (verdicts, keys) = resolve_subset(models, ai, scan, entries, &all);
    (verdicts, Keys::new(keys))
}

/// Resolves the entries in `subset` (indices into `entries`) for agent `ai`, as if they were the
/// only ones: the verdicts and collision keys, in `subset` order. The verdicts are the ones a
/// full resolution gives when `subset` holds every member of each collision group it touches
/// (collisions are decided within a key's group; nothing else depends on other entries).
pub fn resolve_subset(
    models: &[AgentModel],
    ai: usize,
    scan: &Scan,
    entries: &[Entry],
    subset: &[usize],
) -> (Vec<Verdict>, Vec<Option<String>>) {
    let pass = AgentPass::new(models, ai, scan);
    let shared = Shared::new(scan);
    let mut verdicts: Vec<Verdict> = Vec::with_capacity(subset.len());
    let mut contenders: Vec<Contender> = Vec::new();
    for (li, &ei) in subset.iter().enumerate() {
        let facts = shared.facts(scan, &entries[ei], scan.text(&entries[ei].path));
        let (v, c) = pass.step(scan, entries, li, ei, &facts, &Parses::new());
        verdicts.push(v);
        contenders.extend(c);
    }
    pass.finish(
        scan,
        entries,
        &Touches::of(subset.to_vec()),
        verdicts,
        contenders,
    )
}

/// Every entry resolved for every agent ([`resolve_all`]).
pub struct Resolved<T, K = Keys> {
    /// Per agent, in model order: one verdict per entry, and the collision keys.
    pub agents: Vec<(Vec<Verdict>, K)>,
    /// What `extra` gave for each entry.
    pub extra: Vec<T>,
    /// YAML parses made, over all files.
    pub yaml_parses: usize,
    /// YAML parses asked for, by every agent and `extra`: all but `yaml_parses` were shared.
    pub yaml_asked: usize,
    /// Each entry's body references (None: none asked of it, or no text), worked out from the
    /// text read for it when the scan kept no texts ([`scan::Texts::Unread`]); empty otherwise
    /// (the scan's [`Scan::references`] are the ones used).
    pub references: Vec<Option<Vec<scan::Reference>>>,
}

/// Resolves every entry for every agent, file by file on all cores: each file is parsed once
/// per distinct split and YAML options its agents need, the tree shared between them and with
/// `extra` (what else the caller wants of the file while it is parsed), and dropped before the
/// next file; then each agent's collisions, on all cores. The verdicts are the ones
/// [`resolve_keyed`] gives.
pub fn resolve_all<T: Send>(
    models: &[AgentModel],
    scan: &Scan,
    entries: &[Entry],
    extra: impl Fn(usize, &Parses) -> T + Sync,
) -> Resolved<T> {
    resolve_each(
        models,
        scan,
        entries,
        |ei, _, parses| extra(ei, parses),
        Keys::new,
    )
}

/// [`resolve_all`] without the collision keys (they are dropped on the core that found them):
/// for a caller that keeps only the verdicts, such as a catalog snapshot. `extra` is given each
/// file's text as the resolution has it (kept by the scan, or read for it when the scan kept
/// none) besides its parses.
pub(crate) fn resolve_verdicts<T: Send>(
    models: &[AgentModel],
    scan: &Scan,
    entries: &[Entry],
    extra: impl Fn(usize, Option<&scan::FileContent>, &Parses) -> T + Sync,
) -> Resolved<T, ()> {
    resolve_each(models, scan, entries, extra, drop)
}

/// [`resolve_all`], each agent's collision keys (entry index → key) made into `K` by `keys`
/// on the core that resolved its collisions.
fn resolve_each<T: Send, K: Send>(
    models: &[AgentModel],
    scan: &Scan,
    entries: &[Entry],
    extra: impl Fn(usize, Option<&scan::FileContent>, &Parses) -> T + Sync,
    keys: impl Fn(Vec<Option<String>>) -> K + Sync,
) -> Resolved<T, K> {
    // A scan that kept no texts has no references either: each file's are worked out from the
    // text read for it while it is stepped through (not read again for them).
    let worked_out = scan.texts == scan::Texts::Unread;
    // Each chunk gives every agent's verdicts and accepted copies for its run of entries: the
    // chunks' vectors are large enough to go back to the system as soon as they are moved into
    // the agents' own (no copy of every verdict lives on beside them).
    let (passes, stepped) = stepped_chunks(
        models,
        scan,
        entries,
        |p, ei, facts, parses| p.step(scan, entries, ei, ei, facts, parses),
        worked_out,
        (
            |n| (Vec::with_capacity(n), Vec::new()),
            |(verdicts, contenders): &mut (Vec<Verdict>, Vec<Contender>), (v, c)| {
                verdicts.push(v);
                contenders.extend(c);
            },
        ),
        extra,
    );
    let mut out = Resolved {
        agents: Vec::new(),
        extra: Vec::with_capacity(entries.len()),
        yaml_parses: 0,
        yaml_asked: 0,
        references: Vec::new(),
    };
    // Each agent's parts of the chunks, in entry order: its core joins them into its own list
    // (the agents' lists are made on all cores, not one after the other on this one).
    type Part = (Vec<Verdict>, Vec<Contender>);
    let mut parts: Vec<Vec<Part>> = (0..models.len()).map(|_| Vec::new()).collect();
    let mut references = Vec::new();
    for chunk in stepped {
        for (ai, part) in chunk.agents.into_iter().enumerate() {
            parts[ai].push(part);
        }
        out.extra.extend(chunk.extras);
        references.extend(chunk.references);
        out.yaml_parses += chunk.parsed;
        out.yaml_asked += chunk.asked;
    }
    let work: Vec<std::sync::Mutex<Option<Vec<Part>>>> = parts
        .into_iter()
        .map(|p| std::sync::Mutex::new(Some(p)))
        .collect();
    let agents: Vec<usize> = (0..models.len()).collect();
    let touches = Touches::all(entries.len(), worked_out.then_some(references.as_slice()));
    out.agents = crate::par::par_map(&agents, |&ai| {
        let parts = work[ai]
            .lock()
            .ok()
            .and_then(|mut w| w.take())
            .unwrap_or_default();
        // One verdict per entry: sized once (growing copies every verdict joined so far).
        let mut verdicts = Vec::with_capacity(entries.len());
        let mut contenders = Vec::new();
        for (v, c) in parts {
            verdicts.extend(v);
            contenders.extend(c);
        }
        let (verdicts, found) = passes[ai].finish(scan, entries, &touches, verdicts, contenders);
        (verdicts, keys(found))
    });
    out.references = references;
    out
}

/// The body references of entry `e`'s file with this content (None: no text, or none asked of
/// it: the walk saw nothing its body could name), for a scan that kept no texts and so none
/// of them ([`scan::Texts::Unread`]).
pub fn references_in(
    scan: &Scan,
    e: &Entry,
    content: Option<&scan::FileContent>,
) -> Option<Vec<scan::Reference>> {
    let (w, c) = e.found.iter().find_map(|&(wi, ci)| {
        let (w, c) = (&scan.walked[wi], &scan.walked[wi].candidates[ci]);
        scan::has_references(c).then_some((w, c))
    })?;
    Some(scan::walked_references(w, c, content?))
}

/// One chunk of entries stepped through by every agent ([`stepped_chunks`]): what each agent
/// kept of its steps (in model order), what `extra` gave per entry, and the YAML parses made
/// and asked for.
struct Stepped<A, T> {
    agents: Vec<A>,
    extras: Vec<T>,
    /// Each entry's body references, when asked for ([`references_in`]).
    references: Vec<Option<Vec<scan::Reference>>>,
    parsed: usize,
    asked: usize,
}

/// Entries per chunk of [`stepped_chunks`].
const CHUNK: usize = 256;

/// Every agent's pass, and every entry stepped through (reach and accept) by every agent, file
/// by file in chunks of [`CHUNK`] on all cores: each file's text taken once ([`Scan::text`]: read
/// now when the scan kept none) and parsed once per distinct split and YAML options its agents
/// need, the trees shared between the agents and `extra`, and all of it dropped before the next
/// file. `step` is what an agent works out of a file (its verdict and accepted copy, or only
/// its collision key); `keep` is given each agent's on each file, in entry order, into that
/// agent's part of the chunk, which `start` makes for a chunk of so many entries (sized once:
/// growing would copy what each agent kept so far). The prelude of [`resolve_all`] and
/// [`Lean::keys`].
fn stepped_chunks<'a, A: Send, S, T: Send>(
    models: &'a [AgentModel],
    scan: &'a Scan,
    entries: &[Entry],
    step: impl Fn(&AgentPass, usize, &EntryFacts, &Parses) -> S + Sync,
    references: bool,
    (start, keep): (impl Fn(usize) -> A + Sync, impl Fn(&mut A, S) + Sync),
    extra: impl Fn(usize, Option<&scan::FileContent>, &Parses) -> T + Sync,
) -> (Vec<AgentPass<'a>>, Vec<Stepped<A, T>>) {
    let passes: Vec<AgentPass> = (0..models.len())
        .map(|ai| AgentPass::new(models, ai, scan))
        .collect();
    let shared = Shared::new(scan);
    let chunks: Vec<std::ops::Range<usize>> = (0..entries.len())
        .step_by(CHUNK)
        .map(|a| a..(a + CHUNK).min(entries.len()))
        .collect();
    let stepped = crate::par::par_map(&chunks, |range| {
        let mut chunk = Stepped {
            agents: (0..models.len()).map(|_| start(range.len())).collect(),
            extras: Vec::with_capacity(range.len()),
            references: Vec::with_capacity(if references { range.len() } else { 0 }),
            parsed: 0,
            asked: 0,
        };
        for ei in range.clone() {
            let parses = Parses::new();
            let facts = shared.facts(scan, &entries[ei], scan.text(&entries[ei].path));
            for (ai, p) in passes.iter().enumerate() {
                keep(&mut chunk.agents[ai], step(p, ei, &facts, &parses));
            }
            if references {
                let found = references_in(scan, &entries[ei], facts.content.as_ref());
                chunk.references.push(found);
            }
            chunk
                .extras
                .push(extra(ei, facts.content.as_ref(), &parses));
            chunk.parsed += parses.parsed();
            chunk.asked += parses.asked();
        }
        chunk
    });
    (passes, stepped)
}

/// A resolution that keeps no verdicts: every agent's collision keys, found file by file on all
/// cores (each file parsed once for all its agents, as in [`resolve_all`]: [`Lean::keys`]);
/// then the verdicts of one file at a time ([`Lean::verdicts`]), each agent's re-made from the
/// copies that share its key (the collision step needs nothing else). What `list --json`
/// streams from without holding every verdict of every agent. On a scan that read no texts
/// ([`scan::Texts::Unread`]) no text is kept either: each is read when its file is stepped
/// through, and again for each batch of verdicts ([`Lean::texts`]).
pub struct Lean<'a> {
    scan: &'a Scan,
    entries: &'a [Entry],
    passes: Vec<AgentPass<'a>>,
    shared: Shared<'a>,
    /// Per agent, in model order: the collision key of each entry.
    pub keys: Vec<Keys>,
}

/// The texts a batch of [`Lean::verdicts`] needs, by entry index, sorted (empty when the scan
/// kept every text).
#[derive(Default)]
pub struct BatchTexts(Vec<(usize, scan::FileContent)>);

impl BatchTexts {
    /// Entry `ei`'s text: the batch's reading, else the scan's.
    pub fn text(&self, scan: &Scan, ei: usize, entries: &[Entry]) -> Option<scan::FileContent> {
        match self.0.binary_search_by_key(&ei, |(i, _)| *i) {
            Ok(at) => Some(self.0[at].1.clone()),
            Err(_) => scan.text(&entries[ei].path),
        }
    }
}

impl<'a> Lean<'a> {
    /// Every agent's collision keys, and what `extra` gives for each entry (with its text, when
    /// it could be read) while it is parsed.
    pub fn keys<T: Send>(
        models: &[AgentModel],
        scan: &Scan,
        entries: &[Entry],
        extra: impl Fn(usize, Option<&scan::FileContent>, &Parses) -> T + Sync,
    ) -> (Vec<Keys>, Vec<T>) {
        let (_, stepped) = stepped_chunks(
            models,
            scan,
            entries,
            |p, ei, facts, parses| p.key(scan, entries, ei, facts, parses),
            false,
            (Vec::with_capacity, |keys: &mut Vec<Option<String>>, key| {
                keys.push(key)
            }),
            extra,
        );
        let mut keys: Vec<Vec<Option<String>>> = (0..models.len())
            .map(|_| Vec::with_capacity(entries.len()))
            .collect();
        let mut extras = Vec::with_capacity(entries.len());
        for chunk in stepped {
            for (all, k) in keys.iter_mut().zip(chunk.agents) {
                all.extend(k);
            }
            extras.extend(chunk.extras);
        }
        // Most agents key a copy by the same name: one text per key for all of them.
        let mut pool = HashSet::new();
        let keys = keys
            .into_iter()
            .map(|k| Keys::pooled(k, &mut pool))
            .collect();
        (keys, extras)
    }

    /// The verdicts of the scan's entries, from every agent's collision keys ([`Lean::keys`]).
    pub fn new(
        models: &'a [AgentModel],
        scan: &'a Scan,
        entries: &'a [Entry],
        keys: Vec<Keys>,
    ) -> Lean<'a> {
        Lean {
            scan,
            entries,
            passes: (0..models.len())
                .map(|ai| AgentPass::new(models, ai, scan))
                .collect(),
            shared: Shared::new(scan),
            keys,
        }
    }

    /// The texts the verdicts of the entries `batch` need: each one's and those of the copies
    /// that share a key with it, read once each, on all cores (none when the scan kept them).
    pub fn texts(&self, batch: &[usize]) -> BatchTexts {
        if self.scan.texts == scan::Texts::Kept {
            return BatchTexts::default();
        }
        let mut wanted: Vec<usize> = batch.to_vec();
        for &ei in batch {
            for keys in &self.keys {
                if let Some(group) = keys.group(ei) {
                    wanted.extend(group.iter().map(|&g| g as usize));
                }
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        let read = crate::par::par_map(&wanted, |&ei| self.scan.text(&self.entries[ei].path));
        // `wanted` is sorted: the pairs are too.
        BatchTexts(
            wanted
                .into_iter()
                .zip(read)
                .filter_map(|(ei, t)| Some((ei, t?)))
                .collect(),
        )
    }

    /// Every agent's verdict on entry `ei`, in model order: the ones [`resolve_all`] gives.
    /// The texts come from `texts` ([`Lean::texts`] of a batch holding `ei`), else the scan.
    pub fn verdicts(&self, ei: usize, texts: &BatchTexts) -> Vec<Verdict> {
        self.verdicts_with(ei, texts, &Parses::new())
    }

    /// [`Lean::verdicts`], the parses of entry `ei`'s text shared through `parses` (with the
    /// caller's own reading of the file).
    pub fn verdicts_with(&self, ei: usize, texts: &BatchTexts, parses: &Parses) -> Vec<Verdict> {
        let (scan, entries) = (self.scan, self.entries);
        let facts_of = |g: usize| {
            self.shared
                .facts(scan, &entries[g], texts.text(scan, g, entries))
        };
        let facts = facts_of(ei);
        let alone = [ei as u32];
        // The other copies that share a key with `ei` for some agent: each one's facts and
        // parses made once, when an agent first needs them, and shared by the agents after it.
        let mut others: Vec<(usize, EntryFacts, Parses)> = Vec::new();
        // What every agent's final touches share, for each copy it may list.
        let mut listed = vec![ei];
        for keys in &self.keys {
            listed.extend(keys.group(ei).into_iter().flatten().map(|&g| g as usize));
        }
        let touches = Touches::of(listed);
        self.passes
            .iter()
            .zip(&self.keys)
            .map(|(pass, keys)| {
                // The copies that share its key (itself alone when it has none), in entry order.
                let group = keys.group(ei).unwrap_or(&alone);
                let mut verdicts = Vec::with_capacity(group.len());
                let mut contenders = Vec::new();
                let mut at = 0;
                for (li, g) in group.iter().map(|&g| g as usize).enumerate() {
                    let (v, c) = if g == ei {
                        at = li;
                        pass.step(scan, entries, li, g, &facts, parses)
                    } else {
                        let k = match others.iter().position(|(o, _, _)| *o == g) {
                            Some(k) => k,
                            None => {
                                others.push((g, facts_of(g), Parses::new()));
                                others.len() - 1
                            }
                        };
                        let (_, facts, parses) = &others[k];
                        pass.step(scan, entries, li, g, facts, parses)
                    };
                    verdicts.push(v);
                    contenders.extend(c);
                }
                let (mut verdicts, _) = pass.finish(scan, entries, &touches, verdicts, contenders);
                verdicts.swap_remove(at)
            })
            .collect()
    }
}

/// What the resolution of one entry needs that does not depend on the agent, found once per
/// entry: the walked root it is listed under, the former roots above it, and its text.
struct EntryFacts<'a> {
    /// The deepest walked root holding the file (it was found through it): its index in the
    /// scan's walked roots.
    under: Option<usize>,
    /// Every agent's former and never-scanned roots at or above the file, nearest first.
    former: Vec<&'a crate::scan::FormerRootInstance>,
    /// The file's content (None: the scan has no such candidate).
    content: Option<scan::FileContent>,
    /// The name after the folder ([`fallback_name`]) of each place the file was found
    /// (`Entry::found`), made when an agent first needs it and shared by the others.
    folder_names: Vec<std::sync::OnceLock<String>>,
}

/// Made once per resolution, for every agent: former roots by path, and what each walked root
/// shares with the files under it.
struct Shared<'a> {
    former: HashMap<&'a Path, Vec<&'a crate::scan::FormerRootInstance>>,
    /// Per walked root (the scan's order), made when first asked.
    walked: Vec<std::sync::OnceLock<WalkedAbove<'a>>>,
}

/// A walked root's number of path components, and the former roots at or above it, nearest
/// first: the end of the list of every file under it.
struct WalkedAbove<'a> {
    depth: usize,
    former: Vec<&'a crate::scan::FormerRootInstance>,
}

impl<'a> Shared<'a> {
    fn new(scan: &'a Scan) -> Shared<'a> {
        let mut former: HashMap<&Path, Vec<&crate::scan::FormerRootInstance>> = HashMap::new();
        for f in &scan.former_roots {
            former.entry(f.path.as_path()).or_default().push(f);
        }
        Shared {
            former,
            walked: scan.walked.iter().map(|_| Default::default()).collect(),
        }
    }

    /// The former roots at or above `path` (`path` included), nearest first (none without a
    /// walk up when there are no former roots at all).
    fn former_at_or_above(&self, path: &Path) -> Vec<&'a crate::scan::FormerRootInstance> {
        if self.former.is_empty() {
            return Vec::new();
        }
        path.ancestors()
            .filter_map(|a| self.former.get(a))
            .flatten()
            .copied()
            .collect()
    }

    /// What walked root `wi` shares with the files under it, worked out when first asked.
    fn walked(&self, scan: &Scan, wi: usize) -> &WalkedAbove<'a> {
        self.walked[wi].get_or_init(|| {
            let path = &scan.walked[wi].path;
            WalkedAbove {
                depth: path.components().count(),
                former: self.former_at_or_above(path),
            }
        })
    }

    /// The facts of entry `e`; `content` is its text.
    fn facts(&self, scan: &Scan, e: &Entry, content: Option<scan::FileContent>) -> EntryFacts<'a> {
        let under = e
            .found
            .iter()
            .map(|&(wi, _)| wi)
            .max_by_key(|&wi| self.walked(scan, wi).depth);
        // The ancestors of a file under its walked root are its own up to the root, then the
        // root's (worked out once for all the files under it).
        let former = match under.map(|wi| (&scan.walked[wi].path, self.walked(scan, wi))) {
            Some((root, above)) if !self.former.is_empty() && e.path.starts_with(root) => {
                let below = e.path.components().count() - above.depth;
                let mut former: Vec<_> = e
                    .path
                    .ancestors()
                    .take(below)
                    .filter_map(|a| self.former.get(a))
                    .flatten()
                    .copied()
                    .collect();
                former.extend(&above.former);
                former
            }
            _ => self.former_at_or_above(&e.path),
        };
        EntryFacts {
            under,
            former,
            content,
            folder_names: e.found.iter().map(|_| Default::default()).collect(),
        }
    }
}

/// What resolving for one agent needs, made once per agent: its roots and their ranks, the
/// roots sentence and its provenance.
struct AgentPass<'a> {
    m: &'a AgentModel,
    ai: usize,
    roots: Vec<&'a AgentRoot>,
    /// The agent's roots (indices into `roots`) at each walked root, by the walked root's index
    /// in the scan: found without hashing a path.
    by_walked: Vec<Vec<usize>>,
    blocks: Vec<usize>,
    roots_text: String,
    /// The reason for a file under none of the agent's roots, per walked root it was found
    /// under: made the first time it is needed, then shared by every such verdict (most
    /// verdicts at scale: each agent reaches a few of the roots).
    unscanned: Vec<std::sync::OnceLock<Reason>>,
    /// The roots reason that follows more specific ones (made when first needed).
    roots_listed: std::sync::OnceLock<Reason>,
    /// Where a file was found, per root in `roots` (made when first needed, then shared).
    found: Vec<std::sync::OnceLock<Reason>>,
}

impl<'a> AgentPass<'a> {
    fn new(models: &'a [AgentModel], ai: usize, scan: &'a Scan) -> AgentPass<'a> {
        let m = &models[ai];
        let roots: Vec<&AgentRoot> = scan.agent_roots.iter().filter(|r| r.agent == ai).collect();
        let mut by_walked: Vec<Vec<usize>> = vec![Vec::new(); scan.walked.len()];
        for (i, r) in roots.iter().enumerate() {
            if let Some(wi) = scan.walked_index(&r.path) {
                by_walked[wi].push(i);
            }
        }
        AgentPass {
            m,
            ai,
            found: roots.iter().map(|_| Default::default()).collect(),
            roots,
            by_walked,
            // distance-then-root ranks closeness first within each run of consecutive project
            // roots in the file; the runs and the other roots keep their file order (a user
            // root listed after the project roots ranks after every project copy).
            blocks: scope_blocks(m),
            roots_text: root_list(m),
            unscanned: scan.walked.iter().map(|_| Default::default()).collect(),
            roots_listed: std::sync::OnceLock::new(),
        }
    }

    /// Roots a setting ranks first (`rank = "first"`) come before every other root.
    fn order_key(&self, r: &AgentRoot) -> (usize, usize, usize, usize) {
        match self.m.precedence.order.value {
            Known::Known(RankOrder::DistanceThenRoot) => (
                usize::from(!r.ahead),
                self.blocks.get(r.spec).copied().unwrap_or(usize::MAX),
                r.walk_index,
                r.spec,
            ),
            _ => (usize::from(!r.ahead), 0, r.spec, r.walk_index),
        }
    }

    /// Reach and accept for one entry (`li`: its place in the verdicts being made): its
    /// verdict before collisions, and the accepted copy waiting for the collision step.
    fn step(
        &self,
        scan: &Scan,
        entries: &[Entry],
        li: usize,
        ei: usize,
        facts: &EntryFacts,
        parses: &Parses,
    ) -> (Verdict, Option<Contender>) {
        let entry = &entries[ei];
        let places = self.places(scan, entry);
        let (ri, walked, candidate) = match self.first_reached(&places) {
            Ok(place) => place,
            Err(why) => return (self.not_reached(scan, places.is_empty(), why, facts), None),
        };
        let root = self.roots[ri];
        let found = self.found_reason(ri);
        let Some(content) = &facts.content else {
            let vanished = Reason::skilltui("read", msg!("the file vanished while it was scanned"));
            return (Verdict::new(Status::Unknown, vec![found, vanished]), None);
        };
        let folder = self.folder_name(scan, entry, (candidate, walked), facts);
        // Room for the reasons most verdicts end with (found, accepted, listed, a note).
        let mut reasons = Vec::with_capacity(4);
        reasons.push(found);
        let mut verdict = Verdict::new(Status::Unknown, reasons);
        self.before_accept(scan, root, content, parses, &mut verdict);
        verdict.root = Some(root.path.clone());
        verdict.scope = Some(root.scope);
        match accept::accept_with(self.m, content, &folder, parses) {
            Acceptance::Rejected(reason) => {
                verdict.status = Status::Rejected;
                verdict.reasons.push(reason);
                (verdict, None)
            }
            Acceptance::Unknown(reason) => {
                verdict.reasons.push(reason);
                (verdict, None)
            }
            Acceptance::Accepted(accepted) => {
                self.listed(scan, entry, folder, *accepted, verdict, (li, ei, ri))
            }
        }
    }

    /// Every root instance of this agent that holds the file, best precedence first.
    fn places<'s>(
        &self,
        scan: &'s Scan,
        entry: &Entry,
    ) -> Vec<(usize, &'s WalkedRoot, &'s Candidate)> {
        let mut places = Vec::new();
        for &(wi, ci) in &entry.found {
            let walked = &scan.walked[wi];
            for &ri in &self.by_walked[wi] {
                places.push((ri, walked, &walked.candidates[ci]));
            }
        }
        places.sort_by_key(|(ri, _, _)| self.order_key(self.roots[*ri]));
        places
    }

    /// The first place through which the agent reaches the file, else why not through each
    /// place (not found, unknown).
    #[allow(clippy::type_complexity)]
    fn first_reached<'s>(
        &self,
        places: &[(usize, &'s WalkedRoot, &'s Candidate)],
    ) -> Result<(usize, &'s WalkedRoot, &'s Candidate), (Vec<Reason>, Vec<Reason>)> {
        let mut not_found = Vec::new();
        let mut unknown = Vec::new();
        for &(ri, walked, candidate) in places {
            match reach::reach(self.m, self.roots[ri], walked, candidate) {
                Reach::Reached => return Ok((ri, walked, candidate)),
                Reach::NotFound(r) => not_found.push(r),
                Reach::Unknown(r) => unknown.push(r),
            }
        }
        Err((not_found, unknown))
    }

    /// The verdict on a file the agent reaches through none of its roots: why not, through each
    /// root that holds it; or, under none of its roots, the former roots that held it and the
    /// roots it has.
    fn not_reached(
        &self,
        scan: &Scan,
        under_none: bool,
        (not_found, unknown): (Vec<Reason>, Vec<Reason>),
        facts: &EntryFacts,
    ) -> Verdict {
        let m = self.m;
        let status = if unknown.is_empty() {
            Status::NotFound
        } else {
            Status::Unknown
        };
        let mut reasons = if unknown.is_empty() {
            not_found
        } else {
            unknown
        };
        if under_none {
            reasons.extend(self.former_roots(facts));
            let unscanned = |wi: Option<usize>| {
                let under = wi.map(|wi| shown(&scan.walked[wi].path).to_string());
                let under = under.unwrap_or_default();
                self.roots_reason(msg!(
                    "{} does not scan {}; its skill roots are: {}",
                    m.name,
                    under,
                    self.roots_text
                ))
            };
            let reason = if !reasons.is_empty() {
                self.roots_listed
                    .get_or_init(|| {
                        self.roots_reason(msg!("{}'s skill roots are: {}", m.name, self.roots_text))
                    })
                    .clone()
            } else {
                match facts
                    .under
                    .and_then(|wi| Some((wi, self.unscanned.get(wi)?)))
                {
                    Some((wi, once)) => once.get_or_init(|| unscanned(Some(wi))).clone(),
                    None => unscanned(facts.under),
                }
            };
            reasons.push(reason);
        }
        Verdict::new(status, reasons)
    }

    /// A reason citing the agent's root list as a whole.
    fn roots_reason(&self, message: Message) -> Reason {
        Reason {
            rule: self.m.roots_rule.clone(),
            topic: Topic::Root,
            message,
            fix: None,
        }
    }

    /// Specific findings about a file under none of the roots: "never scans X", "stopped
    /// scanning X in version V".
    fn former_roots(&self, facts: &EntryFacts) -> Vec<Reason> {
        let m = self.m;
        let former = facts.former.iter().filter(|f| f.agent == self.ai);
        former
            .map(|f| {
                if f.never {
                    let never = &m.not_roots[f.index];
                    return Reason::from_rule(
                        &never.from,
                        msg!("{} does not scan {}", m.name, shown(&f.path)),
                    );
                }
                let was = &m.former_roots[f.index];
                Reason::from_rule(
                    &was.from,
                    if was.until == "unknown" {
                        msg!(
                            "{} no longer scans {} (since a version the research does not pin down)",
                            m.name,
                            shown(&f.path)
                        )
                    } else {
                        msg!(
                            "{} no longer scans {} (not scanned since {})",
                            m.name,
                            shown(&f.path),
                            was.until
                        )
                    },
                )
            })
            .collect()
    }

    /// "found under ROOT", citing the root's rule.
    fn found_reason(&self, ri: usize) -> Reason {
        self.found[ri]
            .get_or_init(|| self.found_reason_now(self.roots[ri]))
            .clone()
    }

    fn found_reason_now(&self, root: &AgentRoot) -> Reason {
        let spec = crate::scan::roots::spec_of(self.m, root);
        let found = Reason::from_rule(
            &spec.from,
            msg!(
                "found under {} ({} root `{}`)",
                shown(&root.path),
                root.scope.as_str(),
                spec.path
            ),
        );
        // Under one of the agent's roots.
        if matches!(found.topic, Topic::Root | Topic::SettingRoot) {
            found.with_topic(Topic::Found)
        } else {
            found
        }
    }

    /// The name the agent falls back to. An agent that reports a skill at its canonical path
    /// also names it after the canonical folder when the name falls back to the folder (Codex).
    fn folder_name(
        &self,
        scan: &Scan,
        entry: &Entry,
        (candidate, walked): (&Candidate, &WalkedRoot),
        facts: &EntryFacts,
    ) -> String {
        let fallback = || {
            let k = entry
                .found
                .iter()
                .position(|&(wi, ci)| std::ptr::eq(&scan.walked[wi].candidates[ci], candidate));
            match k.and_then(|k| facts.folder_names.get(k)) {
                Some(name) => name
                    .get_or_init(|| fallback_name(candidate, &walked.path))
                    .clone(),
                None => fallback_name(candidate, &walked.path),
            }
        };
        match self.m.traversal.reported_path.value {
            Known::Known(crate::agents::ReportedPath::Canonical) => scan
                .canonical
                .get(&entry.path)
                .filter(|canon| **canon != entry.path)
                .and_then(|canon| canon.parent())
                .and_then(Path::file_name)
                .map(|n| crate::sanitize::lossy(n).into_owned())
                .unwrap_or_else(fallback),
            _ => fallback(),
        }
    }

    /// What holds before the agent reads the file: a root read only because the folder is
    /// trusted (citing the rule that decided), and known bugs of the release the file triggers.
    fn before_accept(
        &self,
        scan: &Scan,
        root: &AgentRoot,
        content: &scan::FileContent,
        parses: &Parses,
        verdict: &mut Verdict,
    ) {
        let m = self.m;
        if root.extra.is_none()
            && crate::trust::gates(m, root.scope)
            && let Some(Some(trust)) = scan.trust.get(self.ai)
            && let Some(from) = trust.rule(m)
        {
            verdict.reasons.push(
                Reason::from_rule(
                    from,
                    msg!(
                        "{} reads this root only in a trusted folder, and {} is trusted: {}",
                        m.name,
                        shown(&trust.folder),
                        trust.why
                    ),
                )
                .with_topic(Topic::Trust),
            );
        }
        for bug in &m.bugs {
            if let Some(what) = bug_applies(bug.when, content, parses) {
                verdict.reasons.push(Reason::from_rule(
                    &bug.from,
                    msg!("known bug: {}; {}", what, bug.effect),
                ));
            }
        }
    }

    /// The collision key of an accepted copy (`name_rules.collision_key`), after its plugin
    /// namespace; or why the namespace keeps it out.
    fn collision_key(
        &self,
        scan: &Scan,
        entry: &Entry,
        folder: String,
        accepted: &mut accept::Accepted,
    ) -> Result<String, Box<Reason>> {
        let name_key = namespace::apply(self.m, self.ai, scan, &entry.path, accepted)?;
        Ok(match self.m.name_rules.collision_key.value {
            Known::Known(CollisionKey::Folder) => folder,
            Known::Known(CollisionKey::NameIgnoreCase) => name_key.to_lowercase(),
            Known::Known(CollisionKey::FrontmatterName) => accepted
                .display
                .clone()
                .unwrap_or_else(|| accepted.name.clone()),
            _ => name_key,
        })
    }

    /// The collision key [`AgentPass::step`] gives entry `ei` (None: not listed), without its
    /// verdict (what [`Lean::keys`] keeps of a step).
    fn key(
        &self,
        scan: &Scan,
        entries: &[Entry],
        ei: usize,
        facts: &EntryFacts,
        parses: &Parses,
    ) -> Option<String> {
        let entry = &entries[ei];
        let places = self.places(scan, entry);
        let (_, walked, candidate) = self.first_reached(&places).ok()?;
        let content = facts.content.as_ref()?;
        let folder = self.folder_name(scan, entry, (candidate, walked), facts);
        // The key does not depend on the description as the agent lists it.
        match accept::accept_unlisted(self.m, content, &folder, parses) {
            Acceptance::Accepted(mut accepted) => {
                self.collision_key(scan, entry, folder, &mut accepted).ok()
            }
            Acceptance::Rejected(_) | Acceptance::Unknown(_) => None,
        }
    }

    /// An accepted copy: its plugin namespace and collision key (`name_rules.collision_key`),
    /// visible until the collision step; `at` is (place in the verdicts, entry, root).
    fn listed(
        &self,
        scan: &Scan,
        entry: &Entry,
        folder: String,
        mut accepted: accept::Accepted,
        mut verdict: Verdict,
        at: (usize, usize, usize),
    ) -> (Verdict, Option<Contender>) {
        let key = match self.collision_key(scan, entry, folder, &mut accepted) {
            Ok(key) => key,
            Err(reason) => {
                verdict.reasons.push(*reason);
                return (verdict, None);
            }
        };
        verdict.status = Status::Visible;
        verdict.as_name = Some(accepted.name.clone());
        verdict.description_as_listed = accepted.description_as_listed.clone();
        verdict.conditional = accepted.conditional.clone();
        verdict.reasons.extend(accepted.notes.iter().cloned());
        let (local, entry, root) = at;
        let contender = Contender {
            local,
            entry,
            root,
            accepted,
            key,
        };
        (verdict, Some(contender))
    }

    /// Collisions, settings and the final touches over the entries stepped through, in order.
    fn finish(
        &self,
        scan: &Scan,
        entries: &[Entry],
        touches: &Touches,
        verdicts: Vec<Verdict>,
        contenders: Vec<Contender>,
    ) -> (Vec<Verdict>, Vec<Option<String>>) {
        finish(self, scan, entries, touches, verdicts, contenders)
    }
}

fn finish(
    pass: &AgentPass,
    scan: &Scan,
    entries: &[Entry],
    touches: &Touches,
    mut verdicts: Vec<Verdict>,
    contenders: Vec<Contender>,
) -> (Vec<Verdict>, Vec<Option<String>>) {
    let (m, ai) = (pass.m, pass.ai);
    let n = verdicts.len();
    let collide = Collide::new(pass, scan, entries, &contenders);
    // The copies that share a key. Most keys have one copy, which collides with nothing: each
    // key's first copy is found by hashing, the later ones are gathered behind it, in contender
    // order. A group touches its own copies' verdicts only, so groups go in any order.
    let mut first: HashMap<&str, usize> = HashMap::with_capacity(contenders.len());
    let mut later: Vec<(usize, usize)> = Vec::new();
    for (i, c) in contenders.iter().enumerate() {
        match first.entry(c.key.as_str()) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(i);
            }
            std::collections::hash_map::Entry::Occupied(o) => later.push((*o.get(), i)),
        }
    }
    later.sort_unstable();
    for run in later.chunk_by(|a, b| a.0 == b.0) {
        let group = std::iter::once(run[0].0)
            .chain(run.iter().map(|&(_, i)| i))
            .collect();
        collide.group(group, &mut verdicts);
    }
    apply_settings(m, ai, scan, entries, &contenders, &mut verdicts);
    touch::final_touches(m, scan, entries, touches, &contenders, &mut verdicts);
    honest_unknowns(&mut verdicts);
    let mut keys: Vec<Option<String>> = vec![None; n];
    for c in contenders {
        keys[c.local] = Some(c.key);
    }
    (verdicts, keys)
}

/// The collision step of one agent (`precedence.mode`, `precedence.order`,
/// `precedence.tie_break`) over the copies that share a key.
struct Collide<'a> {
    pass: &'a AgentPass<'a>,
    scan: &'a Scan,
    entries: &'a [Entry],
    contenders: &'a [Contender],
    /// Copies are ranked by their folder's full path (`precedence.order = path-sorted`).
    path_sorted: bool,
    /// The last copy wins (`precedence.mode = last-wins`).
    last: bool,
    /// What the key is, in the sentences.
    key_kind: &'static str,
}

impl<'a> Collide<'a> {
    fn new(
        pass: &'a AgentPass<'a>,
        scan: &'a Scan,
        entries: &'a [Entry],
        contenders: &'a [Contender],
    ) -> Self {
        let m = pass.m;
        Collide {
            pass,
            scan,
            entries,
            contenders,
            path_sorted: matches!(
                m.precedence.order.value,
                Known::Known(RankOrder::PathSorted)
            ),
            last: matches!(
                m.precedence.mode.value,
                Known::Known(CollisionMode::LastWins)
            ),
            key_kind: match m.name_rules.collision_key.value {
                Known::Known(CollisionKey::Folder) => "folder name",
                Known::Known(CollisionKey::NameIgnoreCase) => "name (case aside)",
                Known::Known(CollisionKey::FrontmatterName) => "frontmatter name",
                _ => "name",
            },
        }
    }

    fn path(&self, i: usize) -> &'a PathBuf {
        &self.entries[self.contenders[i].entry].path
    }

    fn root(&self, i: usize) -> &'a AgentRoot {
        self.pass.roots[self.contenders[i].root]
    }

    fn order_key(&self, i: usize) -> (usize, usize, usize, usize) {
        self.pass.order_key(self.root(i))
    }

    /// One group of copies sharing a key: ranked, the same file reached twice made one, then
    /// the mode decides between the distinct copies.
    fn group(&self, mut group: Vec<usize>, verdicts: &mut [Verdict]) {
        // One copy collides with nothing (most keys at scale).
        if group.len() < 2 {
            return;
        }
        self.rank(&mut group);
        let distinct = self.same_file(&group, verdicts);
        if distinct.len() < 2 {
            return;
        }
        let m = self.pass.m;
        let mode = &m.precedence.mode;
        match &mode.value {
            Known::Known(CollisionMode::AllListed) => self.all_listed(&distinct, verdicts),
            Known::Known(CollisionMode::Nondeterministic) => {
                let reason = Reason::from_rule(
                    &mode.from,
                    msg!(
                        "{} copies share the {} `{}` ({}); {} keeps one of them, and which one changes between runs",
                        distinct.len(),
                        self.key_kind,
                        self.key(&distinct),
                        self.paths(&distinct),
                        m.name
                    ),
                );
                mark_all(verdicts, self.contenders, &distinct, reason);
            }
            Known::Known(CollisionMode::FirstWins | CollisionMode::LastWins)
                if m.precedence.order.value.is_unknown()
                    && winner_depends_on_order(
                        self.contenders,
                        &distinct,
                        &self.pass.roots,
                        self.last,
                    ) =>
            {
                // The order between roots and distances decides here, and it is not established.
                let reason = Reason::from_rule(
                    &m.precedence.order.from,
                    msg!(
                        "{} copies share the {} `{}` ({}); {} keeps one copy, but which one ranks {} is not established",
                        distinct.len(),
                        self.key_kind,
                        self.key(&distinct),
                        self.paths(&distinct),
                        m.name,
                        if self.last { "last" } else { "first" }
                    ),
                );
                mark_all(verdicts, self.contenders, &distinct, reason);
            }
            Known::Known(CollisionMode::FirstWins | CollisionMode::LastWins) => {
                self.one_wins(&distinct, verdicts)
            }
            Known::Unknown => {
                let reason = Reason::from_rule(
                    &mode.from,
                    msg!(
                        "{} copies share the {} `{}`; which one {} keeps is not established",
                        distinct.len(),
                        self.key_kind,
                        self.key(&distinct),
                        m.name
                    ),
                );
                mark_all(verdicts, self.contenders, &distinct, reason);
            }
        }
    }

    fn key(&self, distinct: &[usize]) -> &'a str {
        &self.contenders[distinct[0]].key
    }

    /// The copies' paths, joined for a sentence.
    fn paths(&self, set: &[usize]) -> String {
        set.iter()
            .map(|&i| shown(&self.path(i)).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Precedence order: by root rank, path and canonical path; or by the skill folder's full
    /// path in byte order, whatever the root.
    fn rank(&self, group: &mut [usize]) {
        let rank = |i: &usize| {
            let canon = self
                .scan
                .canonical
                .get(self.path(*i))
                .cloned()
                .unwrap_or_default();
            (self.order_key(*i), self.path(*i).clone(), canon)
        };
        if self.path_sorted {
            group.sort_by_cached_key(|i| {
                let p = self.path(*i);
                let dir = p
                    .parent()
                    .unwrap_or(p)
                    .as_os_str()
                    .as_encoded_bytes()
                    .to_vec();
                (dir, rank(i))
            });
        } else {
            group.sort_by_key(rank);
        }
    }

    /// The same file reached twice (through a symlink) is one skill: later copies are shadowed
    /// by the first. Returns the distinct copies.
    fn same_file(&self, group: &[usize], verdicts: &mut [Verdict]) -> Vec<usize> {
        let m = self.pass.m;
        let canonical = &self.scan.canonical;
        let mut distinct: Vec<usize> = Vec::new();
        for &i in group {
            let canon = canonical.get(self.path(i));
            match distinct
                .iter()
                .find(|&&d| canonical.get(self.path(d)) == canon)
            {
                Some(&first) => {
                    let winner = self.path(first).clone();
                    let v = &mut verdicts[self.contenders[i].local];
                    v.status = Status::Shadowed;
                    v.reasons.push(
                        Reason::from_rule(
                            &m.precedence.mode.from,
                            msg!("it is the same file as {} (reached through a symlink), which {} loads once", shown(&winner), m.name),
                        )
                        .with_topic(Topic::SameFile),
                    );
                    v.winner = Some(winner);
                }
                None => distinct.push(i),
            }
        }
        distinct
    }

    /// Every copy is listed and the model chooses: each says which others are listed too.
    fn all_listed(&self, distinct: &[usize], verdicts: &mut [Verdict]) {
        let m = self.pass.m;
        let key = self.key(distinct);
        for (n, &i) in distinct.iter().enumerate() {
            let others: Vec<String> = distinct
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != n)
                .map(|(_, &o)| shown(&self.path(o)).to_string())
                .collect();
            verdicts[self.contenders[i].local]
                .reasons
                .push(Reason::from_rule(
                    &m.precedence.mode.from,
                    msg!("{} other cop{} of the {} `{}` ({}) {} listed too: {} lists every copy and the model chooses", others.len(), if others.len() == 1 { "y" } else { "ies" }, self.key_kind, key, others.join(", "), if others.len() == 1 { "is" } else { "are" }, m.name),
                ));
        }
    }

    /// First or last wins: the winner stays visible, the others are shadowed by it (copies of
    /// one root in file-system order stay unknown).
    fn one_wins(&self, distinct: &[usize], verdicts: &mut [Verdict]) {
        let m = self.pass.m;
        let tie = &m.precedence.tie_break;
        let (first, tied) = self.winner(distinct);
        let read_order = !matches!(tie.value, Known::Known(t) if t.is_sorted());
        if tied.len() > 1 && read_order {
            let reason = Reason::from_rule(
                &tie.from,
                msg!(
                    "{} copies of the {} `{}` sit in the same root; which one {} loads {} depends on the order the file system lists them",
                    tied.len(),
                    self.key_kind,
                    self.key(distinct),
                    m.name,
                    if self.last { "last" } else { "first" }
                ),
            );
            mark_all(verdicts, self.contenders, &tied, reason);
        }
        let winner = self.path(first).clone();
        for &i in distinct {
            if i == first || (tied.len() > 1 && read_order && tied.contains(&i)) {
                continue;
            }
            let v = &mut verdicts[self.contenders[i].local];
            v.status = Status::Shadowed;
            v.reasons.push(self.shadowed(distinct, first, i, &winner));
            v.winner = Some(winner.clone());
        }
    }

    /// The winner among the distinct copies, and the copies tied with it in rank: the first copy
    /// in precedence order, or the last (among copies of the last rank, the first in sorted
    /// order); then `tie_break` says which folder of one root wins.
    fn winner(&self, distinct: &[usize]) -> (usize, Vec<usize>) {
        let tie = &self.pass.m.precedence.tie_break;
        let last_copy = distinct[distinct.len() - 1];
        let first = if self.path_sorted {
            if self.last { last_copy } else { distinct[0] }
        } else if self.last {
            let k = self.order_key(last_copy);
            distinct
                .iter()
                .copied()
                .find(|&i| self.order_key(i) == k)
                .unwrap_or(distinct[0])
        } else {
            distinct[0]
        };
        let first_key = self.order_key(first);
        let tied: Vec<usize> = if self.path_sorted {
            Vec::new()
        } else {
            distinct
                .iter()
                .copied()
                .filter(|&i| self.order_key(i) == first_key)
                .collect()
        };
        // Copies in one root: the sorted order's last folder, or its first with case aside,
        // instead of its first.
        let first = match tie.value {
            Known::Known(TieBreak::SortedLast) if tied.len() > 1 => tied[tied.len() - 1],
            Known::Known(TieBreak::SortedIgnoreCase) if tied.len() > 1 => tied
                .iter()
                .copied()
                .min_by_key(|&i| {
                    let p = self.path(i);
                    (p.to_string_lossy().to_lowercase(), p.clone())
                })
                .unwrap_or(first),
            _ => first,
        };
        (first, tied)
    }

    /// Why copy `loser` is shadowed by `winner_path` (copy `first`), citing the rule that decides.
    fn shadowed(
        &self,
        distinct: &[usize],
        first: usize,
        loser: usize,
        winner_path: &Path,
    ) -> Reason {
        let m = self.pass.m;
        let (mode, tie, last) = (&m.precedence.mode, &m.precedence.tie_break, self.last);
        let (wr, lr) = (self.root(first), self.root(loser));
        let same_root = wr.spec == lr.spec && wr.walk_index == lr.walk_index;
        // With the order unknown, both orders agree here: the mode decides.
        let from = if same_root
            && matches!(
                tie.value,
                Known::Known(TieBreak::SortedLast | TieBreak::SortedIgnoreCase)
            ) {
            // Which folder of one root wins is the tie-break's rule.
            &tie.from
        } else if m.precedence.order.value.is_unknown() {
            &mode.from
        } else if last && !self.path_sorted && wr.spec != lr.spec {
            // Which root is read last is the mode's rule.
            &mode.from
        } else {
            &m.precedence.order.from
        };
        let keeps = if last {
            "keeps the last copy: a later copy replaces an earlier one"
        } else {
            "keeps the first copy and drops the others"
        };
        Reason::from_rule(
            from,
            msg!(
                "the {} `{}` is taken by {}: {}; {} {}{}",
                self.key_kind,
                self.key(distinct),
                shown(&winner_path),
                self.why_first(wr, lr),
                m.name,
                keeps,
                if matches!(m.precedence.warns.value, Known::Known(false)) {
                    " without a warning"
                } else {
                    ""
                }
            ),
        )
    }

    /// Why the winner's root (`wr`) ranks before the loser's (`lr`), in words.
    fn why_first(&self, wr: &AgentRoot, lr: &AgentRoot) -> String {
        let m = self.pass.m;
        let last = self.last;
        if self.path_sorted {
            format!(
                "its folder's path sorts {} this one's (byte order of the full path)",
                if last { "after" } else { "before" }
            )
        } else if wr.spec != lr.spec {
            format!(
                "its root `{}` ranks {} `{}`",
                crate::scan::roots::spec_of(m, wr).path,
                if last { "after" } else { "before" },
                crate::scan::roots::spec_of(m, lr).path
            )
        } else if wr.walk_index != lr.walk_index {
            if last {
                "its folder comes later in the project walk".to_string()
            } else {
                "its folder is nearer the project folder".to_string()
            }
        } else {
            match m.precedence.tie_break.value {
                Known::Known(TieBreak::SortedLast) => {
                    "it comes last in sorted order (a later copy in the root replaces an earlier one)".to_string()
                }
                Known::Known(TieBreak::SortedIgnoreCase) => {
                    "it comes first in sorted order, case aside".to_string()
                }
                _ => "it comes first in sorted order".to_string(),
            }
        }
    }
}

/// Honest unknowns: a verdict decided by a rule nothing establishes says so.
fn honest_unknowns(verdicts: &mut [Verdict]) {
    for v in verdicts {
        if v.status == Status::Unknown {
            continue;
        }
        let i = match v.status {
            Status::NotFound => 0,
            _ => v.reasons.len().saturating_sub(1),
        };
        if let Some(r) = v.reasons.get_mut(i)
            && r.evidence().starts_with("[NONE")
            && !r.message.contains("not established")
        {
            r.message
                .append(" (an assumption: no source establishes this rule)");
        }
    }
}

/// Whether a known bug's condition holds for this file: a sentence saying what in the file
/// triggers it.
fn bug_applies(
    when: crate::agents::BugCondition,
    content: &scan::FileContent,
    parses: &Parses,
) -> Option<String> {
    use crate::agents::BugCondition;
    use crate::skill::StrField;
    let Ok(md) = &**content else { return None };
    let lenient = crate::skill::SplitOptions {
        strip_bom: true,
        padded_delimiters: false,
        unclosed_rest_is_yaml: false,
    };
    let field = |key: &str| -> Option<String> {
        let doc = parses.parse_md(md, lenient, Default::default()).ok()?;
        match doc.frontmatter.string(key) {
            StrField::Other(n) => Some(format!(
                "`{key}` is a YAML {} (line {}), not a string",
                n.ty().as_str(),
                n.pos.line
            )),
            _ => None,
        }
    };
    match when {
        BugCondition::Bom => md
            .text()
            .starts_with('\u{feff}')
            .then(|| "the file starts with a UTF-8 byte order mark".to_string()),
        BugCondition::NameNotString => field("name"),
        BugCondition::DescriptionNotString => field("description"),
    }
}

/// For each root of the model, the index of its run of consecutive roots of the same kind
/// (project roots, or any other scope), in file order.
fn scope_blocks(m: &AgentModel) -> Vec<usize> {
    let mut out = Vec::with_capacity(m.roots.len());
    let mut block = 0;
    for (i, r) in m.roots.iter().enumerate() {
        let project = r.scope == crate::agents::Scope::Project;
        if i > 0 && project != (m.roots[i - 1].scope == crate::agents::Scope::Project) {
            block += 1;
        }
        out.push(block);
    }
    out
}

/// Whether the first copy of `set` (ranked root first, then distance) differs from the first
/// copy ranked distance first, then root (the last copy, for `last`): only then does an unknown
/// order decide the winner.
fn winner_depends_on_order(
    contenders: &[Contender],
    set: &[usize],
    roots: &[&AgentRoot],
    last: bool,
) -> bool {
    let by = |f: fn(&AgentRoot) -> (usize, usize)| {
        let keys = set.iter().map(|&i| f(roots[contenders[i].root]));
        if last { keys.max() } else { keys.min() }
    };
    let a = by(|r| (r.spec, r.walk_index));
    let b = by(|r| (r.walk_index, r.spec));
    // Compare the winners themselves, not their keys.
    let win = |f: fn(&AgentRoot) -> (usize, usize), k: Option<(usize, usize)>| {
        set.iter()
            .copied()
            .filter(|&i| Some(f(roots[contenders[i].root])) == k)
            .collect::<Vec<_>>()
    };
    win(|r| (r.spec, r.walk_index), a) != win(|r| (r.walk_index, r.spec), b)
}

/// Gives every copy in `set` the status `unknown` and the same reason.
fn mark_all(verdicts: &mut [Verdict], contenders: &[Contender], set: &[usize], reason: Reason) {
    for &i in set {
        let v = &mut verdicts[contenders[i].local];
        v.status = Status::Unknown;
        v.reasons.push(reason.clone());
    }
}

/// Folds the agent's settings into the verdicts: a disabled skill is `rejected`, a hidden one
/// stays `visible` with `model: false`; the reason names the file and key that decided.
fn apply_settings(
    m: &AgentModel,
    ai: usize,
    scan: &Scan,
    entries: &[Entry],
    contenders: &[Contender],
    verdicts: &mut [Verdict],
) {
    use crate::agents::SettingEffect;
    let effects: Vec<_> = scan
        .settings
        .effects
        .iter()
        .filter(|e| e.agent == ai)
        .collect();
    // No sidecar found in any skill folder: none to look up per copy.
    let sidecar_specs: Vec<usize> = if scan.sidecars.is_empty() {
        Vec::new()
    } else {
        m.settings
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind == crate::agents::SettingKind::Sidecar)
            .map(|(i, _)| i)
            .collect()
    };
    if effects.is_empty() && sidecar_specs.is_empty() {
        return;
    }
    for c in contenders {
        let v = &mut verdicts[c.local];
        if !matches!(v.status, Status::Visible | Status::Shadowed) {
            continue;
        }
        let path = &entries[c.entry].path;
        let folder = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| crate::sanitize::lossy(n).into_owned())
            .unwrap_or_default();
        let mut names: Vec<&str> = vec![c.accepted.name.as_str(), folder.as_str()];
        if let Some(d) = &c.accepted.display {
            names.push(d);
        }
        // The last flag: decided by a permission pattern under the setting's `order` rule.
        let mut decided: Vec<(usize, SettingEffect, String, bool)> = effects
            .iter()
            .filter(|e| e.target.matches(&names, path))
            .map(|e| {
                let ordered = matches!(e.target, crate::settings::Target::Permission { .. });
                (e.setting, e.effect, e.origin.clone(), ordered)
            })
            .collect();
        if let Some(dir) = path.parent() {
            for &si in &sidecar_specs {
                match scan.sidecars.get(&(ai, si, dir.to_path_buf())) {
                    Some(Ok(what)) => {
                        let effect = m.settings[si].effect.unwrap_or(SettingEffect::ModelHidden);
                        decided.push((si, effect, what.clone(), false));
                    }
                    Some(Err(problem)) => v.reasons.push(Reason::from_rule(
                        &m.settings[si].from,
                        msg!("{}; {} ignores it", problem, m.name),
                    )),
                    None => {}
                }
            }
        }
        // Disabling wins over hiding.
        decided.sort_by_key(|(_, e, _, _)| *e != SettingEffect::Disabled);
        if let Some((si, effect, origin, ordered)) = decided.into_iter().next() {
            let spec = &m.settings[si];
            // A permission pattern decides by the setting's order rule: cite it.
            let from = match (&spec.order, ordered) {
                (Some(order), true) => &order.from,
                _ => &spec.from,
            };
            match effect {
                SettingEffect::Disabled => {
                    v.status = Status::Rejected;
                    v.reasons.push(Reason::from_rule(
                        from,
                        msg!("{} does not load it: disabled by {}", m.name, origin),
                    ));
                }
                SettingEffect::ModelHidden if v.status == Status::Visible => {
                    v.model = Some(false);
                    v.reasons.push(Reason::from_rule(
                        from,
                        msg!(
                            "{} keeps it out of the model's listing; the user can still invoke it",
                            origin
                        ),
                    ));
                }
                _ => {}
            }
        }
    }
}

/// How agent `m` handles each frontmatter key (plus the spec fields the skill lacks).
pub fn field_handling(m: &AgentModel, keys: &[String]) -> BTreeMap<String, Handling> {
    field_table(keys, field_keys(keys).map(|k| handling(m, k)))
}

/// The table of [`field_keys`] each with its handling, given in that order.
pub fn field_table(
    keys: &[String],
    handling: impl Iterator<Item = Handling>,
) -> BTreeMap<String, Handling> {
    field_keys(keys)
        .zip(handling)
        .map(|(k, h)| (k.to_string(), h))
        .collect()
}

/// The keys [`field_handling`] answers for: the file's, then the spec fields.
pub fn field_keys(keys: &[String]) -> impl Iterator<Item = &str> {
    keys.iter().map(String::as_str).chain(SPEC_FIELDS)
}

/// How agent `m` handles frontmatter key `key`: its rule for the key, else its rule for any
/// key (`*`), else unknown.
pub fn handling(m: &AgentModel, key: &str) -> Handling {
    m.fields
        .get(key)
        .or_else(|| m.fields.get("*"))
        .map_or(Handling::Unknown, |f| f.handling)
}

/// Whether a root instance is one the agent scans (for the roots list).
pub fn scanned(r: &AgentRoot) -> bool {
    r.state == RootState::Scanned
}
