//! Which agents are in use on this machine: a program the model names (`command`) on `PATH`,
//! or the agent's own config or home folder (`home`) holding more than skill folders. What the
//! explorer, `list` and `check` show by default; where nothing is found, the seed agents.

use super::{AgentModel, Known, Names, RuleId};
use crate::env::Env;
use std::path::{Path, PathBuf};

/// The agents shown when none is found in use: the seven skilltui started with.
pub const SEED_IDS: [&str; 7] = [
    "claude-code",
    "codex",
    "copilot-cli",
    "antigravity",
    "cursor",
    "opencode",
    "pi",
];

/// One sign that an agent is in use.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Evidence {
    /// The program is on `PATH` at `path`.
    Command { name: String, path: PathBuf },
    /// The agent's folder exists and holds more than its skill folders (`shown`: the path
    /// with `~` for the home folder).
    Home {
        template: String,
        path: PathBuf,
        shown: String,
    },
}

impl Evidence {
    /// `` `codex` on PATH ``, `~/.claude exists`.
    pub fn describe(&self) -> String {
        match self {
            Evidence::Command { name, .. } => format!("`{name}` on PATH"),
            Evidence::Home { shown, .. } => format!("{shown} exists"),
        }
    }
}

/// An agent found in use, with every sign of it and the rules that name them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct InUse {
    pub agent: String,
    pub evidence: Vec<Evidence>,
    /// The model's `command` / `home` rules the evidence comes from.
    pub rules: Vec<RuleId>,
}

/// The agents of `models` in use for `env` (its `PATH` and home), in model order.
pub fn in_use(models: &[AgentModel], env: &Env) -> Vec<InUse> {
    // A home folder holding only skill roots of any agent is no sign: `~/.gemini` may hold
    // only Antigravity's skills, `~/.claude` only what an installer made.
    let roots: Vec<PathBuf> = models.iter().flat_map(|m| skill_roots(m, env)).collect();
    models
        .iter()
        .filter_map(|m| detect_among(m, &roots, env))
        .collect()
}

/// The signs that agent `m` is in use (None: none found).
pub fn detect(m: &AgentModel, env: &Env) -> Option<InUse> {
    detect_among(m, &skill_roots(m, env), env)
}

/// [`detect`], where a home folder holding only `roots` (and the folders on the way to them)
/// is no sign.
fn detect_among(m: &AgentModel, roots: &[PathBuf], env: &Env) -> Option<InUse> {
    let mut evidence = Vec::new();
    let mut rules = Vec::new();
    if let Some(r) = &m.command
        && let Known::Known(Names(names)) = &r.value
        && let Some(path) = &env.search_path
    {
        for n in names {
            if let Some(p) = on_path(n, path) {
                evidence.push(Evidence::Command {
                    name: n.clone(),
                    path: p,
                });
                if !rules.contains(&r.from.id) {
                    rules.push(r.from.id.clone());
                }
            }
        }
    }
    if let Some(r) = &m.home
        && let Known::Known(Names(homes)) = &r.value
    {
        for h in homes {
            let Ok(path) = env.expand(h, &env.home) else {
                continue;
            };
            if holds_more_than(&path, roots) {
                let shown = match path.strip_prefix(&env.home) {
                    Ok(rel) if !rel.as_os_str().is_empty() => format!("~/{}", rel.display()),
                    _ => path.display().to_string(),
                };
                evidence.push(Evidence::Home {
                    template: h.clone(),
                    path,
                    shown,
                });
                if !rules.contains(&r.from.id) {
                    rules.push(r.from.id.clone());
                }
            }
        }
    }
    (!evidence.is_empty()).then(|| InUse {
        agent: m.id.clone(),
        evidence,
        rules,
    })
}

/// Which agents to show by default: those in use, else the seed agents (those of them that are
/// loaded; every agent when none is). The flag says whether they were found in use.
pub fn default_selection(models: &[AgentModel], env: &Env) -> (Vec<String>, bool) {
    let found: Vec<String> = in_use(models, env).into_iter().map(|u| u.agent).collect();
    if !found.is_empty() {
        return (found, true);
    }
    let seeds: Vec<String> = models
        .iter()
        .filter(|m| SEED_IDS.contains(&m.id.as_str()))
        .map(|m| m.id.clone())
        .collect();
    if seeds.is_empty() {
        (models.iter().map(|m| m.id.clone()).collect(), false)
    } else {
        (seeds, false)
    }
}

/// The agent's user-scope skill roots, expanded: a home folder holding only these (an installer
/// such as `npx skills` makes `~/.claude/skills` for agents that are not installed) is no sign.
fn skill_roots(m: &AgentModel, env: &Env) -> Vec<PathBuf> {
    m.roots
        .iter()
        .filter(|r| r.scope != super::Scope::Project)
        .filter_map(|r| env.expand(&r.path, &env.home).ok())
        .collect()
}

/// Whether `dir` is a folder with an entry that is not one of `roots` or a folder on the way
/// to one of them holding nothing else.
fn holds_more_than(dir: &Path, roots: &[PathBuf]) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    for e in entries.flatten().take(10_000) {
        let p = e.path();
        if roots.contains(&p) {
            continue;
        }
        if roots.iter().any(|r| r.starts_with(&p)) && p.is_dir() {
            if holds_more_than(&p, roots) {
                return true;
            }
            continue;
        }
        return true;
    }
    false
}

/// The first executable file named `command` in the folders of `path` (a `PATH` value).
pub fn on_path(command: &str, path: &std::ffi::OsStr) -> Option<PathBuf> {
    if command.is_empty() || command.contains('/') {
        return None;
    }
    std::env::split_paths(path)
        .filter(|d| d.is_absolute())
        .map(|d| d.join(command))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(p) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}
