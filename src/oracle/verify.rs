//! `skilltui agents --verify`: runs the agents installed on this machine on the current project
//! (their own skill listing only: no model call, no skill script) and reports where they and
//! the model disagree. It uses the oracle's driver (embedded) and needs Node.js.
//!
//! An agent is the program the user runs: its command on `PATH` first (a native installer,
//! Homebrew, an npm global install whose bin folder is on `PATH`), then a global npm install,
//! then the oracle's pinned release in its cache. Its version is what `COMMAND --version`
//! prints (bounded by a timeout; nothing else is run outside the driver).

use super::{Driver, compare, predict};
use crate::agents::AgentModel;
use crate::env::Env;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DRIVER: &str = include_str!("../../tests/oracle/driver.mjs");
const PI_SKILLS: &str = include_str!("../../tests/oracle/pi-skills.mjs");
const VERSIONS: &str = include_str!("../../tests/oracle/versions.json");

/// How long `COMMAND --version` may take.
const VERSION_TIMEOUT: Duration = Duration::from_secs(10);

/// One agent the driver can run, from the oracle's pinned releases (tests/oracle/versions.json,
/// embedded): one list for both.
#[derive(Debug, Clone, PartialEq)]
pub struct Pin {
    pub agent: String,
    /// The npm package that holds it.
    pub package: String,
    /// The program it installs on `PATH`.
    pub command: Option<String>,
    /// The release the oracle pins.
    pub version: Option<String>,
    /// The agent lists a symlinked skill at its target (`"paths": "canonical"`, Codex): its
    /// paths are compared with skilltui's as canonical paths.
    pub canonical_paths: bool,
}

/// The agents with an offline listing.
pub fn verifiable() -> Vec<Pin> {
    let v: serde_json::Value = serde_json::from_str(VERSIONS).unwrap_or_default();
    v.as_object()
        .into_iter()
        .flatten()
        .filter_map(|(agent, pin)| {
            let s = |k: &str| pin.get(k).and_then(|x| x.as_str()).map(String::from);
            Some(Pin {
                agent: agent.clone(),
                package: s("package")?,
                command: s("command"),
                version: s("version"),
                canonical_paths: s("paths").as_deref() == Some("canonical"),
            })
        })
        .collect()
}

/// Whether `agent` lists a symlinked skill at its target, so that its listing is compared on
/// canonical paths (from the pins in tests/oracle/versions.json).
pub fn lists_canonical_paths(agent: &str) -> bool {
    verifiable()
        .iter()
        .any(|p| p.agent == agent && p.canonical_paths)
}

/// Where an installed agent was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Found {
    /// Its command on `PATH`.
    #[strum(serialize = "PATH")]
    Path,
    /// A global npm install (`npm root -g`).
    NpmGlobal,
    /// The differential oracle's pinned release (tests/oracle/install.sh).
    OracleCache,
}

impl Found {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// An installed agent.
#[derive(Debug, Clone, PartialEq)]
pub struct Install {
    /// The program on `PATH`, or the install folder.
    pub from: PathBuf,
    pub found: Found,
    /// What `--version` printed (PATH), the package's version (npm) or the pinned one.
    pub version: Option<String>,
    /// npm installs: the folder holding node_modules.
    prefix: Option<PathBuf>,
}

/// One agent's outcome.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Not on `PATH`, not installed globally with npm, not in the oracle's cache.
    NotInstalled,
    /// The listing could not be obtained: one line, and the files that keep the driver's whole
    /// output.
    Failed {
        install: Option<Install>,
        error: String,
        saved: Vec<PathBuf>,
    },
    /// Compared: differences (as sentences), skills listed, skills skilltui marks unknown;
    /// `names_only`: the agent lists names without paths (Auggie), so only the set of visible
    /// names was compared (partly checked).
    Compared {
        install: Install,
        differences: Vec<String>,
        listed: usize,
        unknown: usize,
        names_only: bool,
    },
    /// The agent has no listing the driver can run offline (no pinned release in
    /// tests/oracle/versions.json): its model is from documents and source only.
    NoOfflineListing,
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

/// What `exe --version` prints, reduced to its version (`codex-cli 0.171.0` → `0.171.0`; the
/// first word that looks like one in the first lines of stdout, then of stderr), or its first
/// line when no word looks like a version. None when it fails or takes longer than
/// `timeout` (then it is killed, with the processes it started).
pub fn ask_version(exe: &Path, timeout: Duration) -> Option<String> {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let stem = std::env::temp_dir().join(format!("skilltui-version-{}-{n}", std::process::id()));
    // Files, not pipes: a program that writes much and never ends cannot block on them.
    let (out_path, err_path) = (stem.with_extension("out"), stem.with_extension("err"));
    let result = (|| {
        let mut cmd = Command::new(exe);
        cmd.arg("--version")
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out_path).ok()?)
            .stderr(std::fs::File::create(&err_path).ok()?);
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn().ok()?;
        let start = Instant::now();
        loop {
            if let Some(status) = child.try_wait().ok()? {
                return status.success().then_some(());
            }
            if start.elapsed() > timeout {
                kill_group(&mut child);
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    })();
    let read = |p: &Path| {
        let text = std::fs::read(p).unwrap_or_default();
        let _ = std::fs::remove_file(p);
        String::from_utf8_lossy(&text).into_owned()
    };
    let (stdout, stderr) = (read(&out_path), read(&err_path));
    result?;
    // Some agents print their version on stderr (pi); stdout first (Codex warns on stderr).
    let first = |text: &str| -> Option<String> {
        text.lines()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.trim().to_string())
    };
    let words = |text: &str| -> Option<String> {
        text.lines()
            .take(5)
            .flat_map(str::split_whitespace)
            .map(|w| {
                w.trim_start_matches('v')
                    .trim_end_matches([',', '.', ';', ')'])
            })
            .find(|w| {
                w.starts_with(|c: char| c.is_ascii_digit())
                    && w.contains('.')
                    && w.chars()
                        .all(|c| c.is_ascii_alphanumeric() || ".-+".contains(c))
            })
            .map(String::from)
    };
    let chosen = words(&stdout)
        .or_else(|| words(&stderr))
        .or_else(|| first(&stdout))
        .or_else(|| first(&stderr))?;
    Some(chosen.chars().take(80).collect())
}

fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// `npm root -g`, asked once.
fn npm_root() -> Option<PathBuf> {
    static ROOT: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let out = Command::new("npm")
            .args(["root", "-g"])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
    })
    .clone()
}

fn package_version(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("package.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v.get("version")?.as_str().map(String::from)
}

/// Where `pin`'s agent is installed: its command on `PATH`, a global npm install, the cache.
pub fn locate(pin: &Pin, path: Option<&std::ffi::OsStr>) -> Option<Install> {
    if let (Some(cmd), Some(path)) = (pin.command.as_deref(), path)
        && let Some(exe) = on_path(cmd, path)
    {
        return Some(Install {
            version: ask_version(&exe, VERSION_TIMEOUT),
            from: exe,
            found: Found::Path,
            prefix: None,
        });
    }
    if let Some(root) = npm_root()
        && root.join(&pin.package).is_dir()
        && let Some(prefix) = root.parent()
    {
        return Some(Install {
            version: package_version(&root.join(&pin.package)),
            from: root.join(&pin.package),
            found: Found::NpmGlobal,
            prefix: Some(prefix.to_path_buf()),
        });
    }
    let cache = std::env::var_os("SKILLTUI_ORACLE_CACHE")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::home_dir().map(|h| h.join(".cache/skilltui-oracle")))?;
    let version = pin.version.clone()?;
    let dir = cache.join(format!("{}@{version}", pin.agent));
    dir.join(".installed").exists().then_some(Install {
        from: dir,
        found: Found::OracleCache,
        version: Some(version),
        prefix: None,
    })
}

/// Verifies the selected agents (every model when `only` is empty): the agents with a pinned
/// release are run where installed; the others are reported as having no offline listing.
pub fn verify(models: &[AgentModel], env: &Env, only: &[String]) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    let tmp = match tempfile_dir() {
        Ok(t) => t,
        Err(e) => {
            return verifiable()
                .into_iter()
                .map(|p| {
                    let failed = Outcome::Failed {
                        install: None,
                        error: e.clone(),
                        saved: vec![],
                    };
                    (p.agent, failed)
                })
                .collect();
        }
    };
    let path = std::env::var_os("PATH");
    let no_network = Driver::can_unshare();
    for pin in verifiable() {
        let agent = pin.agent.as_str();
        if !only.is_empty() && !only.iter().any(|o| o == agent) {
            continue;
        }
        if !models.iter().any(|m| m.id == agent) {
            continue;
        }
        let Some(install) = locate(&pin, path.as_deref()) else {
            out.push((agent.to_string(), Outcome::NotInstalled));
            continue;
        };
        let mut driver = Driver::new(&tmp);
        driver.no_network = no_network;
        match install.found {
            Found::Path => {
                driver.driver_env.push((
                    "SKILLTUI_AGENT_ENTRY".into(),
                    install.from.display().to_string(),
                ));
                if let Some(v) = &install.version {
                    driver
                        .driver_env
                        .push(("SKILLTUI_AGENT_VERSION".into(), v.clone()));
                }
            }
            Found::NpmGlobal => {
                if let Some(p) = &install.prefix {
                    driver
                        .driver_env
                        .push(("SKILLTUI_AGENTS_PREFIX".into(), p.display().to_string()));
                }
            }
            Found::OracleCache => {}
        }
        let vars: Vec<(String, String)> = env
            .vars()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let listing = match driver.run_saved(agent, &env.project, &env.home, &vars) {
            Ok(l) => l,
            Err(f) => {
                out.push((
                    agent.to_string(),
                    Outcome::Failed {
                        install: Some(install),
                        error: f.message,
                        saved: f.saved,
                    },
                ));
                continue;
            }
        };
        let canon = lists_canonical_paths(agent);
        let mut pred = predict(models, agent, env, canon);
        // Skills the agent ships itself (Codex writes its system skills under
        // $CODEX_HOME/skills/.system) are reported apart by the driver: not compared.
        pred.visible
            .retain(|(name, _)| !listing.builtin.iter().any(|b| b == name));
        let cmp = compare(&pred, &listing, &env.project, canon);
        out.push((
            agent.to_string(),
            Outcome::Compared {
                install,
                differences: cmp.diffs.iter().map(|d| d.to_string()).collect(),
                listed: listing.skills.len(),
                unknown: pred.unknown.len(),
                names_only: listing.names_only,
            },
        ));
    }
    // The other models: nothing to run.
    let pins = verifiable();
    for m in models {
        if pins.iter().any(|p| p.agent == m.id) {
            continue;
        }
        if !only.is_empty() && !only.contains(&m.id) {
            continue;
        }
        out.push((m.id.clone(), Outcome::NoOfflineListing));
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
