//! Folder trust: an agent that reads some roots (Gemini CLI: the project's) only in a folder the
//! user trusts, as the model's `[trust]` table describes it: a variable that decides when set,
//! a trust file, and a default. Decided once per scan for the project folder.

use crate::agents::{AgentModel, Known, Provenance, Scope, TrustDefault, TrustFileFormat};
use crate::env::Env;
use std::path::{Path, PathBuf};

/// Which rule of `[trust]` decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustBy {
    Env,
    File,
    Default,
}

/// Whether the project folder is trusted, which rule said so and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustDecision {
    /// None: the deciding rule's value is unknown.
    pub trusted: Option<bool>,
    pub by: TrustBy,
    /// A plain sentence: what decided (`GEMINI_CLI_TRUST_WORKSPACE is true`).
    pub why: String,
    /// The folder decided on (the project folder).
    pub folder: PathBuf,
    /// How the user trusts it, from the model's rules (`set GEMINI_CLI_TRUST_WORKSPACE=true, or
    /// add "<folder>": "TRUST_FOLDER" to ~/.gemini/trustedFolders.json`).
    pub how: String,
}

impl TrustDecision {
    /// The provenance of the rule that decided.
    pub fn rule<'a>(&self, m: &'a AgentModel) -> Option<&'a Provenance> {
        let t = m.trust.as_ref()?;
        match self.by {
            TrustBy::Env => t.env.as_ref().map(|r| &r.from),
            TrustBy::File => t.file.as_ref().map(|r| &r.from),
            TrustBy::Default => Some(&t.default.from),
        }
    }
}

/// Whether roots of `scope` are gated by the agent's trust rule.
pub fn gates(m: &AgentModel, scope: Scope) -> bool {
    m.trust
        .as_ref()
        .and_then(|t| t.scopes.known())
        .is_some_and(|s| s.contains(&scope))
}

/// The agent's trust file, expanded (None: no `[trust]` file, or an unset variable).
pub fn file(m: &AgentModel, env: &Env) -> Option<PathBuf> {
    let t = m.trust.as_ref()?;
    let template = t.file.as_ref()?.known()?;
    env.expand(template, &env.home).ok()
}

/// Every agent's trust file (the watcher follows them like settings files).
pub fn files(models: &[AgentModel], env: &Env) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = models.iter().filter_map(|m| file(m, env)).collect();
    out.sort();
    out.dedup();
    out
}

/// How a user trusts the project folder, from the model's own rules: the variable, the file.
pub fn how_to_trust(m: &AgentModel, env: &Env) -> String {
    let mut ways = Vec::new();
    if let Some(Known::Known(var)) = m
        .trust
        .as_ref()
        .and_then(|t| t.env.as_ref())
        .map(|r| &r.value)
    {
        ways.push(format!("set {var}=true"));
    }
    if let (Some(f), Some(Known::Known(TrustFileFormat::GeminiTrustedFolders))) = (
        file(m, env),
        m.trust
            .as_ref()
            .and_then(|t| t.file_format.as_ref())
            .map(|r| &r.value),
    ) {
        ways.push(format!(
            "add \"{}\": \"TRUST_FOLDER\" to {}",
            env.project.display(),
            f.display()
        ));
    }
    if ways.is_empty() {
        format!("trust the folder in {}", m.name)
    } else {
        ways.join(", or ")
    }
}

/// Decides whether the project folder is trusted for agent `m` (None: the model has no
/// `[trust]`).
pub fn decide(m: &AgentModel, env: &Env) -> Option<TrustDecision> {
    let (trusted, by, why) = decide_inner(m, env)?;
    Some(TrustDecision {
        trusted,
        by,
        why,
        folder: env.project.clone(),
        how: how_to_trust(m, env),
    })
}

fn decide_inner(m: &AgentModel, env: &Env) -> Option<(Option<bool>, TrustBy, String)> {
    let t = m.trust.as_ref()?;
    if let Some(Known::Known(var)) = t.env.as_ref().map(|r| &r.value)
        && let Some(v) = env.var(var)
    {
        match v.trim().to_ascii_lowercase().as_str() {
            "true" => {
                return Some((Some(true), TrustBy::Env, format!("{var} is true")));
            }
            "false" => {
                return Some((Some(false), TrustBy::Env, format!("{var} is false")));
            }
            _ => {}
        }
    }
    let mut note = String::new();
    if let Some(path) = file(m, env) {
        match t.file_format.as_ref().map(|r| &r.value) {
            Some(Known::Known(TrustFileFormat::GeminiTrustedFolders)) => {
                match gemini_file(&path, &env.project) {
                    FileSays::Trusted(rule) => {
                        return Some((
                            Some(true),
                            TrustBy::File,
                            format!("{} trusts it ({rule})", path.display()),
                        ));
                    }
                    FileSays::Untrusted(rule) => {
                        return Some((
                            Some(false),
                            TrustBy::File,
                            format!("{} does not trust it ({rule})", path.display()),
                        ));
                    }
                    FileSays::Nothing => {
                        note = format!("; {} does not list it or a folder above it", path.display())
                    }
                    FileSays::Missing => note = format!("; there is no {}", path.display()),
                    FileSays::Invalid(e) => {
                        note = format!("; {} cannot be read ({e})", path.display())
                    }
                }
            }
            _ => {
                return Some((
                    None,
                    TrustBy::File,
                    format!(
                        "how {} reads its trust file {} is not established",
                        m.name,
                        path.display()
                    ),
                ));
            }
        }
    }
    let trusted = match t.default.value {
        Known::Known(TrustDefault::Trusted) => Some(true),
        Known::Known(TrustDefault::Untrusted) => Some(false),
        Known::Unknown => None,
    };
    let why = match trusted {
        Some(true) => format!("folders are trusted by default{note}"),
        Some(false) => format!("folders are untrusted by default{note}"),
        None => format!("whether a folder is trusted by default is not established{note}"),
    };
    Some((trusted, TrustBy::Default, why))
}

enum FileSays {
    Trusted(String),
    Untrusted(String),
    Nothing,
    Missing,
    Invalid(String),
}

/// Gemini CLI's `trustedFolders.json`: `TRUST_FOLDER` trusts the path and below,
/// `TRUST_PARENT` the path's parent and below; a trusting rule decides first, then a
/// `DO_NOT_TRUST` on the folder itself.
fn gemini_file(path: &Path, project: &Path) -> FileSays {
    let text = match crate::settings::read_file(path) {
        None => return FileSays::Missing,
        Some(Err(e)) => return FileSays::Invalid(e),
        Some(Ok(t)) => t,
    };
    let value = match crate::settings::parse(&text, crate::agents::SettingsFormat::Jsonc) {
        Ok(v) => v,
        Err(e) => return FileSays::Invalid(e),
    };
    let Some(map) = value.as_object() else {
        return FileSays::Invalid("not a JSON object".into());
    };
    let mut untrusted = None;
    for (p, level) in map {
        let rule_path = crate::env::normalize(Path::new(p));
        if !rule_path.is_absolute() {
            continue;
        }
        let level = level.as_str().unwrap_or("");
        let effective = match level {
            "TRUST_PARENT" => rule_path.parent().map(Path::to_path_buf),
            _ => Some(rule_path.clone()),
        };
        let Some(effective) = effective else { continue };
        match level {
            "TRUST_FOLDER" | "TRUST_PARENT" if project.starts_with(&effective) => {
                return FileSays::Trusted(format!("\"{p}\": \"{level}\""));
            }
            "DO_NOT_TRUST" if project == effective => {
                untrusted = Some(format!("\"{p}\": \"{level}\""));
            }
            _ => {}
        }
    }
    match untrusted {
        Some(r) => FileSays::Untrusted(r),
        None => FileSays::Nothing,
    }
}
