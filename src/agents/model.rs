//! The agent model: what one coding agent does with skill folders, as data.
//!
//! One TOML file per agent lives in `assets/agents/` (embedded in the binary) or in a
//! folder given with `--model DIR`. Every behaviour is a [`Rule`]: a value (or `"unknown"`)
//! plus where the claim comes from (`source`), how strong it is (`evidence`) and the agent
//! version it was checked against (`version`). The resolver reads these rules and never
//! hard-codes an agent's behaviour; the explanation of a verdict cites the rule's id
//! (its key path, e.g. `codex/traversal.max_depth`) and its source.
//!
//! The file format is documented field by field in `assets/agents/README.md`.

use serde::Deserialize;
use serde::de::{self, Deserializer};
use std::collections::BTreeMap;
use std::fmt;

/// How strong the claim behind a rule is (the research's evidence labels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
pub enum Evidence {
    /// Vendor documentation.
    #[serde(rename = "DOC")]
    Doc,
    /// Vendor changelog entry.
    #[serde(rename = "CL")]
    Changelog,
    /// agentskillimplementation.com automated benchmark finding.
    #[serde(rename = "ASI")]
    Asi,
    /// Source code read at a commit.
    #[serde(rename = "SRC")]
    Src,
    /// JavaScript read inside a shipped bundle.
    #[serde(rename = "BUNDLE")]
    Bundle,
    /// A release run on fixture trees.
    #[serde(rename = "OBS")]
    Obs,
    /// Issue tracker or pull request.
    #[serde(rename = "ISSUE")]
    Issue,
    /// Third-party article, repository or tool profile.
    #[serde(rename = "3P")]
    ThirdParty,
    /// A third-party cross-agent frontmatter-field table.
    #[serde(rename = "FT")]
    FieldTable,
    /// The Agent Skills specification or client guide.
    #[serde(rename = "SPEC")]
    Spec,
    /// Inference: neither read nor tested.
    #[serde(rename = "INF")]
    Inference,
    /// The research says nothing (used with `value = "unknown"`).
    #[serde(rename = "NONE")]
    None,
}

impl Evidence {
    /// The label as written in the research and the model files.
    pub fn label(self) -> &'static str {
        match self {
            Evidence::Doc => "DOC",
            Evidence::Changelog => "CL",
            Evidence::Asi => "ASI",
            Evidence::Src => "SRC",
            Evidence::Bundle => "BUNDLE",
            Evidence::Obs => "OBS",
            Evidence::Issue => "ISSUE",
            Evidence::ThirdParty => "3P",
            Evidence::FieldTable => "FT",
            Evidence::Spec => "SPEC",
            Evidence::Inference => "INF",
            Evidence::None => "NONE",
        }
    }
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A value the research establishes, or `"unknown"` when it does not.
#[derive(Debug, Clone, PartialEq)]
pub enum Known<T> {
    Known(T),
    Unknown,
}

impl<T> Known<T> {
    pub fn as_known(&self) -> Option<&T> {
        match self {
            Known::Known(v) => Some(v),
            Known::Unknown => None,
        }
    }
    pub fn is_unknown(&self) -> bool {
        matches!(self, Known::Unknown)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Known<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Buffer through toml's own value type so that the string "unknown" can be told apart
        // from a value of T without serde's untagged-enum error messages (which lose the reason).
        let v = toml::Value::deserialize(d)?;
        if v.as_str() == Some("unknown") {
            return Ok(Known::Unknown);
        }
        T::deserialize(v)
            .map(Known::Known)
            .map_err(de::Error::custom)
    }
}

/// Provenance shared by every rule.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// Evidence label.
    pub evidence: Evidence,
    /// Agent version the claim was checked against (or the version range it describes).
    #[serde(default)]
    pub version: Option<String>,
    /// Commit for [SRC] claims.
    #[serde(default)]
    pub commit: Option<String>,
    /// Where the claim comes from: a list of sources, each of one kind (docs page, permalink,
    /// changelog entry, issue, benchmark check, oracle case, package, inference).
    /// (Shared: every reason citing the rule points at the same list.)
    pub source: super::sources::Sources,
    /// A plain sentence for the explanation; optional.
    #[serde(default)]
    pub note: Option<String>,
    /// The rule's id, derived once at load time from its place in the model file
    /// (`codex/roots.user-agents`), with its topic; every reason citing the rule carries it.
    #[serde(skip)]
    pub id: RuleId,
}

/// A rule's id: `<agent>/<key path in the model file>` (`codex/roots.user-agents`,
/// `copilot-cli/fields.argument-hint.values.list`), `skilltui/<check>` for skilltui's own
/// checks, `spec/<code>` for the specification. Agent rule ids are made only by the model
/// loader ([`crate::agents::parse_model`]) from the file, with the rule's [`Topic`] and, for
/// field rules, the field, and the rule's citation (its sources, their line, the evidence label,
/// the strength) that every reason citing the rule reads through it; everything else copies
/// them. Compared, ordered and hashed by the id text.
#[derive(Debug, Clone, Default)]
pub struct RuleId(std::sync::Arc<RuleName>);

#[derive(Debug, Default)]
struct RuleName {
    id: Box<str>,
    topic: Topic,
    field: Option<Box<str>>,
    cited: Cited,
}

/// Where a rule comes from, as its reasons cite it: kept once, with the rule's id, so that a
/// reason holds only its rule and its sentence's values.
#[derive(Debug, Clone, Default)]
struct Cited {
    /// The sources as data (empty for skilltui's own checks).
    sources: super::sources::Sources,
    /// The sources on one line (made when first shown).
    line: std::sync::OnceLock<std::sync::Arc<str>>,
    /// The line for a rule whose sources are not one provenance's (the root list, skilltui's
    /// own checks).
    fixed_line: Option<std::sync::Arc<str>>,
    /// `[OBS 0.171.0]`, `[skilltui]`.
    evidence: std::sync::Arc<str>,
    /// `None` for skilltui's own checks (not an agent's rule).
    strength: Option<super::sources::Strength>,
}

impl Cited {
    fn of(from: &Provenance) -> Cited {
        Cited {
            sources: from.source.clone(),
            line: std::sync::OnceLock::new(),
            fixed_line: None,
            evidence: from.citation().into(),
            strength: Some(from.strength()),
        }
    }

    /// skilltui's own checks and the specification's codes.
    fn skilltui() -> Cited {
        static SKILLTUI: std::sync::LazyLock<(std::sync::Arc<str>, std::sync::Arc<str>)> =
            std::sync::LazyLock::new(|| ("skilltui".into(), "[skilltui]".into()));
        Cited {
            sources: super::sources::Sources::default(),
            line: std::sync::OnceLock::new(),
            fixed_line: Some(SKILLTUI.0.clone()),
            evidence: SKILLTUI.1.clone(),
            strength: None,
        }
    }
}

impl RuleId {
    /// An agent rule's id citing `from`: made by the model loader for every rule of a model
    /// file (public for the tests, which make a rule outside one).
    #[doc(hidden)]
    pub fn agent_rule(
        agent: &str,
        key: &str,
        topic: Topic,
        field: Option<&str>,
        from: &Provenance,
    ) -> RuleId {
        RuleId(std::sync::Arc::new(RuleName {
            id: format!("{agent}/{key}").into(),
            topic,
            field: field.map(Into::into),
            cited: Cited::of(from),
        }))
    }

    /// An agent rule's id whose citation is made of several provenances (the root list as a
    /// whole): its source line, sources, evidence and strength as given.
    pub(crate) fn summary_rule(
        agent: &str,
        key: &str,
        topic: Topic,
        line: String,
        sources: super::sources::Sources,
        evidence: String,
        strength: Option<super::sources::Strength>,
    ) -> RuleId {
        RuleId(std::sync::Arc::new(RuleName {
            id: format!("{agent}/{key}").into(),
            topic,
            field: None,
            cited: Cited {
                sources,
                line: std::sync::OnceLock::new(),
                fixed_line: Some(line.into()),
                evidence: evidence.into(),
                strength,
            },
        }))
    }

    /// The sources on one line (shared by every reason citing the rule).
    pub fn source(&self) -> &std::sync::Arc<str> {
        let c = &self.0.cited;
        match &c.fixed_line {
            Some(line) => line,
            None => c.line.get_or_init(|| c.sources.render().into()),
        }
    }

    /// The rule's sources as data; empty for skilltui's own checks.
    pub fn sources(&self) -> &super::sources::Sources {
        &self.0.cited.sources
    }

    /// The evidence label with version or commit, e.g. `[OBS 0.171.0]`.
    pub fn evidence(&self) -> &std::sync::Arc<str> {
        &self.0.cited.evidence
    }

    /// How strong the rule's evidence is; `None` for skilltui's own checks.
    pub fn strength(&self) -> Option<super::sources::Strength> {
        self.0.cited.strength
    }

    /// The very same id (not only an equal one): a model's rule is one `RuleId`, shared by
    /// every reason that cites it.
    pub fn same(&self, other: &RuleId) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }

    /// The same rule seen from another topic (a setting's rule cited as the root it adds).
    pub(crate) fn as_topic(&self, topic: Topic) -> RuleId {
        RuleId(std::sync::Arc::new(RuleName {
            id: self.0.id.clone(),
            topic,
            field: self.0.field.clone(),
            cited: self.0.cited.clone(),
        }))
    }

    fn other(id: String) -> RuleId {
        RuleId(std::sync::Arc::new(RuleName {
            id: id.into(),
            topic: Topic::Other,
            field: None,
            cited: Cited::skilltui(),
        }))
    }

    /// The id of one of skilltui's own checks (reading limits and the like).
    pub fn skilltui(check: &str) -> RuleId {
        RuleId::other(format!("skilltui/{check}"))
    }

    /// The id of a specification problem code.
    pub fn spec(code: &str) -> RuleId {
        RuleId::other(format!("spec/{code}"))
    }

    pub fn as_str(&self) -> &str {
        &self.0.id
    }

    /// What the rule is about.
    pub fn topic(&self) -> Topic {
        self.0.topic
    }

    /// The frontmatter field a field or value rule is about.
    pub fn field(&self) -> Option<&str> {
        self.0.field.as_deref()
    }

    /// The id without its agent (`claude-code/not_roots.x` → `not_roots.x`): the same rule
    /// across agents, for grouping.
    pub fn key(&self) -> &str {
        let id = self.as_str();
        id.split_once('/').map_or(id, |(_, k)| k)
    }
}

// One rule's reasons share its id (an `Arc`): the same one is equal without reading the text.
impl PartialEq for RuleId {
    fn eq(&self, other: &RuleId) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0) || self.as_str() == other.as_str()
    }
}

impl Eq for RuleId {}

impl PartialOrd for RuleId {
    fn partial_cmp(&self, other: &RuleId) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for RuleId {
    fn cmp(&self, other: &RuleId) -> std::cmp::Ordering {
        if std::sync::Arc::ptr_eq(&self.0, &other.0) {
            return std::cmp::Ordering::Equal;
        }
        self.as_str().cmp(other.as_str())
    }
}

impl std::hash::Hash for RuleId {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_str().hash(h)
    }
}

impl std::ops::Deref for RuleId {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for RuleId {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for RuleId {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl serde::Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// What a rule (and so a reason citing it) is about, so that front ends, findings and actions
/// decide on a type rather than on the text of an id or a message. Set by the model loader
/// from the rule's place in the file; the resolver narrows it where the situation says more
/// ([`Topic::Found`], [`Topic::SameFile`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Topic {
    /// Not an agent rule (skilltui's own checks, the specification).
    #[default]
    Other,
    /// A root the agent scans (`roots.<id>`).
    Root,
    /// The root a skill was found under (a reason of a root rule that reached it).
    Found,
    /// How a root is walked or when it applies (`roots.<id>.walk`, `.no_git`, …).
    RootWalk,
    /// A root's own traversal override (`roots.<id>.traversal.*`).
    RootTraversal,
    /// A root a setting adds (cites the setting's rule, `settings.<id>`).
    SettingRoot,
    /// A root the agent no longer scans.
    FormerRoot,
    /// A folder the agent is known not to scan.
    NotRoot,
    /// A traversal rule (`traversal.*`) other than the ones below.
    Traversal,
    /// `traversal.max_depth`.
    MaxDepth,
    /// `traversal.file_name`.
    FileName,
    /// A parse rule other than the YAML error rules.
    Parse,
    /// `parse.yaml_error`, `parse.yaml_repair`.
    YamlError,
    /// A `name_rules.*` rule other than the ones below.
    Name,
    /// `name_rules.source`: where the name comes from.
    NameSource,
    NameLength,
    NameCharset,
    NameFolderMismatch,
    NameMissing,
    NameEmpty,
    /// A `description_rules.*` rule other than the ones below.
    Description,
    DescriptionMissing,
    DescriptionEmpty,
    DescriptionLength,
    /// `precedence.mode`.
    Precedence,
    /// `precedence.order`, `precedence.tie_break`, `precedence.warns`.
    PrecedenceOrder,
    /// A copy shadowed by the same file reached another way (a symlink): loaded once.
    SameFile,
    /// A frontmatter field's rule (`fields.<key>`).
    Field,
    /// A field value rule (`fields.<key>.values.<kinds>`).
    FieldValue,
    /// A setting (`settings.<id>` and its `order`/`wildcards`).
    Setting,
    /// What the model receives (`listing.*`).
    Listing,
    /// How the body's paths and scripts are treated (`body.*`).
    Body,
    /// A root left unread because an earlier root of its `group` exists (first existing wins).
    RootGroup,
    /// Folder trust (`trust.*`): roots of the gated scopes are read only in a trusted folder.
    Trust,
    /// A known bug of a release (`bugs.<id>`) that bites this skill.
    KnownBug,
    /// How skilltui tells that the agent is in use on this machine (`command`, `home`).
    InUse,
}

impl Topic {
    /// About the root rather than the skill: the agent never scans the folder, or not here.
    pub fn is_root_level(self) -> bool {
        matches!(
            self,
            Topic::Root
                | Topic::Found
                | Topic::RootWalk
                | Topic::RootTraversal
                | Topic::SettingRoot
                | Topic::FormerRoot
                | Topic::NotRoot
                | Topic::RootGroup
                | Topic::Trust
        )
    }
}

impl Provenance {
    /// How strong the claim is (from the evidence label).
    pub fn strength(&self) -> super::sources::Strength {
        self.evidence.strength()
    }

    /// `[OBS 0.171.0]`, `[SRC 4e30281a]`, `[DOC]`.
    pub fn citation(&self) -> String {
        let detail = self.version.as_deref().or(self.commit.as_deref());
        match detail {
            Some(d) => format!("[{} {}]", self.evidence, d),
            None => format!("[{}]", self.evidence),
        }
    }
}

/// One behaviour of an agent with its provenance.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule<T> {
    pub value: Known<T>,
    #[serde(flatten)]
    pub from: Provenance,
}

impl<T> Rule<T> {
    pub fn known(&self) -> Option<&T> {
        self.value.as_known()
    }
}

/// The whole model of one agent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentModel {
    /// Stable id: `claude-code`, `codex`, `copilot-cli`, `antigravity`, `cursor`, `opencode`, `pi`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// A two-letter column title for narrow tables (defaults to the id's first two letters).
    #[serde(default)]
    pub short: Option<String>,
    /// The newest release the model describes.
    pub version: String,
    /// When the model was last checked against the research (YYYY-MM-DD).
    pub checked: String,
    /// Where the vendor documents skills.
    #[serde(default)]
    pub docs: Option<String>,
    /// A one-paragraph summary of how the agent treats skills (shown by `skilltui agents`).
    #[serde(default)]
    pub summary: Option<String>,
    /// Skill roots, in precedence order (first = highest precedence).
    pub roots: Vec<RootSpec>,
    /// Roots the agent used to scan and no longer does.
    #[serde(default)]
    pub former_roots: Vec<FormerRoot>,
    /// Folders the agent is known not to scan (negative findings worth citing, such as
    /// `.agents/skills` on Claude Code).
    #[serde(default)]
    pub not_roots: Vec<NotRoot>,
    /// Settings files, variables and sidecars that add roots or disable or hide skills.
    #[serde(default)]
    pub settings: Vec<SettingSpec>,
    /// How the agent walks below a root (a root may override any of these).
    pub traversal: Traversal,
    /// How the agent reads a SKILL.md.
    pub parse: Parse,
    /// Rules on the `name` field and the skill's identity (TOML table `[name_rules]`; the
    /// top-level `name` key is the agent's display name).
    pub name_rules: NameRules,
    /// Rules on the `description` field (TOML table `[description_rules]`).
    pub description_rules: DescriptionRules,
    /// How name collisions are decided.
    pub precedence: Precedence,
    /// What the agent does with each frontmatter field (spec fields and its own).
    pub fields: BTreeMap<String, FieldRule>,
    /// What the model receives at session start.
    pub listing: Listing,
    /// How relative paths in a skill's body resolve, and what happens to bundled scripts.
    #[serde(default)]
    pub body: Option<BodyRules>,
    /// Folder trust: roots of some scopes are read only in a folder the user trusts (Gemini CLI).
    #[serde(default)]
    pub trust: Option<Trust>,
    /// Known bugs of a release, each with the condition on a skill that triggers it.
    #[serde(default)]
    pub bugs: Vec<KnownBug>,
    /// The program(s) the agent installs on `PATH` (`claude`, `codex`): one found there means
    /// the agent is in use on this machine.
    #[serde(default)]
    pub command: Option<Rule<Names>>,
    /// The agent's own config or home folder(s) (`~/.claude`): one that exists means the agent
    /// is in use on this machine. Path templates as for roots.
    #[serde(default)]
    pub home: Option<Rule<Names>>,
    /// The file's text, parsed into a generic table the first time every rule is listed
    /// (`skilltui agents`, the Agents tab); resolving never needs it.
    #[serde(skip)]
    pub raw: RawModel,
    /// The id of the root list as a whole (`<agent>/roots`), cited when a skill lies under
    /// none of the roots; set by the loader.
    #[serde(skip)]
    pub roots_rule: RuleId,
}

/// One rule of a model, found generically in the file: any table that carries `evidence`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RuleView {
    /// Key path, e.g. `traversal.max_depth`, `roots.project-claude`, `fields.metadata`.
    pub id: String,
    /// The value (or `handling` / `path`), as TOML text; `unknown` when unknown.
    pub value: String,
    pub evidence: String,
    pub version: Option<String>,
    pub commit: Option<String>,
    /// The sources, rendered on one line.
    pub source: String,
    /// The sources as data.
    pub sources: Vec<super::sources::Source>,
    /// How strong the evidence is (`none` when the label is not known).
    pub strength: super::sources::Strength,
    pub note: Option<String>,
}

impl RuleView {
    /// The evidence label as parsed, when it is one.
    pub fn evidence_label(&self) -> Option<Evidence> {
        Evidence::deserialize(toml::Value::String(self.evidence.clone())).ok()
    }
}

/// A model file's text and, once asked for, its generic table ([`AgentModel::raw`]).
#[derive(Debug, Clone, Default)]
pub struct RawModel(std::sync::Arc<RawText>);

#[derive(Debug, Default)]
struct RawText {
    text: std::borrow::Cow<'static, str>,
    table: std::sync::OnceLock<toml::Table>,
}

impl RawModel {
    pub fn new(text: std::borrow::Cow<'static, str>) -> RawModel {
        RawModel(std::sync::Arc::new(RawText {
            text,
            table: std::sync::OnceLock::new(),
        }))
    }
}

impl AgentModel {
    /// The two-letter column title.
    pub fn abbrev(&self) -> String {
        self.short
            .clone()
            .unwrap_or_else(|| self.id.chars().take(2).collect())
    }

    /// The file as a generic table, the derived ids of not-roots and former roots written into
    /// it (parsed on first use, then shared by every copy of the model).
    pub fn raw(&self) -> &toml::Table {
        self.raw.0.table.get_or_init(|| {
            let mut t: toml::Table = toml::from_str(&self.raw.0.text).unwrap_or_default();
            let ids = |key: &str, ids: Vec<&str>, t: &mut toml::Table| {
                if let Some(toml::Value::Array(items)) = t.get_mut(key) {
                    for (item, id) in items.iter_mut().zip(ids) {
                        if let toml::Value::Table(t) = item {
                            t.insert("id".into(), toml::Value::String(id.to_string()));
                        }
                    }
                }
            };
            ids(
                "not_roots",
                self.not_roots.iter().map(|r| r.id.as_str()).collect(),
                &mut t,
            );
            let former = self.former_roots.iter().map(|r| r.id.as_str()).collect();
            ids("former_roots", former, &mut t);
            t
        })
    }

    /// Every rule in the file, in file order.
    pub fn rules(&self) -> Vec<RuleView> {
        let mut out = Vec::new();
        walk_rules("", self.raw(), &mut |prefix, t| {
            out.push(rule_view(prefix, t))
        });
        if let Some(summary) = self.roots_summary(&out) {
            out.insert(0, summary);
        }
        out
    }

    /// The key paths of the rules in the file, in file order, as [`AgentModel::rules`] lists
    /// them (without the `roots` summary), without making their views.
    pub fn rule_ids(&self) -> Vec<String> {
        let mut out = Vec::new();
        walk_rules("", self.raw(), &mut |prefix, _| {
            out.push(prefix.to_string())
        });
        out
    }

    /// The root list as a whole (`roots`), cited when a skill lies under none of them: every
    /// root's sources, the weakest root's evidence (None without roots).
    fn roots_summary(&self, rules: &[RuleView]) -> Option<RuleView> {
        let roots: Vec<&RuleView> = rules
            .iter()
            .filter(|r| {
                r.id.strip_prefix("roots.")
                    .is_some_and(|rest| self.roots.iter().any(|x| x.id == rest))
            })
            .collect();
        let weakest = roots.iter().min_by_key(|r| r.strength)?;
        let mut sources: Vec<super::sources::Source> = Vec::new();
        for r in &roots {
            for s in &r.sources {
                if !sources.contains(s) {
                    sources.push(s.clone());
                }
            }
        }
        Some(RuleView {
            id: "roots".into(),
            value: roots
                .iter()
                .map(|r| r.value.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            evidence: weakest.evidence.clone(),
            version: None,
            commit: None,
            source: rendered(&sources),
            sources,
            strength: weakest.strength,
            note: Some(
                "Every root above, in precedence order: cited when a skill lies under none of them (each root has its own rule)."
                    .into(),
            ),
        })
    }
}

/// Calls `f` with the rules of table `t` (key path `prefix`) and of the tables inside it, in
/// file order: a table with `evidence` is a rule.
fn walk_rules(prefix: &str, t: &toml::Table, f: &mut dyn FnMut(&str, &toml::Table)) {
    if t.contains_key("evidence") {
        f(prefix, t);
    }
    for (k, v) in t {
        let id = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(sub) => walk_rules(&id, sub, f),
            toml::Value::Array(items) => {
                for item in items {
                    if let toml::Value::Table(sub) = item {
                        walk_rules(&format!("{id}.{}", item_name(sub)), sub, f);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The name of a table in an array of tables: its `id`, else its `path`, else its kinds (value
/// rules are named after them: `values.list+mapping`), else `?`.
fn item_name(sub: &toml::Table) -> String {
    let kinds = sub.get("kinds").and_then(|v| v.as_array()).map(|ks| {
        ks.iter()
            .filter_map(|k| k.as_str())
            .collect::<Vec<_>>()
            .join("+")
    });
    sub.get("id")
        .and_then(|v| v.as_str())
        .or_else(|| sub.get("path").and_then(|v| v.as_str()))
        .map(String::from)
        .or(kinds)
        .unwrap_or_else(|| "?".into())
}

/// Sources as one line, `; ` between them.
fn rendered(sources: &[super::sources::Source]) -> String {
    sources
        .iter()
        .map(super::sources::Source::render)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The rule written as table `t` at key path `prefix`.
fn rule_view(prefix: &str, t: &toml::Table) -> RuleView {
    let s = |k: &str| t.get(k).and_then(|v| v.as_str()).map(String::from);
    let sources: Vec<super::sources::Source> = t
        .get("source")
        .and_then(|v| super::sources::Sources::deserialize(v.clone()).ok())
        .map(|s| s.0.to_vec())
        .unwrap_or_default();
    let mut view = RuleView {
        id: prefix.to_string(),
        value: rule_value(prefix, t),
        evidence: s("evidence").unwrap_or_default(),
        version: s("version"),
        commit: s("commit"),
        source: rendered(&sources),
        sources,
        strength: super::sources::Strength::None,
        note: s("note"),
    };
    view.strength = view
        .evidence_label()
        .map_or(super::sources::Strength::None, Evidence::strength);
    view
}

/// What a rule says, as text: its value, handling, path or outcome (a known bug: its
/// condition); a root of a group says that only the first existing folder is read.
fn rule_value(prefix: &str, t: &toml::Table) -> String {
    ["value", "handling", "path"]
        .iter()
        .find_map(|k| t.get(*k))
        .or_else(|| t.get("outcome"))
        .or_else(|| prefix.starts_with("bugs.").then(|| t.get("when")).flatten())
        .map(|v| match v {
            toml::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .map(|v| match t.get("group").and_then(|g| g.as_str()) {
            Some(g) => format!("{v} (group {g}: the first existing folder is read)"),
            None => v,
        })
        .unwrap_or_default()
}

/// The id of a table that has a path but no id (`~/.agents/skills` → `home-agents-skills`):
/// `~` reads `home`, every other run of letters and digits is kept, lowercased, `-` between.
pub fn path_id(path: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut cur = String::new();
    for c in path.chars() {
        if c == '~' {
            parts.push("home".into());
        } else if c.is_alphanumeric() {
            cur.extend(c.to_lowercase());
            continue;
        }
        if !cur.is_empty() {
            parts.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    if parts.is_empty() {
        "root".into()
    } else {
        parts.join("-")
    }
}

/// Scope of a root.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Deserialize,
    serde::Serialize,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Scope {
    Project,
    User,
    System,
    Other,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// How a project-scoped root is repeated over the folders around the project folder (cwd).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProjectWalk {
    /// Only the project folder itself.
    CwdOnly,
    /// Each folder from the project folder up to the git root, nearest first.
    UpToGitRoot,
    /// Each folder from the git root down to the project folder (order irrelevant or root first).
    DownFromGitRoot,
    /// Only the git root (Kimi Code's project root, Cline's workspace): neither the project
    /// folder below it nor the folders in between. Without git, `no_git` decides.
    GitRoot,
    /// The project folder and the git root, not the folders in between (Crush).
    CwdAndGitRoot,
    /// Each folder from the project folder up to `/`, nearest first, in a git repository or not
    /// (Amp).
    UpToFsRoot,
}

/// What the walk does when the project folder is not inside a git repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoGitWalk {
    /// Only the project folder.
    CwdOnly,
    /// Every folder up to `/`.
    UpToFsRoot,
    /// Every folder up to `/`, but stop below the home folder when it is an ancestor.
    UpToFsRootBelowHome,
}

/// One root: a folder (template) in which the agent looks for skills.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RootSpec {
    /// Stable id within the agent, e.g. `project-claude`.
    pub id: String,
    /// Path template: relative to each walked project folder for project scope; `~` is the
    /// home folder; `${VAR}` / `${VAR:-default}` read the environment (a root whose variable is
    /// unset and has no default is inactive).
    pub path: String,
    pub scope: Scope,
    /// Project scope only: which folders around the project folder are searched.
    #[serde(default)]
    pub walk: Option<Rule<ProjectWalk>>,
    /// Project scope only: the walk outside a git repository.
    #[serde(default)]
    pub no_git: Option<Rule<NoGitWalk>>,
    /// Project scope only: what marks the git root the walk stops at: a git work tree as git
    /// sees it (the default) or any `.git` entry (a bare `.git` folder too).
    #[serde(default)]
    pub git_marker: Option<Rule<GitMarker>>,
    /// The root is not scanned when any of these environment variables is set (non-empty and
    /// not `0`/`false`).
    #[serde(default)]
    pub unless_env: Vec<String>,
    /// Project roots: a walked folder that is also one of the agent's user roots is left to
    /// that user root (pi keeps `~/.agents/skills` user-scoped when the walk passes home).
    #[serde(default)]
    pub except_user_roots: Option<Rule<bool>>,
    /// Traversal rules that differ from the agent's defaults under this root.
    #[serde(default)]
    pub traversal: TraversalOverride,
    /// Since which agent version the root is scanned, when known.
    #[serde(default)]
    pub since: Option<String>,
    /// Operating systems the root exists on (`linux`, `macos`, `windows`); empty = all.
    #[serde(default)]
    pub os: Vec<String>,
    /// Roots sharing a group are alternatives: only the first of them (in file order) whose
    /// folder exists is read (Kimi Code's first-existing-of).
    #[serde(default)]
    pub group: Option<String>,
    #[serde(flatten)]
    pub from: Provenance,
}

impl RootSpec {
    /// Whether the root applies on this operating system.
    pub fn on_this_os(&self) -> bool {
        self.os.is_empty() || self.os.iter().any(|o| o == std::env::consts::OS)
    }
}

/// A root the agent no longer scans.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormerRoot {
    /// Unique among the former roots; derived from `path` at load time when not given
    /// ([`path_id`]). The rule id is `former_roots.<id>`.
    #[serde(default)]
    pub id: String,
    pub path: String,
    pub scope: Scope,
    /// First version that no longer scans it ("unknown" when the research has no version).
    pub until: String,
    /// When set, the root is dropped only while one of these variables is set.
    #[serde(default)]
    pub when_env: Vec<String>,
    #[serde(flatten)]
    pub from: Provenance,
}

/// A folder the agent does not scan, with the finding that says so.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotRoot {
    /// Unique among the not-roots; derived from `path` at load time when not given
    /// ([`path_id`]). The rule id is `not_roots.<id>`.
    #[serde(default)]
    pub id: String,
    pub path: String,
    pub scope: Scope,
    #[serde(flatten)]
    pub from: Provenance,
}

/// The format of a settings file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SettingsFormat {
    Json,
    /// JSON with `//` and `/* */` comments and trailing commas.
    Jsonc,
    Toml,
    Yaml,
}

/// How a setting's value is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SettingKind {
    /// A map from skill name to a state; `states` says what each state does.
    NameStates,
    /// A list of skill names, each getting `effect`.
    NameList,
    /// A list of tables with `name` or `path` and `enabled`; `enabled = false` gets `effect`.
    Entries,
    /// A list of folders that become extra roots (`subpath` appended).
    RootList,
    /// An environment variable holding folders separated by `separator`: extra roots.
    EnvRootList,
    /// Folders given on skilltui's command line (`--add-dir`), `subpath` appended: extra roots.
    CliDirs,
    /// A map from name pattern (`*` wildcards) to `allow`/`ask`/`deny`, or one action for all;
    /// `deny` gets `effect`.
    PatternPermissions,
    /// pi's settings `skills` array: paths are extra roots; `!pattern` and `-path` exclude.
    PiPatterns,
    /// A file next to SKILL.md (e.g. `agents/openai.yaml`); `key` equal to `when` gets `effect`.
    Sidecar,
}

/// What a setting does to a skill it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SettingEffect {
    /// The agent does not load it (status `rejected`, the reason names the file and key).
    Disabled,
    /// Loaded and listed for the user, kept from the model (`model: false`).
    ModelHidden,
    /// No effect (e.g. the state `on`).
    None,
}

/// One setting an agent reads.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingSpec {
    /// Stable id within the agent, e.g. `skill-overrides-local`.
    pub id: String,
    pub kind: SettingKind,
    /// The settings file: a template like root paths (project scope: relative to the project
    /// folder; `~`, `${VAR:-default}`); for `sidecar`, relative to the skill folder.
    #[serde(default)]
    pub file: Option<String>,
    /// Where `file` is: `project` or `user`.
    #[serde(default)]
    pub scope: Option<Scope>,
    #[serde(default)]
    pub format: Option<SettingsFormat>,
    /// Dotted path of the key inside the file (`skillOverrides`, `skills.config`).
    #[serde(default)]
    pub key: Option<String>,
    /// `env-root-list`: the variable and the separator.
    #[serde(default)]
    pub env: Option<String>,
    #[serde(default)]
    pub separator: Option<String>,
    /// Appended to each listed folder (`--add-dir DIR` → `DIR/.claude/skills`).
    #[serde(default)]
    pub subpath: Option<String>,
    /// `name-states`: what each state does.
    #[serde(default)]
    pub states: BTreeMap<String, SettingEffect>,
    /// What a match does, for the other kinds.
    #[serde(default)]
    pub effect: Option<SettingEffect>,
    /// `sidecar`: the value of `key` that triggers `effect`.
    #[serde(default)]
    pub when: Option<toml::Value>,
    /// `pattern-permissions`: which pattern decides when several match (absent: any matching
    /// `deny` disables).
    #[serde(default)]
    pub order: Option<Rule<PatternOrder>>,
    /// `pattern-permissions`, `pi-patterns`: the wildcard dialect of the patterns (absent:
    /// `star`).
    #[serde(default)]
    pub wildcards: Option<Rule<Wildcards>>,
    /// `root-list`, `env-root-list`, `cli-dirs`: where the roots the setting adds rank (absent:
    /// `last`, after the model's roots). `first`: before every root of the model (Mistral
    /// Vibe's `skill_paths`).
    #[serde(default)]
    pub rank: Option<Rule<SettingRank>>,
    #[serde(flatten)]
    pub from: Provenance,
}

/// Where the roots a setting adds rank among the agent's roots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SettingRank {
    /// Before every root of the model.
    First,
    /// After every root of the model (the default).
    Last,
}

/// Which of several matching permission patterns decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PatternOrder {
    /// A `deny` on any matching pattern disables, whatever else matches.
    AnyDeny,
    /// The last matching pattern decides, whatever its action. The agent's files with the same
    /// key are merged first, the way a deep merge of objects does it: the user file's patterns
    /// in their order, a project file replacing the action of a pattern the user file has (in
    /// place) and appending its other patterns; one action instead of a map replaces the map
    /// with `{"*": action}`.
    LastMatch,
}

/// A wildcard dialect for name patterns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Wildcards {
    /// `*` matches any run of characters; everything else literally.
    Star,
    /// `*` matches any run of characters (so `**` is the same as `*`), `?` exactly one
    /// character; `\` and `/` are the same character; a pattern ending in ` *` also matches
    /// the text without that ending; everything else literally.
    StarQuestion,
}

/// What a bare relative path in a skill's body (`references/guide.md`) resolves against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RelativeBase {
    /// The skill folder (the spec's rule).
    SkillDir,
    /// The working folder: a bare path fails and the model must recover.
    Cwd,
    /// The model qualifies paths itself from the listed location.
    ModelQualifies,
}

/// What happens when a skill's bundled script is run in the agent's default (headless) mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScriptPolicy {
    Runs,
    /// Needs the user's approval (blocked when nobody can approve).
    Blocked,
}

/// Body references and bundled scripts.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyRules {
    pub relative_paths: Rule<RelativeBase>,
    /// A variable the body can use for the skill folder (`${CLAUDE_SKILL_DIR}`).
    #[serde(default)]
    pub skill_dir_variable: Option<Rule<String>>,
    pub scripts: Rule<ScriptPolicy>,
    /// Whether `allowed-tools` changes what happens to scripts.
    pub allowed_tools_changes_scripts: Rule<bool>,
}

/// How deep below a root a skill folder may sit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// The skill folder may be at most this many folders below the root (1 = direct children).
    Limited(u32),
    Unlimited,
}

impl<'de> Deserialize<'de> for Depth {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = toml::Value::deserialize(d)?;
        match v {
            toml::Value::Integer(n) if (1..=u32::MAX as i64).contains(&n) => {
                Ok(Depth::Limited(n as u32))
            }
            toml::Value::String(s) if s == "unlimited" => Ok(Depth::Unlimited),
            other => Err(de::Error::custom(format!(
                "expected a positive integer or \"unlimited\", found {}",
                other.type_str()
            ))),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Nested {
    /// A SKILL.md inside another skill's folder is registered as a skill of its own.
    Register,
    /// The walk stops descending at a folder holding a SKILL.md.
    Stop,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EnterOrSkip {
    Enter,
    Skip,
}

/// How the patterns of an ignore file inside a root are anchored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IgnoreAnchoring {
    /// git's rules: each file's patterns are relative to its own folder; a leading or inner `/`
    /// anchors there, a pattern without one matches at any depth below it.
    Git,
    /// One matcher for the whole root, fed each file's lines with the file's folder (relative to
    /// the root) in front, after one leading `/` is dropped (pi's `prefixIgnorePattern`): a
    /// root file's `/x/` matches `x` at any depth, and a nested file's `x` matches only that
    /// folder's own entries.
    FolderPrefixed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FollowOrIgnore {
    Follow,
    Ignore,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReportedPath {
    /// The path through the link.
    Link,
    /// The resolved target path.
    Canonical,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileNameMatch {
    /// Exactly `SKILL.md`.
    Exact,
    /// `SKILL.md` in any letter case.
    CaseInsensitive,
    /// `SKILL.md`, else `skill.md` (skills-ref).
    UpperThenLower,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RootSkillMd {
    /// A SKILL.md directly in a root is a skill (named after the root folder).
    Skill,
    /// Ignored.
    Ignored,
    /// It turns the whole root into one skill and hides everything below (Copilot CLI).
    WholeRoot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LooseMd {
    /// A `foo.md` directly in the root is a skill named `foo`.
    Skill,
    Ignored,
}

/// Traversal defaults of an agent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Traversal {
    pub max_depth: Rule<Depth>,
    /// Folders visited per root before the walk is cut (None = no bound known).
    #[serde(default)]
    pub max_dirs: Option<Rule<u32>>,
    pub nested: Rule<Nested>,
    pub hidden: Rule<EnterOrSkip>,
    pub node_modules: Rule<EnterOrSkip>,
    /// Ignore files honoured inside a root (e.g. `.gitignore`); empty = none.
    pub ignore_files: Rule<Vec<String>>,
    /// How those files' patterns are anchored (None: git's rules).
    #[serde(default)]
    pub ignore_anchoring: Option<Rule<IgnoreAnchoring>>,
    pub symlinked_dirs: Rule<FollowOrIgnore>,
    pub symlinked_files: Rule<FollowOrIgnore>,
    pub reported_path: Rule<ReportedPath>,
    pub file_name: Rule<FileNameMatch>,
    pub skill_md_in_root: Rule<RootSkillMd>,
    pub loose_md: Rule<LooseMd>,
}

/// Per-root changes to the traversal defaults.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraversalOverride {
    #[serde(default)]
    pub max_depth: Option<Rule<Depth>>,
    #[serde(default)]
    pub nested: Option<Rule<Nested>>,
    #[serde(default)]
    pub hidden: Option<Rule<EnterOrSkip>>,
    #[serde(default)]
    pub node_modules: Option<Rule<EnterOrSkip>>,
    #[serde(default)]
    pub ignore_files: Option<Rule<Vec<String>>>,
    #[serde(default)]
    pub symlinked_dirs: Option<Rule<FollowOrIgnore>>,
    #[serde(default)]
    pub skill_md_in_root: Option<Rule<RootSkillMd>>,
    #[serde(default)]
    pub loose_md: Option<Rule<LooseMd>>,
}

/// What happens to a file or value the agent cannot use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Posture {
    /// The skill is not loaded.
    Reject,
    /// Loaded, with a warning.
    Warn,
    /// Loaded, the value cut to the limit.
    Truncate,
    /// Loaded silently.
    Accept,
    /// Loaded under the folder name instead (a name the agent will not use).
    FolderName,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoFrontmatter {
    /// Skipped.
    Reject,
    /// Loaded: name from the folder, description from the body's first paragraph.
    LoadBody,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bom {
    /// The BOM is skipped and the file read normally.
    Strip,
    /// The BOM hides the opening `---`: the file has no frontmatter, and the agent skips it.
    NoFrontmatter,
    /// The BOM hides the opening `---`, and the file is then what the `no_frontmatter` rule
    /// says of a file without frontmatter (Qoder CLI loads it, named after its folder).
    AsNoFrontmatter,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unclosed {
    /// No closing `---`: treated as no frontmatter.
    NoFrontmatter,
    /// The rest of the file is parsed as YAML and the body is empty (OpenCode).
    RestIsYaml,
}

/// A YAML leniency applied before parsing (or as a retry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum YamlRepair {
    /// Strict YAML: errors stand.
    None,
    /// Codex 0.171.0: a `key: value` line whose value contains `": "` or starts with a character
    /// a YAML scanner cannot start (`@`, backtick, unclosed `[`/`{`) is read literally, unless the
    /// value starts with a quote.
    CodexLiteralValues,
    /// OpenCode: after a parse error, values of simple top-level keys (`[A-Za-z_][A-Za-z0-9_]*`)
    /// that contain `": "` are quoted and the YAML parsed once more.
    OpencodeQuoteColons,
    /// Claude Code: values containing an unquoted `": "` load as plain strings (any key).
    QuoteColonValues,
    /// Factory Droid 0.225.2: after a parse error, every unindented `key: value` line is read as
    /// the text of its value (a later key replaces an earlier one); indented and other lines are
    /// dropped, and a key without a value is null.
    LineValues,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum YamlErrorPosture {
    /// Skipped.
    Reject,
    /// The body loads with empty metadata (name from the folder, description from the body).
    LoadBody,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parse {
    /// The YAML library the agent uses (informational), e.g. "serde_yaml (libyaml)".
    pub yaml_library: Rule<String>,
    pub no_frontmatter: Rule<NoFrontmatter>,
    pub bom: Rule<Bom>,
    /// A blank line before the opening `---`.
    pub blank_first_line: Rule<NoFrontmatter>,
    /// Delimiter lines may carry surrounding blanks (`  ---  `).
    pub padded_delimiters: Rule<bool>,
    pub unclosed: Rule<Unclosed>,
    pub yaml_repair: Rule<YamlRepair>,
    pub yaml_error: Rule<YamlErrorPosture>,
    pub duplicate_keys: Rule<Posture>,
    /// Scalars that are not strings (`123`, `true`, dates) where a string is expected.
    pub non_string_scalars: Rule<CoerceOrReject>,
    /// Whitespace in name and description: collapsed to single spaces or kept.
    pub whitespace: Rule<Whitespace>,
    /// Plain scalars in YAML 1.1 timestamp form (`2024-01-01`, `2001-12-14 21:59:43.10 -5`)
    /// are dates, not strings (js-yaml's default schema); absent: strings, as in YAML 1.2.
    #[serde(default)]
    pub timestamps: Option<Rule<bool>>,
    /// A YAML null (`description: null`, `name: ~`) where a string is expected; absent: read as
    /// an empty value.
    #[serde(default)]
    pub null_scalars: Option<Rule<NullScalars>>,
    /// An empty frontmatter block (`---` then `---`): `true` reads it as a mapping with no fields
    /// (then the rules for a missing name and description decide); absent or `false`: not a
    /// mapping, a YAML error.
    #[serde(default)]
    pub empty_block_is_mapping: Option<Rule<bool>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GitMarker {
    /// The top of a git work tree: `.git` with HEAD, objects and refs, or a `gitdir:` file.
    WorkTree,
    /// Any `.git` file or folder.
    DotGit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NullScalars {
    /// Read as an empty value (then the `empty` rule of the field decides).
    Empty,
    /// Not a string: `non_string_scalars` decides.
    NonString,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CoerceOrReject {
    /// Read as their source text.
    Coerce,
    /// The skill is not loaded.
    Reject,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Whitespace {
    Collapse,
    Verbatim,
}

/// Where a skill's name (the one it is listed and invoked under) comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NameSource {
    /// Frontmatter `name`; the folder name when it is missing (see `missing`).
    Frontmatter,
    /// Always the folder name.
    Folder,
}

/// What the agent does when the name is missing or empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MissingName {
    /// The folder name is used.
    Folder,
    /// The skill is not loaded.
    Reject,
    /// Loaded with an empty name.
    Empty,
}

/// The key collisions are decided on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CollisionKey {
    /// The name the skill is listed under.
    Name,
    /// The folder name (Claude Code shadows by folder).
    Folder,
    /// The listed name, compared without regard to case (lower-cased): `Foo` and `foo` are one
    /// skill (Cline keys its records by the lower-cased name; Kimi Code casefolds).
    NameIgnoreCase,
    /// The frontmatter `name`, whatever the skill is listed under (Auggie lists a skill under
    /// its folder name and drops a later copy of a frontmatter name).
    FrontmatterName,
}

/// Length units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Unit {
    /// Unicode scalar values (Rust `chars()`, Python `len`).
    #[strum(serialize = "code points")]
    CodePoints,
    /// UTF-16 code units (JavaScript `length`).
    #[strum(serialize = "UTF-16 units")]
    Utf16,
    /// UTF-8 bytes.
    Bytes,
}

impl Unit {
    pub fn count(self, s: &str) -> usize {
        match self {
            Unit::CodePoints => s.chars().count(),
            Unit::Utf16 => s.encode_utf16().count(),
            Unit::Bytes => s.len(),
        }
    }
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A length limit: `limit` in `unit`, and what happens beyond it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LengthLimit {
    /// None = no limit.
    #[serde(default)]
    pub limit: Option<u32>,
    #[serde(default = "default_unit")]
    pub unit: Unit,
    pub posture: Posture,
}

fn default_unit() -> Unit {
    Unit::CodePoints
}

/// Character rules for names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Charset {
    /// No rule.
    Any,
    /// `^[a-z0-9]+(-[a-z0-9]+)*$`.
    AsciiKebab,
    /// `^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$`: ASCII kebab-case in either case (Crush).
    AsciiKebabAnyCase,
    /// skills-ref: Unicode letters and digits (L*/N*) unchanged by lowercasing, and single
    /// inner hyphens, after NFKC.
    UnicodeKebab,
    /// Copilot CLI: ASCII letters (either case), digits, `-`, `_`, `.`, `:` and spaces,
    /// starting with a letter or digit.
    CopilotName,
    /// Qwen Code: Unicode letters and digits, `_`, `:`, `.` and `-` (`^[\p{L}\p{N}_:.-]+$`).
    QwenName,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharsetRule {
    pub charset: Charset,
    pub posture: Posture,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameRules {
    /// Where the listed name comes from.
    pub source: Rule<NameSource>,
    /// Missing `name` key.
    pub missing: Rule<MissingName>,
    /// `name: ""` (or only whitespace).
    pub empty: Rule<MissingName>,
    pub length: Rule<LengthLimit>,
    pub charset: Rule<CharsetRule>,
    /// Name differs from the folder name.
    pub folder_mismatch: Rule<Posture>,
    /// What collisions compare.
    pub collision_key: Rule<CollisionKey>,
    /// How a user invokes a skill; `{name}` is replaced, e.g. `/{name}`, `${name}`.
    pub invoke: Rule<String>,
    /// The character spaces in a name are listed as (Copilot CLI lists `with space` as
    /// `with-space`); absent = kept.
    #[serde(default)]
    pub listed_spaces: Option<Rule<String>>,
    /// How the agent normalises the name before using it (e.g. `["trim"]`); absent = as read.
    #[serde(default)]
    pub listed: Option<Rule<Vec<TextStep>>>,
    /// A name with a line break in it; absent = no rule beyond the others.
    #[serde(default)]
    pub multiline: Option<Rule<MissingName>>,
    /// Skills inside a plugin are listed as `<plugin><separator><name>` (Codex); absent = the
    /// agent does not prefix names, or it is not established.
    #[serde(default)]
    pub plugin_namespace: Option<Rule<PluginNamespace>>,
}

/// Where an agent looks for a plugin manifest above a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ManifestSearch {
    /// The skill's own folder, then every folder above it up to the file system root, nearest
    /// first, on the skill's canonical path (inside and outside the skill root alike).
    Ancestors,
}

/// What a plugin name empty or only blanks (or missing) falls back to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PluginNameFallback {
    /// The folder holding the manifest's folder (the plugin folder).
    Folder,
}

/// What a manifest that cannot be used does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InvalidManifest {
    /// The folder is not a plugin: the search goes on with the folder above.
    NextFolder,
}

/// The plugin namespace of a skill's listed name: in each folder the search visits, the first
/// of `manifests` that is a regular file is that folder's manifest; a manifest whose JSON reads
/// (as serde_json reads a struct with one defaulted string field `name_key`: unknown keys
/// ignored, a repeated or non-string `name_key` invalid) makes the folder a plugin; the nearest
/// plugin names the skill `<plugin><separator><name>`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PluginNamespace {
    /// Manifest paths relative to a folder, in the order they are tried.
    pub manifests: Vec<String>,
    /// The JSON key holding the plugin name.
    pub name_key: String,
    /// The plugin name when the key is missing, empty or only blanks.
    pub fallback: PluginNameFallback,
    pub separator: String,
    pub search: ManifestSearch,
    /// A manifest that is not valid JSON, not a file's worth of the expected shape, or that
    /// skilltui cannot read.
    pub invalid: InvalidManifest,
    /// Whether the namespaced name is what collisions compare (`p1:x` and `p2:x` are two names).
    pub collision_key: bool,
}

/// What the agent does when the description is missing or empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MissingDescription {
    /// The skill is not loaded.
    Reject,
    /// Loaded; the description is the body's first paragraph.
    FirstParagraph,
    /// Loaded; the description is the body's first non-blank line, a heading's `#` marks
    /// removed, cut to 97 characters and `...` beyond 100; `Skill` for an empty body (Claude Code).
    FirstLine,
    /// Loaded; the description is the body text without its heading, cut to the limit.
    BodyText,
    /// Loaded with an empty description.
    Empty,
    /// Loaded, but left out of the model's listing (OpenCode).
    Unlisted,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DescriptionRules {
    pub missing: Rule<MissingDescription>,
    pub empty: Rule<MissingDescription>,
    pub length: Rule<LengthLimit>,
    /// How the description is normalised in the listing (`description_as_listed`), e.g.
    /// `["collapse-whitespace"]`; `[]` = the YAML value as is; absent = not established.
    #[serde(default)]
    pub listed: Option<Rule<Vec<TextStep>>>,
}

/// How the agent decides between skills with the same collision key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CollisionMode {
    /// The first copy in precedence order wins; the others are dropped.
    FirstWins,
    /// The last copy in precedence order wins: a later copy replaces an earlier one (Cline,
    /// Kilo, Goose). Among copies of the last rank, `tie_break` decides as for `first-wins`.
    LastWins,
    /// Every copy is listed; the model chooses.
    AllListed,
    /// The winner changes between runs.
    Nondeterministic,
}

/// Order used to rank copies: root order first or folder closeness first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RankOrder {
    /// By root (order in `roots`), then by closeness to the project folder.
    RootThenDistance,
    /// By closeness, then by root order.
    DistanceThenRoot,
    /// By the skill folder's full path in byte order, whatever the root (Crush).
    PathSorted,
}

/// Two copies under the same root at the same distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TieBreak {
    /// The first folder in sorted path order wins.
    Sorted,
    /// The last folder in sorted path order wins: the folders are read in sorted order and a
    /// later copy replaces an earlier one (Cline and Letta Code: Node's `readdir` is sorted).
    SortedLast,
    /// The first folder in sorted path order wins, the paths compared without regard to case
    /// (`alpha` before `Zed`: Factory Droid).
    SortedIgnoreCase,
    /// Directory read order (not predictable).
    ReadOrder,
}

impl TieBreak {
    /// Whether the order is predictable (a sorted order).
    pub fn is_sorted(self) -> bool {
        !matches!(self, TieBreak::ReadOrder)
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Precedence {
    pub mode: Rule<CollisionMode>,
    pub order: Rule<RankOrder>,
    pub tie_break: Rule<TieBreak>,
    /// Whether the agent reports a collision.
    pub warns: Rule<bool>,
}

/// What the agent does with one frontmatter field.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Handling {
    /// Read, with an effect.
    Read,
    /// Accepted and not used.
    Ignored,
    /// The agent documents it as not supported.
    Unsupported,
    /// The research does not establish it.
    Unknown,
}

impl Handling {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// The value kind a field must have for the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expects {
    String,
    Map,
    Bool,
    StringOrList,
}

/// When a field hides a visible skill from the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HidesFromModel {
    /// Only the YAML boolean `true`.
    WhenTrue,
    /// Any truthy value (`true`, `yes`, `on`, `1`, …).
    WhenTruthy,
    /// Only the YAML boolean `false`.
    WhenFalse,
    /// The YAML boolean `true`, or the string `true` or `yes` (any case); not numbers.
    WhenTrueOrYes,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldRule {
    pub handling: Handling,
    /// What reading it does, in one sentence.
    #[serde(default)]
    pub effect: Option<String>,
    /// Value kind required by the agent.
    #[serde(default)]
    pub expects: Option<Expects>,
    /// What happens when the value has the wrong kind.
    #[serde(default)]
    pub on_invalid: Option<Posture>,
    /// The field keeps the skill visible to the user but hides it from the model.
    #[serde(default)]
    pub hides_from_model: Option<HidesFromModel>,
    /// What the agent does with each kind of value (TOML `[[fields.KEY.values]]`): the first
    /// rule listing the value's kind decides, before `expects`/`on_invalid` and the parse rules.
    #[serde(default)]
    pub values: Vec<ValueRule>,
    #[serde(flatten)]
    pub from: Provenance,
}

impl FieldRule {
    /// The value rule for a value of these kinds (most specific first), with the kind it
    /// matched on.
    pub fn value_rule(&self, kinds: &[ValueKind]) -> Option<(ValueKind, &ValueRule)> {
        kinds.iter().find_map(|k| {
            self.values
                .iter()
                .find(|r| r.kinds.contains(k))
                .map(|r| (*k, r))
        })
    }
}

/// The shape of a frontmatter value, as value rules tell them apart.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Deserialize,
    serde::Serialize,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum ValueKind {
    /// A one-line string (plain or quoted) with text other than blanks.
    String,
    /// A string that is empty or only blanks (`""`, `''`).
    EmptyString,
    /// A block scalar (`|`, `>`).
    BlockScalar,
    /// The key with no value (`key:`).
    Bare,
    /// An explicit null (`null`, `~`).
    Null,
    /// A YAML boolean (either value).
    Bool,
    /// The boolean `true` only (a rule for it is tried before one for `bool`).
    True,
    /// The boolean `false` only.
    False,
    Int,
    Float,
    /// A list whose items are all strings.
    StringList,
    /// A list with strings and other items.
    MixedList,
    /// A non-empty list with no string in it.
    List,
    EmptyList,
    Mapping,
}

impl ValueKind {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The kind in words, for a sentence: "a list", "a YAML null".
    pub fn phrase(self) -> &'static str {
        match self {
            ValueKind::String => "a string",
            ValueKind::EmptyString => "an empty string",
            ValueKind::BlockScalar => "a block scalar",
            ValueKind::Bare => "a key without a value",
            ValueKind::Null => "a YAML null",
            ValueKind::Bool => "a YAML boolean",
            ValueKind::True => "the YAML boolean true",
            ValueKind::False => "the YAML boolean false",
            ValueKind::Int => "a YAML integer",
            ValueKind::Float => "a YAML float",
            ValueKind::StringList => "a list",
            ValueKind::MixedList => "a list with non-string items",
            ValueKind::List => "a list of non-strings",
            ValueKind::EmptyList => "an empty list",
            ValueKind::Mapping => "a mapping",
        }
    }
}

/// What an agent does with a value of a given kind.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum ValueOutcome {
    /// Read as written (for `name`/`description`: as text, by the usual rules).
    Read,
    /// Turned into text (see `text`), then read.
    Text,
    /// Ignored: as if the key were absent (for `name`/`description`: the missing rule decides).
    Ignored,
    /// The folder name is used instead (`name`).
    FolderName,
    /// The body's first paragraph is used instead (`description`).
    FirstParagraph,
    /// Loaded with an empty value.
    Empty,
    /// The skill is not loaded (`message` is the agent's own).
    Reject,
    /// The skill is loaded only when files matching the value's strings are touched (it is not
    /// in the listing at session start).
    Conditional,
}

impl ValueOutcome {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// How a value that is not a string becomes text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TextCoercion {
    /// The scalar as written in the file.
    Source,
    /// JavaScript's `String(value)`: list items joined with `,`, a mapping `[object Object]`,
    /// null `null`.
    JsString,
}

/// One value rule: for the listed kinds, the outcome, with the agent's message and evidence.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueRule {
    pub kinds: Vec<ValueKind>,
    /// What happens (`"unknown"` when not established).
    pub outcome: Known<ValueOutcome>,
    /// The agent's own message (for `reject`, or a warning it prints).
    #[serde(default)]
    pub message: Option<String>,
    /// For `outcome = "text"`: how the value becomes text.
    #[serde(default)]
    pub text: Option<TextCoercion>,
    /// A quick fix that makes the value acceptable (`skilltui fix --only CODE`).
    #[serde(default)]
    pub fix: Option<String>,
    #[serde(flatten)]
    pub from: Provenance,
}

impl ValueRule {
    /// The rule's key under its field: `values.<kinds joined with +>` (the loader makes the id).
    pub fn key(&self) -> String {
        let kinds: Vec<&str> = self.kinds.iter().map(|k| k.as_str()).collect();
        format!("values.{}", kinds.join("+"))
    }
}

/// A normalisation step an agent applies to a name or description before listing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TextStep {
    /// Leading and trailing blanks and line breaks removed.
    Trim,
    /// Every run of whitespace becomes one space, and the ends are trimmed.
    CollapseWhitespace,
    /// Each run of line breaks becomes one space, and each tab a space.
    NewlinesToSpaces,
    /// The line break before the closing `---` is not part of the YAML text: a `|` block scalar
    /// that ends the frontmatter has no final newline (one followed by other keys keeps it).
    StripFinalNewline,
}

impl TextStep {
    /// `s` after this step: borrowed when the step leaves it as it is (most descriptions and
    /// names pass every step unchanged).
    pub fn apply(self, s: &str) -> std::borrow::Cow<'_, str> {
        use std::borrow::Cow;
        match self {
            TextStep::Trim => Cow::Borrowed(s.trim()),
            TextStep::CollapseWhitespace => {
                // Unchanged when no whitespace but single spaces between words.
                let mut prev_space = true;
                let same = s.chars().all(|c| {
                    let ok = if c == ' ' {
                        !prev_space
                    } else {
                        !c.is_whitespace()
                    };
                    prev_space = c == ' ';
                    ok
                }) && !s.ends_with(' ');
                if same {
                    return Cow::Borrowed(s);
                }
                let mut out = String::with_capacity(s.len());
                for word in s.split_whitespace() {
                    if !out.is_empty() {
                        out.push(' ');
                    }
                    out.push_str(word);
                }
                Cow::Owned(out)
            }
            TextStep::NewlinesToSpaces => {
                if !s.contains(['\n', '\r', '\t']) {
                    return Cow::Borrowed(s);
                }
                let mut out = String::with_capacity(s.len());
                let mut in_break = false;
                for c in s.chars() {
                    match c {
                        '\n' | '\r' => {
                            if !in_break {
                                out.push(' ');
                            }
                            in_break = true;
                        }
                        '\t' => {
                            out.push(' ');
                            in_break = false;
                        }
                        c => {
                            out.push(c);
                            in_break = false;
                        }
                    }
                }
                Cow::Owned(out)
            }
            TextStep::StripFinalNewline => Cow::Borrowed(
                s.strip_suffix("\r\n")
                    .or_else(|| s.strip_suffix('\n'))
                    .unwrap_or(s),
            ),
        }
    }

    /// Applies the steps in order: `s` itself (or a part of it) when no step changes it, else
    /// one new string.
    pub fn apply_all<'s>(steps: &[TextStep], s: &'s str) -> std::borrow::Cow<'s, str> {
        use std::borrow::Cow;
        let mut out: Cow<'_, str> = Cow::Borrowed(s);
        for st in steps {
            out = match out {
                Cow::Borrowed(b) => st.apply(b),
                Cow::Owned(o) => match st.apply(&o) {
                    Cow::Owned(changed) => Cow::Owned(changed),
                    // A part of `o` (trimmed): kept as a copy of that part.
                    Cow::Borrowed(part) if part.len() < o.len() => Cow::Owned(part.to_string()),
                    Cow::Borrowed(_) => Cow::Owned(o),
                },
            };
        }
        out
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    /// Share of the context window for the whole listing (0.01 = 1 %).
    #[serde(default)]
    pub context_fraction: Option<f64>,
    /// Characters for the whole listing when the context size is unknown.
    #[serde(default)]
    pub fallback_chars: Option<u32>,
    /// Characters per entry (description and similar text) before it is cut.
    #[serde(default)]
    pub entry_max_chars: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BundledFiles {
    /// Not listed.
    None,
    /// Every file in the skill folder is listed on activation.
    All,
    /// A sample of a few files.
    Sample,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Listing {
    /// One entry of the listing as the model sees it: `{name}`, `{description}`, `{path}`,
    /// `{dir}` are replaced. Used for the token estimate.
    pub entry: Rule<String>,
    pub budget: Rule<Budget>,
    pub bundled_files: Rule<BundledFiles>,
    /// Top-level folders of a skill left out of that file list (Copilot CLI: `vendor`).
    #[serde(default)]
    pub bundle_excludes: Option<Rule<Vec<String>>>,
    /// Whether the frontmatter reaches the model on activation.
    pub frontmatter_reaches_model: Rule<bool>,
}

/// One name or several (`command = { value = "claude", … }` or `value = ["agy", "antigravity"]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names(pub Vec<String>);

impl<'de> Deserialize<'de> for Names {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = toml::Value::deserialize(d)?;
        match v {
            toml::Value::String(s) if !s.is_empty() => Ok(Names(vec![s])),
            toml::Value::Array(items) if !items.is_empty() => items
                .into_iter()
                .map(|i| match i {
                    toml::Value::String(s) if !s.is_empty() => Ok(s),
                    other => Err(de::Error::custom(format!(
                        "expected a non-empty string, found {}",
                        other.type_str()
                    ))),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Names),
            other => Err(de::Error::custom(format!(
                "expected a non-empty string or list of strings, found {}",
                other.type_str()
            ))),
        }
    }
}

/// How a trust file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrustFileFormat {
    /// Gemini CLI's `trustedFolders.json`: JSON with comments, `{"<path>": "TRUST_FOLDER" |
    /// "TRUST_PARENT" | "DO_NOT_TRUST"}`. `TRUST_FOLDER` trusts the path and every folder below
    /// it, `TRUST_PARENT` the path's parent and every folder below that; `DO_NOT_TRUST` (or no
    /// entry) leaves the default.
    GeminiTrustedFolders,
}

/// Trusted or not, when nothing says otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrustDefault {
    Trusted,
    Untrusted,
}

/// `[trust]`: roots of `scopes` are read only when the project folder is trusted.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trust {
    /// Root scopes that need a trusted folder (`["project"]`).
    pub scopes: Rule<Vec<Scope>>,
    /// A variable that decides when set: `true` trusts, `false` does not.
    #[serde(default)]
    pub env: Option<Rule<String>>,
    /// The trust file (a path template: `~`, `${VAR:-default}`).
    #[serde(default)]
    pub file: Option<Rule<String>>,
    /// How the trust file is read.
    #[serde(default)]
    pub file_format: Option<Rule<TrustFileFormat>>,
    /// Trusted or not when neither the variable nor the file decides.
    pub default: Rule<TrustDefault>,
}

/// What about a skill triggers a known bug.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum BugCondition {
    /// The frontmatter `name` is present and not a YAML string (`name: 123`).
    NameNotString,
    /// The file starts with a UTF-8 byte order mark.
    Bom,
    /// The frontmatter `description` is present and not a YAML string.
    DescriptionNotString,
}

impl BugCondition {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// `[[bugs]]`: a known bug of a release, as data.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownBug {
    /// Unique among the agent's bugs; the rule id is `bugs.<id>`.
    pub id: String,
    /// The condition on a skill the resolver tests.
    pub when: BugCondition,
    /// What the bug does, one sentence (`amp skill list` crashes).
    pub effect: String,
    #[serde(flatten)]
    pub from: Provenance,
}
