//! Agent models: the data that says how each coding agent finds and reads skills.
//!
//! The built-in models are the TOML files in `assets/agents/`, embedded at compile time.
//! `--model DIR` loads `*.toml` from a folder instead.

pub mod model;
pub mod sources;

pub use model::*;
pub use sources::{Source, SourceKind, Sources, Strength};

use std::fmt;
use std::path::{Path, PathBuf};

/// The ids of the built-in agents, in display order.
pub const BUILTIN_IDS: [&str; 7] = [
    "claude-code",
    "codex",
    "copilot-cli",
    "antigravity",
    "cursor",
    "opencode",
    "pi",
];

const BUILTIN: [(&str, &str); 7] = [
    (
        "claude-code.toml",
        include_str!("../../assets/agents/claude-code.toml"),
    ),
    ("codex.toml", include_str!("../../assets/agents/codex.toml")),
    (
        "copilot-cli.toml",
        include_str!("../../assets/agents/copilot-cli.toml"),
    ),
    (
        "antigravity.toml",
        include_str!("../../assets/agents/antigravity.toml"),
    ),
    (
        "cursor.toml",
        include_str!("../../assets/agents/cursor.toml"),
    ),
    (
        "opencode.toml",
        include_str!("../../assets/agents/opencode.toml"),
    ),
    ("pi.toml", include_str!("../../assets/agents/pi.toml")),
];

/// A model file that could not be loaded: names the file, line, column and the offending line.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelError {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// The text of the offending line (it usually names the key).
    pub snippet: Option<String>,
    pub message: String,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        write!(f, ": invalid agent model: {}", self.message)?;
        if let Some(s) = &self.snippet {
            write!(f, "\n  | {s}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ModelError {}

/// Parses one model file's text. `file` is only used in errors.
pub fn parse_model(file: &Path, text: &str) -> Result<AgentModel, ModelError> {
    let mut model: AgentModel = toml::from_str(text).map_err(|e| {
        let (line, column, snippet) = match e.span() {
            Some(span) => {
                let start = span.start.min(text.len());
                let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
                let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
                let line_no = text[..start].matches('\n').count() + 1;
                let col = text[line_start..start].chars().count() + 1;
                (
                    Some(line_no),
                    Some(col),
                    Some(text[line_start..line_end].trim_end().to_string()),
                )
            }
            None => (None, None, None),
        };
        ModelError {
            file: file.to_path_buf(),
            line,
            column,
            snippet,
            message: e.message().trim().to_string(),
        }
    })?;
    check_model(file, &model)?;
    model.raw = toml::from_str(text).unwrap_or_default();
    derive_ids(&mut model);
    Ok(model)
}

/// Gives every not-root and former root without an `id` one derived from its path (unique in
/// its list: `-2`, `-3` … on a repeat), in the typed model and in the raw table that
/// [`AgentModel::rules`] walks, so that verdicts and `skilltui agents` name the same rule.
fn derive_ids(m: &mut AgentModel) {
    fn unique(taken: &mut std::collections::BTreeSet<String>, base: String) -> String {
        let mut id = base.clone();
        let mut n = 2;
        while !taken.insert(id.clone()) {
            id = format!("{base}-{n}");
            n += 1;
        }
        id
    }
    let mut derive = |key: &str, ids: Vec<(&mut String, &str)>| {
        let mut taken: std::collections::BTreeSet<String> = ids
            .iter()
            .filter(|(id, _)| !id.is_empty())
            .map(|(id, _)| id.to_string())
            .collect();
        let mut all = Vec::new();
        for (id, path) in ids {
            if id.is_empty() {
                *id = unique(&mut taken, path_id(path));
            }
            all.push(id.clone());
        }
        if let Some(toml::Value::Array(items)) = m.raw.get_mut(key) {
            for (item, id) in items.iter_mut().zip(all) {
                if let toml::Value::Table(t) = item {
                    t.insert("id".into(), toml::Value::String(id));
                }
            }
        }
    };
    derive(
        "not_roots",
        m.not_roots
            .iter_mut()
            .map(|r| (&mut r.id, r.path.as_str()))
            .collect(),
    );
    derive(
        "former_roots",
        m.former_roots
            .iter_mut()
            .map(|r| (&mut r.id, r.path.as_str()))
            .collect(),
    );
}

/// Checks that go beyond the schema: unique root ids, project-only walk fields.
fn check_model(file: &Path, m: &AgentModel) -> Result<(), ModelError> {
    let err = |message: String| ModelError {
        file: file.to_path_buf(),
        line: None,
        column: None,
        snippet: None,
        message,
    };
    if m.id.is_empty() {
        return Err(err("`id` must not be empty".into()));
    }
    let mut seen = std::collections::BTreeSet::new();
    for r in &m.roots {
        if !seen.insert(r.id.as_str()) {
            return Err(err(format!("root id `{}` appears twice", r.id)));
        }
        if r.scope != Scope::Project && (r.walk.is_some() || r.no_git.is_some()) {
            return Err(err(format!(
                "root `{}`: `walk` and `no_git` apply to project roots only",
                r.id
            )));
        }
        if r.scope == Scope::Project && r.walk.is_none() {
            return Err(err(format!("project root `{}` needs `walk`", r.id)));
        }
    }
    Ok(())
}

/// Every environment variable the models read: in root and settings path templates, in
/// `unless_env`/`when_env`, and settings' `env`. An agent added with `--model DIR` brings its
/// own variables; nothing is listed in Rust.
pub fn referenced_vars(models: &[AgentModel]) -> std::collections::BTreeSet<String> {
    use crate::env::template_vars;
    let mut out = std::collections::BTreeSet::new();
    for m in models {
        for r in &m.roots {
            out.extend(template_vars(&r.path).map(String::from));
            out.extend(r.unless_env.iter().cloned());
        }
        for f in &m.former_roots {
            out.extend(template_vars(&f.path).map(String::from));
            out.extend(f.when_env.iter().cloned());
        }
        for n in &m.not_roots {
            out.extend(template_vars(&n.path).map(String::from));
        }
        for s in &m.settings {
            if let Some(file) = &s.file {
                out.extend(template_vars(file).map(String::from));
            }
            out.extend(s.env.iter().cloned());
        }
    }
    out
}

/// The built-in models, in [`BUILTIN_IDS`] order.
pub fn builtin() -> Vec<AgentModel> {
    BUILTIN
        .iter()
        .map(|(name, text)| {
            // The embedded files are checked by the test suite; a failure here is a build defect.
            parse_model(Path::new(&format!("assets/agents/{name}")), text)
                .unwrap_or_else(|e| panic!("embedded agent model is invalid: {e}"))
        })
        .collect()
}

/// Loads every `*.toml` in `dir`, sorted: built-in ids first in their order, others by id.
pub fn load_dir(dir: &Path) -> Result<Vec<AgentModel>, ModelError> {
    let io_err = |p: &Path, e: std::io::Error| ModelError {
        file: p.to_path_buf(),
        line: None,
        column: None,
        snippet: None,
        message: e.to_string(),
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| io_err(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(io_err(
            dir,
            std::io::Error::new(std::io::ErrorKind::NotFound, "no *.toml agent model here"),
        ));
    }
    let mut models = Vec::new();
    for f in files {
        let bytes = std::fs::read(&f).map_err(|e| io_err(&f, e))?;
        let text = String::from_utf8(bytes).map_err(|_| ModelError {
            file: f.clone(),
            line: None,
            column: None,
            snippet: None,
            message: "not UTF-8".into(),
        })?;
        models.push(parse_model(&f, &text)?);
    }
    let mut ids = std::collections::BTreeSet::new();
    for m in &models {
        if !ids.insert(m.id.clone()) {
            return Err(ModelError {
                file: dir.to_path_buf(),
                line: None,
                column: None,
                snippet: None,
                message: format!("agent id `{}` is defined twice", m.id),
            });
        }
    }
    models.sort_by_key(|m| {
        let pos = BUILTIN_IDS
            .iter()
            .position(|id| *id == m.id)
            .unwrap_or(BUILTIN_IDS.len());
        (pos, m.id.clone())
    });
    Ok(models)
}
