//! `skilltui agents --verify`: runs the agents installed on this machine on the current project
//! (their own skill listing only: no model call, no skill script) and reports where they and
//! the model disagree. It uses the oracle's driver (embedded) and needs Node.js.

use super::{Driver, compare, predict};
use crate::agents::AgentModel;
use crate::env::Env;
use std::path::{Path, PathBuf};
use std::process::Command;

const DRIVER: &str = include_str!("../../tests/oracle/driver.mjs");
const PI_SKILLS: &str = include_str!("../../tests/oracle/pi-skills.mjs");
const VERSIONS: &str = include_str!("../../tests/oracle/versions.json");

/// The agents with an offline listing and the npm package that holds each, from the oracle's
/// pinned releases (tests/oracle/versions.json, embedded): one list for both.
pub fn verifiable() -> Vec<(String, String)> {
    let v: serde_json::Value = serde_json::from_str(VERSIONS).unwrap_or_default();
    v.as_object()
        .into_iter()
        .flatten()
        .filter_map(|(agent, pin)| Some((agent.clone(), pin.get("package")?.as_str()?.to_string())))
        .collect()
}

/// One agent's outcome.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Not installed where skilltui looks (global npm, the oracle's cache).
    NotInstalled,
    /// The listing could not be obtained.
    Failed(String),
    /// Compared: differences (as sentences), skills listed, skills skilltui marks unknown.
    Compared {
        differences: Vec<String>,
        listed: usize,
        unknown: usize,
        from: PathBuf,
    },
}

/// Where an agent's package is installed: (prefix holding node_modules, or the pinned cache).
fn locate(agent: &str, package: &str) -> Option<(Option<PathBuf>, PathBuf)> {
    // A global npm install.
    if let Ok(out) = Command::new("npm").args(["root", "-g"]).output()
        && out.status.success()
    {
        let root = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if root.join(package).is_dir()
            && let Some(prefix) = root.parent()
        {
            return Some((Some(prefix.to_path_buf()), root.join(package)));
        }
    }
    // The differential oracle's pinned release (tests/oracle/install.sh).
    let cache = std::env::var_os("SKILLTUI_ORACLE_CACHE")
        .map(PathBuf::from)
        .or_else(|| std::env::home_dir().map(|h| h.join(".cache/skilltui-oracle")))?;
    let v: serde_json::Value = serde_json::from_str(VERSIONS).ok()?;
    let version = v.get(agent)?.get("version")?.as_str()?;
    let dir = cache.join(format!("{agent}@{version}"));
    dir.join(".installed").exists().then_some((None, dir))
}

/// Verifies the selected agents (all five when `only` is empty).
pub fn verify(models: &[AgentModel], env: &Env, only: &[String]) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    let tmp = match tempfile_dir() {
        Ok(t) => t,
        Err(e) => {
            return verifiable()
                .into_iter()
                .map(|(a, _)| (a, Outcome::Failed(e.clone())))
                .collect();
        }
    };
    for (agent, package) in verifiable() {
        let (agent, package) = (agent.as_str(), package.as_str());
        if !only.is_empty() && !only.iter().any(|o| o == agent) {
            continue;
        }
        if !models.iter().any(|m| m.id == agent) {
            continue;
        }
        let Some((prefix, from)) = locate(agent, package) else {
            out.push((agent.to_string(), Outcome::NotInstalled));
            continue;
        };
        let mut driver = Driver::new(&tmp);
        driver.no_network = Driver::can_unshare();
        if let Some(p) = prefix {
            driver
                .driver_env
                .push(("SKILLTUI_AGENTS_PREFIX".into(), p.display().to_string()));
        }
        let vars: Vec<(String, String)> = env
            .vars()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let listing = driver.run(agent, &env.project, &env.home, &vars);
        let listing = match listing {
            Ok(l) => l,
            Err(e) => {
                out.push((agent.to_string(), Outcome::Failed(e)));
                continue;
            }
        };
        let canon = agent == "codex";
        let mut pred = predict(models, agent, env, canon);
        // Skills the agent ships itself (Codex writes its system skills under
        // $CODEX_HOME/skills/.system) are reported apart by the driver: not compared.
        pred.visible
            .retain(|(name, _)| !listing.builtin.iter().any(|b| b == name));
        let cmp = compare(&pred, &listing, &env.project, canon);
        out.push((
            agent.to_string(),
            Outcome::Compared {
                differences: cmp.diffs.iter().map(|d| d.to_string()).collect(),
                listed: listing.skills.len(),
                unknown: pred.unknown.len(),
                from,
            },
        ));
    }
    let _ = std::fs::remove_dir_all(&tmp);
    out
}

/// The embedded driver written to a fresh temporary folder.
fn tempfile_dir() -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("skilltui-verify-{}", std::process::id()));
    let write = |p: &Path, t: &str| std::fs::write(p, t).map_err(|e| e.to_string());
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    write(&dir.join("driver.mjs"), DRIVER)?;
    write(&dir.join("pi-skills.mjs"), PI_SKILLS)?;
    write(&dir.join("versions.json"), VERSIONS)?;
    Ok(dir)
}
