//! Conformance of the resolver with the research: one test per finding, each building a fixture
//! tree (project + fake home) in a temp dir and asserting the per-agent verdicts (status, `as`
//! name, winner) and the rule ids of the reasons.
//!
//! Expected values come from the research in ../shared (seeds, newest-releases.md, which
//! overrides older findings, agent-matrix.md, oss-harnesses.md, closed-harnesses.md), never from
//! skilltui's current output; each test cites its source. Where skilltui disagrees with the
//! research the test keeps the research's value and is marked `#[ignore = "BUG: …"]`.

use crate::common::{Tree, expect, not_visible, show, skill_md as md, tree_fixture, verdict};
use skilltui::agents::{self, Scope};
use skilltui::catalog::Catalog;
use skilltui::resolve::Status;
use std::path::{Path, PathBuf};

use Status::{NotFound, Rejected, Shadowed, Unknown, Visible};

// ------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------

tree_fixture!(
    /// A fixture: `base/home` is HOME, `base/<project>` the agent's working folder.
    Fx
);

impl Fx {
    /// A project at `base/<project_rel>` (created) and a home at `base/home`.
    fn new(project_rel: &str) -> Fx {
        Fx(Tree::new(project_rel))
    }

    /// A git project at `base/project`.
    fn git() -> Fx {
        Fx(Tree::git())
    }

    fn p(&self, rel: &str) -> PathBuf {
        self.base.join(rel)
    }

    fn catalog(&self) -> Catalog {
        self.catalog_with(&[])
    }

    fn catalog_with(&self, vars: &[(&str, &str)]) -> Catalog {
        Catalog::build(&agents::builtin(), &self.env_with(vars))
    }
}

/// Visible under the name `as_name`, with the given rules among the reasons.
#[track_caller]
fn visible_as(cat: &Catalog, path: &Path, agent: &str, as_name: &str, rules: &[&str]) {
    let v = expect(cat, path, agent, Visible, rules);
    assert_eq!(
        v.as_name.as_deref(),
        Some(as_name),
        "{agent} on {}: listed name\n{}",
        path.display(),
        show(v)
    );
}

/// Shadowed by `winner`, with the given rules among the reasons.
#[track_caller]
fn shadowed_by(cat: &Catalog, path: &Path, agent: &str, winner: &Path, rules: &[&str]) {
    let v = expect(cat, path, agent, Shadowed, rules);
    assert_eq!(
        v.winner.as_deref(),
        Some(winner),
        "{agent} on {}: winner\n{}",
        path.display(),
        show(v)
    );
}

/// Not found (or rejected…) with at least one of `rules` among the reasons.
#[track_caller]
fn expect_any_rule(cat: &Catalog, path: &Path, agent: &str, status: Status, rules: &[&str]) {
    let v = expect(cat, path, agent, status, &[]);
    assert!(
        v.reasons.iter().any(|x| rules.contains(&x.rule.as_str())),
        "{agent} on {}: expected one of {rules:?}\n{}",
        path.display(),
        show(v)
    );
}

/// Claude Code reads `.claude/skills`; Codex never reads `.claude`; Antigravity does not scan
/// `.claude/skills`. newest-releases.md Codex §5 ("never .claude"); agent-matrix.md §1 Project
/// roots (antigravity: `.claude/skills` not scanned [ASI 1.2.11]; copilot, cursor, opencode
/// read it); oss-harnesses.md §3.1 (pi: `.pi/skills`, `.agents/skills` only).
#[test]
fn claude_skills_root_per_agent() {
    let f = Fx::git();
    let c = f.skill("project/.claude/skills/native", "native", "Claude skill.");
    let cat = f.catalog();
    visible_as(
        &cat,
        &c,
        "claude-code",
        "native",
        &["claude-code/roots.project"],
    );
    expect(
        &cat,
        &c,
        "codex",
        NotFound,
        &["codex/not_roots.claude-skills"],
    );
    expect(
        &cat,
        &c,
        "antigravity",
        NotFound,
        &["antigravity/not_roots.claude-skills"],
    );
    expect(&cat, &c, "pi", NotFound, &["pi/roots"]);
    visible_as(
        &cat,
        &c,
        "copilot-cli",
        "native",
        &["copilot-cli/roots.project-claude"],
    );
    visible_as(
        &cat,
        &c,
        "opencode",
        "native",
        &["opencode/roots.project-claude"],
    );
    visible_as(
        &cat,
        &c,
        "cursor",
        "native",
        &["cursor/roots.project-claude"],
    );
}

// ------------------------------------------------------------------------------------------
// Traversal
// ------------------------------------------------------------------------------------------

/// `<root>/group/skill/SKILL.md`: Codex and Copilot recurse, Claude Code and Antigravity read
/// direct children only; OpenCode and pi recurse. seeds/000 "Scan recursively, but stop at a
/// skill boundary" (recursive-root-discovery); newest-releases.md Claude Code 2.1.332 §5,
/// Copilot 1.0.102 §7; agent-matrix.md §2 Recursion.
/// Cursor is left out: the docs say category folders are "purely organizational" but the depth
/// limit is unknown and a 2026-01 nightly was flat only (agent-matrix.md §2).
#[test]
fn grouped_skill_folders() {
    let f = Fx::git();
    let a = f.skill(
        "project/.agents/skills/group/grouped",
        "grouped",
        "Grouped.",
    );
    let c = f.skill(
        "project/.claude/skills/group/cgrouped",
        "cgrouped",
        "Grouped.",
    );
    let cat = f.catalog();
    expect(
        &cat,
        &c,
        "claude-code",
        NotFound,
        &["claude-code/traversal.max_depth"],
    );
    expect(
        &cat,
        &a,
        "antigravity",
        NotFound,
        &["antigravity/traversal.max_depth"],
    );
    for agent in ["codex", "copilot-cli", "opencode", "pi"] {
        visible_as(&cat, &a, agent, "grouped", &[]);
    }
    visible_as(&cat, &c, "copilot-cli", "cgrouped", &[]);
    visible_as(&cat, &c, "opencode", "cgrouped", &[]);
}

/// A SKILL.md inside another skill's folder: Codex and OpenCode register it, Copilot CLI,
/// Claude Code, Antigravity and pi 0.73.1 do not. seeds/000 (nested-skill-discovery);
/// newest-releases.md Codex §5 ("nested skills all registered"), pi §1 (0.63.1, #2603),
/// Copilot §7, Claude Code §5; agent-matrix.md §2 (OpenCode registered [OBS 1.18.34]; Cursor
/// unknown [INF]).
#[test]
fn skill_nested_inside_a_skill() {
    let f = Fx::git();
    let outer = f.skill("project/.agents/skills/outer", "outer", "Outer.");
    let inner = f.skill(
        "project/.agents/skills/outer/references/inner",
        "inner",
        "Inner.",
    );
    let couter = f.skill("project/.claude/skills/couter", "couter", "Outer.");
    let cinner = f.skill("project/.claude/skills/couter/cinner", "cinner", "Inner.");
    let cat = f.catalog();
    for agent in ["codex", "copilot-cli", "antigravity", "opencode", "pi"] {
        visible_as(&cat, &outer, agent, "outer", &[]);
    }
    visible_as(&cat, &couter, "claude-code", "couter", &[]);
    visible_as(&cat, &inner, "codex", "inner", &[]);
    visible_as(&cat, &inner, "opencode", "inner", &[]);
    expect(
        &cat,
        &inner,
        "copilot-cli",
        NotFound,
        &["copilot-cli/traversal.nested"],
    );
    expect(&cat, &inner, "pi", NotFound, &["pi/traversal.nested"]);
    expect(&cat, &inner, "cursor", Unknown, &[]);
    // Direct children only: the depth rule or the nesting rule decides.
    expect_any_rule(
        &cat,
        &inner,
        "antigravity",
        NotFound,
        &[
            "antigravity/traversal.max_depth",
            "antigravity/traversal.nested",
        ],
    );
    expect_any_rule(
        &cat,
        &cinner,
        "claude-code",
        NotFound,
        &[
            "claude-code/traversal.max_depth",
            "claude-code/traversal.nested",
        ],
    );
    expect(
        &cat,
        &cinner,
        "copilot-cli",
        NotFound,
        &["copilot-cli/traversal.nested"],
    );
}

/// Codex finds a SKILL.md at most 6 folders below a root: `a/b/c/d/e/x/SKILL.md` loads, one
/// level deeper does not. Copilot (9 levels load), OpenCode (10) and pi (9) have no limit.
/// newest-releases.md Codex §5, Copilot 1.0.102 §6, pi §4; agent-matrix.md §2 Recursion.
#[test]
fn depth_limits() {
    let f = Fx::git();
    let six = f.skill("project/.agents/skills/a/b/c/d/e/six", "six", "Six deep.");
    let seven = f.skill(
        "project/.agents/skills/a/b/c/d/e/f/seven",
        "seven",
        "Seven deep.",
    );
    let nine = f.skill(
        "project/.agents/skills/a/b/c/d/e/f/g/h/nine",
        "nine",
        "Nine deep.",
    );
    let cat = f.catalog();
    visible_as(&cat, &six, "codex", "six", &[]);
    expect(
        &cat,
        &seven,
        "codex",
        NotFound,
        &["codex/traversal.max_depth"],
    );
    expect(
        &cat,
        &nine,
        "codex",
        NotFound,
        &["codex/traversal.max_depth"],
    );
    for agent in ["copilot-cli", "opencode", "pi"] {
        visible_as(&cat, &seven, agent, "seven", &[]);
        visible_as(&cat, &nine, agent, "nine", &[]);
    }
}

/// Hidden folders: skipped by Codex and pi; OpenCode enters them under `.claude`/`.agents`
/// roots but not under `.opencode`; Copilot CLI unknown. newest-releases.md Codex §5, pi §4;
/// agent-matrix.md §2 Hidden folders.
#[test]
fn hidden_folders() {
    let f = Fx::git();
    let h = f.skill("project/.agents/skills/.hidden/hid", "hid", "Hidden.");
    let o = f.skill("project/.opencode/skills/.hidden/ohid", "ohid", "Hidden.");
    let cat = f.catalog();
    expect(&cat, &h, "codex", NotFound, &["codex/traversal.hidden"]);
    expect(&cat, &h, "pi", NotFound, &["pi/traversal.hidden"]);
    visible_as(&cat, &h, "opencode", "hid", &[]);
    expect(
        &cat,
        &h,
        "copilot-cli",
        Unknown,
        &["copilot-cli/traversal.hidden"],
    );
    expect(
        &cat,
        &o,
        "opencode",
        NotFound,
        &["opencode/roots.project-opencode-skills.traversal.hidden"],
    );
}

/// `node_modules`: scanned by Codex, OpenCode and Copilot CLI, skipped by pi.
/// newest-releases.md Codex §5, pi §4; agent-matrix.md §2 node_modules; Copilot CLI 1.0.102:
/// the oracle (random tree 542, where the research had it unknown).
#[test]
fn node_modules_folders() {
    let f = Fx::git();
    let n = f.skill(
        "project/.agents/skills/node_modules/pkg",
        "pkg",
        "In node_modules.",
    );
    let cat = f.catalog();
    visible_as(&cat, &n, "codex", "pkg", &[]);
    visible_as(&cat, &n, "opencode", "pkg", &[]);
    expect(&cat, &n, "pi", NotFound, &["pi/traversal.node_modules"]);
    visible_as(&cat, &n, "copilot-cli", "pkg", &[]);
}

/// A lowercase `skill.md` is ignored by Codex, Copilot CLI, Claude Code, OpenCode and pi.
/// newest-releases.md Codex §5, Copilot 1.0.102 §6, Claude Code 2.1.332 §5; agent-matrix.md §2
/// File name (OpenCode [OBS 1.18.34], pi [OBS 0.58.3]; Cursor case handling unknown).
#[test]
fn lowercase_skill_md_is_ignored() {
    let f = Fx::git();
    let a = f.put(
        "project/.agents/skills/low/skill.md",
        &md("low", "Lower case."),
    );
    let c = f.put(
        "project/.claude/skills/clow/skill.md",
        &md("clow", "Lower case."),
    );
    let cat = f.catalog();
    for agent in ["codex", "copilot-cli", "opencode", "pi"] {
        expect(
            &cat,
            &a,
            agent,
            NotFound,
            &[&format!("{agent}/traversal.file_name")],
        );
    }
    expect(
        &cat,
        &c,
        "claude-code",
        NotFound,
        &["claude-code/traversal.file_name"],
    );
    expect(&cat, &a, "cursor", Unknown, &["cursor/traversal.file_name"]);
}

/// Loose `*.md` directly in a root: skills in `.pi/skills` (and `~/.pi/agent/skills`), not in
/// `.agents/skills` since pi 0.73.1; never for Codex, Copilot, OpenCode, Claude Code.
/// newest-releases.md pi §2; agent-matrix.md §2 Loose *.md.
#[test]
fn loose_md_in_pi_skills() {
    let f = Fx::git();
    let loose = f.put("project/.pi/skills/foo.md", &md("foo", "Loose file."));
    let uloose = f.put("home/.pi/agent/skills/ufoo.md", &md("ufoo", "Loose file."));
    let aloose = f.put("project/.agents/skills/bar.md", &md("bar", "Loose file."));
    let cat = f.catalog();
    visible_as(&cat, &loose, "pi", "foo", &["pi/roots.project-pi"]);
    visible_as(&cat, &uloose, "pi", "ufoo", &["pi/roots.user-pi"]);
    expect(&cat, &aloose, "pi", NotFound, &["pi/traversal.loose_md"]);
    for agent in ["codex", "copilot-cli", "opencode"] {
        not_visible(&cat, &aloose, agent);
    }
}

/// pi loads a loose `foo.md` "with a name-mismatch warning": its parent folder is the skills
/// root itself. newest-releases.md pi §2; agent-matrix.md §2 Loose *.md [OBS 0.73.1];
/// oss-harnesses.md §3.3 ("For root-level foo.md files the 'parent directory' is the skills root
/// itself, which produces a mismatch warning").
#[test]

fn loose_md_in_pi_skills_warns_name_mismatch() {
    let f = Fx::git();
    let loose = f.put("project/.pi/skills/foo.md", &md("foo", "Loose file."));
    let cat = f.catalog();
    visible_as(
        &cat,
        &loose,
        "pi",
        "foo",
        &["pi/name_rules.folder_mismatch"],
    );
}

/// A SKILL.md directly in a root: Copilot CLI turns the whole root into one skill and hides
/// everything below; Codex and OpenCode count it as a skill (and still see the one below);
/// Claude Code ignores it. newest-releases.md Copilot 1.0.102 §5, Codex §5, Claude Code
/// 2.1.332 §5; agent-matrix.md §2 Loose *.md (OpenCode [OBS 1.18.34]).
#[test]
fn skill_md_directly_in_a_root() {
    let f = Fx::git();
    let top = f.skill("project/.agents/skills", "top", "The whole root.");
    let below = f.skill(
        "project/.agents/skills/below",
        "below",
        "Below the root skill.",
    );
    let ctop = f.skill("project/.claude/skills", "ctop", "In the Claude root.");
    let cat = f.catalog();
    visible_as(&cat, &top, "copilot-cli", "top", &[]);
    expect(
        &cat,
        &below,
        "copilot-cli",
        NotFound,
        &["copilot-cli/traversal.skill_md_in_root"],
    );
    visible_as(&cat, &top, "codex", "top", &[]);
    visible_as(&cat, &below, "codex", "below", &[]);
    visible_as(&cat, &top, "opencode", "top", &[]);
    visible_as(&cat, &below, "opencode", "below", &[]);
    expect(
        &cat,
        &ctop,
        "claude-code",
        NotFound,
        &["claude-code/traversal.skill_md_in_root"],
    );
    // pi: a SKILL.md directly in `.agents/skills` still loads, with a warning that its name
    // does not match the folder "skills" (newest-releases.md pi §2).
    visible_as(&cat, &top, "pi", "top", &["pi/name_rules.folder_mismatch"]);
}

/// A symlinked skill folder is followed by Codex, Copilot, Claude Code, OpenCode and pi. A
/// symlinked SKILL.md *file* is ignored by Codex and followed by Copilot, OpenCode and pi.
/// newest-releases.md Codex §5, Copilot 1.0.102 §6, Claude Code 2.1.332 §5, pi §4;
/// agent-matrix.md §2 Symlinks (OpenCode).
#[cfg(unix)]
#[test]
fn symlinked_skill_folder_and_file() {
    use std::os::unix::fs::symlink;
    let f = Fx::git();
    f.skill("store/linked", "linked", "Reached through a link.");
    f.skill("store/clinked", "clinked", "Reached through a link.");
    f.put("store/filelink/SKILL.md", &md("filelink", "A linked file."));
    f.mkdir("project/.agents/skills/filelink");
    f.mkdir("project/.claude/skills");
    symlink(f.p("store/linked"), f.p("project/.agents/skills/linked")).unwrap();
    symlink(f.p("store/clinked"), f.p("project/.claude/skills/clinked")).unwrap();
    symlink(
        f.p("store/filelink/SKILL.md"),
        f.p("project/.agents/skills/filelink/SKILL.md"),
    )
    .unwrap();
    let dir_link = f.p("project/.agents/skills/linked/SKILL.md");
    let cdir_link = f.p("project/.claude/skills/clinked/SKILL.md");
    let file_link = f.p("project/.agents/skills/filelink/SKILL.md");
    let cat = f.catalog();
    for agent in ["codex", "copilot-cli", "opencode", "pi"] {
        visible_as(&cat, &dir_link, agent, "linked", &[]);
    }
    visible_as(&cat, &cdir_link, "claude-code", "clinked", &[]);
    expect(
        &cat,
        &file_link,
        "codex",
        NotFound,
        &["codex/traversal.symlinked_files"],
    );
    for agent in ["copilot-cli", "opencode", "pi"] {
        visible_as(&cat, &file_link, agent, "filelink", &[]);
    }
}

/// A plain `2024-01-01` is a date for OpenCode's js-yaml, so a date description drops the
/// skill; quoted it is a string; pi's YAML 1.2 reader takes it as a string (the oracle, case
/// yaml@agents).
#[test]
fn a_plain_date_description() {
    let f = Fx::git();
    f.put(
        "project/.agents/skills/dated/SKILL.md",
        "---\nname: dated\ndescription: 2024-01-01\n---\n",
    );
    f.put(
        "project/.agents/skills/quoted/SKILL.md",
        "---\nname: quoted\ndescription: \"2024-01-01\"\n---\n",
    );
    let cat = f.catalog();
    let dated = f.p("project/.agents/skills/dated/SKILL.md");
    let quoted = f.p("project/.agents/skills/quoted/SKILL.md");
    let v = expect(
        &cat,
        &dated,
        "opencode",
        Rejected,
        &["opencode/parse.non_string_scalars"],
    );
    assert!(
        v.reasons.iter().any(|r| r.message.contains("timestamp")),
        "{}",
        show(v)
    );
    visible_as(&cat, &quoted, "opencode", "quoted", &[]);
    visible_as(&cat, &dated, "pi", "dated", &[]);
}

/// pi loads loose `*.md` in `.pi/skills`, but not when the root itself holds a SKILL.md: the
/// root is then one skill and pi does not look inside a skill (the oracle, case
/// skill-md-in-root).
#[test]
fn pi_loose_md_beside_a_root_skill_md() {
    let loose = "---\nname: loose\ndescription: A loose file.\n---\n";
    // Alone, a loose file in .pi/skills is a pi skill.
    let f = Fx::git();
    f.put("project/.pi/skills/loose.md", loose);
    let cat = f.catalog();
    visible_as(
        &cat,
        &f.p("project/.pi/skills/loose.md"),
        "pi",
        "loose",
        &[],
    );
    // Beside a SKILL.md in the root, no agent loads it, so the catalog does not list it.
    let g = Fx::git();
    g.put(
        "project/.pi/skills/SKILL.md",
        "---\nname: rooted\ndescription: The root is a skill.\n---\n",
    );
    g.put("project/.pi/skills/loose.md", loose);
    let cat = g.catalog();
    assert!(cat.skill(&g.p("project/.pi/skills/loose.md")).is_none());
    assert!(cat.skill(&g.p("project/.pi/skills/SKILL.md")).is_some());
}

/// A bare `.git` folder (no HEAD, objects, refs), which git does not take for a repository:
/// Codex (for `.agents/skills`), pi and Claude Code test for `.git` by name and take it for the
/// project root; Copilot CLI asks git (the oracle, case fake-git).
#[test]
fn a_bare_dot_git_folder() {
    let f = Fx::new("w/project/sub");
    f.mkdir("w/project/.git");
    let top = f.skill(
        "w/project/.agents/skills/fk-top",
        "fk-top",
        "At the fake git root.",
    );
    let above_agents = f.skill(
        "w/.agents/skills/fk-above",
        "fk-above",
        "Above the fake git root.",
    );
    let above_claude = f.skill(
        "w/.claude/skills/fk-above-claude",
        "fk-above-claude",
        "Above the fake git root.",
    );
    let cat = f.catalog();
    // Codex walks .agents/skills down from the marker: the top copy is found.
    visible_as(&cat, &top, "codex", "fk-top", &[]);
    // pi and Claude Code stop at the marker: nothing above it.
    expect(
        &cat,
        &above_agents,
        "pi",
        NotFound,
        &["pi/roots.project-agents.walk"],
    );
    expect(
        &cat,
        &above_claude,
        "claude-code",
        NotFound,
        &["claude-code/roots.project.walk"],
    );
    // Copilot CLI asks git: no repository, so it walks on up.
    visible_as(&cat, &above_agents, "copilot-cli", "fk-above", &[]);
}

/// An empty frontmatter block: Copilot CLI reads it as no fields (folder name, body text as the
/// description); Codex rejects it (the oracle, case yaml@agents and random trees).
#[test]
fn an_empty_frontmatter_block() {
    let f = Fx::git();
    f.put(
        "project/.agents/skills/blank/SKILL.md",
        "---\n---\nUse this for blank things.\n",
    );
    let cat = f.catalog();
    let blank = f.p("project/.agents/skills/blank/SKILL.md");
    visible_as(
        &cat,
        &blank,
        "copilot-cli",
        "blank",
        &["copilot-cli/parse.empty_block_is_mapping"],
    );
    assert_ne!(
        cat.skill(&blank).unwrap().verdict("codex").unwrap().status,
        Visible
    );
}

/// `description: null` is not a string for OpenCode: the skill is dropped, unlike an empty or a
/// missing description (the oracle, case yaml@agents).
#[test]
fn a_null_description_in_opencode() {
    let f = Fx::git();
    f.put(
        "project/.agents/skills/nulled/SKILL.md",
        "---\nname: nulled\ndescription: null\n---\n",
    );
    f.put(
        "project/.agents/skills/emptied/SKILL.md",
        "---\nname: emptied\ndescription: \"\"\n---\n",
    );
    let cat = f.catalog();
    let nulled = f.p("project/.agents/skills/nulled/SKILL.md");
    let emptied = f.p("project/.agents/skills/emptied/SKILL.md");
    expect(
        &cat,
        &nulled,
        "opencode",
        Rejected,
        &["opencode/parse.non_string_scalars"],
    );
    visible_as(&cat, &emptied, "opencode", "emptied", &[]);
}

/// Codex reports a symlinked skill folder at its canonical path, and a skill whose name falls
/// back to its folder is named after the canonical folder, not the link (the oracle found it:
/// random trees 188, 237 and 486 against Codex 0.171.0).
#[cfg(unix)]
#[test]
fn codex_names_a_linked_folder_after_its_target() {
    let f = Fx::git();
    f.put(
        "store/target-folder/SKILL.md",
        "---\nname: \"\"\ndescription: Empty name.\n---\n",
    );
    f.mkdir("project/.agents/skills");
    std::os::unix::fs::symlink(
        f.p("store/target-folder"),
        f.p("project/.agents/skills/link-name"),
    )
    .unwrap();
    let cat = f.catalog();
    let link = f.p("project/.agents/skills/link-name/SKILL.md");
    visible_as(
        &cat,
        &link,
        "codex",
        "target-folder",
        &["codex/name_rules.empty"],
    );
}

/// pi honours a `.gitignore` inside the skills root; Codex and OpenCode honour no ignore file.
/// newest-releases.md pi §4, Codex §5; agent-matrix.md §2 Ignore files.
#[test]
fn gitignore_inside_the_root() {
    let f = Fx::git();
    f.put("project/.agents/skills/.gitignore", "ignored/\n");
    let s = f.skill(
        "project/.agents/skills/ignored",
        "ignored",
        "Ignored by pi.",
    );
    let cat = f.catalog();
    expect(&cat, &s, "pi", NotFound, &["pi/traversal.ignore_files"]);
    visible_as(&cat, &s, "codex", "ignored", &[]);
    visible_as(&cat, &s, "opencode", "ignored", &[]);
}

/// An agent for which nothing establishes whether it honours ignore files (Copilot CLI) is told
/// which ignore file matches the skill: each file with its own patterns, the nearest file for a
/// skill below it, the root's file for one it alone matches; a skill no file matches is left
/// alone. Each file's patterns are compiled once and asked for every skill and agent.
#[test]
fn each_ignore_file_answers_with_its_own_patterns() {
    let f = Fx::git();
    f.put("project/.agents/skills/.gitignore", "a-*\n");
    f.put("project/.agents/skills/sub/.ignore", "b-*\n");
    let a_top = f.skill("project/.agents/skills/a-one", "a-one", "Root file.");
    let b_sub = f.skill("project/.agents/skills/sub/b-two", "b-two", "Sub file.");
    let a_sub = f.skill(
        "project/.agents/skills/sub/a-three",
        "a-three",
        "Root file, deeper.",
    );
    let c_top = f.skill("project/.agents/skills/c-four", "c-four", "No file.");
    let cat = f.catalog();
    // "<file> in <its folder> matches it; …"
    let says = |path: &Path, file: &str, folder: &str| {
        let v = verdict(&cat, path, "copilot-cli");
        let text = v
            .reasons
            .iter()
            .map(|r| r.message.to_string())
            .find(|m| m.contains("matches it"))
            .unwrap_or_else(|| panic!("no ignore-file reason\n{}", show(v)));
        assert!(
            text.starts_with(&format!("{file} in "))
                && text.contains(&format!("{folder} matches it")),
            "{}: {text}",
            path.display()
        );
    };
    says(&a_top, ".gitignore", "/project/.agents/skills/");
    says(&b_sub, ".ignore", "/project/.agents/skills/sub");
    says(&a_sub, ".gitignore", "/project/.agents/skills/");
    let v = verdict(&cat, &c_top, "copilot-cli");
    assert!(
        !v.reasons
            .iter()
            .any(|r| r.message.to_string().contains("matches it")),
        "{}",
        show(v)
    );
}

/// pi 0.73.1 gives each ignore file's lines their folder in front after dropping one leading
/// `/`, in one matcher per root (`ignore_anchoring = "folder-prefixed"`): a root `/anch/` also
/// skips `sub/anch`, and a nested `deep-*` skips only that folder's own entries.
/// tests/oracle case ignore-file-rules (2026-12-02).
#[test]
fn pi_ignore_patterns_get_their_folder_in_front() {
    let f = Fx::git();
    f.put("project/.pi/skills/.gitignore", "/anch/\n");
    f.put("project/.pi/skills/sub/.ignore", "deep-*\n");
    let sub_anch = f.skill("project/.pi/skills/sub/anch", "anch", "Below the root.");
    let deep1 = f.skill("project/.pi/skills/sub/deep-1", "deep-1", "Sub's own.");
    let deep2 = f.skill(
        "project/.pi/skills/sub/x/deep-2",
        "deep-2",
        "One further down.",
    );
    let cat = f.catalog();
    expect(
        &cat,
        &sub_anch,
        "pi",
        NotFound,
        &["pi/traversal.ignore_files"],
    );
    expect(&cat, &deep1, "pi", NotFound, &["pi/traversal.ignore_files"]);
    visible_as(&cat, &deep2, "pi", "deep-2", &[]);
}

// ------------------------------------------------------------------------------------------
// Project walk
// ------------------------------------------------------------------------------------------

/// Inside a git repository (git root = base/repo, cwd = base/repo/sub): `.claude/skills` in cwd
/// and in the git root load for Claude Code, one above the git root does not; the cwd's copy
/// beats the git root's. Codex: nothing above the git root. pi: `.pi/skills` in cwd only.
/// newest-releases.md Claude Code 2.1.332 §3, Codex §5, pi §4; agent-matrix.md §1 Project walk.
#[test]
fn parent_claude_skills_above_and_below_the_git_root() {
    let f = Fx::new("repo/sub");
    f.git_repo("repo");
    let above = f.skill(".claude/skills/above", "above", "Above the git root.");
    let at_root = f.skill("repo/.claude/skills/atroot", "atroot", "At the git root.");
    let at_cwd = f.skill("repo/sub/.claude/skills/atcwd", "atcwd", "In cwd.");
    let dup_root = f.skill("repo/.claude/skills/dup", "dup", "Parent copy.");
    let dup_cwd = f.skill("repo/sub/.claude/skills/dup", "dup", "Cwd copy.");
    let a_above = f.skill(".agents/skills/aabove", "aabove", "Above the git root.");
    let a_root = f.skill("repo/.agents/skills/aroot", "aroot", "At the git root.");
    let pi_root = f.skill("repo/.pi/skills/piroot", "piroot", "Git root's .pi.");
    let cat = f.catalog();
    expect(
        &cat,
        &above,
        "claude-code",
        NotFound,
        &["claude-code/roots.project.walk"],
    );
    visible_as(&cat, &at_root, "claude-code", "atroot", &[]);
    visible_as(&cat, &at_cwd, "claude-code", "atcwd", &[]);
    visible_as(&cat, &dup_cwd, "claude-code", "dup", &[]);
    shadowed_by(
        &cat,
        &dup_root,
        "claude-code",
        &dup_cwd,
        &["claude-code/precedence.order"],
    );
    for agent in ["codex", "copilot-cli", "opencode", "pi"] {
        expect(
            &cat,
            &a_above,
            agent,
            NotFound,
            &[&format!("{agent}/roots.project-agents.walk")],
        );
        visible_as(&cat, &a_root, agent, "aroot", &[]);
    }
    expect(
        &cat,
        &above,
        "copilot-cli",
        NotFound,
        &["copilot-cli/roots.project-claude.walk"],
    );
    expect(
        &cat,
        &above,
        "opencode",
        NotFound,
        &["opencode/roots.project-claude.walk"],
    );
    expect(
        &cat,
        &pi_root,
        "pi",
        NotFound,
        &["pi/roots.project-pi.walk"],
    );
}

/// A project that is not a git repository, under HOME (HOME = base/home, cwd =
/// base/home/work/proj): Codex scans cwd only; OpenCode walks up to `/`; Claude Code walks up
/// but stops below HOME; Copilot CLI walks up through HOME itself (`~/.github/skills` loads as
/// "inherited", and `~/.agents/skills` is then labelled "inherited").
/// newest-releases.md Codex §5, Claude Code 2.1.332 §3, Copilot 1.0.102 §2; agent-matrix.md §1
/// Project walk (OpenCode: without git cwd → `/` [BUNDLE; OBS 1.18.34]).
#[test]
fn no_git_walk_under_home() {
    let f = Fx::new("home/work/proj");
    let cwd = f.skill(
        "home/work/proj/.agents/skills/cwdskill",
        "cwdskill",
        "In cwd.",
    );
    let mid_a = f.skill("home/work/.agents/skills/midagents", "midagents", "Parent.");
    let mid_c = f.skill("home/work/.claude/skills/midclaude", "midclaude", "Parent.");
    let mid_g = f.skill("home/work/.github/skills/midgithub", "midgithub", "Parent.");
    let home_g = f.skill("home/.github/skills/homegithub", "homegithub", "HOME.");
    let home_a = f.skill("home/.agents/skills/homeagents", "homeagents", "HOME.");
    let above_c = f.skill(".claude/skills/aboveclaude", "aboveclaude", "Above HOME.");
    let above_a = f.skill(".agents/skills/aboveagents", "aboveagents", "Above HOME.");
    let cat = f.catalog();
    assert_eq!(cat.git_root, None);

    // Codex: cwd only.
    visible_as(&cat, &cwd, "codex", "cwdskill", &[]);
    expect(
        &cat,
        &mid_a,
        "codex",
        NotFound,
        &["codex/roots.project-agents.walk"],
    );

    // OpenCode: up to /.
    for p in [&mid_a, &mid_c, &above_a, &above_c] {
        expect(&cat, p, "opencode", Visible, &[]);
    }

    // Claude Code: up to /, but stops below HOME.
    visible_as(
        &cat,
        &mid_c,
        "claude-code",
        "midclaude",
        &["claude-code/roots.project"],
    );
    expect(
        &cat,
        &above_c,
        "claude-code",
        NotFound,
        &["claude-code/roots.project.walk"],
    );

    // Copilot CLI: through HOME itself.
    visible_as(
        &cat,
        &mid_g,
        "copilot-cli",
        "midgithub",
        &["copilot-cli/roots.project-github"],
    );
    let v = expect(
        &cat,
        &home_g,
        "copilot-cli",
        Visible,
        &["copilot-cli/roots.project-github"],
    );
    assert_eq!(v.scope, Some(Scope::Project), "{}", show(v));
    let v = expect(&cat, &home_a, "copilot-cli", Visible, &[]);
    assert_eq!(
        v.scope,
        Some(Scope::Project),
        "~/.agents/skills is 'inherited'\n{}",
        show(v)
    );

    // pi: `.agents/skills` from cwd up (the HOME copy stays a user root).
    visible_as(
        &cat,
        &mid_a,
        "pi",
        "midagents",
        &["pi/roots.project-agents"],
    );
    let v = expect(&cat, &home_a, "pi", Visible, &["pi/roots.user-agents"]);
    assert_eq!(v.scope, Some(Scope::User), "{}", show(v));
}

/// Without git, pi walks `.agents/skills` up to `/` and leaves out only `~/.agents/skills`
/// itself (it stays a user root): folders above HOME are still searched.
/// newest-releases.md pi §4 ("or to `/` without git"); oss-harnesses.md §3.1 item 3
/// (collectAncestorAgentsSkillDirs; `~/.agents/skills` excluded from the chain, fix for #1915).
#[test]

fn no_git_pi_walks_above_home() {
    let f = Fx::new("home/work/proj");
    let above_a = f.skill(".agents/skills/aboveagents", "aboveagents", "Above HOME.");
    let cat = f.catalog();
    visible_as(
        &cat,
        &above_a,
        "pi",
        "aboveagents",
        &["pi/roots.project-agents"],
    );
}

/// Without git and with HOME elsewhere, Claude Code walks up to `/`.
/// newest-releases.md Claude Code 2.1.332 §3 ("Without git: up to `/`, stopping below HOME when
/// HOME is an ancestor").
#[test]
fn no_git_walk_home_not_an_ancestor() {
    let f = Fx::new("work/proj");
    let up = f.skill("work/.claude/skills/upclaude", "upclaude", "Parent.");
    let top = f.skill(".claude/skills/topclaude", "topclaude", "Grandparent.");
    let cat = f.catalog();
    visible_as(&cat, &up, "claude-code", "upclaude", &[]);
    visible_as(&cat, &top, "claude-code", "topclaude", &[]);
    expect(
        &cat,
        &up,
        "codex",
        NotFound,
        &["codex/not_roots.claude-skills"],
    );
}

// ------------------------------------------------------------------------------------------
// Environment variables
// ------------------------------------------------------------------------------------------

/// `CLAUDE_CONFIG_DIR=X`: `X/skills` replaces `~/.claude/skills`.
/// newest-releases.md Claude Code 2.1.332 §4.
#[test]
fn claude_config_dir() {
    let f = Fx::git();
    let moved = f.skill("cfg/claude/skills/moved", "moved", "In CLAUDE_CONFIG_DIR.");
    let old = f.skill("home/.claude/skills/old", "old", "In ~/.claude.");
    let cat = f.catalog_with(&[("CLAUDE_CONFIG_DIR", f.p("cfg/claude").to_str().unwrap())]);
    let v = expect(
        &cat,
        &moved,
        "claude-code",
        Visible,
        &["claude-code/roots.user"],
    );
    assert_eq!(v.scope, Some(Scope::User));
    expect(&cat, &old, "claude-code", NotFound, &["claude-code/roots"]);
    // Without the variable, ~/.claude/skills is the user root.
    let cat = f.catalog();
    visible_as(
        &cat,
        &old,
        "claude-code",
        "old",
        &["claude-code/roots.user"],
    );
}

/// `CODEX_HOME=X`: Codex reads `X/skills` instead of `~/.codex/skills`; `~/.agents/skills` stays.
/// agent-matrix.md §1 User roots and Env vars (codex); oss-harnesses.md §1.1.
#[test]
fn codex_home() {
    let f = Fx::git();
    let moved = f.skill("cx/skills/moved", "moved", "In CODEX_HOME.");
    let old = f.skill("home/.codex/skills/old", "old", "In ~/.codex.");
    let agents = f.skill("home/.agents/skills/shared", "shared", "In ~/.agents.");
    let cat = f.catalog_with(&[("CODEX_HOME", f.p("cx").to_str().unwrap())]);
    visible_as(
        &cat,
        &moved,
        "codex",
        "moved",
        &["codex/roots.user-codex-home"],
    );
    expect(&cat, &old, "codex", NotFound, &["codex/roots"]);
    visible_as(
        &cat,
        &agents,
        "codex",
        "shared",
        &["codex/roots.user-agents"],
    );
}

/// `COPILOT_HOME=X`: only `X/skills`; both `~/.copilot/skills` and `~/.agents/skills` are
/// dropped. newest-releases.md Copilot 1.0.102 §6; closed-harnesses.md §2.1 (CL 1.0.66).
#[test]
fn copilot_home_drops_agents_skills() {
    let f = Fx::git();
    let moved = f.skill("cp/skills/moved", "moved", "In COPILOT_HOME.");
    let old = f.skill("home/.copilot/skills/old", "old", "In ~/.copilot.");
    let agents = f.skill("home/.agents/skills/shared", "shared", "In ~/.agents.");
    let cat = f.catalog_with(&[("COPILOT_HOME", f.p("cp").to_str().unwrap())]);
    visible_as(
        &cat,
        &moved,
        "copilot-cli",
        "moved",
        &["copilot-cli/roots.user-copilot"],
    );
    expect(
        &cat,
        &old,
        "copilot-cli",
        NotFound,
        &["copilot-cli/former_roots.home-copilot-skills"],
    );
    expect(
        &cat,
        &agents,
        "copilot-cli",
        NotFound,
        &["copilot-cli/roots.user-agents"],
    );
    // The other agents still read ~/.agents/skills.
    visible_as(&cat, &agents, "codex", "shared", &[]);
    // Without COPILOT_HOME both load.
    let cat = f.catalog();
    visible_as(
        &cat,
        &old,
        "copilot-cli",
        "old",
        &["copilot-cli/roots.user-copilot"],
    );
    visible_as(
        &cat,
        &agents,
        "copilot-cli",
        "shared",
        &["copilot-cli/roots.user-agents"],
    );
}

/// Copilot CLI no longer reads `~/.claude/skills` (1.0.36); OpenCode and Cursor do.
/// closed-harnesses.md §2.1 (CL 1.0.36); newest-releases.md Copilot 1.0.102 §7; agent-matrix.md
/// §1 User roots.
#[test]
fn user_claude_skills_per_agent() {
    let f = Fx::git();
    let s = f.skill(
        "home/.claude/skills/uclaude",
        "uclaude",
        "User Claude skill.",
    );
    let cat = f.catalog();
    visible_as(
        &cat,
        &s,
        "claude-code",
        "uclaude",
        &["claude-code/roots.user"],
    );
    expect(
        &cat,
        &s,
        "copilot-cli",
        NotFound,
        &["copilot-cli/former_roots.home-claude-skills"],
    );
    expect(
        &cat,
        &s,
        "codex",
        NotFound,
        &["codex/not_roots.home-claude-skills"],
    );
    expect(
        &cat,
        &s,
        "pi",
        NotFound,
        &["pi/not_roots.home-claude-skills"],
    );
    visible_as(
        &cat,
        &s,
        "opencode",
        "uclaude",
        &["opencode/roots.user-claude"],
    );
    visible_as(&cat, &s, "cursor", "uclaude", &["cursor/roots.user-claude"]);
}

/// `OPENCODE_DISABLE_CLAUDE_CODE` drops the `.claude` roots from OpenCode.
/// agent-matrix.md §1 Env vars (opencode) [BUNDLE 1.18.33; OBS 1.18.33].
#[test]
fn opencode_disable_claude_code() {
    let f = Fx::git();
    let s = f.skill("project/.claude/skills/cc", "cc", "Claude skill.");
    let cat = f.catalog_with(&[("OPENCODE_DISABLE_CLAUDE_CODE", "1")]);
    expect(
        &cat,
        &s,
        "opencode",
        NotFound,
        &["opencode/roots.project-claude"],
    );
    visible_as(&cat, &s, "claude-code", "cc", &[]);
}

// ------------------------------------------------------------------------------------------
// Identity and precedence
// ------------------------------------------------------------------------------------------

/// A name that differs from its folder: every agent lists the frontmatter name (Claude Code
/// 2.1.332 too); pi warns; Cursor unknown (the docs conflict on identity).
/// seeds/000 (name-directory-mismatch); newest-releases.md Claude Code 2.1.332 §1, pi §4;
/// agent-matrix.md §4 Identity.
#[test]
fn name_differs_from_folder() {
    let f = Fx::git();
    let a = f.skill("project/.agents/skills/folder-x", "other-name", "Mismatch.");
    let c = f.skill("project/.claude/skills/folder-y", "other-y", "Mismatch.");
    let cat = f.catalog();
    visible_as(&cat, &c, "claude-code", "other-y", &[]);
    for agent in ["codex", "copilot-cli", "antigravity", "opencode"] {
        visible_as(&cat, &a, agent, "other-name", &[]);
    }
    visible_as(
        &cat,
        &a,
        "pi",
        "other-name",
        &["pi/name_rules.folder_mismatch"],
    );
    expect(&cat, &a, "cursor", Unknown, &[]);
}

/// Claude Code: the user copy wins over the project copy of the same FOLDER name, silently.
/// newest-releases.md Claude Code 2.1.332 §2; seeds/000 (name-collision-precedence: Claude Code
/// resolves user-over-project).
#[test]
fn same_name_project_and_user_claude_code() {
    let f = Fx::git();
    let proj = f.skill("project/.claude/skills/dup", "dup", "Project copy.");
    let user = f.skill("home/.claude/skills/dup", "dup", "User copy.");
    let cat = f.catalog();
    visible_as(&cat, &user, "claude-code", "dup", &[]);
    shadowed_by(
        &cat,
        &proj,
        "claude-code",
        &user,
        &["claude-code/precedence.order"],
    );
}

/// Claude Code shadows by folder name: two folders with different names and the same
/// frontmatter `name` both load and both appear under that name.
/// newest-releases.md Claude Code 2.1.332 §2.
#[test]
fn claude_code_shadowing_is_by_folder_name() {
    let f = Fx::git();
    let proj = f.skill("project/.claude/skills/folder-a", "same", "Project copy.");
    let user = f.skill("home/.claude/skills/folder-b", "same", "User copy.");
    let cat = f.catalog();
    visible_as(&cat, &proj, "claude-code", "same", &[]);
    visible_as(&cat, &user, "claude-code", "same", &[]);
}

/// Copilot CLI: project beats user. newest-releases.md Copilot 1.0.102 §7 ("project beats
/// user"); seeds/000 (name-collision-precedence); closed-harnesses.md §2.3.
#[test]
fn same_name_project_and_user_copilot() {
    let f = Fx::git();
    let proj = f.skill("project/.agents/skills/dup", "dup", "Project copy.");
    let user = f.skill("home/.copilot/skills/dup", "dup", "User copy.");
    let user2 = f.skill("home/.agents/skills/dup", "dup", "User copy 2.");
    let cat = f.catalog();
    visible_as(&cat, &proj, "copilot-cli", "dup", &[]);
    shadowed_by(
        &cat,
        &user,
        "copilot-cli",
        &proj,
        &["copilot-cli/precedence.order"],
    );
    shadowed_by(
        &cat,
        &user2,
        "copilot-cli",
        &proj,
        &["copilot-cli/precedence.order"],
    );
}

/// pi: the first copy wins in the order cwd `.pi` > cwd `.agents` > … > `~/.pi/agent` >
/// `~/.agents`. newest-releases.md pi §4; oss-harnesses.md §3.4.
#[test]
fn same_name_project_and_user_pi() {
    let f = Fx::git();
    let pi_proj = f.skill("project/.pi/skills/dup", "dup", "cwd .pi copy.");
    let proj = f.skill("project/.agents/skills/dup", "dup", "Project copy.");
    let user = f.skill("home/.pi/agent/skills/dup", "dup", "User copy.");
    let user2 = f.skill("home/.agents/skills/dup", "dup", "User copy 2.");
    let cat = f.catalog();
    visible_as(&cat, &pi_proj, "pi", "dup", &[]);
    for p in [&proj, &user, &user2] {
        shadowed_by(&cat, p, "pi", &pi_proj, &["pi/precedence.order"]);
    }
}

/// Antigravity: project beats user. seeds/000 (name-collision-precedence: Antigravity follows
/// project-over-user); closed-harnesses.md §3.2; agent-matrix.md §4.
#[test]
fn same_name_project_and_user_antigravity() {
    let f = Fx::git();
    let proj = f.skill("project/.agents/skills/dup", "dup", "Project copy.");
    let user = f.skill("home/.gemini/config/skills/dup", "dup", "User copy.");
    let cat = f.catalog();
    visible_as(&cat, &proj, "antigravity", "dup", &[]);
    shadowed_by(&cat, &user, "antigravity", &proj, &[]);
}

/// Codex: no precedence; every copy is listed and the model chooses.
/// newest-releases.md Codex §5 ("every copy of a duplicate name is listed"); seeds/000
/// (Codex lists both entries); agent-matrix.md §4.
#[test]
fn same_name_project_and_user_codex() {
    let f = Fx::git();
    let proj = f.skill("project/.agents/skills/dup", "dup", "Project copy.");
    let codex_proj = f.skill("project/.codex/skills/dup", "dup", "Project .codex copy.");
    let user = f.skill("home/.agents/skills/dup", "dup", "User copy.");
    let user2 = f.skill("home/.codex/skills/dup", "dup", "CODEX_HOME copy.");
    let cat = f.catalog();
    for p in [&proj, &codex_proj, &user, &user2] {
        let v = expect(&cat, p, "codex", Visible, &["codex/precedence.mode"]);
        assert_eq!(v.as_name.as_deref(), Some("dup"));
        assert_eq!(v.winner, None);
    }
}

/// OpenCode: no designed precedence; the winner changes between runs → unknown.
/// newest-releases.md OpenCode ("the duplicate winner changes between runs of the same tree");
/// agent-matrix.md §4 (No designed precedence [BUNDLE; OBS 1.18.34]).
#[test]
fn same_name_project_and_user_opencode() {
    let f = Fx::git();
    let proj = f.skill("project/.agents/skills/dup", "dup", "Project copy.");
    let user = f.skill("home/.agents/skills/dup", "dup", "User copy.");
    let cat = f.catalog();
    expect(
        &cat,
        &proj,
        "opencode",
        Unknown,
        &["opencode/precedence.mode"],
    );
    expect(
        &cat,
        &user,
        "opencode",
        Unknown,
        &["opencode/precedence.mode"],
    );
}

/// Cursor: precedence between roots is not documented → unknown.
/// closed-harnesses.md §4.1; agent-matrix.md §4 (cursor: unknown).
#[test]
fn same_name_project_and_user_cursor() {
    let f = Fx::git();
    let proj = f.skill("project/.agents/skills/dup", "dup", "Project copy.");
    let user = f.skill("home/.cursor/skills/dup", "dup", "User copy.");
    let cat = f.catalog();
    expect(&cat, &proj, "cursor", Unknown, &[]);
    expect(&cat, &user, "cursor", Unknown, &[]);
}

/// Copilot CLI ranks the root type before closeness: `.github/skills` (cwd → git root) >
/// `.agents/skills` > `.claude/skills`; a parent's `.github` beats the cwd's `.agents`; within
/// one root type the cwd wins; losers dropped silently. newest-releases.md Copilot 1.0.102 §1;
/// seeds/000 (multi-root-collision-precedence: Copilot deduplicates native-first).
#[test]
fn copilot_root_type_before_closeness() {
    let f = Fx::new("repo/sub");
    f.git_repo("repo");
    let parent_github = f.skill("repo/.github/skills/dup", "dup", "Parent .github.");
    let cwd_agents = f.skill("repo/sub/.agents/skills/dup", "dup", "cwd .agents.");
    let cwd_claude = f.skill("repo/sub/.claude/skills/dup", "dup", "cwd .claude.");
    let parent_agents = f.skill("repo/.agents/skills/near", "near", "Parent .agents.");
    let cwd_agents2 = f.skill("repo/sub/.agents/skills/near", "near", "cwd .agents.");
    let cat = f.catalog();
    visible_as(&cat, &parent_github, "copilot-cli", "dup", &[]);
    shadowed_by(
        &cat,
        &cwd_agents,
        "copilot-cli",
        &parent_github,
        &["copilot-cli/precedence.order"],
    );
    shadowed_by(
        &cat,
        &cwd_claude,
        "copilot-cli",
        &parent_github,
        &["copilot-cli/precedence.order"],
    );
    visible_as(&cat, &cwd_agents2, "copilot-cli", "near", &[]);
    shadowed_by(
        &cat,
        &parent_agents,
        "copilot-cli",
        &cwd_agents2,
        &["copilot-cli/precedence.order"],
    );
}

/// The same name under `.github`, `.agents` and `.claude` of one project folder: Copilot keeps
/// `.github`; Codex reads only `.agents` here; Claude Code reads only `.claude`; Antigravity only
/// `.agents`. seeds/000 (multi-root-collision-precedence); closed-harnesses.md §2.3.
#[test]
fn same_name_in_three_project_roots() {
    let f = Fx::git();
    let g = f.skill("project/.github/skills/dup", "dup", ".github copy.");
    let a = f.skill("project/.agents/skills/dup", "dup", ".agents copy.");
    let c = f.skill("project/.claude/skills/dup", "dup", ".claude copy.");
    let cat = f.catalog();
    visible_as(
        &cat,
        &g,
        "copilot-cli",
        "dup",
        &["copilot-cli/roots.project-github"],
    );
    shadowed_by(
        &cat,
        &a,
        "copilot-cli",
        &g,
        &["copilot-cli/precedence.order"],
    );
    shadowed_by(
        &cat,
        &c,
        "copilot-cli",
        &g,
        &["copilot-cli/precedence.order"],
    );
    visible_as(&cat, &a, "codex", "dup", &[]);
    visible_as(&cat, &c, "claude-code", "dup", &[]);
    visible_as(&cat, &a, "antigravity", "dup", &[]);
    not_visible(&cat, &g, "claude-code");
    not_visible(&cat, &g, "codex");
}

/// Copilot CLI: two skills with one name in one root — the first folder in sorted order wins.
/// newest-releases.md Copilot 1.0.102 §1.
#[test]
fn copilot_same_name_in_one_root_sorted() {
    let f = Fx::git();
    let first = f.skill("project/.github/skills/a-first", "dup", "First.");
    let second = f.skill("project/.github/skills/b-second", "dup", "Second.");
    let cat = f.catalog();
    visible_as(&cat, &first, "copilot-cli", "dup", &[]);
    shadowed_by(
        &cat,
        &second,
        "copilot-cli",
        &first,
        &["copilot-cli/precedence.order"],
    );
}

// ------------------------------------------------------------------------------------------
// Parsing
// ------------------------------------------------------------------------------------------

/// An unquoted colon, `description: Use when: x`: loads on Claude Code and Codex 0.171.0 (read
/// literally), OpenCode repairs it (simple top-level key), rejected by Copilot CLI, Antigravity
/// and pi; Cursor unknown. newest-releases.md Codex §1, pi §4, Copilot 1.0.102 §7, Claude Code
/// 2.1.332 §6; agent-matrix.md §3 Unquoted colon; seeds/000 (malformed-yaml-tolerance).
#[test]
fn unquoted_colon_in_description() {
    let f = Fx::git();
    let a = f.skill("project/.agents/skills/colon", "colon", "Use when: x");
    let c = f.skill("project/.claude/skills/ccolon", "ccolon", "Use when: x");
    let cat = f.catalog();
    visible_as(&cat, &c, "claude-code", "ccolon", &[]);
    visible_as(&cat, &a, "codex", "colon", &["codex/parse.yaml_repair"]);
    visible_as(
        &cat,
        &a,
        "opencode",
        "colon",
        &["opencode/parse.yaml_repair"],
    );
    expect(
        &cat,
        &a,
        "copilot-cli",
        Rejected,
        &["copilot-cli/parse.yaml_error"],
    );
    expect(
        &cat,
        &a,
        "antigravity",
        Rejected,
        &["antigravity/parse.yaml_error"],
    );
    expect(&cat, &a, "pi", Rejected, &["pi/parse.yaml_error"]);
    expect(&cat, &a, "cursor", Unknown, &[]);
}

/// OpenCode repairs only simple top-level keys: a colon value under a hyphenated key or on an
/// indented line drops the skill. Codex 0.171.0 reads both literally.
/// agent-matrix.md §3 Unquoted colon (OpenCode [BUNDLE; OBS 1.18.34]); newest-releases.md Codex
/// §1 (indented lines and hyphenated keys load).
#[test]
fn unquoted_colon_under_hyphenated_and_indented_keys() {
    let f = Fx::git();
    let hy = f.put(
        "project/.agents/skills/hy/SKILL.md",
        "---\nname: hy\ndescription: d\nargument-hint: a: b\n---\nBody\n",
    );
    let ind = f.put(
        "project/.agents/skills/ind/SKILL.md",
        "---\nname: ind\ndescription: d\nmetadata:\n  short-description: k: v: w\n---\nBody\n",
    );
    let cat = f.catalog();
    expect(
        &cat,
        &hy,
        "opencode",
        Rejected,
        &["opencode/parse.yaml_error"],
    );
    expect(
        &cat,
        &ind,
        "opencode",
        Rejected,
        &["opencode/parse.yaml_error"],
    );
    visible_as(&cat, &hy, "codex", "hy", &[]);
    visible_as(&cat, &ind, "codex", "ind", &[]);
}

/// Codex 0.171.0 still rejects some broken YAML: a value ending with a colon, an unterminated
/// quote. newest-releases.md Codex §1 ("Still errors in 0.171.0").
#[test]
fn codex_still_rejects_some_yaml() {
    let f = Fx::git();
    let ends = f.skill("project/.agents/skills/ends", "ends", "ends with colon:");
    let quote = f.skill("project/.agents/skills/quote", "quote", "\"unterminated");
    let cat = f.catalog();
    expect(&cat, &ends, "codex", Rejected, &["codex/parse.yaml_error"]);
    expect(&cat, &quote, "codex", Rejected, &["codex/parse.yaml_error"]);
}

/// A missing description: Claude Code uses the body's first paragraph, Copilot CLI the body
/// text, Antigravity loads it empty, OpenCode loads it but leaves it out of the model's
/// listing, Codex and pi reject it; Cursor unknown. seeds/000 (missing-description-handling:
/// "tolerated everywhere except Codex"); agent-matrix.md §3 Missing description;
/// newest-releases.md Copilot 1.0.102 §4.
#[test]
fn missing_description() {
    let f = Fx::git();
    let text = |n: &str| format!("---\nname: {n}\n---\n# Heading\n\nFirst paragraph.\n");
    let a = f.put("project/.agents/skills/nodesc/SKILL.md", &text("nodesc"));
    let c = f.put("project/.claude/skills/cnodesc/SKILL.md", &text("cnodesc"));
    let cat = f.catalog();
    visible_as(
        &cat,
        &c,
        "claude-code",
        "cnodesc",
        &["claude-code/description_rules.missing"],
    );
    visible_as(
        &cat,
        &a,
        "copilot-cli",
        "nodesc",
        &["copilot-cli/description_rules.missing"],
    );
    visible_as(
        &cat,
        &a,
        "antigravity",
        "nodesc",
        &["antigravity/description_rules.missing"],
    );
    let v = expect(
        &cat,
        &a,
        "opencode",
        Visible,
        &["opencode/description_rules.missing"],
    );
    assert_eq!(v.model, Some(false), "{}", show(v));
    expect(
        &cat,
        &a,
        "codex",
        Rejected,
        &["codex/description_rules.missing"],
    );
    expect(&cat, &a, "pi", Rejected, &["pi/description_rules.missing"]);
    expect(
        &cat,
        &a,
        "cursor",
        Unknown,
        &["cursor/description_rules.missing"],
    );
}

/// `description: ""`: Codex rejects (missing field), OpenCode lists it empty.
/// newest-releases.md Codex §1; agent-matrix.md §3 Missing description (OpenCode).
#[test]
fn empty_description() {
    let f = Fx::git();
    let a = f.skill("project/.agents/skills/emptydesc", "emptydesc", "\"\"");
    let cat = f.catalog();
    expect(
        &cat,
        &a,
        "codex",
        Rejected,
        &["codex/description_rules.empty"],
    );
    let v = expect(&cat, &a, "opencode", Visible, &[]);
    assert_eq!(v.model, Some(true), "{}", show(v));
    // pi's own message ("description is required") comes with its value rule (field probes,
    // issue 15); it was `pi/description_rules.empty`, which still says the same.
    expect(
        &cat,
        &a,
        "pi",
        Rejected,
        &["pi/fields.description.values.false+empty-string+bare+null"],
    );
}

/// A missing `name`: the folder name for Codex, Copilot, Claude Code and pi; OpenCode skips it.
/// `name: ""`: Codex and pi use the folder name, Copilot rejects, OpenCode loads an empty name.
/// newest-releases.md Codex §5, Copilot 1.0.102 §3, OpenCode; agent-matrix.md §3 Missing name.
#[test]
fn missing_and_empty_name() {
    let f = Fx::git();
    let none = f.put(
        "project/.agents/skills/noname/SKILL.md",
        "---\ndescription: d\n---\nBody\n",
    );
    let cnone = f.put(
        "project/.claude/skills/cnoname/SKILL.md",
        "---\ndescription: d\n---\nBody\n",
    );
    let empty = f.skill("project/.agents/skills/emptyname", "\"\"", "d");
    let cat = f.catalog();
    for agent in ["codex", "copilot-cli", "pi"] {
        visible_as(
            &cat,
            &none,
            agent,
            "noname",
            &[&format!("{agent}/name_rules.missing")],
        );
    }
    visible_as(
        &cat,
        &cnone,
        "claude-code",
        "cnoname",
        &["claude-code/name_rules.missing"],
    );
    expect(
        &cat,
        &none,
        "opencode",
        Rejected,
        &["opencode/name_rules.missing"],
    );
    visible_as(
        &cat,
        &empty,
        "codex",
        "emptyname",
        &["codex/name_rules.empty"],
    );
    visible_as(&cat, &empty, "pi", "emptyname", &["pi/name_rules.empty"]);
    expect(
        &cat,
        &empty,
        "copilot-cli",
        Rejected,
        &["copilot-cli/name_rules.empty"],
    );
    visible_as(&cat, &empty, "opencode", "", &["opencode/name_rules.empty"]);
}

/// Copilot CLI lists a space in a name as `-` (`with space` → `with-space`).
/// newest-releases.md Copilot 1.0.102 §3.
#[test]

fn copilot_space_in_name_listed_as_hyphen() {
    let f = Fx::git();
    let s = f.skill("project/.agents/skills/with-space", "with space", "d");
    let cat = f.catalog();
    visible_as(&cat, &s, "copilot-cli", "with-space", &[]);
}

/// Wrong types: Codex coerces scalars (`name: 123` → "123") and rejects `metadata: hello`;
/// OpenCode and pi skip a non-string name. newest-releases.md Codex §1, §5; agent-matrix.md §3
/// Wrong value types.
#[test]
fn wrong_value_types() {
    let f = Fx::git();
    let num = f.skill("project/.agents/skills/numname", "123", "d");
    let meta = f.put(
        "project/.agents/skills/meta/SKILL.md",
        "---\nname: meta\ndescription: d\nmetadata: hello\n---\nBody\n",
    );
    let cat = f.catalog();
    visible_as(&cat, &num, "codex", "123", &[]);
    expect(
        &cat,
        &num,
        "opencode",
        Rejected,
        &["opencode/parse.non_string_scalars"],
    );
    // pi's value rule for a non-string name, with its message "name.startsWith is not a
    // function" (field probes, issue 15); was `pi/parse.non_string_scalars`.
    expect(
        &cat,
        &num,
        "pi",
        Rejected,
        &["pi/fields.name.values.true+int+float+string-list+mixed-list+list+empty-list+mapping"],
    );
    // Codex's value rule for a string `metadata`, with its message (field probes, issue 15);
    // was `codex/fields.metadata` (expects = "map").
    expect(
        &cat,
        &meta,
        "codex",
        Rejected,
        &["codex/fields.metadata.values.string+empty-string+block-scalar"],
    );
}

/// A UTF-8 BOM: Codex and pi see no frontmatter and skip the skill; Copilot CLI, Claude Code
/// and OpenCode load it; Antigravity and Cursor unknown. newest-releases.md Codex §5, Copilot
/// 1.0.102 §6, Claude Code 2.1.332 §5; agent-matrix.md §3 BOM (OpenCode, pi). Qoder CLI loads it as
/// a file without frontmatter.
#[test]
fn bom() {
    let f = Fx::git();
    // Distinct names in `.agents` and `.claude`: OpenCode reads both (no collision wanted).
    let a = f.put(
        "project/.agents/skills/bom/SKILL.md",
        &format!("\u{feff}{}", md("bom", "BOM.")),
    );
    let c = f.put(
        "project/.claude/skills/cbom/SKILL.md",
        &format!("\u{feff}{}", md("cbom", "BOM.")),
    );
    let cat = f.catalog();
    expect(&cat, &a, "codex", Rejected, &["codex/parse.bom"]);
    expect(&cat, &a, "pi", Rejected, &["pi/parse.bom"]);
    visible_as(&cat, &a, "copilot-cli", "bom", &[]);
    visible_as(&cat, &a, "opencode", "bom", &[]);
    visible_as(&cat, &c, "claude-code", "cbom", &[]);
    expect(&cat, &a, "antigravity", Unknown, &["antigravity/parse.bom"]);
    expect(&cat, &a, "cursor", Unknown, &["cursor/parse.bom"]);
    // Qoder CLI 1.1.52 sees no frontmatter and loads files without one: the skill is listed
    // under its folder name (tests/oracle: cases qoder-parse, random-3).
    visible_as(
        &cat,
        &a,
        "qoder-cli",
        "bom",
        &["qoder-cli/parse.no_frontmatter"],
    );
}

/// A blank first line: no frontmatter for Codex, OpenCode and pi (skipped); unknown for
/// Copilot CLI and Claude Code. newest-releases.md Codex §5; agent-matrix.md §3 BOM / blank
/// first line.
#[test]
fn blank_first_line() {
    let f = Fx::git();
    let text = format!("\n{}", md("blank", "Blank first line."));
    let a = f.put("project/.agents/skills/blank/SKILL.md", &text);
    let c = f.put("project/.claude/skills/blank/SKILL.md", &text);
    let cat = f.catalog();
    for agent in ["codex", "opencode", "pi"] {
        expect(
            &cat,
            &a,
            agent,
            Rejected,
            &[&format!("{agent}/parse.blank_first_line")],
        );
    }
    expect(
        &cat,
        &a,
        "copilot-cli",
        Unknown,
        &["copilot-cli/parse.blank_first_line"],
    );
    expect(
        &cat,
        &c,
        "claude-code",
        Unknown,
        &["claude-code/parse.blank_first_line"],
    );
}

/// Unclosed frontmatter: Codex and pi skip it (no frontmatter); OpenCode parses the rest of the
/// file as YAML and loads it with an empty body; Claude Code and Copilot CLI unknown.
/// newest-releases.md Codex §5; agent-matrix.md §3 Unclosed frontmatter.
#[test]
fn unclosed_frontmatter() {
    let f = Fx::git();
    let text = |n: &str| format!("---\nname: {n}\ndescription: Never closed.\n");
    let a = f.put(
        "project/.agents/skills/unclosed/SKILL.md",
        &text("unclosed"),
    );
    let c = f.put(
        "project/.claude/skills/cunclosed/SKILL.md",
        &text("cunclosed"),
    );
    let cat = f.catalog();
    expect_any_rule(
        &cat,
        &a,
        "codex",
        Rejected,
        &["codex/parse.unclosed", "codex/parse.no_frontmatter"],
    );
    expect_any_rule(
        &cat,
        &a,
        "pi",
        Rejected,
        &["pi/parse.unclosed", "pi/parse.no_frontmatter"],
    );
    visible_as(&cat, &a, "opencode", "unclosed", &[]);
    expect(
        &cat,
        &a,
        "copilot-cli",
        Unknown,
        &["copilot-cli/parse.unclosed"],
    );
    expect(
        &cat,
        &c,
        "claude-code",
        Unknown,
        &["claude-code/parse.unclosed"],
    );
}

/// No frontmatter at all: Claude Code loads it under the folder name; Codex, Copilot CLI,
/// OpenCode and pi skip it. newest-releases.md Claude Code 2.1.332 §6, Codex §5, Copilot
/// 1.0.102 §6; agent-matrix.md §3 Frontmatter required.
#[test]
fn no_frontmatter() {
    let f = Fx::git();
    let text = "# Plain\n\nJust Markdown.\n";
    let a = f.put("project/.agents/skills/plain/SKILL.md", text);
    let c = f.put("project/.claude/skills/plain/SKILL.md", text);
    let cat = f.catalog();
    visible_as(
        &cat,
        &c,
        "claude-code",
        "plain",
        &["claude-code/parse.no_frontmatter"],
    );
    for agent in ["codex", "copilot-cli", "opencode", "pi"] {
        expect(
            &cat,
            &a,
            agent,
            Rejected,
            &[&format!("{agent}/parse.no_frontmatter")],
        );
    }
}

/// Broken YAML (an unterminated quote): Claude Code loads it under the folder name with the
/// body's first paragraph; the others skip it. newest-releases.md Claude Code 2.1.332 §6,
/// Codex §1, pi §4, Copilot 1.0.102 §7.
#[test]
fn broken_yaml() {
    let f = Fx::git();
    let text = "---\nname: broken\ndescription: \"unterminated\n---\n# H\n\nFirst paragraph.\n";
    let a = f.put("project/.agents/skills/broken/SKILL.md", text);
    let c = f.put("project/.claude/skills/broken/SKILL.md", text);
    let cat = f.catalog();
    visible_as(
        &cat,
        &c,
        "claude-code",
        "broken",
        &["claude-code/parse.yaml_error"],
    );
    for agent in ["codex", "copilot-cli", "opencode", "pi", "antigravity"] {
        expect(
            &cat,
            &a,
            agent,
            Rejected,
            &[&format!("{agent}/parse.yaml_error")],
        );
    }
}

// ------------------------------------------------------------------------------------------
// Lengths: UTF-16 units vs code points
// ------------------------------------------------------------------------------------------

/// 600 emoji = 600 code points = 1,200 UTF-16 units: rejected by Copilot CLI (limit 1,024
/// UTF-16 units), loads on Codex 0.171.0 (no limit), warns and loads on pi (1,024 UTF-16 units,
/// warning only); Claude Code, Antigravity and OpenCode enforce no limit.
/// newest-releases.md Copilot 1.0.102 §4, Codex §2; oss-harnesses.md §3.6 (pi: 600 emoji →
/// "description exceeds 1024 characters (1200)", loaded in full); agent-matrix.md §3
/// Description limit.
#[test]
fn description_of_600_emoji() {
    let f = Fx::git();
    let desc = "😀".repeat(600);
    let a = f.skill("project/.agents/skills/emoji", "emoji", &desc);
    let c = f.skill("project/.claude/skills/cemoji", "cemoji", &desc);
    let cat = f.catalog();
    expect(
        &cat,
        &a,
        "copilot-cli",
        Rejected,
        &["copilot-cli/description_rules.length"],
    );
    visible_as(&cat, &a, "codex", "emoji", &[]);
    visible_as(&cat, &a, "pi", "emoji", &["pi/description_rules.length"]);
    visible_as(&cat, &a, "antigravity", "emoji", &[]);
    visible_as(&cat, &a, "opencode", "emoji", &[]);
    visible_as(&cat, &c, "claude-code", "cemoji", &[]);
}

/// Cursor's description limit is unknown (agent-matrix.md §3 Description limit: cursor
/// unknown; the spec's "1–1024 characters" leaves the unit undefined). A description of 1,200
/// UTF-16 units exceeds 1,024 under the UTF-16 reading that Copilot CLI and pi use, so the
/// verdict should be unknown, not visible. seeds/000 ("Count the description limit in code
/// points": Codex counts code points, Copilot UTF-16 units).
#[test]

fn description_of_600_emoji_on_cursor_is_unknown() {
    let f = Fx::git();
    let a = f.skill("project/.agents/skills/emoji", "emoji", &"😀".repeat(600));
    let cat = f.catalog();
    expect(
        &cat,
        &a,
        "cursor",
        Unknown,
        &["cursor/description_rules.length"],
    );
}

/// 1,025 ASCII characters: rejected by Copilot CLI; loads on Codex 0.171.0; pi warns and loads.
/// 1,000 Greek letters load on Copilot CLI. newest-releases.md Copilot 1.0.102 §4, Codex §2,
/// pi §4.
#[test]
fn description_lengths_ascii_and_greek() {
    let f = Fx::git();
    let long = f.skill("project/.agents/skills/long", "long", &"a".repeat(1025));
    let greek = f.skill("project/.agents/skills/greek", "greek", &"α".repeat(1000));
    let cat = f.catalog();
    expect(
        &cat,
        &long,
        "copilot-cli",
        Rejected,
        &["copilot-cli/description_rules.length"],
    );
    visible_as(&cat, &long, "codex", "long", &[]);
    visible_as(&cat, &long, "pi", "long", &["pi/description_rules.length"]);
    visible_as(&cat, &greek, "copilot-cli", "greek", &[]);
}

/// 10,000 characters: pi warns above 1,024 but loads the whole description; Codex 0.171.0 loads
/// 100,000 untruncated. seeds/003 (FT table, pi description: "Tested 0.84.2 / 1.1.0: 10,000
/// characters still load, with a warning above 1024"); newest-releases.md pi §4 ("length
/// limits are warnings only"), Codex §2.
#[test]
fn description_of_10000_characters() {
    let f = Fx::git();
    let s = f.skill("project/.agents/skills/huge", "huge", &"b".repeat(10_000));
    let cat = f.catalog();
    visible_as(&cat, &s, "pi", "huge", &["pi/description_rules.length"]);
    visible_as(&cat, &s, "codex", "huge", &[]);
    visible_as(&cat, &s, "opencode", "huge", &[]);
    expect(
        &cat,
        &s,
        "copilot-cli",
        Rejected,
        &["copilot-cli/description_rules.length"],
    );
}

/// A 65-character name: rejected by Codex and Copilot CLI, warned by pi; Claude Code (72 loads),
/// Antigravity and OpenCode enforce no limit. newest-releases.md Codex §2, Copilot 1.0.102 §3,
/// pi §4, Claude Code 2.1.332 §6; seeds/000 (invalid-name-tolerance: "over-long names are
/// rejected by Codex and Copilot CLI only").
#[test]
fn name_of_65_characters() {
    let f = Fx::git();
    let name = "a".repeat(65);
    let a = f.skill(
        &format!("project/.agents/skills/{name}"),
        &name,
        "Long name.",
    );
    let cname = "c".repeat(65);
    let c = f.skill(
        &format!("project/.claude/skills/{cname}"),
        &cname,
        "Long name.",
    );
    let cat = f.catalog();
    expect(&cat, &a, "codex", Rejected, &["codex/name_rules.length"]);
    expect(
        &cat,
        &a,
        "copilot-cli",
        Rejected,
        &["copilot-cli/name_rules.length"],
    );
    visible_as(&cat, &a, "pi", &name, &["pi/name_rules.length"]);
    visible_as(&cat, &a, "antigravity", &name, &[]);
    visible_as(&cat, &a, "opencode", &name, &[]);
    visible_as(&cat, &c, "claude-code", &cname, &[]);
}

/// A name of 40 emoji = 40 code points = 80 UTF-16 units: Codex counts code points (≤ 64,
/// loads; no charset rule); pi counts UTF-16 units (80 > 64: warning) and warns on the
/// charset; Copilot CLI rejects any non-ASCII name; Claude Code and Antigravity accept
/// non-ASCII names. 65 emoji (65 code points) are rejected by Codex.
/// agent-matrix.md §3 Name length (Codex code points; pi UTF-16 units, warning) and Non-ASCII
/// names; newest-releases.md Copilot 1.0.102 §3, Codex §2.
#[test]
fn names_in_astral_characters() {
    let f = Fx::git();
    let n40 = "😀".repeat(40);
    let n65 = "😀".repeat(65);
    let a40 = f.skill("project/.agents/skills/e40", &n40, "Emoji name.");
    let a65 = f.skill("project/.agents/skills/e65", &n65, "Emoji name.");
    let c40 = f.skill("project/.claude/skills/e40", &n40, "Emoji name.");
    let cat = f.catalog();
    visible_as(&cat, &a40, "codex", &n40, &[]);
    expect(&cat, &a65, "codex", Rejected, &["codex/name_rules.length"]);
    visible_as(
        &cat,
        &a40,
        "pi",
        &n40,
        &["pi/name_rules.length", "pi/name_rules.charset"],
    );
    // Non-ASCII is an error (charset); 80 UTF-16 units also break the 64 limit.
    expect_any_rule(
        &cat,
        &a40,
        "copilot-cli",
        Rejected,
        &[
            "copilot-cli/name_rules.charset",
            "copilot-cli/name_rules.length",
        ],
    );
    visible_as(&cat, &a40, "antigravity", &n40, &[]);
    visible_as(&cat, &c40, "claude-code", &n40, &[]);
}

// ------------------------------------------------------------------------------------------
// Fields
// ------------------------------------------------------------------------------------------

/// `disable-model-invocation: true` keeps the skill loaded (status visible) but out of the
/// model's listing on Claude Code and pi; Codex and OpenCode 1.18.33 do not read the field.
/// pi honours only the boolean `true`, not the string "true".
/// newest-releases.md Claude Code 2.1.332 §7, pi §4; agent-matrix.md §5 disable-model-invocation.
#[test]
fn disable_model_invocation() {
    let f = Fx::git();
    let text = |n: &str| {
        format!("---\nname: {n}\ndescription: d\ndisable-model-invocation: true\n---\nBody\n")
    };
    let a = f.put("project/.agents/skills/manual/SKILL.md", &text("manual"));
    let c = f.put("project/.claude/skills/cmanual/SKILL.md", &text("cmanual"));
    let s = f.put(
        "project/.agents/skills/strtrue/SKILL.md",
        "---\nname: strtrue\ndescription: d\ndisable-model-invocation: \"true\"\n---\nBody\n",
    );
    let cat = f.catalog();
    let v = expect(
        &cat,
        &c,
        "claude-code",
        Visible,
        &["claude-code/fields.disable-model-invocation"],
    );
    assert_eq!(v.model, Some(false), "{}", show(v));
    let v = expect(
        &cat,
        &a,
        "pi",
        Visible,
        &["pi/fields.disable-model-invocation"],
    );
    assert_eq!(v.model, Some(false), "{}", show(v));
    for agent in ["codex", "opencode"] {
        let v = expect(&cat, &a, agent, Visible, &[]);
        assert_eq!(v.model, Some(true), "{agent}\n{}", show(v));
    }
    let v = expect(&cat, &s, "pi", Visible, &[]);
    assert_eq!(v.model, Some(true), "{}", show(v));
}

/// The same SKILL.md reached twice (a folder and a symlink to it in the same root) is loaded
/// once: the second copy is shadowed by the same file, a reason typed `SameFile`, and no
/// finding reports it as a problem.
#[cfg(unix)]
#[test]
fn the_same_file_through_a_symlink_is_loaded_once_and_not_a_finding() {
    let f = Fx::git();
    let real = f.skill(
        "project/.agents/skills/twin",
        "twin",
        "One file, two paths.",
    );
    std::os::unix::fs::symlink(
        f.p("project/.agents/skills/twin"),
        f.p("project/.agents/skills/twin-link"),
    )
    .unwrap();
    let link = f.p("project/.agents/skills/twin-link/SKILL.md");
    let cat = f.catalog();
    let mut seen = 0;
    for agent in ["copilot-cli", "opencode", "pi"] {
        let (a, b) = (verdict(&cat, &real, agent), verdict(&cat, &link, agent));
        let shadowed = match (a.status, b.status) {
            (Visible, Shadowed) => b,
            (Shadowed, Visible) => a,
            _ => continue,
        };
        let r = shadowed.decisive().unwrap();
        if r.topic != skilltui::agents::Topic::SameFile {
            continue;
        }
        assert!(r.message.contains("same file"), "{}", show(shadowed));
        seen += 1;
    }
    assert!(seen > 0, "no agent loads the twin once");
    let models = skilltui::agents::builtin();
    let all = skilltui::findings::findings(&cat, &models);
    let about_twin: Vec<_> = all
        .iter()
        .filter(|x| x.code == skilltui::findings::Code::Shadowed)
        .filter(|x| x.path == real || x.path == link)
        .collect();
    assert!(about_twin.is_empty(), "{about_twin:?}");
}
