//! The catalog as JSON (`skilltui list --json`), written as it goes.
//!
//! - **Schema 4** (the default, [`SCHEMA`]): compact. Each part that verdicts share is written
//!   once in a top-level table and referenced by its index: `rules` (a rule id with one sentence
//!   template, its sources and evidence), `reasons` (lists of reasons, each a rule index and the
//!   values its template needs), `fields` (field-handling tables), `verdicts` and `roots`; per
//!   skill, the descriptions as the agents list them (`descriptions_as_listed`). Absent verdict
//!   keys mean "none". Skills are written one at a time, one per line. Nothing is written twice:
//!   a reason value that repeats a field of its skill, verdict or agent is that field's number in
//!   `value_refs` (or, when it only starts or ends with one, `[number, "rest"]` /
//!   `["rest", number]`), a verdict's `as` equal to the skill's `name` (or `dir`) is that
//!   number too, and a listed description that is the start of the description (all of it, as a
//!   rule) is its length in characters. With these, most verdicts and reason lists are the same
//!   for every skill under one root, and are written once.
//! - **Schema 3** (`--json-schema 3`): schema 4 without those references (values, `as` and
//!   listed descriptions written out; `value_refs` only the first five).
//! - **Schema 1** (`--json-schema 1`): the catalog as before schema 2 (the first compact form, written by one earlier version and
//!   replaced by 3), pretty-printed, every
//!   verdict with its reasons in full ([`crate::catalog::Catalog`]'s `Serialize`).
//!
//! `--fields` keeps only some keys of each skill (and of each verdict with `agents.KEY`).

use crate::agents::{Handling, RuleId};
use crate::catalog::{Catalog, Skill};
use crate::resolve::{Reason, Verdict};
use foldhash::HashMap;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::{Arc, PoisonError, RwLock};

/// The schema version of the compact form.
pub const SCHEMA: u32 = 4;

/// The keys of a skill, in output order.
pub const SKILL_KEYS: &[&str] = &[
    "path",
    "dir",
    "name",
    "description",
    "root",
    "scope",
    "problems",
    "references",
    "scripts",
    "agents",
];

/// The keys of a verdict (schema 3), in output order; schema 1 also has `strength` (and
/// writes `fields`, `reasons` and `root` in full).
pub const VERDICT_KEYS: &[&str] = &[
    "status",
    "as",
    "winner",
    "root",
    "scope",
    "model",
    "reasons",
    "strength",
    "fields",
    "listing_tokens",
    "bundle",
    "description_as_listed",
    "conditional",
];

/// What `--fields` keeps: skill keys, and for `agents`, every verdict key or some.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fields {
    skill: Vec<&'static str>,
    /// None: every verdict key (when `agents` is kept).
    verdict: Option<Vec<&'static str>>,
}

impl Fields {
    /// Parses `path,agents.status`: skill keys, `agents` (whole verdicts) or `agents.KEY`.
    /// An unknown name is an error that lists the valid ones.
    pub fn parse(list: &[String]) -> Result<Fields, String> {
        let mut f = Fields::default();
        for raw in list.iter().flat_map(|s| s.split(',')) {
            let name = raw.trim();
            if name.is_empty() {
                continue;
            }
            if let Some(k) = name.strip_prefix("agents.") {
                let Some(k) = VERDICT_KEYS.iter().find(|v| **v == k) else {
                    return Err(unknown(name));
                };
                if !f.skill.contains(&"agents") {
                    f.skill.push("agents");
                    f.verdict = Some(Vec::new());
                }
                if let Some(v) = &mut f.verdict
                    && !v.contains(k)
                {
                    v.push(k);
                }
            } else if let Some(k) = SKILL_KEYS.iter().find(|v| **v == name) {
                if *k == "agents" {
                    f.verdict = None;
                }
                if !f.skill.contains(k) {
                    f.skill.push(k);
                }
            } else {
                return Err(unknown(name));
            }
        }
        if f.skill.is_empty() {
            return Err(unknown(""));
        }
        Ok(f)
    }

    pub fn skill(&self, k: &str) -> bool {
        self.skill.contains(&k)
    }

    pub fn verdict(&self, k: &str) -> bool {
        self.skill("agents") && self.verdict.as_ref().is_none_or(|v| v.contains(&k))
    }
}

fn unknown(name: &str) -> String {
    let verdict: Vec<String> = VERDICT_KEYS.iter().map(|k| format!("agents.{k}")).collect();
    format!(
        "unknown field `{name}` for --fields; valid fields: {}, {}",
        SKILL_KEYS.join(", "),
        verdict.join(", ")
    )
}

/// Writes the catalog as JSON in the given schema (1, 3 or 4), keeping `fields` when given
/// (each skill as an object with only those keys, in schema order).
///
/// `lines`: the whole document on one line (JSON lines, for `--watch`); otherwise schema 1 is
/// pretty-printed and schemas 3 and 4 have one skill (or table entry) per line.
pub fn write(
    out: &mut dyn Write,
    cat: &Catalog,
    schema: u32,
    fields: Option<&Fields>,
    lines: bool,
) -> io::Result<()> {
    let nl: &[u8] = if lines { b"" } else { b"\n" };
    match (schema, fields) {
        (1, None) => {
            if lines {
                serde_json::to_writer(&mut *out, cat)?;
            } else {
                serde_json::to_writer_pretty(&mut *out, cat)?;
            }
            writeln!(out)
        }
        (1, Some(f)) => write_v1_fields(out, cat, f, nl),
        (3, _) => write_v2(out, cat, 3, fields, nl),
        _ => write_v2(out, cat, SCHEMA, fields, nl),
    }
}

/// `,` then the line break (none before the first item).
fn next(out: &mut dyn Write, first: bool, nl: &[u8]) -> io::Result<()> {
    if !first {
        out.write_all(b",")?;
    }
    out.write_all(nl)
}

/// Schema 1 with `--fields`: `{"schema": 1, "skills": [...]}`, each skill pruned.
fn write_v1_fields(out: &mut dyn Write, cat: &Catalog, f: &Fields, nl: &[u8]) -> io::Result<()> {
    out.write_all(b"{\"schema\":1,\"skills\":[")?;
    for (i, s) in cat.skills.iter().enumerate() {
        next(out, i == 0, nl)?;
        let mut v = serde_json::to_value(&**s)?;
        if let Some(o) = v.as_object_mut() {
            o.retain(|k, _| f.skill(k));
            if let Some(agents) = o.get_mut("agents").and_then(|a| a.as_object_mut()) {
                for (_, verdict) in agents.iter_mut() {
                    if let Some(vo) = verdict.as_object_mut() {
                        vo.retain(|k, _| f.verdict(k));
                    }
                }
            }
        }
        serde_json::to_writer(&mut *out, &v)?;
    }
    out.write_all(nl)?;
    out.write_all(b"]}\n")
}

/// Which keys the output keeps ([`Fields`]), each looked up once: the writers ask about every
/// key of every skill and verdict, and [`Fields`] answers by searching names.
#[derive(Default)]
struct Keep {
    skill: [bool; SKILL_KEYS.len()],
    verdict: [bool; VERDICT_KEYS.len()],
    /// `strength`, written only when asked for by name (`agents.strength`).
    strength: bool,
}

impl Keep {
    fn of(f: &Fields) -> Keep {
        Keep {
            skill: std::array::from_fn(|i| f.skill(SKILL_KEYS[i])),
            verdict: std::array::from_fn(|i| f.verdict(VERDICT_KEYS[i])),
            strength: f.verdict.as_ref().is_some_and(|k| k.contains(&"strength")),
        }
    }
}

/// The place of `key` among `keys`; used in `const` blocks, where a key not there fails the
/// build.
const fn key_at(keys: &[&str], key: &str) -> usize {
    let mut i = 0;
    while i < keys.len() {
        let (a, b) = (keys[i].as_bytes(), key.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("not one of the keys")
}

/// Whether a [`Keep`] keeps the skill key `$k` (one of [`SKILL_KEYS`]).
macro_rules! keeps_skill {
    ($keep:expr, $k:literal) => {
        $keep.skill[const { key_at(SKILL_KEYS, $k) }]
    };
}

/// Whether a [`Keep`] keeps the verdict key `$k` (one of [`VERDICT_KEYS`]).
macro_rules! keeps_verdict {
    ($keep:expr, $k:literal) => {
        $keep.verdict[const { key_at(VERDICT_KEYS, $k) }]
    };
}

/// One field-handling table, shared by the verdicts that have it.
type FieldTable = Arc<BTreeMap<String, Handling>>;

/// What stays fixed while the skills of schemas 3 and 4 are written: read by the cores that
/// render each skill's text ([`prepare`]) while the writer fills [`Tables`].
#[derive(Default)]
struct Frame {
    /// 3 or 4 (references to fields in values, `as` and listed descriptions).
    schema: u32,
    /// Agent id → name (the `agent.name` value reference).
    agent_names: HashMap<String, String>,
    /// Which of [`VALUE_REFS`] the output keeps (`--fields`, from `keep`): only those are
    /// referenced.
    kept: [bool; 8],
    /// The keys the output keeps.
    keep: Keep,
    root_at: HashMap<PathBuf, Vec<(crate::agents::Scope, usize)>>,
}

impl Frame {
    fn new(cat: &Catalog, schema: u32, f: &Fields) -> Frame {
        let keep = Keep::of(f);
        let mut t = Frame {
            schema,
            kept: [
                keeps_skill!(keep, "path"),
                keeps_skill!(keep, "name"),
                keeps_skill!(keep, "dir"),
                keeps_verdict!(keep, "as"),
                keeps_verdict!(keep, "winner"),
                keeps_skill!(keep, "root"),
                keeps_skill!(keep, "scope"),
                true,
            ],
            keep,
            agent_names: cat
                .agents
                .iter()
                .map(|a| (a.id.clone(), a.name.clone()))
                .collect(),
            ..Frame::default()
        };
        for (i, r) in cat.roots.iter().enumerate() {
            let at = t.root_at.entry(r.path.clone()).or_default();
            if !at.iter().any(|(sc, _)| *sc == r.scope) {
                at.push((r.scope, i));
            }
        }
        t
    }

    /// The values of `s`, `v` and the agent `id` that reasons may refer to.
    fn own<'a>(&'a self, s: &'a Skill, id: &str, v: &'a Verdict, paths: &Paths<'a>) -> Own<'a> {
        let agent = self.agent_names.get(id).map(String::as_str);
        let mut own = Own::of(s, v, agent, self.schema, paths);
        for (x, kept) in own.values.iter_mut().zip(self.kept) {
            if !kept {
                *x = None;
            }
        }
        own
    }
}

/// What the writer has put in the tables so far, found by content: read by the cores that
/// render the next batch's skills (under a read lock, while the writer waits for them), so
/// that most parts of a skill arrive with their indices, and written by the writer alone, in
/// skill order. An index, once given, never changes.
#[derive(Default)]
struct Known {
    /// Where a template's parts are ([`address`]) → (rule id, index in `rules`) for each rule
    /// with that template. A template is made once and shared by the reasons that use it, so
    /// this finds a rule without comparing its sentence.
    rules: HashMap<[usize; 4], Vec<(RuleId, usize)>>,
    /// Reason list text → its index in `reasons`.
    lists: HashMap<Arc<[u8]>, usize>,
    /// Verdict text → its index in `verdicts`.
    verdicts: HashMap<Arc<[u8]>, usize>,
    /// Field table, by the address of its `Arc` (kept here, so the address stays its own) →
    /// its index in `fields`.
    fields: HashMap<usize, (usize, FieldTable)>,
}

impl Known {
    fn rule(&self, r: &Reason) -> Option<usize> {
        let at = self.rules.get(&address(r))?;
        // Most reasons cite a model's own `RuleId`: found by identity before comparing ids.
        at.iter()
            .find(|(x, _)| x.same(&r.rule))
            .or_else(|| at.iter().find(|(x, _)| x.as_str() == r.rule.as_str()))
            .map(|(_, i)| *i)
    }

    fn fields(&self, v: &Verdict) -> Option<usize> {
        self.fields
            .get(&(Arc::as_ptr(&v.fields) as usize))
            .map(|(i, _)| *i)
    }
}

/// Where a reason's template parts are.
fn address(r: &Reason) -> [usize; 4] {
    let (template, suffix) = r.message.template_parts();
    [
        template.as_ptr() as usize,
        template.len(),
        suffix.as_ptr() as usize,
        suffix.len(),
    ]
}

/// A skill's JSON texts as one core renders them ([`prepare`]). The table indices that were
/// [`Known`] then are written in; where one was not, the text has a hole ([`Hole`]) and the
/// part comes along for the writer to put in the tables ([`Tables::add`]).
struct Prepared {
    /// The skill's line; its `agents` holds each verdict's index, or a hole.
    line: Vec<u8>,
    /// Per verdict (none without `agents`), in the order of the line's holes.
    verdicts: Vec<PreparedVerdict>,
}

/// A verdict: its index in `verdicts`, or what it is made of.
enum PreparedVerdict {
    Known(usize),
    New {
        list: Result<usize, NewList>,
        fields: Result<usize, FieldTable>,
        /// Holes 0 and 1 for the indices of its reason list and field table.
        text: Vec<u8>,
    },
}

/// A reason list not yet in `reasons`: its text, with a hole per reason (slot: its place) for
/// its rule, and each reason's rule index (or the reason, when its rule is new too).
struct NewList {
    text: Vec<u8>,
    rules: Vec<Result<usize, Reason>>,
}

/// Skill `s` rendered on any core, with what `known` already has.
fn prepare(frame: &Frame, known: &RwLock<Known>, s: &Skill) -> Prepared {
    let known = known.read().unwrap_or_else(PoisonError::into_inner);
    let listed = listed(s, &frame.keep);
    let paths = Paths::of(s);
    // A text with holes and the same filled; allocated anew only for a part that is new.
    let (mut text, mut buf) = (Vec::with_capacity(1024), Vec::with_capacity(1024));
    let mut rules: Vec<Option<usize>> = Vec::new();
    let mut at = Vec::with_capacity(s.verdicts.len());
    let mut verdicts = Vec::new();
    let agents = keeps_skill!(frame.keep, "agents");
    for (id, v) in s.verdicts.iter().filter(|_| agents) {
        let own = frame.own(s, id, v, &paths);
        list_text(&mut text, &v.reasons, &own);
        rules.clear();
        rules.extend(v.reasons.iter().map(|r| known.rule(r)));
        let new_list = |text: &[u8]| NewList {
            text: text.to_vec(),
            rules: (v.reasons.iter().zip(&rules))
                .map(|(r, i)| i.ok_or_else(|| r.clone()))
                .collect(),
        };
        let list = if rules.iter().all(Option::is_some) {
            fill(&mut buf, &text, &rules);
            (known.lists.get(buf.as_slice()).copied()).ok_or_else(|| new_list(&buf))
        } else {
            Err(new_list(&text))
        };
        let fields = known.fields(v).ok_or_else(|| v.fields.clone());
        verdict_text(&mut text, frame, v, &own, &listed);
        let verdict = match (&list, &fields) {
            (Ok(l), Ok(x)) => {
                fill(&mut buf, &text, &[Some(*l), Some(*x)]);
                known.verdicts.get(buf.as_slice()).copied()
            }
            _ => None,
        };
        at.push(verdict);
        verdicts.push(match verdict {
            Some(i) => PreparedVerdict::Known(i),
            None => PreparedVerdict::New {
                list,
                fields,
                text: text.clone(),
            },
        });
    }
    holed(
        &mut text,
        &SkillJson {
            t: frame,
            s,
            listed: &listed,
        },
    );
    fill(&mut buf, &text, &at);
    Prepared {
        line: buf,
        verdicts,
    }
}

/// The tables of schemas 3 and 4, built in one pass over the skills, in the order they are written
/// (owned: the skills may be made and dropped one batch at a time, [`write_stream`]).
#[derive(Default)]
struct Tables {
    rules: Rules,
    /// Each distinct reason list, as its JSON text (rule indices and values).
    lists: Vec<Arc<[u8]>>,
    fields: Vec<FieldTable>,
    /// Each distinct verdict, as its JSON text (with the indices above).
    verdicts: Vec<Arc<[u8]>>,
    /// Field table JSON text → its index in `fields`: equal tables from different snapshots
    /// share one entry too.
    field_by_value: HashMap<String, usize>,
    /// The text being filled (kept to reuse its allocation).
    buf: Vec<u8>,
}

impl Tables {
    /// Puts the parts of one skill (`p`, from [`prepare`]) that are new into the tables and
    /// into `known`, in order; returns the skill's line with its holes filled.
    fn add(&mut self, known: &RwLock<Known>, p: Prepared) -> Vec<u8> {
        let mut line = p.line;
        if p.verdicts
            .iter()
            .all(|v| matches!(v, PreparedVerdict::Known(_)))
        {
            return line;
        }
        let mut known = known.write().unwrap_or_else(PoisonError::into_inner);
        let known = &mut *known;
        let mut at = Vec::with_capacity(p.verdicts.len());
        for v in p.verdicts {
            let i = match v {
                PreparedVerdict::Known(i) => i,
                PreparedVerdict::New { list, fields, text } => {
                    let list = match list {
                        Ok(i) => i,
                        Err(new) => self.new_list(known, new),
                    };
                    let fields = match fields {
                        Ok(i) => i,
                        Err(table) => self.field_table(known, table),
                    };
                    fill(&mut self.buf, &text, &[Some(list), Some(fields)]);
                    intern(&mut self.verdicts, &mut known.verdicts, &self.buf)
                }
            };
            at.push(Some(i));
        }
        fill(&mut self.buf, &line, &at);
        std::mem::swap(&mut line, &mut self.buf);
        line
    }

    /// The index in `lists` of a reason list not known when its skill was rendered (its rules
    /// put in `rules` first when new).
    fn new_list(&mut self, known: &mut Known, NewList { text, rules }: NewList) -> usize {
        let rules: Vec<Option<usize>> = rules
            .into_iter()
            .map(|r| Some(r.unwrap_or_else(|r| self.rules.index(known, r))))
            .collect();
        fill(&mut self.buf, &text, &rules);
        intern(&mut self.lists, &mut known.lists, &self.buf)
    }

    fn field_table(&mut self, known: &mut Known, table: FieldTable) -> usize {
        let address = Arc::as_ptr(&table) as usize;
        if let Some((i, _)) = known.fields.get(&address) {
            return *i;
        }
        let text = serde_json::to_string(&*table).unwrap_or_default();
        let i = match self.field_by_value.get(&text) {
            Some(&i) => i,
            None => {
                self.fields.push(table.clone());
                self.field_by_value.insert(text, self.fields.len() - 1);
                self.fields.len() - 1
            }
        };
        known.fields.insert(address, (i, table));
        i
    }
}

/// The ids of the rules with one template, each with its index in `rules`.
type RuleIds = Vec<(Box<str>, usize)>;

/// The `rules` table: the first reason seen of each rule entry (a rule id with one template).
#[derive(Default)]
struct Rules {
    rows: Vec<Reason>,
    /// Template parts → (rule id, index in `rows`) for each rule with that template.
    at: HashMap<(&'static str, &'static str), RuleIds>,
}

impl Rules {
    /// The index of reason `r`'s rule entry (its template and id), added when new (to `known`
    /// too).
    fn index(&mut self, known: &mut Known, r: Reason) -> usize {
        if let Some(i) = known.rule(&r) {
            return i;
        }
        let id: Box<str> = r.rule.as_str().into();
        let rule = r.rule.clone();
        let parts = r.message.template_parts();
        let address = address(&r);
        let i = match self.at.get(&parts).and_then(|at| find_rule(at, &id)) {
            Some(i) => i,
            None => {
                self.rows.push(r);
                let i = self.rows.len() - 1;
                self.at.entry(parts).or_default().push((id, i));
                i
            }
        };
        known.rules.entry(address).or_default().push((rule, i));
        i
    }
}

/// `holed` into `buf` with each hole replaced by the number `values` has for its slot (a hole
/// with none is kept).
fn fill(buf: &mut Vec<u8>, holed: &[u8], values: &[Option<usize>]) {
    buf.clear();
    let mut rest = holed;
    while let Some(i) = memchr::memchr(HOLE, rest) {
        let Some(hole) = rest.get(i..i + 5) else {
            break;
        };
        buf.extend_from_slice(&rest[..i]);
        let slot = u32::from_le_bytes([hole[1], hole[2], hole[3], hole[4]]) as usize;
        match values.get(slot).copied().flatten() {
            Some(value) => {
                let _ = serde_json::to_writer(&mut *buf, &value);
            }
            None => buf.extend_from_slice(hole),
        }
        rest = &rest[i + 5..];
    }
    buf.extend_from_slice(rest);
}

/// The index that rule `id` has among `at` (the rules of one template).
fn find_rule(at: &RuleIds, id: &str) -> Option<usize> {
    at.iter().find(|(x, _)| &**x == id).map(|(_, i)| *i)
}

/// The index of `text` in `table` (with `at` its reverse), added at the end when it is new.
fn intern(table: &mut Vec<Arc<[u8]>>, at: &mut HashMap<Arc<[u8]>, usize>, text: &[u8]) -> usize {
    if let Some(&i) = at.get(text) {
        return i;
    }
    let text: Arc<[u8]> = text.into();
    table.push(text.clone());
    at.insert(text, table.len() - 1);
    table.len() - 1
}

/// The byte that starts a hole in a text from [`holed`]: JSON escapes it in strings, so
/// nothing else writes it. The hole's slot (the index of the value that fills it) follows as
/// four bytes.
const HOLE: u8 = 0;

/// Where an index into a table goes, filled later ([`Tables::fill`]): slot `k` takes the
/// `k`-th value given.
struct Hole(usize);

impl Serialize for Hole {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i128(self.0 as i128)
    }
}

/// serde_json's compact form, but for [`Hole`]s (the only `i128`s written).
struct HoleFormatter;

impl serde_json::ser::Formatter for HoleFormatter {
    fn write_i128<W: ?Sized + Write>(&mut self, w: &mut W, slot: i128) -> io::Result<()> {
        w.write_all(&hole(slot as usize))
    }
}

/// The bytes of a hole for slot `slot`: [`HOLE`], then the slot as four bytes ([`fill`] reads
/// them back).
fn hole(slot: usize) -> [u8; 5] {
    let [a, b, c, d] = (slot as u32).to_le_bytes();
    [HOLE, a, b, c, d]
}

/// `x` as compact JSON into `buf` (cleared first), its [`Hole`]s left open.
fn holed<T: Serialize>(buf: &mut Vec<u8>, x: &T) {
    buf.clear();
    let mut ser = serde_json::Serializer::with_formatter(&mut *buf, HoleFormatter);
    if x.serialize(&mut ser).is_err() {
        buf.clear();
    }
}

/// Schema 3 or 4 of the catalog, streamed: the header, one skill per line, then the tables.
fn write_v2(
    out: &mut dyn Write,
    cat: &Catalog,
    schema: u32,
    fields: Option<&Fields>,
    nl: &[u8],
) -> io::Result<()> {
    write_v2_of(
        out,
        cat,
        &mut |prepare, each| {
            for batch in cat.skills.chunks(256) {
                for p in crate::par::par_map(batch, |s| prepare(s)) {
                    each(p)?;
                }
            }
            Ok(())
        },
        (schema, fields),
        nl,
    )
}

/// Writes `list --json` (schema 4, the default) without the whole catalog in memory: every
/// agent's collision keys first, then the skills one batch at a time, each made once and written
/// as it is made (the tables it points into follow the skills). The bytes are the ones [`write`]
/// gives for [`Catalog::build`]'s catalog.
pub fn write_stream(
    out: &mut dyn Write,
    models: &[crate::agents::AgentModel],
    env: &crate::env::Env,
    fields: Option<&Fields>,
) -> io::Result<()> {
    crate::catalog::with_skills(models, env, |header, skills| {
        write_v2_of(
            out,
            header,
            &mut |prepare, each| skills.for_each_with(|s| prepare(&s), each),
            (SCHEMA, fields),
            b"\n",
        )
    })
}

/// Calls its second argument with what its first argument (run on any core) made of every
/// skill, in catalog order.
type EachSkill<'s> = dyn FnMut(
        &(dyn Fn(&Skill) -> Prepared + Sync),
        &mut dyn FnMut(Prepared) -> io::Result<()>,
    ) -> io::Result<()>
    + 's;

/// Schema 3 or 4 of `header` (its project, agents, roots and diagnostics) with the skills
/// `skills` gives, in that order.
fn write_v2_of(
    out: &mut dyn Write,
    cat: &Catalog,
    skills: &mut EachSkill,
    (schema, fields): (u32, Option<&Fields>),
    nl: &[u8],
) -> io::Result<()> {
    let everything = Fields {
        skill: SKILL_KEYS.to_vec(),
        verdict: None,
    };
    let f = fields.unwrap_or(&everything);
    let frame = Frame::new(cat, schema, f);
    let mut t = Tables::default();
    let known = RwLock::new(Known::default());
    let whole = fields.is_none();
    out.write_all(b"{\"schema\":")?;
    serde_json::to_writer(&mut *out, &schema)?;
    if whole {
        for (k, v) in [
            ("project", Some(&cat.project)),
            ("home", Some(&cat.home)),
            ("git_root", cat.git_root.as_ref()),
        ] {
            write!(out, ",\"{k}\":")?;
            serde_json::to_writer(&mut *out, &v.map(|p| p.to_string_lossy()))?;
        }
    }
    let key = |out: &mut dyn Write, k: &str| -> io::Result<()> {
        out.write_all(b",")?;
        out.write_all(nl)?;
        write!(out, "\"{k}\":")
    };
    key(out, "agents")?;
    serde_json::to_writer(&mut *out, &cat.agents)?;
    if whole || f.verdict("root") {
        key(out, "roots")?;
        serde_json::to_writer(&mut *out, &cat.roots)?;
    }
    if whole {
        key(out, "diagnostics")?;
        serde_json::to_writer(&mut *out, &cat.diagnostics)?;
    }
    if f.verdict("reasons") {
        key(out, "value_refs")?;
        serde_json::to_writer(&mut *out, value_refs(schema))?;
    }
    // The skills, each made once: its reason lists, field tables and verdicts go into the
    // tables as it is written, and the tables follow the skills.
    key(out, "skills")?;
    out.write_all(b"[")?;
    let mut first = true;
    skills(&|s| prepare(&frame, &known, s), &mut |p| {
        next(out, first, nl)?;
        first = false;
        out.write_all(&t.add(&known, p))
    })?;
    out.write_all(nl)?;
    out.write_all(b"]")?;
    if f.verdict("reasons") {
        key(out, "rules")?;
        rows(out, nl, &t.rules.rows, |out, r| {
            serde_json::to_writer(out, &RuleJson { r }).map_err(io::Error::from)
        })?;
        key(out, "reasons")?;
        rows(out, nl, &t.lists, |out, l| out.write_all(l))?;
    }
    if f.verdict("fields") {
        key(out, "fields")?;
        rows(out, nl, &t.fields, |out, x| {
            serde_json::to_writer(out, &**x).map_err(io::Error::from)
        })?;
    }
    if f.skill("agents") {
        key(out, "verdicts")?;
        rows(out, nl, &t.verdicts, |out, v| out.write_all(v))?;
    }
    out.write_all(b"}\n")
}

/// A JSON array of `items`, one per line, each written by `each`.
fn rows<T>(
    out: &mut dyn Write,
    nl: &[u8],
    items: &[T],
    mut each: impl FnMut(&mut dyn Write, &T) -> io::Result<()>,
) -> io::Result<()> {
    out.write_all(b"[")?;
    for (i, x) in items.iter().enumerate() {
        next(out, i == 0, nl)?;
        each(out, x)?;
    }
    out.write_all(b"]")
}

struct RuleJson<'a> {
    r: &'a Reason,
}

impl Serialize for RuleJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.r;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("id", &r.rule)?;
        m.serialize_entry("template", &r.message.template())?;
        m.serialize_entry("source", &**r.source())?;
        m.serialize_entry("sources", &r.sources())?;
        m.serialize_entry("evidence", &**r.evidence())?;
        m.serialize_entry("strength", &r.strength())?;
        m.end()
    }
}

/// What a reason's value may stand for instead of repeating it (`value_refs` in the JSON): a
/// value written as the number `k` is the skill's (or its verdict's, or its agent's)
/// `VALUE_REFS[k]`: `root` and `scope` are the skill's, `agent.name` the `name` in `agents` of
/// the agent the verdict is for. Schema 3 has the first five.
pub const VALUE_REFS: &[&str] = &[
    "path",
    "name",
    "dir",
    "agents.as",
    "agents.winner",
    "root",
    "scope",
    "agent.name",
];

/// The value references of a schema.
fn value_refs(schema: u32) -> &'static [&'static str] {
    if schema == 3 {
        &VALUE_REFS[..5]
    } else {
        VALUE_REFS
    }
}

/// The shortest field a value may start or end with to be written as `[k, "rest"]`: shorter
/// ones (a skill named `go`) would split unrelated text and save nothing.
const MIN_PART: usize = 3;

/// The values of one skill, verdict and agent that reasons point at, in [`VALUE_REFS`] order
/// (`None` past the schema's references).
struct Own<'a> {
    values: [Option<std::borrow::Cow<'a, str>>; 8],
    /// Schema 4: a value may start or end with a field (`[k, "rest"]`).
    parts: bool,
}

/// A skill's path and root as text, made once for all its verdicts.
struct Paths<'a> {
    path: Cow<'a, str>,
    root: Option<Cow<'a, str>>,
}

impl<'a> Paths<'a> {
    fn of(s: &'a Skill) -> Paths<'a> {
        Paths {
            path: crate::sanitize::lossy(s.path.as_os_str()),
            root: s
                .root
                .as_ref()
                .map(|r| crate::sanitize::lossy(r.as_os_str())),
        }
    }
}

impl<'a> Own<'a> {
    fn of(
        s: &'a Skill,
        v: &'a Verdict,
        agent: Option<&'a str>,
        schema: u32,
        paths: &Paths<'a>,
    ) -> Own<'a> {
        let four = schema != 3;
        Own {
            values: [
                Some(paths.path.clone()),
                s.name.as_deref().map(Into::into),
                Some(s.dir.as_str().into()),
                v.as_name.as_deref().map(Into::into),
                v.winner
                    .as_ref()
                    .map(|w| crate::sanitize::lossy(w.as_os_str())),
                paths.root.clone().filter(|_| four),
                four.then(|| s.scope.as_str().into()),
                agent.filter(|_| four).map(Into::into),
            ],
            parts: four,
        }
    }

    fn find(&self, value: &str) -> Option<usize> {
        self.values.iter().position(|x| x.as_deref() == Some(value))
    }

    /// The longest field (at least [`MIN_PART`] bytes) that `value` starts with (`true`) or
    /// ends with (`false`), preferring the start and the lower number on a tie.
    fn part(&self, value: &str) -> Option<(usize, bool)> {
        if !self.parts {
            return None;
        }
        let mut best: Option<(usize, bool, usize)> = None;
        for (k, x) in self.values.iter().enumerate() {
            let Some(x) = x.as_deref().filter(|x| x.len() >= MIN_PART) else {
                continue;
            };
            for start in [true, false] {
                let hit = if start {
                    value.starts_with(x)
                } else {
                    value.ends_with(x)
                };
                if hit && best.is_none_or(|(_, _, len)| x.len() > len) {
                    best = Some((k, start, x.len()));
                }
            }
        }
        best.map(|(k, start, _)| (k, start))
    }
}

#[derive(Serialize)]
struct ProblemJson<'a> {
    code: &'a str,
    severity: &'a str,
    message: &'a str,
    line: Option<usize>,
    column: Option<usize>,
}

/// A skill's line: `agents` has a hole per verdict for its index in `verdicts`.
struct SkillJson<'a, 'b> {
    t: &'b Frame,
    s: &'a Skill,
    /// The descriptions as its agents list them ([`listed`]).
    listed: &'b [&'a str],
}

impl Serialize for SkillJson<'_, '_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let (s, k) = (self.s, &self.t.keep);
        let mut m = ser.serialize_map(None)?;
        if keeps_skill!(k, "path") {
            m.serialize_entry("path", &crate::sanitize::lossy(s.path.as_os_str()))?;
        }
        if keeps_skill!(k, "dir") {
            m.serialize_entry("dir", &s.dir)?;
        }
        if keeps_skill!(k, "name") {
            m.serialize_entry("name", &s.name)?;
        }
        if keeps_skill!(k, "description") {
            m.serialize_entry("description", &s.description)?;
        }
        if keeps_skill!(k, "root") {
            m.serialize_entry(
                "root",
                &s.root
                    .as_ref()
                    .map(|r| crate::sanitize::lossy(r.as_os_str())),
            )?;
        }
        if keeps_skill!(k, "scope") {
            m.serialize_entry("scope", &s.scope)?;
        }
        if keeps_skill!(k, "problems") {
            let problems: Vec<ProblemJson> = s
                .problems
                .iter()
                .map(|p| ProblemJson {
                    code: p.code.as_str(),
                    severity: p.severity.as_str(),
                    message: &p.message,
                    line: p.line,
                    column: p.column,
                })
                .collect();
            m.serialize_entry("problems", &problems)?;
        }
        if keeps_skill!(k, "references") {
            m.serialize_entry("references", &s.references)?;
        }
        if keeps_skill!(k, "scripts") {
            m.serialize_entry("scripts", &s.scripts)?;
        }
        // The descriptions as the agents list them, each once: verdicts point into it.
        let listed = self.listed;
        if !listed.is_empty() {
            let desc = s.description.as_deref().filter(|_| self.t.schema != 3);
            let entries: Vec<ListedJson> = listed.iter().map(|d| ListedJson::of(d, desc)).collect();
            m.serialize_entry("descriptions_as_listed", &entries)?;
        }
        if keeps_skill!(k, "agents") {
            let holes: Vec<Hole> = (0..s.verdicts.len()).map(Hole).collect();
            m.serialize_entry("agents", &holes)?;
        }
        m.end()
    }
}

/// A listed description: its text, or (schema 4) the number of characters it takes from the
/// start of the description when it is that start.
#[derive(Serialize)]
#[serde(untagged)]
enum ListedJson<'a> {
    Text(&'a str),
    Start(usize),
}

impl<'a> ListedJson<'a> {
    fn of(listed: &'a str, description: Option<&str>) -> ListedJson<'a> {
        match description {
            Some(d) if d.starts_with(listed) => ListedJson::Start(listed.chars().count()),
            _ => ListedJson::Text(listed),
        }
    }
}

/// The descriptions of a skill as its agents list them, each once (verdicts point into it).
fn listed<'a>(s: &'a Skill, keep: &Keep) -> Vec<&'a str> {
    let mut listed: Vec<&str> = Vec::new();
    if keeps_verdict!(keep, "description_as_listed") {
        for (_, v) in &s.verdicts {
            if let Some(d) = &v.description_as_listed
                && !listed.contains(&&**d)
            {
                listed.push(d);
            }
        }
    }
    listed
}

/// Where a verdict's root is: its index in `roots`, else its path.
fn root_ref(t: &Frame, v: &Verdict) -> Option<Result<usize, String>> {
    let p = v.root.as_ref()?;
    Some(
        v.scope
            .and_then(|sc| {
                t.root_at
                    .get(p.as_path())?
                    .iter()
                    .find(|(s, _)| *s == sc)
                    .map(|(_, i)| *i)
            })
            .ok_or_else(|| p.to_string_lossy().into_owned()),
    )
}

// The parts every skill has many of, its verdicts and reason lists, are written by hand: with
// serde's map machinery each key is escaped and each part costs more than the text it writes.
// Values go through `serde_json` as before, and the bytes are the same.

/// `x` as compact JSON at the end of `buf`.
fn put<T: Serialize + ?Sized>(buf: &mut Vec<u8>, x: &T) {
    let _ = serde_json::to_writer(&mut *buf, x);
}

/// An object's key (`key` needs no escaping), after a comma unless it is the `first`.
fn put_key(buf: &mut Vec<u8>, first: &mut bool, key: &str) {
    if !std::mem::take(first) {
        buf.push(b',');
    }
    buf.push(b'"');
    buf.extend_from_slice(key.as_bytes());
    buf.extend_from_slice(b"\":");
}

/// `"KEY":value` when the output keeps the verdict key `$k` (a [`Keep`]) and there is a value
/// (an `Option`, or a reference to one).
macro_rules! put_kept {
    ($buf:expr, $first:expr, $keep:expr, $k:literal, $value:expr) => {
        if keeps_verdict!($keep, $k)
            && let Some(x) = $value
        {
            put_key($buf, $first, $k);
            put($buf, &x);
        }
    };
}

/// A [`Hole`] for slot `slot`.
fn put_hole(buf: &mut Vec<u8>, slot: usize) {
    buf.extend_from_slice(&hole(slot));
}

/// A reason list into `buf` (cleared first): each reason's rule is a hole (slot: its place in
/// the list).
fn list_text(buf: &mut Vec<u8>, list: &[Reason], own: &Own) {
    buf.clear();
    buf.push(b'[');
    for (slot, r) in list.iter().enumerate() {
        if slot > 0 {
            buf.push(b',');
        }
        buf.extend_from_slice(b"{\"rule\":");
        put_hole(buf, slot);
        buf.extend_from_slice(b",\"values\":");
        values_text(buf, r.message.values(), own);
        if let Some(fix) = &r.fix {
            buf.extend_from_slice(b",\"fix\":");
            put(buf, fix);
        }
        buf.push(b'}');
    }
    buf.push(b']');
}

/// A reason's values: each the text, the index of the field it repeats, or `[k, "rest"]` /
/// `["rest", k]` when it starts / ends with one.
fn values_text<'v>(buf: &mut Vec<u8>, values: impl Iterator<Item = &'v str>, own: &Own) {
    buf.push(b'[');
    for (i, v) in values.enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        if let Some(k) = own.find(v) {
            put(buf, &k);
            continue;
        }
        let len = |k: usize| own.values[k].as_deref().map_or(0, str::len);
        match own.part(v) {
            Some((k, true)) => put(buf, &(k, &v[len(k)..])),
            Some((k, false)) => put(buf, &(&v[..v.len() - len(k)], k)),
            None => put(buf, v),
        }
    }
    buf.push(b']');
}

/// A verdict into `buf` (cleared first): hole 0 is its reason list's index in `reasons`, hole
/// 1 its field table's in `fields`. `listed`: its skill's descriptions as listed
/// ([`listed`]).
fn verdict_text(buf: &mut Vec<u8>, t: &Frame, v: &Verdict, own: &Own, listed: &[&str]) {
    let k = &t.keep;
    let first = &mut true;
    buf.clear();
    buf.push(b'{');
    put_kept!(buf, first, k, "status", Some(&v.status));
    if keeps_verdict!(k, "as")
        && let Some(a) = &v.as_name
    {
        put_key(buf, first, "as");
        // Schema 4: the skill's `name` (1) or `dir` (2) when it is that.
        match own.find(a).filter(|k| own.parts && (1..=2).contains(k)) {
            Some(k) => put(buf, &k),
            None => put(buf, a),
        }
    }
    put_kept!(
        buf,
        first,
        k,
        "winner",
        v.winner
            .as_ref()
            .map(|w| crate::sanitize::lossy(w.as_os_str()))
    );
    let root = root_ref(t, v);
    if keeps_verdict!(k, "root") {
        match &root {
            Some(Ok(i)) => {
                put_key(buf, first, "root");
                put(buf, i);
            }
            Some(Err(p)) => {
                put_key(buf, first, "root_path");
                put(buf, p);
            }
            None => {}
        }
    }
    // The root's entry in `roots` has the scope; written only when the root is not there.
    if keeps_verdict!(k, "scope")
        && matches!(root, Some(Err(_)))
        && let Some(sc) = &v.scope
    {
        put_key(buf, first, "scope");
        put(buf, sc);
    }
    put_kept!(buf, first, k, "model", v.model);
    if keeps_verdict!(k, "reasons") {
        put_key(buf, first, "reasons");
        put_hole(buf, 0);
    }
    if k.strength
        && let Some(x) = v.strength()
    {
        put_key(buf, first, "strength");
        put(buf, &x);
    }
    if keeps_verdict!(k, "fields") {
        put_key(buf, first, "fields");
        put_hole(buf, 1);
    }
    put_kept!(buf, first, k, "listing_tokens", v.listing_tokens);
    put_kept!(buf, first, k, "bundle", &v.bundle);
    if keeps_verdict!(k, "description_as_listed")
        && let Some(x) = &v.description_as_listed
        && let Some(i) = listed.iter().position(|d| *d == &**x)
    {
        put_key(buf, first, "description_as_listed");
        put(buf, &i);
    }
    put_kept!(buf, first, k, "conditional", &v.conditional);
    buf.push(b'}');
}
