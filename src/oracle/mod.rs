//! Differential checks against the real agents: generate skill trees, run a real agent
//! release's own listing on each (through `tests/oracle/driver.mjs`, without network, in a
//! sandboxed home) and compare what it lists with skilltui's verdicts for that agent.
//!
//! - [`Case`]: one tree to write and run.
//! - `cases` (feature `testkit`, test tooling that installs leave out): the trees, targeted
//!   cases for the model's rules and seeded random trees.
//! - [`trees`]: how many random trees each agent runs.
//! - [`run_agent`]: one agent's listing on a written tree, as a [`Listing`].
//! - [`predict`] / [`compare`]: skilltui's Visible verdicts against the listing.
//! - [`Report`]: agreement per agent.
//!
//! The entry point is `tests/oracle.rs` (`SKILLTUI_ORACLE=1`); the releases are pinned in
//! `tests/oracle/versions.json`. See `tests/oracle/README.md`.

mod case;
#[cfg(feature = "testkit")]
pub mod cases;
pub mod trees;
pub mod verify;

use crate::agents::AgentModel;
use crate::catalog::Catalog;
use crate::env::Env;
use crate::resolve::Status;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub use case::Case;
#[cfg(feature = "testkit")]
pub use cases::XorShift;

/// The agents the oracle can run (skilltui agent ids).
pub const AGENTS: [&str; 13] = [
    "codex",
    "opencode",
    "pi",
    "copilot-cli",
    "claude-code",
    "gemini-cli",
    "qwen-code",
    "qoder-cli",
    "kilo",
    "factory-droid",
    "amp",
    "cline",
    "auggie",
];

/// One skill as the agent lists it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Listed {
    pub name: String,
    /// Absolute SKILL.md path; empty when the agent does not say (Claude Code rows only in the
    /// `/skills` dialog): compared by name only.
    pub path: String,
    /// The description the agent lists, exactly (None when it reports none).
    pub description: Option<String>,
    /// The listing has a `description` key for this skill (null included). A driver that reports
    /// no descriptions (an older driver, a stand-in) is not compared on them.
    pub described: bool,
}

/// What the driver printed for one run.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    pub agent: String,
    pub version: String,
    pub skills: Vec<Listed>,
    pub errors: Vec<String>,
    pub builtin: Vec<String>,
    /// The agent's listing crashed (no listing): its error, as the driver recognised it.
    pub crashed: Option<String>,
    /// The agent lists names only, no paths (Auggie's ACP command list): the comparison is on
    /// the set of visible names ("partly checked").
    pub names_only: bool,
}

impl Listing {
    /// Parses the driver's JSON line.
    pub fn parse(text: &str) -> Result<Listing, String> {
        let v: serde_json::Value =
            serde_json::from_str(text.trim()).map_err(|e| format!("driver output: {e}"))?;
        if let Some(e) = v.get("raw_error").and_then(|e| e.as_str()) {
            return Err(format!("agent run failed: {e}"));
        }
        let s = |v: &serde_json::Value, k: &str| {
            v.get(k)
                .and_then(|x| x.as_str())
                .unwrap_or_default()
                .to_string()
        };
        let strings = |k: &str| -> Vec<String> {
            v.get(k)
                .and_then(|x| x.as_array())
                .map(|a| {
                    a.iter()
                        .map(|x| {
                            x.as_str()
                                .map(String::from)
                                .unwrap_or_else(|| x.to_string())
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let skills = v
            .get("skills")
            .and_then(|x| x.as_array())
            .map(|a| {
                a.iter()
                    .map(|x| Listed {
                        name: s(x, "name"),
                        path: s(x, "path"),
                        description: x
                            .get("description")
                            .and_then(|d| d.as_str())
                            .map(String::from),
                        described: x.get("description").is_some(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(Listing {
            agent: s(&v, "agent"),
            version: s(&v, "version"),
            skills,
            errors: strings("errors"),
            builtin: strings("builtin"),
            crashed: v.get("crashed").and_then(|c| c.as_str()).map(String::from),
            names_only: v.get("names_only").and_then(|x| x.as_bool()) == Some(true),
        })
    }
}

/// Where the driver scripts are and how to run them.
#[derive(Debug, Clone)]
pub struct Driver {
    /// `tests/oracle` (holds driver.mjs and versions.json).
    pub dir: PathBuf,
    /// Run the agent in an empty network namespace (`unshare --net`).
    pub no_network: bool,
    /// Variables for the driver itself (not passed on to the agent), e.g.
    /// `SKILLTUI_AGENTS_PREFIX`.
    pub driver_env: Vec<(String, String)>,
}

impl Driver {
    pub fn new(dir: impl Into<PathBuf>) -> Driver {
        Driver {
            dir: dir.into(),
            no_network: true,
            driver_env: Vec::new(),
        }
    }

    /// Whether `unshare --net` works here (root, or user namespaces allowed).
    pub fn can_unshare() -> bool {
        Command::new("unshare")
            .args(["--net", "true"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// The version pinned for `agent` in versions.json.
    pub fn pinned_version(&self, agent: &str) -> Option<String> {
        let text = std::fs::read_to_string(self.dir.join("versions.json")).ok()?;
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        v.get(agent)?.get("version")?.as_str().map(String::from)
    }

    /// Runs `agent`'s own listing with cwd `project`, HOME `home` and `vars`.
    pub fn run(
        &self,
        agent: &str,
        project: &Path,
        home: &Path,
        vars: &[(String, String)],
    ) -> Result<Listing, String> {
        self.run_saved(agent, project, home, vars)
            .map_err(|f| f.to_string())
    }

    /// [`Driver::run`], failing with a short message and the files that keep the driver's
    /// whole output. The driver writes into files, not pipes: any size, no deadlock on a full
    /// stderr, nothing cut at a pipe's buffer; they are removed when the run succeeds.
    pub fn run_saved(
        &self,
        agent: &str,
        project: &Path,
        home: &Path,
        vars: &[(String, String)],
    ) -> Result<Listing, DriverFailure> {
        static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let stem = std::env::temp_dir().join(format!(
            "skilltui-driver-{}-{n}-{agent}",
            std::process::id()
        ));
        let (out_path, err_path) = (stem.with_extension("json"), stem.with_extension("log"));
        let fail = |message: String, saved: Vec<PathBuf>| DriverFailure { message, saved };
        let create = |p: &Path| {
            std::fs::File::create(p)
                .map_err(|e| fail(format!("cannot create {}: {e}", p.display()), vec![]))
        };
        let (out_file, err_file) = (create(&out_path)?, create(&err_path)?);
        let mut cmd = if self.no_network {
            let mut c = Command::new("unshare");
            c.args(["--net", "node"]);
            c
        } else {
            Command::new("node")
        };
        cmd.arg(self.dir.join("driver.mjs"))
            .arg(agent)
            .arg(project)
            .arg(home);
        for (k, v) in vars {
            cmd.arg(format!("{k}={v}"));
        }
        let status = cmd
            .envs(self.driver_env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(out_file)
            .stderr(err_file)
            .status();
        let status = match status {
            Ok(s) => s,
            Err(e) => {
                let _ = std::fs::remove_file(&out_path);
                let _ = std::fs::remove_file(&err_path);
                return Err(fail(format!("cannot run the driver: {e}"), vec![]));
            }
        };
        let stdout = std::fs::read(&out_path).unwrap_or_default();
        let stdout = String::from_utf8_lossy(&stdout);
        let result = if status.success() {
            Listing::parse(&stdout)
        } else {
            let stderr = std::fs::read(&err_path).unwrap_or_default();
            let stderr = String::from_utf8_lossy(&stderr);
            let first = stderr
                .lines()
                .chain(stdout.lines())
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no output");
            Err(format!("driver exited with {status}: {}", first.trim()))
        };
        match result {
            Ok(listing) => {
                let _ = std::fs::remove_file(&out_path);
                let _ = std::fs::remove_file(&err_path);
                Ok(listing)
            }
            Err(e) => Err(fail(first_line(&e), vec![out_path, err_path])),
        }
    }
}

/// A driver run that failed: one line, and the files that keep its whole output.
#[derive(Debug, Clone, PartialEq)]
pub struct DriverFailure {
    pub message: String,
    pub saved: Vec<PathBuf>,
}

impl std::fmt::Display for DriverFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        if !self.saved.is_empty() {
            let files: Vec<String> = self.saved.iter().map(|p| p.display().to_string()).collect();
            write!(f, " (full output in {})", files.join(" and "))?;
        }
        Ok(())
    }
}

/// The first line of a message, at most 300 characters.
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default().trim_end();
    if line.chars().count() > 300 {
        let head: String = line.chars().take(300).collect();
        format!("{head}…")
    } else {
        line.to_string()
    }
}

/// skilltui's prediction for one agent on one tree.
#[derive(Debug, Clone, Default)]
pub struct Prediction {
    /// (listed name, SKILL.md path) of every Visible verdict.
    pub visible: BTreeSet<(String, String)>,
    /// SKILL.md paths with an Unknown verdict (no prediction).
    pub unknown: BTreeSet<String>,
    /// SKILL.md paths predicted Rejected.
    pub rejected: BTreeSet<String>,
    /// Every SKILL.md path the catalog holds, with its status.
    pub status: BTreeMap<String, Status>,
    /// The decisive reason of each verdict (`rule: message`).
    pub reason: BTreeMap<String, String>,
    /// SKILL.md path → the description skilltui predicts the agent lists (the verdict's
    /// `description_as_listed`; JSON null = none), for Visible verdicts whose JSON carries the
    /// key. Verdicts without the key are not compared on their description.
    pub description: BTreeMap<String, Option<String>>,
    /// SKILL.md paths of Visible verdicts marked `conditional`: not expected in the listing.
    pub conditional: BTreeSet<String>,
    /// The known bugs of the release (`<agent>/bugs.<id>`) some verdict says the tree triggers.
    pub bugs: BTreeSet<String>,
}

fn canonical(p: &Path, canon: bool) -> String {
    if canon && let Ok(c) = std::fs::canonicalize(p) {
        return c.to_string_lossy().into_owned();
    }
    p.to_string_lossy().into_owned()
}

/// Builds the catalog for `env` and reads `agent`'s verdicts. `canon` compares canonical paths
/// (Codex reports a symlinked skill at its target).
pub fn predict(models: &[AgentModel], agent: &str, env: &Env, canon: bool) -> Prediction {
    let cat = Catalog::build(models, env);
    let mut p = Prediction::default();
    for s in &cat.skills {
        let Some(v) = s.verdict(agent) else { continue };
        for r in &v.reasons {
            if r.topic == crate::agents::Topic::KnownBug {
                p.bugs.insert(r.rule.to_string());
            }
        }
        let path = canonical(&s.path, canon);
        p.status.insert(path.clone(), v.status);
        if let Some(r) = v.decisive() {
            p.reason
                .insert(path.clone(), format!("{} ({})", r.rule, r.message));
        }
        match v.status {
            Status::Visible => {
                let json = serde_json::to_value(v).unwrap_or_default();
                if is_conditional(&json) {
                    // Listed only once matching files are touched: not at session start.
                    p.conditional.insert(path);
                    continue;
                }
                let name = v.as_name.clone().unwrap_or_else(|| s.label().to_string());
                if let Some(d) = described(&json) {
                    p.description.insert(path.clone(), d);
                }
                p.visible.insert((name, path));
            }
            Status::Unknown => {
                p.unknown.insert(path);
            }
            Status::Rejected => {
                p.rejected.insert(path);
            }
            _ => {}
        }
    }
    p
}

/// The verdict's `description_as_listed` (from its JSON, as `list --json` writes it): None when
/// the verdict has no such key, Some(None) for JSON null.
pub fn described(verdict: &serde_json::Value) -> Option<Option<String>> {
    let d = verdict.get("description_as_listed")?;
    Some(d.as_str().map(String::from))
}

/// Whether a verdict's JSON marks the skill conditional (`"conditional": [patterns]`): visible,
/// but listed only once matching files are touched, so not in a session-start listing.
pub fn is_conditional(verdict: &serde_json::Value) -> bool {
    verdict
        .get("conditional")
        .is_some_and(|c| c.as_array().is_some_and(|a| !a.is_empty()))
}

/// One disagreement.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Diff {
    /// skilltui says Visible; the agent does not list it (`agent_error`: the agent's error
    /// naming the file, if any).
    Missing {
        name: String,
        path: String,
        agent_error: Option<String>,
    },
    /// The agent lists it; skilltui does not predict it (status = skilltui's verdict).
    Extra {
        name: String,
        path: String,
        skilltui: String,
    },
    /// Both have the path, under different names.
    Renamed {
        path: String,
        skilltui: String,
        agent: String,
    },
    /// Both list it under the same name, with different descriptions (compared only when the
    /// verdict carries `description_as_listed`).
    Described {
        path: String,
        skilltui: Option<String>,
        agent: Option<String>,
    },
    /// The agent's listing crashed; `bugs`: the known bugs skilltui says the tree triggers.
    Crashed { error: String, bugs: Vec<String> },
}

impl std::fmt::Display for Diff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Diff::Crashed { error, bugs } => write!(
                f,
                "agent: the listing crashed ({}); skilltui: {}",
                error.chars().take(200).collect::<String>(),
                if bugs.is_empty() {
                    "no known bug predicts it".to_string()
                } else {
                    format!("known bug {}", bugs.join(", "))
                }
            ),
            Diff::Missing {
                name,
                path,
                agent_error,
            } => write!(
                f,
                "skilltui: visible as `{name}`; agent: not listed{} — {path}",
                match agent_error {
                    Some(e) => format!(" (error: {})", e.chars().take(200).collect::<String>()),
                    None => String::new(),
                }
            ),
            Diff::Extra {
                name,
                path,
                skilltui,
            } => {
                write!(f, "agent lists `{name}`; skilltui: {skilltui} — {path}")
            }
            Diff::Renamed {
                path,
                skilltui,
                agent,
            } => {
                write!(f, "name: skilltui `{skilltui}`, agent `{agent}` — {path}")
            }
            Diff::Described {
                path,
                skilltui,
                agent,
            } => {
                let show = |d: &Option<String>| match d {
                    None => "none".to_string(),
                    Some(d) => {
                        let j = serde_json::to_string(d).unwrap_or_default();
                        if j.chars().count() > 120 {
                            let head: String = j.chars().take(100).collect();
                            format!("{head}…\" ({} chars)", d.chars().count())
                        } else {
                            j
                        }
                    }
                };
                write!(
                    f,
                    "description: skilltui {}, agent {} — {path}",
                    show(skilltui),
                    show(agent)
                )
            }
        }
    }
}

/// The comparison of one run.
#[derive(Debug, Clone, Default)]
pub struct Comparison {
    pub diffs: Vec<Diff>,
    /// Skills left out because skilltui has no prediction (Unknown).
    pub unknown: usize,
    /// Predicted Rejected, and the agent reports an error naming the file.
    pub rejected_with_error: usize,
    /// Predicted Rejected, and the agent says nothing about the file.
    pub rejected_silent: usize,
    /// Errors naming a file skilltui predicts Visible (or has no verdict for).
    pub unexpected_errors: Vec<String>,
}

impl Comparison {
    pub fn agrees(&self) -> bool {
        self.diffs.is_empty()
    }
}

/// Whether an error text names `path` (absolute, relative to `project`, or its skill folder
/// relative to the root).
fn error_names(err: &str, path: &str, project: &Path) -> bool {
    if err.contains(path) {
        return true;
    }
    let p = Path::new(path);
    if let Ok(rel) = p.strip_prefix(project)
        && err.contains(&*rel.to_string_lossy())
    {
        return true;
    }
    // A relative path under the project's parents (copilot prints `.github/skills/x/SKILL.md`).
    if let Some(dir) = p.parent() {
        let tail: Vec<_> = dir.components().rev().take(3).collect();
        let tail: PathBuf = tail.into_iter().rev().collect();
        let t = tail.join("SKILL.md");
        if err.contains(&*t.to_string_lossy()) {
            return true;
        }
    }
    false
}

/// Compares the listing with the prediction.
pub fn compare(pred: &Prediction, listing: &Listing, project: &Path, canon: bool) -> Comparison {
    let mut c = Comparison {
        unknown: pred.unknown.len(),
        ..Comparison::default()
    };
    // No listing to compare: the crash itself is the one difference (a recorded divergence when
    // a known bug of the release predicts it).
    if let Some(error) = &listing.crashed {
        c.diffs.push(Diff::Crashed {
            error: error.clone(),
            bugs: pred.bugs.iter().cloned().collect(),
        });
        return c;
    }
    if listing.names_only {
        return compare_names(pred, listing, project, c);
    }
    let listed: BTreeSet<(String, String)> = listing
        .skills
        .iter()
        .map(|l| (l.name.clone(), listed_path(&l.path, canon)))
        .collect();
    let used_name_only = predicted_visible(pred, listing, &listed, project, canon, &mut c);
    listed_not_predicted(pred, &listed, &used_name_only, &mut c);
    for path in &pred.rejected {
        if listing.errors.iter().any(|e| error_names(e, path, project)) {
            c.rejected_with_error += 1;
        } else {
            c.rejected_silent += 1;
        }
    }
    for e in &listing.errors {
        let named_visible = pred.visible.iter().any(|(_, p)| error_names(e, p, project));
        if named_visible {
            c.unexpected_errors.push(e.clone());
        }
    }
    c.diffs.sort();
    c
}

/// A listed skill's path as compared (empty: the agent gave none).
fn listed_path(path: &str, canon: bool) -> String {
    if path.is_empty() {
        String::new()
    } else {
        canonical(Path::new(path), canon)
    }
}

/// Each skill skilltui predicts visible: listed as predicted (its description compared),
/// listed under another name, listed by name only, or missing. Returns the names listed without
/// a path that a prediction used.
fn predicted_visible(
    pred: &Prediction,
    listing: &Listing,
    listed: &BTreeSet<(String, String)>,
    project: &Path,
    canon: bool,
    c: &mut Comparison,
) -> BTreeSet<String> {
    // The listed description of each (name, path) pair.
    let listed_description: BTreeMap<(String, String), Option<String>> = listing
        .skills
        .iter()
        .filter(|l| l.described)
        .map(|l| {
            (
                (l.name.clone(), listed_path(&l.path, canon)),
                l.description.clone(),
            )
        })
        .collect();
    let check_description = |path: &str, key: (String, String), c: &mut Comparison| {
        if let (Some(predicted), Some(agent)) =
            (pred.description.get(path), listed_description.get(&key))
            && predicted != agent
        {
            c.diffs.push(Diff::Described {
                path: path.to_string(),
                skilltui: predicted.clone(),
                agent: agent.clone(),
            });
        }
    };
    let by_name_only: Vec<&String> = listed
        .iter()
        .filter(|(_, p)| p.is_empty())
        .map(|(n, _)| n)
        .collect();
    let mut used_name_only = BTreeSet::new();
    for (name, path) in &pred.visible {
        if listed.contains(&(name.clone(), path.clone())) {
            check_description(path, (name.clone(), path.clone()), c);
            continue;
        }
        if let Some((agent_name, _)) = listed.iter().find(|(_, p)| p == path) {
            c.diffs.push(Diff::Renamed {
                path: path.clone(),
                skilltui: name.clone(),
                agent: agent_name.clone(),
            });
            continue;
        }
        if let Some(n) = by_name_only.iter().find(|n| **n == name) {
            used_name_only.insert((*n).clone());
            check_description(path, ((*n).clone(), String::new()), c);
            continue;
        }
        let agent_error = listing
            .errors
            .iter()
            .find(|e| error_names(e, path, project))
            .cloned();
        c.diffs.push(Diff::Missing {
            name: name.clone(),
            path: path.clone(),
            agent_error,
        });
    }
    used_name_only
}

/// Each listed skill skilltui does not predict visible: an extra, with skilltui's verdict.
fn listed_not_predicted(
    pred: &Prediction,
    listed: &BTreeSet<(String, String)>,
    used_name_only: &BTreeSet<String>,
    c: &mut Comparison,
) {
    for (name, path) in listed {
        if path.is_empty() {
            if used_name_only.contains(name) || pred.visible.iter().any(|(n, _)| n == name) {
                continue;
            }
            c.diffs.push(Diff::Extra {
                name: name.clone(),
                path: String::new(),
                skilltui: "no visible skill of that name".into(),
            });
            continue;
        }
        if pred.unknown.contains(path) || pred.visible.iter().any(|(_, p)| p == path) {
            continue;
        }
        if pred.conditional.contains(path) {
            c.diffs.push(Diff::Extra {
                name: name.clone(),
                path: path.clone(),
                skilltui: "conditional (listed only once matching files are touched)".into(),
            });
            continue;
        }
        let st = pred
            .status
            .get(path)
            .map(|s| {
                let why = pred.reason.get(path).map(String::as_str).unwrap_or("");
                format!("{} by {why}", s.as_str())
            })
            .unwrap_or_else(|| "not in the catalog".into());
        c.diffs.push(Diff::Extra {
            name: name.clone(),
            path: path.clone(),
            skilltui: st,
        });
    }
}

/// The comparison for an agent that lists names only (no paths): the set of names skilltui
/// predicts visible against the set the agent lists. A predicted name the agent does not list is
/// `Missing` (with the predicted path); a listed name skilltui does not predict is `Extra`, with
/// skilltui's verdict on a skill whose folder has that name when there is one (Auggie names its
/// commands after the folder). A listed name that can be an `unknown` verdict's folder is left
/// out, as are conditional skills.
fn compare_names(
    pred: &Prediction,
    listing: &Listing,
    project: &Path,
    mut c: Comparison,
) -> Comparison {
    let folder = |p: &str| -> String {
        Path::new(p)
            .parent()
            .and_then(|d| d.file_name())
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let listed: BTreeSet<&str> = listing.skills.iter().map(|l| l.name.as_str()).collect();
    let mut predicted: BTreeMap<&str, &str> = BTreeMap::new();
    for (name, path) in &pred.visible {
        predicted.entry(name.as_str()).or_insert(path.as_str());
    }
    for (name, path) in &predicted {
        if !listed.contains(name) {
            c.diffs.push(Diff::Missing {
                name: name.to_string(),
                path: path.to_string(),
                agent_error: None,
            });
        }
    }
    for name in &listed {
        if predicted.contains_key(name) {
            continue;
        }
        let unknown = pred.unknown.iter().any(|p| folder(p) == *name);
        let conditional = pred.conditional.iter().any(|p| folder(p) == *name);
        if unknown || conditional {
            continue;
        }
        let (path, skilltui) = match pred.status.keys().find(|p| folder(p) == *name) {
            Some(p) => {
                let st = pred.status.get(p).map(|s| s.as_str()).unwrap_or("unknown");
                let why = pred.reason.get(p).map(String::as_str).unwrap_or("");
                (p.clone(), format!("{st} by {why}"))
            }
            None => (String::new(), "no visible skill of that name".into()),
        };
        c.diffs.push(Diff::Extra {
            name: name.to_string(),
            path,
            skilltui,
        });
    }
    for path in &pred.rejected {
        if listing.errors.iter().any(|e| error_names(e, path, project)) {
            c.rejected_with_error += 1;
        } else {
            c.rejected_silent += 1;
        }
    }
    c.diffs.sort();
    c
}

/// A disagreement recorded as a divergence in the model (tests/oracle/known.json): it is
/// reported, but counted apart from new disagreements.
#[derive(Debug, Clone)]
pub struct KnownDivergence {
    pub agent: String,
    /// Case name, or `*` for any case.
    pub case: String,
    /// Text the difference's rendering contains (a path tail, a name).
    pub contains: String,
    /// The model rule whose `note` records the divergence.
    pub rule: String,
}

impl KnownDivergence {
    /// Reads known.json: `[{"agent", "case", "contains", "rule", "why"}]`.
    pub fn load(path: &Path) -> Vec<KnownDivergence> {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Vec::new();
        };
        let Ok(serde_json::Value::Array(items)) = serde_json::from_str(&text) else {
            return Vec::new();
        };
        let s = |v: &serde_json::Value, k: &str| {
            v.get(k)
                .and_then(|x| x.as_str())
                .unwrap_or_default()
                .to_string()
        };
        items
            .iter()
            .map(|v| KnownDivergence {
                agent: s(v, "agent"),
                case: s(v, "case"),
                contains: s(v, "contains"),
                rule: s(v, "rule"),
            })
            .collect()
    }

    /// `contains` = `<space-to-dash>` matches any name the agent lists with `-` for skilltui's
    /// spaces (Copilot CLI).
    pub fn matches(&self, agent: &str, case: &str, diff: &Diff) -> bool {
        let text = match (self.contains.as_str(), diff) {
            (
                "<space-to-dash>",
                Diff::Renamed {
                    skilltui, agent, ..
                },
            ) => skilltui.contains(' ') && skilltui.replace(' ', "-") == *agent,
            ("<space-to-dash>", _) => false,
            (c, d) => d.to_string().contains(c),
        };
        self.agent == agent && (self.case == "*" || self.case == case) && text
    }
}

/// Per-agent tallies.
#[derive(Debug, Clone, Default)]
pub struct AgentTally {
    pub version: String,
    /// The agent lists names only (no paths): compared on the set of names (partly checked).
    pub names_only: bool,
    /// (agreeing runs, runs) — a run agrees when it has no difference other than known ones.
    pub targeted: (usize, usize),
    pub random: (usize, usize),
    /// Runs whose only differences are known divergences.
    pub known_only: usize,
    /// Skills the agent listed, over all runs (what the agreement is measured on).
    pub listed: usize,
    /// Known divergences seen.
    pub known_seen: Vec<(String, String)>,
    pub failed_runs: Vec<String>,
    pub unknown: usize,
    pub rejected_with_error: usize,
    pub rejected_silent: usize,
    pub unexpected_errors: usize,
    /// Case name → disagreements.
    pub disagreements: Vec<(String, Vec<Diff>)>,
}

/// The whole run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub agents: BTreeMap<String, AgentTally>,
    pub known: Vec<KnownDivergence>,
    /// How many differences each `known` entry matched (same index).
    pub known_hits: Vec<usize>,
    /// (agent, case name) pairs that ran, to tell an unused entry from one never exercised.
    pub ran: BTreeSet<(String, String)>,
}

impl Report {
    pub fn record(
        &mut self,
        agent: &str,
        case: &Case,
        result: Result<(Listing, Comparison), String>,
    ) {
        if self.known_hits.len() != self.known.len() {
            self.known_hits.resize(self.known.len(), 0);
        }
        self.ran.insert((agent.to_string(), case.name.clone()));
        let t = self.agents.entry(agent.to_string()).or_default();
        match result {
            Err(e) => t.failed_runs.push(format!("{}: {e}", case.name)),
            Ok((listing, c)) => {
                t.version = listing.version.clone();
                t.names_only |= listing.names_only;
                t.listed += listing.skills.len();
                let (known, new): (Vec<Diff>, Vec<Diff>) = c
                    .diffs
                    .iter()
                    .cloned()
                    .partition(|d| self.known.iter().any(|k| k.matches(agent, &case.name, d)));
                for d in &known {
                    if let Some(i) = self
                        .known
                        .iter()
                        .position(|k| k.matches(agent, &case.name, d))
                    {
                        self.known_hits[i] += 1;
                        t.known_seen.push((
                            case.name.clone(),
                            format!("{d} [recorded: {}]", self.known[i].rule),
                        ));
                    }
                }
                let slot = if case.random {
                    &mut t.random
                } else {
                    &mut t.targeted
                };
                slot.1 += 1;
                if new.is_empty() {
                    slot.0 += 1;
                    if !known.is_empty() {
                        t.known_only += 1;
                    }
                } else {
                    t.disagreements.push((case.name.clone(), new));
                }
                t.unknown += c.unknown;
                t.rejected_with_error += c.rejected_with_error;
                t.rejected_silent += c.rejected_silent;
                t.unexpected_errors += c.unexpected_errors.len();
            }
        }
    }

    /// Recorded divergences that ran (their agent ran their case) but matched no difference:
    /// the agent or the model changed, and the entry should go (it could hide a regression).
    pub fn unused_known(&self) -> Vec<&KnownDivergence> {
        self.known
            .iter()
            .enumerate()
            .filter(|(i, k)| {
                self.known_hits.get(*i).copied().unwrap_or(0) == 0
                    && self
                        .ran
                        .iter()
                        .any(|(a, c)| *a == k.agent && (k.case == "*" || *c == k.case))
            })
            .map(|(_, k)| k)
            .collect()
    }

    /// Agreement rates and every disagreement, as text.
    pub fn render(&self, details: bool) -> String {
        let mut s = String::new();
        let pct = |(a, n): (usize, usize)| {
            if n == 0 {
                "  n/a".to_string()
            } else {
                format!("{:5.1}% ({a}/{n})", 100.0 * a as f64 / n as f64)
            }
        };
        let _ = writeln!(
            s,
            "agreement = runs whose listing matches skilltui's Visible verdicts (name and path), known \
             divergences (tests/oracle/known.json) aside; known = runs that agree only thanks to them; \
             unknown = skills skilltui makes no prediction for; rej+err / rej-silent = predicted \
             rejections the agent reports / does not report"
        );
        let _ = writeln!(
            s,
            "{:<12} {:<9} {:<20} {:<20} {:>5} {:>6} {:>7} {:>9} {:>9} {:>6}",
            "agent",
            "version",
            "targeted",
            "random",
            "known",
            "listed",
            "unknown",
            "rej+err",
            "rej-silent",
            "failed"
        );
        for (a, t) in &self.agents {
            let _ = writeln!(
                s,
                "{:<12} {:<9} {:<20} {:<20} {:>5} {:>6} {:>7} {:>9} {:>9} {:>6}",
                a,
                t.version,
                pct(t.targeted),
                pct(t.random),
                t.known_only,
                t.listed,
                t.unknown,
                t.rejected_with_error,
                t.rejected_silent,
                t.failed_runs.len()
            );
        }
        for (a, t) in &self.agents {
            if t.names_only {
                let _ = writeln!(
                    s,
                    "{a}: partly checked: the agent lists names only (no paths), so its runs \
                     compare the set of visible names"
                );
            }
        }
        if details {
            for (a, t) in &self.agents {
                for f in &t.failed_runs {
                    let _ = writeln!(s, "[{a}] run failed: {f}");
                }
                for (case, d) in &t.known_seen {
                    let _ = writeln!(s, "[{a}] {case}: known: {d}");
                }
                for (case, diffs) in &t.disagreements {
                    for d in diffs {
                        let _ = writeln!(s, "[{a}] {case}: {d}");
                    }
                }
            }
        }
        for k in self.unused_known() {
            let _ = writeln!(
                s,
                "[{}] {}: unused known divergence `{}` ({}): the case ran and nothing matched; \
                 remove it from tests/oracle/known.json",
                k.agent, k.case, k.contains, k.rule
            );
        }
        s
    }
}

/// A written tree: base folder (removed on drop), project (cwd) and home.
pub struct Tree {
    pub base: PathBuf,
    pub project: PathBuf,
    pub home: PathBuf,
    pub vars: Vec<(String, String)>,
}

impl Drop for Tree {
    fn drop(&mut self) {
        if std::env::var_os("SKILLTUI_ORACLE_KEEP").is_none() {
            let _ = std::fs::remove_dir_all(&self.base);
        }
    }
}

/// Writes `case`'s tree under `scratch` and the environment skilltui resolves it in (its
/// project, home and variables).
fn prepare(case: &Case, scratch: &Path) -> Result<(Tree, Env), String> {
    let tree = case
        .write(scratch)
        .map_err(|e| format!("writing the tree: {e}"))?;
    let mut env = Env::new(&tree.project, &tree.home);
    for (k, v) in &tree.vars {
        env = env.with_var(k, v);
    }
    Ok((tree, env))
}

/// Runs one case for one agent: writes the tree, predicts, runs the agent, compares.
pub fn run_case(
    models: &[AgentModel],
    driver: &Driver,
    agent: &str,
    case: &Case,
    scratch: &Path,
) -> Result<(Listing, Comparison), String> {
    let (tree, env) = prepare(case, scratch)?;
    let canon = verify::lists_canonical_paths(agent);
    let pred = predict(models, agent, &env, canon);
    let listing = driver.run(agent, &tree.project, &tree.home, &tree.vars)?;
    let c = compare(&pred, &listing, &tree.project, canon);
    Ok((listing, c))
}

/// What differs between two predictions in what [`compare`] reads (visible names and paths,
/// unknown, rejected and conditional paths, listed descriptions, known bugs): one line per
/// difference, empty when a run that agreed under one prediction agrees under the other.
pub fn prediction_changes(old: &Prediction, new: &Prediction) -> Vec<String> {
    fn sets<T: Ord + std::fmt::Debug>(what: &str, a: &BTreeSet<T>, b: &BTreeSet<T>) -> Vec<String> {
        let gone = a.difference(b).map(|x| format!("{what} no longer: {x:?}"));
        gone.chain(b.difference(a).map(|x| format!("{what} now: {x:?}")))
            .collect()
    }
    let mut out = sets("visible", &old.visible, &new.visible);
    out.extend(sets("unknown", &old.unknown, &new.unknown));
    out.extend(sets("rejected", &old.rejected, &new.rejected));
    out.extend(sets("conditional", &old.conditional, &new.conditional));
    out.extend(sets("bug", &old.bugs, &new.bugs));
    let keys: BTreeSet<&String> = old
        .description
        .keys()
        .chain(new.description.keys())
        .collect();
    for k in keys {
        let (a, b) = (old.description.get(k), new.description.get(k));
        if a != b {
            out.push(format!("description of {k}: {a:?} -> {b:?}"));
        }
    }
    out
}

/// Writes `case` and predicts it for `agent` under two sets of models (no agent runs): the
/// differences of [`prediction_changes`]. A recorded run whose prediction did not change still
/// agrees after a model change, so only the changed ones need the agent again.
pub fn replay_case(
    old: &[AgentModel],
    new: &[AgentModel],
    agent: &str,
    case: &Case,
    scratch: &Path,
) -> Result<Vec<String>, String> {
    // The tree stays on disk (it is removed on drop) until both predictions are made.
    let (_tree, env) = prepare(case, scratch)?;
    let canon = verify::lists_canonical_paths(agent);
    Ok(prediction_changes(
        &predict(old, agent, &env, canon),
        &predict(new, agent, &env, canon),
    ))
}
