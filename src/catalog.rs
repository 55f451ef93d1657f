//! The catalog: an immutable snapshot of every skill file any agent could load in a project,
//! with one verdict per agent. Front ends (CLI, explorer) only read it.

use crate::agents::{AgentModel, Handling, Scope};
use crate::env::Env;
use crate::resolve::{self, Status, Verdict};
use crate::scan::{self, Scan};
use crate::skill::SkillMd;
use crate::spec::{self, Problem};
use foldhash::{HashMap, HashMapExt};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, Clone, Serialize)]
pub struct AgentInfo {
    pub id: String,
    pub name: String,
    pub version: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct RootInfo {
    #[serde(serialize_with = "crate::sanitize::lossy_path::path")]
    pub path: PathBuf,
    pub scope: Scope,
    pub exists: bool,
    /// Agents that scan this folder.
    pub agents: Vec<String>,
    /// Candidate files found below it.
    pub files: usize,
}

/// One SKILL.md (or loose `*.md` an agent loads).
#[derive(Debug, Clone)]
pub struct Skill {
    pub path: PathBuf,
    /// The folder name (the file stem for a loose `foo.md`).
    pub dir: String,
    /// The frontmatter `name` when it is a string.
    pub name: Option<String>,
    pub description: Option<String>,
    pub root: Option<PathBuf>,
    pub scope: Scope,
    /// Findings against the specification.
    pub problems: Vec<Problem>,
    /// Top-level frontmatter keys in file order.
    pub keys: Vec<String>,
    /// The first lines of the file (at most 40 lines or 3 KiB), for showing the frontmatter and
    /// pointing at errors without reading the file again.
    pub head: String,
    /// Files the body refers to, and whether each is in the skill folder.
    pub references: Vec<crate::scan::Reference>,
    /// The skill bundles a `scripts/` folder.
    pub scripts: bool,
    /// (agent id, verdict) in agent order; each agent's id is one string shared by its verdicts.
    pub verdicts: Vec<(Arc<str>, Verdict)>,
}

impl Skill {
    /// The name to show: frontmatter name, else the folder name.
    pub fn label(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.dir)
    }

    pub fn verdict(&self, agent: &str) -> Option<&Verdict> {
        self.verdicts
            .iter()
            .find(|(a, _)| **a == *agent)
            .map(|(_, v)| v)
    }

    /// [`Skill::verdict`], looked for first at `place` (the agent's place in the catalog's
    /// agents, where a skill's verdicts are), then by name.
    pub fn verdict_at(&self, place: Option<usize>, agent: &str) -> Option<&Verdict> {
        match place.and_then(|p| self.verdicts.get(p)) {
            Some((a, v)) if **a == *agent => Some(v),
            _ => self.verdict(agent),
        }
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

impl Serialize for Skill {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Verdicts<'a>(&'a [(Arc<str>, Verdict)]);
        impl Serialize for Verdicts<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(self.0.len()))?;
                for (k, v) in self.0 {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
        let problems: Vec<ProblemJson> = self
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
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("path", &crate::sanitize::lossy(self.path.as_os_str()))?;
        m.serialize_entry("dir", &self.dir)?;
        m.serialize_entry("name", &self.name)?;
        m.serialize_entry("description", &self.description)?;
        m.serialize_entry(
            "root",
            &self
                .root
                .as_ref()
                .map(|r| crate::sanitize::lossy(r.as_os_str())),
        )?;
        m.serialize_entry("scope", &self.scope)?;
        m.serialize_entry("problems", &problems)?;
        m.serialize_entry("references", &self.references)?;
        m.serialize_entry("scripts", &self.scripts)?;
        m.serialize_entry("agents", &Verdicts(&self.verdicts))?;
        m.end()
    }
}

/// The snapshot.
#[derive(Debug, Clone, Serialize)]
pub struct Catalog {
    #[serde(serialize_with = "crate::sanitize::lossy_path::path")]
    pub project: PathBuf,
    #[serde(serialize_with = "crate::sanitize::lossy_path::path")]
    pub home: PathBuf,
    #[serde(serialize_with = "crate::sanitize::lossy_path::opt")]
    pub git_root: Option<PathBuf>,
    pub agents: Vec<AgentInfo>,
    pub roots: Vec<RootInfo>,
    /// In label, then path order: `Catalog::build` and the watcher's patched snapshots (`live`)
    /// keep it, and the explorer relies on it (its rows sorted by index, name collisions found
    /// as neighbours).
    pub skills: Vec<Arc<Skill>>,
    /// Folders that could not be read, walk bounds hit.
    pub diagnostics: Vec<String>,
}

impl Catalog {
    /// Scans and resolves. The scan keeps no file text: each file is read as it is resolved,
    /// its body references worked out then, and dropped with its parse (the texts of a whole
    /// tree are never in memory at once).
    pub fn build(models: &[AgentModel], env: &Env) -> Catalog {
        let scan = scan::scan_texts(models, env, &scan::Progress::new(), scan::Texts::Unread);
        let entries = resolve::entries(&scan);
        let mut resolved = Catalog::resolve(models, &scan, &entries);
        // Each skill takes the references the resolution worked out for its file.
        let references = std::mem::take(&mut resolved.references);
        for (f, r) in resolved.extra.iter_mut().zip(references) {
            f.references = Some(r.unwrap_or_default());
        }
        Catalog::put_together(models, &scan, &entries, resolved)
    }

    pub fn from_scan(models: &[AgentModel], scan: &Scan) -> Catalog {
        let entries = resolve::entries(scan);
        let resolved = Catalog::resolve(models, scan, &entries);
        Catalog::put_together(models, scan, &entries, resolved)
    }

    /// File by file on all cores, every agent and the catalog's own facts sharing the file's
    /// parse; then each agent's collisions.
    fn resolve(
        models: &[AgentModel],
        scan: &Scan,
        entries: &[resolve::Entry],
    ) -> resolve::Resolved<FileFacts, ()> {
        resolve::resolve_verdicts(models, scan, entries, |ei, content, parses| {
            facts_of(scan, &entries[ei], content, parses, Detail::Full)
        })
    }

    fn put_together(
        models: &[AgentModel],
        scan: &Scan,
        entries: &[resolve::Entry],
        resolved: resolve::Resolved<FileFacts, ()>,
    ) -> Catalog {
        let per_agent = resolved.agents.into_iter().map(|(v, _)| v).collect();
        Catalog::assemble(models, scan, entries, per_agent, resolved.extra)
    }

    /// The snapshot from a scan, its entries, every agent's verdicts (one per entry) and what
    /// each file says ([`facts`], one per entry).
    pub(crate) fn assemble(
        models: &[AgentModel],
        scan: &Scan,
        entries: &[resolve::Entry],
        per_agent: Vec<Vec<Verdict>>,
        described: Vec<FileFacts>,
    ) -> Catalog {
        let mut per_agent: Vec<std::vec::IntoIter<Verdict>> =
            per_agent.into_iter().map(Vec::into_iter).collect();
        let scope_of = scopes(scan);
        // Field handling depends only on the agent and the set of keys: shared between skills.
        let mut fields_cache = FieldTables::new();
        let ids = agent_ids(models);
        let mut skills = Vec::new();
        for (e, f) in entries.iter().zip(described) {
            let fields = tables_for(&mut fields_cache, models, &f.keys).to_vec();
            let verdicts: Vec<(Arc<str>, Verdict)> = ids
                .iter()
                .zip(per_agent.iter_mut())
                .zip(fields)
                .map(|((id, vs), fields)| {
                    let mut v = vs.next().expect("one verdict per entry and agent");
                    v.fields = fields;
                    (id.clone(), v)
                })
                .collect();
            if let Some(skill) = skill(scan, e, f, verdicts, &scope_of) {
                skills.push(Arc::new(skill));
            }
        }
        skills.sort_by(|a, b| (a.label(), &a.path).cmp(&(b.label(), &b.path)));
        Catalog::around(models, scan, skills)
    }

    /// The snapshot of `skills` (sorted by label and path): the roots, agents and diagnostics
    /// come from the scan.
    pub(crate) fn around(models: &[AgentModel], scan: &Scan, skills: Vec<Arc<Skill>>) -> Catalog {
        let mut roots: Vec<RootInfo> = Vec::new();
        for r in scan.agent_roots.iter().filter(|r| resolve::scanned(r)) {
            let agent = models[r.agent].id.clone();
            match roots
                .iter_mut()
                .find(|x| x.scope == r.scope && x.path == r.path)
            {
                Some(x) => {
                    if !x.agents.contains(&agent) {
                        x.agents.push(agent);
                    }
                }
                None => {
                    let w = scan.walked(&r.path);
                    roots.push(RootInfo {
                        path: r.path.clone(),
                        scope: r.scope,
                        exists: w.is_some_and(|w| w.exists),
                        agents: vec![agent],
                        files: w.map_or(0, |w| w.candidates.len()),
                    });
                }
            }
        }
        roots.sort_by(|a, b| (a.scope, &a.path).cmp(&(b.scope, &b.path)));

        let mut diagnostics = scan.settings.problems.clone();
        for w in &scan.walked {
            for e in &w.errors {
                diagnostics.push(e.clone());
            }
            if let Some(t) = &w.truncated {
                diagnostics.push(format!("{}: {t}", w.path.display()));
            }
        }
        Catalog {
            project: scan.env.project.clone(),
            home: scan.env.home.clone(),
            git_root: scan.git_root.clone(),
            agents: models
                .iter()
                .map(|m| AgentInfo {
                    id: m.id.clone(),
                    name: m.name.clone(),
                    version: m.version.clone(),
                })
                .collect(),
            roots,
            skills,
            diagnostics,
        }
    }

    /// Skills whose frontmatter name or folder name is `name`.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Skill> + 'a {
        self.skills
            .iter()
            .filter(move |s| s.name.as_deref() == Some(name) || s.dir == name)
            .map(|s| &**s)
    }

    pub fn skill(&self, path: &Path) -> Option<&Skill> {
        self.skills.iter().find(|s| s.path == path).map(|s| &**s)
    }
}

/// The catalog's skills one batch at a time, in catalog order, without the whole catalog in
/// memory: the header ([`Catalog`] with no skills) and a walk over the skills that can be made
/// more than once ([`Skills::for_each`]). Each skill is the one [`Catalog::build`] gives, except
/// `head`, which is empty (nothing streamed shows it).
pub struct Skills<'a> {
    models: &'a [AgentModel],
    /// Every model's id, shared by the skills' verdicts.
    ids: Vec<Arc<str>>,
    scan: &'a Scan,
    entries: &'a [resolve::Entry],
    lean: resolve::Lean<'a>,
    /// Entries in catalog order (label, then path).
    order: Vec<usize>,
    scope_of: HashMap<&'a Path, Scope>,
    /// Field handling per key set, every agent's, shared by the skills with that set.
    fields: FieldTables,
}

/// Scans, resolves every agent's collision keys (with the files' facts and body references),
/// and gives `f` the snapshot's header and its [`Skills`] (each skill's verdicts re-made a batch
/// at a time).
///
/// The scan keeps no file text ([`scan::Texts::Unread`]): the keys pass reads each file once,
/// and each batch reads its skills' texts again and drops them. A file edited between the two
/// reads gives its skill the verdicts and facts (description, problems) of the newer text (the
/// collision keys and place in the order of the older one), as a rebuild during the edit would:
/// the keys pass keeps only a skill's name, folder and keys. The JSON writer makes each skill
/// once, so its tables always hold what the skills point at
/// (`adversarial::files_that_vanish_or_change_while_scanned`).
pub fn with_skills<R>(
    models: &[AgentModel],
    env: &Env,
    f: impl FnOnce(&Catalog, &Skills) -> R,
) -> R {
    let mut scan = scan::scan_texts(models, env, &scan::Progress::new(), scan::Texts::Unread);
    let entries = resolve::entries(&scan);
    let (keys, read) = resolve::Lean::keys(models, &scan, &entries, |ei, content, parses| {
        let e = &entries[ei];
        // Only what orders the skills and picks their field tables is kept until the batch
        // that makes the skill: it reads the text again and describes it there.
        let f = facts_of(&scan, e, content, parses, Detail::Keys);
        (f, resolve::references_in(&scan, e, content))
    });
    let (facts, references): (Vec<FileFacts>, Vec<_>) = read.into_iter().unzip();
    keep_references(&mut scan, &entries, references);
    let scan = scan;
    let lean = resolve::Lean::new(models, &scan, &entries, keys);
    let mut fields = FieldTables::new();
    for x in &facts {
        tables_for(&mut fields, models, &x.keys);
    }
    let label = |i: usize| facts[i].name.as_deref().unwrap_or(&facts[i].dir);
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&a, &b| (label(a), &entries[a].path).cmp(&(label(b), &entries[b].path)));
    // Each batch describes its skills again from the text it reads.
    drop(facts);
    let skills = Skills {
        models,
        ids: agent_ids(models),
        scan: &scan,
        entries: &entries,
        lean,
        order,
        scope_of: scopes(&scan),
        fields,
    };
    let header = Catalog::around(models, &scan, Vec::new());
    f(&header, &skills)
}

impl Skills<'_> {
    /// Entry `ei`'s skill, with every agent's verdict (None: a loose `foo.md` no agent loads);
    /// `texts` holds the files' texts its verdicts need ([`resolve::Lean::texts`]).
    fn skill(&self, ei: usize, texts: &resolve::BatchTexts) -> Option<Skill> {
        let e = &self.entries[ei];
        let parses = crate::skill::Parses::new();
        let text = texts.text(self.scan, ei, self.entries);
        let mut f = facts_of(self.scan, e, text.as_ref(), &parses, Detail::NoHead);
        // Nothing streamed shows the head, but for the few files whose quick fix is chosen from
        // it (`check` reports the fix): only theirs is copied.
        if f.problems.iter().any(|p| p.code.fix_reads_head())
            && let Some(Ok(md)) = text.as_deref()
        {
            f.head = head_of(md.text());
        }
        // A file changed since the keys pass may have a key set no other skill has.
        let made;
        let tables = match self.fields.by_set.get(&f.keys) {
            Some(t) => t,
            None => {
                made = field_tables(self.models, &f.keys);
                &made
            }
        };
        let verdicts = self
            .ids
            .iter()
            .zip(self.lean.verdicts_with(ei, texts, &parses))
            .zip(tables)
            .map(|((id, mut v), t)| {
                v.fields = t.clone();
                (id.clone(), v)
            })
            .collect();
        skill(self.scan, e, f, verdicts, &self.scope_of)
    }

    /// Calls `each` with every skill in catalog order, made a batch at a time on all cores
    /// (each batch, and the texts it read, dropped before the next); stops at the first error.
    pub fn for_each<E>(&self, mut each: impl FnMut(&Skill) -> Result<(), E>) -> Result<(), E> {
        self.for_each_with(|s| s, |s| each(&s))
    }

    /// [`Skills::for_each`], with each skill first handed to `prepare` on the core that made
    /// it (what the caller can work out per skill on its own, such as its JSON text; a skill
    /// dropped there is freed there), and what that gives handed to `each`, in catalog order.
    ///
    /// The batches are made on another thread while this one hands the last one to `each` (the
    /// writer), so the cores do not wait for it: at most three batches are held at a time (one
    /// being made, one made, one being handed over).
    pub fn for_each_with<P: Send, E>(
        &self,
        prepare: impl Fn(Skill) -> P + Sync,
        mut each: impl FnMut(P) -> Result<(), E>,
    ) -> Result<(), E> {
        std::thread::scope(|s| {
            let (made_tx, made_rx) = std::sync::mpsc::sync_channel::<Vec<Option<P>>>(1);
            let maker = s.spawn(|| {
                let made_tx = made_tx;
                for batch in self.order.chunks(256) {
                    let texts = self.lean.texts(batch);
                    let made =
                        crate::par::par_map(batch, |&ei| self.skill(ei, &texts).map(&prepare));
                    // The receiver is gone when `each` failed: no more batches are made.
                    if made_tx.send(made).is_err() {
                        break;
                    }
                }
            });
            let handed = || -> Result<(), E> {
                for made in made_rx {
                    for p in made.into_iter().flatten() {
                        each(p)?;
                    }
                }
                Ok(())
            };
            let result = handed();
            // A panic while making a batch is the caller's, with its own message.
            maker
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            result
        })
    }
}

/// What a change of a skill is measured on: its name, description, problems and each agent's
/// status, name, winner and model visibility (what the explorer marks as changed).
pub(crate) fn signature(s: &Skill) -> String {
    use std::fmt::Write as _;
    let mut out = format!("{:?}{:?}{:?}", s.name, s.description, s.problems);
    for (a, v) in &s.verdicts {
        let _ = write!(
            out,
            "|{a}:{:?}:{:?}:{:?}:{:?}",
            v.status, v.as_name, v.winner, v.model
        );
    }
    out
}

/// The scope of each root path (the first agent root at that path decides).
pub(crate) fn scopes(scan: &Scan) -> HashMap<&Path, Scope> {
    let mut scope_of: HashMap<&Path, Scope> = HashMap::new();
    for r in &scan.agent_roots {
        scope_of.entry(r.path.as_path()).or_insert(r.scope);
    }
    scope_of
}

/// Every agent's field tables by key set (each set's made once), and every agent's handling of
/// each key met so far (each key looked up in each model once, not once a key set).
#[derive(Default)]
struct FieldTables {
    by_set: HashMap<Vec<String>, Vec<FieldTable>>,
    by_key: HashMap<String, Vec<Handling>>,
}

impl FieldTables {
    fn new() -> FieldTables {
        FieldTables::default()
    }
}

/// One agent's handling of each key of a set.
type FieldTable = Arc<BTreeMap<String, Handling>>;

/// The entries' body references ([`resolve::references_in`], one per entry) kept in the scan, whose
/// walk's file names are not needed once they are worked out.
fn keep_references(
    scan: &mut Scan,
    entries: &[resolve::Entry],
    references: Vec<Option<Vec<scan::Reference>>>,
) {
    for (e, references) in entries.iter().zip(references) {
        // An empty list is kept as none (every reader here takes none as empty).
        if let Some(r) = references.filter(|r| !r.is_empty()) {
            scan.references.insert(e.path.clone(), r);
        }
    }
    scan.forget_file_names();
}

/// Every model's id, one shared string each (what each skill's verdicts are keyed by).
fn agent_ids(models: &[AgentModel]) -> Vec<Arc<str>> {
    models.iter().map(|m| Arc::from(m.id.as_str())).collect()
}

/// The field tables of the key set `keys` from `cache`, made and kept there the first time (a
/// key set is copied only then).
fn tables_for<'c>(
    cache: &'c mut FieldTables,
    models: &[AgentModel],
    keys: &[String],
) -> &'c [FieldTable] {
    if !cache.by_set.contains_key(keys) {
        let made = tables_from(models, keys, &mut cache.by_key);
        cache.by_set.insert(keys.to_vec(), made);
    }
    &cache.by_set[keys]
}

/// Every agent's field table for `keys`, in model order: agents that handle every key alike
/// share one table.
pub(crate) fn field_tables(models: &[AgentModel], keys: &[String]) -> Vec<FieldTable> {
    tables_from(models, keys, &mut HashMap::new())
}

/// [`field_tables`], each key's handling by every agent taken from `by_key` (and kept there
/// the first time).
fn tables_from(
    models: &[AgentModel],
    keys: &[String],
    by_key: &mut HashMap<String, Vec<Handling>>,
) -> Vec<FieldTable> {
    for k in resolve::field_keys(keys) {
        if !by_key.contains_key(k) {
            let column = models.iter().map(|m| resolve::handling(m, k)).collect();
            by_key.insert(k.to_string(), column);
        }
    }
    let columns: Vec<&[Handling]> = resolve::field_keys(keys)
        .map(|k| by_key[k].as_slice())
        .collect();
    let mut made: Vec<(Vec<Handling>, FieldTable)> = Vec::new();
    (0..models.len())
        .map(|ai| {
            let handling: Vec<Handling> = columns.iter().map(|c| c[ai]).collect();
            if let Some((_, table)) = made.iter().find(|(h, _)| *h == handling) {
                return table.clone();
            }
            let table = Arc::new(resolve::field_table(keys, handling.iter().copied()));
            made.push((handling, table.clone()));
            table
        })
        .collect()
}

/// Reads, from the scan, what the catalog keeps of entry `e` besides the verdicts.
pub(crate) fn facts(scan: &Scan, e: &resolve::Entry) -> FileFacts {
    facts_with(scan, e, &crate::skill::Parses::new())
}

/// [`facts`], the file's canonical parse shared through `parses`.
pub(crate) fn facts_with(
    scan: &Scan,
    e: &resolve::Entry,
    parses: &crate::skill::Parses,
) -> FileFacts {
    facts_of(scan, e, scan.content(&e.path), parses, Detail::Full)
}

/// How much of a file [`facts_of`] describes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// Everything the snapshot shows.
    Full,
    /// Everything but the head (a skill made to be streamed).
    NoHead,
    /// Only what orders the skills and picks their field tables (the name, the folder and the
    /// keys): no head, description or spec problems.
    Keys,
}

/// [`facts_with`] for a file whose content is `content` (None: the scan has no such file).
fn facts_of(
    scan: &Scan,
    e: &resolve::Entry,
    content: Option<&scan::FileContent>,
    parses: &crate::skill::Parses,
    detail: Detail,
) -> FileFacts {
    let c = e.candidate(scan);
    // The most specific walked root holding it.
    let (wi, _) = e
        .found
        .iter()
        .copied()
        .max_by_key(|(wi, _)| scan.walked[*wi].path.components().count())
        .unwrap_or(e.found[0]);
    let root = &scan.walked[wi].path;
    let dir = resolve::fallback_name(c, root);
    let (head, (name, description, keys, problems)) = match content.map(|a| &**a) {
        Some(Ok(md)) => {
            let head = match detail {
                Detail::Full => head_of(md.text()),
                Detail::NoHead | Detail::Keys => String::new(),
            };
            (head, describe(md, &dir, parses, detail))
        }
        Some(Err(_)) if detail == Detail::Keys => {
            (String::new(), (None, None, Vec::new(), Vec::new()))
        }
        Some(Err(err)) => (
            String::new(),
            (
                None,
                None,
                Vec::new(),
                vec![Problem {
                    code: err.code(),
                    severity: spec::Severity::Error,
                    message: err.to_string(),
                    line: err.line(),
                    column: err.column(),
                }],
            ),
        ),
        None => (String::new(), (None, None, Vec::new(), Vec::new())),
    };
    FileFacts {
        wi,
        dir,
        head,
        name,
        description,
        keys,
        problems,
        references: None,
    }
}

/// The catalog's skill for one entry (None: a loose `foo.md` no agent may load).
pub(crate) fn skill(
    scan: &Scan,
    e: &resolve::Entry,
    f: FileFacts,
    verdicts: Vec<(Arc<str>, Verdict)>,
    scope_of: &HashMap<&Path, Scope>,
) -> Option<Skill> {
    let c = e.candidate(scan);
    // A loose `foo.md` is a skill only if some agent may load it.
    if !c.is_skill_md() && verdicts.iter().all(|(_, v)| v.status == Status::NotFound) {
        return None;
    }
    let references = match f.references {
        Some(r) => r,
        None => scan.references.get(&e.path).cloned().unwrap_or_default(),
    };
    let mut problems = f.problems;
    for r in references.iter().filter(|r| !r.exists) {
        problems.push(Problem {
            code: spec::ProblemCode::ReferenceMissing,
            severity: spec::Severity::Warning,
            message: format!(
                "the body refers to `{}`, which is not in the skill folder",
                r.target
            ),
            line: Some(r.line),
            column: None,
        });
    }
    let scripts = e
        .path
        .parent()
        .is_some_and(|d| scan.with_scripts.contains(d));
    let root = scan.walked[f.wi].path.clone();
    let scope = scope_of
        .get(root.as_path())
        .copied()
        .unwrap_or(Scope::Other);
    Some(Skill {
        path: e.path.clone(),
        dir: f.dir,
        name: f.name,
        description: f.description,
        root: Some(root),
        scope,
        problems,
        keys: f.keys,
        head: f.head,
        references,
        scripts,
        verdicts,
    })
}

/// Lines a skill's head keeps at most.
const HEAD_LINES: usize = 40;
/// Bytes a skill's head keeps at most (whole lines).
const HEAD_BYTES: usize = 3072;

/// The head of a file the catalog keeps: its first [`HEAD_LINES`] lines, as many whole lines as
/// fit in [`HEAD_BYTES`] (line ends found in one search of the first [`HEAD_BYTES`], not one
/// search per line). Public for the unit tests in `tests/it/unit/`.
#[doc(hidden)]
pub fn head_of(text: &str) -> String {
    let bytes = text.as_bytes();
    let window = &bytes[..bytes.len().min(HEAD_BYTES)];
    let (mut end, mut lines) = (0, 0);
    for at in memchr::memchr_iter(b'\n', window).take(HEAD_LINES) {
        (end, lines) = (at + 1, lines + 1);
    }
    // A last line without a line end, when the whole file fits.
    if lines < HEAD_LINES && bytes.len() <= HEAD_BYTES {
        end = bytes.len();
    }
    text[..end].to_string()
}

type Described = (Option<String>, Option<String>, Vec<String>, Vec<Problem>);

/// What the catalog keeps of one file besides the verdicts.
#[derive(Clone)]
pub(crate) struct FileFacts {
    /// The walked root it is listed under.
    pub wi: usize,
    pub dir: String,
    pub head: String,
    pub name: Option<String>,
    pub description: Option<String>,
    pub keys: Vec<String>,
    pub problems: Vec<Problem>,
    /// The body references, when the resolution worked them out from the text it read (None:
    /// the scan's, [`Scan::references`]).
    pub references: Option<Vec<scan::Reference>>,
}

/// The text of a top-level scalar: a YAML null (`description:`, `~`, `null`) is no value, not
/// the text `~`.
fn text_of(fm: &crate::skill::Frontmatter, key: &str) -> Option<String> {
    fm.get(key)
        .filter(|n| n.ty() != crate::skill::YamlType::Null)
        .and_then(|n| n.scalar_text())
        .map(String::from)
}

/// Name, description, keys and spec problems of a file, with the canonical rules (one parse:
/// the same as `spec::validate_text` followed by `SkillMd::parse`); with [`Detail::Keys`] only
/// the name and the keys.
fn describe(md: &SkillMd, dir: &str, parses: &crate::skill::Parses, detail: Detail) -> Described {
    match parses.parse_md(
        md,
        crate::skill::SplitOptions::CANONICAL,
        Default::default(),
    ) {
        Ok(doc) => {
            let fm = &doc.frontmatter;
            let keys = fm.keys().map(|(k, _)| k.to_string()).collect();
            let name = text_of(fm, "name");
            if detail == Detail::Keys {
                return (name, None, keys, Vec::new());
            }
            let problems = spec::validate_frontmatter(fm, Some(dir));
            (name, text_of(fm, "description"), keys, problems)
        }
        Err(_) if detail == Detail::Keys => (None, None, Vec::new(), Vec::new()),
        Err(e) => (None, None, Vec::new(), vec![spec::parse_problem(&e)]),
    }
}
