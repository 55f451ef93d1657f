//! Verdicts before and after a plan, without touching the user's tree: the scanned files are
//! recreated in a temporary folder (a mirror keyed by absolute path: every candidate file with
//! its content, the ignore files, the `.git` markers of the project's work tree, symlinks as
//! symlinks), the plan is applied there, and the catalog is built on the mirror before and after.
//! Paths are mapped back, so both catalogs speak of the user's paths.

use super::{Mode, Op, Plan, Refusal, RefusalKind, Request};
use crate::agents::AgentModel;
use crate::catalog::{Catalog, Skill};
use crate::env::Env;
use crate::resolve::Status;
use foldhash::{HashSet, HashSetExt};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// A verdict in short: status and listed name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Brief {
    pub status: Status,
    pub as_name: Option<String>,
    /// The copy that takes the name (shadowed).
    pub winner: Option<PathBuf>,
}

impl Brief {
    pub fn show(&self) -> String {
        let mut s = self.status.as_str().to_string();
        if let Some(a) = &self.as_name
            && self.status == Status::Visible
        {
            s.push_str(&format!(" as `{}`", crate::sanitize::line(a)));
        }
        s
    }

    /// With the winner of a shadowed copy.
    pub fn show_in(&self, env: &Env) -> String {
        match (&self.winner, self.status) {
            (Some(w), Status::Shadowed) => {
                format!("shadowed by {}", crate::present::show_path(env, w))
            }
            _ => self.show(),
        }
    }
}

/// One (skill, agent) whose verdict differs. `before` is None for a new copy, `after` None for
/// one removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The SKILL.md (its path after the plan when it still exists).
    pub path: PathBuf,
    pub label: String,
    pub agent: String,
    pub before: Option<Brief>,
    pub after: Option<Brief>,
}

/// What a plan does to the verdicts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// Per agent, the acted-on skill's verdict before and after (every agent).
    pub skill: Vec<(String, Option<Brief>, Option<Brief>)>,
    /// Every other (skill, agent) whose verdict changes.
    pub others: Vec<Change>,
}

impl Preview {
    /// Whether `agent` lists the acted-on skill after the plan.
    pub fn visible_after(&self, agent: &str) -> bool {
        self.skill.iter().any(|(a, _, after)| {
            a == agent && after.as_ref().is_some_and(|b| b.status == Status::Visible)
        })
    }

    /// How many verdicts change (the acted-on skill's and the others').
    pub fn size(&self) -> usize {
        self.skill.iter().filter(|(_, b, a)| b != a).count() + self.others.len()
    }

    /// The preview as text lines (for the CLI and the explorer).
    pub fn lines(&self, env: &Env) -> Vec<String> {
        let show = |b: &Option<Brief>| b.as_ref().map_or("(gone)".to_string(), |b| b.show_in(env));
        let mut out = vec!["verdicts of this skill (before → after):".to_string()];
        for (agent, b, a) in &self.skill {
            let mark = if b == a { " " } else { "*" };
            out.push(format!("{mark} {agent:<12} {} → {}", show(b), show(a)));
        }
        if self.others.is_empty() {
            out.push("no other skill's verdict changes".into());
        } else {
            out.push("other verdicts that change:".into());
            for c in &self.others {
                out.push(format!(
                    "* {:<12} {} ({}): {} → {}",
                    c.agent,
                    crate::sanitize::line(&c.label),
                    crate::present::show_path(env, &c.path),
                    c.before
                        .as_ref()
                        .map_or("(absent)".into(), |b| b.show_in(env)),
                    c.after.as_ref().map_or("(gone)".into(), |b| b.show_in(env)),
                ));
            }
        }
        out
    }
}

/// A temporary folder removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> io::Result<TempDir> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        let p =
            std::env::temp_dir().join(format!("skilltui-preview-{}-{nanos}", std::process::id()));
        fs::create_dir_all(&p)?;
        Ok(TempDir(fs::canonicalize(&p)?))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The mirror: the user's absolute paths under a temporary folder.
struct Mirror {
    tmp: TempDir,
    made: HashSet<PathBuf>,
}

impl Mirror {
    fn m(&self, p: &Path) -> PathBuf {
        let rel: PathBuf = p
            .components()
            .filter(|c| matches!(c, std::path::Component::Normal(_)))
            .collect();
        self.tmp.0.join(rel)
    }

    fn back(&self, p: &Path) -> PathBuf {
        match p.strip_prefix(&self.tmp.0) {
            Ok(rest) => Path::new("/").join(rest),
            Err(_) => p.to_path_buf(),
        }
    }

    /// Recreates the folders leading to `dir` (symlinked ones as symlinks).
    fn ensure_dir(&mut self, dir: &Path, depth: usize) -> io::Result<()> {
        if depth > 16 {
            return Ok(());
        }
        let mut cur = PathBuf::new();
        for c in dir.components() {
            cur.push(c);
            if self.made.contains(&cur) || !matches!(c, std::path::Component::Normal(_)) {
                continue;
            }
            self.made.insert(cur.clone());
            let mc = self.m(&cur);
            match fs::symlink_metadata(&cur) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    let target = fs::read_link(&cur)?;
                    let resolved = cur.parent().unwrap_or(Path::new("/")).join(&target);
                    let resolved = crate::env::normalize(&resolved);
                    if resolved.is_dir() {
                        self.ensure_dir(&resolved, depth + 1)?;
                        fs::create_dir_all(self.m(&resolved))?;
                    } else if resolved.is_file() {
                        if let Some(p) = resolved.parent() {
                            self.ensure_dir(p, depth + 1)?;
                        }
                        copy_capped(&resolved, &self.m(&resolved))?;
                    }
                    let mtarget = if target.is_absolute() {
                        self.m(&target)
                    } else {
                        target
                    };
                    if fs::symlink_metadata(&mc).is_err() {
                        if let Some(p) = mc.parent() {
                            fs::create_dir_all(p)?;
                        }
                        sym(&mtarget, &mc)?;
                    }
                }
                Ok(meta) if meta.is_dir() && fs::symlink_metadata(&mc).is_err() => {
                    fs::create_dir_all(&mc)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn file(&mut self, p: &Path) -> io::Result<()> {
        if let Some(parent) = p.parent() {
            self.ensure_dir(parent, 0)?;
        }
        self.ensure_dir(p, 0)?;
        let mp = self.m(p);
        if fs::symlink_metadata(&mp).is_err() && p.is_file() {
            copy_capped(p, &mp)?;
        }
        Ok(())
    }
}

fn copy_capped(from: &Path, to: &Path) -> io::Result<()> {
    if fs::symlink_metadata(to).is_ok() {
        return Ok(());
    }
    if let Some(p) = to.parent() {
        fs::create_dir_all(p)?;
    }
    let len = fs::metadata(from).map(|m| m.len()).unwrap_or(0);
    if len > 2 * crate::skill::MAX_FILE_BYTES {
        // Too large to be read anyway: an equally large file of zeros keeps the verdict.
        let f = fs::File::create(to)?;
        return f.set_len(len);
    }
    fs::copy(from, to).map(|_| ())
}

#[cfg(unix)]
fn sym(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(windows)]
fn sym(target: &Path, link: &Path) -> io::Result<()> {
    std::os::windows::fs::symlink_dir(target, link)
}

fn remap_var(mirror: &Mirror, value: &str) -> String {
    // Path lists are separated by `:` or `,`; absolute pieces are remapped.
    let mut out = String::new();
    let mut piece = String::new();
    let flush = |piece: &mut String, out: &mut String| {
        if piece.starts_with('/') {
            out.push_str(&mirror.m(Path::new(piece.as_str())).to_string_lossy());
        } else {
            out.push_str(piece);
        }
        piece.clear();
    };
    for c in value.chars() {
        if c == ':' || c == ',' {
            flush(&mut piece, &mut out);
            out.push(c);
        } else {
            piece.push(c);
        }
    }
    flush(&mut piece, &mut out);
    out
}

/// Builds the mirror of everything the scan reads for `env`.
fn build_mirror(models: &[AgentModel], env: &Env) -> io::Result<(Mirror, Env)> {
    let mut mirror = Mirror {
        tmp: TempDir::new()?,
        made: HashSet::new(),
    };
    let scan = crate::scan::scan(models, env);
    for w in &scan.walked {
        if w.exists {
            mirror.ensure_dir(&w.path, 0)?;
        }
        for c in &w.candidates {
            mirror.file(&c.path)?;
        }
        for i in &w.ignore_files {
            let p = w.path.join(&i.dir).join(&i.name);
            mirror.file(&p)?;
        }
    }
    // The agents' settings files (project or home relative) and sidecars in skill folders.
    for m in models {
        for st in &m.settings {
            let Some(file) = st.file.as_deref() else {
                continue;
            };
            if st.kind == crate::agents::SettingKind::Sidecar {
                for w in &scan.walked {
                    for c in &w.candidates {
                        if let Some(dir) = c.path.parent() {
                            let p = dir.join(file);
                            if p.is_file() {
                                mirror.file(&p)?;
                            }
                        }
                    }
                }
                continue;
            }
            let base = if st.scope == Some(crate::agents::Scope::Project) {
                &env.project
            } else {
                &env.home
            };
            if let Ok(p) = env.expand(file, base)
                && p.is_file()
            {
                mirror.file(&p)?;
            }
        }
    }
    // The project's work-tree markers.
    for a in env.project.ancestors() {
        let git = a.join(".git");
        if crate::env::is_git_work_tree_top(a) {
            let mg = mirror.m(&git);
            if git.is_dir() {
                fs::create_dir_all(mg.join("objects"))?;
                fs::create_dir_all(mg.join("refs"))?;
                copy_capped(&git.join("HEAD"), &mg.join("HEAD"))?;
            } else {
                copy_capped(&git, &mg)?;
            }
        }
    }
    fs::create_dir_all(mirror.m(&env.project))?;
    fs::create_dir_all(mirror.m(&env.home))?;
    let mut menv = Env::new(mirror.m(&env.project), mirror.m(&env.home));
    for (k, v) in env.vars() {
        menv = menv.with_var(k, &remap_var(&mirror, v));
    }
    for d in &env.add_dirs {
        menv = menv.with_add_dir(mirror.m(d));
    }
    Ok((mirror, menv))
}

/// Performs a plan's operations on the mirror.
fn apply_mirror(mirror: &Mirror, plan: &Plan) -> io::Result<()> {
    for (i, op) in plan.ops.iter().enumerate() {
        match op {
            Op::Write { path, new, .. } => {
                let mp = mirror.m(path);
                if let Some(p) = mp.parent() {
                    fs::create_dir_all(p)?;
                }
                fs::write(mp, new)?;
            }
            Op::CreateDir { path } => fs::create_dir_all(mirror.m(path))?,
            Op::Rename { from, to } => {
                let mt = mirror.m(to);
                if let Some(p) = mt.parent() {
                    fs::create_dir_all(p)?;
                }
                fs::rename(mirror.m(from), mt)?;
            }
            Op::Copy { from, to } => {
                let mt = mirror.m(to);
                if let Some(p) = mt.parent() {
                    fs::create_dir_all(p)?;
                }
                super::journal::copy_tree(&mirror.m(from), &mt)?;
            }
            Op::Symlink { target, link } => {
                let ml = mirror.m(link);
                if let Some(p) = ml.parent() {
                    fs::create_dir_all(p)?;
                }
                sym(
                    &super::journal::relative_target(&mirror.m(target), &ml),
                    &ml,
                )?;
            }
            Op::Trash { path } => {
                let t = mirror.tmp.0.join(format!(".trash-{i}"));
                fs::rename(mirror.m(path), t)?;
            }
        }
    }
    Ok(())
}

fn brief(s: &Skill, agent: &str, mirror: &Mirror) -> Option<Brief> {
    s.verdict(agent).map(|v| Brief {
        status: v.status,
        as_name: v.as_name.clone(),
        winner: v.winner.as_deref().map(|w| mirror.back(w)),
    })
}

/// The verdicts before and after `plan`.
pub fn preview(plan: &Plan, models: &[AgentModel], env: &Env) -> Result<Preview, Refusal> {
    let (mirror, menv) = build_mirror(models, env)
        .map_err(|e| Refusal::new(RefusalKind::Io, format!("cannot build the preview: {e}")))?;
    let before = Catalog::build(models, &menv);
    apply_mirror(&mirror, plan).map_err(|e| {
        Refusal::new(
            RefusalKind::Io,
            format!("cannot apply the plan to the preview: {e}"),
        )
    })?;
    let after = Catalog::build(models, &menv);
    let agents: Vec<String> = models.iter().map(|m| m.id.clone()).collect();
    let find = |cat: &Catalog, p: &Path| -> Option<usize> {
        let mp = mirror.m(p);
        cat.skills.iter().position(|s| s.path == mp || s.path == p)
    };
    let b_skill = find(&before, &plan.skill);
    let a_skill = plan.after.as_deref().and_then(|p| find(&after, p));
    let skill = agents
        .iter()
        .map(|a| {
            (
                a.clone(),
                b_skill.and_then(|i| brief(&before.skills[i], a, &mirror)),
                a_skill.and_then(|i| brief(&after.skills[i], a, &mirror)),
            )
        })
        .collect();
    // Every other skill, matched by its path after the plan.
    let mut others = Vec::new();
    let mut seen_after: HashSet<usize> = HashSet::new();
    if let Some(i) = a_skill {
        seen_after.insert(i);
    }
    for (bi, bs) in before.skills.iter().enumerate() {
        if Some(bi) == b_skill {
            continue;
        }
        let orig = mirror.back(&bs.path);
        let ai = plan.map_path(&orig).and_then(|p| find(&after, &p));
        if let Some(ai) = ai {
            seen_after.insert(ai);
        }
        let as_ = ai.map(|i| &after.skills[i]);
        for a in &agents {
            let b = brief(bs, a, &mirror);
            let x = as_.and_then(|s| brief(s, a, &mirror));
            if b != x && !(b.as_ref().is_some_and(|b| b.status == Status::NotFound) && x.is_none())
            {
                others.push(Change {
                    path: as_.map_or(orig.clone(), |s| mirror.back(&s.path)),
                    label: bs.label().to_string(),
                    agent: a.clone(),
                    before: b,
                    after: x,
                });
            }
        }
    }
    for (ai, s) in after.skills.iter().enumerate() {
        if seen_after.contains(&ai) {
            continue;
        }
        for a in &agents {
            let x = brief(s, a, &mirror);
            if x.as_ref().is_some_and(|x| x.status != Status::NotFound) {
                others.push(Change {
                    path: mirror.back(&s.path),
                    label: s.label().to_string(),
                    agent: a.clone(),
                    before: None,
                    after: x,
                });
            }
        }
    }
    Ok(Preview { skill, others })
}

/// Plans "make this copy win for `agent`": the candidates are renaming each competing copy,
/// moving this copy to each other root the agent scans, and moving each competing copy to the
/// trash; each is previewed, and the one that makes this copy visible to the agent while
/// changing the fewest other verdicts is chosen (renames before moves before deletes).
pub fn plan_win(
    cat: &Catalog,
    models: &[AgentModel],
    env: &Env,
    skill: &Skill,
    agent: &str,
) -> Result<Plan, Refusal> {
    let Some(v) = skill.verdict(agent) else {
        return Err(Refusal::new(
            RefusalKind::NotFound,
            format!("unknown agent `{agent}`"),
        ));
    };
    // Also a copy in a folder of the same name.
    let competitors = super::competitors(cat, skill, agent, |s| s.dir == skill.dir);
    if super::already_wins(v, &competitors, agent) {
        return Err(Refusal::new(
            RefusalKind::Unchanged,
            format!(
                "{} already lists this copy as `{}`",
                agent,
                v.as_name.as_deref().unwrap_or(skill.label())
            ),
        ));
    }
    let candidates = win_candidates(cat, skill, agent, &competitors);
    if candidates.is_empty() {
        return Err(Refusal::new(
            RefusalKind::NoPlan,
            format!(
                "no other copy competes with this one for {agent}, and no other root of {agent} can hold it; its verdict is {} (see `skilltui why`)",
                v.status.as_str()
            ),
        ));
    }
    let (best, refused) = smallest_win(cat, models, env, skill, v, agent, candidates);
    match best {
        Some(mut plan) => {
            plan.notes.insert(
                0,
                format!(
                    "to make {} win for {agent}, the smallest change found: {}",
                    crate::present::show_path(env, &skill.path),
                    plan.title
                ),
            );
            plan.title = format!("make `{}` win for {agent}: {}", skill.label(), plan.title);
            plan.skill = skill.path.clone();
            plan.after = plan.map_path(&skill.path);
            Ok(plan)
        }
        None => Err(Refusal::new(
            RefusalKind::NoPlan,
            format!(
                "no rename, move or delete makes this copy win for {agent}{}",
                if refused.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", refused.join("; "))
                }
            ),
        )),
    }
}

/// The requests [`plan_win`] tries, each with its rank (renames of competitors 0, moves of this
/// copy 1, deletes of competitors 2).
fn win_candidates(
    cat: &Catalog,
    skill: &Skill,
    agent: &str,
    competitors: &[&Skill],
) -> Vec<(u8, Request)> {
    let mut candidates: Vec<(u8, Request)> = Vec::new();
    for c in competitors {
        let scope = c.scope.as_str();
        let new = format!("{}-{scope}", c.label());
        if super::check_name(&new).is_ok() {
            candidates.push((
                0,
                Request::Rename {
                    skill: c.path.clone(),
                    name: new,
                    folder: true,
                },
            ));
        }
    }
    for r in cat
        .roots
        .iter()
        .filter(|r| r.agents.iter().any(|a| a == agent) && skill.root.as_ref() != Some(&r.path))
    {
        candidates.push((
            1,
            Request::Move {
                skill: skill.path.clone(),
                root: r.path.clone(),
                mode: Mode::Move,
            },
        ));
    }
    for c in competitors {
        candidates.push((
            2,
            Request::Delete {
                skill: c.path.clone(),
            },
        ));
    }
    candidates
}

/// Plans and previews each candidate; the plan that makes `skill` (verdict `v`) win for
/// `agent` while changing the fewest other verdicts (then the lowest rank), and why the
/// candidates that could not be planned were refused.
fn smallest_win(
    cat: &Catalog,
    models: &[AgentModel],
    env: &Env,
    skill: &Skill,
    v: &crate::resolve::Verdict,
    agent: &str,
    candidates: Vec<(u8, Request)>,
) -> (Option<Plan>, Vec<String>) {
    let mut best: Option<(usize, u8, Plan)> = None;
    let mut refused = Vec::new();
    for (rank, req) in candidates {
        let plan = match super::plan(cat, models, env, &req) {
            Ok(p) => p,
            Err(e) => {
                refused.push(e.0);
                continue;
            }
        };
        let Ok(pv) = preview(&plan, models, env) else {
            continue;
        };
        // Visible after: this copy (renamed competitor plans keep it at its path).
        let ok = if plan.skill == skill.path {
            pv.visible_after(agent)
        } else {
            pv.others.iter().any(|c| {
                c.path == skill.path
                    && c.agent == agent
                    && c.after
                        .as_ref()
                        .is_some_and(|b| b.status == Status::Visible)
            }) || (v.status == Status::Visible && pv.size() > 0)
        };
        if !ok {
            continue;
        }
        let size = pv.size();
        if best
            .as_ref()
            .is_none_or(|(s, r, _)| (size, rank) < (*s, *r))
        {
            best = Some((size, rank, plan));
        }
    }
    (best.map(|(_, _, plan)| plan), refused)
}
