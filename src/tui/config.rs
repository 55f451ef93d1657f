//! The explorer's config file: `[keys]` (action = key or list of keys) and `[theme]` (role =
//! colour), in TOML, in the platform's config folder (`$SKILLTUI_CONFIG` overrides the path).
//!
//! Only the explorer reads it. A broken file does not stop the explorer: it starts with the
//! defaults and says what is wrong, with the line and column, in its header.
//! `skilltui config check` reports the same error and exits 2.

use super::keys::{Action, Key, Keymap};
use super::theme::{self, Theme};
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// Overrides the config file's path (tests use it).
pub const CONFIG_VAR: &str = "SKILLTUI_CONFIG";

/// The explorer's settings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Config {
    pub keymap: Keymap,
    pub theme: Theme,
}

/// What is wrong with a config file, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    /// 1-based; 0 when the file cannot be read at all.
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = crate::sanitize::path(&self.path);
        if self.line == 0 {
            write!(f, "{p}: {}", self.message)
        } else {
            write!(f, "{p}:{}:{}: {}", self.line, self.column, self.message)
        }
    }
}

/// Where the config file is: `$SKILLTUI_CONFIG`, else `config.toml` in the platform's config
/// folder (`~/.config/skilltui` on Linux, `~/Library/Application Support/skilltui` on macOS,
/// `%APPDATA%\skilltui\config` on Windows). None without a home folder.
pub fn path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(CONFIG_VAR).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    directories::ProjectDirs::from("", "", "skilltui").map(|d| d.config_dir().join("config.toml"))
}

/// Reads the config file; the defaults when there is none.
pub fn load() -> Result<Config, ConfigError> {
    match path() {
        Some(p) => load_from(&p),
        None => Ok(Config::default()),
    }
}

/// Reads a config file; the defaults when it does not exist.
pub fn load_from(p: &Path) -> Result<Config, ConfigError> {
    match std::fs::read_to_string(p) {
        Ok(text) => parse(&text).map_err(|(line, column, message)| ConfigError {
            path: p.to_path_buf(),
            line,
            column,
            message,
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
        Err(e) => Err(ConfigError {
            path: p.to_path_buf(),
            line: 0,
            column: 0,
            message: format!("cannot read it: {e}"),
        }),
    }
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Parses a config file's text; an error is (line, column, message).
pub fn parse(text: &str) -> Result<Config, (usize, usize, String)> {
    let doc = DeTable::parse(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        error_at(text, span, e.message().to_string())
    })?;
    let mut config = Config::default();
    for (section, value) in doc.get_ref() {
        let DeValue::Table(table) = value.get_ref() else {
            return Err(error_at(
                text,
                section.span(),
                format!(
                    "`{}` must be a table ([keys] or [theme])",
                    section.get_ref()
                ),
            ));
        };
        match section.get_ref().as_ref() {
            "keys" => parse_keys(text, table, &mut config.keymap)?,
            "theme" => parse_theme(text, table, &mut config.theme)?,
            other => {
                return Err(error_at(
                    text,
                    section.span(),
                    format!("unknown section `[{other}]` (the sections are [keys] and [theme])"),
                ));
            }
        }
    }
    Ok(config)
}

/// A parse error: (line, column, message).
type ParseError = (usize, usize, String);

/// A parse error at a span of the text.
fn error_at(text: &str, span: Range<usize>, msg: String) -> ParseError {
    let (l, c) = line_col(text, span.start);
    (l, c, msg)
}

/// `[keys]`: each action's keys replace its defaults.
fn parse_keys(text: &str, table: &DeTable<'_>, keymap: &mut Keymap) -> Result<(), ParseError> {
    for (name, keys) in table {
        let Some(action) = Action::from_name(name.get_ref()) else {
            let names: Vec<String> = Action::all().iter().map(|a| a.name()).collect();
            return Err(error_at(
                text,
                name.span(),
                format!(
                    "unknown action `{}` (one of: {})",
                    name.get_ref(),
                    names.join(", ")
                ),
            ));
        };
        let mut parsed = Vec::new();
        for (s, span) in key_strings(text, name.get_ref(), keys)? {
            parsed.push(Key::parse(&s).map_err(|e| error_at(text, span, e))?);
        }
        keymap.remap(action, parsed);
    }
    Ok(())
}

/// An action's keys as written: one string or a list of strings, each with its span.
fn key_strings(
    text: &str,
    name: &str,
    keys: &Spanned<DeValue<'_>>,
) -> Result<Vec<(String, Range<usize>)>, ParseError> {
    match keys.get_ref() {
        DeValue::String(s) => Ok(vec![(s.to_string(), keys.span())]),
        DeValue::Array(a) => a
            .iter()
            .map(|k| match k.get_ref() {
                DeValue::String(s) => Ok((s.to_string(), k.span())),
                _ => Err(error_at(
                    text,
                    k.span(),
                    "a key is a string, such as \"q\" or \"ctrl-d\"".into(),
                )),
            })
            .collect(),
        _ => Err(error_at(
            text,
            keys.span(),
            format!("`{name}` takes a key or a list of keys, such as [\"j\", \"down\"]"),
        )),
    }
}

/// `[theme]`: each role's colour.
fn parse_theme(text: &str, table: &DeTable<'_>, theme: &mut Theme) -> Result<(), ParseError> {
    for (role, colour) in table {
        let names: Vec<&str> = Theme::ROLES.iter().map(|(n, _)| *n).collect();
        let Some(slot) = theme.role_mut(role.get_ref()) else {
            return Err(error_at(
                text,
                role.span(),
                format!(
                    "unknown colour role `{}` (one of: {})",
                    role.get_ref(),
                    names.join(", ")
                ),
            ));
        };
        let DeValue::String(s) = colour.get_ref() else {
            return Err(error_at(
                text,
                colour.span(),
                "a colour is a string, such as \"red\" or \"#88c0d0\"".into(),
            ));
        };
        *slot = theme::parse_color(s).map_err(|e| error_at(text, colour.span(), e))?;
    }
    Ok(())
}

/// A commented config file with every default (what `skilltui config init` writes): every
/// line is a comment, so the file changes nothing until a line is uncommented.
pub fn default_text() -> String {
    let mut out = String::from(
        "# skilltui's explorer settings. Uncomment a line to change it.\n\
         # `skilltui config check` checks this file; SKILLTUI_CONFIG points to another one.\n\
         \n\
         # Keys: action = a key or a list of keys. A key given to an action is taken from every\n\
         # other action. Keys: a character (\"q\", \"G\", \"?\"), ctrl-X, alt-X, esc, enter, tab,\n\
         # shift-tab, space, up, down, left, right, pageup, pagedown, home, end, backspace,\n\
         # delete, insert, f1…f12. Ctrl-C always quits.\n\
         [keys]\n",
    );
    let map = Keymap::default();
    for b in &map.bindings {
        let keys: Vec<String> = b
            .keys
            .iter()
            .map(|k| format!("{:?}", k.config_name()))
            .collect();
        out.push_str(&format!(
            "# {} = [{}]  # {}\n",
            b.action.name(),
            keys.join(", "),
            b.help
        ));
    }
    out.push_str(
        "\n# Colours per role: a name (red, lightblue, darkgray, reset…), #rrggbb, or 0-255.\n\
         [theme]\n",
    );
    let t = Theme::default();
    for (role, what) in Theme::ROLES {
        let c = t.role(role).unwrap_or_default();
        out.push_str(&format!(
            "# {role} = {:?}  # {what}\n",
            c.to_string().to_lowercase()
        ));
    }
    out
}
