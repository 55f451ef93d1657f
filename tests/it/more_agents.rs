//! The models of issue #18's agents that are read from documents, source and packages (Cline,
//! Auggie, Crush, Goose, Continue CLI, Letta Code, Mistral Vibe, Kimi Code CLI): each file loads,
//! every rule cites sources a user can follow, and one fixture per distinctive rule shows the
//! resolver applying it. Expected values come from the sources each model cites (named on each
//! test), never from skilltui's output.

use crate::common::{Tree, expect, not_visible, oracle_cases, show, tree_fixture};
use skilltui::agents::{self, AgentModel, Evidence, Scope};
use skilltui::catalog::Catalog;
use skilltui::resolve::Status;
use std::path::{Path, PathBuf};

use Status::{NotFound, Rejected, Shadowed, Visible};

const IDS: [&str; 8] = [
    "auggie",
    "cline",
    "continue",
    "crush",
    "goose",
    "kimi-code",
    "letta-code",
    "mistral-vibe",
];

fn assets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/agents")
}

/// The eight built-in models of this file.
fn models() -> Vec<AgentModel> {
    agents::builtin()
        .into_iter()
        .filter(|m| IDS.contains(&m.id.as_str()))
        .collect()
}

fn model(id: &str) -> AgentModel {
    models().into_iter().find(|m| m.id == id).unwrap()
}

// ------------------------------------------------------------------------------------------
// Loading and provenance
// ------------------------------------------------------------------------------------------

#[test]
fn each_model_loads_under_its_file_name() {
    let ms = models();
    let mut ids: Vec<&str> = ms.iter().map(|m| m.id.as_str()).collect();
    ids.sort();
    assert_eq!(ids, IDS);
    for m in &ms {
        let path = assets_dir().join(format!("{}.toml", m.id));
        let text = std::fs::read_to_string(&path).unwrap();
        let again = agents::parse_model(&path, &text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.id, m.id);
        assert!(
            m.summary.as_deref().is_some_and(|s| s.len() > 200),
            "{}",
            m.id
        );
        assert!(m.docs.is_some(), "{}", m.id);
        assert!(
            m.roots.iter().any(|r| r.scope == Scope::Project),
            "{}",
            m.id
        );
        assert!(m.roots.iter().any(|r| r.scope == Scope::User), "{}", m.id);
    }
}

#[test]
fn every_rule_cites_public_sources_with_the_versions_its_evidence_needs() {
    let cases = oracle_cases();
    let mut problems = Vec::new();
    for m in models() {
        problems.extend(agents::sources::lint(&m, &cases, agents::sources::CITABLE));
        for r in m.rules() {
            let at = format!("{}/{}", m.id, r.id);
            let e = r.evidence_label().unwrap();
            if r.id == "roots" {
                // The root list as a whole: built by the loader from the roots' own rules.
                continue;
            }
            match e {
                Evidence::Src => assert!(r.commit.is_some() || r.version.is_some(), "{at}"),
                Evidence::Bundle | Evidence::Obs => assert!(r.version.is_some(), "{at}"),
                _ => {}
            }
            // Only an agent skilltui's oracle runs (Cline, Auggie) may claim an observation.
            if !skilltui::oracle::AGENTS.contains(&m.id.as_str()) {
                assert_ne!(e, Evidence::Obs, "{at}: no oracle case runs this agent");
            }
            if e == Evidence::None {
                assert_eq!(r.value, "unknown", "{at}: NONE only for unknown values");
            }
            for s in &r.sources {
                let t = s.text.as_deref().unwrap_or("");
                for bad in [
                    "agent-matrix.md",
                    "newest-releases.md",
                    "closed-harnesses.md",
                    "oss-harnesses.md",
                    "more-agents.md",
                    "notes/",
                    "seeds/",
                    "§",
                ] {
                    assert!(!t.contains(bad), "{at}: names a research file: {t}");
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ------------------------------------------------------------------------------------------
// Fixtures
// ------------------------------------------------------------------------------------------

tree_fixture!(Fx);

impl Fx {
    fn new(project_rel: &str) -> Fx {
        Fx(Tree::new(project_rel))
    }

    fn catalog(&self, ms: &[AgentModel]) -> Catalog {
        self.catalog_with(ms, &[])
    }

    fn catalog_with(&self, ms: &[AgentModel], vars: &[(&str, &str)]) -> Catalog {
        Catalog::build(ms, &self.env_with(vars))
    }
}

/// Auggie: the skill is listed and invoked under its folder name; a frontmatter name that
/// differs is only warned about (augment.mjs 0.36.0: `Skill name "X" does not match directory
/// name "Y"`; the ACP command list showed /folder-x for `name: fm-name`).
#[test]
fn auggie_lists_a_skill_under_its_folder_name() {
    let f = Fx::new("project");
    let p = f.skill(
        "project/.augment/skills/folder-x",
        "fm-name",
        "Mismatched name.",
    );
    let ms = [model("auggie")];
    let cat = f.catalog(&ms);
    let v = expect(
        &cat,
        &p,
        "auggie",
        Visible,
        &[
            "auggie/name_rules.source",
            "auggie/name_rules.folder_mismatch",
        ],
    );
    assert_eq!(v.as_name.as_deref(), Some("folder-x"), "{}", show(v));
}

/// Auggie: the home copy of .augment/skills comes before the workspace copy and the first copy
/// wins, so a user skill shadows a project skill (augment.mjs 0.36.0 root order; the ACP run
/// showed the ~/.augment copy of `dup`). Hidden folders are skipped.
#[test]
fn auggie_user_copy_beats_the_project_copy_and_hidden_folders_are_skipped() {
    let f = Fx::new("project");
    let user = f.skill("home/.augment/skills/dup", "dup", "User copy.");
    let proj = f.skill("project/.augment/skills/dup", "dup", "Project copy.");
    let hidden = f.skill("project/.agents/skills/.hidden/secret", "secret", "Hidden.");
    let ms = [model("auggie")];
    let cat = f.catalog(&ms);
    expect(&cat, &user, "auggie", Visible, &[]);
    let v = expect(
        &cat,
        &proj,
        "auggie",
        Shadowed,
        &["auggie/precedence.order"],
    );
    assert_eq!(v.winner.as_deref(), Some(user.as_path()));
    not_visible(&cat, &hidden, "auggie");
}

/// Continue CLI 1.5.47 reads only the working folder's .continue/skills and .claude/skills:
/// a skill in the git root above a sub-folder is not found (dist/index.js: roots joined to
/// process.cwd()).
#[test]
fn continue_reads_the_working_folder_only() {
    let f = Fx::new("repo/sub");
    f.git_repo("repo");
    let above = f.skill("repo/.continue/skills/above", "above", "In the git root.");
    let here = f.skill("repo/sub/.continue/skills/here", "here", "In cwd.");
    let ms = [model("continue")];
    let cat = f.catalog(&ms);
    expect(
        &cat,
        &here,
        "continue",
        Visible,
        &["continue/roots.project-continue"],
    );
    expect(
        &cat,
        &above,
        "continue",
        NotFound,
        &["continue/roots.project-continue.walk"],
    );
}

/// Continue CLI keeps every copy of a name (no de-duplication in 1.5.47), and only direct child
/// folders hold skills.
#[test]
fn continue_lists_every_copy_and_reads_direct_children_only() {
    let f = Fx::new("project");
    let a = f.skill("project/.continue/skills/one", "same", "First copy.");
    let b = f.skill("project/.claude/skills/two", "same", "Second copy.");
    let deep = f.skill("project/.continue/skills/group/deep", "deep", "Too deep.");
    let ms = [model("continue")];
    let cat = f.catalog(&ms);
    expect(&cat, &a, "continue", Visible, &[]);
    expect(&cat, &b, "continue", Visible, &[]);
    not_visible(&cat, &deep, "continue");
}

/// Goose (source 013ab848): project folders come before user folders and the first copy of a
/// name wins; the walk goes to any depth; a skill needs a name.
#[test]
fn goose_project_beats_user_and_walks_deep() {
    let f = Fx::new("project");
    let proj = f.skill("project/.goose/skills/dup", "dup", "Project copy.");
    let user = f.skill("home/.agents/skills/dup", "dup", "User copy.");
    let deep = f.skill("project/.agents/skills/a/b/c/deep", "deep", "Deep.");
    let noname = f.put(
        "project/.agents/skills/noname/SKILL.md",
        "---\ndescription: No name.\n---\nBody.\n",
    );
    let ms = [model("goose")];
    let cat = f.catalog(&ms);
    expect(&cat, &proj, "goose", Visible, &[]);
    let v = expect(&cat, &user, "goose", Shadowed, &["goose/precedence.order"]);
    assert_eq!(v.winner.as_deref(), Some(proj.as_path()));
    expect(&cat, &deep, "goose", Visible, &[]);
    expect(
        &cat,
        &noname,
        "goose",
        Rejected,
        &["goose/name_rules.missing"],
    );
}

/// Mistral Vibe (source v2.18.4): the first copy wins across roots (.vibe/skills before
/// ~/.vibe/skills), only direct children hold skills, and the name must be lowercase-kebab.
#[test]
fn mistral_vibe_first_wins_direct_children_and_kebab_names() {
    let f = Fx::new("project");
    let proj = f.skill("project/.vibe/skills/dup", "dup", "Project copy.");
    let user = f.skill("home/.vibe/skills/dup", "dup", "User copy.");
    let grouped = f.skill(
        "project/.agents/skills/group/grouped",
        "grouped",
        "Grouped.",
    );
    let upper = f.skill(
        "project/.agents/skills/Upper-Dup",
        "Upper-Dup",
        "Upper case.",
    );
    let ms = [model("mistral-vibe")];
    let cat = f.catalog(&ms);
    expect(&cat, &proj, "mistral-vibe", Visible, &[]);
    let v = expect(
        &cat,
        &user,
        "mistral-vibe",
        Shadowed,
        &["mistral-vibe/precedence.order"],
    );
    assert_eq!(v.winner.as_deref(), Some(proj.as_path()));
    not_visible(&cat, &grouped, "mistral-vibe");
    expect(
        &cat,
        &upper,
        "mistral-vibe",
        Rejected,
        &["mistral-vibe/name_rules.charset"],
    );
}

/// Mistral Vibe: `skill_paths` in ~/.vibe/config.toml adds a folder of skills (config
/// `_settings.py` skill_paths; `SkillManager._compute_search_paths`).
#[test]
fn mistral_vibe_skill_paths_add_a_root() {
    let f = Fx::new("project");
    let extra = f.skill("extra/mine", "mine", "From skill_paths.");
    let cfg = format!("skill_paths = [\"{}\"]\n", f.base.join("extra").display());
    f.put("home/.vibe/config.toml", &cfg);
    let ms = [model("mistral-vibe")];
    let cat = f.catalog(&ms);
    expect(
        &cat,
        &extra,
        "mistral-vibe",
        Visible,
        &["mistral-vibe/settings.skill-paths"],
    );
}

// ------------------------------------------------------------------------------------------
// Format: the walks and the charset these agents need (exercised on a copy of a model with
// the one rule changed, so each test shows that rule alone)
// ------------------------------------------------------------------------------------------

/// The walk rule of Mistral Vibe's project roots, as written in its file.
const VIBE_WALK: &str = "value = \"cwd-only\", evidence = \"SRC\", version = \"2.18.4\", commit = \"ac8f1a09\", source = [{ source = \"https://github.com/mistralai/mistral-vibe/blob/ac8f1a09fdfbadb6d4508a555ba6607fd05eb0dc/vibe/core/config/harness_files/_harness_manager.py#L38-L75\" }, { source";

/// `model` with every occurrence of `from` replaced by `to`, parsed as a `--model` file.
fn variant(id: &str, from: &str, to: &str) -> AgentModel {
    let path = assets_dir().join(format!("{id}.toml"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{id}.toml has no `{from}`");
    agents::parse_model(&path, &text.replace(from, to)).unwrap_or_else(|e| panic!("{e}"))
}

/// `walk = git-root` (Kimi Code's project root, Cline's workspace): only the git root is read,
/// not the working folder below it nor the folders in between; without git, `no_git` decides.
#[test]
fn git_root_walk_reads_the_git_root_only() {
    let m = variant(
        "mistral-vibe",
        VIBE_WALK,
        &VIBE_WALK.replace("cwd-only", "git-root"),
    );
    let f = Fx::new("repo/mid/sub");
    f.git_repo("repo");
    let root = f.skill("repo/.vibe/skills/at-root", "at-root", "In the git root.");
    let mid = f.skill("repo/mid/.vibe/skills/at-mid", "at-mid", "In between.");
    let cwd = f.skill("repo/mid/sub/.vibe/skills/at-cwd", "at-cwd", "In cwd.");
    let ms = [m];
    let cat = f.catalog(&ms);
    expect(
        &cat,
        &root,
        "mistral-vibe",
        Visible,
        &["mistral-vibe/roots.project-vibe"],
    );
    for p in [&mid, &cwd] {
        let v = expect(
            &cat,
            p,
            "mistral-vibe",
            NotFound,
            &["mistral-vibe/roots.project-vibe.walk"],
        );
        assert!(
            v.reasons
                .iter()
                .any(|r| r.message.contains("only in the git root")),
            "{}",
            show(v)
        );
    }
    // Without git the project folder itself is read (no_git = cwd-only).
    let g = Fx::new("plain");
    let here = g.skill("plain/.vibe/skills/here", "here", "No git.");
    let ms = [variant(
        "mistral-vibe",
        VIBE_WALK,
        &VIBE_WALK.replace("cwd-only", "git-root"),
    )];
    let cat = g.catalog(&ms);
    expect(&cat, &here, "mistral-vibe", Visible, &[]);
}

/// `walk = cwd-and-git-root` (Crush's ProjectSkillsDir): the working folder and the git root,
/// not the folders in between.
#[test]
fn cwd_and_git_root_walk_skips_the_folders_between() {
    let m = variant(
        "mistral-vibe",
        VIBE_WALK,
        &VIBE_WALK.replace("cwd-only", "cwd-and-git-root"),
    );
    let f = Fx::new("repo/mid/sub");
    f.git_repo("repo");
    let root = f.skill("repo/.agents/skills/at-root", "at-root", "In the git root.");
    let mid = f.skill("repo/mid/.agents/skills/at-mid", "at-mid", "In between.");
    let cwd = f.skill("repo/mid/sub/.agents/skills/at-cwd", "at-cwd", "In cwd.");
    let ms = [m];
    let cat = f.catalog(&ms);
    expect(&cat, &root, "mistral-vibe", Visible, &[]);
    expect(&cat, &cwd, "mistral-vibe", Visible, &[]);
    let v = expect(
        &cat,
        &mid,
        "mistral-vibe",
        NotFound,
        &["mistral-vibe/roots.project-agents.walk"],
    );
    assert!(
        v.reasons.iter().any(|r| r
            .message
            .contains("in the project folder and in the git root")),
        "{}",
        show(v)
    );
}

/// `charset = ascii-kebab-any-case` (Crush: `^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$`): upper case
/// passes, an underscore or a doubled hyphen does not.
#[test]
fn ascii_kebab_any_case_charset() {
    let m = variant(
        "mistral-vibe",
        "{ charset = \"ascii-kebab\", posture = \"reject\" }",
        "{ charset = \"ascii-kebab-any-case\", posture = \"reject\" }",
    );
    let f = Fx::new("project");
    let upper = f.skill(
        "project/.agents/skills/Upper-Dup",
        "Upper-Dup",
        "Upper case.",
    );
    let under = f.skill("project/.agents/skills/a_b", "a_b", "Underscore.");
    let double = f.skill("project/.agents/skills/a--b", "a--b", "Doubled hyphen.");
    let ms = [m];
    let cat = f.catalog(&ms);
    expect(&cat, &upper, "mistral-vibe", Visible, &[]);
    for p in [&under, &double] {
        expect(
            &cat,
            p,
            "mistral-vibe",
            Rejected,
            &["mistral-vibe/name_rules.charset"],
        );
    }
}

// ------------------------------------------------------------------------------------------
// The agents that needed the new precedence and root rules
// ------------------------------------------------------------------------------------------

/// Cline: the last root read wins, so ~/.agents/skills beats ~/.cline/skills beats the project
/// (@cline/core 0.0.86 UnifiedConfigFileWatcher keeps records by id and a later root
/// overwrites; the 3.0.65 TUI showed the ~/.agents copy of `dup`). The project roots are read
/// in the git root only.
#[test]
fn cline_last_root_wins_and_reads_the_git_root() {
    let f = Fx::new("repo/sub");
    f.git_repo("repo");
    let proj = f.skill("repo/.clinerules/skills/dup", "dup", "Project copy.");
    let cline = f.skill("home/.cline/skills/dup", "dup", "~/.cline copy.");
    let agents = f.skill("home/.agents/skills/dup", "dup", "~/.agents copy.");
    let in_sub = f.skill("repo/sub/.cline/skills/below", "below", "Below the root.");
    let ms = [model("cline")];
    let cat = f.catalog(&ms);
    expect(
        &cat,
        &agents,
        "cline",
        Visible,
        &["cline/roots.user-agents"],
    );
    for p in [&proj, &cline] {
        let v = expect(&cat, p, "cline", Shadowed, &[]);
        assert_eq!(v.winner.as_deref(), Some(agents.as_path()), "{}", show(v));
    }
    expect(
        &cat,
        &in_sub,
        "cline",
        NotFound,
        &["cline/roots.project-cline.walk"],
    );
    // A skill without a name takes its folder's name. (Cline also compares names lower-cased,
    // which the format cannot express: `collision_key` is exact.)
    let g = Fx::new("p");
    g.git_repo("p");
    let nameless = g.put(
        "p/.agents/skills/nameless/SKILL.md",
        "---\ndescription: No name.\n---\nBody.\n",
    );
    let ms = [model("cline")];
    let cat = g.catalog(&ms);
    let v = expect(&cat, &nameless, "cline", Visible, &[]);
    assert_eq!(v.as_name.as_deref(), Some("nameless"));
}

/// Crush: every copy is ranked by its folder path and the last one wins, whatever the root
/// (skills.go DiscoverWithStates sorts by path, Deduplicate keeps the last occurrence).
#[test]
fn crush_ranks_copies_by_path_and_keeps_the_last() {
    // The project sorts after the home folder here: `/…/zproject` > `/…/home`.
    let f = Fx::new("zproject");
    let home_copy = f.skill("home/.agents/skills/dup", "dup", "Home copy.");
    let proj_copy = f.skill("zproject/.agents/skills/dup", "dup", "Project copy.");
    let ms = [model("crush")];
    let cat = f.catalog(&ms);
    expect(&cat, &proj_copy, "crush", Visible, &[]);
    let v = expect(
        &cat,
        &home_copy,
        "crush",
        Shadowed,
        &["crush/precedence.order"],
    );
    assert_eq!(
        v.winner.as_deref(),
        Some(proj_copy.as_path()),
        "{}",
        show(v)
    );
    // A project that sorts before the home folder loses to the home copy.
    let g = Fx::new("aproject");
    let home_copy = g.skill("home/.claude/skills/dup", "dup", "Home copy.");
    let proj_copy = g.skill("aproject/.crush/skills/dup", "dup", "Project copy.");
    let ms = [model("crush")];
    let cat = g.catalog(&ms);
    expect(&cat, &home_copy, "crush", Visible, &[]);
    let v = expect(
        &cat,
        &proj_copy,
        "crush",
        Shadowed,
        &["crush/precedence.order"],
    );
    assert_eq!(
        v.winner.as_deref(),
        Some(home_copy.as_path()),
        "{}",
        show(v)
    );
}

/// Crush: $CRUSH_SKILLS_DIR replaces the four default user roots (load.go GlobalSkillsDirs);
/// the name must equal the folder name and match `^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$`.
#[test]
fn crush_skills_dir_replaces_the_user_roots() {
    let f = Fx::new("project");
    let user = f.skill(
        "home/.config/crush/skills/mine",
        "mine",
        "Default user root.",
    );
    let env_skill = f.skill("custom/theirs", "theirs", "From CRUSH_SKILLS_DIR.");
    let mismatch = f.skill("project/.agents/skills/folder-x", "fm-name", "Mismatch.");
    let upper = f.skill(
        "project/.agents/skills/Upper-Dup",
        "Upper-Dup",
        "Upper case.",
    );
    let ms = [model("crush")];
    let custom = f.base.join("custom");
    let cat = f.catalog_with(&ms, &[("CRUSH_SKILLS_DIR", custom.to_str().unwrap())]);
    expect(
        &cat,
        &env_skill,
        "crush",
        Visible,
        &["crush/roots.env-skills-dir"],
    );
    expect(&cat, &user, "crush", NotFound, &[]);
    expect(
        &cat,
        &mismatch,
        "crush",
        Rejected,
        &["crush/name_rules.folder_mismatch"],
    );
    expect(&cat, &upper, "crush", Visible, &[]);
    // Unset, the default user root is read and the variable's root is inactive.
    let cat = f.catalog(&ms);
    expect(&cat, &user, "crush", Visible, &["crush/roots.user-crush"]);
}

/// Kimi Code: of ~/.config/agents/skills and ~/.agents/skills only the first that exists is
/// read (skill/__init__.py `_get_user_generic_skills_dir_candidates` + `find_first_existing_dir`).
#[test]
fn kimi_reads_the_first_existing_generic_user_root() {
    let f = Fx::new("project");
    let config = f.skill(
        "home/.config/agents/skills/one",
        "one",
        "First of the group.",
    );
    let dot = f.skill("home/.agents/skills/two", "two", "Second of the group.");
    let ms = [model("kimi-code")];
    let cat = f.catalog(&ms);
    expect(
        &cat,
        &config,
        "kimi-code",
        Visible,
        &["kimi-code/roots.user-config-agents"],
    );
    let v = expect(&cat, &dot, "kimi-code", NotFound, &[]);
    assert!(
        v.reasons
            .iter()
            .any(|r| r.message.contains("comes first in its group")),
        "{}",
        show(v)
    );
    // Without ~/.config/agents/skills, ~/.agents/skills is read.
    let g = Fx::new("project");
    let dot = g.skill("home/.agents/skills/two", "two", "Alone.");
    let cat = g.catalog(&ms);
    expect(
        &cat,
        &dot,
        "kimi-code",
        Visible,
        &["kimi-code/roots.user-agents"],
    );
}

/// Kimi Code: project skills come from the project root (the nearest .git), and a project copy
/// beats the user copy (first wins); a skill without frontmatter takes its folder's name.
#[test]
fn kimi_project_root_and_folder_names() {
    let f = Fx::new("repo/sub");
    f.git_repo("repo");
    let root = f.skill("repo/.kimi/skills/dup", "dup", "Project copy.");
    let user = f.skill("home/.kimi/skills/dup", "dup", "User copy.");
    let below = f.skill(
        "repo/sub/.kimi/skills/below",
        "below",
        "In cwd below the root.",
    );
    let plain = f.put("repo/.agents/skills/plain/SKILL.md", "# Just a body\n");
    let ms = [model("kimi-code")];
    let cat = f.catalog(&ms);
    expect(&cat, &root, "kimi-code", Visible, &[]);
    let v = expect(&cat, &user, "kimi-code", Shadowed, &[]);
    assert_eq!(v.winner.as_deref(), Some(root.as_path()));
    expect(
        &cat,
        &below,
        "kimi-code",
        NotFound,
        &["kimi-code/roots.project-kimi.walk"],
    );
    let v = expect(&cat, &plain, "kimi-code", Visible, &[]);
    assert_eq!(v.as_name.as_deref(), Some("plain"));
}

/// Letta Code: a later root replaces an earlier one, so .agents/skills in the working folder
/// beats ~/.letta/skills (letta.js discoverSkills: Map.set in read order, project last).
#[test]
fn letta_project_replaces_user() {
    let f = Fx::new("project");
    let user = f.skill("home/.letta/skills/dup", "dup", "User copy.");
    let legacy = f.skill("project/.skills/dup", "dup", "Legacy project copy.");
    let proj = f.skill("project/.agents/skills/dup", "dup", "Project copy.");
    let ms = [model("letta-code")];
    let cat = f.catalog(&ms);
    expect(&cat, &proj, "letta-code", Visible, &[]);
    for p in [&user, &legacy] {
        let v = expect(&cat, p, "letta-code", Shadowed, &[]);
        assert_eq!(v.winner.as_deref(), Some(proj.as_path()), "{}", show(v));
    }
}
