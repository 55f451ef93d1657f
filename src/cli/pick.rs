//! The skill a command-line argument names: a skill folder or its SKILL.md (relative to the
//! current folder, else to the project folder), else a frontmatter or folder name held by one
//! skill. A name several skills hold is ambiguous: the error lists the copies (path, root,
//! scope), and the command exits with the usage status.

use super::context::Context;
use crate::actions;
use crate::catalog::{Catalog, Skill};
use std::path::Path;

/// Why an argument names no single skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Miss {
    /// No skill at that path and none with that name: the message says so.
    NotFound(String),
    /// Several skills have that name (catalog order).
    Ambiguous {
        name: String,
        paths: Vec<std::path::PathBuf>,
    },
}

/// The skill `arg` names in `cat`.
pub fn skill<'a>(cat: &'a Catalog, arg: &Path) -> Result<&'a Skill, Miss> {
    let by_path = match actions::find_skill(cat, arg) {
        Ok(s) => return Ok(s),
        Err(r) => r,
    };
    let Some(name) = arg.to_str().filter(|n| !n.is_empty() && !n.contains('/')) else {
        return Err(Miss::NotFound(by_path.0));
    };
    let named: Vec<&Skill> = cat
        .skills
        .iter()
        .filter(|s| s.name.as_deref() == Some(name) || s.dir == name)
        .map(|s| &**s)
        .collect();
    match named.as_slice() {
        [one] => Ok(one),
        [] => Err(Miss::NotFound(format!(
            "no skill is named `{name}` and {name} is not a skill folder any agent's root holds (give a name, a skill folder or its SKILL.md; `skilltui list` shows them)"
        ))),
        many => Err(Miss::Ambiguous {
            name: name.to_string(),
            paths: many.iter().map(|s| s.path.clone()).collect(),
        }),
    }
}

/// The lines that list an ambiguous name's copies for people: the question, then per copy its
/// path, root and scope, then how to choose.
pub fn ambiguous_lines(
    cx: &Context,
    cat: &Catalog,
    name: &str,
    paths: &[std::path::PathBuf],
) -> Vec<String> {
    let rows: Vec<(String, String, &str)> = paths
        .iter()
        .filter_map(|p| cat.skill(p))
        .map(|s| {
            (
                cx.show(&s.path),
                s.root.as_deref().map_or("-".into(), |r| cx.show(r)),
                s.scope.as_str(),
            )
        })
        .collect();
    let pw = rows
        .iter()
        .map(|r| r.0.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let rw = rows
        .iter()
        .map(|r| r.1.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = vec![format!(
        "`{}` names {} skills; give the path of one:",
        crate::sanitize::line(name),
        rows.len()
    )];
    out.push(format!("  {:<pw$}  {:<rw$}  SCOPE", "PATH", "ROOT"));
    for (p, r, s) in &rows {
        out.push(format!("  {p:<pw$}  {r:<rw$}  {s}"));
    }
    out
}
