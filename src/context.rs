//! What every front end shares (the command line and the explorer): where to look
//! (`--project`, `--home`, `--demo`), which agent models to use (`--model`), which agents to
//! show, how paths are shown, and the exit status. It sits below `cli/` and `tui/` and imports
//! neither (`cli::context` re-exports it).

use crate::actions::RefusalKind;
use crate::agents::{self, AgentModel};
use crate::catalog::Catalog;
use crate::demo::Demo;
use crate::env::Env;
use crate::sanitize;
use std::path::{Path, PathBuf};

/// Exit status of a command: the one list of statuses skilltui exits with (`--help` and the
/// README's "Exit codes" table show it; a test keeps the table and this enum in step).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumIter, strum::IntoStaticStr, strum::Display,
)]
#[strum(serialize_all = "kebab-case")]
#[repr(u8)]
pub enum ExitCode {
    /// Success: the command did what was asked, and nothing reached the failing level.
    Ok = 0,
    /// A finding: an invalid or invisible skill, a finding at `--fail-on`, an action refused or
    /// declined, nothing to undo.
    Finding = 1,
    /// A usage or setup error: bad arguments, an unknown agent or skill, an ambiguous name, no
    /// terminal to ask on, an unreadable model, an I/O failure.
    Usage = 2,
}

impl ExitCode {
    /// The process exit status.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// What the status means, one line (the README's table and `--help`).
    pub fn meaning(self) -> &'static str {
        match self {
            ExitCode::Ok => "success; nothing reached the failing level",
            ExitCode::Finding => {
                "a finding (invalid or invisible skill, a finding at --fail-on), an action refused or declined, nothing to undo"
            }
            ExitCode::Usage => {
                "usage or setup error (bad arguments, unknown agent, ambiguous skill name, no terminal to ask on, I/O error)"
            }
        }
    }

    /// The table `--help` ends with.
    pub fn help_table() -> String {
        use strum::IntoEnumIterator;
        let mut s = String::from("Exit status:\n");
        for c in ExitCode::iter() {
            s.push_str(&format!("  {}  {}\n", c.code(), c.meaning()));
        }
        s
    }
}

impl From<ExitCode> for u8 {
    fn from(c: ExitCode) -> u8 {
        c.code()
    }
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(c: ExitCode) -> std::process::ExitCode {
        std::process::ExitCode::from(c.code())
    }
}

pub const EXIT_OK: ExitCode = ExitCode::Ok;
pub const EXIT_FINDING: ExitCode = ExitCode::Finding;
pub const EXIT_USAGE: ExitCode = ExitCode::Usage;

/// Why a command ends without its own exit status: the one error type at the command-line
/// boundary. Each variant knows its exit status ([`CliError::exit_code`]) and how it is told
/// on standard error (`cli::run` prints it).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad arguments or setup (an unknown agent, a missing folder, an unreadable model).
    #[error("{0}")]
    Usage(String),
    /// An action refused: its kind, and the text ready for the terminal (paths shown,
    /// sanitized).
    #[error("refused: {1}")]
    Refused(RefusalKind, String),
    /// A name several skills hold: the lines list the copies (ready for the terminal).
    #[error("{}", .0.join("\n"))]
    Ambiguous(Vec<String>),
    /// Standard input is not a terminal, so there is no one to ask and no `--yes`.
    #[error(
        "standard input is not a terminal, so skilltui cannot ask; nothing changed (pass --yes to apply, --dry-run to preview)"
    )]
    CannotAsk,
    /// The person asked said no (already told on standard output).
    #[error("nothing changed")]
    Declined,
    /// Reading or writing failed (a closed output pipe ends the command quietly).
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl CliError {
    /// The exit status this error ends the command with.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Refused(kind, _) => refusal_exit(*kind),
            CliError::Declined => ExitCode::Finding,
            CliError::Io(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::Ok,
            CliError::Usage(_) | CliError::Ambiguous(_) | CliError::CannotAsk | CliError::Io(_) => {
                ExitCode::Usage
            }
        }
    }

    /// Writes the error for people: `skilltui: …` on one line (sanitized), the copies of an
    /// ambiguous name as they are, nothing for a declined question or a closed pipe.
    pub fn report(&self, err: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            CliError::Declined => Ok(()),
            CliError::Io(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            CliError::Ambiguous(lines) => {
                for l in lines {
                    writeln!(err, "{l}")?;
                }
                Ok(())
            }
            CliError::Usage(m) => writeln!(err, "skilltui: {}", sanitize::line(m)),
            e => writeln!(err, "skilltui: {e}"),
        }
    }
}

impl From<String> for CliError {
    /// A setup or usage message (the `String` errors of `Context` and the lower layers).
    fn from(m: String) -> CliError {
        CliError::Usage(m)
    }
}

impl From<serde_json::Error> for CliError {
    /// Writing JSON failed: an I/O error (a closed pipe stays one).
    fn from(e: serde_json::Error) -> CliError {
        CliError::Io(e.into())
    }
}

/// The exit status of a refused action, by kind. Every refusal is a finding (exit 1), a
/// cancelled one included: the person asked for something that was not done. Written out so
/// that a new kind decides its status here.
pub fn refusal_exit(kind: RefusalKind) -> ExitCode {
    match kind {
        RefusalKind::Cancelled
        | RefusalKind::NotFound
        | RefusalKind::Ambiguous
        | RefusalKind::OutsideRoots
        | RefusalKind::Conflict
        | RefusalKind::Changed
        | RefusalKind::Unchanged
        | RefusalKind::Invalid
        | RefusalKind::NoPlan
        | RefusalKind::Io => ExitCode::Finding,
    }
}

/// What a command returns: its exit status, or the error that ends it.
pub type Outcome = Result<ExitCode, CliError>;

#[derive(Debug, Clone, Default, clap::Args)]
pub struct Common {
    /// The project folder, as the agent's working folder [default: the current folder].
    #[arg(long, global = true, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// The home folder the agents' user roots are under [default: $HOME].
    #[arg(long, global = true, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// Load agent models from DIR/*.toml instead of the built-in ones.
    #[arg(long, global = true, value_name = "DIR")]
    pub model: Option<PathBuf>,
    /// Use the demo catalog embedded in skilltui (a project and a home in a temporary folder).
    #[arg(long, global = true)]
    pub demo: bool,
    /// A folder Claude Code is started with `--add-dir` (its .claude/skills is scanned);
    /// repeatable.
    #[arg(long = "add-dir", global = true, value_name = "DIR")]
    pub add_dirs: Vec<PathBuf>,
    /// Colour in text output and the explorer: auto (a terminal, and NO_COLOR unset), always,
    /// never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
}

/// `--color`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour output on stdout: `always`, or `auto` on a terminal with `NO_COLOR`
    /// unset or empty (no-color.org).
    pub fn enabled(self) -> bool {
        use std::io::IsTerminal;
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stdout().is_terminal()
            }
        }
    }
}

/// The loaded models and environment (and the demo tree, kept alive while in use).
pub struct Context {
    pub models: Vec<AgentModel>,
    pub env: Env,
    /// Colour text output (`--color`, `NO_COLOR`).
    pub color: bool,
    _demo: Option<Demo>,
}

impl Context {
    pub fn new(c: &Common) -> Result<Context, String> {
        let models = match &c.model {
            Some(dir) => agents::load_dir(dir).map_err(|e| e.to_string())?,
            None => agents::builtin(),
        };
        if c.demo {
            let demo = Demo::create().map_err(|e| format!("cannot write the demo catalog: {e}"))?;
            let env = Env::new(&demo.project, &demo.home);
            return Ok(Context {
                models,
                env,
                color: c.color.enabled(),
                _demo: Some(demo),
            });
        }
        for (flag, dir) in [("--project", &c.project), ("--home", &c.home)] {
            if let Some(d) = dir
                && !d.is_dir()
            {
                return Err(format!("{flag} {}: not a folder", d.display()));
            }
        }
        let vars = agents::referenced_vars(&models);
        let mut env = Env::from_process(
            c.project.clone(),
            c.home.clone(),
            vars.iter().map(String::as_str),
        );
        for d in &c.add_dirs {
            env = env.with_add_dir(d);
        }
        Ok(Context {
            models,
            env,
            color: c.color.enabled(),
            _demo: None,
        })
    }

    /// An action's refusal as the command-line error, its paths shown as in the rest of the
    /// output.
    pub fn refused(&self, r: &crate::actions::Refusal) -> CliError {
        CliError::Refused(r.kind(), self.say(r.message()))
    }

    /// Tells that an action was applied: its title (paths shown as in the rest of the output),
    /// how to revert it and its journal entry. Every command that applies one says it so.
    pub fn report_applied(
        &self,
        out: &mut dyn std::io::Write,
        entry: &crate::actions::JournalEntry,
    ) -> std::io::Result<()> {
        writeln!(
            out,
            "Done: {} (`skilltui undo` reverts it; journal entry {})",
            self.say(&entry.title),
            entry.id
        )
    }

    pub fn catalog(&self) -> Catalog {
        Catalog::build(&self.models, &self.env)
    }

    /// Runs the watcher and calls `print` with each snapshot (the initial one with `None`, later
    /// ones with their update), flushing after each, until the output is closed or the watcher
    /// ends.
    pub fn watch(
        &self,
        out: &mut dyn std::io::Write,
        mut print: impl FnMut(
            &mut dyn std::io::Write,
            &Catalog,
            Option<&crate::watch::Update>,
        ) -> std::io::Result<()>,
    ) -> Outcome {
        let (tx, rx) = std::sync::mpsc::channel();
        let handle = crate::watch::spawn(
            std::sync::Arc::new(self.models.clone()),
            self.env.clone(),
            crate::watch::DEBOUNCE,
            move |r| tx.send(r).is_ok(),
        )?;
        for r in rx {
            match r {
                crate::watch::Report::Update(u) => {
                    let first = u.generation == 0;
                    print(out, &u.catalog, if first { None } else { Some(&u) })?;
                    out.flush()?;
                }
                crate::watch::Report::Warning(w) => {
                    eprintln!("skilltui: {}", sanitize::line(&w));
                }
                crate::watch::Report::Progress(_) => {}
            }
        }
        handle.join().map_err(CliError::Usage)?;
        Ok(ExitCode::Ok)
    }

    /// Checks `--agent` values against the loaded models.
    pub fn check_agents(&self, ids: &[String]) -> Result<(), String> {
        self.resolve_agents(ids).map(|_| ())
    }

    /// The agent ids for `--agent` values: each the id, the column label, the short label or
    /// the name of an agent (`copilot-cli`, `copilot`, `cp`, `GitHub Copilot CLI`, ignoring
    /// case, and the name without its vendor, `Copilot CLI`); an error lists the spellings.
    pub fn resolve_agents(&self, given: &[String]) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        for g in given {
            let id = agent_id(&self.models, g).ok_or_else(|| {
                let known: Vec<String> = self
                    .models
                    .iter()
                    .map(|m| spellings(m).join(" | "))
                    .collect();
                format!(
                    "unknown agent `{g}`; the agents are (id | column | name, any case): {}",
                    known.join("; ")
                )
            })?;
            if !out.contains(&id) {
                out.push(id);
            }
        }
        Ok(out)
    }

    /// Which agents a text view shows: `--all-agents`; the `--agent` values; the config file's
    /// `[agents] show`; else the agents in use on this machine, or the seed agents when none is
    /// found ([`crate::agents::default_selection`]). JSON always has every agent.
    pub fn shown_agents(&self, given: &[String], all: bool) -> Result<Shown, String> {
        let every: Vec<String> = self.models.iter().map(|m| m.id.clone()).collect();
        if all {
            return Ok(Shown {
                ids: every,
                why: ShownWhy::All,
            });
        }
        if !given.is_empty() {
            return Ok(Shown {
                ids: self.resolve_agents(given)?,
                why: ShownWhy::Flag,
            });
        }
        if let Some((path, names)) = configured_agents()? {
            let ids = self
                .resolve_agents(&names)
                .map_err(|e| format!("{}: [agents] show: {e}", sanitize::path(&path)))?;
            if !ids.is_empty() {
                return Ok(Shown {
                    ids,
                    why: ShownWhy::Config(path),
                });
            }
        }
        let (ids, found) = agents::default_selection(&self.models, &self.env);
        Ok(Shown {
            ids,
            why: if found {
                ShownWhy::InUse
            } else {
                ShownWhy::Seeds
            },
        })
    }

    /// `text` in an SGR colour (e.g. `1;31`) when colour is on, else as it is.
    pub fn paint(&self, sgr: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{sgr}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// A path for people: relative to the project, `~/…` under home, else absolute; escaped.
    pub fn show(&self, p: &Path) -> String {
        show_path(&self.env, p)
    }

    /// A message for people: project and home paths shortened, escaped.
    pub fn say(&self, message: &str) -> String {
        shorten(&self.env, message)
    }
}

/// The agents a text view shows, and why those.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// Agent ids, in model order for the defaults, as given for `--agent`.
    pub ids: Vec<String>,
    pub why: ShownWhy,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShownWhy {
    /// `--all-agents`.
    All,
    /// `--agent`.
    Flag,
    /// The config file's `[agents] show`.
    Config(PathBuf),
    /// Found in use on this machine.
    InUse,
    /// None found in use: the seed agents.
    Seeds,
}

impl Shown {
    /// A note for the end of a text view when it leaves agents out (None when it shows all).
    pub fn note(&self, total: usize) -> Option<String> {
        if self.ids.len() >= total {
            return None;
        }
        let why = match &self.why {
            ShownWhy::All | ShownWhy::Flag => "as chosen with --agent".to_string(),
            ShownWhy::Config(p) => format!("as [agents] show in {} says", sanitize::path(p)),
            ShownWhy::InUse => {
                "the agents in use on this machine (`skilltui agents` says why)".into()
            }
            ShownWhy::Seeds => {
                "no agent was found in use on this machine, so the seed agents".into()
            }
        };
        Some(format!(
            "Showing {} of {} agents: {why}; --all-agents shows every agent, --agent ID chooses.",
            self.ids.len(),
            total
        ))
    }
}

/// The config file's `[agents] show = [...]` (ids, column labels or names): the file is
/// `$SKILLTUI_CONFIG`, else `config.toml` in the platform's config folder. None when there is
/// no file or no such key; an error names the file.
pub fn configured_agents() -> Result<Option<(PathBuf, Vec<String>)>, String> {
    let path = match std::env::var_os("SKILLTUI_CONFIG").filter(|p| !p.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => match directories::ProjectDirs::from("", "", "skilltui") {
            Some(d) => d.config_dir().join("config.toml"),
            None => return Ok(None),
        },
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", sanitize::path(&path))),
    };
    let table: toml::Table = toml::from_str(&text)
        .map_err(|e| format!("{}: {}", sanitize::path(&path), e.message().trim()))?;
    let Some(show) = table.get("agents").and_then(|a| a.get("show")) else {
        return Ok(None);
    };
    let names: Option<Vec<String>> = match show {
        toml::Value::String(s) => Some(s.split(',').map(|s| s.trim().to_string()).collect()),
        toml::Value::Array(items) => items.iter().map(|i| i.as_str().map(String::from)).collect(),
        _ => None,
    };
    match names {
        Some(n) => Ok(Some((
            path,
            n.into_iter().filter(|s| !s.is_empty()).collect(),
        ))),
        None => Err(format!(
            "{}: [agents] show must be a list of agent ids",
            sanitize::path(&path)
        )),
    }
}

pub use crate::present::{shorten, show_path};

/// Every spelling `--agent` accepts for an agent: id, column label, short label, name, and the
/// name without its first word when it has more than two (`Copilot CLI`).
pub fn spellings(m: &AgentModel) -> Vec<String> {
    let mut out = vec![m.id.clone(), crate::present::short(&m.id).to_string()];
    if let Some(s) = &m.short {
        out.push(s.clone());
    }
    out.push(m.name.clone());
    // The name without a vendor word before it (`GitHub Copilot CLI` → `Copilot CLI`).
    let words: Vec<&str> = m.name.split_whitespace().collect();
    let first = crate::present::short(&m.id).to_lowercase();
    if words.len() > 2 && words[1].to_lowercase() == first {
        out.push(words[1..].join(" "));
    }
    let mut seen: Vec<String> = Vec::new();
    out.retain(|s| {
        let k = s.to_lowercase();
        let new = !seen.contains(&k);
        seen.push(k);
        new
    });
    out
}

/// The id of the agent that `given` spells (see [`spellings`]).
pub fn agent_id(models: &[AgentModel], given: &str) -> Option<String> {
    let g = given.trim().to_lowercase();
    models
        .iter()
        .find(|m| m.id == given)
        .or_else(|| {
            models
                .iter()
                .find(|m| spellings(m).iter().any(|s| s.to_lowercase() == g))
        })
        .map(|m| m.id.clone())
}
