//! Where a rule's claim comes from, as data a user can follow.
//!
//! A rule's `source` is a list of sources, each of one kind (`doc`, `source`, `changelog`,
//! `issue`, `benchmark`, `observed`, `package`, `inferred`). Every kind but `observed` and
//! `inferred` carries a public URL; `observed` names a case of skilltui's oracle
//! (`tests/oracle`) that reproduces the claim on a released program. [`legend`] explains the
//! evidence labels and the source kinds; [`lint`] checks a model's sources.
//!
//! In a model file a source is an inline table keyed by its kind:
//!
//! ```toml
//! source = [{ observed = "depth", version = "0.171.0" }, { source = "https://github.com/openai/codex/blob/4e30281a13f7d1e5b58637ab7028023334617bee/codex-rs/core-skills/src/loader.rs#L291-L298" }]
//! ```
//!
//! A plain string (the format before sources were structured) still loads, as one source of
//! kind `text` with no address; [`lint`] reports it.

use super::model::{AgentModel, Evidence};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// The kind of one source.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum SourceKind {
    /// A vendor documentation page (URL).
    Doc,
    /// A repository file at a commit, with its line range (a permalink URL).
    Source,
    /// A changelog or release entry: the version and a URL.
    Changelog,
    /// An issue or pull request (URL).
    Issue,
    /// The agentskillimplementation.com benchmark: a check id, the platform page, the version.
    Benchmark,
    /// A released program run on a tree of skilltui's oracle: the version and the case name.
    Observed,
    /// Code read inside a published package: the package page at that version.
    Package,
    /// Neither read nor run: says what it is inferred from.
    Inferred,
    /// Free text without an address (model files written before sources were structured).
    Text,
}

impl SourceKind {
    pub const ALL: [SourceKind; 9] = [
        SourceKind::Doc,
        SourceKind::Source,
        SourceKind::Changelog,
        SourceKind::Issue,
        SourceKind::Benchmark,
        SourceKind::Observed,
        SourceKind::Package,
        SourceKind::Inferred,
        SourceKind::Text,
    ];

    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One source of a rule.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Source {
    pub kind: SourceKind,
    /// The address to open: docs page, permalink, changelog, issue, benchmark page, package page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The agent version the source is about (changelog entry, observed release, benchmark run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// `observed`: the oracle case that reproduces the claim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    /// `benchmark`: the check id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    /// `inferred`/`text`: what it says; others: an optional note on what the source shows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// The TOML form: one kind key, plus optional `version`, `url` (benchmark) and `note`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSource {
    doc: Option<String>,
    source: Option<String>,
    changelog: Option<String>,
    issue: Option<String>,
    benchmark: Option<String>,
    observed: Option<String>,
    package: Option<String>,
    inferred: Option<String>,
    url: Option<String>,
    version: Option<String>,
    note: Option<String>,
}

impl TryFrom<RawSource> for Source {
    type Error = String;
    fn try_from(r: RawSource) -> Result<Source, String> {
        let kinds: Vec<(SourceKind, String)> = [
            (SourceKind::Doc, r.doc),
            (SourceKind::Source, r.source),
            (SourceKind::Changelog, r.changelog),
            (SourceKind::Issue, r.issue),
            (SourceKind::Benchmark, r.benchmark),
            (SourceKind::Observed, r.observed),
            (SourceKind::Package, r.package),
            (SourceKind::Inferred, r.inferred),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect();
        let [(kind, main)] = <[(SourceKind, String); 1]>::try_from(kinds).map_err(|_| {
            "a source has exactly one kind key: doc, source, changelog, issue, benchmark, \
             observed, package or inferred"
                .to_string()
        })?;
        if r.url.is_some() && kind != SourceKind::Benchmark {
            return Err(format!(
                "`url` belongs to a benchmark source, not to `{kind}`"
            ));
        }
        let mut s = Source {
            kind,
            url: None,
            version: r.version,
            case: None,
            check: None,
            text: r.note,
        };
        match kind {
            SourceKind::Observed => s.case = Some(main),
            SourceKind::Benchmark => {
                s.check = Some(main);
                s.url = r.url;
            }
            SourceKind::Inferred => {
                if s.text.is_some() {
                    return Err("an inferred source says what it is inferred from in `inferred`, without `note`".into());
                }
                s.text = Some(main)
            }
            _ => s.url = Some(main),
        }
        Ok(s)
    }
}

impl<'de> Deserialize<'de> for Source {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        RawSource::deserialize(d)?
            .try_into()
            .map_err(de::Error::custom)
    }
}

impl Source {
    /// Plain free text (the older format).
    pub fn text(t: &str) -> Source {
        Source {
            kind: SourceKind::Text,
            url: None,
            version: None,
            case: None,
            check: None,
            text: Some(t.to_string()),
        }
    }

    /// One line for a terminal (untrusted parts are not sanitized here).
    pub fn render(&self) -> String {
        let v = |s: &str| match &self.version {
            Some(v) => format!("{s} {v}"),
            None => s.to_string(),
        };
        let mut out = match self.kind {
            SourceKind::Observed => format!(
                "observed: {}, tests/oracle case {}",
                v("release")
                    .trim_start_matches("release ")
                    .to_string()
                    .as_str(),
                self.case.as_deref().unwrap_or("?")
            ),
            SourceKind::Benchmark => format!(
                "benchmark: ASI check {}{} {}",
                self.check.as_deref().unwrap_or("?"),
                self.version
                    .as_deref()
                    .map(|v| format!(" ({v})"))
                    .unwrap_or_default(),
                self.url.as_deref().unwrap_or("")
            ),
            SourceKind::Inferred => {
                format!("inferred from {}", self.text.as_deref().unwrap_or("?"))
            }
            SourceKind::Text => self.text.clone().unwrap_or_default(),
            SourceKind::Changelog | SourceKind::Package => format!(
                "{}: {}{}",
                self.kind,
                self.version
                    .as_deref()
                    .map(|v| format!("{v} "))
                    .unwrap_or_default(),
                self.url.as_deref().unwrap_or("")
            ),
            _ => format!("{}: {}", self.kind, self.url.as_deref().unwrap_or("")),
        };
        if !matches!(self.kind, SourceKind::Inferred | SourceKind::Text)
            && let Some(t) = &self.text
        {
            out.push_str(&format!(" ({t})"));
        }
        out
    }

    /// For `source` permalinks: the commit in `https://github.com/OWNER/REPO/blob/COMMIT/PATH`
    /// (7 to 40 hex digits), when there is one.
    pub fn commit(&self) -> Option<&str> {
        let url = self.url.as_deref()?;
        let rest = url.strip_prefix("https://github.com/")?;
        let mut parts = rest.splitn(5, '/');
        let (_owner, _repo, blob, commit) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        parts.next()?;
        (blob == "blob"
            && (7..=40).contains(&commit.len())
            && commit.bytes().all(|b| b.is_ascii_hexdigit()))
        .then_some(commit)
    }
}

/// A rule's sources, shared by every reason that cites it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sources(pub Arc<[Source]>);

impl Default for Sources {
    fn default() -> Self {
        Sources(Arc::from(Vec::new()))
    }
}

impl Sources {
    pub fn iter(&self) -> std::slice::Iter<'_, Source> {
        self.0.iter()
    }
    /// Every URL, in order.
    pub fn urls(&self) -> impl Iterator<Item = &str> {
        self.0.iter().filter_map(|s| s.url.as_deref())
    }
    /// One line: each source rendered, `; ` between.
    pub fn render(&self) -> String {
        self.0
            .iter()
            .map(Source::render)
            .collect::<Vec<_>>()
            .join("; ")
    }
}

impl Serialize for Sources {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Sources {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = toml::Value::deserialize(d)?;
        match v {
            toml::Value::String(s) => Ok(Sources(Arc::from(vec![Source::text(&s)]))),
            toml::Value::Array(_) => {
                let list = Vec::<Source>::deserialize(v).map_err(de::Error::custom)?;
                if list.is_empty() {
                    return Err(de::Error::custom("`source` lists no source"));
                }
                Ok(Sources(Arc::from(list)))
            }
            _ => Err(de::Error::custom(
                "`source` is a list of sources ([{ doc = \"https://…\" }, …])",
            )),
        }
    }
}

/// How strong the evidence behind a rule (or a verdict) is; ordered weakest first.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Strength {
    /// Nothing establishes it (the value is unknown).
    None,
    /// Inferred, or a third party's word.
    Weak,
    /// The vendor or the specification says so (docs, changelog, issue thread).
    Stated,
    /// An automated benchmark run on a release (agentskillimplementation.com).
    Benchmarked,
    /// The code was read (source at a commit, or the published package).
    Read,
    /// A release was run on a tree that reproduces it (tests/oracle).
    Observed,
}

impl Strength {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Evidence {
    /// How strong a claim with this label is.
    pub fn strength(self) -> Strength {
        match self {
            Evidence::Obs => Strength::Observed,
            Evidence::Src | Evidence::Bundle => Strength::Read,
            Evidence::Asi => Strength::Benchmarked,
            Evidence::Doc | Evidence::Changelog | Evidence::Issue | Evidence::Spec => {
                Strength::Stated
            }
            Evidence::ThirdParty | Evidence::FieldTable | Evidence::Inference => Strength::Weak,
            Evidence::None => Strength::None,
        }
    }

    /// The source kinds that can back this label (one of them must be among the rule's sources).
    pub fn backed_by(self) -> &'static [SourceKind] {
        match self {
            Evidence::Doc | Evidence::Spec => &[SourceKind::Doc],
            Evidence::Changelog => &[SourceKind::Changelog],
            Evidence::Asi => &[SourceKind::Benchmark],
            Evidence::Src => &[SourceKind::Source],
            Evidence::Bundle => &[SourceKind::Package],
            Evidence::Obs => &[SourceKind::Observed],
            Evidence::Issue => &[SourceKind::Issue],
            Evidence::ThirdParty | Evidence::FieldTable | Evidence::Inference | Evidence::None => {
                &[SourceKind::Inferred]
            }
        }
    }

    /// Every label.
    pub const ALL: [Evidence; 12] = [
        Evidence::Obs,
        Evidence::Src,
        Evidence::Bundle,
        Evidence::Asi,
        Evidence::Doc,
        Evidence::Changelog,
        Evidence::Issue,
        Evidence::Spec,
        Evidence::ThirdParty,
        Evidence::FieldTable,
        Evidence::Inference,
        Evidence::None,
    ];

    /// What the label means, in a few words (the explorer's help).
    pub fn gloss(self) -> &'static str {
        match self {
            Evidence::Obs => "a release run on a tests/oracle tree",
            Evidence::Src => "source code read at a commit",
            Evidence::Bundle => "code read in the published package",
            Evidence::Asi => "agentskillimplementation.com benchmark",
            Evidence::Doc => "vendor documentation",
            Evidence::Changelog => "vendor changelog",
            Evidence::Issue => "issue or pull request",
            Evidence::Spec => "the Agent Skills specification",
            Evidence::ThirdParty => "a third party's word",
            Evidence::FieldTable => "a third-party field table",
            Evidence::Inference => "inferred, neither read nor run",
            Evidence::None => "nothing: the value is unknown",
        }
    }

    /// What the label means, in one sentence.
    pub fn meaning(self) -> &'static str {
        match self {
            Evidence::Obs => {
                "a released program was run on a skill tree that reproduces the claim (a case of tests/oracle; `skilltui agents --verify` reruns it)"
            }
            Evidence::Src => "the agent's source code was read at a commit (a permalink)",
            Evidence::Bundle => {
                "the JavaScript inside the published package was read (the package page at that version)"
            }
            Evidence::Asi => {
                "the agentskillimplementation.com benchmark ran the release headless (a check id)"
            }
            Evidence::Doc => "the vendor's documentation says so",
            Evidence::Changelog => "a vendor changelog or release entry says so",
            Evidence::Issue => "an issue or pull request in the agent's tracker says so",
            Evidence::Spec => "the Agent Skills specification or client guide (agentskills.io)",
            Evidence::ThirdParty => {
                "a third-party article, repository or tool profile (not citable here)"
            }
            Evidence::FieldTable => "a third-party cross-agent frontmatter-field table",
            Evidence::Inference => "inferred: neither read nor run; the source says from what",
            Evidence::None => "nothing establishes it: the value is unknown",
        }
    }
}

/// One row of the evidence legend.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegendRow {
    pub label: &'static str,
    pub strength: Strength,
    pub meaning: &'static str,
    /// The source kinds that back it.
    pub sources: Vec<&'static str>,
}

/// The evidence legend: every label, strongest first.
pub fn legend() -> Vec<LegendRow> {
    Evidence::ALL
        .iter()
        .map(|e| LegendRow {
            label: e.label(),
            strength: e.strength(),
            meaning: e.meaning(),
            sources: e.backed_by().iter().map(|k| k.as_str()).collect(),
        })
        .collect()
}

/// The legend as text lines (shared by `skilltui agents --legend` and the explorer's help).
pub fn legend_lines() -> Vec<String> {
    let mut out = vec![
        "Evidence: a rule's label says how its claim was established; a verdict is as strong as \
         the weakest rule that decided it."
            .to_string(),
    ];
    for r in legend() {
        out.push(format!(
            "  {:<7} {:<12} {} [sources: {}]",
            r.label,
            r.strength.as_str(),
            r.meaning,
            r.sources.join(", ")
        ));
    }
    out.push(
        "Strength, strongest first: observed > read > benchmarked > stated > weak > none."
            .to_string(),
    );
    out
}

/// The legend in short lines (the explorer's help): label, strength, a few words.
pub fn legend_short() -> Vec<String> {
    let mut out =
        vec!["evidence, strongest first; a verdict is as strong as its weakest rule".to_string()];
    for e in Evidence::ALL {
        out.push(format!(
            "{:>6} {:<11} {}",
            e.label(),
            e.strength().as_str(),
            e.gloss()
        ));
    }
    out
}

/// URL prefixes a built-in model may cite: the agents' docs, repositories and trackers, their
/// package pages, the specification and the benchmark.
pub const CITABLE: &[&str] = &[
    // Claude Code
    "https://code.claude.com/docs/",
    "https://docs.anthropic.com/",
    "https://github.com/anthropics/claude-code/",
    "https://www.npmjs.com/package/@anthropic-ai/claude-code",
    // Codex CLI
    "https://developers.openai.com/codex/",
    "https://github.com/openai/codex/",
    "https://www.npmjs.com/package/@openai/codex",
    // GitHub Copilot CLI
    "https://docs.github.com/en/copilot/",
    "https://github.com/github/copilot-cli/",
    "https://www.npmjs.com/package/@github/copilot",
    // Antigravity
    "https://antigravity.google/docs/",
    // Cursor
    "https://cursor.com/docs/",
    "https://cursor.com/changelog",
    "https://forum.cursor.com/t/",
    // OpenCode
    "https://opencode.ai/docs/",
    "https://github.com/sst/opencode/",
    "https://github.com/anomalyco/opencode/",
    "https://www.npmjs.com/package/opencode-ai",
    "https://www.npmjs.com/package/opencode-linux-x64",
    // pi
    "https://github.com/badlogic/pi-mono/",
    "https://www.npmjs.com/package/@mariozechner/pi-coding-agent",
    // Gemini CLI, Qwen Code, Qoder CLI
    "https://geminicli.com/docs/",
    "https://github.com/google-gemini/gemini-cli/",
    "https://www.npmjs.com/package/@google/gemini-cli",
    "https://qwenlm.github.io/qwen-code-docs/",
    "https://github.com/QwenLM/qwen-code/",
    "https://www.npmjs.com/package/@qwen-code/qwen-code",
    "https://www.npmjs.com/package/@qoder-ai/qodercli",
    "https://docs.qoder.com/",
    // Cline
    "https://docs.cline.bot/",
    "https://github.com/cline/cline/",
    "https://www.npmjs.com/package/cline/",
    "https://www.npmjs.com/package/@cline/",
    // Auggie
    "https://docs.augmentcode.com/",
    "https://www.npmjs.com/package/@augmentcode/auggie/",
    // Crush
    "https://github.com/charmbracelet/crush/",
    // Goose
    "https://block.github.io/goose/",
    "https://github.com/block/goose/",
    // Continue CLI
    "https://docs.continue.dev/",
    "https://github.com/continuedev/continue/",
    "https://www.npmjs.com/package/@continuedev/cli/",
    // Letta Code
    "https://docs.letta.com/",
    "https://github.com/letta-ai/letta-code/",
    "https://www.npmjs.com/package/@letta-ai/letta-code/",
    // Mistral Vibe
    "https://github.com/mistralai/mistral-vibe/",
    // Kimi Code CLI
    "https://github.com/MoonshotAI/kimi-cli/",
    // Kilo Code CLI
    "https://kilo.ai/docs/",
    "https://github.com/Kilo-Org/kilocode/",
    "https://www.npmjs.com/package/@kilocode/cli",
    // Factory Droid
    "https://docs.factory.ai/",
    "https://www.npmjs.com/package/@factory/cli",
    // Amp
    "https://ampcode.com/manual",
    "https://www.npmjs.com/package/@ampcode/cli",
    // The specification and the benchmark
    "https://agentskills.io/",
    "https://github.com/agentskills/agentskills/",
    "https://agentskillimplementation.com/",
];

/// Problems with a model's sources, one sentence each naming the rule. `cases` are the names of
/// the oracle cases that exist with the agents each applies to (`None` = every agent);
/// `random` says whether a `random-N` case name is acceptable (the oracle makes one per seed).
pub fn lint(
    m: &AgentModel,
    cases: &[(String, Option<Vec<String>>)],
    citable: &[&str],
) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(d) = &m.docs
        && !citable.iter().any(|p| d.starts_with(p))
    {
        out.push(format!("{}: docs {d} is not a citable address", m.id));
    }
    for r in m.rules() {
        let id = format!("{}/{}", m.id, r.id);
        if r.sources.is_empty() {
            out.push(format!("{id}: no source"));
            continue;
        }
        for s in &r.sources {
            match s.kind {
                SourceKind::Text => out.push(format!(
                    "{id}: unstructured source {:?} (convert it: assets/agents/tools/convert_sources.py)",
                    s.text.as_deref().unwrap_or("")
                )),
                SourceKind::Observed => {
                    let case = s.case.as_deref().unwrap_or("");
                    let known = cases.iter().find(|(n, _)| n == case);
                    let random = case
                        .strip_prefix("random-")
                        .is_some_and(|n| n.parse::<u64>().is_ok());
                    match known {
                        Some((_, Some(agents))) if !agents.contains(&m.id) => out.push(
                            format!("{id}: oracle case {case} does not run for {}", m.id),
                        ),
                        None if !random => {
                            out.push(format!("{id}: oracle case {case:?} does not exist"))
                        }
                        _ => {}
                    }
                    if s.version.is_none() {
                        out.push(format!("{id}: observed source without the release version"));
                    }
                }
                SourceKind::Inferred => {
                    if s.text.as_deref().is_none_or(|t| t.trim().is_empty()) {
                        out.push(format!("{id}: inferred source that says nothing"));
                    }
                }
                _ => {
                    let Some(url) = s.url.as_deref() else {
                        out.push(format!("{id}: {} source without a URL", s.kind));
                        continue;
                    };
                    if !citable.iter().any(|p| url.starts_with(p)) {
                        out.push(format!("{id}: {url} is outside the citable addresses"));
                    }
                    if s.kind == SourceKind::Source && s.commit().is_none() {
                        out.push(format!("{id}: source permalink without a commit: {url}"));
                    }
                    if matches!(s.kind, SourceKind::Changelog | SourceKind::Package)
                        && s.version.is_none()
                    {
                        out.push(format!("{id}: {} source without a version", s.kind));
                    }
                    if s.kind == SourceKind::Benchmark
                        && (s.version.is_none() || s.check.as_deref().is_none_or(str::is_empty))
                    {
                        out.push(format!("{id}: benchmark source without check id or version"));
                    }
                }
            }
        }
        match r.evidence_label() {
            Some(e) => {
                let backed = e.backed_by();
                if !r.sources.iter().any(|s| backed.contains(&s.kind)) {
                    out.push(format!(
                        "{id}: evidence {} but no {} source",
                        e.label(),
                        backed
                            .iter()
                            .map(|k| k.as_str())
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ));
                }
                if e == Evidence::Spec
                    && !r.sources.iter().any(|s| {
                        s.url.as_deref().is_some_and(|u| {
                            u.starts_with("https://agentskills.io/")
                                || u.starts_with("https://github.com/agentskills/")
                        })
                    })
                {
                    out.push(format!(
                        "{id}: evidence SPEC without an agentskills.io source"
                    ));
                }
            }
            None => out.push(format!("{id}: unknown evidence label {}", r.evidence)),
        }
    }
    out
}

impl fmt::Display for Sources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}
