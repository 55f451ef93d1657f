//! The explorer's update function: event → new state.

mod tui_support;

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
    assert!(app.rows.len() < all);
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

    keys(&mut app, "a");
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
    keys(&mut app, "q");
    assert!(app.quit);

    let mut app2 = tui_support::app(&d, 80, 24);
    key(&mut app2, KeyCode::Esc);
    assert!(app2.quit, "Esc quits when nothing is open");
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
    keys(&mut app, "r");
    assert!(app.rescan_requested);
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
fn o_and_y_act_on_the_source_of_the_deciding_reason() {
    let d = demo("u_source");
    let mut app = app(&d, 100, 30);
    select(&mut app, &d, ".agents/skills/code-review/SKILL.md");
    // Claude Code does not scan .agents/skills: its deciding reason cites a URL.
    let cc = app
        .models
        .iter()
        .position(|m| m.id == "claude-code")
        .unwrap();
    while app.agent_filter != Some(cc) {
        keys(&mut app, "a");
    }
    select(&mut app, &d, ".agents/skills/code-review/SKILL.md");
    let (rule, src) = app.current_source().expect("a source");
    assert!(rule.starts_with("claude-code/"), "{rule}");
    let url = src.url.clone().expect("a URL");
    assert!(url.starts_with("https://"), "{url}");
    keys(&mut app, "o");
    assert_eq!(
        app.source_cmd,
        Some(skilltui::tui::app::SourceCmd::Open(url.clone()))
    );
    assert!(app.source_note.as_deref().unwrap().contains(&url));
    app.source_cmd = None;
    keys(&mut app, "y");
    assert_eq!(
        app.source_cmd,
        Some(skilltui::tui::app::SourceCmd::Copy(url.clone()))
    );
    // The note shows in the status line, and the next key clears it.
    assert!(frame(&app).contains("copied"), "{}", frame(&app));
    keys(&mut app, "j");
    assert!(app.source_note.is_none());
}

#[test]
fn osc52_encodes_the_url_for_the_clipboard() {
    assert_eq!(skilltui::tui::osc52("hi"), "\x1b]52;c;aGk=\x07");
    assert_eq!(skilltui::tui::osc52("abc"), "\x1b]52;c;YWJj\x07");
    assert_eq!(skilltui::tui::osc52("abcd"), "\x1b]52;c;YWJjZA==\x07");
}
