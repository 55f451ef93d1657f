//! The explorer drives an action: `F` on a skill with an unquoted colon lists the quick fixes,
//! Enter previews (diff and verdicts before and after, drawn in the overlay), `y` applies, the
//! rescan shows the skill visible, `u` undoes back to identical bytes.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::resolve::Status;
use skilltui::tui::app::{ActionUi, App};
use skilltui::tui::effects::Cmd;
use skilltui::tui::update::{Msg, update};
use std::sync::Arc;

use crate::tui_support::{frame, run_jobs};

fn key(app: &mut App, code: KeyCode) -> Vec<Cmd> {
    update(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

#[test]
fn quick_fix_through_preview_confirmation_and_undo() {
    let tmp = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(tmp.path()).unwrap();
    let project = base.join("project");
    let home = base.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let md = project.join(".agents/skills/notes/SKILL.md");
    std::fs::create_dir_all(md.parent().unwrap()).unwrap();
    let original =
        b"---\nname: notes\ndescription: Use when: taking notes\n---\n# Notes\n".to_vec();
    std::fs::write(&md, &original).unwrap();

    let models = skilltui::agents::builtin();
    let env = Env::new(&project, &home);
    let cat = Catalog::build(&models, &env);
    assert_eq!(
        cat.skill(&md).unwrap().verdict("pi").unwrap().status,
        Status::Rejected
    );
    let mut app = App::new(Arc::new(models), env, 120, 40);
    // The journal and the trash go to the test's own data folder.
    app.data_dir = Some(base.join("data"));
    update(&mut app, Msg::Catalog(Arc::new(cat)));
    let row = app
        .rows
        .iter()
        .position(|r| app.skill(r.skill).unwrap().path == md)
        .unwrap();
    app.select(row);

    // F: the quick fixes of this skill.
    let cmds = update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('F'), KeyModifiers::SHIFT)),
    );
    // The work goes to the worker; the app shows it is busy and keeps no popup open.
    assert!(app.busy.is_some() && app.action.is_none());
    assert!(frame(&app).contains("looking for quick fixes"));
    run_jobs(&mut app, cmds);
    assert!(app.busy.is_none());
    match &app.action {
        Some(ActionUi::Choose { options, .. }) => {
            assert!(options[0].0.starts_with("quote-description"), "{options:?}")
        }
        other => panic!("expected the fix list, got {other:?}"),
    }
    // Enter: the preview.
    let cmds = key(&mut app, KeyCode::Enter);
    run_jobs(&mut app, cmds);
    assert!(
        matches!(app.action, Some(ActionUi::Preview { .. })),
        "{:?}",
        app.action
    );
    let f = frame(&app);
    assert!(f.contains("Preview"), "{f}");
    assert!(
        f.contains("+description: \"Use when: taking notes\""),
        "{f}"
    );
    assert!(f.contains("rejected → visible"), "{f}");
    assert!(f.contains("y/Enter applies"), "{f}");
    assert_eq!(
        std::fs::read(&md).unwrap(),
        original,
        "the preview changes nothing"
    );

    // y: applied, rescanned; the success is a transient message, not a popup.
    let cmds = key(&mut app, KeyCode::Char('y'));
    run_jobs(&mut app, cmds);
    assert!(app.action.is_none(), "{:?}", app.action);
    let f = frame(&app);
    assert!(f.contains("done: ") && f.contains("u undoes it"), "{f}");
    assert_eq!(app.session_actions.len(), 1);
    let cat = app.catalog.clone().unwrap();
    assert_eq!(
        cat.skill(&md).unwrap().verdict("pi").unwrap().status,
        Status::Visible
    );
    assert_eq!(
        std::fs::read(&md).unwrap(),
        b"---\nname: notes\ndescription: \"Use when: taking notes\"\n---\n# Notes\n"
    );

    // The next key clears the message; u undoes.
    key(&mut app, KeyCode::Char('j'));
    assert!(app.note.is_none());
    let cmds = key(&mut app, KeyCode::Char('u'));
    run_jobs(&mut app, cmds);
    assert!(
        app.note
            .as_ref()
            .is_some_and(|n| n.text.starts_with("undone")),
        "{:?}",
        app.note
    );
    assert_eq!(std::fs::read(&md).unwrap(), original);
    assert!(app.session_actions.is_empty());

    // Esc cancels a preview without writing.
    key(&mut app, KeyCode::Esc);
    app.select(row);
    let cmds = update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('D'), KeyModifiers::SHIFT)),
    );
    run_jobs(&mut app, cmds);
    assert!(matches!(app.action, Some(ActionUi::Preview { .. })));
    key(&mut app, KeyCode::Esc);
    assert!(app.action.is_none());
    assert!(md.exists());
}
