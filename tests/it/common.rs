//! Fixtures shared by the integration tests: a temp tree with a project and a home, and the
//! oracle's targeted cases. Each area's own `Fx` wraps a [`Tree`] and adds what only it needs.

#![allow(dead_code)]

use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::resolve::{Status, Verdict};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Declares an area's fixture: a struct wrapping a [`Tree`] that derefs to it, so that the
/// area's `impl` adds only what it needs (`tree_fixture!(/// doc\n Fx);`).
macro_rules! tree_fixture {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        struct $name(crate::common::Tree);

        impl std::ops::Deref for $name {
            type Target = crate::common::Tree;
            fn deref(&self) -> &crate::common::Tree {
                &self.0
            }
        }
    };
}
pub(crate) use tree_fixture;

/// A temp folder `base` written from a demo-tree text (`@@ path` blocks,
/// [`skilltui::demo::write_tree`]) with `project`, `home` and a data folder `data` (journal and
/// trash) beside them; removed on drop.
pub struct DataTree {
    _tmp: tempfile::TempDir,
    pub base: PathBuf,
    pub project: PathBuf,
    pub home: PathBuf,
    pub data: PathBuf,
}

impl DataTree {
    pub fn new(tree: &str) -> DataTree {
        let tmp = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        skilltui::demo::write_tree(&base, tree).unwrap();
        DataTree {
            project: base.join("project"),
            home: base.join("home"),
            data: base.join("data"),
            base,
            _tmp: tmp,
        }
    }
}

/// A temp folder `base` with a home at `base/home` and a project (the working folder) below it;
/// removed on drop.
pub struct Tree {
    _tmp: tempfile::TempDir,
    pub base: PathBuf,
    pub project: PathBuf,
    pub home: PathBuf,
}

impl Tree {
    /// A project at `base/<project_rel>` and a home at `base/home`, both made.
    pub fn new(project_rel: &str) -> Tree {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().to_path_buf();
        // The project must not be inside someone else's git repository.
        assert!(
            !base.ancestors().any(|d| d.join(".git").exists()),
            "an ancestor of the temp dir {} holds .git; set TMPDIR elsewhere",
            base.display()
        );
        let project = base.join(project_rel);
        let home = base.join("home");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Tree {
            _tmp: tmp,
            base,
            project,
            home,
        }
    }

    /// A project at `base/project` that is the top of a git work tree.
    pub fn git() -> Tree {
        let t = Tree::new("project");
        t.git_repo("project");
        t
    }

    pub fn mkdir(&self, rel: &str) {
        std::fs::create_dir_all(self.base.join(rel)).unwrap();
    }

    /// Makes `base/rel` the top of a git work tree (`.git` with HEAD, objects/ and refs/).
    pub fn git_repo(&self, rel: &str) {
        self.put(&format!("{rel}/.git/HEAD"), "ref: refs/heads/main\n");
        self.mkdir(&format!("{rel}/.git/objects"));
        self.mkdir(&format!("{rel}/.git/refs"));
    }

    /// Writes `content` to `base/rel` (creating folders) and returns the path.
    pub fn put(&self, rel: &str, content: &str) -> PathBuf {
        let p = self.base.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
        p
    }

    /// Writes a SKILL.md with `name` and `description` ([`skill_md`]) to `base/<dir>/SKILL.md`.
    pub fn skill(&self, dir: &str, name: &str, description: &str) -> PathBuf {
        self.put(&format!("{dir}/SKILL.md"), &skill_md(name, description))
    }

    /// The project and home of the tree, with the variables `vars` set.
    pub fn env_with(&self, vars: &[(&str, &str)]) -> Env {
        let mut env = Env::new(&self.project, &self.home);
        for (k, v) in vars {
            env = env.with_var(k, v);
        }
        env
    }
}

/// A SKILL.md with `name` and `description` in its frontmatter, a heading and a line of body.
pub fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n# Title\n\nBody text.\n")
}

/// The verdict of `agent` on the file at `path` (fails, listing the catalog, when the file is
/// not in it).
#[track_caller]
pub fn verdict<'a>(cat: &'a Catalog, path: &Path, agent: &str) -> &'a Verdict {
    let s = cat.skill(path).unwrap_or_else(|| {
        panic!(
            "{} is not in the catalog; it holds:\n{}",
            path.display(),
            cat.skills
                .iter()
                .map(|s| format!("  {}", s.path.display()))
                .collect::<Vec<_>>()
                .join("\n")
        )
    });
    s.verdict(agent)
        .unwrap_or_else(|| panic!("no verdict for agent {agent}"))
}

/// A verdict for a failure message: status, listed name, winner, model, scope and reasons.
pub fn show(v: &Verdict) -> String {
    let mut s = format!(
        "status={:?} as={:?} winner={:?} model={:?} scope={:?}\n",
        v.status, v.as_name, v.winner, v.model, v.scope
    );
    for r in &v.reasons {
        s.push_str(&format!("  - {}: {}\n", r.rule, r.message));
    }
    s
}

/// Asserts status and that every rule id in `rules` is among the reasons; returns the verdict.
#[track_caller]
pub fn expect<'a>(
    cat: &'a Catalog,
    path: &Path,
    agent: &str,
    status: Status,
    rules: &[&str],
) -> &'a Verdict {
    let v = verdict(cat, path, agent);
    assert_eq!(
        v.status,
        status,
        "{agent} on {}: expected {status:?}\n{}",
        path.display(),
        show(v)
    );
    for r in rules {
        assert!(
            v.reasons.iter().any(|x| x.rule == *r),
            "{agent} on {}: expected a reason with rule `{r}`\n{}",
            path.display(),
            show(v)
        );
    }
    v
}

/// The file must not be a catalog entry at all, or, if it is, not visible to `agent`.
#[track_caller]
pub fn not_visible(cat: &Catalog, path: &Path, agent: &str) {
    if let Some(s) = cat.skill(path) {
        let v = s.verdict(agent).unwrap();
        assert_ne!(
            v.status,
            Status::Visible,
            "{agent} on {}\n{}",
            path.display(),
            show(v)
        );
    }
}

/// The oracle's targeted cases, with the agents each runs for.
pub fn oracle_cases() -> Vec<(String, Option<Vec<String>>)> {
    skilltui::oracle::cases::targeted()
        .into_iter()
        .map(|c| {
            let agents = c
                .agents
                .as_ref()
                .map(|a| a.iter().map(|s| s.to_string()).collect());
            (c.name, agents)
        })
        .collect()
}

/// Fails, showing 20 lines around where they first differ, when catalog `got` (`label`:
/// incremental, predicted…) is not `full`, a full rebuild of the same tree.
#[track_caller]
pub fn same_catalog(
    got: &skilltui::catalog::Catalog,
    full: &skilltui::catalog::Catalog,
    label: &str,
    what: &str,
) {
    let json = |c| serde_json::to_value(c).unwrap();
    let (a, b) = (json(got), json(full));
    if a == b {
        return;
    }
    let (a, b) = (
        serde_json::to_string_pretty(&a).unwrap(),
        serde_json::to_string_pretty(&b).unwrap(),
    );
    let first = a
        .lines()
        .zip(b.lines())
        .position(|(x, y)| x != y)
        .unwrap_or(0);
    let ctx = |t: &str| {
        t.lines()
            .skip(first.saturating_sub(10))
            .take(20)
            .collect::<Vec<_>>()
            .join("\n")
    };
    panic!(
        "{what}: the {label} catalog differs from a full rebuild\n--- {label}:\n{}\n--- full:\n{}",
        ctx(&a),
        ctx(&b)
    );
}

/// A compact `list --json` document (schema 3 or 4) with each skill's `agents` (indices into
/// `verdicts`, in `agents` order) turned into an object of verdicts keyed by agent id, as schema
/// 1 has it, and schema 4's references in `as` and `descriptions_as_listed` written out; other
/// documents as they are.
pub fn by_agent(mut doc: serde_json::Value) -> serde_json::Value {
    let (Some(table), Some(agents)) = (
        doc.get("verdicts").and_then(|v| v.as_array()).cloned(),
        doc.get("agents").and_then(|v| v.as_array()).cloned(),
    ) else {
        return doc;
    };
    if let Some(skills) = doc.get_mut("skills").and_then(|s| s.as_array_mut()) {
        for s in skills {
            let Some(at) = s.get("agents").and_then(|a| a.as_array()).cloned() else {
                continue;
            };
            let mut per: serde_json::Map<String, serde_json::Value> = agents
                .iter()
                .zip(at)
                .map(|(a, i)| {
                    (
                        a["id"].as_str().unwrap_or_default().to_string(),
                        table[i.as_u64().unwrap_or_default() as usize].clone(),
                    )
                })
                .collect();
            // Schema 4: `as` 1 or 2 is the skill's `name` or `dir`.
            for v in per.values_mut() {
                if let Some(k) = v.get("as").and_then(|a| a.as_u64()) {
                    v["as"] = s[["path", "name", "dir"][k as usize]].clone();
                }
            }
            s["agents"] = serde_json::Value::Object(per);
            // Schema 4: a listed description that starts the description is its length.
            let desc = s["description"].as_str().unwrap_or_default().to_string();
            if let Some(listed) = s
                .get_mut("descriptions_as_listed")
                .and_then(|l| l.as_array_mut())
            {
                for d in listed {
                    if let Some(n) = d.as_u64() {
                        *d = desc.chars().take(n as usize).collect::<String>().into();
                    }
                }
            }
        }
    }
    doc
}

/// The binary, with a clean environment but for `PATH`.
pub fn skilltui_cmd() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
    c.env_clear();
    if let Some(p) = std::env::var_os("PATH") {
        c.env("PATH", p);
    }
    c
}

/// A run's exit code.
pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

/// A run's standard output (it must be UTF-8).
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A run's standard output as JSON (a `list --json` document read through [`by_agent`]).
pub fn json(o: &Output) -> serde_json::Value {
    by_agent(
        serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\nstderr: {}", stdout(o), stderr(o))),
    )
}

/// A generated catalog of `skills` skills (`skilltui::gen`, seeded: the same tree each run) in a
/// temp folder, kept as long as the returned `TempDir` is.
pub fn generated(skills: usize, seed: u64) -> (tempfile::TempDir, skilltui::r#gen::Tree) {
    let tmp = tempfile::tempdir().unwrap();
    let (tree, _) =
        skilltui::r#gen::generate(tmp.path(), &skilltui::r#gen::Options { skills, seed }).unwrap();
    (tmp, tree)
}
