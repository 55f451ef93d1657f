//! Snapshots of every screen and overlay of the explorer (TestBackend frames of the demo).

use crate::tui_support;

use crossterm::event::KeyCode;
use tui_support::*;

fn snap(name: &str, text: String) {
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn skills_wide() {
    let d = demo("skills_wide");
    let app = app(&d, 140, 40);
    snap("skills_wide", frame(&app));
}

#[test]
fn skills_80x24() {
    let d = demo("skills_80x24");
    let app = app(&d, 80, 24);
    let f = frame(&app);
    // Every agent column and the legend fit at 80×24.
    for col in ["claude", "codex", "pi", "visible", "unknown"] {
        assert!(f.contains(col), "{col}:\n{f}");
    }
    snap("skills_80x24", f);
}

#[test]
fn skills_narrow_60x20() {
    let d = demo("skills_narrow");
    let app = app(&d, 60, 20);
    snap("skills_narrow_60x20", frame(&app));
}

#[test]
fn why_of_an_invisible_skill_80x24() {
    let d = demo("why_80x24");
    let mut app = app(&d, 80, 24);
    select(&mut app, &d, ".agents/skills/code-review/SKILL.md");
    key(&mut app, KeyCode::Enter);
    let f = frame(&app);
    assert!(
        f.contains("Claude Code does not scan .agents/skills"),
        "{f}"
    );
    snap("why_80x24", f);
}

#[test]
fn fields_side_by_side() {
    let d = demo("fields");
    let mut app = app(&d, 140, 40);
    select(&mut app, &d, ".claude/skills/deploy/SKILL.md");
    key(&mut app, KeyCode::Tab);
    let f = frame(&app);
    assert!(f.contains("disable-model-invocation"), "{f}");
    snap("fields_wide", f);
}

#[test]
fn file_with_yaml_error_caret() {
    let d = demo("file_caret");
    let mut app = app(&d, 140, 40);
    select(&mut app, &d, ".agents/skills/release-notes/SKILL.md");
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    let f = frame(&app);
    assert!(f.contains("^ yaml-invalid"), "{f}");
    snap("file_caret", f);
}

#[test]
fn collisions_tab() {
    let d = demo("collisions");
    let mut app = app(&d, 140, 40);
    keys(&mut app, "2");
    let f = frame(&app);
    assert!(f.contains("code-review"), "{f}");
    snap("collisions", f);
}

#[test]
fn roots_tab() {
    let d = demo("roots");
    let mut app = app(&d, 140, 40);
    keys(&mut app, "3");
    snap("roots", frame(&app));
}

#[test]
fn agents_tab() {
    let d = demo("agents");
    let mut app = app(&d, 140, 40);
    keys(&mut app, "4j");
    let f = frame(&app);
    assert!(f.contains("Codex CLI — model of 0.171.0"), "{f}");
    snap("agents", f);
}

#[test]
fn tokens_tab() {
    let d = demo("tokens");
    let mut app = app(&d, 140, 40);
    keys(&mut app, "5");
    let f = frame(&app);
    assert!(f.contains("BUDGET"), "{f}");
    snap("tokens", f);
}

#[test]
fn help_overlay() {
    let d = demo("help");
    let mut app = app(&d, 80, 24);
    keys(&mut app, "?");
    let f = frame(&app);
    assert!(
        f.contains("Help")
            && f.contains("every word in name")
            && f.contains("quit (in the help: close it)")
            && f.contains("closes this help"),
        "{f}"
    );
    snap("help_80x24", f);
    // `?` again: the evidence legend, every label with its strength.
    keys(&mut app, "?");
    let f = frame(&app);
    for label in [
        "OBS", "SRC", "BUNDLE", "ASI", "DOC", "CL", "ISSUE", "SPEC", "3P", "FT", "INF", "NONE",
    ] {
        assert!(f.contains(&format!("{label} ")), "{label}: {f}");
    }
    assert!(f.contains("observed") && f.contains("weakest rule"), "{f}");
    snap("help_legend_80x24", f);
    keys(&mut app, "x");
    assert!(!app.help && !app.help_legend);
}

#[test]
fn search_highlights_and_filters() {
    let d = demo("search");
    let mut app = app(&d, 80, 24);
    keys(&mut app, "/rev");
    let f = frame(&app);
    assert!(f.contains("/rev"), "{f}");
    snap("search_80x24", f);
}

#[test]
fn first_frame_while_scanning() {
    let d = demo("scanning");
    let models: Vec<_> = skilltui::agents::builtin()
        .into_iter()
        .filter(|m| skilltui::agents::SEED_IDS.contains(&m.id.as_str()))
        .collect();
    let env = skilltui::env::Env::new(&d.project, &d.home);
    let app = skilltui::tui::app::App::new(std::sync::Arc::new(models), env, 80, 24);
    let f = frame(&app);
    assert!(f.contains("scanning"), "{f}");
    snap("scanning_80x24", f);
}

#[test]
fn hostile_text_is_escaped_in_frames() {
    let base = std::path::Path::new("/tmp/skilltui-snap/hostile");
    let _ = std::fs::remove_dir_all(base);
    skilltui::demo::write_tree(
        base,
        "@@ mkdir project/.git\n@@ project/.claude/skills/evil/SKILL.md\n---\nname: \"evil\\e]52;c;aGk=\\a\\e[2J\\u202e\"\ndescription: \"x\\e[31mred\\u200b\"\n---\n# body \u{1b}[1m\n",
    )
    .unwrap();
    let models = skilltui::agents::builtin();
    let env = skilltui::env::Env::new(base.join("project"), base.join("home"));
    let cat = skilltui::catalog::Catalog::build(&models, &env);
    let mut app = skilltui::tui::app::App::new(std::sync::Arc::new(models), env, 140, 40);
    skilltui::tui::update::update(
        &mut app,
        skilltui::tui::update::Msg::Catalog(std::sync::Arc::new(cat)),
    );
    for tab in [KeyCode::Tab, KeyCode::Tab, KeyCode::Tab] {
        let f = frame(&app);
        for bad in ['\u{1b}', '\u{7}', '\u{202e}', '\u{200b}'] {
            assert!(!f.contains(bad), "{bad:?} reached the frame:\n{f}");
        }
        key(&mut app, tab);
    }
    // The Problems tab: the causes, then a cause's skills with their own messages.
    keys(&mut app, "6");
    for _ in 0..app.problems.groups.len() {
        for k in [KeyCode::Enter, KeyCode::Esc, KeyCode::Char('j')] {
            let f = frame(&app);
            for bad in ['\u{1b}', '\u{7}', '\u{202e}', '\u{200b}'] {
                assert!(!f.contains(bad), "{bad:?} reached the frame:\n{f}");
            }
            key(&mut app, k);
        }
    }
    let _ = std::fs::remove_dir_all(base);
}

/// The header's error count and per-agent visible counts are the library's (`findings`,
/// `agent_summaries`); the agents it shows are a prefix of the model order, each complete.
fn header_agrees_with_the_library(app: &skilltui::tui::app::App, f: &str) {
    let cat = app.catalog.as_ref().unwrap();
    let all = skilltui::findings::findings(cat, &app.models);
    let [errors, _, _] = skilltui::findings::counts(&all);
    let h = header(f);
    assert!(
        h.contains(&format!("{errors} error")),
        "{errors} errors: {h}"
    );
    assert!(!h.contains("not visible everywhere"), "{h}");
    let mut shown = Vec::new();
    for s in skilltui::findings::agent_summaries(cat, &all) {
        let m = app.models.iter().find(|m| m.id == s.id).unwrap();
        // By id when every agent fits that way, else by the first word (cut to 7).
        let complete = [11, 7].iter().any(|&cap| {
            let label = skilltui::present::agent_label(m, cap);
            let part = format!("{label} {}", s.visible);
            h.contains(&format!("{part} ")) || h.ends_with(&part)
        });
        shown.push(complete);
    }
    assert!(shown[0], "the first agent fits: {h}");
    let first_missing = shown.iter().position(|s| !s).unwrap_or(shown.len());
    assert!(
        shown[first_missing..].iter().all(|s| !s),
        "agents are dropped from the last: {shown:?} {h}"
    );
    assert!(h.chars().count() <= app.width as usize, "{h}");
}

#[test]
fn header_counts_per_agent_and_errors() {
    let d = demo("header");
    for (w, h, name) in [(80, 24, "header_80x24"), (120, 35, "header_120x35")] {
        let app = app(&d, w, h);
        let f = frame(&app);
        header_agrees_with_the_library(&app, &f);
        snap(name, header(&f).to_string());
    }
    // At 120 columns every agent fits, by its id.
    let app = app(&d, 120, 35);
    let f = frame(&app);
    for label in [
        "claude-code",
        "codex",
        "copilot-cli",
        "antigravity",
        "cursor",
        "opencode",
        "pi",
    ] {
        assert!(header(&f).contains(&format!("{label} ")), "{label}: {f}");
    }
    // Narrower: the error count stays, agents go from the last.
    let app = app_narrow(&d, 50);
    let f = frame(&app);
    header_agrees_with_the_library(&app, &f);
    // Right after a watcher update the note goes before the agents, then makes room again.
    let mut app = tui_support::app(&d, 80, 24);
    let catalog = app.catalog.clone().unwrap();
    skilltui::tui::update::update(
        &mut app,
        skilltui::tui::update::Msg::Update(skilltui::watch::Update {
            catalog,
            generation: 1,
            changed: vec![d.project.join(".claude/skills/deploy/SKILL.md")],
            cause: skilltui::watch::Cause::Files(1),
            took: std::time::Duration::ZERO,
            reread: Some(1),
            rewalked: Some(0),
            resolved: Some(1),
        }),
    );
    let f = frame(&app);
    assert!(header(&f).contains("updated 0s ago (1 changed)"), "{f}");
    header_agrees_with_the_library(&app, &f);
    for _ in 0..skilltui::tui::app::CHANGE_MARK_TICKS {
        skilltui::tui::update::update(&mut app, skilltui::tui::update::Msg::Tick);
    }
    let f = frame(&app);
    assert!(!header(&f).contains("updated"), "{f}");
    assert!(header(&f).contains("cursor 0"), "{f}");
}

fn app_narrow(d: &skilltui::demo::Demo, w: u16) -> skilltui::tui::app::App {
    app(d, w, 20)
}

#[test]
fn problems_tab_80x24() {
    let d = demo("problems_80x24");
    let mut app = app(&d, 80, 24);
    keys(&mut app, "6");
    let f = frame(&app);
    assert!(
        f.contains("6 Problems") && f.contains("Problems by cause"),
        "{f}"
    );
    // Most severe first: the first group is an error.
    let g = &app.problems.groups[0];
    assert_eq!(g.severity, skilltui::findings::Severity::Error);
    snap("problems_80x24", f);
    // Enter: the cause's detail, its fix and its skills.
    key(&mut app, KeyCode::Enter);
    let f = frame(&app);
    assert!(
        f.contains("fix: ") && f.contains("Enter opens its Why"),
        "{f}"
    );
    snap("problems_detail_80x24", f);
}

#[test]
fn problems_tab_120x35() {
    let d = demo("problems_120x35");
    let mut app = app(&d, 120, 35);
    keys(&mut app, "6");
    let f = frame(&app);
    // Every cause's code in the list, the selected one's summary in the detail.
    let shown = app.problems.groups.len().min(app.list_height());
    for g in &app.problems.groups[..shown] {
        assert!(f.contains(g.code.as_str()), "{}:\n{f}", g.code);
    }
    let first = skilltui::cli::context::shorten(&app.env, &app.problems.groups[0].summary);
    assert!(
        f.contains(&first.chars().take(25).collect::<String>()),
        "{first}:\n{f}"
    );
    // The cause keeps room to be read: a long agents' list is cut to whole codes and "+N".
    let header = f.lines().find(|l| l.contains("CAUSE")).unwrap();
    let cause: String = header
        .split("CAUSE")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(|c| *c != '│')
        .collect();
    assert!(
        cause.chars().count() + 5 >= 22,
        "CAUSE is {} wide:\n{f}",
        cause.chars().count() + 5
    );
    assert!(
        f.lines()
            .any(|l| l.split('│').nth(1).is_some_and(|row| row.contains(" +"))),
        "a long agents' list ends with +N:\n{f}"
    );
    snap("problems_120x35", f);
    // A shadowed cause: its skills, with the agents, and the winner in each one's fix.
    let shadowed = app
        .problems
        .groups
        .iter()
        .position(|g| g.code == skilltui::findings::Code::Shadowed)
        .expect("the demo has shadowed copies");
    for _ in 0..shadowed {
        keys(&mut app, "j");
    }
    key(&mut app, KeyCode::Enter);
    let f = frame(&app);
    assert!(f.contains("wins this name"), "{f}");
    snap("problems_shadowed_120x35", f);
}

#[test]
fn generated_tree_header_and_problems() {
    let t = generated("gen_problems", 400);
    for (w, h) in [(80, 24), (120, 35)] {
        let mut app = app_at(&t.project, &t.home, w, h);
        let f = frame(&app);
        header_agrees_with_the_library(&app, &f);
        snap(&format!("gen_header_{w}x{h}"), header(&f).to_string());
        keys(&mut app, "6");
        let f = frame(&app);
        snap(&format!("gen_problems_{w}x{h}"), f);
        key(&mut app, KeyCode::Enter);
        snap(&format!("gen_problems_detail_{w}x{h}"), frame(&app));
    }
}

/// The answer line of each agent for the selected skill, as the Why view starts it.
fn answer_lines(app: &skilltui::tui::app::App) -> Vec<(String, String)> {
    let s = app.current().unwrap();
    let idw = s.verdicts.iter().map(|(a, _)| a.len()).max().unwrap();
    s.verdicts
        .iter()
        .map(|(a, v)| {
            let ans = skilltui::present::answer(v);
            (
                a.to_string(),
                format!("{} {a:<idw$}  {}", ans.glyph, ans.label),
            )
        })
        .collect()
}

/// Answer first: every agent's first line (glyph, agent, verdict, deciding reason, key) comes
/// before any other reason, at 80×24, 120×35 and 200×50, on the demo and a generated tree.
#[test]
fn why_answers_first_at_every_size() {
    let d = demo("why_sizes");
    let t = generated("gen_why", 400);
    for (w, h) in [(80u16, 24u16), (120, 35), (200, 50)] {
        let mut app = app(&d, w, h);
        select(&mut app, &d, ".agents/skills/code-review/SKILL.md");
        if w < 110 {
            key(&mut app, KeyCode::Enter);
        }
        let f = frame(&app);
        let first_reason = f.find("  • ").unwrap_or(f.len());
        for (agent, line) in answer_lines(&app) {
            let at = f
                .find(&line)
                .unwrap_or_else(|| panic!("{agent}: {line}\n{f}"));
            assert!(at < first_reason, "{agent} answers after a reason:\n{f}");
        }
        // The deciding reason is on the answer line, with the key that acts on it.
        assert!(
            f.contains("· claude-code  not found: Claude Code does not scan"),
            "{f}"
        );
        assert!(f.contains("M moves"), "{f}");
        snap(&format!("why_{w}x{h}"), f);

        // A generated skill that an agent rejects with a quick fix.
        let mut app = app_at(&t.project, &t.home, w, h);
        let i = app
            .rows
            .iter()
            .position(|r| {
                app.skill(r.skill).unwrap().verdicts.iter().any(|(_, v)| {
                    v.status == skilltui::resolve::Status::Rejected
                        && v.deciding().is_some_and(|r| r.fix.is_some())
                })
            })
            .expect("a rejected skill with a quick fix");
        app.select(i);
        if w < 110 {
            key(&mut app, KeyCode::Enter);
        }
        let f = frame(&app);
        for (agent, line) in answer_lines(&app) {
            assert!(f.contains(&line), "{agent}: {line}\n{f}");
        }
        assert!(f.contains("rejected: ") && f.contains("F fixes"), "{f}");
        snap(&format!("gen_why_{w}x{h}"), f);
    }
}

/// Columns sized to their content: agent names (not two-letter codes) at 120 columns with the
/// detail pane, a root column at 200, names cut with `…`.
#[test]
fn skills_table_columns_by_content() {
    let d = demo("columns");
    let t = generated("gen_columns", 400);
    let cols = |f: &str| f.lines().nth(3).unwrap().to_string();
    let app120 = app(&d, 120, 35);
    let f = frame(&app120);
    let head = cols(&f);
    for name in ["claude", "codex", "copilot", "cursor", "pi"] {
        assert!(head.contains(name), "{name}: {head}");
    }
    assert!(!head.contains(" cl ") && !head.contains(" cp "), "{head}");
    assert!(
        f.lines()
            .any(|l| l.contains("│data-visual") && l.contains("… ")),
        "{f}"
    );
    let app200 = app(&d, 200, 50);
    let f = frame(&app200);
    assert!(cols(&f).contains("ROOT"), "{f}");
    assert!(
        f.contains(".agents/skills") && f.contains("~/.claude/skills"),
        "{f}"
    );
    for name in ["claude-code", "copilot-cli", "antigravity", "opencode"] {
        assert!(cols(&f).contains(name), "{name}: {f}");
    }
    snap("skills_200x50", f);
    for (w, h) in [(80u16, 24u16), (120, 35), (200, 50)] {
        let app = app_at(&t.project, &t.home, w, h);
        let f = frame(&app);
        // Every row fits its line (nothing cut mid-cell), every title is an agent's label.
        for line in f.lines() {
            assert!(line.chars().count() <= w as usize, "{line}");
        }
        snap(&format!("gen_skills_{w}x{h}"), f);
    }
}

/// Without colour the selection is reverse video and the active tab and the focused pane's
/// title are bold and underlined; with colour the selected row keeps its glyph colours.
#[test]
fn looks_with_and_without_colour() {
    let d = demo("looks");
    let mut app = app(&d, 80, 24);
    select(&mut app, &d, ".claude/skills/deploy/SKILL.md");
    let mono = looks(&app, false);
    let (text, map) = mono.split_once("--- looks ---\n").unwrap();
    let rows: Vec<&str> = text.lines().collect();
    let marks: Vec<&str> = map.lines().collect();
    let sel = rows
        .iter()
        .position(|l| l.contains("deploy") && l.contains("project"))
        .unwrap();
    assert!(marks[sel].matches('R').count() > 40, "{mono}");
    // " 1 Skills": the active tab.
    assert!(marks[1].starts_with("BBBBBBBBB"), "{mono}");
    // The focused list's title.
    assert!(marks[2].contains("BBBBBB"), "{mono}");
    snap("looks_mono_80x24", mono);
    let color = looks(&app, true);
    let (text, map) = color.split_once("--- looks ---\n").unwrap();
    let row: Vec<char> = text.lines().nth(sel).unwrap().chars().collect();
    let mark: Vec<char> = map.lines().nth(sel).unwrap().chars().collect();
    let glyphs: Vec<(char, char)> = row
        .iter()
        .zip(&mark)
        .filter(|(c, _)| matches!(c, '✓' | '↓' | '✗' | '?'))
        .map(|(c, m)| (*c, *m))
        .collect();
    assert!(!glyphs.is_empty(), "{color}");
    for (c, m) in glyphs {
        // Upper case: over the selection's background; the letter: the glyph's own colour.
        let want = match c {
            '✓' => 'G',
            '↓' => 'Y',
            '✗' => 'R',
            _ => 'M',
        };
        assert_eq!(m, want, "{c} in the selected row:\n{color}");
    }
    snap("looks_color_80x24", color);
}

/// The Collisions tab: each copy with its root, no contradiction, each reason once, and no
/// "no collision" claim while the scan runs.
#[test]
fn collisions_say_one_thing_each() {
    let d = demo("collisions_once");
    let mut app = app(&d, 140, 40);
    keys(&mut app, "2");
    let n = app.collisions.len();
    for i in 0..n {
        let f = frame(&app);
        let detail: Vec<&str> = f
            .lines()
            .map(|l| l.rsplit('│').nth(1).unwrap_or(""))
            .collect();
        assert!(f.contains("· root "), "{f}");
        assert!(
            !(f.contains("lists none") && f.contains("keeps one")),
            "{f}"
        );
        // Each reason sentence once per agent (an agent's block starts unindented).
        let mut seen = std::collections::HashSet::new();
        for l in &detail {
            if !l.starts_with(' ') {
                seen.clear();
                continue;
            }
            let r = l.trim();
            if r.starts_with(|c: char| c.is_ascii_digit())
                && let Some((_, sentence)) = r.split_once(": ")
                && !r.contains(". ")
            {
                assert!(seen.insert(sentence.to_string()), "twice: {r}\n{f}");
            }
        }
        if i + 1 < n {
            keys(&mut app, "j");
        }
    }
    let models = skilltui::agents::builtin();
    let env = skilltui::env::Env::new(&d.project, &d.home);
    let mut app = skilltui::tui::app::App::new(std::sync::Arc::new(models), env, 140, 40);
    keys(&mut app, "2");
    let f = frame(&app);
    assert!(!f.contains("No name is held"), "{f}");
    assert!(f.contains("Scanning…"), "{f}");
}

/// Tokens against the budget: `141,897 / 4,000 (35×)`.
#[test]
fn tokens_show_the_ratio_to_the_budget() {
    let t = generated("gen_tokens", 400);
    let mut app = app_at(&t.project, &t.home, 120, 35);
    keys(&mut app, "5");
    let f = frame(&app);
    assert!(f.contains("TOKENS / BUDGET"), "{f}");
    let l = app
        .listing()
        .iter()
        .find(|l| l.budget_tokens.is_some_and(|b| l.total_tokens > b))
        .expect("an agent over its budget")
        .clone();
    let shown = skilltui::present::tokens_of_budget(l.total_tokens, l.budget_tokens);
    assert!(shown.contains(" / ") && shown.ends_with("×)"), "{shown}");
    assert!(f.contains(&shown), "{shown}\n{f}");
    snap("gen_tokens_120x35", f);
}

/// An App with every built-in agent (21) on the demo catalog.
fn app_all_agents(d: &skilltui::demo::Demo, w: u16, h: u16) -> skilltui::tui::app::App {
    use skilltui::tui::update::{Msg, update};
    let models = skilltui::agents::builtin();
    let env = skilltui::env::Env::new(&d.project, &d.home);
    let cat = skilltui::catalog::Catalog::build(&models, &env);
    let mut app = skilltui::tui::app::App::new(std::sync::Arc::new(models), env, w, h);
    update(&mut app, Msg::Catalog(std::sync::Arc::new(cat)));
    app
}

/// The cells of the skills table's rows (between its borders), as text, per screen line.
fn table_rows(f: &str) -> Vec<String> {
    f.lines()
        .skip(3)
        .filter(|l| l.starts_with('│'))
        .map(|l| l.trim_start_matches('│').to_string())
        .collect()
}

#[test]
fn every_agent_at_120x35_keeps_names_readable_and_scrolls_the_agent_columns() {
    let d = demo("all_agents_120x35");
    let mut app = app_all_agents(&d, 120, 35);
    keys(&mut app, "A");
    keys(&mut app, "A");
    assert!(app.shown_agents().len() >= 21);
    let f = frame(&app);
    // Names keep at least 16 characters: every demo name of up to 15 shows whole.
    let cat = app.catalog.clone().unwrap();
    let rows = table_rows(&f);
    let mut whole = 0;
    for s in cat
        .skills
        .iter()
        .filter(|s| s.label().chars().count() <= 15)
    {
        if rows
            .iter()
            .any(|r| r.starts_with(&format!("{} ", s.label())))
        {
            whole += 1;
        }
    }
    assert!(whole >= 5, "{whole} names shown whole:\n{f}");
    assert!(
        !rows.iter().any(|r| r.starts_with("… ")),
        "a name cut to …:\n{f}"
    );
    // Not every agent column fits: the title says which are shown and how to scroll.
    let title = f.lines().nth(2).unwrap();
    assert!(title.contains("agents 1–"), "{title}");
    assert!(title.contains(" of 21 >›"), "{title}");
    // `>` shows the next agents; `<` comes back.
    keys(&mut app, ">");
    let g = frame(&app);
    let title2 = g.lines().nth(2).unwrap().to_string();
    assert!(!title2.contains("agents 1–"), "{title2}");
    assert!(title2.contains("‹<"), "{title2}");
    // The last agent's code is a column title now (it was not before).
    let last = app.models.last().unwrap().abbrev();
    // The table's header row (the left pane of the line).
    let header = |f: &str| {
        f.lines()
            .nth(3)
            .unwrap()
            .split('│')
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert!(
        !header(&f).split_whitespace().any(|w| w == last),
        "{}",
        header(&f)
    );
    assert!(
        header(&g).split_whitespace().any(|w| w == last),
        "{}",
        header(&g)
    );
    keys(&mut app, "<");
    assert_eq!(frame(&app), f);
    // Column titles are all different.
    let h = header(&f);
    let titles: Vec<&str> = h.split_whitespace().skip(1).collect();
    let set: std::collections::BTreeSet<_> = titles.iter().collect();
    assert_eq!(set.len(), titles.len(), "{h}");
}

#[test]
fn the_header_says_when_agents_are_hidden_and_counts_only_those_shown() {
    let d = demo("hidden_agents");
    let mut app = app_all_agents(&d, 120, 35);
    app.select_agents(&["codex".to_string()]);
    app.refresh_rows();
    let f = frame(&app);
    let h = header(&f);
    let n = app.models.len() - 1;
    assert!(
        h.contains(&format!("{n} agents hidden — A shows all")),
        "{h}"
    );
    // Codex's count is there; no hidden agent's count is.
    assert!(h.contains("codex "), "{h}");
    for m in app.models.iter().filter(|m| m.id != "codex") {
        let short = skilltui::present::short(&m.id);
        assert!(
            !h.split(" · ").any(
                |p| p.starts_with(&format!("{short} ")) || p.starts_with(&format!("{} ", m.id))
            ),
            "{} counted: {h}",
            m.id
        );
    }
    // A: every agent shown, nothing hidden.
    keys(&mut app, "A");
    let h2 = frame(&app);
    assert!(!header(&h2).contains("hidden"), "{}", header(&h2));
}

#[test]
fn a_long_description_ends_on_a_whole_word_in_the_detail() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("p");
    let home = tmp.path().join("h");
    std::fs::create_dir_all(&home).unwrap();
    let dir = project.join(".agents/skills/render");
    std::fs::create_dir_all(&dir).unwrap();
    let words = "Configure and optimize rendering in 3ds Max with V-Ray and Corona render settings, \
render elements, light mix, batch rendering, network rendering, denoising, and post-production \
workflows. Use when tasks involve setting up production renders, optimizing render times, batch \
rendering multiple views, or managing render farms across several machines at once";
    assert!(words.len() > 300);
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: render\ndescription: {words}\n---\n# Render\n"),
    )
    .unwrap();
    for (w, h) in [(80u16, 24u16), (120, 35)] {
        let mut app = app_at(&project, &home, w, h);
        key(&mut app, KeyCode::Enter);
        // The end of the Why pane: the description is its last part.
        keys(&mut app, "G");
        let f = frame(&app);
        // The description is cut after a whole word, marked `…`, and that is what is shown.
        let expected = skilltui::present::cut_words(words, 300);
        let tail = expected.rsplit(' ').next().unwrap();
        assert!(
            words.split([' ', ',']).any(|x| format!("{x}…") == tail),
            "`{tail}` does not end a whole word"
        );
        assert!(f.contains(tail), "`{tail}` not shown:\n{f}");
    }
}

#[test]
fn problems_b_keeps_only_what_is_broken_for_some_agent() {
    let d = demo("broken_only");
    let mut app = app(&d, 120, 35);
    keys(&mut app, "6");
    let all = frame(&app);
    let rows = |f: &str| -> Vec<String> {
        f.lines()
            .skip(4)
            .map(|l| l.trim_start_matches('│').to_string())
            .take_while(|l| !l.starts_with('└'))
            .filter(|l| l.starts_with(['✗', '!', 'i']))
            .collect()
    };
    let errors = rows(&all).iter().filter(|r| r.starts_with('✗')).count();
    assert!(errors > 0 && rows(&all).len() > errors, "{all}");
    assert!(
        all.contains("b broken only"),
        "the footer offers it:\n{all}"
    );
    keys(&mut app, "b");
    let f = frame(&app);
    let kept = rows(&f);
    assert_eq!(kept.len(), errors, "{f}");
    assert!(kept.iter().all(|r| r.starts_with('✗')), "{f}");
    // The title counts the skills broken for some agent: those of the error causes.
    let p = &app.problems;
    let mut skills = std::collections::BTreeSet::new();
    for (g, a) in p.groups.iter().zip(&p.affected) {
        if g.severity == skilltui::findings::Severity::Error {
            skills.extend(a.iter().map(|a| a.skill));
        }
    }
    let findings: usize = p
        .groups
        .iter()
        .filter(|g| g.severity == skilltui::findings::Severity::Error)
        .map(|g| g.count)
        .sum();
    let title = format!(
        "Broken for some agent: {} skill{}, {findings} error{} in {errors} causes",
        skills.len(),
        if skills.len() == 1 { "" } else { "s" },
        if findings == 1 { "" } else { "s" }
    );
    assert!(f.contains(&title), "{title}:\n{f}");
    // b again: every cause.
    keys(&mut app, "b");
    assert_eq!(frame(&app), all);
}

/// Job 3 at 80×24 with agents hidden (one agent in use, as on a real machine): the broken view
/// says it covers every agent and counts the header's errors; causes are cut at a word with
/// `…`; the footer keeps the tabs and Enter.
#[test]
fn broken_view_80x24_counts_what_the_header_counts() {
    use skilltui::tui::app::App;
    use skilltui::tui::update::{Msg, update};
    use std::sync::Arc;
    let t = generated("gen_broken", 400);
    let models = skilltui::agents::builtin();
    let n = models.len();
    let env = skilltui::env::Env::new(&t.project, &t.home);
    let cat = skilltui::catalog::Catalog::build(&models, &env);
    let mut app = App::new(Arc::new(models), env, 80, 24);
    app.select_agents(&["codex".to_string()]);
    update(&mut app, Msg::Catalog(Arc::new(cat)));
    keys(&mut app, "6b");
    let f = frame(&app);
    let errors = app.problems.counts[0];
    assert!(
        header(&f).contains(&format!("{errors} errors")),
        "the header does not count {errors} errors:\n{f}"
    );
    assert!(
        f.contains(&format!("all {n} agents")) && f.contains(&format!("{errors} errors in")),
        "the broken view does not say it covers all {n} agents with the header's {errors} errors:\n{f}"
    );
    let footer = f.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
    assert!(
        footer.contains("tabs") && footer.contains("open"),
        "the footer dropped tabs or Enter:\n{f}"
    );
    snap("gen_broken_80x24", f);
}

/// The rows of the selected cause's skills list in a frame: each one's text in the detail pane.
fn cause_rows(f: &str) -> Vec<String> {
    let lines: Vec<&str> = f.lines().collect();
    let detail = |l: &str| {
        l.rsplit("││")
            .next()
            .unwrap_or("")
            .trim_end_matches('│')
            .trim_end()
            .to_string()
    };
    let header = lines
        .iter()
        .position(|l| {
            let d = detail(l);
            d.starts_with("SKILL") && d.contains("AGENTS") && d.contains("PATH")
        })
        .expect("the cause's skills list");
    lines[header + 1..].iter().map(|l| detail(l)).collect()
}

/// A cause's skills list makes only the rows a frame shows, and shows the rows the whole list
/// would: the first page until the cursor leaves it, then the cursor on the bottom row with the
/// rows just above it; the title counts every skill.
#[test]
fn a_long_cause_list_shows_the_rows_around_the_cursor() {
    let t = generated("gen_problems_window", 400);
    let mut app = app_at(&t.project, &t.home, 200, 30);
    keys(&mut app, "6");
    let (g, n) = app
        .problems
        .affected
        .iter()
        .enumerate()
        .map(|(g, a)| (g, a.len()))
        .max_by_key(|&(_, n)| n)
        .expect("causes");
    for _ in 0..g {
        keys(&mut app, "j");
    }
    key(&mut app, KeyCode::Enter);
    // Each skill's label and shown path (a row may cut the path short).
    let skills: Vec<(String, String)> = app.problems.affected[g]
        .iter()
        .map(|a| {
            let s = app.skill(a.skill).expect("a skill of the snapshot");
            (
                s.label().to_string(),
                skilltui::present::show_path(&app.env, &s.path),
            )
        })
        .collect();
    let is_row = |row: &str, i: usize| {
        let (label, path) = &skills[i];
        let cell = row.rsplit(' ').next().unwrap_or("");
        row.starts_with(label.as_str()) && cell.len() >= 10 && path.starts_with(cell)
    };
    let f = frame(&app);
    assert!(f.contains(&format!(" {n} skills")), "{f}");
    let rows = cause_rows(&f);
    // The page: the rows the table shows from the top.
    let page = (0..n.min(rows.len()))
        .take_while(|&i| is_row(&rows[i], i))
        .count();
    assert!(page >= 5 && n > 3 * page, "page {page} of {n}:\n{f}");
    for c in [1, page - 1, page, page + 7, 3 * page, n - 1] {
        while app.problem_cursor < c {
            key(&mut app, KeyCode::Down);
        }
        assert_eq!(app.problem_cursor, c);
        let f = frame(&app);
        assert!(f.contains(&format!(" {n} skills")), "{f}");
        let rows = cause_rows(&f);
        let top = (c + 1).saturating_sub(page);
        for k in 0..page {
            assert!(
                is_row(&rows[k], top + k),
                "cursor {c}: row {k} should be skill {} {:?}:\n{f}",
                top + k,
                skills[top + k]
            );
        }
    }
}
