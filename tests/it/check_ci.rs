//! `skilltui check` for CI, through the binary and the library: findings grouped by cause (the
//! text output stays bounded as a generated real-shaped catalog grows 10×), `--format sarif`
//! checked against the SARIF 2.1.0 schema's structure, `--format github` against the
//! workflow-command grammar, `--fail-on`, the `--agent` spellings, `completions`, `man`,
//! `--color`, and the library's `Finding`/`Group` API.
//!
//! The SARIF check is hand-written (the OASIS schema is not embedded): it asserts the properties
//! the 2.1.0 schema requires (`version`, `runs`, `tool.driver.name`, `message.text`, rule ids),
//! the enumerations skilltui uses (`level`), the value ranges (`startLine` ≥ 1, `ruleIndex`
//! pointing at the rule with that id), URI references without characters RFC 3986 forbids, and
//! only property names the schema defines for each object skilltui writes.

use crate::common::{Tree, generated, tree_fixture};
use crate::tui_support;

use serde_json::Value;
use skilltui::findings::{self, Code, Severity, Subject};
use skilltui::spec::ProblemCode;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

tree_fixture!(Fx);

impl Fx {
    fn new() -> Fx {
        Fx(Tree::git())
    }

    fn run(&self, args: &[&str]) -> Output {
        run_in(&self.project, &self.home, args, &[])
    }
}

fn run_in(project: &Path, home: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
    c.env_clear();
    if let Some(p) = std::env::var_os("PATH") {
        c.env("PATH", p);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.args(args)
        .arg("--project")
        .arg(project)
        .arg("--home")
        .arg(home);
    c.output().expect("run skilltui")
}

fn bin(args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
    c.env_clear();
    c.args(args).output().expect("run skilltui")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

#[test]
fn check_stays_bounded_as_the_catalog_grows_tenfold() {
    let mut seen = Vec::new();
    // 150 → 1,500 skills; 300 → 3,000 with SKILLTUI_TEST_FULL=1.
    for n in crate::scale::pick([150, 1500], [300, 3000]) {
        let (_tmp, tree) = generated(n, 0x5eed);
        // Every agent, as in the JSON (by default the text shows the seed agents only).
        let o = run_in(&tree.project, &tree.home, &["check", "--all-agents"], &[]);
        assert!(code(&o) <= 1, "{}", String::from_utf8_lossy(&o.stderr));
        let text = stdout(&o);
        let lines = text.lines().count();
        let o = run_in(&tree.project, &tree.home, &["check", "--json"], &[]);
        let j = json(&o);
        let all = j["findings"].as_array().unwrap().len();
        // The text names every group (each error group by its summary).
        for g in j["groups"].as_array().unwrap() {
            let head = format!(
                "{}[{}]",
                g["severity"].as_str().unwrap(),
                g["code"].as_str().unwrap()
            );
            assert!(text.contains(&head), "{head} missing:\n{text}");
        }
        // --all lists every finding, one line each, plus the summary lines.
        let o = run_in(
            &tree.project,
            &tree.home,
            &["check", "--all", "--all-agents"],
            &[],
        );
        let all_lines = stdout(&o).lines().count();
        let agents = j["agents"].as_array().unwrap().len();
        assert_eq!(all_lines, all + agents + 1);
        seen.push((n, lines, all));
    }
    let (_, small, small_all) = seen[0];
    let (_, large, large_all) = seen[1];
    assert!(large_all >= small_all * 5, "findings should grow: {seen:?}");
    // One line per agent (21 with --all-agents), the groups bounded apart from them.
    let agents = skilltui::agents::BUILTIN_IDS.len();
    assert!(
        large <= 140 + agents,
        "check printed {large} lines for 3,000 skills: {seen:?}"
    );
    assert!(
        large <= small + small / 2,
        "text grew from {small} to {large} lines: {seen:?}"
    );
}

/// Property names the SARIF 2.1.0 schema defines for the objects skilltui writes.
fn allowed(obj: &Value, what: &str, names: &[&str]) {
    let m = obj
        .as_object()
        .unwrap_or_else(|| panic!("{what} is not an object"));
    for k in m.keys() {
        assert!(
            names.contains(&k.as_str()),
            "{what}: `{k}` is not a SARIF 2.1.0 property"
        );
    }
}

fn text_object(v: &Value, what: &str) {
    allowed(
        v,
        what,
        &["text", "markdown", "id", "arguments", "properties"],
    );
    assert!(v["text"].is_string(), "{what}.text is required");
}

/// A URI reference with only characters RFC 3986 allows (percent-escapes well formed).
fn uri_ok(u: &str) -> bool {
    let b = u.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            if i + 2 >= b.len() || !b[i + 1].is_ascii_hexdigit() || !b[i + 2].is_ascii_hexdigit() {
                return false;
            }
            i += 3;
            continue;
        }
        if !(c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&c)) {
            return false;
        }
        i += 1;
    }
    true
}

fn validate_sarif(s: &Value) -> usize {
    allowed(
        s,
        "sarifLog",
        &[
            "$schema",
            "version",
            "runs",
            "inlineExternalProperties",
            "properties",
        ],
    );
    assert_eq!(s["version"], "2.1.0");
    let runs = s["runs"].as_array().expect("runs is required");
    let mut results_n = 0;
    for run in runs {
        allowed(
            run,
            "run",
            &[
                "tool",
                "results",
                "originalUriBaseIds",
                "artifacts",
                "invocations",
                "properties",
            ],
        );
        let driver = &run["tool"]["driver"];
        allowed(
            &run["tool"],
            "tool",
            &["driver", "extensions", "properties"],
        );
        allowed(
            driver,
            "toolComponent",
            &[
                "name",
                "version",
                "informationUri",
                "rules",
                "semanticVersion",
                "properties",
            ],
        );
        assert!(driver["name"].is_string(), "tool.driver.name is required");
        let rules = driver["rules"].as_array().unwrap();
        let mut ids = BTreeSet::new();
        for r in rules {
            allowed(
                r,
                "reportingDescriptor",
                &[
                    "id",
                    "name",
                    "shortDescription",
                    "fullDescription",
                    "help",
                    "helpUri",
                    "defaultConfiguration",
                    "properties",
                ],
            );
            let id = r["id"].as_str().expect("rule id is required");
            assert!(ids.insert(id.to_string()), "duplicate rule id {id}");
            text_object(&r["shortDescription"], "shortDescription");
            text_object(&r["fullDescription"], "fullDescription");
            text_object(&r["help"], "help");
            allowed(
                &r["defaultConfiguration"],
                "reportingConfiguration",
                &["enabled", "level", "rank", "parameters", "properties"],
            );
            assert!(
                ["none", "note", "warning", "error"]
                    .contains(&r["defaultConfiguration"]["level"].as_str().unwrap())
            );
        }
        let bases = run["originalUriBaseIds"].as_object().unwrap();
        for (k, b) in bases {
            allowed(
                b,
                "artifactLocation",
                &["uri", "uriBaseId", "index", "description", "properties"],
            );
            let u = b["uri"].as_str().unwrap();
            assert!(
                u.starts_with("file:///") && u.ends_with('/') && uri_ok(u),
                "base {k}: {u}"
            );
        }
        for r in run["results"].as_array().expect("results") {
            results_n += 1;
            allowed(
                r,
                "result",
                &[
                    "ruleId",
                    "ruleIndex",
                    "level",
                    "message",
                    "locations",
                    "properties",
                    "kind",
                ],
            );
            text_object(&r["message"], "result.message");
            assert!(["none", "note", "warning", "error"].contains(&r["level"].as_str().unwrap()));
            let idx = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(
                rules[idx]["id"], r["ruleId"],
                "ruleIndex must point at ruleId"
            );
            for loc in r["locations"].as_array().unwrap() {
                allowed(
                    loc,
                    "location",
                    &[
                        "physicalLocation",
                        "logicalLocations",
                        "message",
                        "id",
                        "properties",
                    ],
                );
                let pl = &loc["physicalLocation"];
                allowed(
                    pl,
                    "physicalLocation",
                    &[
                        "artifactLocation",
                        "region",
                        "contextRegion",
                        "address",
                        "properties",
                    ],
                );
                let al = &pl["artifactLocation"];
                allowed(
                    al,
                    "artifactLocation",
                    &["uri", "uriBaseId", "index", "description", "properties"],
                );
                let u = al["uri"].as_str().unwrap();
                assert!(uri_ok(u), "not a URI reference: {u}");
                match al["uriBaseId"].as_str() {
                    Some(b) => {
                        assert!(bases.contains_key(b), "unknown uriBaseId {b}");
                        assert!(
                            !u.starts_with('/') && !u.contains("://"),
                            "relative uri: {u}"
                        );
                    }
                    None => assert!(u.starts_with("file:///"), "absolute uri: {u}"),
                }
                if !pl["region"].is_null() {
                    allowed(
                        &pl["region"],
                        "region",
                        &[
                            "startLine",
                            "startColumn",
                            "endLine",
                            "endColumn",
                            "properties",
                        ],
                    );
                    assert!(pl["region"]["startLine"].as_u64().unwrap() >= 1);
                    if let Some(c) = pl["region"]["startColumn"].as_u64() {
                        assert!(c >= 1);
                    }
                }
            }
        }
    }
    results_n
}

#[test]
fn sarif_follows_the_2_1_0_schema() {
    let (_tmp, tree) = generated(300, 0x5eed);
    // A folder name with characters a URI must escape.
    let f = tree.project.join(".claude/skills/odd name%,:x");
    std::fs::create_dir_all(&f).unwrap();
    std::fs::write(
        f.join("SKILL.md"),
        "---\nname: odd\ndescription: Odd.\n---\nBody\n",
    )
    .unwrap();
    let o = run_in(
        &tree.project,
        &tree.home,
        &["check", "--format", "sarif"],
        &[],
    );
    assert!(code(&o) <= 1);
    let s = json(&o);
    let n = validate_sarif(&s);
    let o = run_in(&tree.project, &tree.home, &["check", "--json"], &[]);
    assert_eq!(n, json(&o)["findings"].as_array().unwrap().len());
    let uris: Vec<&str> = s["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert!(
        uris.contains(&".claude/skills/odd%20name%25%2C%3Ax/SKILL.md"),
        "{uris:?}"
    );
}

/// Parses one workflow command strictly: `::LEVEL PROPS::MESSAGE` with LEVEL error, warning or
/// notice, PROPS `key=value` pairs joined by `,` (keys file, line, col, endLine, endColumn,
/// title; line and col numeric), values without raw `,` `:` CR LF and with `%` only in the
/// escapes `%25 %0D %0A %3A %2C`, and a message without raw CR LF and with `%` only in
/// `%25 %0D %0A`. Returns (level, decoded properties, decoded message).
type Annotation = (String, Vec<(String, String)>, String);

fn parse_annotation(line: &str) -> Option<Annotation> {
    fn decode(s: &str, property: bool) -> Option<String> {
        let mut out = String::new();
        let mut rest = s;
        while let Some(i) = rest.find('%') {
            out.push_str(&rest[..i]);
            let esc = rest.get(i..i + 3)?;
            out.push(match esc {
                "%25" => '%',
                "%0D" => '\r',
                "%0A" => '\n',
                "%3A" if property => ':',
                "%2C" if property => ',',
                _ => return None,
            });
            rest = &rest[i + 3..];
        }
        out.push_str(rest);
        Some(out)
    }
    if line.contains('\r') {
        return None;
    }
    let rest = line.strip_prefix("::")?;
    let (head, message) = rest.split_once("::")?;
    let (level, props) = head.split_once(' ')?;
    if !["error", "warning", "notice"].contains(&level) {
        return None;
    }
    let mut out = Vec::new();
    for p in props.split(',') {
        let (k, v) = p.split_once('=')?;
        if !["file", "line", "col", "endLine", "endColumn", "title"].contains(&k) || v.contains(':')
        {
            return None;
        }
        if ["line", "col", "endLine", "endColumn"].contains(&k)
            && (v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()))
        {
            return None;
        }
        out.push((k.to_string(), decode(v, true)?));
    }
    Some((level.to_string(), out, decode(message, false)?))
}

#[test]
fn github_annotations_follow_the_workflow_command_grammar() {
    let f = Fx::new();
    // A folder with every character that needs escaping in a property.
    f.put(
        "project/.claude/skills/a,b:c%d/SKILL.md",
        "---\nname: a,b:c%d\ndescription: Tricky.\nmetadata:\n  tags: [x, y]\n---\nBody\n",
    );
    f.skill("project/.claude/skills/dup", "dup", "Project copy.");
    f.skill("home/.claude/skills/dup", "dup", "Personal copy.");
    let o = f.run(&["check", "--format", "github"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let text = stdout(&o);
    let mut files = Vec::new();
    let mut levels = BTreeSet::new();
    for line in text.lines() {
        let (level, props, message) =
            parse_annotation(line).unwrap_or_else(|| panic!("not a workflow command: {line:?}"));
        assert_eq!(props.last().unwrap().0, "title");
        assert_eq!(props[0].0, "file");
        assert!(!message.is_empty());
        levels.insert(level);
        files.push(props[0].1.clone());
    }
    let o = f.run(&["check", "--json"]);
    assert_eq!(
        text.lines().count(),
        json(&o)["findings"].as_array().unwrap().len()
    );
    assert!(
        files.contains(&".claude/skills/a,b:c%d/SKILL.md".to_string()),
        "{files:?}"
    );
    assert!(
        levels.contains("error") && levels.contains("notice"),
        "{levels:?}"
    );
    // The grammar check itself rejects what is not escaped.
    assert!(parse_annotation("::error file=a,b::m").is_none());
    assert!(parse_annotation("::error file=a:b,title=t::m").is_none());
    assert!(parse_annotation("::error file=a%2,title=t::m").is_none());
    assert!(parse_annotation("::error file=a%2C,line=3,col=1,title=t::m%0Ab").is_some());
}

#[test]
fn fail_on_decides_the_exit_status() {
    // Only info: a skill in .agents/skills (not read by Claude Code) with a metadata list.
    let info = Fx::new();
    info.put(
        "project/.agents/skills/tagged/SKILL.md",
        "---\nname: tagged\ndescription: Tagged.\nmetadata:\n  tags: [a, b]\n---\nBody\n",
    );
    // A warning: a body link to a file the skill does not have.
    let warning = Fx::new();
    warning.put(
        "project/.agents/skills/linked/SKILL.md",
        "---\nname: linked\ndescription: Linked.\n---\nSee [the guide](references/guide.md).\n",
    );
    // An error: a project copy shadowed by a personal one.
    let error = Fx::new();
    error.skill("project/.claude/skills/dup", "dup", "Project copy.");
    error.skill("home/.claude/skills/dup", "dup", "Personal copy.");
    let cases = [
        (&info, Severity::Info, [0, 0, 0]),
        (&warning, Severity::Warning, [0, 1, 0]),
        (&error, Severity::Error, [1, 1, 0]),
    ];
    for (fx, worst, want) in cases {
        let j = json(&fx.run(&["check", "--json", "--fail-on", "never"]));
        let sev: BTreeSet<&str> = j["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["severity"].as_str().unwrap())
            .collect();
        assert!(sev.contains(worst.as_str()), "{worst:?}: {j:#}");
        for worse in Severity::ALL.iter().filter(|s| **s < worst) {
            assert!(!sev.contains(worse.as_str()), "{worst:?}: {j:#}");
        }
        for (level, want) in ["error", "warning", "never"].iter().zip(want) {
            let o = fx.run(&["check", "--fail-on", level]);
            assert_eq!(
                code(&o),
                want,
                "--fail-on {level} with a worst {worst:?}: {}",
                stdout(&o)
            );
        }
        // The default is --fail-on error.
        assert_eq!(code(&fx.run(&["check"])), want[0]);
    }
    let o = info.run(&["check", "--fail-on", "sometimes"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn agent_options_accept_id_column_label_and_name() {
    let f = Fx::new();
    f.skill("project/.github/skills/gh", "gh", "For Copilot.");
    let reference = stdout(&f.run(&["check", "--agent", "copilot-cli"]));
    assert!(
        reference.contains("copilot-cli  1 of 1 visible"),
        "{reference}"
    );
    for spelling in [
        "copilot",
        "Copilot CLI",
        "GitHub Copilot CLI",
        "COPILOT-CLI",
        "cp",
    ] {
        let o = f.run(&["check", "--agent", spelling]);
        assert_eq!(code(&o), 0, "{spelling}");
        assert_eq!(stdout(&o), reference, "{spelling}");
        let o = f.run(&["why", "gh", "--agent", spelling]);
        assert_eq!(code(&o), 0, "why --agent {spelling}");
        assert!(stdout(&o).contains("copilot-cli"), "{}", stdout(&o));
        let o = f.run(&["agents", spelling]);
        assert_eq!(code(&o), 0, "agents {spelling}");
        assert!(stdout(&o).contains("GitHub Copilot CLI"));
    }
    for (cmd, args) in [
        ("check", vec!["check", "--agent", "copilt"]),
        ("why", vec!["why", "gh", "--agent", "copilt"]),
        ("agents", vec!["agents", "copilt"]),
    ] {
        let o = f.run(&args);
        assert_eq!(code(&o), 2, "{cmd}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(
            e.contains("unknown agent `copilt`")
                && e.contains("claude-code | claude | cl | Claude Code"),
            "{cmd}: {e}"
        );
    }
}

#[test]
fn completions_man_and_color() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = bin(&["completions", shell]);
        assert_eq!(code(&o), 0, "{shell}");
        let t = stdout(&o);
        assert!(
            t.contains("skilltui") && t.contains("check") && t.contains("fail-on"),
            "{shell}"
        );
    }
    assert_eq!(code(&bin(&["completions", "tcsh"])), 2);
    let o = bin(&["man"]);
    assert_eq!(code(&o), 0);
    let t = stdout(&o);
    assert!(
        t.starts_with(".ie") || t.contains(".TH skilltui 1"),
        "{}",
        &t[..t.len().min(200)]
    );
    assert!(t.contains("check"));

    let f = Fx::new();
    f.skill("project/.claude/skills/dup", "dup", "Project copy.");
    f.skill("home/.claude/skills/dup", "dup", "Personal copy.");
    let o = f.run(&["check", "--color", "always"]);
    assert!(
        stdout(&o).contains("\u{1b}[1;31merror\u{1b}[0m[shadowed]"),
        "{}",
        stdout(&o)
    );
    // Not a terminal (or NO_COLOR set): no colour unless --color always.
    for (args, env) in [
        (vec!["check"], vec![]),
        (vec!["check", "--color", "never"], vec![]),
        (vec!["check", "--color", "auto"], vec![("NO_COLOR", "1")]),
    ] {
        let o = run_in(&f.project, &f.home, &args, &env);
        assert!(!stdout(&o).contains('\u{1b}'), "{args:?}");
    }
}

#[test]
fn explorer_without_colour_keeps_attributes_only() {
    let demo = tui_support::demo("check-ci-monochrome");
    let app = tui_support::app(&demo, 100, 30);
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 30)).unwrap();
    t.draw(|f| skilltui::tui::paint(f, &app, true)).unwrap();
    let coloured = t.backend().buffer().clone();
    assert!(
        coloured
            .content
            .iter()
            .any(|c| c.fg != ratatui::style::Color::Reset)
    );
    t.draw(|f| skilltui::tui::paint(f, &app, false)).unwrap();
    let buf = t.backend().buffer();
    for c in &buf.content {
        assert_eq!(c.fg, ratatui::style::Color::Reset);
        assert_eq!(c.bg, ratatui::style::Color::Reset);
    }
    // The selection (a background colour) becomes reverse video; the text is unchanged.
    assert!(
        buf.content
            .iter()
            .any(|c| c.modifier.contains(ratatui::style::Modifier::REVERSED))
    );
    let text =
        |b: &ratatui::buffer::Buffer| b.content.iter().map(|c| c.symbol()).collect::<String>();
    assert_eq!(text(&coloured), text(buf));
}

#[test]
fn library_findings_and_groups() {
    for c in Code::all() {
        assert_eq!(Code::parse(c.as_str()), Some(c));
        assert!(!c.description().is_empty() && !c.help().is_empty());
    }
    let f = Fx::new();
    for i in 0..5 {
        f.skill(
            &format!("home/.agents/skills/s{i}"),
            &format!("s{i}"),
            "Shared.",
        );
    }
    f.put(
        "project/.claude/skills/wrong/SKILL.md",
        "---\nname: other\ndescription: Mismatched.\nmetadata:\n  tags: [a]\n---\nBody\n",
    );
    let models = skilltui::agents::builtin();
    let env = skilltui::env::Env::new(&f.project, &f.home);
    let cat = skilltui::catalog::Catalog::build(&models, &env);
    let all = findings::findings(&cat, &models);
    // One finding per (root, agent) for a root an agent never reads, covering its 5 skills.
    let home_root = f.home.join(".agents/skills");
    let unread: Vec<_> = all
        .iter()
        .filter(|x| x.code == Code::RootNotScanned && x.path == home_root)
        .collect();
    assert!(!unread.is_empty());
    let mut agents = BTreeSet::new();
    for x in &unread {
        assert_eq!(x.subject, Subject::Root);
        assert_eq!(x.severity, Severity::Info);
        assert_eq!(x.skills, 5);
        assert!(agents.insert(x.agent.clone().unwrap()), "one per agent");
        let fix = x.fix.as_ref().unwrap();
        assert!(fix.target.is_some(), "{fix:?}");
        assert!(fix.text.contains("to share these skills with"), "{fix:?}");
    }
    assert!(agents.contains("claude-code"));
    // name ≠ folder: a warning, since an agent model acts on it; the metadata list is info.
    let mismatch = all
        .iter()
        .find(|x| x.code == Code::Spec(ProblemCode::NameDirectoryMismatch))
        .unwrap();
    assert_eq!(mismatch.severity, Severity::Warning);
    assert!(!mismatch.enforced_by.is_empty());
    assert_eq!(mismatch.cause.rule, "spec/name-directory-mismatch");
    assert_eq!(
        mismatch.fix.as_ref().unwrap().quick_fix,
        Some("name-folder-match")
    );
    assert_eq!((mismatch.line, mismatch.column), (Some(2), Some(7)));
    let meta = all
        .iter()
        .find(|x| x.code == Code::Spec(ProblemCode::MetadataNotMap))
        .unwrap();
    assert_eq!(meta.severity, Severity::Info);
    // Groups: most severe first; the root's findings of several agents are one group.
    let groups = findings::group(&cat, &all);
    assert!(groups.windows(2).all(|w| w[0].severity <= w[1].severity));
    let g = groups
        .iter()
        .find(|g| g.code == Code::RootNotScanned && g.cause.root.as_deref() == Some(&home_root))
        .unwrap();
    assert_eq!(g.agents.len(), unread.len());
    assert_eq!(g.skills, 5);
    assert!(g.examples.len() <= findings::EXAMPLES);
    // Filtering by agent keeps agent-less findings.
    let only = findings::for_agents(all.clone(), &["codex".to_string()]);
    assert!(
        only.iter()
            .all(|x| x.agent.as_deref().is_none_or(|a| a == "codex"))
    );
    assert!(
        only.iter()
            .any(|x| x.code == Code::Spec(ProblemCode::MetadataNotMap))
    );
}

#[test]
fn a_group_reason_holds_for_the_whole_group() {
    let tmp = tempfile::tempdir().unwrap();
    let d = skilltui::demo::Demo::create_at(tmp.path()).unwrap();
    let models = skilltui::agents::builtin();
    let env = skilltui::env::Env::new(&d.project, &d.home);
    let cat = skilltui::catalog::Catalog::build(&models, &env);
    let all = findings::findings(&cat, &models);
    let mut general = 0;
    for (g, members) in findings::group_members(&cat, &all) {
        let reason = findings::group_reason(&g, &all, &members);
        if matches!(g.code, Code::RootNotScanned | Code::Spec(_)) {
            assert!(reason.is_none(), "{}", g.code);
            continue;
        }
        let reason = reason.unwrap_or_else(|| panic!("{}: no reason", g.code));
        let messages: BTreeSet<&str> = members.iter().map(|&i| all[i].message.as_str()).collect();
        if messages.len() == 1 {
            // One finding, or findings that all say the same: their own sentence.
            assert_eq!(Some(&reason.as_ref()), messages.first(), "{}", g.code);
        } else {
            // Findings that differ: no one finding's sentence (it names one skill or agent).
            assert!(!messages.contains(reason.as_ref()), "{}: {reason}", g.code);
            general += 1;
            if g.code == Code::Shadowed {
                assert_eq!(reason, "another copy takes the name");
            }
        }
    }
    assert!(general > 0, "the demo has groups whose findings differ");
}

/// `check` streams the catalog and keeps a file's head only where a quick fix is chosen from
/// it: a BOM before missing frontmatter gets `remove-bom`, an unquoted colon in the
/// description `quote-description`; a valid skill beside them gets neither.
#[test]
fn quick_fixes_chosen_from_the_head_in_a_streamed_check() {
    let t = tempfile::tempdir().unwrap();
    let (project, home) = (t.path().join("p"), t.path().join("h"));
    let put = |rel: &str, bytes: &[u8]| {
        let p = project.join(".agents/skills").join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    };
    put("bom/SKILL.md", b"\xef\xbb\xbfno frontmatter here\n");
    put(
        "colon/SKILL.md",
        b"---\nname: colon\ndescription: Use this: when you need it\n---\nbody\n",
    );
    put(
        "fine/SKILL.md",
        b"---\nname: fine\ndescription: Fine.\n---\nbody\n",
    );
    std::fs::create_dir_all(&home).unwrap();
    let out = run_in(&project, &home, &["check", "--json"], &[]);
    let v = json(&out);
    let fixes = |dir: &str| -> Vec<String> {
        let mut f: Vec<String> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x.to_string().contains(&format!("/{dir}/SKILL.md")))
            .filter_map(|x| x["fix"]["quick_fix"].as_str().map(String::from))
            .collect();
        f.sort();
        f.dedup();
        f
    };
    assert_eq!(fixes("bom"), ["remove-bom"], "{v:#}");
    assert_eq!(fixes("colon"), ["quote-description"]);
    assert!(fixes("fine").is_empty());
}

/// The findings come sorted by severity, code, cause, then path in `Path`'s own order
/// (component by component: `x/SKILL.md` before `x-y/SKILL.md`, though `-` sorts before `/` as
/// a byte), then the agent's place, line and column; equal findings keep the order they were
/// found in (one per skill, agents in model order).
#[test]
fn findings_come_in_severity_code_cause_path_order() {
    let f = Tree::git();
    for dir in ["x", "x-y", "x.y", "xy", "x/y"] {
        let name = dir.replace('/', "-");
        for root in [
            "project/.claude/skills",
            "project/.agents/skills",
            "home/.codex/skills",
        ] {
            f.put(
                &format!("{root}/{dir}/SKILL.md"),
                &format!(
                    "---\nname: {name}\ndescription: Same defect.\nmetadata: [a]\n---\nBody\n"
                ),
            );
        }
    }
    let models = skilltui::agents::builtin();
    let env = skilltui::env::Env::new(&f.project, &f.home);
    let cat = skilltui::catalog::Catalog::build(&models, &env);
    let (_gen_dir, tree) = generated(300, 11);
    let generated_cat = skilltui::catalog::Catalog::build(
        &models,
        &skilltui::env::Env::new(&tree.project, &tree.home),
    );
    for cat in [&cat, &generated_cat] {
        let all = findings::findings(cat, &models);
        assert!(all.len() > 20, "{}", all.len());
        let place = |x: &findings::Finding| {
            x.agent
                .as_ref()
                .and_then(|a| cat.agents.iter().position(|c| &c.id == a))
        };
        let key = |x: &findings::Finding| {
            (
                x.severity,
                x.code,
                x.cause.clone(),
                x.path.clone(),
                place(x),
                x.line,
                x.column,
            )
        };
        for w in all.windows(2) {
            assert!(
                key(&w[0]) <= key(&w[1]),
                "{:?}\n  then {:?}",
                key(&w[0]),
                key(&w[1])
            );
        }
        // The sort is stable: it is the order of a stable sort of the findings as gathered
        // skill by skill (`check` gathers them so).
        let mut c = findings::Collector::new(cat, &models);
        for s in &cat.skills {
            c.take(findings::skill_findings(cat, &models, s));
        }
        let (taken, _) = c.finish();
        let text = |f: &[findings::Finding]| serde_json::to_string(f).unwrap();
        assert_eq!(text(&taken), text(&all));
    }
    // The tie on everything up to the path is broken by `Path`'s order, not the bytes'.
    let same_defect: Vec<std::path::PathBuf> = findings::findings(&cat, &models)
        .iter()
        .filter(|x| {
            x.code == Code::Spec(ProblemCode::MetadataNotMap)
                && x.path.starts_with(f.project.join(".claude/skills"))
        })
        .map(|x| {
            x.path
                .strip_prefix(f.project.join(".claude/skills"))
                .unwrap()
                .to_path_buf()
        })
        .collect();
    let expected = [
        "x/SKILL.md",
        "x/y/SKILL.md",
        "x-y/SKILL.md",
        "x.y/SKILL.md",
        "xy/SKILL.md",
    ];
    assert_eq!(same_defect, expected.map(std::path::PathBuf::from));
}
