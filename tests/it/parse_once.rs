//! Parse once, and the first scan's progress: each SKILL.md's YAML is parsed once per distinct
//! text and options its agents need (a lenient retry only when the strict parse fails), with the
//! same verdicts as one agent at a time; the scan counts the files walked and read, the watcher
//! reports them while the first scan runs, and the explorer's header shows them.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use skilltui::catalog::Catalog;
use skilltui::env::Env;
use skilltui::resolve;
use skilltui::scan;
use skilltui::tui::app::App;
use skilltui::tui::update::{Msg, update};
use skilltui::watch::{self, Report};
use std::path::{Path, PathBuf};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::Duration;

struct Tree {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

fn tree() -> Tree {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    Tree {
        _tmp: tmp,
        project,
        home,
    }
}

fn write(dir: &Path, text: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), text).unwrap();
}

fn env(t: &Tree) -> Env {
    Env::new(&t.project, &t.home)
}

type Outcome = Vec<(Vec<resolve::Verdict>, Vec<Option<std::sync::Arc<str>>>)>;

/// Every agent's verdicts and collision keys, resolved one agent at a time (each agent parsing
/// for itself).
fn one_agent_at_a_time(
    models: &[skilltui::agents::AgentModel],
    s: &scan::Scan,
    entries: &[resolve::Entry],
) -> Outcome {
    (0..models.len())
        .map(|ai| {
            let (v, k) = resolve::resolve_keyed(models, ai, s, entries);
            (v, k.all().map(|k| k.cloned()).collect())
        })
        .collect()
}

fn outcome<T>(r: resolve::Resolved<T>) -> Outcome {
    r.agents
        .into_iter()
        .map(|(v, k)| (v, k.all().map(|k| k.cloned()).collect()))
        .collect()
}

#[test]
fn a_valid_file_is_parsed_once_for_every_agent() {
    let t = tree();
    write(
        &t.project.join(".agents/skills/plain"),
        "---\nname: plain\ndescription: A plain skill.\nmetadata:\n  tags: [a, b]\n---\n# Plain\n",
    );
    let models = skilltui::agents::builtin();
    assert!(models.len() > 10, "{} agents", models.len());
    let s = scan::scan(&models, &env(&t));
    let entries = resolve::entries(&s);
    assert_eq!(entries.len(), 1);
    // The catalog's own facts (the canonical parse) ask too.
    let r = resolve::resolve_all(&models, &s, &entries, |ei, parses| {
        let md = s
            .content(&entries[ei].path)
            .unwrap()
            .as_ref()
            .as_ref()
            .unwrap();
        parses
            .parse_with(
                md.text(),
                skilltui::skill::SplitOptions::CANONICAL,
                Default::default(),
            )
            .is_ok()
    });
    assert_eq!(r.extra, vec![true]);
    assert_eq!(r.yaml_parses, 1, "one parse shared by every agent");
    // Only the agents that reach the file ask, each once at least, plus the catalog.
    let reached = r
        .agents
        .iter()
        .filter(|(v, _)| v[0].status == resolve::Status::Visible)
        .count();
    assert!(reached >= 2, "{reached} agents load it");
    assert!(r.yaml_asked > reached, "{} asked", r.yaml_asked);
    assert_eq!(outcome(r), one_agent_at_a_time(&models, &s, &entries));
}

#[test]
fn lenient_parses_happen_only_where_the_strict_one_fails() {
    let t = tree();
    let root = t.project.join(".agents/skills");
    // Strict YAML rejects an unquoted `: ` in a value: agents that repair it parse again.
    write(
        &root.join("colon"),
        "---\nname: colon\ndescription: Use when: the user asks\n---\nbody\n",
    );
    // A repeated key: agents that accept it parse leniently after the strict parse fails.
    write(
        &root.join("twice"),
        "---\nname: twice\ndescription: one\ndescription: two\n---\nbody\n",
    );
    // Valid: one parse, whatever the agents' options.
    write(
        &root.join("fine"),
        "---\nname: fine\ndescription: Fine.\n---\nbody\n",
    );
    let models = skilltui::agents::builtin();
    let s = scan::scan(&models, &env(&t));
    let entries = resolve::entries(&s);
    assert_eq!(entries.len(), 3);
    let per_file: Vec<usize> = entries
        .iter()
        .enumerate()
        .map(|(ei, _)| {
            let e: Vec<resolve::Entry> = vec![entries[ei].clone()];
            resolve::resolve_all(&models, &s, &e, |_, _| ()).yaml_parses
        })
        .collect();
    let name = |ei: usize| {
        entries[ei]
            .path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    };
    for (ei, n) in per_file.iter().enumerate() {
        match name(ei).as_str() {
            "fine" => assert_eq!(*n, 1, "fine"),
            // The strict parse, then one per distinct repaired text (the models know four
            // kinds of rewrite) or the lenient parse of the repeated key: never one per agent.
            other => assert!(
                (2..=5).contains(n),
                "{other}: {n} parses for {} agents",
                models.len()
            ),
        }
    }
    // And the verdicts are the ones each agent makes alone.
    let r = resolve::resolve_all(&models, &s, &entries, |_, _| ());
    assert_eq!(outcome(r), one_agent_at_a_time(&models, &s, &entries));
}

#[test]
fn the_scan_counts_files_walked_and_read() {
    let t = tree();
    let root = t.project.join(".claude/skills");
    for i in 0..5 {
        write(
            &root.join(format!("s{i}")),
            &format!("---\nname: s{i}\ndescription: Skill {i}.\n---\n"),
        );
        std::fs::create_dir_all(root.join(format!("s{i}/scripts"))).unwrap();
        std::fs::write(root.join(format!("s{i}/scripts/run.sh")), "echo").unwrap();
    }
    let models = skilltui::agents::builtin();
    let progress = scan::Progress::new();
    assert_eq!(progress.counts(), scan::Counts::default());
    let s = scan::scan_with(&models, &env(&t), &progress);
    let c = progress.counts();
    // Five SKILL.md and five scripts, walked once each (one root folder holds them).
    assert_eq!(c.walked, 10, "{c:?}");
    assert_eq!(c.to_read, 5, "{c:?}");
    assert_eq!(c.read, 5, "{c:?}");
    assert_eq!(s.files.len(), 5);
}

#[test]
fn the_watcher_reports_the_first_scans_progress_before_its_snapshot() {
    let t = tree();
    let root = t.project.join(".agents/skills");
    for i in 0..30 {
        write(
            &root.join(format!("s{i}")),
            &format!("---\nname: s{i}\ndescription: Skill {i}.\n---\n"),
        );
    }
    // One ordered log of what the watcher said.
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let (tx, rx) = channel();
    let l1 = log.clone();
    let h = watch::spawn(
        Arc::new(skilltui::agents::builtin()),
        env(&t),
        Duration::from_millis(100),
        move |r| match r {
            Report::Update(u) => {
                l1.lock().unwrap().push(format!("update {}", u.generation));
                tx.send(u).is_ok()
            }
            Report::Warning(_) => true,
            Report::Progress(c) => {
                l1.lock()
                    .unwrap()
                    .push(format!("progress {} {} {}", c.walked, c.read, c.to_read));
                true
            }
        },
    )
    .unwrap();
    let first = rx.recv_timeout(Duration::from_secs(20)).expect("snapshot");
    assert_eq!(first.generation, 0);
    drop(h);
    let log = log.lock().unwrap().clone();
    let at = log.iter().position(|l| l == "update 0").unwrap();
    assert!(at >= 1, "{log:?}");
    // The last report before the snapshot has the final counts.
    assert_eq!(log[at - 1], "progress 30 30 30", "{log:?}");
    assert!(
        log[..at].iter().all(|l| l.starts_with("progress")),
        "{log:?}"
    );
}

fn frame(app: &App) -> String {
    let mut t = Terminal::new(TestBackend::new(app.width, app.height)).unwrap();
    t.draw(|f| skilltui::tui::draw::draw(f, app)).unwrap();
    let buf = t.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

#[test]
fn the_header_shows_files_walked_and_read_until_the_snapshot() {
    let t = tree();
    write(
        &t.project.join(".agents/skills/one"),
        "---\nname: one\ndescription: One.\n---\n",
    );
    let models = skilltui::agents::builtin();
    let env = env(&t);
    let mut app = App::new(Arc::new(models.clone()), env.clone(), 160, 30);
    let before = frame(&app);
    assert!(before.contains("scanning"), "{before}");
    assert!(!before.contains("files walked"), "{before}");
    // While the walk runs: files walked only.
    update(
        &mut app,
        Msg::Progress(scan::Counts {
            walked: 12_345,
            to_read: 0,
            read: 0,
        }),
    );
    let walking = frame(&app);
    assert!(walking.contains("12,345 files walked"), "{walking}");
    assert!(!walking.contains(" read"), "{walking}");
    // Then reading.
    update(
        &mut app,
        Msg::Progress(scan::Counts {
            walked: 56_000,
            to_read: 10_131,
            read: 2_048,
        }),
    );
    let reading = frame(&app);
    assert!(
        reading.contains("56,000 files walked, 2,048 of 10,131 read"),
        "{reading}"
    );
    // The snapshot ends it, and a late report does not bring it back.
    update(
        &mut app,
        Msg::Catalog(Arc::new(Catalog::build(&models, &env))),
    );
    update(
        &mut app,
        Msg::Progress(scan::Counts {
            walked: 1,
            to_read: 1,
            read: 1,
        }),
    );
    let done = frame(&app);
    assert!(!done.contains("files walked"), "{done}");
    assert!(!done.contains("scanning"), "{done}");
}
