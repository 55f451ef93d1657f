//! The explorer's search through `update`: ranking (exact and prefix names first, every word
//! somewhere in name or description, no scattered path matches) and the matches an active
//! filter hides, counted and named in the Skills title.

use crate::tui_support;

use crossterm::event::KeyCode;
use skilltui::agents::Scope;
use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::tui::app::{App, Filter, HiddenBy};
use skilltui::tui::update::{Msg, update};
use std::path::Path;
use std::sync::Arc;
use tui_support::{frame, key, keys};

fn put(base: &Path, rel: &str, name: &str, description: &str) {
    let p = base.join(rel).join("SKILL.md");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(
        p,
        format!("---\nname: {name}\ndescription: {description}\n---\n# T\n\nBody.\n"),
    )
    .unwrap();
}

fn labels(app: &App) -> Vec<String> {
    app.rows
        .iter()
        .map(|r| app.skill(r.skill).unwrap().label().to_string())
        .collect()
}

#[test]
fn fill_pdf_forms_ranks_pdf_first_and_names_what_a_filter_hides() {
    let tmp = tempfile::tempdir().unwrap();
    let (project, home) = (tmp.path().join("p"), tmp.path().join("h"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    // The skill the query is after, in the user's root.
    put(
        &home,
        ".claude/skills/pdf",
        "pdf",
        "Use this skill whenever the user wants to do anything with PDF files, merging, splitting, filling PDF forms, OCR.",
    );
    // Scattered fuzzy matches of every word over name and path: not matches.
    for n in [
        "profile-design-llm-kit",
        "fast-infra-lint-llm-pdf-formatters",
        "pandoc-data-formats",
    ] {
        put(
            &project,
            &format!(".claude/skills/{n}"),
            n,
            "Unrelated work.",
        );
    }
    // Every word in the description: a match, after the name match.
    put(
        &project,
        ".claude/skills/forms-helper",
        "forms-helper",
        "Helps fill web forms, exports pdf receipts.",
    );
    // A name starting with the query's first word but lacking `forms`: not a match.
    put(
        &project,
        ".claude/skills/pdf-split",
        "pdf-split",
        "Split PDF files; fill gaps.",
    );
    let models = skilltui::agents::builtin();
    let env = Env::new(&project, &home);
    let cat = Catalog::build(&models, &env);
    let mut app = App::new(Arc::new(models), env, 160, 30);
    update(&mut app, Msg::Catalog(Arc::new(cat)));
    assert_eq!(app.rows.len(), 6);

    keys(&mut app, "/fill pdf forms");
    assert_eq!(labels(&app), ["pdf", "forms-helper"]);
    assert_eq!(app.hidden.count, 0);
    assert_eq!(app.hits(&app.rows[0]), [0, 1, 2]);
    key(&mut app, KeyCode::Enter);

    // `p`: project scope only; the user's `pdf` is hidden, and the title says so.
    keys(&mut app, "p");
    assert_eq!(labels(&app), ["forms-helper"]);
    assert_eq!(app.hidden.count, 1);
    assert_eq!(app.hidden.by, [(HiddenBy::Scope(Scope::Project), 1)]);
    let screen = frame(&app);
    assert!(
        screen.contains("1 more hidden by scope: project — p cycles"),
        "{screen}"
    );
    // `f` twice (collisions only) as well: both filters named, each with its count.
    keys(&mut app, "ff");
    assert!(labels(&app).is_empty());
    assert_eq!(app.hidden.count, 2);
    assert_eq!(
        app.hidden.by,
        [
            (HiddenBy::Filter(Filter::Collisions), 2),
            (HiddenBy::Scope(Scope::Project), 1)
        ]
    );
    let screen = frame(&app);
    assert!(
        screen.contains("2 more hidden by filter: collisions (2), scope: project (1) — f, p cycle"),
        "{screen}"
    );
    // Clearing the filters and the query: nothing counts as hidden.
    keys(&mut app, "f");
    keys(&mut app, "ppp");
    assert_eq!(labels(&app), ["pdf", "forms-helper"]);
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.search.query, "");
    assert_eq!(app.hidden.count, 0);
    assert_eq!(app.rows.len(), 6);

    // An exact name first, then names starting with the query, then words inside names.
    keys(&mut app, "/pdf");
    let got = labels(&app);
    assert_eq!(&got[..2], ["pdf", "pdf-split"], "{got:?}");
    assert!(got.contains(&"fast-infra-lint-llm-pdf-formatters".to_string()));
}

/// The real install (`SKILLTUI_REAL=/work/realcat`, holding P and H): `fill pdf forms` puts
/// the `pdf` skill in the top 3. Run with `cargo test --test it tui_search -- --ignored`.
#[test]
#[ignore]
fn real_install_fill_pdf_forms() {
    let Some(base) = std::env::var_os("SKILLTUI_REAL") else {
        eprintln!("SKILLTUI_REAL not set");
        return;
    };
    let base = Path::new(&base);
    let models = skilltui::agents::builtin();
    let env = Env::new(base.join("P"), base.join("H"));
    let cat = Catalog::build(&models, &env);
    let n = cat.skills.len();
    let mut app = App::new(Arc::new(models), env, 200, 50);
    update(&mut app, Msg::Catalog(Arc::new(cat)));
    let t = std::time::Instant::now();
    keys(&mut app, "/fill pdf forms");
    let typed = t.elapsed();
    let top: Vec<String> = app
        .rows
        .iter()
        .take(10)
        .map(|r| {
            let s = app.skill(r.skill).unwrap();
            format!("{} {}", s.label(), s.path.display())
        })
        .collect();
    eprintln!(
        "{n} skills, {} matches, typed in {typed:?}; top 10:\n{}",
        app.rows.len(),
        top.join("\n")
    );
    let pos = app
        .rows
        .iter()
        .position(|r| app.skill(r.skill).unwrap().label() == "pdf")
        .expect("pdf matches");
    assert!(pos < 3, "pdf is #{}", pos + 1);
}
