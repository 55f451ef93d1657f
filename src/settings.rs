//! The agents' own settings that add roots or disable or hide skills, read as the models'
//! `[[settings]]` entries describe them: files (JSON, JSONC, TOML, YAML), variables, command-line
//! folders. A file that does not parse is reported, never fatal.

use crate::agents::{
    AgentModel, PatternOrder, Scope, SettingEffect, SettingKind, SettingSpec, SettingsFormat,
    Wildcards,
};
use crate::env::Env;
use crate::pattern::NamePattern;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A folder a setting adds as a root.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtraRoot {
    pub agent: usize,
    pub setting: usize,
    pub path: PathBuf,
    /// Where it comes from: `skillDirectories in /home/u/.copilot/config.json`.
    pub origin: String,
}

/// What a setting selects.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Name(String),
    /// A SKILL.md file or its folder.
    Path(PathBuf),
    /// A name pattern (matched against the listed name, the folder name and the display name).
    Pattern(NamePattern),
    /// A permission pattern that decides for the listed name when it matches and none of the
    /// patterns after it (`unless`) does (the last matching pattern decides).
    Permission {
        pattern: NamePattern,
        unless: Vec<NamePattern>,
    },
}

/// A setting that disables or hides the skills it matches.
#[derive(Debug, Clone, PartialEq)]
pub struct Effector {
    pub agent: usize,
    pub setting: usize,
    pub target: Target,
    pub effect: SettingEffect,
    /// `skillOverrides.deploy = "off" in /p/.claude/settings.local.json`.
    pub origin: String,
}

/// Everything read from the agents' settings for one project.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    pub roots: Vec<ExtraRoot>,
    pub effects: Vec<Effector>,
    /// Files that exist but could not be read or parsed.
    pub problems: Vec<String>,
}

impl Target {
    /// Whether this target selects a skill. `names` holds the listed name first, then the
    /// folder name and the display name.
    pub fn matches(&self, names: &[&str], skill_md: &Path) -> bool {
        match self {
            Target::Name(n) => names.contains(&n.as_str()),
            Target::Path(p) => skill_md == p || skill_md.parent() == Some(p.as_path()),
            Target::Pattern(pattern) => names.iter().any(|n| pattern.matches(n)),
            Target::Permission { pattern, unless } => names
                .first()
                .is_some_and(|n| pattern.matches(n) && !unless.iter().any(|u| u.matches(n))),
        }
    }
}

pub use crate::pattern::wildcards_match;

/// JSONC as the agents read it: JSON with `//` and `/* */` comments and trailing commas,
/// nothing else of JSON5 (unquoted keys, single quotes, hexadecimal numbers are errors).
/// Object keys keep their order.
fn parse_jsonc(text: &str) -> Result<Value, String> {
    let options = jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    jsonc_parser::parse_to_serde_value::<Value>(text, &options).map_err(|e| e.to_string())
}

fn yaml_to_json(n: &crate::skill::Node) -> Value {
    use crate::skill::{Value as Y, YamlType};
    match &n.value {
        Y::Scalar { text, ty, .. } => match ty {
            YamlType::Null => Value::Null,
            YamlType::Bool => Value::Bool(text.eq_ignore_ascii_case("true")),
            YamlType::Int => text
                .parse::<i64>()
                .map(Value::from)
                .unwrap_or(Value::String(text.clone())),
            YamlType::Float => text
                .parse::<f64>()
                .map(Value::from)
                .unwrap_or(Value::String(text.clone())),
            _ => Value::String(text.clone()),
        },
        Y::Sequence(items) => Value::Array(items.iter().map(yaml_to_json).collect()),
        Y::Mapping(entries) => Value::Object(
            entries
                .iter()
                .map(|e| {
                    (
                        e.key.scalar_text().unwrap_or("").to_string(),
                        yaml_to_json(&e.value),
                    )
                })
                .collect(),
        ),
    }
}

/// Parses a settings file's text in `format` into a JSON value.
pub fn parse(text: &str, format: SettingsFormat) -> Result<Value, String> {
    match format {
        SettingsFormat::Json => serde_json::from_str(text).map_err(|e| e.to_string()),
        SettingsFormat::Jsonc => parse_jsonc(text),
        SettingsFormat::Toml => {
            let v: toml::Value = toml::from_str(text).map_err(|e| e.message().to_string())?;
            serde_json::to_value(v).map_err(|e| e.to_string())
        }
        SettingsFormat::Yaml => crate::skill::yaml::parse(text, 1, Default::default())
            .map(|n| yaml_to_json(&n))
            .map_err(|e| e.to_string()),
    }
}

/// The value at a dotted key path.
pub fn lookup<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    key.split('.').try_fold(v, |v, k| v.get(k))
}

/// Files larger than this are not read as settings.
const MAX_SETTINGS_BYTES: u64 = 1024 * 1024;

pub(crate) fn read_file(path: &Path) -> Option<Result<String, String>> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    if meta.len() > MAX_SETTINGS_BYTES {
        return Some(Err("larger than 1 MiB".into()));
    }
    Some(
        std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|b| String::from_utf8(b).map_err(|_| "not UTF-8".to_string())),
    )
}

fn expand_dir(env: &Env, raw: &str, base: &Path) -> Option<PathBuf> {
    env.expand(raw, base).ok()
}

/// The patterns one file gives a last-match permission key, waiting for the agent's other
/// files with the same key.
struct Pending {
    setting: usize,
    project: bool,
    key: String,
    /// (pattern, action, origin) in the file's order; `all`: one action for every name.
    rules: Vec<(String, String, String)>,
    all: bool,
}

/// Reads every agent's settings.
pub fn read(models: &[AgentModel], env: &Env) -> Settings {
    let mut out = Settings::default();
    for (ai, m) in models.iter().enumerate() {
        let mut pending = Vec::new();
        for (si, s) in m.settings.iter().enumerate() {
            read_one(&mut out, &mut pending, env, ai, si, m, s);
        }
        last_match(&mut out, pending, ai, m);
    }
    out
}

/// Merges the last-match permission files of one agent key by key (user files first, then
/// project files: see [`PatternOrder::LastMatch`]) and adds an effector for every `deny` that
/// decides where no later pattern matches.
fn last_match(out: &mut Settings, mut pending: Vec<Pending>, ai: usize, m: &AgentModel) {
    pending.sort_by_key(|p| p.project);
    let mut keys: Vec<String> = pending.iter().map(|p| p.key.clone()).collect();
    keys.dedup();
    keys.sort();
    keys.dedup();
    for key in keys {
        // (pattern, action, origin, setting)
        let mut merged: Vec<(String, String, String, usize)> = Vec::new();
        let mut all = false;
        for p in pending.iter().filter(|p| p.key == key) {
            if p.all || all {
                merged.clear();
            }
            all = p.all;
            for (pattern, action, origin) in &p.rules {
                match merged.iter_mut().find(|e| &e.0 == pattern) {
                    Some(e) => (e.1, e.2, e.3) = (action.clone(), origin.clone(), p.setting),
                    None => {
                        merged.push((pattern.clone(), action.clone(), origin.clone(), p.setting))
                    }
                }
            }
        }
        for (i, (pattern, action, origin, si)) in merged.iter().enumerate() {
            if action != "deny" {
                continue;
            }
            let s = &m.settings[*si];
            let effect = s.effect.unwrap_or(SettingEffect::Disabled);
            if effect == SettingEffect::None {
                continue;
            }
            let later = merged.len() - i - 1;
            out.effects.push(Effector {
                agent: ai,
                setting: *si,
                target: Target::Permission {
                    pattern: NamePattern::new(dialect(s), pattern),
                    unless: merged[i + 1..]
                        .iter()
                        .map(|e| NamePattern::new(dialect(s), &e.0))
                        .collect(),
                },
                effect,
                origin: if later == 0 {
                    format!("{origin}, the last pattern")
                } else {
                    format!("{origin}, the last pattern that matches it")
                },
            });
        }
    }
}

/// The wildcard dialect of a setting's patterns (`star` unless the model says otherwise).
fn dialect(s: &SettingSpec) -> Wildcards {
    s.wildcards
        .as_ref()
        .and_then(|r| r.known().copied())
        .unwrap_or(Wildcards::Star)
}

/// The settings file a setting reads, expanded for this environment (None: the setting has no
/// file, or its path does not expand).
fn file_path(env: &Env, s: &SettingSpec) -> Option<PathBuf> {
    if matches!(
        s.kind,
        SettingKind::Sidecar | SettingKind::CliDirs | SettingKind::EnvRootList
    ) {
        return None;
    }
    let file = s.file.as_deref()?;
    let base = if s.scope == Some(Scope::Project) {
        &env.project
    } else {
        &env.home
    };
    env.expand(file, base)
        .ok()
        .map(|p| crate::env::normalize(&p))
}

/// Every settings file the models read for this environment, and every agent's trust file,
/// whether it exists or not (what the watcher watches besides the roots; a change rescans).
pub fn files(models: &[AgentModel], env: &Env) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = models
        .iter()
        .flat_map(|m| m.settings.iter())
        .filter_map(|s| file_path(env, s))
        .collect();
    // The trust files decide which roots are read, like a settings file.
    out.extend(crate::trust::files(models, env));
    out.sort();
    out.dedup();
    out
}

fn push_root(
    out: &mut Settings,
    ai: usize,
    si: usize,
    dir: PathBuf,
    sub: Option<&str>,
    origin: String,
) {
    let path = match sub {
        Some(sub) => dir.join(sub),
        None => dir,
    };
    out.roots.push(ExtraRoot {
        agent: ai,
        setting: si,
        path: crate::env::normalize(&path),
        origin,
    });
}

fn read_one(
    out: &mut Settings,
    pending: &mut Vec<Pending>,
    env: &Env,
    ai: usize,
    si: usize,
    m: &AgentModel,
    s: &SettingSpec,
) {
    let sub = s.subpath.as_deref();
    match s.kind {
        SettingKind::Sidecar => {} // read per skill by the scanner
        SettingKind::CliDirs => {
            for d in &env.add_dirs {
                push_root(
                    out,
                    ai,
                    si,
                    d.clone(),
                    sub,
                    format!("--add-dir {}", d.display()),
                );
            }
        }
        SettingKind::EnvRootList => {
            let Some(var) = s.env.as_deref() else { return };
            let Some(value) = env.var(var) else { return };
            let sep = s.separator.as_deref().unwrap_or(",");
            for part in value.split(sep).map(str::trim).filter(|p| !p.is_empty()) {
                if let Some(dir) = expand_dir(env, part, &env.project) {
                    push_root(out, ai, si, dir, sub, format!("${var}"));
                }
            }
        }
        _ => read_from_file(out, pending, env, ai, si, m, s),
    }
}

/// A setting kept in a settings file: its value at the setting's key is interpreted, or held
/// back (`pending`) when its patterns apply last-match (they are applied once every file of the
/// agent is read).
fn read_from_file(
    out: &mut Settings,
    pending: &mut Vec<Pending>,
    env: &Env,
    ai: usize,
    si: usize,
    m: &AgentModel,
    s: &SettingSpec,
) {
    let (Some(path), Some(key)) = (file_path(env, s), s.key.as_deref()) else {
        return;
    };
    let Some(doc) = read_doc(out, m, s, &path) else {
        return;
    };
    let Some(v) = lookup(&doc, key) else { return };
    let at = |detail: String| format!("{detail} in {}", path.display());
    let last = s.order.as_ref().and_then(|o| o.known().copied()) == Some(PatternOrder::LastMatch);
    if s.kind == SettingKind::PatternPermissions && last {
        pending.extend(last_match_rules(si, s, key, v, at));
        return;
    }
    let base = if s.scope == Some(Scope::Project) {
        env.project.clone()
    } else {
        env.home.clone()
    };
    let file_dir = path.parent().unwrap_or(&base).to_path_buf();
    let reading = Reading {
        env,
        ai,
        si,
        s,
        key,
        file_dir: &file_dir,
        at,
    };
    reading.interpret(out, v);
}

/// The settings file at `path`, parsed. None when it is missing, or (a problem) when it cannot
/// be read or does not parse.
fn read_doc(out: &mut Settings, m: &AgentModel, s: &SettingSpec, path: &Path) -> Option<Value> {
    let text = match read_file(path)? {
        Err(e) => {
            out.problems.push(format!(
                "{}: {}: cannot read it ({e})",
                m.id,
                path.display()
            ));
            return None;
        }
        Ok(t) => t,
    };
    let format = s.format.unwrap_or(SettingsFormat::Json);
    match parse(&text, format) {
        Ok(v) => Some(v),
        Err(e) => {
            out.problems.push(format!(
                "{}: {}: does not parse, its settings are not applied ({e})",
                m.id,
                path.display()
            ));
            None
        }
    }
}

/// A last-match permission setting's rules (`"action"` for every name, or
/// `{pattern: action}`), kept until every file is read; None for a value of another shape.
fn last_match_rules(
    si: usize,
    s: &SettingSpec,
    key: &str,
    v: &Value,
    at: impl Fn(String) -> String,
) -> Option<Pending> {
    let rules: Vec<(String, String, String)> = match v {
        Value::String(action) => vec![(
            "*".to_string(),
            action.clone(),
            at(format!("`{key} = \"{action}\"`")),
        )],
        Value::Object(map) => map
            .iter()
            .filter_map(|(pattern, action)| {
                let action = action.as_str()?;
                let origin = at(format!("`{key}.\"{pattern}\" = \"{action}\"`"));
                Some((pattern.clone(), action.to_string(), origin))
            })
            .collect(),
        _ => return None,
    };
    Some(Pending {
        setting: si,
        project: s.scope == Some(Scope::Project),
        key: key.to_string(),
        all: v.is_string(),
        rules,
    })
}

/// One setting's value being read: whose setting it is, the folder of the file it is in (for
/// relative paths) and how its origin is said (`at`).
struct Reading<'a, F: Fn(String) -> String> {
    env: &'a Env,
    ai: usize,
    si: usize,
    s: &'a SettingSpec,
    key: &'a str,
    file_dir: &'a Path,
    at: F,
}

impl<F: Fn(String) -> String> Reading<'_, F> {
    /// The effects and roots `v` sets, by the setting's kind.
    fn interpret(&self, out: &mut Settings, v: &Value) {
        match self.s.kind {
            SettingKind::NameStates => self.name_states(out, v),
            SettingKind::NameList => self.name_list(out, v),
            SettingKind::Entries => self.entries(out, v),
            SettingKind::RootList => self.root_list(out, v),
            SettingKind::PatternPermissions => self.pattern_permissions(out, v),
            SettingKind::PiPatterns => self.pi_patterns(out, v),
            SettingKind::Sidecar | SettingKind::CliDirs | SettingKind::EnvRootList => {}
        }
    }

    /// The setting's effect (disabled unless the model says otherwise).
    fn effect(&self) -> SettingEffect {
        self.s.effect.unwrap_or(SettingEffect::Disabled)
    }

    /// Records an effect on `target` (an effect of `None` records nothing).
    fn add(&self, out: &mut Settings, target: Target, effect: SettingEffect, detail: String) {
        if effect != SettingEffect::None {
            out.effects.push(Effector {
                agent: self.ai,
                setting: self.si,
                target,
                effect,
                origin: (self.at)(detail),
            });
        }
    }

    /// `{name: state}`: each state the model knows sets its effect on that name.
    fn name_states(&self, out: &mut Settings, v: &Value) {
        let (s, key) = (self.s, self.key);
        for (name, state) in v.as_object().into_iter().flatten() {
            let Some(state) = state.as_str() else {
                continue;
            };
            if let Some(e) = s.states.get(state) {
                let detail = format!("`{key}.{name} = \"{state}\"`");
                self.add(out, Target::Name(name.clone()), *e, detail);
            }
        }
    }

    /// `[name, ...]`: the effect on each name.
    fn name_list(&self, out: &mut Settings, v: &Value) {
        let key = self.key;
        for name in v.as_array().into_iter().flatten().filter_map(Value::as_str) {
            let detail = format!("`{name}` in `{key}`");
            self.add(out, Target::Name(name.into()), self.effect(), detail);
        }
    }

    /// `[{name | path, enabled: false}, ...]`: the effect on each disabled entry's name, or else
    /// its path.
    fn entries(&self, out: &mut Settings, v: &Value) {
        let key = self.key;
        for e in v.as_array().into_iter().flatten() {
            if e.get("enabled").and_then(Value::as_bool) != Some(false) {
                continue;
            }
            if let Some(name) = e.get("name").and_then(Value::as_str) {
                let detail = format!("`{key}` entry name = \"{name}\", enabled = false");
                self.add(out, Target::Name(name.into()), self.effect(), detail);
            } else if let Some(p) = e.get("path").and_then(Value::as_str) {
                let path =
                    expand_dir(self.env, p, self.file_dir).unwrap_or_else(|| PathBuf::from(p));
                let detail = format!("`{key}` entry path = \"{p}\", enabled = false");
                self.add(out, Target::Path(path), self.effect(), detail);
            }
        }
    }

    /// `[folder, ...]`: more roots (relative to the project).
    fn root_list(&self, out: &mut Settings, v: &Value) {
        let (env, key) = (self.env, self.key);
        for p in v.as_array().into_iter().flatten().filter_map(Value::as_str) {
            if let Some(dir) = expand_dir(env, p, &env.project) {
                let origin = (self.at)(format!("`{p}` in `{key}`"));
                push_root(
                    out,
                    self.ai,
                    self.si,
                    dir,
                    self.s.subpath.as_deref(),
                    origin,
                );
            }
        }
    }

    /// `"deny"` or `{pattern: action}`: the effect on the names each denying pattern matches.
    fn pattern_permissions(&self, out: &mut Settings, v: &Value) {
        let (s, key) = (self.s, self.key);
        if let Some(action) = v.as_str() {
            if action == "deny" {
                let target = Target::Pattern(NamePattern::new(dialect(s), "*"));
                self.add(out, target, self.effect(), format!("`{key} = \"deny\"`"));
            }
        } else if let Some(map) = v.as_object() {
            for (pattern, action) in map {
                if action.as_str() == Some("deny") {
                    let target = Target::Pattern(NamePattern::new(dialect(s), pattern));
                    let detail = format!("`{key}.\"{pattern}\" = \"deny\"`");
                    self.add(out, target, self.effect(), detail);
                }
            }
        }
    }

    /// pi's `[entry, ...]`: `!pattern` excludes names, `-path` excludes a path, `+path` or a
    /// bare path adds a root (relative to the settings file).
    fn pi_patterns(&self, out: &mut Settings, v: &Value) {
        let (env, s, key, file_dir) = (self.env, self.s, self.key, self.file_dir);
        for entry in v.as_array().into_iter().flatten().filter_map(Value::as_str) {
            if let Some(p) = entry.strip_prefix('!') {
                let target = Target::Pattern(NamePattern::new(dialect(s), p));
                self.add(out, target, self.effect(), format!("`!{p}` in `{key}`"));
            } else if let Some(p) = entry.strip_prefix('-') {
                let path = expand_dir(env, p, file_dir).unwrap_or_else(|| PathBuf::from(p));
                self.add(
                    out,
                    Target::Path(path),
                    self.effect(),
                    format!("`-{p}` in `{key}`"),
                );
            } else {
                let p = entry.strip_prefix('+').unwrap_or(entry);
                if let Some(dir) = expand_dir(env, p, file_dir) {
                    let origin = (self.at)(format!("`{entry}` in `{key}`"));
                    push_root(out, self.ai, self.si, dir, None, origin);
                }
            }
        }
    }
}

/// A sidecar's effect on one skill folder: reads `dir/<file>` and compares `key` with `when`.
pub fn sidecar(s: &SettingSpec, skill_dir: &Path) -> Option<Result<String, String>> {
    let (file, key) = (s.file.as_deref()?, s.key.as_deref()?);
    let path = skill_dir.join(file);
    let text = match read_file(&path)? {
        Ok(t) => t,
        Err(e) => return Some(Err(format!("{}: cannot read it ({e})", path.display()))),
    };
    let doc = match parse(&text, s.format.unwrap_or(SettingsFormat::Yaml)) {
        Ok(d) => d,
        Err(e) => return Some(Err(format!("{}: does not parse ({e})", path.display()))),
    };
    let v = lookup(&doc, key)?;
    let want = s.when.as_ref().and_then(|w| serde_json::to_value(w).ok())?;
    (v == &want).then(|| Ok(format!("`{key}: {v}` in {}", path.display())))
}
