//! `skilltui list`: every skill found, with one column per agent.

use super::context::{Common, Context};
use super::{CliError, EXIT_OK, Outcome};
use crate::agents::Scope;
use crate::catalog::{Catalog, Skill};
use crate::resolve::Status;
use crate::sanitize;
use std::io::{self, Write};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the catalog as JSON (stable keys; see README): schema 4, compact, rules and other
    /// shared parts written once and referenced by index.
    #[arg(long)]
    pub json: bool,
    /// The JSON schema version: 4 (compact, the default), 3 (compact, values written out where 4
    /// refers to a field) or 1 (the shape before the compact forms, every verdict in full, for
    /// scripts written against it); 2, the first compact form, is no longer written. Implies
    /// --json.
    #[arg(long, value_name = "N", visible_alias = "format-version", value_parser = clap::value_parser!(u32).range(1..=4))]
    pub json_schema: Option<u32>,
    /// Keep only these keys of each skill in the JSON (comma-separated or repeatable):
    /// skill keys (`path`, `name`, …, `agents`) and verdict keys as `agents.KEY`
    /// (`--fields path,agents.status`). Implies --json.
    #[arg(long, value_name = "FIELDS", value_delimiter = ',')]
    pub fields: Vec<String>,
    /// Keep running: print a fresh result after each change (JSON lines with --json).
    #[arg(long)]
    pub watch: bool,
    /// Show these agents' columns (repeatable or comma-separated; id, column label or name)
    /// [default: the config file's [agents] show, else the agents in use on this machine, else
    /// the seed agents]. JSON always has every agent.
    #[arg(long = "agent", value_name = "AGENT", value_delimiter = ',')]
    pub agents: Vec<String>,
    /// Show every agent's column.
    #[arg(long, conflicts_with = "agents")]
    pub all_agents: bool,
    /// Only skills in roots of this scope (repeatable).
    #[arg(long, value_enum, value_name = "SCOPE")]
    pub scope: Vec<ScopeArg>,
    /// Only skills with this status for one of the agents shown (repeatable).
    #[arg(long, value_enum, value_name = "STATUS")]
    pub status: Vec<StatusArg>,
}

/// `--scope`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ScopeArg {
    Project,
    User,
    System,
    Other,
}

impl ScopeArg {
    fn scope(self) -> Scope {
        match self {
            ScopeArg::Project => Scope::Project,
            ScopeArg::User => Scope::User,
            ScopeArg::System => Scope::System,
            ScopeArg::Other => Scope::Other,
        }
    }
}

/// `--status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StatusArg {
    Visible,
    Shadowed,
    Rejected,
    NotFound,
    Unknown,
}

impl StatusArg {
    fn status(self) -> Status {
        match self {
            StatusArg::Visible => Status::Visible,
            StatusArg::Shadowed => Status::Shadowed,
            StatusArg::Rejected => Status::Rejected,
            StatusArg::NotFound => Status::NotFound,
            StatusArg::Unknown => Status::Unknown,
        }
    }
}

/// What `list` keeps: the agents given with --agent (None: all, and JSON keeps every agent), the
/// scopes and the statuses (empty: any). Filters combine with AND; a status matches when one of the
/// agents shown has it.
#[derive(Debug, Clone, Default)]
struct Keep {
    agents: Option<Vec<String>>,
    /// The agents whose status `--status` looks at: the columns shown.
    status_agents: Vec<String>,
    scopes: Vec<Scope>,
    statuses: Vec<Status>,
}

impl Keep {
    fn new(args: &Args, cx: &Context, shown: &super::context::Shown) -> Result<Keep, String> {
        let agents = if args.agents.is_empty() {
            None
        } else {
            Some(cx.resolve_agents(&args.agents)?)
        };
        Ok(Keep {
            agents,
            status_agents: shown.ids.clone(),
            scopes: args.scope.iter().map(|s| s.scope()).collect(),
            statuses: args.status.iter().map(|s| s.status()).collect(),
        })
    }

    fn shows_agent(&self, id: &str) -> bool {
        self.agents
            .as_ref()
            .is_none_or(|a| a.iter().any(|x| x == id))
    }

    fn keeps(&self, s: &Skill) -> bool {
        (self.scopes.is_empty() || self.scopes.contains(&s.scope))
            && (self.statuses.is_empty()
                || s.verdicts.iter().any(|(a, v)| {
                    self.status_agents.iter().any(|s| **s == **a)
                        && self.statuses.contains(&v.status)
                }))
    }

    fn filters(&self) -> bool {
        self.agents.is_some() || !self.scopes.is_empty() || !self.statuses.is_empty()
    }

    /// The catalog with the skills kept (and, with --agent, only those agents' verdicts).
    fn apply(&self, cat: &Catalog) -> Catalog {
        if !self.filters() {
            return cat.clone();
        }
        let mut out = cat.clone();
        out.skills = cat
            .skills
            .iter()
            .filter(|s| self.keeps(s))
            .map(|s| {
                if self.agents.is_none() {
                    return s.clone();
                }
                let mut t = Skill::clone(s);
                t.verdicts.retain(|(a, _)| self.shows_agent(a));
                std::sync::Arc::new(t)
            })
            .collect();
        if self.agents.is_some() {
            out.agents.retain(|a| self.shows_agent(&a.id));
        }
        out
    }
}

/// One character per status (and `~` for visible but hidden from the model).
pub use crate::present::{LEGEND, column_labels, glyph, short};

pub fn run(args: &Args, common: &Common, out: &mut dyn Write) -> Outcome {
    let cx = Context::new(common)?;
    let shown = match cx.shown_agents(&args.agents, args.all_agents) {
        Ok(s) => s,
        Err(e) => return Err(CliError::Usage(e)),
    };
    let shown = &shown;
    let keep = match Keep::new(args, &cx, shown) {
        Ok(k) => k,
        Err(e) => return Err(CliError::Usage(e)),
    };
    let json = args.json || args.json_schema.is_some() || !args.fields.is_empty();
    let schema = args.json_schema.unwrap_or(crate::export::SCHEMA);
    if schema == 2 {
        return Err(CliError::Usage(
            "schema 2, the first compact form, is no longer written: its successor 3 adds the \
             `verdicts` table and `value_refs` (README: Migrating); use --json-schema 3, or 1 for \
             every verdict in full"
                .into(),
        ));
    }
    let fields = if args.fields.is_empty() {
        None
    } else {
        match crate::export::Fields::parse(&args.fields) {
            Ok(f) => Some(f),
            Err(e) => return Err(CliError::Usage(e)),
        }
    };
    if args.watch {
        return cx.watch(out, |out, cat, u| {
            let total = cat.skills.len();
            let cat = &keep.apply(cat);
            if json {
                crate::export::write(out, cat, schema, fields.as_ref(), true)
            } else {
                if let Some(u) = u {
                    writeln!(
                        out,
                        "── update {}: {} changed ──",
                        u.generation,
                        u.changed.len()
                    )?;
                }
                let each = &mut |row: &RowOf, f: &mut dyn FnMut(Row)| {
                    cat.skills.iter().for_each(|s| f(row(s)))
                };
                write_matrix(
                    out,
                    &cx,
                    (cat, each),
                    shown,
                    keep.filters().then_some(total),
                )
            }
        });
    }
    // The whole catalog as schema 4: streamed, without every verdict in memory at once.
    if json && schema == crate::export::SCHEMA && !keep.filters() {
        crate::export::write_stream(out, &cx.models, &cx.env, fields.as_ref())?;
        return Ok(EXIT_OK);
    }
    // The whole matrix: the skills made a batch at a time, only their rows kept.
    if !json && !keep.filters() {
        crate::catalog::with_skills(&cx.models, &cx.env, |header, skills| {
            // Each row is made on the core that made its skill (the skill freed there).
            let each = &mut |row: &RowOf, f: &mut dyn FnMut(Row)| {
                let _ = skills.for_each_with(
                    |s| row(&s),
                    |r| {
                        f(r);
                        Ok::<(), std::convert::Infallible>(())
                    },
                );
            };
            write_matrix(out, &cx, (header, each), shown, None)
        })?;
        return Ok(EXIT_OK);
    }
    let full = cx.catalog();
    let total = full.skills.len();
    let cat = keep.apply(&full);
    if json {
        crate::export::write(out, &cat, schema, fields.as_ref(), false)?;
    } else {
        let each =
            &mut |row: &RowOf, f: &mut dyn FnMut(Row)| cat.skills.iter().for_each(|s| f(row(s)));
        write_matrix(
            out,
            &cx,
            (&cat, each),
            shown,
            keep.filters().then_some(total),
        )?;
    }
    Ok(EXIT_OK)
}

/// Calls its second argument with the row its first argument makes of each skill (on any
/// core), in catalog order.
type EachSkill<'a> = dyn FnMut(&RowOf, &mut dyn FnMut(Row)) + 'a;

/// Makes a skill's row of the matrix.
type RowOf<'a> = dyn Fn(&Skill) -> Row + Sync + 'a;

/// A skill's row: its name (the column's width is known at the end) and the rest, and whether
/// an agent shown does not see it and whether it has spec problems.
struct Row {
    name: String,
    rest: String,
    invisible: bool,
    problems: bool,
}

/// The matrix of `skills` (each given once, in catalog order, by the first argument's
/// callback; only their rows are kept, so a catalog made a batch at a time is never whole),
/// with `cat`'s agents, roots and diagnostics.
fn write_matrix(
    out: &mut dyn Write,
    cx: &Context,
    (cat, skills): (&Catalog, &mut EachSkill),
    shown: &super::context::Shown,
    // The number of skills before the filters, when filtered.
    filtered: Option<usize>,
) -> io::Result<()> {
    // The columns shown, in the order chosen.
    let cols_at: Vec<usize> = shown
        .ids
        .iter()
        .filter_map(|id| cat.agents.iter().position(|a| &a.id == id))
        .collect();
    let labels = column_labels(&cx.models);
    let cols: Vec<&str> = cols_at
        .iter()
        .map(|&i| {
            cx.models
                .iter()
                .position(|m| m.id == cat.agents[i].id)
                .map_or_else(|| short(&cat.agents[i].id), |mi| labels[mi].as_str())
        })
        .collect();
    let row = |s: &Skill| {
        use std::fmt::Write as _;
        let mut rest = format!("  {:<7}", s.scope.as_str());
        for (&ai, c) in cols_at.iter().zip(&cols) {
            let Some((_, v)) = s.verdicts.get(ai) else {
                continue;
            };
            let w = c.chars().count();
            let _ = write!(rest, "  {}{}", glyph(v), " ".repeat(w.saturating_sub(1)));
        }
        let _ = write!(rest, "  {}", cx.show(&s.path));
        Row {
            name: sanitize::line(s.label()).into_owned(),
            rest,
            invisible: cols_at
                .iter()
                .filter_map(|&ai| s.verdicts.get(ai))
                .any(|(_, v)| v.status != Status::Visible),
            problems: !s.problems.is_empty(),
        }
    };
    let mut rows: Vec<(String, String)> = Vec::new();
    let (mut invisible, mut problems) = (0, 0);
    skills(&row, &mut |r| {
        invisible += usize::from(r.invisible);
        problems += usize::from(r.problems);
        rows.push((r.name, r.rest));
    });
    if rows.is_empty() && filtered.is_some() {
        writeln!(
            out,
            "No skill matches these filters. `skilltui list` without them lists every skill found."
        )?;
        return Ok(());
    }
    if rows.is_empty() {
        writeln!(
            out,
            "No skills found for {} (home {}). `skilltui roots` lists the folders the agents scan.",
            sanitize::path(&cat.project),
            sanitize::path(&cat.home)
        )?;
        return Ok(());
    }
    let name_w = rows
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(5)
        .clamp(5, 40);
    write!(out, "{:<name_w$}  {:<7}", "SKILL", "SCOPE")?;
    for c in &cols {
        write!(out, "  {c}")?;
    }
    writeln!(out, "  PATH")?;
    for (name, rest) in &rows {
        let name: String = if name.chars().count() > name_w {
            name.chars().take(name_w - 1).chain(['…']).collect()
        } else {
            name.clone()
        };
        let pad = name_w - name.chars().count();
        writeln!(out, "{name}{}{rest}", " ".repeat(pad))?;
    }
    writeln!(out)?;
    let of = filtered.map(|t| format!(" of {t}")).unwrap_or_default();
    let every = if filtered.is_some() {
        "every agent shown"
    } else {
        "every agent"
    };
    writeln!(
        out,
        "{}{of} skills, {} not visible to {every}, {} with spec problems. {LEGEND}",
        rows.len(),
        invisible,
        problems
    )?;
    writeln!(out, "`skilltui why NAME` explains a row.")?;
    if let Some(n) = shown.note(cat.agents.len()) {
        writeln!(out, "{n}")?;
    }
    for d in &cat.diagnostics {
        writeln!(out, "note: {}", sanitize::line(d))?;
    }
    Ok(())
}
