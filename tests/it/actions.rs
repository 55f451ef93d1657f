//! The actions engine on fixture trees in a temp dir: every action and quick fix with the
//! verdicts before and after, byte preservation of everything not edited, undo back to identical
//! bytes, refusal on concurrent modification and outside the roots, no write outside the temp
//! tree; and the headless commands through the binary (`--dry-run`, `--yes`, no terminal).

use skilltui::actions::{self, Mode, Op, Plan, RefusalKind, Request, journal};
use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::resolve::Status;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Fx {
    _tmp: tempfile::TempDir,
    base: PathBuf,
    project: PathBuf,
    home: PathBuf,
    data: PathBuf,
}

impl Fx {
    fn new() -> Fx {
        let tmp = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        let project = base.join("project");
        let home = base.join("home");
        skilltui::demo::write_tree(
            &project,
            "@@ .git/HEAD\nref: refs/heads/main\n@@ mkdir .git/objects\n@@ mkdir .git/refs\n",
        )
        .unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Fx {
            _tmp: tmp,
            data: base.join("data"),
            base,
            project,
            home,
        }
    }

    fn put(&self, rel: &str, content: &[u8]) -> PathBuf {
        let p = self.base.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
        p
    }

    fn env(&self) -> Env {
        Env::new(&self.project, &self.home)
    }

    fn catalog(&self) -> Catalog {
        Catalog::build(&skilltui::agents::builtin(), &self.env())
    }

    fn plan(&self, req: Request) -> Result<Plan, actions::Refusal> {
        let cat = self.catalog();
        actions::plan(&cat, &skilltui::agents::builtin(), &self.env(), &req)
    }

    fn status(&self, path: &Path, agent: &str) -> Option<Status> {
        actions::status_of(&self.catalog(), path, agent)
    }

    /// Every file under the temp tree (data folder excluded) with its bytes; symlinks as
    /// `-> target`.
    fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut out = BTreeMap::new();
        for e in walkdir::WalkDir::new(&self.base).follow_links(false) {
            let e = e.unwrap();
            if e.path().starts_with(&self.data) {
                continue;
            }
            let p = e.path().to_path_buf();
            if e.path_is_symlink() {
                out.insert(
                    p,
                    format!("-> {}", std::fs::read_link(e.path()).unwrap().display()).into_bytes(),
                );
            } else if e.file_type().is_file() {
                out.insert(p.clone(), std::fs::read(&p).unwrap());
            } else {
                out.insert(p, b"<dir>".to_vec());
            }
        }
        out
    }

    fn p(&self, rel: &str) -> PathBuf {
        self.base.join(rel)
    }
}

fn models() -> Vec<skilltui::agents::AgentModel> {
    skilltui::agents::builtin()
}

/// Plans, previews, applies (checking that only the planned paths are under the temp tree) and
/// undoes; returns the preview and the tree after applying.
fn round_trip(fx: &Fx, req: Request) -> (Plan, actions::Preview, BTreeMap<PathBuf, Vec<u8>>) {
    let before = fx.snapshot();
    let plan = fx.plan(req).expect("planned");
    let preview = actions::preview(&plan, &models(), &fx.env()).expect("previewed");
    assert_eq!(
        fx.snapshot(),
        before,
        "planning and previewing write nothing"
    );
    for op in &plan.ops {
        for p in op.written() {
            assert!(
                p.starts_with(&fx.base),
                "{op:?} writes outside the temp tree"
            );
        }
    }
    let entry = journal::apply_in(&plan, &fx.data).expect("applied");
    let after = fx.snapshot();
    assert_ne!(after, before);
    // Everything the journal points at is in the temp tree.
    for d in &entry.ops {
        let s = serde_json::to_string(d).unwrap();
        assert!(s.contains(&*fx.base.to_string_lossy()), "{s}");
    }
    journal::undo_in(&entry, &fx.data).expect("undone");
    assert_eq!(fx.snapshot(), before, "undo restores identical bytes");
    journal::apply_in(&fx.plan_again(&plan), &fx.data).expect("applied again");
    assert_eq!(fx.snapshot(), after);
    (plan, preview, after)
}

impl Fx {
    /// The same plan, re-read (apply after undo must work on a fresh plan too).
    fn plan_again(&self, plan: &Plan) -> Plan {
        plan.clone()
    }
}

fn after_status(pv: &actions::Preview, agent: &str) -> Option<Status> {
    pv.skill
        .iter()
        .find(|(a, _, _)| a == agent)
        .and_then(|(_, _, x)| x.as_ref().map(|b| b.status))
}

fn before_status(pv: &actions::Preview, agent: &str) -> Option<Status> {
    pv.skill
        .iter()
        .find(|(a, _, _)| a == agent)
        .and_then(|(_, b, _)| b.as_ref().map(|b| b.status))
}

const BODY: &str = "# Title\n\n<!-- a comment -->\nBody text with trailing spaces   \n";

#[test]
fn quote_description_keeps_every_other_byte() {
    let fx = Fx::new();
    let text = format!(
        "---\r\n# keep this comment\r\nname: notes\r\ndescription: Use when: drafting notes   # why\r\nlicense: 'MIT'\r\n---\r\n{}",
        BODY.replace('\n', "\r\n")
    );
    let md = fx.put("project/.agents/skills/notes/SKILL.md", text.as_bytes());
    assert_eq!(fx.status(&md, "copilot-cli"), Some(Status::Rejected));
    let (plan, pv, after) = round_trip(
        &fx,
        Request::Fix {
            skill: md.clone(),
            only: vec!["quote-description".into()],
        },
    );
    assert!(
        plan.diff
            .contains("+description: \"Use when: drafting notes\""),
        "{}",
        plan.diff
    );
    assert_eq!(before_status(&pv, "copilot-cli"), Some(Status::Rejected));
    assert_eq!(after_status(&pv, "copilot-cli"), Some(Status::Visible));
    let expected = text.replace(
        "description: Use when: drafting notes   # why",
        "description: \"Use when: drafting notes\"   # why",
    );
    assert_eq!(after[&md], expected.into_bytes());
    assert_eq!(fx.status(&md, "copilot-cli"), Some(Status::Visible));
}

#[test]
fn quote_value_turns_a_one_line_list_into_the_string_copilot_needs() {
    // NVIDIA data-designer's shape: Copilot CLI 1.0.102 drops it ("argument-hint must be a
    // string"); quoting the text as written makes it a string.
    let fx = Fx::new();
    let text = "---\nname: data-designer\ndescription: Use when making data.\nargument-hint: [describe the dataset you want to generate]   # hint\nlicense: Apache-2.0\n---\n# Data\n\nBody.\n";
    let md = fx.put(
        "project/.github/skills/data-designer/SKILL.md",
        text.as_bytes(),
    );
    assert_eq!(fx.status(&md, "copilot-cli"), Some(Status::Rejected));
    let cat = fx.catalog();
    let offered = actions::fixes(&cat, &models(), cat.skill(&md).unwrap());
    assert!(
        offered.iter().any(|f| f.code.as_str() == "quote-value"),
        "{offered:?}"
    );
    let (plan, pv, after) = round_trip(
        &fx,
        Request::Fix {
            skill: md.clone(),
            only: vec!["quote-value".into()],
        },
    );
    assert!(
        plan.diff
            .contains("+argument-hint: \"[describe the dataset you want to generate]\""),
        "{}",
        plan.diff
    );
    assert_eq!(before_status(&pv, "copilot-cli"), Some(Status::Rejected));
    assert_eq!(after_status(&pv, "copilot-cli"), Some(Status::Visible));
    let expected = text.replace(
        "argument-hint: [describe the dataset you want to generate]",
        "argument-hint: \"[describe the dataset you want to generate]\"",
    );
    assert_eq!(after[&md], expected.into_bytes());
    assert_eq!(fx.status(&md, "copilot-cli"), Some(Status::Visible));
    // A block list cannot be quoted as written: the fix is not offered.
    let block = fx.put(
        "project/.github/skills/blocky/SKILL.md",
        b"---\nname: blocky\ndescription: d\nargument-hint:\n  - a\n  - b\n---\nBody.\n",
    );
    let cat = fx.catalog();
    assert_eq!(
        actions::status_of(&cat, &block, "copilot-cli"),
        Some(Status::Rejected)
    );
    let offered = actions::fixes(&cat, &models(), cat.skill(&block).unwrap());
    assert!(
        !offered.iter().any(|f| f.code.as_str() == "quote-value"),
        "{offered:?}"
    );
}

#[test]
fn add_description_and_remove_bom() {
    let fx = Fx::new();
    let md = fx.put(
        "project/.agents/skills/nodesc/SKILL.md",
        format!("---\nname: nodesc\nmetadata:\n  a: b\n---\n{BODY}").as_bytes(),
    );
    assert_eq!(fx.status(&md, "codex"), Some(Status::Rejected));
    let (_, pv, after) = round_trip(
        &fx,
        Request::Fix {
            skill: md.clone(),
            only: vec![],
        },
    );
    assert_eq!(after_status(&pv, "codex"), Some(Status::Visible));
    assert_eq!(
        String::from_utf8(after[&md].clone()).unwrap(),
        format!(
            "---\nname: nodesc\ndescription: Body text with trailing spaces\nmetadata:\n  a: b\n---\n{BODY}"
        )
    );

    let text = format!("\u{feff}---\nname: bom\ndescription: d\n---\n{BODY}");
    let md = fx.put("project/.agents/skills/bom/SKILL.md", text.as_bytes());
    let cat = fx.catalog();
    let codes: Vec<&str> = actions::fixes(&cat, &models(), cat.skill(&md).unwrap())
        .iter()
        .map(|f| f.code.as_str())
        .collect();
    assert_eq!(codes, ["remove-bom"]);
    let (_, pv, after) = round_trip(
        &fx,
        Request::Fix {
            skill: md.clone(),
            only: vec!["remove-bom".into()],
        },
    );
    assert_eq!(after[&md], text.trim_start_matches('\u{feff}').as_bytes());
    assert!(
        pv.skill.iter().any(|(_, b, a)| b != a),
        "some agent changes: {pv:?}"
    );
}

#[test]
fn path_fixes_case_flat_ungroup_and_name_folder() {
    let fx = Fx::new();
    let md = fx.put(
        "project/.agents/skills/lower/skill.md",
        b"---\nname: lower\ndescription: d\n---\nx\n",
    );
    let (_, pv, after) = round_trip(
        &fx,
        Request::Fix {
            skill: md.clone(),
            only: vec!["skill-md-case".into()],
        },
    );
    assert!(after.contains_key(&fx.p("project/.agents/skills/lower/SKILL.md")));
    assert_eq!(after_status(&pv, "codex"), Some(Status::Visible));
    assert_ne!(before_status(&pv, "codex"), Some(Status::Visible));
    std::fs::remove_dir_all(fx.p("project/.agents/skills/lower")).unwrap();

    // A grouping folder: Antigravity reads direct children only.
    let md = fx.put(
        "project/.agents/skills/group/deep/SKILL.md",
        b"---\nname: deep\ndescription: d\n---\nx\n",
    );
    assert_eq!(fx.status(&md, "antigravity"), Some(Status::NotFound));
    let (plan, pv, _) = round_trip(
        &fx,
        Request::Fix {
            skill: md.clone(),
            only: vec!["ungroup".into()],
        },
    );
    assert_eq!(
        plan.after,
        Some(fx.p("project/.agents/skills/deep/SKILL.md"))
    );
    assert_eq!(after_status(&pv, "antigravity"), Some(Status::Visible));

    // Name and folder differ: the folder takes the name.
    let md = fx.put(
        "project/.claude/skills/dv/SKILL.md",
        b"---\nname: data-viz\ndescription: d\n---\nx\n",
    );
    let (plan, pv, _) = round_trip(
        &fx,
        Request::Fix {
            skill: md.clone(),
            only: vec!["name-folder-match".into()],
        },
    );
    assert_eq!(
        plan.after,
        Some(fx.p("project/.claude/skills/data-viz/SKILL.md"))
    );
    let claude = pv
        .skill
        .iter()
        .find(|(a, _, _)| a == "claude-code")
        .unwrap();
    assert_eq!(
        claude.2.as_ref().unwrap().as_name.as_deref(),
        Some("data-viz")
    );
    let cat = fx.catalog();
    let moved = cat.skill(plan.after.as_ref().unwrap()).unwrap();
    assert!(
        moved
            .problems
            .iter()
            .all(|p| p.code != "name-directory-mismatch")
    );
}

#[test]
fn flat_file_becomes_a_folder() {
    let fx = Fx::new();
    let md = fx.put(
        "project/.pi/skills/note.md",
        b"---\nname: note\ndescription: d\n---\nx\n",
    );
    let cat = fx.catalog();
    assert!(cat.skill(&md).is_some(), "pi loads loose .md files");
    let (plan, _, after) = round_trip(
        &fx,
        Request::Fix {
            skill: md.clone(),
            only: vec!["flat-to-folder".into()],
        },
    );
    let new = fx.p("project/.pi/skills/note/SKILL.md");
    assert_eq!(plan.after, Some(new.clone()));
    assert_eq!(after[&new], b"---\nname: note\ndescription: d\n---\nx\n");
}

#[test]
fn shorten_name_and_description_count_in_each_agents_unit() {
    let fx = Fx::new();
    let long = "a".repeat(40) + "-" + &"b".repeat(40);
    let desc = "📊".repeat(600);
    let md = fx.put(
        &format!("project/.agents/skills/{long}/SKILL.md"),
        format!("---\nname: {long}\ndescription: {desc}\n---\nx\n").as_bytes(),
    );
    assert_eq!(fx.status(&md, "copilot-cli"), Some(Status::Rejected));
    let (plan, pv, _) = round_trip(
        &fx,
        Request::Fix {
            skill: md.clone(),
            only: vec!["shorten-name".into(), "shorten-description".into()],
        },
    );
    let notes = plan.notes.join("\n");
    assert!(notes.contains("UTF-16 units"), "{notes}");
    assert!(notes.contains("code points"), "{notes}");
    assert_eq!(
        plan.after,
        Some(fx.p(&format!(
            "project/.agents/skills/{}/SKILL.md",
            "a".repeat(40)
        )))
    );
    assert_eq!(after_status(&pv, "copilot-cli"), Some(Status::Visible));
    assert_eq!(after_status(&pv, "codex"), Some(Status::Visible));
}

#[test]
fn rename_checks_the_spec_and_renames_the_folder() {
    let fx = Fx::new();
    let md = fx.put(
        "project/.claude/skills/old/SKILL.md",
        b"---\nname: old # the name\ndescription: d\n---\nx\n",
    );
    let err = fx
        .plan(Request::Rename {
            skill: md.clone(),
            name: "Bad_Name".into(),
            folder: false,
        })
        .unwrap_err();
    assert!(
        err.0.contains("name-not-lowercase") && err.0.contains("name-invalid-chars"),
        "{err}"
    );
    assert_eq!(err.kind(), RefusalKind::Invalid);
    let (plan, pv, after) = round_trip(
        &fx,
        Request::Rename {
            skill: md.clone(),
            name: "new".into(),
            folder: true,
        },
    );
    let new = fx.p("project/.claude/skills/new/SKILL.md");
    assert_eq!(plan.after, Some(new.clone()));
    assert_eq!(
        after[&new],
        b"---\nname: new # the name\ndescription: d\n---\nx\n"
    );
    let claude = pv
        .skill
        .iter()
        .find(|(a, _, _)| a == "claude-code")
        .unwrap();
    assert_eq!(claude.2.as_ref().unwrap().as_name.as_deref(), Some("new"));
}

#[test]
fn move_copy_and_link_to_claudes_root() {
    let fx = Fx::new();
    let md = fx.put(
        "project/.agents/skills/port/SKILL.md",
        b"---\nname: port\ndescription: d\n---\nx\n",
    );
    fx.put(
        "project/.agents/skills/port/scripts/run.sh",
        b"#!/bin/sh\nexit 1\n",
    );
    assert_eq!(fx.status(&md, "claude-code"), Some(Status::NotFound));
    let root = fx.p("project/.claude/skills");
    for mode in [Mode::Move, Mode::Copy, Mode::Link] {
        let (plan, pv, after) = round_trip(
            &fx,
            Request::Move {
                skill: md.clone(),
                root: root.clone(),
                mode,
            },
        );
        let dest = root.join("port/SKILL.md");
        match mode {
            Mode::Move => {
                assert_eq!(after_status(&pv, "claude-code"), Some(Status::Visible));
                assert_eq!(after_status(&pv, "codex"), Some(Status::NotFound));
                assert_eq!(
                    after[&dest],
                    std::fs::read(&md).unwrap_or_else(|_| after[&dest].clone())
                );
            }
            Mode::Copy | Mode::Link => {
                let claude: Vec<_> = pv
                    .others
                    .iter()
                    .filter(|c| c.agent == "claude-code" && c.path == dest)
                    .collect();
                assert_eq!(claude.len(), 1, "{pv:?}");
                assert_eq!(claude[0].after.as_ref().unwrap().status, Status::Visible);
                assert!(after.contains_key(&root.join("port")));
            }
        }
        // Back to the start for the next mode.
        let entry = journal::entries(&fx.data).unwrap().pop().unwrap().0;
        journal::undo_in(&entry, &fx.data).unwrap();
        assert!(!plan.ops.is_empty());
    }
    // A clash at the destination is refused.
    fx.put(
        "project/.claude/skills/port/SKILL.md",
        b"---\nname: port\ndescription: other\n---\n",
    );
    let err = fx
        .plan(Request::Move {
            skill: md.clone(),
            root: root.clone(),
            mode: Mode::Move,
        })
        .unwrap_err();
    assert!(err.0.contains("already exists"), "{err}");
    assert_eq!(err.kind(), RefusalKind::Conflict);
}

#[test]
fn delete_moves_to_trash_and_undo_restores() {
    let fx = Fx::new();
    let md = fx.put(
        "project/.agents/skills/gone/SKILL.md",
        b"---\nname: gone\ndescription: d\n---\nx\n",
    );
    let before = fx.snapshot();
    let plan = fx.plan(Request::Delete { skill: md.clone() }).unwrap();
    let pv = actions::preview(&plan, &models(), &fx.env()).unwrap();
    assert!(
        pv.skill.iter().all(|(_, _, a)| a.is_none()),
        "gone for every agent"
    );
    let entry = journal::apply_in(&plan, &fx.data).unwrap();
    assert!(!md.exists());
    let trashed: Vec<_> = std::fs::read_dir(fx.data.join("trash")).unwrap().collect();
    assert_eq!(trashed.len(), 1, "the folder is in the trash, not unlinked");
    journal::undo_in(&entry, &fx.data).unwrap();
    assert_eq!(fx.snapshot(), before);
}

#[test]
fn make_a_copy_win_proposes_the_smallest_change() {
    let fx = Fx::new();
    // Claude Code: the user copy wins over the project copy.
    let user = fx.put(
        "home/.claude/skills/deploy/SKILL.md",
        b"---\nname: deploy\ndescription: user\n---\n",
    );
    let proj = fx.put(
        "project/.claude/skills/deploy/SKILL.md",
        b"---\nname: deploy\ndescription: project\n---\n",
    );
    assert_eq!(fx.status(&proj, "claude-code"), Some(Status::Shadowed));
    assert_eq!(fx.status(&user, "claude-code"), Some(Status::Visible));
    let plan = fx
        .plan(Request::Win {
            skill: proj.clone(),
            agent: "claude-code".into(),
        })
        .unwrap();
    let pv = actions::preview(&plan, &models(), &fx.env()).unwrap();
    assert_eq!(
        after_status(&pv, "claude-code"),
        Some(Status::Visible),
        "{}\n{pv:?}",
        plan.title
    );
    // The consequence for the other copy is shown.
    assert!(pv.others.iter().any(|c| c.agent == "claude-code"), "{pv:?}");
    let entry = journal::apply_in(&plan, &fx.data).unwrap();
    assert_eq!(fx.status(&proj, "claude-code"), Some(Status::Visible));
    journal::undo_in(&entry, &fx.data).unwrap();
    assert_eq!(fx.status(&proj, "claude-code"), Some(Status::Shadowed));
}

#[test]
fn refuses_a_file_changed_since_it_was_read() {
    let fx = Fx::new();
    let md = fx.put(
        "project/.agents/skills/race/SKILL.md",
        b"---\nname: race\ndescription: Use when: racing\n---\n",
    );
    let plan = fx
        .plan(Request::Fix {
            skill: md.clone(),
            only: vec![],
        })
        .unwrap();
    std::fs::write(
        &md,
        b"---\nname: race\ndescription: Use when: edited elsewhere\n---\n",
    )
    .unwrap();
    let before = fx.snapshot();
    let err = journal::apply_in(&plan, &fx.data).unwrap_err();
    assert!(err.0.contains("changed since"), "{err}");
    assert_eq!(err.kind(), RefusalKind::Changed);
    assert_eq!(fx.snapshot(), before, "nothing written");

    // Undo refuses too when the file changed after the action.
    std::fs::write(
        &md,
        b"---\nname: race\ndescription: Use when: racing\n---\n",
    )
    .unwrap();
    let plan = fx
        .plan(Request::Fix {
            skill: md.clone(),
            only: vec![],
        })
        .unwrap();
    let entry = journal::apply_in(&plan, &fx.data).unwrap();
    std::fs::write(&md, b"---\nname: race\ndescription: mine now\n---\n").unwrap();
    let err = journal::undo_in(&entry, &fx.data).unwrap_err();
    assert!(err.0.contains("changed since"), "{err}");
    assert_eq!(err.kind(), RefusalKind::Changed);
    assert_eq!(
        std::fs::read(&md).unwrap(),
        b"---\nname: race\ndescription: mine now\n---\n"
    );
}

#[test]
fn refuses_outside_the_roots_and_through_symlinks() {
    let fx = Fx::new();
    let roots = vec![fx.p("project/.agents/skills")];
    assert!(actions::check_inside(&fx.p("project/README.md"), &roots, true).is_err());
    assert!(
        actions::check_inside(&fx.p("project/.agents/skills/x/SKILL.md"), &roots, true).is_ok()
    );
    // A skill folder that is a symlink to a folder outside every root.
    let outside = fx.put(
        "outside/ext/SKILL.md",
        b"---\nname: ext\ndescription: Use when: x\n---\n",
    );
    std::fs::create_dir_all(fx.p("project/.agents/skills")).unwrap();
    std::os::unix::fs::symlink(fx.p("outside/ext"), fx.p("project/.agents/skills/ext")).unwrap();
    let md = fx.p("project/.agents/skills/ext/SKILL.md");
    assert!(fx.catalog().skill(&md).is_some());
    let err = fx
        .plan(Request::Fix {
            skill: md.clone(),
            only: vec!["quote-description".into()],
        })
        .unwrap_err();
    assert!(err.0.contains("outside"), "{err}");
    assert_eq!(err.kind(), RefusalKind::OutsideRoots);
    assert_eq!(
        std::fs::read(&outside).unwrap(),
        b"---\nname: ext\ndescription: Use when: x\n---\n"
    );
    // A plan whose paths were tampered with is refused at apply time.
    let good = fx.put(
        "project/.agents/skills/ok/SKILL.md",
        b"---\nname: ok\ndescription: Use when: x\n---\n",
    );
    let mut plan = fx
        .plan(Request::Fix {
            skill: good,
            only: vec![],
        })
        .unwrap();
    if let Op::Write { path, .. } = &mut plan.ops[0] {
        *path = fx.p("outside/ext/SKILL.md");
    }
    assert!(journal::apply_in(&plan, &fx.data).is_err());
    assert_eq!(
        std::fs::read(&outside).unwrap(),
        b"---\nname: ext\ndescription: Use when: x\n---\n"
    );
}

#[test]
fn undo_handles_a_half_applied_entry() {
    let fx = Fx::new();
    let md = fx.put(
        "project/.claude/skills/half/SKILL.md",
        b"---\nname: whole\ndescription: d\n---\n",
    );
    let before = fx.snapshot();
    let plan = fx
        .plan(Request::Rename {
            skill: md.clone(),
            name: "other".into(),
            folder: true,
        })
        .unwrap();
    assert_eq!(plan.ops.len(), 2);
    journal::apply_in(&plan, &fx.data).unwrap();
    // Simulate a crash after the first operation: the rename never happened, the entry is not
    // marked done.
    std::fs::rename(
        fx.p("project/.claude/skills/other"),
        fx.p("project/.claude/skills/half"),
    )
    .unwrap();
    let j = fx.data.join("journal.jsonl");
    let text = std::fs::read_to_string(&j).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("{\"done\""))
        .collect();
    std::fs::write(&j, kept.join("\n") + "\n").unwrap();
    let undone = journal::undo_last_in(&fx.data).unwrap().unwrap();
    assert_eq!(undone.title, plan.title);
    assert_eq!(fx.snapshot(), before);
    assert!(journal::undo_last_in(&fx.data).unwrap().is_none());
}

// ---------------------------------------------------------------------------------------------
// The binary.

fn bin(fx: &Fx, args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
    c.env_clear();
    if let Some(p) = std::env::var_os("PATH") {
        c.env("PATH", p);
    }
    c.env("SKILLTUI_DATA_DIR", &fx.data);
    c.args(args)
        .args([
            "--project",
            &fx.project.to_string_lossy(),
            "--home",
            &fx.home.to_string_lossy(),
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn cli_dry_run_no_terminal_yes_and_undo() {
    let fx = Fx::new();
    let md = fx.put(
        "project/.agents/skills/cli/SKILL.md",
        b"---\nname: cli\ndescription: Use when: testing\n---\n",
    );
    let dir = md.parent().unwrap().to_string_lossy().into_owned();
    let before = fx.snapshot();
    let o = bin(&fx, &["fix", &dir, "--dry-run"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("+description: \"Use when: testing\""), "{out}");
    assert!(out.contains("rejected → visible"), "{out}");
    assert_eq!(fx.snapshot(), before);

    let o = bin(&fx, &["fix", &dir]);
    assert_eq!(o.status.code(), Some(2), "no terminal to ask on");
    assert!(String::from_utf8_lossy(&o.stderr).contains("--yes"));
    assert_eq!(fx.snapshot(), before);

    let o = bin(&fx, &["fix", &md.to_string_lossy(), "--yes"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_ne!(fx.snapshot(), before);

    let o = bin(&fx, &["rename", &dir, "Not Valid", "--yes"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("name-invalid-chars"));

    let o = bin(&fx, &["mv", &dir, ".claude/skills", "--link", "--yes"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = bin(
        &fx,
        &[
            "rm",
            &fx.p("project/.claude/skills/cli").to_string_lossy(),
            "--yes",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    for _ in 0..3 {
        let o = bin(&fx, &["undo", "--yes"]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert_eq!(fx.snapshot(), before, "three undos restore the tree");
    let o = bin(&fx, &["undo", "--yes"]);
    assert_eq!(o.status.code(), Some(1), "nothing left to undo");

    let o = bin(
        &fx,
        &["rm", &fx.p("project/README.md").to_string_lossy(), "--yes"],
    );
    assert_eq!(o.status.code(), Some(1));
}
