//! The catalog: an immutable snapshot of every skill file any agent could load in a project,
//! with one verdict per agent. Front ends (CLI, explorer) only read it.

use crate::agents::{AgentModel, Scope};
use crate::env::Env;
use crate::resolve::{self, Status, Verdict};
use crate::scan::{self, Scan};
use crate::skill::SkillMd;
use crate::spec::{self, Problem};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Serialize)]
pub struct AgentInfo {
    pub id: String,
    pub name: String,
    pub version: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct RootInfo {
    pub path: PathBuf,
    pub scope: Scope,
    pub exists: bool,
    /// Agents that scan this folder.
    pub agents: Vec<String>,
    /// Candidate files found below it.
    pub files: usize,
}

/// One SKILL.md (or loose `*.md` an agent loads).
#[derive(Debug, Clone)]
pub struct Skill {
    pub path: PathBuf,
    /// The folder name (the file stem for a loose `foo.md`).
    pub dir: String,
    /// The frontmatter `name` when it is a string.
    pub name: Option<String>,
    pub description: Option<String>,
    pub root: Option<PathBuf>,
    pub scope: Scope,
    /// Findings against the specification.
    pub problems: Vec<Problem>,
    /// Top-level frontmatter keys in file order.
    pub keys: Vec<String>,
    /// The first lines of the file (at most 80 lines or 8 KiB), for showing the frontmatter and
    /// pointing at errors without reading the file again.
    pub head: String,
    /// (agent id, verdict) in agent order.
    pub verdicts: Vec<(String, Verdict)>,
}

impl Skill {
    /// The name to show: frontmatter name, else the folder name.
    pub fn label(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.dir)
    }

    pub fn verdict(&self, agent: &str) -> Option<&Verdict> {
        self.verdicts
            .iter()
            .find(|(a, _)| a == agent)
            .map(|(_, v)| v)
    }
}

#[derive(Serialize)]
struct ProblemJson<'a> {
    code: &'a str,
    severity: &'a str,
    message: &'a str,
    line: Option<usize>,
    column: Option<usize>,
}

impl Serialize for Skill {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Verdicts<'a>(&'a [(String, Verdict)]);
        impl Serialize for Verdicts<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(self.0.len()))?;
                for (k, v) in self.0 {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
        let problems: Vec<ProblemJson> = self
            .problems
            .iter()
            .map(|p| ProblemJson {
                code: p.code,
                severity: p.severity.as_str(),
                message: &p.message,
                line: p.line,
                column: p.column,
            })
            .collect();
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("path", &self.path)?;
        m.serialize_entry("dir", &self.dir)?;
        m.serialize_entry("name", &self.name)?;
        m.serialize_entry("description", &self.description)?;
        m.serialize_entry("root", &self.root)?;
        m.serialize_entry("scope", &self.scope)?;
        m.serialize_entry("problems", &problems)?;
        m.serialize_entry("agents", &Verdicts(&self.verdicts))?;
        m.end()
    }
}

/// The snapshot.
#[derive(Debug, Clone, Serialize)]
pub struct Catalog {
    pub project: PathBuf,
    pub home: PathBuf,
    pub git_root: Option<PathBuf>,
    pub agents: Vec<AgentInfo>,
    pub roots: Vec<RootInfo>,
    pub skills: Vec<Skill>,
    /// Folders that could not be read, walk bounds hit.
    pub diagnostics: Vec<String>,
}

impl Catalog {
    /// Scans and resolves.
    pub fn build(models: &[AgentModel], env: &Env) -> Catalog {
        let scan = scan::scan(models, env);
        Catalog::from_scan(models, &scan)
    }

    pub fn from_scan(models: &[AgentModel], scan: &Scan) -> Catalog {
        let entries = resolve::entries(scan);
        let per_agent: Vec<Vec<Verdict>> = (0..models.len())
            .map(|ai| resolve::resolve_agent(models, ai, scan, &entries))
            .collect();
        let mut skills = Vec::new();
        for (ei, e) in entries.iter().enumerate() {
            let c = e.candidate(scan);
            let verdicts: Vec<(String, Verdict)> = models
                .iter()
                .zip(&per_agent)
                .map(|(m, vs)| (m.id.clone(), vs[ei].clone()))
                .collect();
            // A loose `foo.md` is a skill only if some agent may load it.
            if !c.is_skill_md() && verdicts.iter().all(|(_, v)| v.status == Status::NotFound) {
                continue;
            }
            // The most specific walked root holding it, and its scope.
            let (wi, _) = e
                .found
                .iter()
                .copied()
                .max_by_key(|(wi, _)| scan.walked[*wi].path.components().count())
                .unwrap_or(e.found[0]);
            let root = scan.walked[wi].path.clone();
            let scope = scan
                .agent_roots
                .iter()
                .find(|r| r.path == root)
                .map(|r| r.scope)
                .unwrap_or(Scope::Other);
            let dir = resolve::fallback_name(c, &root);
            let head = match scan.content(&e.path).map(|a| &**a) {
                Some(Ok(md)) => head_of(&md.text),
                _ => String::new(),
            };
            let (name, description, keys, problems) = match scan.content(&e.path).map(|a| &**a) {
                Some(Ok(md)) => describe(md, &dir),
                Some(Err(err)) => (
                    None,
                    None,
                    Vec::new(),
                    vec![Problem {
                        code: err.code(),
                        severity: spec::Severity::Error,
                        message: err.to_string(),
                        line: err.line(),
                        column: err.column(),
                    }],
                ),
                None => (None, None, Vec::new(), Vec::new()),
            };
            let verdicts = verdicts
                .into_iter()
                .zip(models)
                .map(|((id, mut v), m)| {
                    v.fields = resolve::field_handling(m, &keys);
                    (id, v)
                })
                .collect();
            skills.push(Skill {
                path: e.path.clone(),
                dir,
                name,
                description,
                root: Some(root),
                scope,
                problems,
                keys,
                head,
                verdicts,
            });
        }
        skills.sort_by(|a, b| (a.label(), &a.path).cmp(&(b.label(), &b.path)));

        let mut roots: Vec<RootInfo> = Vec::new();
        for r in scan.agent_roots.iter().filter(|r| resolve::scanned(r)) {
            let agent = models[r.agent].id.clone();
            match roots
                .iter_mut()
                .find(|x| x.path == r.path && x.scope == r.scope)
            {
                Some(x) => {
                    if !x.agents.contains(&agent) {
                        x.agents.push(agent);
                    }
                }
                None => {
                    let w = scan.walked(&r.path);
                    roots.push(RootInfo {
                        path: r.path.clone(),
                        scope: r.scope,
                        exists: w.is_some_and(|w| w.exists),
                        agents: vec![agent],
                        files: w.map_or(0, |w| w.candidates.len()),
                    });
                }
            }
        }
        roots.sort_by(|a, b| (a.scope, &a.path).cmp(&(b.scope, &b.path)));

        let mut diagnostics = scan.settings.problems.clone();
        for w in &scan.walked {
            for e in &w.errors {
                diagnostics.push(e.clone());
            }
            if let Some(t) = &w.truncated {
                diagnostics.push(format!("{}: {t}", w.path.display()));
            }
        }
        Catalog {
            project: scan.env.project.clone(),
            home: scan.env.home.clone(),
            git_root: scan.git_root.clone(),
            agents: models
                .iter()
                .map(|m| AgentInfo {
                    id: m.id.clone(),
                    name: m.name.clone(),
                    version: m.version.clone(),
                })
                .collect(),
            roots,
            skills,
            diagnostics,
        }
    }

    /// Skills whose frontmatter name or folder name is `name`.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Skill> + 'a {
        self.skills
            .iter()
            .filter(move |s| s.name.as_deref() == Some(name) || s.dir == name)
    }

    pub fn skill(&self, path: &Path) -> Option<&Skill> {
        self.skills.iter().find(|s| s.path == path)
    }
}

fn head_of(text: &str) -> String {
    let mut end = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if n >= 80 || end + line.len() > 8192 {
            break;
        }
        end += line.len();
    }
    text[..end].to_string()
}

type Described = (Option<String>, Option<String>, Vec<String>, Vec<Problem>);

/// Name, description, keys and spec problems of a file, with the canonical rules.
fn describe(md: &SkillMd, dir: &str) -> Described {
    let problems = spec::validate_text(&md.text, Some(dir));
    match md.parse() {
        Ok(doc) => {
            let fm = &doc.frontmatter;
            let keys = fm.keys().map(|(k, _)| k.to_string()).collect();
            let name = fm
                .get("name")
                .and_then(|n| n.scalar_text())
                .map(String::from);
            let description = fm
                .get("description")
                .and_then(|n| n.scalar_text())
                .map(String::from);
            (name, description, keys, problems)
        }
        Err(_) => (None, None, Vec::new(), problems),
    }
}
