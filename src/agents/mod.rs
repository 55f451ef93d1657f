//! Agent models: the data that says how each coding agent finds and reads skills.
//!
//! The built-in models are the TOML files in `assets/agents/`, embedded at compile time.
//! `--model DIR` loads `*.toml` from a folder instead.

pub mod in_use;
pub mod model;
pub mod sources;

pub use in_use::{InUse, SEED_IDS, default_selection, in_use};
pub use model::*;
pub use sources::{Source, SourceKind, Sources, Strength};

use std::fmt;
use std::path::{Path, PathBuf};

/// The ids of the built-in agents, in display order.
pub const BUILTIN_IDS: [&str; 21] = [
    "claude-code",
    "codex",
    "copilot-cli",
    "antigravity",
    "cursor",
    "opencode",
    "pi",
    "gemini-cli",
    "qwen-code",
    "qoder-cli",
    "kilo",
    "factory-droid",
    "amp",
    "cline",
    "auggie",
    "crush",
    "goose",
    "continue",
    "letta-code",
    "mistral-vibe",
    "kimi-code",
];

const BUILTIN: [(&str, &str); 21] = [
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
    (
        "gemini-cli.toml",
        include_str!("../../assets/agents/gemini-cli.toml"),
    ),
    (
        "qwen-code.toml",
        include_str!("../../assets/agents/qwen-code.toml"),
    ),
    (
        "qoder-cli.toml",
        include_str!("../../assets/agents/qoder-cli.toml"),
    ),
    ("kilo.toml", include_str!("../../assets/agents/kilo.toml")),
    (
        "factory-droid.toml",
        include_str!("../../assets/agents/factory-droid.toml"),
    ),
    ("amp.toml", include_str!("../../assets/agents/amp.toml")),
    ("cline.toml", include_str!("../../assets/agents/cline.toml")),
    (
        "auggie.toml",
        include_str!("../../assets/agents/auggie.toml"),
    ),
    ("crush.toml", include_str!("../../assets/agents/crush.toml")),
    ("goose.toml", include_str!("../../assets/agents/goose.toml")),
    (
        "continue.toml",
        include_str!("../../assets/agents/continue.toml"),
    ),
    (
        "letta-code.toml",
        include_str!("../../assets/agents/letta-code.toml"),
    ),
    (
        "mistral-vibe.toml",
        include_str!("../../assets/agents/mistral-vibe.toml"),
    ),
    (
        "kimi-code.toml",
        include_str!("../../assets/agents/kimi-code.toml"),
    ),
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
    parse_model_text(file, text.to_string().into(), true)
}

/// [`parse_model`] of a text kept as it is (a built-in file's is not copied); `check_rules`:
/// check that the typed rules and the ones listed generically agree ([`rule_drift`]), which
/// parses the file a second time (the tests check it for the built-in files).
fn parse_model_text(
    file: &Path,
    text: std::borrow::Cow<'static, str>,
    check_rules: bool,
) -> Result<AgentModel, ModelError> {
    let mut model = parse_typed(file, &text)?;
    derive_ids(&mut model);
    model.raw = model::RawModel::new(text);
    assign_rule_ids(&mut model);
    let drift = if check_rules {
        rule_drift(&model)
    } else {
        None
    };
    match drift {
        Some(message) => Err(ModelError {
            file: file.to_path_buf(),
            line: None,
            column: None,
            snippet: None,
            message,
        }),
        None => Ok(model),
    }
}

/// The typed model of a file's text, checked ([`check_model`]).
fn parse_typed(file: &Path, text: &str) -> Result<AgentModel, ModelError> {
    let model: AgentModel = toml::from_str(text).map_err(|e| {
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
    Ok(model)
}

/// Gives every rule of the typed model its id and topic, once, from its place in the file
/// (`<agent>/<key path>`: `codex/roots.user-agents`, `claude-code/not_roots.agents-skills`,
/// `copilot-cli/fields.argument-hint.values.list`). This is the only place in skilltui that
/// spells a model key path; the resolver, findings and front ends copy the id from the rule.
/// [`rule_drift`] checks them against the rules found generically in the file.
fn assign_rule_ids(m: &mut AgentModel) {
    let agent = m.id.clone();
    m.roots_rule = roots_rule(m);
    visit_rules(m, &mut |from, key, topic, _| {
        // Field and value rules name their field too.
        let field = match topic {
            Topic::Field => key.strip_prefix("fields."),
            Topic::FieldValue => key
                .strip_prefix("fields.")
                .and_then(|k| k.rsplit_once(".values."))
                .map(|(f, _)| f),
            _ => None,
        };
        from.id = RuleId::agent_rule(&agent, &key, topic, field, from);
    });
}

/// The rule "the agent's roots are …": the model's root list as a whole, citing every root's
/// sources (each once), their citations and the weakest root's strength.
fn roots_rule(m: &AgentModel) -> RuleId {
    let mut cites: Vec<String> = Vec::new();
    let mut sources: Vec<Source> = Vec::new();
    let mut strength = None;
    for r in m.roots.iter().filter(|r| r.on_this_os()) {
        let c = r.from.citation();
        if !cites.contains(&c) {
            cites.push(c);
        }
        for s in r.from.source.iter() {
            if !sources.contains(s) {
                sources.push(s.clone());
            }
        }
        let st = r.from.strength();
        strength = Some(strength.map_or(st, |w: Strength| w.min(st)));
    }
    RuleId::summary_rule(
        &m.id,
        "roots",
        Topic::Root,
        format!(
            "the [[roots]] of assets/agents/{}.toml, each with its own source (`skilltui agents {}`)",
            m.id, m.id
        ),
        Sources(sources.into()),
        cites.join(" "),
        strength,
    )
}

/// What is wrong when the typed model's rule ids and the rules found generically in the file
/// ([`AgentModel::rules`], what `skilltui agents` lists) differ, so that the two cannot drift
/// apart: checked when a model file is loaded, and by the tests for the built-in files.
pub fn rule_drift(m: &AgentModel) -> Option<String> {
    use std::collections::BTreeSet;
    let mut placed: BTreeSet<String> = BTreeSet::new();
    visit_rules(&mut m.clone(), &mut |_, key, _, _| {
        placed.insert(key);
    });
    // The rules the file holds, found generically (the `roots` summary is not a rule of its
    // own): every one must have a place above, and every place must be one of them.
    let listed: BTreeSet<String> = m.rule_ids().into_iter().collect();
    if let Some(id) = listed.difference(&placed).next() {
        return Some(format!(
            "rule `{id}` is not a place the schema knows (its id would not reach a verdict)"
        ));
    }
    if let Some(id) = placed.difference(&listed).next() {
        return Some(format!(
            "rule `{id}` is not listed by `skilltui agents` (no `evidence` in its table?)"
        ));
    }
    None
}

/// Gives every not-root and former root without an `id` one derived from its path (unique in
/// its list: `-2`, `-3` … on a repeat); [`AgentModel::raw`] writes them into the table that
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
    let derive = |ids: Vec<(&mut String, &str)>| {
        let mut taken: std::collections::BTreeSet<String> = ids
            .iter()
            .filter(|(id, _)| !id.is_empty())
            .map(|(id, _)| id.to_string())
            .collect();
        for (id, path) in ids {
            if id.is_empty() {
                *id = unique(&mut taken, path_id(path));
            }
        }
    };
    derive(
        m.not_roots
            .iter_mut()
            .map(|r| (&mut r.id, r.path.as_str()))
            .collect(),
    );
    derive(
        m.former_roots
            .iter_mut()
            .map(|r| (&mut r.id, r.path.as_str()))
            .collect(),
    );
}

/// Every rule of a typed model (roots, settings, field and value rules included), with its key
/// path in the file, its topic and whether its value is unknown, in schema order.
type Visit<'a> = dyn FnMut(&mut Provenance, String, Topic, bool) + 'a;

fn visit_rules(m: &mut AgentModel, f: &mut Visit<'_>) {
    fn rule<T>(f: &mut Visit<'_>, r: &mut Rule<T>, key: String, topic: Topic) {
        let unknown = r.value.is_unknown();
        f(&mut r.from, key, topic, unknown);
    }
    fn opt<T>(f: &mut Visit<'_>, r: &mut Option<Rule<T>>, key: String, topic: Topic) {
        if let Some(r) = r.as_mut() {
            rule(f, r, key, topic);
        }
    }
    for r in &mut m.roots {
        let k = format!("roots.{}", r.id);
        f(&mut r.from, k.clone(), Topic::Root, false);
        opt(f, &mut r.walk, format!("{k}.walk"), Topic::RootWalk);
        opt(f, &mut r.no_git, format!("{k}.no_git"), Topic::RootWalk);
        opt(
            f,
            &mut r.git_marker,
            format!("{k}.git_marker"),
            Topic::RootWalk,
        );
        let e = format!("{k}.except_user_roots");
        opt(f, &mut r.except_user_roots, e, Topic::RootWalk);
        let t = &mut r.traversal;
        let k = format!("{k}.traversal");
        let rt = Topic::RootTraversal;
        opt(f, &mut t.max_depth, format!("{k}.max_depth"), rt);
        opt(f, &mut t.nested, format!("{k}.nested"), rt);
        opt(f, &mut t.hidden, format!("{k}.hidden"), rt);
        opt(f, &mut t.node_modules, format!("{k}.node_modules"), rt);
        opt(f, &mut t.ignore_files, format!("{k}.ignore_files"), rt);
        opt(f, &mut t.symlinked_dirs, format!("{k}.symlinked_dirs"), rt);
        opt(
            f,
            &mut t.skill_md_in_root,
            format!("{k}.skill_md_in_root"),
            rt,
        );
        opt(f, &mut t.loose_md, format!("{k}.loose_md"), rt);
    }
    for r in &mut m.former_roots {
        let unknown = r.until == "unknown";
        f(
            &mut r.from,
            format!("former_roots.{}", r.id),
            Topic::FormerRoot,
            unknown,
        );
    }
    for r in &mut m.not_roots {
        f(
            &mut r.from,
            format!("not_roots.{}", r.id),
            Topic::NotRoot,
            false,
        );
    }
    for s in &mut m.settings {
        let k = format!("settings.{}", s.id);
        f(&mut s.from, k.clone(), Topic::Setting, false);
        opt(f, &mut s.order, format!("{k}.order"), Topic::Setting);
        opt(f, &mut s.rank, format!("{k}.rank"), Topic::SettingRoot);
        opt(
            f,
            &mut s.wildcards,
            format!("{k}.wildcards"),
            Topic::Setting,
        );
    }
    let t = &mut m.traversal;
    let k = |key: &str| format!("traversal.{key}");
    rule(f, &mut t.max_depth, k("max_depth"), Topic::MaxDepth);
    opt(f, &mut t.max_dirs, k("max_dirs"), Topic::Traversal);
    rule(f, &mut t.nested, k("nested"), Topic::Traversal);
    rule(f, &mut t.hidden, k("hidden"), Topic::Traversal);
    rule(f, &mut t.node_modules, k("node_modules"), Topic::Traversal);
    rule(f, &mut t.ignore_files, k("ignore_files"), Topic::Traversal);
    opt(
        f,
        &mut t.ignore_anchoring,
        k("ignore_anchoring"),
        Topic::Traversal,
    );
    rule(
        f,
        &mut t.symlinked_dirs,
        k("symlinked_dirs"),
        Topic::Traversal,
    );
    rule(
        f,
        &mut t.symlinked_files,
        k("symlinked_files"),
        Topic::Traversal,
    );
    rule(
        f,
        &mut t.reported_path,
        k("reported_path"),
        Topic::Traversal,
    );
    rule(f, &mut t.file_name, k("file_name"), Topic::FileName);
    rule(
        f,
        &mut t.skill_md_in_root,
        k("skill_md_in_root"),
        Topic::Traversal,
    );
    rule(f, &mut t.loose_md, k("loose_md"), Topic::Traversal);
    let p = &mut m.parse;
    let k = |key: &str| format!("parse.{key}");
    rule(f, &mut p.yaml_library, k("yaml_library"), Topic::Parse);
    rule(f, &mut p.no_frontmatter, k("no_frontmatter"), Topic::Parse);
    rule(f, &mut p.bom, k("bom"), Topic::Parse);
    rule(
        f,
        &mut p.blank_first_line,
        k("blank_first_line"),
        Topic::Parse,
    );
    rule(
        f,
        &mut p.padded_delimiters,
        k("padded_delimiters"),
        Topic::Parse,
    );
    rule(f, &mut p.unclosed, k("unclosed"), Topic::Parse);
    rule(f, &mut p.yaml_repair, k("yaml_repair"), Topic::YamlError);
    rule(f, &mut p.yaml_error, k("yaml_error"), Topic::YamlError);
    rule(f, &mut p.duplicate_keys, k("duplicate_keys"), Topic::Parse);
    rule(
        f,
        &mut p.non_string_scalars,
        k("non_string_scalars"),
        Topic::Parse,
    );
    rule(f, &mut p.whitespace, k("whitespace"), Topic::Parse);
    opt(f, &mut p.timestamps, k("timestamps"), Topic::Parse);
    opt(f, &mut p.null_scalars, k("null_scalars"), Topic::Parse);
    let e = k("empty_block_is_mapping");
    opt(f, &mut p.empty_block_is_mapping, e, Topic::Parse);
    let n = &mut m.name_rules;
    let k = |key: &str| format!("name_rules.{key}");
    rule(f, &mut n.source, k("source"), Topic::NameSource);
    rule(f, &mut n.missing, k("missing"), Topic::NameMissing);
    rule(f, &mut n.empty, k("empty"), Topic::NameEmpty);
    rule(f, &mut n.length, k("length"), Topic::NameLength);
    rule(f, &mut n.charset, k("charset"), Topic::NameCharset);
    let fm = Topic::NameFolderMismatch;
    rule(f, &mut n.folder_mismatch, k("folder_mismatch"), fm);
    rule(f, &mut n.collision_key, k("collision_key"), Topic::Name);
    rule(f, &mut n.invoke, k("invoke"), Topic::Name);
    opt(f, &mut n.listed_spaces, k("listed_spaces"), Topic::Name);
    opt(f, &mut n.listed, k("listed"), Topic::Name);
    opt(f, &mut n.multiline, k("multiline"), Topic::Name);
    opt(
        f,
        &mut n.plugin_namespace,
        k("plugin_namespace"),
        Topic::Name,
    );
    let d = &mut m.description_rules;
    let k = |key: &str| format!("description_rules.{key}");
    rule(f, &mut d.missing, k("missing"), Topic::DescriptionMissing);
    rule(f, &mut d.empty, k("empty"), Topic::DescriptionEmpty);
    rule(f, &mut d.length, k("length"), Topic::DescriptionLength);
    opt(f, &mut d.listed, k("listed"), Topic::Description);
    let pr = &mut m.precedence;
    let k = |key: &str| format!("precedence.{key}");
    rule(f, &mut pr.mode, k("mode"), Topic::Precedence);
    rule(f, &mut pr.order, k("order"), Topic::PrecedenceOrder);
    rule(f, &mut pr.tie_break, k("tie_break"), Topic::PrecedenceOrder);
    rule(f, &mut pr.warns, k("warns"), Topic::PrecedenceOrder);
    for (field, fr) in &mut m.fields {
        let k = format!("fields.{field}");
        let unknown = fr.handling == Handling::Unknown;
        f(&mut fr.from, k.clone(), Topic::Field, unknown);
        for v in &mut fr.values {
            let unknown = v.outcome.is_unknown();
            let key = format!("{k}.{}", v.key());
            f(&mut v.from, key, Topic::FieldValue, unknown);
        }
    }
    let l = &mut m.listing;
    let k = |key: &str| format!("listing.{key}");
    rule(f, &mut l.entry, k("entry"), Topic::Listing);
    rule(f, &mut l.budget, k("budget"), Topic::Listing);
    rule(f, &mut l.bundled_files, k("bundled_files"), Topic::Listing);
    opt(
        f,
        &mut l.bundle_excludes,
        k("bundle_excludes"),
        Topic::Listing,
    );
    let e = k("frontmatter_reaches_model");
    rule(f, &mut l.frontmatter_reaches_model, e, Topic::Listing);
    if let Some(t) = m.trust.as_mut() {
        let k = |key: &str| format!("trust.{key}");
        rule(f, &mut t.scopes, k("scopes"), Topic::Trust);
        opt(f, &mut t.env, k("env"), Topic::Trust);
        opt(f, &mut t.file, k("file"), Topic::Trust);
        opt(f, &mut t.file_format, k("file_format"), Topic::Trust);
        rule(f, &mut t.default, k("default"), Topic::Trust);
    }
    for b in &mut m.bugs {
        f(
            &mut b.from,
            format!("bugs.{}", b.id),
            Topic::KnownBug,
            false,
        );
    }
    opt(f, &mut m.command, "command".into(), Topic::InUse);
    opt(f, &mut m.home, "home".into(), Topic::InUse);
    if let Some(b) = m.body.as_mut() {
        let k = |key: &str| format!("body.{key}");
        rule(f, &mut b.relative_paths, k("relative_paths"), Topic::Body);
        opt(
            f,
            &mut b.skill_dir_variable,
            k("skill_dir_variable"),
            Topic::Body,
        );
        rule(f, &mut b.scripts, k("scripts"), Topic::Body);
        let e = k("allowed_tools_changes_scripts");
        rule(f, &mut b.allowed_tools_changes_scripts, e, Topic::Body);
    }
}

/// One rule of a loaded model as typed: its provenance (with the id the loader gave it) and
/// whether its value is unknown.
#[derive(Debug, Clone)]
pub struct PlacedRule {
    pub from: Provenance,
    pub unknown: bool,
}

impl AgentModel {
    /// Every rule of the typed model with its id, in schema order (what the resolver can
    /// cite; [`AgentModel::rules`] is the same set found generically in the file).
    pub fn placed_rules(&self) -> Vec<PlacedRule> {
        let mut m = self.clone();
        let mut out = Vec::new();
        visit_rules(&mut m, &mut |from, _, _, unknown| {
            out.push(PlacedRule {
                from: from.clone(),
                unknown,
            })
        });
        out
    }
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
        if r.group.as_deref() == Some("") {
            return Err(err(format!("root `{}`: `group` must not be empty", r.id)));
        }
    }
    // Roots of one group are alternatives for one place: they must share a scope.
    for (i, r) in m.roots.iter().enumerate() {
        let Some(g) = &r.group else { continue };
        if let Some(o) = m.roots[..i]
            .iter()
            .find(|o| o.group.as_ref() == Some(g) && o.scope != r.scope)
        {
            return Err(err(format!(
                "root `{}` is in group `{g}` with `{}`, which has another scope",
                r.id, o.id
            )));
        }
    }
    let mut bugs = std::collections::BTreeSet::new();
    for b in &m.bugs {
        if b.id.is_empty() || !bugs.insert(b.id.as_str()) {
            return Err(err(format!("bug id `{}` is empty or appears twice", b.id)));
        }
    }
    if let Some(t) = &m.trust
        && t.file.is_some() != t.file_format.is_some()
    {
        return Err(err(
            "`trust.file` and `trust.file_format` go together".into()
        ));
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
        if let Some(t) = &m.trust {
            if let Some(Known::Known(v)) = t.env.as_ref().map(|r| &r.value) {
                out.insert(v.clone());
            }
            if let Some(Known::Known(f)) = t.file.as_ref().map(|r| &r.value) {
                out.extend(template_vars(f).map(String::from));
            }
        }
        if let Some(Known::Known(Names(homes))) = m.home.as_ref().map(|r| &r.value) {
            for h in homes {
                out.extend(template_vars(h).map(String::from));
            }
        }
    }
    out
}

/// Two models whose two-letter column titles ([`AgentModel::abbrev`]) are the same, said as
/// an error (narrow tables must tell every agent apart: set `short` in one of them).
pub fn label_clash(models: &[AgentModel]) -> Option<String> {
    let mut seen: std::collections::BTreeMap<String, &str> = Default::default();
    for m in models {
        let a = m.abbrev().to_lowercase();
        if let Some(other) = seen.insert(a.clone(), &m.id)
            && other != m.id
        {
            return Some(format!(
                "agents `{other}` and `{}` share the column title `{a}`: give one of them another `short`",
                m.id
            ));
        }
    }
    None
}

/// The built-in models, in [`BUILTIN_IDS`] order: parsed once per process (on the cores there
/// are, a share of the files each), then copied for each caller.
pub fn builtin() -> Vec<AgentModel> {
    static PARSED: std::sync::OnceLock<Vec<AgentModel>> = std::sync::OnceLock::new();
    PARSED.get_or_init(parse_builtin).clone()
}

fn parse_builtin() -> Vec<AgentModel> {
    crate::par::par_map(&BUILTIN, |(name, text)| {
        // The embedded files are checked by the test suite; a failure here is a build defect.
        let file = format!("assets/agents/{name}");
        parse_model_text(Path::new(&file), std::borrow::Cow::Borrowed(text), false)
            .unwrap_or_else(|e| panic!("embedded agent model is invalid: {e}"))
    })
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
    if let Some(message) = label_clash(&models) {
        return Err(ModelError {
            file: dir.to_path_buf(),
            line: None,
            column: None,
            snippet: None,
            message,
        });
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
