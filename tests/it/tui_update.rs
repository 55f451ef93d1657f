//! The explorer's update function: event → new state.

use crate::tui_support;

use crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use skilltui::tui::app::{DetailTab, Filter, Focus, Sort, Tab};
use skilltui::tui::update::{Msg, update};
use std::sync::Arc;
use tui_support::*;

fn selected_label(app: &skilltui::tui::app::App) -> String {
    app.current().unwrap().label().to_string()
}

#[test]
fn search_filters_selects_the_best_match_and_escape_clears() {
    let d = demo("u_search");
    let mut app = app(&d, 100, 30);
    let all = app.rows.len();
    keys(&mut app, "/");
    assert!(app.search.editing);
    keys(&mut app, "release");
    assert_eq!(app.search.query, "release");
    assert!(app.rows.len() < all);
    assert_eq!(selected_label(&app), "release-notes");
    // The matched characters of the name are known for highlighting.
    assert_eq!(app.hits(&app.rows[0]), (0..7).collect::<Vec<u32>>());
    key(&mut app, KeyCode::Backspace);
    assert_eq!(app.search.query, "releas");
    key(&mut app, KeyCode::Enter);
    assert!(!app.search.editing);
    assert_eq!(app.search.query, "releas", "Enter keeps the query");
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.search.query, "");
    assert_eq!(app.rows.len(), all);
    assert_eq!(
        selected_label(&app),
        "release-notes",
        "the selection survives clearing"
    );
}

#[test]
fn sort_and_filters_keep_the_selection() {
    let d = demo("u_sort");
    let mut app = app(&d, 100, 30);
    select(&mut app, &d, ".agents/skills/no-desc/SKILL.md");
    keys(&mut app, "s");
    assert_eq!(app.sort, Sort::Problems);
    assert_eq!(selected_label(&app), "no-desc");
    keys(&mut app, "s");
    assert_eq!(app.sort, Sort::Scope);
    assert_eq!(selected_label(&app), "no-desc");
    keys(&mut app, "s");
    assert_eq!(app.sort, Sort::Name);

    let all = app.rows.len();
    keys(&mut app, "f");
    assert_eq!(app.filter, Filter::Problems);
    // Every skill of the demo has an error or warning finding (tests/it/tui_update.rs checks the
    // filter against the findings).
    assert!(app.rows.len() <= all);
    keys(&mut app, "f");
    assert_eq!(app.filter, Filter::Collisions);
    let labels: Vec<String> = app
        .rows
        .iter()
        .map(|r| app.skill(r.skill).unwrap().label().to_string())
        .collect();
    assert!(
        labels
            .iter()
            .all(|l| ["changelog", "code-review", "deploy", "pdf-tools"].contains(&l.as_str())),
        "{labels:?}"
    );
    keys(&mut app, "f");
    assert_eq!(app.filter, Filter::All);

    // `a` opens a picker of agents (all, then each): j Enter shows the first agent.
    keys(&mut app, "a");
    assert!(app.action.is_some());
    keys(&mut app, "j");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.agent_filter, Some(0));
    assert_eq!(app.shown_agents(), vec![0]);
    keys(&mut app, "p");
    assert!(
        app.rows
            .iter()
            .all(|r| app.skill(r.skill).unwrap().scope == skilltui::agents::Scope::Project)
    );
}

#[test]
fn movement_tabs_focus_help_and_quit() {
    let d = demo("u_move");
    let mut app = app(&d, 80, 14);
    keys(&mut app, "jj");
    assert_eq!(app.cursor, 2);
    key(&mut app, KeyCode::Up);
    assert_eq!(app.cursor, 1);
    keys(&mut app, "G");
    assert_eq!(app.cursor, app.rows.len() - 1);
    assert!(app.offset > 0, "the window follows the cursor");
    keys(&mut app, "g");
    assert_eq!((app.cursor, app.offset), (0, 0));

    key(&mut app, KeyCode::Enter);
    assert_eq!(app.focus, Focus::Detail);
    keys(&mut app, "jj");
    assert_eq!(
        app.detail_scroll, 2,
        "keys scroll the detail when it has focus"
    );
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.detail_tab, DetailTab::Fields);
    key(&mut app, KeyCode::BackTab);
    assert_eq!(app.detail_tab, DetailTab::Why);
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.focus, Focus::List);

    keys(&mut app, "2");
    assert_eq!(app.tab, Tab::Collisions);
    keys(&mut app, "j");
    assert_eq!(app.side_cursor, 1);
    keys(&mut app, "1?");
    assert!(app.help);
    keys(&mut app, "x");
    assert!(!app.help && !app.quit, "any key closes the help");
    keys(&mut app, "?q");
    assert!(!app.help && !app.quit, "q in the help only closes it");
    keys(&mut app, "q");
    assert!(app.quit);

    let mut app2 = tui_support::app(&d, 80, 24);
    for _ in 0..5 {
        key(&mut app2, KeyCode::Esc);
    }
    assert!(!app2.quit, "Esc never quits");
    assert!(
        frame(&app2).contains("q quits"),
        "a stray Esc says how to quit"
    );
    let mut app3 = tui_support::app(&d, 80, 24);
    ctrl(&mut app3, 'c');
    assert!(app3.quit);
}

#[test]
fn mouse_selects_rows_switches_tabs_and_scrolls() {
    let d = demo("u_mouse");
    let mut app = app(&d, 80, 24);
    let click = |x, y| {
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: x,
            row: y,
            modifiers: KeyModifiers::NONE,
        })
    };
    // Rows start below the header line, the tab bar, the table border and its header.
    update(&mut app, click(5, 4 + 3));
    assert_eq!(app.cursor, 3);
    update(
        &mut app,
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::ScrollDown,
            column: 5,
            row: 10,
            modifiers: KeyModifiers::NONE,
        }),
    );
    assert_eq!(app.cursor, 6);
    // " 1 Skills │ 2 Collisions": column 14 is in the second tab.
    update(&mut app, click(14, 1));
    assert_eq!(app.tab, Tab::Collisions);
}

#[test]
fn a_new_snapshot_keeps_selection_filter_and_pane() {
    let d = demo("u_snapshot");
    let mut app = app(&d, 80, 24);
    select(&mut app, &d, ".claude/skills/deploy/SKILL.md");
    keys(&mut app, "f");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Tab);
    // A file changes; the worker sends a whole new catalog.
    std::fs::write(
        d.project.join(".claude/skills/deploy/SKILL.md"),
        "---\nname: deploy\ndescription: New text, still shadowed\n---\n",
    )
    .unwrap();
    let cat = skilltui::catalog::Catalog::build(&app.models, &app.env);
    update(&mut app, Msg::Catalog(Arc::new(cat)));
    assert_eq!(app.filter, Filter::Problems);
    assert_eq!(app.focus, Focus::Detail);
    assert_eq!(app.detail_tab, DetailTab::Fields);
    assert_eq!(selected_label(&app), "deploy");
    assert_eq!(
        app.current().unwrap().path,
        d.project.join(".claude/skills/deploy/SKILL.md")
    );
    assert_eq!(
        app.current().unwrap().description.as_deref(),
        Some("New text, still shadowed")
    );
}

#[test]
fn resize_and_rescan() {
    let d = demo("u_resize");
    let mut app = app(&d, 80, 24);
    update(&mut app, Msg::Resize(150, 50));
    assert_eq!((app.width, app.height), (150, 50));
    let cmds = update(
        &mut app,
        Msg::Key(crossterm::event::KeyEvent::new(
            KeyCode::Char('r'),
            KeyModifiers::NONE,
        )),
    );
    assert!(
        matches!(cmds.as_slice(), [skilltui::tui::effects::Cmd::Rescan]),
        "{cmds:?}"
    );
    update(&mut app, Msg::ScanFailed("boom".into()));
    assert!(frame(&app).contains("scan failed: boom"));
}

#[test]
fn search_matches_descriptions_by_words_after_names_and_remembers_queries() {
    let d = demo("u_search_words");
    let mut app = app(&d, 100, 30);
    keys(&mut app, "/");
    // "csv" and "plotting" are in data-viz's description only: found by its words.
    keys(&mut app, "plotting csv");
    let labels: Vec<String> = app
        .rows
        .iter()
        .map(|r| app.skill(r.skill).unwrap().label().to_string())
        .collect();
    assert_eq!(labels, vec!["data-visualization"], "{labels:?}");
    while !app.search.query.is_empty() {
        key(&mut app, KeyCode::Backspace);
    }
    keys(&mut app, "checklist");
    let labels: Vec<String> = app
        .rows
        .iter()
        .map(|r| app.skill(r.skill).unwrap().label().to_string())
        .collect();
    // No skill is named "checklist"; the deploy and review copies say it in their description.
    assert!(labels.contains(&"deploy".to_string()), "{labels:?}");
    assert!(labels.contains(&"code-review".to_string()), "{labels:?}");
    assert!(!labels.contains(&"pdf-tools".to_string()), "{labels:?}");
    // Erasing back to a query gives the rows it gave when typed (remembered, not rescored).
    let typed: Vec<usize> = app.rows.iter().map(|r| r.skill).collect();
    keys(&mut app, "xyz");
    assert!(app.rows.is_empty());
    for _ in 0..3 {
        key(&mut app, KeyCode::Backspace);
    }
    assert_eq!(app.search.query, "checklist");
    assert_eq!(app.rows.iter().map(|r| r.skill).collect::<Vec<_>>(), typed);
}

#[test]
fn o_and_shift_y_act_on_the_source_of_the_deciding_reason_y_copies_the_path() {
    use skilltui::tui::effects::Cmd;
    let d = demo("u_source");
    let mut app = app(&d, 100, 30);
    select(&mut app, &d, ".agents/skills/code-review/SKILL.md");
    // Claude Code does not scan .agents/skills: its deciding reason cites a URL.
    let cc = app
        .models
        .iter()
        .position(|m| m.id == "claude-code")
        .unwrap();
    // `a` opens the agent picker: all agents, then each agent.
    keys(&mut app, "a");
    for _ in 0..=cc {
        keys(&mut app, "j");
    }
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.agent_filter, Some(cc));
    select(&mut app, &d, ".agents/skills/code-review/SKILL.md");
    let (rule, src) = app.current_source().expect("a source");
    assert!(rule.starts_with("claude-code/"), "{rule}");
    let url = src.url.clone().expect("a URL");
    assert!(url.starts_with("https://"), "{url}");
    let press = |app: &mut skilltui::tui::app::App, c: char| {
        update(
            app,
            Msg::Key(crossterm::event::KeyEvent::new(
                KeyCode::Char(c),
                KeyModifiers::NONE,
            )),
        )
    };
    assert!(matches!(press(&mut app, 'o').as_slice(), [Cmd::OpenUrl(u)] if *u == url));
    assert!(app.note.as_ref().unwrap().text.contains(&url));
    assert!(matches!(press(&mut app, 'Y').as_slice(), [Cmd::Copy(u)] if *u == url));
    // The note shows in the status line, and the next key clears it.
    assert!(frame(&app).contains("copied"), "{}", frame(&app));
    keys(&mut app, "j");
    assert!(app.note.is_none());
    // `y` copies the SKILL.md's path.
    select(&mut app, &d, ".agents/skills/code-review/SKILL.md");
    let path = d.project.join(".agents/skills/code-review/SKILL.md");
    assert!(
        matches!(press(&mut app, 'y').as_slice(), [Cmd::Copy(p)] if *p == path.display().to_string())
    );
    assert!(frame(&app).contains("copied"), "{}", frame(&app));
    // A transient message goes by itself after a few seconds.
    for _ in 0..skilltui::tui::app::NOTE_TICKS {
        update(&mut app, Msg::Tick);
    }
    assert!(app.note.is_none());
}

#[test]
fn osc52_encodes_the_url_for_the_clipboard() {
    assert_eq!(skilltui::tui::osc52("hi"), "\x1b]52;c;aGk=\x07");
    assert_eq!(skilltui::tui::osc52("abc"), "\x1b]52;c;YWJj\x07");
    assert_eq!(skilltui::tui::osc52("abcd"), "\x1b]52;c;YWJjZA==\x07");
}

/// On the Problems tab: a cause's skills, Enter on one opens it in the Skills tab with its Why
/// pane (filters that hide it cleared), and `6` returns to the same cause and skill.
fn problems_navigation(app: &mut skilltui::tui::app::App) {
    keys(app, "6");
    assert_eq!(app.tab, Tab::Problems);
    assert_eq!(app.side_len(), app.problems.groups.len());
    // Most severe first.
    let sev: Vec<_> = app.problems.groups.iter().map(|g| g.severity).collect();
    assert!(sev.windows(2).all(|w| w[0] <= w[1]), "{sev:?}");
    // The largest group with several skills.
    let gi = (0..app.problems.groups.len())
        .max_by_key(|&i| (app.problems.affected[i].len(), std::cmp::Reverse(i)))
        .unwrap();
    assert!(app.problems.affected[gi].len() > 1);
    for _ in 0..gi {
        keys(app, "j");
    }
    assert_eq!(app.side_cursor, gi);
    key(app, KeyCode::Enter);
    assert_eq!(app.focus, Focus::Detail);
    assert_eq!(app.problem_cursor, 0);
    // Down the cause's skills: every one is listed (scrolling past the pane's height).
    let n = app.problems.affected[gi].len();
    keys(app, "G");
    assert_eq!(app.problem_cursor, n - 1);
    keys(app, "k");
    let at = app.problem_cursor;
    let want = app.problems.affected[gi][at].skill;
    // Hide it first: a search that matches nothing.
    app.search.set_query("zzzz-no-such-skill".into());
    app.refresh_rows();
    key(app, KeyCode::Enter);
    assert_eq!(app.tab, Tab::Skills);
    assert_eq!(app.focus, Focus::Detail);
    assert_eq!(app.detail_tab, DetailTab::Why);
    assert_eq!(app.rows[app.cursor].skill, want);
    assert_eq!(app.selected.as_ref(), Some(&app.skill(want).unwrap().path));
    assert!(app.search.query.is_empty());
    // Back to the same cause and skill.
    keys(app, "6");
    assert_eq!(
        (app.tab, app.side_cursor, app.problem_cursor),
        (Tab::Problems, gi, at)
    );
    key(app, KeyCode::Esc);
    assert_eq!(app.focus, Focus::List);
    keys(app, "j");
    assert_eq!(
        app.problem_cursor, 0,
        "another cause starts at its first skill"
    );
}

#[test]
fn problems_tab_selects_a_cause_and_enter_opens_a_skill() {
    let d = demo("u_problems");
    let mut a = app(&d, 80, 24);
    problems_navigation(&mut a);
    let mut a = app(&d, 120, 35);
    problems_navigation(&mut a);
}

#[test]
fn problems_tab_on_a_generated_tree() {
    let t = generated("u_gen_problems", 400);
    let mut a = app_at(&t.project, &t.home, 120, 35);
    problems_navigation(&mut a);
}

/// The `f` filter keeps exactly the skills with an error or warning finding (for the agent
/// shown, or of no agent in particular); returns how many it keeps with all agents shown.
fn problems_filter_agrees_with_the_findings(mut app: skilltui::tui::app::App) -> (usize, usize) {
    use skilltui::findings::{Severity, Subject};
    let cat = app.catalog.clone().unwrap();
    let all = skilltui::findings::findings(&cat, &app.models);
    let flagged = |agent: Option<&str>| -> std::collections::BTreeSet<std::path::PathBuf> {
        all.iter()
            .filter(|f| f.severity != Severity::Info && f.subject == Subject::Skill)
            .filter(|f| match (agent, &f.agent) {
                (None, _) | (_, None) => true,
                (Some(a), Some(b)) => a == b,
            })
            .map(|f| f.path.clone())
            .collect()
    };
    let rows = |app: &skilltui::tui::app::App| -> std::collections::BTreeSet<std::path::PathBuf> {
        app.rows
            .iter()
            .map(|r| app.skill(r.skill).unwrap().path.clone())
            .collect()
    };
    keys(&mut app, "f");
    assert_eq!(app.filter, Filter::Problems);
    let kept = flagged(None);
    assert!(!kept.is_empty());
    assert_eq!(rows(&app), kept);
    // With one agent shown: its findings, and those of no agent in particular.
    let mut fewer = false;
    for (i, m) in app.models.clone().iter().enumerate() {
        // `a` opens the agent picker: all agents first, then each agent.
        keys(&mut app, "ag");
        for _ in 0..=i {
            keys(&mut app, "j");
        }
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.agent_filter, Some(i));
        let want = flagged(Some(&m.id));
        fewer |= want.len() < kept.len();
        assert_eq!(rows(&app), want, "{}", m.id);
    }
    assert!(fewer, "one agent's problems are fewer than all of them");
    (kept.len(), cat.skills.len())
}

#[test]
fn problems_filter_keeps_skills_with_an_error_or_warning_finding() {
    let d = demo("u_problems_filter");
    problems_filter_agrees_with_the_findings(app(&d, 100, 30));
    // On a real-shaped tree, skills with info findings only (a root some agent never reads,
    // a spec problem no agent acts on) are not problems.
    let t = generated("u_gen_problems_filter", 400);
    let (kept, all) =
        problems_filter_agrees_with_the_findings(app_at(&t.project, &t.home, 100, 30));
    assert!(kept < all, "{kept} of {all}");
}

#[test]
fn a_snapshot_carries_its_findings_made_off_the_ui_thread() {
    let d = demo("u_problems_carried");
    let mut app = app(&d, 80, 24);
    let cat = Arc::new(skilltui::catalog::Catalog::build(&app.models, &app.env));
    let models = app.models.clone();
    let c2 = cat.clone();
    // Made on another thread, as the watcher does.
    let problems =
        std::thread::spawn(move || Arc::new(skilltui::tui::app::Problems::new(&c2, &models)))
            .join()
            .unwrap();
    update(
        &mut app,
        Msg::Snapshot {
            catalog: cat,
            findings: skilltui::tui::app::SnapshotFindings::Made(problems.clone()),
            texts: None,
            update: None,
        },
    );
    assert!(Arc::ptr_eq(&app.problems, &problems), "used as given");
    assert_eq!(
        app.problems.counts[0],
        app.problems
            .findings
            .iter()
            .filter(|f| f.severity == skilltui::findings::Severity::Error)
            .count()
    );
}

/// The search texts a snapshot brings (made off the UI thread, for the skills the snapshot
/// before does not share) search and draw as the ones the explorer makes itself: after a full
/// scan (every skill's made) and after an edit (one made, the rest carried over).
#[test]
fn a_snapshots_search_texts_made_off_the_ui_thread_are_the_explorers_own() {
    use skilltui::tui::app::{Problems, SkillTexts};
    let d = demo("u_texts_carried");
    let mut own = app(&d, 100, 30);
    let mut given = app(&d, 100, 30);
    let cat = Arc::new(skilltui::catalog::Catalog::build(&own.models, &own.env));
    let (c2, env) = (cat.clone(), given.env.clone());
    let texts = std::thread::spawn(move || SkillTexts::new(&c2, None, &env))
        .join()
        .unwrap();
    assert_eq!(texts.made(), cat.skills.len());
    let snapshot = |cat: &Arc<skilltui::catalog::Catalog>, app: &skilltui::tui::app::App, texts| {
        Msg::Snapshot {
            catalog: cat.clone(),
            findings: skilltui::tui::app::SnapshotFindings::Made(Arc::new(Problems::new(
                cat,
                &app.models,
            ))),
            texts,
            update: None,
        }
    };
    let m = snapshot(&cat, &own, None);
    update(&mut own, m);
    let m = snapshot(&cat, &given, Some(texts));
    update(&mut given, m);
    // An edit: one skill replaced by a copy with a new description, the others shared.
    let mut edited = (*cat).clone();
    let mut skill = (*edited.skills[1]).clone();
    skill.description = Some("Quetzalcoatl wrangling".into());
    edited.skills[1] = Arc::new(skill);
    let edited = Arc::new(edited);
    let texts = SkillTexts::new(&edited, Some(&cat), &given.env);
    assert_eq!(texts.made(), 1, "only the new skill's text is made");
    let m = snapshot(&edited, &own, None);
    update(&mut own, m);
    let m = snapshot(&edited, &given, Some(texts));
    update(&mut given, m);
    for query in ["quetzal", "release", "skills", "zzzz-none"] {
        for app in [&mut own, &mut given] {
            key(app, KeyCode::Char('/'));
            keys(app, query);
        }
        assert_eq!(frame(&given), frame(&own), "{query}");
        if query == "quetzal" {
            assert_eq!(
                given.current().map(|s| s.path.clone()),
                Some(edited.skills[1].path.clone())
            );
        }
        for app in [&mut own, &mut given] {
            key(app, KeyCode::Esc);
        }
    }
}

/// The detail pane scrolls within its content: PgDn pages by the viewport, never past the last
/// row (and PgUp comes straight back), the position shows in its border.
#[test]
fn detail_scroll_is_clamped_to_content_and_pages_by_the_viewport() {
    let d = demo("u_scroll");
    let mut app = app(&d, 80, 24);
    tui_support::select(&mut app, &d, ".agents/skills/code-review/SKILL.md");
    key(&mut app, KeyCode::Enter);
    let (lines, rows) = skilltui::tui::view::detail_content(&app).unwrap();
    let total = lines.len();
    assert!(
        total > rows,
        "the Why view of code-review is longer than the pane"
    );
    let max = (total - rows) as u16;
    assert_eq!(skilltui::tui::view::max_detail_scroll(&app), max);
    // One page: the viewport less one row of context.
    key(&mut app, KeyCode::PageDown);
    assert_eq!(app.detail_scroll as usize, (rows - 1).min(max as usize));
    for _ in 0..50 {
        key(&mut app, KeyCode::PageDown);
    }
    assert_eq!(app.detail_scroll, max, "never into empty space");
    let f = tui_support::frame(&app);
    assert!(
        f.contains(&format!("{}–{total}/{total}", max as usize + 1)),
        "{f}"
    );
    // Back up at once: no hidden overshoot to scroll away first.
    key(&mut app, KeyCode::Up);
    assert_eq!(app.detail_scroll, max - 1);
    key(&mut app, KeyCode::End);
    assert_eq!(app.detail_scroll, max);
    key(&mut app, KeyCode::PageUp);
    assert_eq!(
        app.detail_scroll as usize,
        max as usize - (rows - 1).min(max as usize)
    );
    key(&mut app, KeyCode::Home);
    assert_eq!(app.detail_scroll, 0);
    let f = tui_support::frame(&app);
    assert!(f.contains(&format!("1–{rows}/{total}")), "{f}");
    // The collisions and agents details clamp the same way.
    for tab in ["2", "4"] {
        let mut app = tui_support::app(&d, 120, 35);
        keys(&mut app, tab);
        key(&mut app, KeyCode::Enter);
        for _ in 0..200 {
            key(&mut app, KeyCode::PageDown);
        }
        assert_eq!(
            app.detail_scroll,
            skilltui::tui::view::max_detail_scroll(&app),
            "tab {tab}"
        );
    }
}

fn press(app: &mut skilltui::tui::app::App, code: KeyCode) -> Vec<skilltui::tui::effects::Cmd> {
    update(
        app,
        Msg::Key(crossterm::event::KeyEvent::new(code, KeyModifiers::NONE)),
    )
}

/// Issue #17 item 3: `W` hands planning to the worker (a command out of `update`), the app
/// is busy with a spinner, navigation keys act at once, Esc cancels and a late result is
/// dropped.
#[test]
fn w_runs_on_the_worker_keys_keep_acting_and_esc_cancels() {
    use skilltui::tui::app::ActionUi;
    use skilltui::tui::effects::{Cmd, Context, Done, Work, perform};
    use std::sync::atomic::{AtomicBool, Ordering};
    let d = demo("u_busy");
    let mut app = app(&d, 100, 30);
    select(&mut app, &d, ".agents/skills/code-review/SKILL.md");
    // No agent column chosen: W opens the agent picker, on an agent that does not load it.
    assert!(press(&mut app, KeyCode::Char('W')).is_empty());
    let Some(ActionUi::Choose {
        options, cursor, ..
    }) = &app.action
    else {
        panic!("expected the agent picker, got {:?}", app.action)
    };
    assert_eq!(options.len(), app.models.len());
    let agent = &app.models[*cursor].id;
    let v = app.current().unwrap().verdict(agent).unwrap();
    assert!(v.status.is_problem(), "{agent}: {:?}", v.status);
    let cmds = press(&mut app, KeyCode::Enter);
    let [Cmd::Run(job)] = cmds.as_slice() else {
        panic!("expected a job, got {cmds:?}")
    };
    assert!(
        matches!(&job.work, Work::Candidates { skill, .. } if skill.ends_with("code-review/SKILL.md"))
    );
    assert!(app.busy.is_some() && app.action.is_none());
    let f = frame(&app);
    assert!(
        f.contains("finding the plans") && f.contains("Esc cancels"),
        "{f}"
    );
    // Keys act at once while it runs: selection, tabs, search.
    let at = app.cursor;
    keys(&mut app, "j");
    assert_eq!(app.cursor, at + 1);
    keys(&mut app, "2");
    assert_eq!(app.tab, Tab::Collisions);
    keys(&mut app, "1/rel");
    assert_eq!(app.search.query, "rel");
    key(&mut app, KeyCode::Esc);
    assert!(app.busy.is_some(), "Esc leaves the search first");
    // Another action waits for this one.
    assert!(press(&mut app, KeyCode::Char('D')).is_empty());
    // Esc cancels: the job's flag is set, the app no longer waits; nothing quits.
    key(&mut app, KeyCode::Esc);
    assert!(job.cancel.load(Ordering::Relaxed));
    assert!(app.busy.is_none() && !app.quit);
    assert!(frame(&app).contains("cancelled"), "{}", frame(&app));
    // A job that sees its flag stops; a late result is dropped.
    let cx = Context::of(&app);
    assert!(matches!(
        perform(&job.work, &cx, &job.cancel),
        Done::Cancelled
    ));
    let late = perform(&job.work, &cx, &AtomicBool::new(false));
    assert!(
        matches!(&late, Done::Candidates { result: Ok(_), .. }),
        "{late:?}"
    );
    assert!(
        update(
            &mut app,
            Msg::Job {
                id: job.id,
                done: late.clone()
            }
        )
        .is_empty()
    );
    assert!(app.action.is_none(), "the late result is ignored");
    // The same result for the job the app waits for opens the preview.
    keys(&mut app, "W");
    let cmds = press(&mut app, KeyCode::Enter);
    let [Cmd::Run(job2)] = cmds.as_slice() else {
        panic!("{cmds:?}")
    };
    assert_ne!(job2.id, job.id);
    update(
        &mut app,
        Msg::Job {
            id: job2.id,
            done: late,
        },
    );
    assert!(matches!(app.action, Some(ActionUi::Plans { .. })));
}

/// `W` on the Collisions tab: which copy should win, then for which agent, then the plan.
#[test]
fn w_on_the_collisions_tab_picks_the_copy_then_the_agent() {
    use skilltui::tui::app::ActionUi;
    use skilltui::tui::effects::{Cmd, Work};
    let d = demo("u_collide");
    let mut app = app(&d, 120, 30);
    keys(&mut app, "2");
    let copies = app.collisions[0].skills.len();
    assert!(copies > 1);
    press(&mut app, KeyCode::Char('W'));
    let Some(ActionUi::Choose { title, options, .. }) = &app.action else {
        panic!("{:?}", app.action)
    };
    assert_eq!(title, "Which copy should win?");
    assert_eq!(options.len(), copies);
    assert!(frame(&app).contains("Which copy should win?"));
    keys(&mut app, "j");
    let Some(ActionUi::Choose {
        options, cursor, ..
    }) = &app.action
    else {
        unreachable!()
    };
    let skilltui::tui::app::Choice::Copy { skill: chosen, .. } = options[*cursor].1.clone() else {
        panic!()
    };
    key(&mut app, KeyCode::Enter);
    let Some(ActionUi::Choose { title, .. }) = &app.action else {
        panic!("{:?}", app.action)
    };
    assert!(title.contains("win for which agent"), "{title}");
    let cmds = press(&mut app, KeyCode::Enter);
    assert!(
        matches!(cmds.as_slice(), [Cmd::Run(j)] if matches!(&j.work, Work::Candidates { skill, .. } if *skill == chosen)),
        "{cmds:?}"
    );
}

/// A rename prompt checks the name as it is typed, does not plan a name the spec refuses, and
/// keeps what was typed when planning refuses it.
#[test]
fn the_rename_prompt_validates_inline_and_keeps_the_typed_name() {
    use skilltui::actions::Request;
    use skilltui::tui::app::ActionUi;
    use skilltui::tui::effects::{Cmd, Done};
    let d = demo("u_rename");
    let mut app = app(&d, 100, 30);
    select(&mut app, &d, ".agents/skills/code-review/SKILL.md");
    keys(&mut app, "R");
    keys(&mut app, "X");
    let Some(ActionUi::Input { text, error, .. }) = &app.action else {
        panic!("{:?}", app.action)
    };
    assert_eq!(text, "code-reviewX");
    assert!(error.as_deref().unwrap().contains("lowercase"), "{error:?}");
    assert!(frame(&app).contains("lowercase"), "{}", frame(&app));
    assert!(press(&mut app, KeyCode::Enter).is_empty(), "not planned");
    assert!(matches!(app.action, Some(ActionUi::Input { .. })));
    key(&mut app, KeyCode::Backspace);
    keys(&mut app, "-2");
    let Some(ActionUi::Input { error: None, .. }) = &app.action else {
        panic!("{:?}", app.action)
    };
    let cmds = press(&mut app, KeyCode::Enter);
    let [Cmd::Run(job)] = cmds.as_slice() else {
        panic!("{cmds:?}")
    };
    // Planning refuses it (say, the folder exists): the prompt comes back with the name.
    let skill = d.project.join(".agents/skills/code-review/SKILL.md");
    update(
        &mut app,
        Msg::Job {
            id: job.id,
            done: Done::Planned(
                Request::Rename {
                    skill,
                    name: "code-review-2".into(),
                    folder: true,
                },
                Err("the folder code-review-2 exists".into()),
            ),
        },
    );
    let Some(ActionUi::Input { text, error, .. }) = &app.action else {
        panic!("{:?}", app.action)
    };
    assert_eq!(text, "code-review-2");
    assert_eq!(error.as_deref(), Some("the folder code-review-2 exists"));
}

/// Esc backs out of everything and never quits; `q` in the help only closes it.
#[test]
fn esc_never_quits_from_any_tab_or_popup() {
    let d = demo("u_esc");
    let mut app = app(&d, 100, 30);
    for tab in "123456".chars() {
        keys(&mut app, &tab.to_string());
        for opener in ["", "?", "a", "W", "M", "R", "/x", "f", "p"] {
            keys(&mut app, opener);
            key(&mut app, KeyCode::Enter);
            for _ in 0..4 {
                key(&mut app, KeyCode::Esc);
            }
            assert!(!app.quit, "tab {tab}, after {opener:?}");
        }
    }
    assert!(app.action.is_none() && !app.help && app.search.query.is_empty());
    keys(&mut app, "?q");
    assert!(!app.quit && !app.help);
    keys(&mut app, "q");
    assert!(app.quit);
}

/// The footer lists the actions where the focus is, from the key table.
#[test]
fn the_footer_follows_the_focus() {
    let d = demo("u_footer");
    let mut app = app(&d, 120, 30);
    let footer = |app: &skilltui::tui::app::App| frame(app).lines().last().unwrap().to_string();
    let f = footer(&app);
    for hint in [
        "W win", "F fix", "M move", "R rename", "D delete", "? help", "q quit",
    ] {
        assert!(f.contains(hint), "{hint}: {f}");
    }
    assert!(f.contains("Enter open") && !f.contains("h list"), "{f}");
    key(&mut app, KeyCode::Enter);
    let f = footer(&app);
    assert!(f.contains("h list") && !f.contains("Enter open"), "{f}");
    keys(&mut app, "6");
    let f = footer(&app);
    assert!(!f.contains("W win") && f.contains("1-6 tabs"), "{f}");
    key(&mut app, KeyCode::Enter);
    assert!(
        footer(&app).contains("W win"),
        "a cause's skills: {}",
        footer(&app)
    );
    // At 80 columns the most useful hints stay.
    let mut narrow = tui_support::app(&d, 80, 24);
    let f = footer(&mut narrow);
    assert!(f.contains("? help") && f.contains("W win"), "{f}");
}

/// The config file's `[keys]` remaps the table: the new keys act, the old ones do not, and
/// the footer and help show them; errors name their line and column.
#[test]
fn a_remapped_key_acts_and_config_errors_have_a_line() {
    use skilltui::tui::config::parse;
    let d = demo("u_config");
    let mut app = app(&d, 100, 30);
    let cfg = parse("# mine\n[keys]\nquit = \"x\"\ndown = [\"n\", \"ctrl-n\"]\n").unwrap();
    app.keymap = Arc::new(cfg.keymap);
    keys(&mut app, "n");
    assert_eq!(app.cursor, 1);
    skilltui_ctrl(&mut app, 'n');
    assert_eq!(app.cursor, 2);
    keys(&mut app, "j");
    assert_eq!(app.cursor, 2, "j no longer moves");
    keys(&mut app, "q");
    assert!(!app.quit, "q no longer quits");
    assert!(frame(&app).lines().last().unwrap().contains("x quit"));
    keys(&mut app, "?");
    assert!(frame(&app).contains("n ^n"), "{}", frame(&app));
    keys(&mut app, "?x");
    assert!(!app.quit && !app.help);
    keys(&mut app, "x");
    assert!(app.quit);

    let err = |text: &str| parse(text).unwrap_err();
    let (l, c, m) = err("[keys]\nquit = \"q\"\nfly = \"f\"\n");
    assert_eq!((l, c), (3, 1));
    assert!(m.contains("unknown action `fly`"), "{m}");
    let (l, c, m) = err("[keys]\ndown = [\"j\", \"hyper-j\"]\n");
    assert_eq!((l, c), (2, 14), "{m}");
    assert!(m.contains("`hyper-j` is not a key"), "{m}");
    let (l, c, m) = err("[theme]\nkey = \"blurple\"\n");
    assert_eq!((l, c), (2, 7));
    assert!(m.contains("not a colour"), "{m}");
    let (l, _, _) = err("[keys]\n\nquit = \n");
    assert_eq!(l, 3);
    let (l, c, m) = err("[colours]\n");
    assert_eq!((l, c), (1, 2), "{m}");
    // A theme colour parses.
    let t = parse("[theme]\nselected-bg = \"#112233\"\nkey = \"lightblue\"\n")
        .unwrap()
        .theme;
    assert_eq!(t.selected_bg, ratatui::style::Color::Rgb(0x11, 0x22, 0x33));
    assert_eq!(t.key, ratatui::style::Color::LightBlue);
}

fn skilltui_ctrl(app: &mut skilltui::tui::app::App, c: char) {
    ctrl(app, c);
}

/// `W`'s plan list: the planner's candidates best first (a loss-free plan first), each with its
/// steps, gains and losses (losses marked `✗` without colour too); Enter previews the selected
/// plan from the planner's prediction, Enter again applies it through the journal, Esc backs
/// out one step; the keys are the key table's (footer and help follow).
#[test]
fn w_offers_the_planners_plans_and_previews_the_selected_one() {
    use skilltui::actions::planner::Predicted;
    use skilltui::tui::app::ActionUi;
    use skilltui::tui::effects::{Cmd, Work, run_jobs_now};
    let d = demo("u_plans");
    let mut app = app(&d, 120, 40);
    select(&mut app, &d, ".agents/skills/code-review/SKILL.md");
    press(&mut app, KeyCode::Char('W'));
    let cmds = press(&mut app, KeyCode::Enter);
    assert!(run_jobs_now(&mut app, cmds).is_empty());
    let Some(ActionUi::Plans {
        list,
        agent,
        cursor: 0,
        preview: None,
        ..
    }) = &app.action
    else {
        panic!("expected the plan list, got {:?}", app.action)
    };
    let cands = list.candidates.clone();
    let agent = agent.clone();
    assert!(cands.len() > 1, "{} candidates", cands.len());
    if cands.iter().any(|c| c.achieves && c.losses.is_empty()) {
        assert!(cands[0].achieves && cands[0].losses.is_empty());
    }
    // Never a lossy plan above a loss-free one that reaches the goal.
    let first_lossy = cands.iter().position(|c| !c.losses.is_empty());
    let last_free = cands
        .iter()
        .rposition(|c| c.achieves && c.losses.is_empty());
    if let (Some(l), Some(f)) = (first_lossy, last_free) {
        assert!(f < l, "a loss-free plan below a lossy one");
    }
    assert!(cands.iter().all(|c| c.predicted == Predicted::Overlay));
    let f = frame(&app);
    assert!(
        f.contains(&format!("win for {agent}")) && f.contains("best first"),
        "{f}"
    );
    assert!(f.contains("1. make") && f.contains("gains:"), "{f}");
    if cands.iter().take(3).any(|c| !c.losses.is_empty()) {
        assert!(f.contains("✗ LOSES"), "{f}");
    }
    // The footer shows the plan list's keys from the key table.
    let footer = f.lines().last().unwrap_or_default().to_string();
    assert!(
        footer.contains("Enter preview") && footer.contains("Esc back"),
        "{footer}"
    );
    // j moves; Enter previews the selected plan.
    keys(&mut app, "j");
    let Some(ActionUi::Plans { cursor: 1, .. }) = &app.action else {
        panic!("{:?}", app.action)
    };
    keys(&mut app, "k");
    assert!(press(&mut app, KeyCode::Enter).is_empty());
    let Some(ActionUi::Plans {
        preview: Some((lines, _)),
        ..
    }) = &app.action
    else {
        panic!("{:?}", app.action)
    };
    assert_eq!(lines[0], cands[0].plan.title);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("verdicts of this skill"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("* ") && l.contains(&agent) && l.contains("→ visible")),
        "{lines:#?}"
    );
    assert!(frame(&app).contains("Preview of plan 1"));
    // Esc: back to the list; Enter, Enter: applies the plan through a job.
    key(&mut app, KeyCode::Esc);
    assert!(matches!(
        &app.action,
        Some(ActionUi::Plans { preview: None, .. })
    ));
    press(&mut app, KeyCode::Enter);
    let cmds = press(&mut app, KeyCode::Enter);
    let [Cmd::Run(job)] = cmds.as_slice() else {
        panic!("{cmds:?}")
    };
    assert!(matches!(&job.work, Work::Apply(p) if p.title == cands[0].plan.title));
    assert!(app.action.is_none() && !app.quit);
}

/// The run loop draws after a tick only when `update` marks the frame stale: an idle explorer
/// draws nothing, and no tick that leaves the frame fresh changes it (the spinner, fading
/// change marks, a note going, the "updated Ns ago" count).
#[test]
fn ticks_redraw_only_when_the_frame_changes() {
    let d = demo("u_ticks");
    let mut app = app(&d, 160, 30);
    let stale = |app: &mut skilltui::tui::app::App| std::mem::take(&mut app.frame_stale);
    // Counts the ticks that ask for a frame, checking that every other one leaves it as it was.
    let tick = |app: &mut skilltui::tui::app::App, n: usize| {
        let mut drawn = 0;
        for i in 0..n {
            std::mem::take(&mut app.frame_stale);
            let before = frame(app);
            update(app, Msg::Tick);
            let asked = std::mem::take(&mut app.frame_stale);
            let after = frame(app);
            assert!(
                asked || before == after,
                "tick {i} changed the frame unasked:\n{after}"
            );
            drawn += usize::from(asked);
        }
        drawn
    };
    assert_eq!(tick(&mut app, 100), 0, "idle: no frame in 10 s");
    update(
        &mut app,
        Msg::Key(crossterm::event::KeyCode::Char('j').into()),
    );
    assert!(stale(&mut app), "a key marks the frame stale");
    // A note, then a watcher update: the note goes, the marks fade, the age counts seconds.
    select(&mut app, &d, ".agents/skills/code-review/SKILL.md");
    press(&mut app, KeyCode::Char('y'));
    assert!(app.note.is_some());
    assert_eq!(tick(&mut app, 5), 0, "the note stays: nothing moves");
    let catalog = app.catalog.clone().unwrap();
    update(
        &mut app,
        Msg::Update(skilltui::watch::Update {
            catalog,
            generation: 1,
            changed: vec![d.project.join(".agents/skills/code-review/SKILL.md")],
            cause: skilltui::watch::Cause::Files(1),
            took: std::time::Duration::ZERO,
            reread: Some(1),
            rewalked: Some(0),
            resolved: Some(1),
        }),
    );
    assert!(frame(&app).contains("updated 0s ago"), "{}", frame(&app));
    let drawn = tick(&mut app, 100);
    assert!(app.note.is_none() && app.changed.is_empty());
    assert_eq!(app.last_update.map(|u| u.2), Some(100));
    // Ten steps of the age (the marks fade with the third) and the note going.
    assert_eq!(drawn, 11, "frames in 10 s");
    // While a scan runs, the spinner turns on every tick.
    let mut scanning = skilltui::tui::app::App::new(app.models.clone(), app.env.clone(), 80, 24);
    stale(&mut scanning);
    update(&mut scanning, Msg::Tick);
    assert!(stale(&mut scanning));
    update(&mut scanning, Msg::Tick);
    assert!(stale(&mut scanning));
}

#[test]
fn a_new_snapshot_hands_back_the_old_one_to_be_freed_off_the_ui_thread() {
    use skilltui::tui::effects::{Cmd, Reaper};
    let d = demo("u_retired");
    let mut app = app(&d, 80, 24);
    let old = app.catalog.clone().unwrap();
    let skills = old.skills.len();
    assert!(skills > 0);
    // A full rescan: a catalog that shares no skill with the one shown.
    let new = Arc::new(skilltui::catalog::Catalog::build(&app.models, &app.env));
    let mut cmds = update(&mut app, Msg::Catalog(new.clone()));
    assert!(Arc::ptr_eq(app.catalog.as_ref().unwrap(), &new));
    let retired = match cmds.pop() {
        Some(Cmd::Release(r)) => r,
        other => panic!("expected the old snapshot to free, got {other:?}"),
    };
    assert!(cmds.is_empty(), "{cmds:?}");
    // The explorer keeps nothing of the old snapshot: what was retired holds it, with the
    // search text made for each of its skills.
    assert!(Arc::ptr_eq(retired.catalog().unwrap(), &old));
    assert_eq!(retired.derived(), skills);
    let gone = Arc::downgrade(&old);
    drop(old);
    assert!(gone.upgrade().is_some(), "held by what was retired");
    // The reaper frees it; dropping the reaper waits for nothing, and its thread frees what it
    // was given before it ends.
    let reaper = Reaper::start();
    reaper.release(retired);
    drop(reaper);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while gone.upgrade().is_some() {
        assert!(std::time::Instant::now() < deadline, "never freed");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn the_reaper_frees_on_its_own_thread() {
    use skilltui::tui::effects::Reaper;
    struct Probe(std::sync::mpsc::Sender<std::thread::ThreadId>);
    impl Drop for Probe {
        fn drop(&mut self) {
            let _ = self.0.send(std::thread::current().id());
        }
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let reaper = Reaper::start();
    reaper.release(Probe(tx));
    let freed_on = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("freed");
    assert_ne!(freed_on, std::thread::current().id());
}

/// The names with more than one copy: one entry per name, its copies in catalog order, names in
/// order, as a map by name finds them; the catalog lists its skills by label, which the one pass
/// over neighbours relies on.
#[test]
fn collisions_are_one_entry_per_name_in_name_order() {
    use skilltui::tui::app::collisions;
    let d = demo("u_collisions_order");
    let app = app(&d, 120, 30);
    let cat = app.catalog.clone().expect("a snapshot");
    let sorted = collisions(&cat);
    assert!(!sorted.is_empty());
    assert_eq!(*app.collisions, sorted, "the explorer shows the snapshot's");
    let mut by_name: std::collections::BTreeMap<&str, Vec<usize>> = Default::default();
    for (i, s) in cat.skills.iter().enumerate() {
        by_name.entry(s.label()).or_default().push(i);
    }
    let expected: Vec<(String, Vec<usize>)> = by_name
        .into_iter()
        .filter(|(_, v)| v.len() > 1)
        .map(|(n, v)| (n.to_string(), v))
        .collect();
    let got: Vec<(String, Vec<usize>)> = sorted
        .iter()
        .map(|c| (c.name.clone(), c.skills.clone()))
        .collect();
    assert_eq!(got, expected);
    assert!(
        cat.skills
            .windows(2)
            .all(|w| (w[0].label(), &w[0].path) <= (w[1].label(), &w[1].path)),
        "the catalog lists its skills by label, then path"
    );
}

/// The findings worker: a snapshot reaches the explorer before its findings, which come after
/// it from another thread. Meanwhile the explorer shows the findings it had (their marks too
/// after an edit in place, none after a skill is removed); it takes only the findings of the
/// snapshot it shows, and when snapshots come faster than their findings, the last one's come.
#[test]
fn a_snapshot_comes_before_its_findings_which_follow_from_the_findings_worker() {
    use skilltui::catalog::Catalog;
    use skilltui::tui::app::{FindingsShown, Problems};
    use skilltui::tui::findings::FindingsWorker;
    let d = demo("u_findings_after");
    let mut app = app(&d, 120, 35);
    let counts = |app: &skilltui::tui::app::App| app.problems.counts;
    let a = app.catalog.clone().unwrap();
    let (before, marked_before) = (
        counts(&app),
        (0..a.skills.len())
            .filter(|&i| app.mark(i).count > 0)
            .count(),
    );
    assert!(marked_before > 0, "the demo has skills with findings");
    // A skill is broken in place: its description goes (its name, which places it in the
    // catalog, stays).
    let k = 0;
    let was = app.mark(k);
    let broken = a.skills[k].path.clone();
    let text = format!("---\nname: {}\n---\nbody\n", a.skills[k].label());
    std::fs::write(&broken, text).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = FindingsWorker::start(app.models.clone(), tx);
    let b = Arc::new(Catalog::build(&app.models, &app.env));
    assert!(worker.send(b.clone(), Some(&a), None, None));
    let next = || rx.recv_timeout(std::time::Duration::from_secs(60)).unwrap();
    let m = next();
    assert!(
        matches!(m, Msg::Snapshot { .. }),
        "the snapshot comes first"
    );
    update(&mut app, m);
    assert!(Arc::ptr_eq(app.catalog.as_ref().unwrap(), &b));
    assert_eq!(
        app.findings_shown,
        FindingsShown::Previous { same_skills: true }
    );
    assert!(
        header(&frame(&app)).contains("finding problems…"),
        "{}",
        frame(&app)
    );
    assert_eq!(
        counts(&app),
        before,
        "the findings shown are the ones before"
    );
    assert_eq!(app.mark(k), was);
    assert_eq!(
        (0..b.skills.len())
            .filter(|&i| app.mark(i).count > 0)
            .count(),
        marked_before
    );
    // Findings for a snapshot the explorer no longer shows are dropped.
    let stale = Arc::new(Problems::new(&a, &app.models));
    update(
        &mut app,
        Msg::Findings {
            of: Arc::downgrade(&a),
            problems: Ok(stale.clone()),
        },
    );
    assert!(!Arc::ptr_eq(&app.problems, &stale));
    assert_eq!(
        app.findings_shown,
        FindingsShown::Previous { same_skills: true }
    );
    // Its own come next, from the worker.
    let m = next();
    assert!(matches!(&m, Msg::Findings { of, .. } if std::ptr::eq(of.as_ptr(), Arc::as_ptr(&b))));
    update(&mut app, m);
    assert_eq!(app.findings_shown, FindingsShown::Own);
    // As the snapshot's own findings say, which differ from the ones before.
    let own = Problems::new(&b, &app.models);
    assert_ne!(own.marks[k], was, "the edit changes the skill's findings");
    assert_eq!(app.mark(k), own.marks[k], "the edited skill is marked anew");
    assert_eq!(app.problems.counts, own.counts);
    assert_ne!(own.counts, stale.counts);
    assert!(!header(&frame(&app)).contains("finding problems…"));

    // A skill removed: the findings shown meanwhile say nothing of any skill (their indices are
    // the previous snapshot's), in the rows or in the Problems tab.
    std::fs::remove_dir_all(broken.parent().unwrap()).unwrap();
    let c = Arc::new(Catalog::build(&app.models, &app.env));
    assert_eq!(c.skills.len() + 1, b.skills.len());
    assert!(worker.send(c.clone(), Some(&b), None, None));
    update(&mut app, next());
    assert_eq!(
        app.findings_shown,
        FindingsShown::Previous { same_skills: false }
    );
    assert!((0..c.skills.len()).all(|i| app.mark(i).count == 0));
    keys(&mut app, "6");
    assert!(app.current_group().is_none());
    assert!(
        frame(&app).contains("Working out the findings…"),
        "{}",
        frame(&app)
    );
    update(&mut app, next());
    assert_eq!(app.findings_shown, FindingsShown::Own);
    assert!(app.current_group().is_some());
    assert!(
        (0..c.skills.len())
            .filter(|&i| app.mark(i).count > 0)
            .count()
            >= marked_before - 1
    );

    // Snapshots faster than their findings: each snapshot before its findings, the last one's
    // findings come, and the explorer ends with them.
    let built: Vec<Arc<Catalog>> = (0..3)
        .map(|_| Arc::new(Catalog::build(&app.models, &app.env)))
        .collect();
    let mut previous = c.clone();
    for cat in &built {
        assert!(worker.send(cat.clone(), Some(&previous), None, None));
        previous = cat.clone();
    }
    let last = built.last().unwrap();
    let mut snapshots_seen = Vec::new();
    loop {
        match next() {
            Msg::Snapshot {
                catalog,
                findings,
                texts,
                update: u,
            } => {
                snapshots_seen.push(Arc::as_ptr(&catalog));
                update(
                    &mut app,
                    Msg::Snapshot {
                        catalog,
                        findings,
                        texts,
                        update: u,
                    },
                );
            }
            Msg::Findings { of, problems } => {
                assert!(
                    snapshots_seen.contains(&of.as_ptr()),
                    "findings before their snapshot"
                );
                let done = std::ptr::eq(of.as_ptr(), Arc::as_ptr(last));
                update(&mut app, Msg::Findings { of, problems });
                if done {
                    break;
                }
            }
            other => panic!("unexpected message {other:?}"),
        }
    }
    assert_eq!(snapshots_seen.len(), 3);
    assert_eq!(app.findings_shown, FindingsShown::Own);
    assert_eq!(app.problems.marks.len(), last.skills.len());
}

/// The first snapshot's findings still to come: no count is shown rather than "0 errors", and
/// the Problems tab says they are being worked out; then they are shown.
#[test]
fn the_first_snapshot_shows_no_counts_until_its_findings_come() {
    use skilltui::catalog::Catalog;
    use skilltui::tui::app::{App, FindingsShown};
    use skilltui::tui::findings::FindingsWorker;
    let d = demo("u_findings_first");
    let shown = app(&d, 120, 35);
    let mut app = App::new(shown.models.clone(), shown.env.clone(), 120, 35);
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = FindingsWorker::start(app.models.clone(), tx);
    let cat = Arc::new(Catalog::build(&app.models, &app.env));
    assert!(worker.send(cat, None, None, None));
    let next = || rx.recv_timeout(std::time::Duration::from_secs(60)).unwrap();
    update(&mut app, next());
    assert_eq!(app.findings_shown, FindingsShown::Coming);
    let f = frame(&app);
    assert!(
        header(&f).contains("finding problems…") && !header(&f).contains("error"),
        "{f}"
    );
    keys(&mut app, "6");
    assert!(frame(&app).contains("Working out the findings…"));
    update(&mut app, next());
    assert_eq!(app.findings_shown, FindingsShown::Own);
    let f = frame(&app);
    assert!(
        header(&f).contains("error") && !header(&f).contains("finding problems…"),
        "{f}"
    );
    assert!(!f.contains("Working out the findings…"));
}

/// Findings that could not be made (the worker caught a panic) are said once in a note, and in
/// the header until the next snapshot's come; nothing is said of a skill meanwhile, and no
/// spinner turns. A failure for a snapshot no longer shown is passed over.
#[test]
fn findings_that_could_not_be_made_are_said_and_the_spinner_stops() {
    use skilltui::catalog::Catalog;
    use skilltui::tui::app::{FindingsShown, SnapshotFindings};
    let d = demo("u_findings_failed");
    let mut app = app(&d, 120, 35);
    let a = app.catalog.clone().unwrap();
    let counts = app.problems.counts;
    let b = Arc::new(Catalog::build(&app.models, &app.env));
    let snapshot = |cat: &Arc<Catalog>| Msg::Snapshot {
        catalog: cat.clone(),
        findings: SnapshotFindings::Coming {
            collisions: Arc::new(skilltui::tui::app::collisions(cat)),
            same_skills: true,
        },
        texts: None,
        update: None,
    };
    update(&mut app, snapshot(&b));
    assert!(app.findings_pending());
    // A failure for the snapshot before: not this one's.
    let failed = |of: &Arc<Catalog>| Msg::Findings {
        of: Arc::downgrade(of),
        problems: Err("boom".into()),
    };
    update(&mut app, failed(&a));
    assert_eq!(
        app.findings_shown,
        FindingsShown::Previous { same_skills: true }
    );
    update(&mut app, failed(&b));
    assert_eq!(app.findings_shown, FindingsShown::Failed { previous: true });
    assert!(!app.findings_pending());
    let f = frame(&app);
    assert!(
        header(&f).contains("findings not worked out — r rescans"),
        "{f}"
    );
    assert!(!header(&f).contains("finding problems…"), "{f}");
    assert!(f.contains("cannot work out the findings: boom"), "{f}");
    assert_eq!(app.problems.counts, counts, "the counts before stay");
    assert!((0..b.skills.len()).all(|i| app.mark(i).count == 0));
    // The next snapshot's findings come: shown as usual.
    let c = Arc::new(Catalog::build(&app.models, &app.env));
    update(&mut app, snapshot(&c));
    assert_eq!(
        app.findings_shown,
        FindingsShown::Previous { same_skills: false }
    );
    let own = Arc::new(skilltui::tui::app::Problems::new(&c, &app.models));
    update(
        &mut app,
        Msg::Findings {
            of: Arc::downgrade(&c),
            problems: Ok(own),
        },
    );
    assert_eq!(app.findings_shown, FindingsShown::Own);
    assert!(!header(&frame(&app)).contains("findings not worked out"));
    // The first snapshot's findings fail: no count, and the Problems tab does not claim there
    // are none.
    let mut first = skilltui::tui::app::App::new(app.models.clone(), app.env.clone(), 120, 35);
    update(&mut first, snapshot(&c));
    update(&mut first, failed(&c));
    assert_eq!(
        first.findings_shown,
        FindingsShown::Failed { previous: false }
    );
    keys(&mut first, "6");
    let f = frame(&first);
    assert!(!header(&f).contains("error"), "{f}");
    assert!(
        f.contains("The findings could not be worked out") && !f.contains("No findings"),
        "{f}"
    );
}

/// A snapshot's search texts are carried over from the snapshot before by one walk over both in
/// their common order: after a skill is removed, added, edited or renamed (which moves it), the
/// explorer's texts are the ones an explorer that never saw the snapshot before makes, and the
/// watcher's callback makes a text only for the skills the snapshot before does not hold.
#[test]
fn search_texts_carried_over_a_skill_removed_added_edited_or_renamed_are_made_anew_only_for_those()
{
    use skilltui::catalog::{Catalog, Skill};
    use skilltui::tui::app::{App, SkillTexts, SnapshotFindings};
    let d = demo("u_texts_walk");
    let mut carried = app(&d, 100, 30);
    let first = carried.catalog.clone().unwrap();
    let sorted = |mut skills: Vec<Arc<Skill>>| {
        skills.sort_by(|a, b| (a.label(), &a.path).cmp(&(b.label(), &b.path)));
        skills
    };
    let with = |cat: &Catalog, skills: Vec<Arc<Skill>>| {
        let mut c = cat.clone();
        c.skills = sorted(skills);
        Arc::new(c)
    };
    let n = first.skills.len();
    assert!(n > 6);
    // Each step: the next snapshot and how many of its skills the one before does not hold.
    let mut steps: Vec<(Arc<Catalog>, usize)> = Vec::new();
    let mut skills = first.skills.clone();
    skills.remove(2);
    steps.push((with(&first, skills.clone()), 0));
    let mut added = (*skills[3]).clone();
    added.path = added.path.parent().unwrap().join("added-copy/SKILL.md");
    added.name = Some(format!("{}-added", skills[3].label()));
    skills.push(Arc::new(added));
    steps.push((with(&first, skills.clone()), 1));
    let mut edited = (*skills[4]).clone();
    edited.description = Some("Quetzalcoatl wrangling".into());
    skills[4] = Arc::new(edited);
    steps.push((with(&first, skills.clone()), 1));
    let mut renamed = (*skills[0]).clone();
    renamed.name = Some("zzz-renamed-last".into());
    skills[0] = Arc::new(renamed);
    let mut renamed = (*skills[5]).clone();
    renamed.name = Some("aaa-renamed-first".into());
    skills[5] = Arc::new(renamed);
    steps.push((with(&first, skills.clone()), 2));
    let mut before = first;
    for (k, (cat, new)) in steps.into_iter().enumerate() {
        let texts = SkillTexts::new(&cat, Some(&before), &carried.env);
        assert_eq!(texts.made(), new, "step {k}");
        let problems = Arc::new(skilltui::tui::app::Problems::new(&cat, &carried.models));
        update(
            &mut carried,
            Msg::Snapshot {
                catalog: cat.clone(),
                findings: SnapshotFindings::Made(problems),
                texts: (k % 2 == 0).then_some(texts),
                update: None,
            },
        );
        let mut fresh = App::new(carried.models.clone(), carried.env.clone(), 100, 30);
        update(&mut fresh, Msg::Catalog(cat.clone()));
        assert_eq!(carried.haystacks, fresh.haystacks, "step {k}");
        assert_eq!(carried.cell_widths, fresh.cell_widths, "step {k}");
        before = cat;
    }
}
