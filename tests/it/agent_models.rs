//! The built-in agent models (`assets/agents/*.toml`): they load, carry provenance on every rule,
//! and pin a few research facts through the public API. See `assets/agents/README.md`.

use crate::common::oracle_cases;
use skilltui::agents::{
    AgentModel, BUILTIN_IDS, BundledFiles, CharsetRule, CollisionKey, CollisionMode, Depth,
    Evidence, Expects, Handling, HidesFromModel, Known, LengthLimit, LooseMd, Nested, NoGitWalk,
    Posture, ProjectWalk, Provenance, RankOrder, ReportedPath, RootSkillMd, Rule, Scope, TieBreak,
    Unit, YamlRepair, builtin, load_dir, parse_model,
};
use std::path::{Path, PathBuf};

const SPEC_FIELDS: [&str; 6] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Every field each model must describe (spec fields, harness fields, and Codex's nested key).
const ALL_FIELDS: [&str; 19] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "disable-model-invocation",
    "user-invocable",
    "argument-hint",
    "when_to_use",
    "context",
    "agent",
    "hooks",
    "paths",
    "model",
    "effort",
    "icon",
    "color",
    "metadata.short-description",
];

fn assets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/agents")
}

fn model(id: &str) -> AgentModel {
    builtin()
        .into_iter()
        .find(|m| m.id == id)
        .unwrap_or_else(|| panic!("no built-in model `{id}`"))
}

/// One provenance-carrying entry of a model: its key path (from the id the model loader gave
/// it), provenance, and whether its value is unknown.
struct Entry {
    path: String,
    from: Provenance,
    unknown: bool,
}

/// Every rule, root, former root and field rule of a model, with its key path, as the loaded
/// model places them (no key path is typed here: the ids come from the loader).
fn entries(m: &AgentModel) -> Vec<Entry> {
    m.placed_rules()
        .into_iter()
        .map(|r| Entry {
            path: r.from.id.key().to_string(),
            unknown: r.unknown,
            from: r.from,
        })
        .collect()
}

/// Counts the tables holding an `evidence` key in the raw TOML: every provenance-carrying entry.
fn raw_provenance_count(v: &toml::Value) -> usize {
    match v {
        toml::Value::Table(t) => {
            usize::from(t.contains_key("evidence"))
                + t.values().map(raw_provenance_count).sum::<usize>()
        }
        toml::Value::Array(a) => a.iter().map(raw_provenance_count).sum(),
        _ => 0,
    }
}

// ---------------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------------

#[test]
fn all_builtin_models_load_in_builtin_order() {
    let models = builtin();
    assert_eq!(models.len(), BUILTIN_IDS.len());
    for (m, id) in models.iter().zip(BUILTIN_IDS) {
        assert_eq!(m.id, id, "builtin() order must follow BUILTIN_IDS");
        // A date, YYYY-MM-DD, no older than the last check of the first seven models.
        assert!(
            m.checked.len() == 10 && m.checked.as_str() >= "2026-11-30",
            "{id}: checked {}",
            m.checked
        );
        assert!(!m.name.is_empty(), "{id}: display name");
        assert!(!m.version.is_empty(), "{id}: version");
        assert!(
            m.summary.as_deref().is_some_and(|s| !s.trim().is_empty()),
            "{id}: summary"
        );
        assert!(m.docs.is_some(), "{id}: docs");
    }
}

#[test]
fn each_file_is_named_after_its_id() {
    for id in BUILTIN_IDS {
        let path = assets_dir().join(format!("{id}.toml"));
        let text = std::fs::read_to_string(&path).unwrap();
        let m = parse_model(&path, &text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(m.id, id, "{} holds id `{}`", path.display(), m.id);
    }
    // `--model DIR` on the assets folder gives the same models in the same order.
    let loaded = load_dir(&assets_dir()).unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<&str> = loaded.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, BUILTIN_IDS);
}

#[test]
fn model_versions_are_the_newest_releases_described() {
    let expected = [
        ("claude-code", "2.1.332"),
        ("codex", "0.171.0"),
        ("copilot-cli", "1.0.102"),
        ("antigravity", "1.2.11"),
        ("opencode", "1.18.34"),
        ("pi", "0.73.1"),
        ("gemini-cli", "0.61.0"),
        ("qwen-code", "0.24.4"),
        ("qoder-cli", "1.1.52"),
        ("kilo", "7.7.9"),
        ("factory-droid", "0.225.2"),
        ("amp", "0.0.1790142911-g7618fb"),
    ];
    for (id, v) in expected {
        assert_eq!(model(id).version, v, "{id}");
    }
}

// ---------------------------------------------------------------------------------------------
// Provenance
// ---------------------------------------------------------------------------------------------

#[test]
fn the_typed_walk_covers_every_provenance_in_the_files() {
    for m in builtin() {
        let text = std::fs::read_to_string(assets_dir().join(format!("{}.toml", m.id))).unwrap();
        let raw: toml::Value = toml::from_str(&text).unwrap();
        assert_eq!(
            entries(&m).len(),
            raw_provenance_count(&raw),
            "{}: a provenance-carrying key is not covered by this test's walk",
            m.id
        );
    }
}

#[test]
fn every_rule_has_a_source_and_the_versions_its_evidence_needs() {
    for m in builtin() {
        for e in entries(&m) {
            let at = format!("{}/{}", m.id, e.path);
            let f = &e.from;
            assert!(f.source.iter().next().is_some(), "{at}: no source");
            match f.evidence {
                Evidence::Src => assert!(
                    f.commit.is_some() || f.version.is_some(),
                    "{at}: SRC needs a commit or version"
                ),
                Evidence::Obs | Evidence::Asi | Evidence::Changelog | Evidence::Bundle => {
                    assert!(f.version.is_some(), "{at}: {} needs a version", f.evidence)
                }
                _ => {}
            }
            if f.evidence == Evidence::None {
                assert!(e.unknown, "{at}: evidence NONE is only for unknown values");
            }
            for s in [&f.version, &f.commit, &f.note].into_iter().flatten() {
                assert!(!s.trim().is_empty(), "{at}: empty version, commit or note");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Shape
// ---------------------------------------------------------------------------------------------

#[test]
fn every_model_has_a_project_and_a_user_root() {
    for m in builtin() {
        assert!(
            m.roots.iter().any(|r| r.scope == Scope::Project),
            "{}: project root",
            m.id
        );
        assert!(
            m.roots.iter().any(|r| r.scope == Scope::User),
            "{}: user root",
            m.id
        );
        for r in &m.roots {
            assert_eq!(
                r.scope == Scope::Project,
                r.walk.is_some() && r.no_git.is_some(),
                "{}/roots.{}: project roots (only) carry walk and no_git",
                m.id,
                r.id
            );
            assert_eq!(
                r.path.matches("${").count(),
                r.path.matches('}').count(),
                "{}/roots.{}: unbalanced ${{...}} in {}",
                m.id,
                r.id,
                r.path
            );
        }
    }
}

#[test]
fn every_model_describes_every_field() {
    for m in builtin() {
        for f in SPEC_FIELDS {
            assert!(
                m.fields.contains_key(f),
                "{}: no FieldRule for spec field `{f}`",
                m.id
            );
        }
        for f in ALL_FIELDS {
            assert!(m.fields.contains_key(f), "{}: no FieldRule for `{f}`", m.id);
        }
        for (k, f) in &m.fields {
            if f.handling == Handling::Read {
                assert!(
                    f.effect.is_some(),
                    "{}/fields.{k}: a read field needs an effect",
                    m.id
                );
            }
            if f.hides_from_model.is_some() {
                assert_eq!(f.handling, Handling::Read, "{}/fields.{k}", m.id);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Research facts, pinned
// ---------------------------------------------------------------------------------------------

fn known<T: Clone>(r: &Rule<T>) -> T {
    match &r.value {
        Known::Known(v) => v.clone(),
        Known::Unknown => panic!("expected a known value, source: {}", r.from.source),
    }
}

#[test]
fn codex_facts() {
    let m = model("codex");
    assert_eq!(known(&m.traversal.max_depth), Depth::Limited(6));
    assert_eq!(known(&m.precedence.mode), CollisionMode::AllListed);
    assert_eq!(known(&m.traversal.nested), Nested::Register);
    assert_eq!(known(&m.traversal.reported_path), ReportedPath::Canonical);
    assert_eq!(known(&m.parse.yaml_repair), YamlRepair::CodexLiteralValues);
    assert_eq!(
        known(&m.name_rules.length),
        LengthLimit {
            limit: Some(64),
            unit: Unit::CodePoints,
            posture: Posture::Reject
        }
    );
    // 0.171.0 dropped the 1,024-character description limit.
    assert_eq!(known(&m.description_rules.length).limit, None);
    let metadata = &m.fields["metadata"];
    assert_eq!(metadata.expects, Some(Expects::Map));
    assert_eq!(metadata.on_invalid, Some(Posture::Reject));
    assert!(
        !m.roots.iter().any(|r| r.path.contains(".claude")),
        "Codex never reads .claude"
    );
    let agents = m.roots.iter().find(|r| r.id == "project-agents").unwrap();
    assert_eq!(known(agents.no_git.as_ref().unwrap()), NoGitWalk::CwdOnly);
    assert!(
        m.roots
            .iter()
            .any(|r| r.path == "/etc/codex/skills" && r.scope == Scope::System)
    );
}

#[test]
fn claude_code_facts() {
    let m = model("claude-code");
    assert_eq!(known(&m.traversal.max_depth), Depth::Limited(1));
    assert_eq!(known(&m.name_rules.collision_key), CollisionKey::Folder);
    assert_eq!(known(&m.traversal.skill_md_in_root), RootSkillMd::Ignored);
    assert_eq!(known(&m.precedence.mode), CollisionMode::FirstWins);
    // managed > user > project
    let scopes: Vec<Scope> = m.roots.iter().map(|r| r.scope).collect();
    let first_user = scopes.iter().position(|s| *s == Scope::User).unwrap();
    let first_project = scopes.iter().position(|s| *s == Scope::Project).unwrap();
    assert_eq!(scopes[0], Scope::System);
    assert!(first_user < first_project);
    assert!(
        m.roots
            .iter()
            .any(|r| r.path == "${CLAUDE_CONFIG_DIR:-~/.claude}/skills")
    );
    assert!(
        !m.roots.iter().any(|r| r.path.contains(".agents")),
        "Claude never reads .agents"
    );
    let project = m.roots.iter().find(|r| r.scope == Scope::Project).unwrap();
    assert_eq!(
        known(project.walk.as_ref().unwrap()),
        ProjectWalk::UpToGitRoot
    );
    assert_eq!(
        known(project.no_git.as_ref().unwrap()),
        NoGitWalk::UpToFsRootBelowHome
    );
    // true, True, yes and "true" hide it; 1 and 42 do not (field probes, issue 15).
    assert_eq!(
        m.fields["disable-model-invocation"].hides_from_model,
        Some(HidesFromModel::WhenTrueOrYes)
    );
    // user-invocable: false keeps the skill in the model's listing.
    assert_eq!(m.fields["user-invocable"].hides_from_model, None);
    let budget = known(&m.listing.budget);
    assert_eq!(budget.context_fraction, Some(0.01));
    assert_eq!(budget.entry_max_chars, Some(1536));
}

#[test]
fn copilot_cli_facts() {
    let m = model("copilot-cli");
    assert_eq!(
        known(&m.description_rules.length),
        LengthLimit {
            limit: Some(1024),
            unit: Unit::Utf16,
            posture: Posture::Reject
        }
    );
    assert_eq!(known(&m.traversal.skill_md_in_root), RootSkillMd::WholeRoot);
    assert_eq!(known(&m.precedence.order), RankOrder::RootThenDistance);
    assert_eq!(known(&m.precedence.tie_break), TieBreak::Sorted);
    assert_eq!(
        known(&m.name_rules.charset),
        CharsetRule {
            charset: skilltui::agents::Charset::CopilotName,
            posture: Posture::Reject
        }
    );
    // Root type before closeness: .github, .agents, .claude, then the user roots.
    let ids: Vec<&str> = m.roots.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "project-github",
            "project-agents",
            "project-claude",
            "user-copilot",
            "user-agents"
        ]
    );
    let home_agents = m.roots.iter().find(|r| r.id == "user-agents").unwrap();
    assert_eq!(home_agents.unless_env, ["COPILOT_HOME"]);
    let claude = m
        .former_roots
        .iter()
        .find(|f| f.path == "~/.claude/skills")
        .unwrap();
    assert_eq!(claude.until, "1.0.36");
    assert!(claude.when_env.is_empty());
    assert!(
        m.former_roots
            .iter()
            .any(|f| f.path == "~/.agents/skills" && f.when_env == ["COPILOT_HOME"])
    );
    assert_eq!(known(&m.listing.bundled_files), BundledFiles::All);
}

#[test]
fn opencode_facts() {
    let m = model("opencode");
    assert_eq!(known(&m.precedence.mode), CollisionMode::Nondeterministic);
    assert_eq!(known(&m.traversal.max_depth), Depth::Unlimited);
    assert_eq!(
        known(&m.description_rules.missing),
        skilltui::agents::MissingDescription::Unlisted
    );
    assert_eq!(known(&m.parse.yaml_repair), YamlRepair::OpencodeQuoteColons);
    assert_eq!(known(&m.listing.bundled_files), BundledFiles::Sample);
    let claude = m.roots.iter().find(|r| r.id == "project-claude").unwrap();
    for var in [
        "OPENCODE_DISABLE_EXTERNAL_SKILLS",
        "OPENCODE_DISABLE_CLAUDE_CODE",
        "OPENCODE_DISABLE_CLAUDE_CODE_SKILLS",
    ] {
        assert!(claude.unless_env.iter().any(|v| v == var), "{var}");
    }
    // Hidden folders: entered under .claude/.agents, skipped under .opencode and config folders.
    assert_eq!(
        known(&m.traversal.hidden),
        skilltui::agents::EnterOrSkip::Enter
    );
    let oc = m
        .roots
        .iter()
        .find(|r| r.id == "project-opencode-skills")
        .unwrap();
    assert_eq!(
        known(oc.traversal.hidden.as_ref().unwrap()),
        skilltui::agents::EnterOrSkip::Skip
    );
    assert_eq!(oc.unless_env, ["OPENCODE_DISABLE_PROJECT_CONFIG"]);
    assert!(
        m.roots
            .iter()
            .any(|r| r.path == "${OPENCODE_CONFIG_DIR}/skills")
    );
}

#[test]
fn pi_facts() {
    let m = model("pi");
    assert_eq!(known(&m.name_rules.length).posture, Posture::Warn);
    assert_eq!(known(&m.name_rules.length).unit, Unit::Utf16);
    assert_eq!(known(&m.traversal.nested), Nested::Stop);
    assert_eq!(known(&m.precedence.mode), CollisionMode::FirstWins);
    // cwd .pi > .agents (cwd -> git root) > ~/.pi/agent > ~/.agents
    let paths: Vec<&str> = m.roots.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            ".pi/skills",
            ".agents/skills",
            "${PI_CODING_AGENT_DIR:-~/.pi/agent}/skills",
            "~/.agents/skills"
        ]
    );
    // Loose *.md files are skills only in .pi/skills and ~/.pi/agent/skills.
    assert_eq!(known(&m.traversal.loose_md), LooseMd::Ignored);
    for r in &m.roots {
        let loose = r.traversal.loose_md.as_ref().map(known);
        let expect = (r.path.contains(".pi")).then_some(LooseMd::Skill);
        assert_eq!(loose, expect, "roots.{}", r.id);
    }
    assert_eq!(
        m.fields["disable-model-invocation"].hides_from_model,
        Some(HidesFromModel::WhenTrue)
    );
}

#[test]
fn closed_agents_without_tests_stay_mostly_unknown() {
    for id in ["cursor", "antigravity"] {
        let m = model(id);
        let all = entries(&m);
        let unknown = all.iter().filter(|e| e.unknown).count();
        assert!(
            unknown * 2 > all.len(),
            "{id}: {unknown} of {} unknown",
            all.len()
        );
    }
    let cursor = model("cursor");
    assert!(cursor.precedence.mode.value.is_unknown());
    assert_eq!(
        cursor.fields["disable-model-invocation"].hides_from_model,
        Some(HidesFromModel::WhenTrue)
    );
    let agy = model("antigravity");
    assert_eq!(known(&agy.traversal.max_depth), Depth::Limited(1));
    for p in [
        ".agent/skills",
        "~/.gemini/antigravity/skills",
        "~/.gemini/antigravity-cli/skills",
        "~/.gemini/skills",
    ] {
        assert!(
            agy.former_roots.iter().any(|f| f.path == p),
            "former root {p}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Malformed models
// ---------------------------------------------------------------------------------------------

fn codex_text() -> String {
    std::fs::read_to_string(assets_dir().join("codex.toml")).unwrap()
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .expect("needle in text")
        + 1
}

#[test]
fn a_wrong_enum_value_names_its_line() {
    let text = codex_text().replacen(
        "mode = { value = \"all-listed\"",
        "mode = { value = \"all-lsted\"",
        1,
    );
    let line = line_of(&text, "all-lsted");
    let e = parse_model(Path::new("bad.toml"), &text).unwrap_err();
    assert_eq!(e.line, Some(line), "{e}");
    assert!(
        e.snippet.as_deref().unwrap_or("").contains("all-lsted"),
        "{e}"
    );
    assert!(e.to_string().starts_with("bad.toml:"), "{e}");
}

#[test]
fn a_missing_source_names_its_line() {
    let text = codex_text();
    let target = text
        .lines()
        .find(|l| l.starts_with("hidden = { value = \"skip\""))
        .unwrap()
        .to_string();
    let start = target.find(", source = [").unwrap();
    let end = start + target[start..].find("] ").unwrap() + 1;
    let stripped = format!("{}{}", &target[..start], &target[end..]);
    assert!(!stripped.contains("source"), "{stripped}");
    let text = text.replacen(&target, &stripped, 1);
    let line = line_of(&text, &stripped);
    let e = parse_model(Path::new("bad.toml"), &text).unwrap_err();
    assert_eq!(e.line, Some(line), "{e}");
    assert!(e.message.contains("source"), "{e}");
}

#[test]
fn an_unknown_key_names_its_line() {
    let text = codex_text().replacen("\n[traversal]\n", "\n[traversal]\nmax_depht = 3\n", 1);
    let line = line_of(&text, "max_depht");
    let e = parse_model(Path::new("bad.toml"), &text).unwrap_err();
    assert_eq!(e.line, Some(line), "{e}");
}

#[test]
fn unknown_is_accepted_for_any_rule() {
    let text = codex_text().replacen(
        "max_depth = { value = 6,",
        "max_depth = { value = \"unknown\",",
        1,
    );
    let m = parse_model(Path::new("ok.toml"), &text).unwrap_or_else(|e| panic!("{e}"));
    assert!(m.traversal.max_depth.value.is_unknown());
}

#[test]
fn the_variables_skilltui_reads_come_from_the_models() {
    let vars = skilltui::agents::referenced_vars(&builtin());
    for v in [
        "CLAUDE_CONFIG_DIR",
        "CODEX_HOME",
        "COPILOT_HOME",
        "COPILOT_SKILLS_DIRS",
        "XDG_CONFIG_HOME",
        "OPENCODE_CONFIG_DIR",
        "OPENCODE_DISABLE_EXTERNAL_SKILLS",
        "OPENCODE_DISABLE_CLAUDE_CODE",
        "OPENCODE_DISABLE_CLAUDE_CODE_SKILLS",
        "OPENCODE_DISABLE_PROJECT_CONFIG",
        "PI_CODING_AGENT_DIR",
    ] {
        assert!(vars.contains(v), "{v} is read by no model: {vars:?}");
    }
    // A model added with --model brings its own variable.
    let text = std::fs::read_to_string(assets_dir().join("pi.toml"))
        .unwrap()
        .replace(
            "${PI_CODING_AGENT_DIR:-~/.pi/agent}/skills",
            "${MY_AGENT_HOME:-~/.mine}/skills",
        );
    let m = parse_model(std::path::Path::new("mine.toml"), &text).unwrap();
    assert!(skilltui::agents::referenced_vars(&[m]).contains("MY_AGENT_HOME"));
}

// ---------------------------------------------------------------------------------------------
// Sources a user can follow
// ---------------------------------------------------------------------------------------------

fn lint(m: &AgentModel) -> Vec<String> {
    skilltui::agents::sources::lint(m, &oracle_cases(), skilltui::agents::sources::CITABLE)
}

#[test]
fn every_rule_cites_public_or_reproducible_sources() {
    let mut problems = Vec::new();
    for m in builtin() {
        problems.extend(lint(&m));
        for r in m.rules() {
            assert!(!r.sources.is_empty(), "{}/{}: no source", m.id, r.id);
            // Every rule has a URL or an oracle case; an inference alone only backs a weak or
            // unknown claim.
            let followable = r
                .sources
                .iter()
                .any(|s| s.url.is_some() || s.kind == skilltui::agents::SourceKind::Observed);
            assert!(
                followable || r.strength <= skilltui::agents::Strength::Weak,
                "{}/{}: a {} claim with nothing to follow",
                m.id,
                r.id,
                r.strength
            );
            // No source names a research note that does not ship with skilltui.
            for s in &r.sources {
                let t = s.text.as_deref().unwrap_or("");
                for bad in [
                    "agent-matrix.md",
                    "newest-releases.md",
                    "closed-harnesses.md",
                    "oss-harnesses.md",
                    "notes/",
                    "seeds/",
                    "§",
                ] {
                    assert!(!t.contains(bad), "{}/{}: names {bad}: {t}", m.id, r.id);
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Replaces the first rule line starting with `prefix` in `text` by `f(line)`.
fn edit_rule(text: &str, prefix: &str, f: impl Fn(&str) -> String) -> String {
    let line = text.lines().find(|l| l.starts_with(prefix)).unwrap();
    text.replacen(line, &f(line), 1)
}

fn with_sources(line: &str, sources: &str) -> String {
    let start = line.find("source = [").unwrap() + "source = ".len();
    let end = start
        + line[start..]
            .find("] ")
            .map_or(line.len() - start - 2, |e| e + 1);
    format!("{}{}{}", &line[..start], sources, &line[end..])
}

fn lint_text(text: &str) -> Vec<String> {
    lint(&parse_model(Path::new("x.toml"), text).unwrap())
}

#[test]
fn the_source_check_fails_on_each_kind_of_bad_source() {
    let text = codex_text();
    assert_eq!(lint_text(&text), Vec::<String>::new());
    let hidden = "hidden = { value = \"skip\"";
    let cases: [(&str, &str); 7] = [
        (
            "[{ source = \"https://github.com/openai/codex/blob/main/codex-rs/core-skills/src/loader.rs#L1\" }, { observed = \"hidden-node_modules-gitignore\", version = \"0.171.0\" }]",
            "permalink without a commit",
        ),
        (
            "[{ observed = \"no-such-case\", version = \"0.171.0\" }]",
            "does not exist",
        ),
        (
            "[{ observed = \"env-opencode-disable-claude\", version = \"0.171.0\" }]",
            "does not run for codex",
        ),
        (
            "[{ doc = \"https://example.com/skills\" }, { observed = \"hidden-node_modules-gitignore\", version = \"0.171.0\" }]",
            "outside the citable addresses",
        ),
        ("\"newest-releases.md Codex §5\"", "unstructured source"),
        (
            "[{ doc = \"https://developers.openai.com/codex/skills\" }]",
            "evidence OBS but no observed source",
        ),
        (
            "[{ changelog = \"https://github.com/openai/codex/releases/tag/rust-v0.171.0\" }, { observed = \"hidden-node_modules-gitignore\", version = \"0.171.0\" }]",
            "changelog source without a version",
        ),
    ];
    for (sources, expected) in cases {
        let bad = edit_rule(&text, hidden, |l| with_sources(l, sources));
        let problems = lint_text(&bad);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("codex/traversal.hidden") && p.contains(expected)),
            "{sources}: expected `{expected}` in {problems:?}"
        );
    }
    // A random oracle tree exists for any seed.
    let ok = edit_rule(&text, hidden, |l| {
        with_sources(l, "[{ observed = \"random-542\", version = \"0.171.0\" }]")
    });
    assert_eq!(lint_text(&ok), Vec::<String>::new());
    // A source table with two kinds, or none, does not load.
    for sources in [
        "[{ doc = \"https://developers.openai.com/codex/skills\", issue = \"https://github.com/openai/codex/issues/1\" }]",
        "[{ version = \"1\" }]",
        "[]",
    ] {
        let bad = edit_rule(&text, hidden, |l| with_sources(l, sources));
        assert!(parse_model(Path::new("x.toml"), &bad).is_err(), "{sources}");
    }
}

#[test]
fn sources_render_as_one_step_to_the_claim() {
    let m = model("codex");
    let depth = &m.traversal.max_depth.from;
    let urls: Vec<&str> = depth.source.urls().collect();
    assert!(
        urls.iter().any(|u| u.starts_with(
            "https://github.com/openai/codex/blob/4e30281a13f7d1e5b58637ab7028023334617bee/"
        ) && u.contains("#L")),
        "{urls:?}"
    );
    let line = depth.source.render();
    assert!(
        line.contains("observed: 0.171.0, tests/oracle case depth"),
        "{line}"
    );
    assert_eq!(depth.strength(), skilltui::agents::Strength::Observed);
    let commit = depth.source.iter().find_map(|s| s.commit());
    assert_eq!(commit, Some("4e30281a13f7d1e5b58637ab7028023334617bee"));
}

#[test]
fn the_legend_covers_every_label_and_the_readme_carries_it() {
    let legend = skilltui::agents::sources::legend();
    assert_eq!(legend.len(), Evidence::ALL.len());
    // Strongest first.
    for w in legend.windows(2) {
        assert!(w[0].strength >= w[1].strength, "{:?}", w);
    }
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    for r in &legend {
        let row = format!(
            "| `{}` | {} | {} |",
            r.label,
            r.strength.as_str(),
            r.meaning
        );
        assert!(readme.contains(&row), "README lacks the legend row {row}");
    }
}

#[test]
fn agents_lists_every_rule_under_the_id_of_its_place_in_the_file() {
    for m in builtin() {
        let listed: std::collections::BTreeSet<String> =
            m.rules().into_iter().map(|r| r.id).collect();
        let mut ids = std::collections::BTreeSet::new();
        for e in entries(&m) {
            let id = e.from.id.to_string();
            assert_eq!(
                id,
                format!("{}/{}", m.id, e.path),
                "the agent's own id first"
            );
            assert!(ids.insert(id.clone()), "{id} names two rules");
            assert!(
                listed.contains(&e.path),
                "{}: {} is not listed",
                m.id,
                e.path
            );
        }
        assert!(
            listed.contains("roots"),
            "{}: the root list as a whole",
            m.id
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Rule ids are the model's
// ---------------------------------------------------------------------------------------------

/// The string literals of Rust source (comment lines skipped; escapes kept as written).
fn string_literals(src: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in src.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        let mut cur: Option<String> = None;
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match (&mut cur, c) {
                (None, '"') => cur = Some(String::new()),
                (None, '/') if line.contains("//") && chars.clone().next() == Some('/') => break,
                (None, _) => {}
                (Some(s), '\\') => {
                    s.push('\\');
                    if let Some(n) = chars.next() {
                        s.push(n);
                    }
                }
                (Some(_), '"') => out.push((i + 1, cur.take().unwrap())),
                (Some(s), c) => s.push(c),
            }
        }
    }
    out
}

/// Whether a literal spells a rule id or a model key used as one: `codex/…` for a built-in
/// agent, or a key path that starts with (or, after a `/`, names) one of the sections the
/// models' rules live in (`roots.…`, `fields.{key}`, `…/roots`).
fn looks_like_rule_id(lit: &str, agents: &[String], sections: &[String]) -> bool {
    agents.iter().any(|a| lit.starts_with(&format!("{a}/")))
        || sections.iter().any(|s| {
            lit.starts_with(&format!("{s}."))
                || lit.contains(&format!("/{s}."))
                || lit.ends_with(&format!("/{s}"))
        })
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// No Rust code outside the model loader (`src/agents/`) retypes a rule id: the resolver,
/// findings, actions and front ends take ids from the loaded model. (`src/oracle/` is left
/// out: its known-divergence records name rules read from `tests/oracle/known.json`.)
#[test]
fn no_rule_id_is_typed_in_rust_outside_the_model_loader() {
    let models = builtin();
    let agents: Vec<String> = models.iter().map(|m| m.id.clone()).collect();
    let mut sections: Vec<String> = models
        .iter()
        .flat_map(|m| m.rules())
        .map(|r| r.id.split('.').next().unwrap().to_string())
        .collect();
    sections.sort();
    sections.dedup();
    // The detector itself: it must catch what the resolver used to write.
    for bad in [
        "let r = format!(\"fields.{key}\");",
        "x(\"name_rules.length\")",
        "rule: format!(\"{}/roots\", m.id)",
        "assert_eq!(r, \"codex/roots.user-agents\")",
    ] {
        assert!(
            string_literals(bad)
                .iter()
                .any(|(_, l)| looks_like_rule_id(l, &agents, &sections)),
            "the check misses {bad}"
        );
    }
    for fine in [
        "\"roots\"",
        "// \"codex/x\"",
        "x(); // \"codex/x\"",
        "\"found under {}\"",
    ] {
        let hits: Vec<_> = string_literals(fine)
            .into_iter()
            .filter(|(_, l)| looks_like_rule_id(l, &agents, &sections))
            .collect();
        assert!(hits.is_empty(), "{fine}: {hits:?}");
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap();
        if rel.starts_with("agents") || rel.starts_with("oracle") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (line, lit) in string_literals(&text) {
            if looks_like_rule_id(&lit, &agents, &sections) {
                found.push(format!("src/{}:{line}: \"{lit}\"", rel.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "rule ids typed in Rust (take them from the loaded model):\n{}",
        found.join("\n")
    );
}

/// The built-in models are loaded without the check that their typed rules and the rules
/// listed generically agree (it parses each file a second time): it is made here instead.
#[test]
fn every_built_in_models_typed_and_listed_rules_agree() {
    let models = skilltui::agents::builtin();
    assert_eq!(models.len(), skilltui::agents::BUILTIN_IDS.len());
    for m in &models {
        assert_eq!(skilltui::agents::rule_drift(m), None, "{}", m.id);
        // The listed rules carry the ids the loader derived for not-roots and former roots.
        for r in &m.not_roots {
            let id = format!("not_roots.{}", r.id);
            assert!(m.rule_ids().contains(&id), "{}: {id}", m.id);
        }
    }
}
