//! `list --json` and `check --json` through the real binary: schema 4 (compact: rules, reason
//! lists, field tables, verdicts and roots once, referenced by index, and values that repeat a
//! field written as its number) and schema 3 (`--json-schema 3`, the same without the value
//! references) say exactly what schema 1 says;
//! `--json-schema 1` is byte for byte the output before schema 2 (a snapshot of it on part of the
//! demo tree); `--fields`; and a closed pipe ends the output quietly.
//!
//! The snapshot `tests/it/snapshots/list_json_schema1.json` was written by the binary of the last
//! commit before schema 2 (`list --json`). When a change to the models or the resolver changes the
//! verdicts on purpose, rewrite it with `SKILLTUI_BLESS=1 cargo test --test json_schema` and
//! review the diff.

use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
    c.env_clear();
    if let Some(p) = std::env::var_os("PATH") {
        c.env("PATH", p);
    }
    c
}

/// Part of the demo tree (three copies of one name, a broken file): what the schema-1 snapshot
/// was taken on.
const SNAPSHOT_TREE: &str = r#"@@ project/.git/HEAD
ref: refs/heads/main
@@ mkdir project/.git/objects
@@ mkdir project/.git/refs
@@ project/.agents/skills/code-review/SKILL.md
---
name: code-review
description: Review a change for correctness, tests and style before it is merged.
metadata:
  author: demo-team
  version: "1.2"
---
# Code review
@@ home/.agents/skills/code-review/SKILL.md
---
name: code-review
description: My older personal code review checklist.
---
# Code review (user copy)
@@ project/.claude/skills/Broken YAML/SKILL.md
---
name: broken-yaml
description: "an unterminated quote
---
# Broken
@@ project/src/main.rs
fn main() {}
@@ home/.gemini/config/skills/code-review/SKILL.md
---
name: code-review
description: Antigravity's user copy of the review checklist.
---
# Code review (Antigravity user copy)
"#;

/// A tree under a fresh folder (no `.git` above it).
struct Tree {
    _tmp: tempfile::TempDir,
    base: PathBuf,
}

impl Tree {
    fn of(spec: &str) -> Tree {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().join("t");
        skilltui::demo::write_tree(&base, spec).unwrap();
        Tree { _tmp: tmp, base }
    }

    /// The demo tree.
    fn demo() -> Tree {
        Tree::of(include_str!("../../assets/demo/catalog.txt"))
    }

    fn run(&self, args: &[&str]) -> Output {
        bin()
            .args(args)
            .arg("--project")
            .arg(self.base.join("project"))
            .arg("--home")
            .arg(self.base.join("home"))
            .output()
            .unwrap()
    }

    fn json(&self, args: &[&str]) -> (Value, usize) {
        let o = self.run(args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)));
        (v, o.stdout.len())
    }
}

fn snapshot_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/snapshots/list_json_schema1.json")
}

#[test]
fn schema_1_is_the_output_before_schema_2() {
    // Every ancestor of the project is a root of some agent, and the listing's token estimate
    // counts the path: the snapshot was taken in `/tmp/.tmpXXXXXX/t`, a folder tempfile makes.
    let tmp = tempfile::Builder::new().tempdir_in("/tmp").unwrap();
    let base = tmp.path().join("t");
    skilltui::demo::write_tree(&base, SNAPSHOT_TREE).unwrap();
    let t = Tree { _tmp: tmp, base };
    let o = t.run(&["list", "--json-schema", "1"]);
    assert_eq!(o.status.code(), Some(0));
    let base = t.base.parent().unwrap().display().to_string();
    let got = String::from_utf8(o.stdout).unwrap().replace(&base, "$TMP");
    if std::env::var("SKILLTUI_BLESS").as_deref() == Ok("1") {
        std::fs::write(snapshot_path(), &got).unwrap();
    }
    let want = std::fs::read_to_string(snapshot_path()).unwrap();
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "schema 1 differs from the snapshot at line {}:\n got: {}\nwant: {}",
            line + 1,
            got.lines().nth(line).unwrap_or(""),
            want.lines().nth(line).unwrap_or("")
        );
    }
    // `--format-version` is the same option (cargo metadata's name).
    let again = t.run(&["list", "--format-version", "1"]);
    assert_eq!(
        String::from_utf8(again.stdout)
            .unwrap()
            .replace(&base, "$TMP"),
        want
    );
}

/// A reason's sentence from its rule's template and its values (each a text; a number: the
/// index in `value_refs` of the skill's, verdict's or agent's field it repeats, looked up by
/// `field`; or a list of texts and such numbers, joined).
fn render(template: &str, values: &[Value], field: &dyn Fn(usize) -> Value) -> String {
    let one = |v: &Value| match v.as_u64() {
        Some(k) => field(k as usize),
        None => v.clone(),
    };
    let values: Vec<Value> = values
        .iter()
        .map(|v| match v.as_array() {
            Some(parts) => {
                assert_eq!(parts.len(), 2, "{v}");
                assert!(parts.iter().any(Value::is_u64), "{v}");
                let text: String = parts
                    .iter()
                    .map(|p| one(p).as_str().unwrap().to_string())
                    .collect();
                Value::from(text)
            }
            None => one(v),
        })
        .collect();
    let mut out = String::new();
    let mut vals = values.iter();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('{', Some('}')) => {
                chars.next();
                out.push_str(vals.next().and_then(Value::as_str).unwrap());
            }
            ('{', Some('{')) | ('}', Some('}')) => {
                chars.next();
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    assert!(vals.next().is_none(), "values left over for {template}");
    out
}

#[test]
fn compact_schemas_say_what_schema_1_says_in_less() {
    let t = Tree::demo();
    let (v1, bytes1) = t.json(&["list", "--json-schema", "1"]);
    let (v3, bytes3) = t.json(&["list", "--json-schema", "3"]);
    let (v2, bytes2) = t.json(&["list", "--json"]);
    assert_eq!(v3["schema"], 3);
    assert!(expands_to_schema_1(&v1, &v3) > 200);
    let verdicts = expands_to_schema_1(&v1, &v2);
    assert!(verdicts > 200, "{verdicts}");
    assert!(
        bytes2 * 3 < bytes1,
        "schema 4 {bytes2} bytes, schema 1 {bytes1}"
    );
    assert!(
        bytes2 < bytes3,
        "schema 4 {bytes2} bytes, schema 3 {bytes3}"
    );
    // The strength each verdict had in schema 1, on request.
    let (st, _) = t.json(&["list", "--fields", "path,agents.strength"]);
    let table = st["verdicts"].as_array().unwrap();
    let ids = agent_ids(&st);
    for (a, b) in v1["skills"]
        .as_array()
        .unwrap()
        .iter()
        .zip(st["skills"].as_array().unwrap())
    {
        for (n, i) in b["agents"].as_array().unwrap().iter().enumerate() {
            let y = &table[i.as_u64().unwrap() as usize];
            assert_eq!(
                a["agents"][&ids[n]]["strength"], y["strength"],
                "{}",
                ids[n]
            );
        }
    }
}

/// The agent ids of a compact document, in its `agents` order.
fn agent_ids(v2: &Value) -> Vec<String> {
    v2["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap().to_string())
        .collect()
}

/// Each skill's verdicts in schema 4 or 3 (`list --json`, `--json-schema 3`), expanded through
/// its tables, say what schema 1 says: every key, and every reason's rule, sentence, source and
/// evidence. Returns the number of verdicts compared.
fn expands_to_schema_1(v1: &Value, v2: &Value) -> usize {
    let four = v2["schema"] == 4;
    assert!(four || v2["schema"] == 3, "{}", v2["schema"]);
    assert!(v1.get("schema").is_none());
    for k in [
        "project",
        "home",
        "git_root",
        "agents",
        "roots",
        "diagnostics",
    ] {
        assert_eq!(v1[k], v2[k], "{k}");
    }
    let rules = v2["rules"].as_array().unwrap();
    let lists = v2["reasons"].as_array().unwrap();
    let fields = v2["fields"].as_array().unwrap();
    let roots = v2["roots"].as_array().unwrap();
    let table = v2["verdicts"].as_array().unwrap();
    let value_refs: Vec<&str> = v2["value_refs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(value_refs.len(), if four { 8 } else { 5 });
    let ids = agent_ids(v2);
    let (s1, s2) = (
        v1["skills"].as_array().unwrap(),
        v2["skills"].as_array().unwrap(),
    );
    assert_eq!(s1.len(), s2.len());
    assert!(s1.len() > 10);

    let mut verdicts = 0;
    for (a, b) in s1.iter().zip(s2) {
        for k in [
            "path",
            "dir",
            "name",
            "description",
            "root",
            "scope",
            "problems",
            "references",
            "scripts",
        ] {
            assert_eq!(a[k], b[k], "{k} of {}", a["path"]);
        }
        let (va, vb) = (
            a["agents"].as_object().unwrap(),
            b["agents"].as_array().unwrap(),
        );
        // Verdicts in `agents` order, each an index into `verdicts`.
        assert_eq!(
            va.keys().collect::<Vec<_>>(),
            ids.iter().collect::<Vec<_>>()
        );
        assert_eq!(va.len(), vb.len());
        for (n, (agent, x)) in va.iter().enumerate() {
            let y = &table[vb[n].as_u64().unwrap() as usize];
            let at = format!("{agent} on {}", a["path"]);
            verdicts += 1;
            // Schema 4: `as` may be the number of the skill's field it repeats.
            let as_ = match y["as"].as_u64() {
                Some(k) => {
                    assert!(four && (1..=2).contains(&k), "as {k} for {at}");
                    b[value_refs[k as usize]].clone()
                }
                None => y["as"].clone(),
            };
            assert_eq!(x["as"], as_, "as for {at}");
            for k in [
                "status",
                "winner",
                "model",
                "listing_tokens",
                "bundle",
                "conditional",
            ] {
                // Absent in schema 2 is null in schema 1.
                assert_eq!(x[k], y[k], "{k} for {at}");
            }
            // The listed description: an index into the skill's `descriptions_as_listed`, whose
            // entry is the text or (schema 4) the length of the description's start it is.
            match y.get("description_as_listed") {
                Some(i) => {
                    let entry = &b["descriptions_as_listed"][i.as_u64().unwrap() as usize];
                    let text = match entry.as_u64() {
                        Some(n) => {
                            assert!(four, "{at}");
                            let d = b["description"].as_str().unwrap();
                            Value::from(d.chars().take(n as usize).collect::<String>())
                        }
                        None => entry.clone(),
                    };
                    assert_eq!(x["description_as_listed"], text, "{at}");
                }
                None => assert!(x.get("description_as_listed").is_none(), "{at}"),
            }
            match y.get("root") {
                Some(i) => {
                    let r = &roots[i.as_u64().unwrap() as usize];
                    assert_eq!(x["root"], r["path"], "root for {at}");
                    assert_eq!(x["scope"], r["scope"], "scope for {at}");
                }
                None => assert!(x["root"].is_null() && x["scope"].is_null(), "{at}"),
            }
            assert_eq!(
                x["fields"],
                fields[y["fields"].as_u64().unwrap() as usize],
                "{at}"
            );
            let full = x["reasons"].as_array().unwrap();
            let refs = lists[y["reasons"].as_u64().unwrap() as usize]
                .as_array()
                .unwrap();
            assert_eq!(full.len(), refs.len(), "{at}");
            for (r1, r2) in full.iter().zip(refs) {
                let rule = &rules[r2["rule"].as_u64().unwrap() as usize];
                assert_eq!(r1["rule"], rule["id"], "{at}");
                let field = |k: usize| match value_refs[k] {
                    "agents.as" => as_.clone(),
                    "agents.winner" => y["winner"].clone(),
                    "agent.name" => v2["agents"][n]["name"].clone(),
                    k => b[k].clone(),
                };
                assert_eq!(
                    r1["message"].as_str().unwrap(),
                    render(
                        rule["template"].as_str().unwrap(),
                        r2["values"].as_array().unwrap(),
                        &field
                    ),
                    "{at}"
                );
                for k in ["source", "sources", "evidence", "strength"] {
                    assert_eq!(r1[k], rule[k], "{k} for {at}");
                }
                assert_eq!(r1["fix"], r2["fix"], "{at}");
            }
        }
    }
    // Rules and reason lists are shared: far fewer entries than reasons and verdicts.
    let reasons: usize = s1
        .iter()
        .flat_map(|s| s["agents"].as_object().unwrap().values())
        .map(|v| v["reasons"].as_array().unwrap().len())
        .sum();
    assert!(
        rules.len() * 2 < reasons,
        "{} rules, {reasons} reasons",
        rules.len()
    );
    assert!(lists.len() < verdicts, "{} lists", lists.len());
    assert!(table.len() < verdicts, "{} distinct verdicts", table.len());
    verdicts
}

#[test]
fn schema_2_expands_to_schema_1_on_a_generated_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let (tree, _) = skilltui::r#gen::generate(
        &tmp.path().join("gen"),
        &skilltui::r#gen::Options {
            skills: 400,
            seed: 0x2b2b,
        },
    )
    .unwrap();
    let run = |args: &[&str]| {
        let o = bin()
            .arg("--project")
            .arg(&tree.project)
            .arg("--home")
            .arg(&tree.home)
            .args(args)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        (
            serde_json::from_slice::<Value>(&o.stdout).unwrap(),
            o.stdout.len(),
        )
    };
    let (v1, bytes1) = run(&["list", "--json-schema", "1"]);
    let (v3, bytes3) = run(&["list", "--json-schema", "3"]);
    let (v2, bytes2) = run(&["list", "--json"]);
    assert!(expands_to_schema_1(&v1, &v3) > 400 * 20);
    let verdicts = expands_to_schema_1(&v1, &v2);
    assert!(verdicts > 400 * 20, "{verdicts}");
    assert!(
        bytes2 * 10 < bytes1,
        "schema 4 {bytes2} bytes, schema 1 {bytes1}"
    );
    // Nothing written twice: schema 4 takes at most two thirds of schema 3 (about 0.58 here,
    // 2.3 against 3.9 KB per skill; at 10k the shared tables weigh less: BENCHMARKS.md).
    assert!(
        bytes2 * 3 < bytes3 * 2,
        "schema 4 {bytes2} bytes, schema 3 {bytes3}"
    );
}

#[test]
fn fields_keep_what_is_asked_and_name_the_valid_ones() {
    let t = Tree::demo();
    let (full, _) = t.json(&["list", "--json"]);
    let (v, _) = t.json(&["list", "--json", "--fields", "path,agents.status"]);
    let top: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(top, ["schema", "agents", "skills", "verdicts"]);
    // Only statuses: one verdict entry per status.
    let table = v["verdicts"].as_array().unwrap();
    assert!(table.len() <= 5, "{table:?}");
    let skills = v["skills"].as_array().unwrap();
    assert_eq!(skills.len(), full["skills"].as_array().unwrap().len());
    for (s, f) in skills.iter().zip(full["skills"].as_array().unwrap()) {
        let keys: Vec<&str> = s.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(keys, ["path", "agents"]);
        assert_eq!(s["path"], f["path"]);
        let whole = f["agents"].as_array().unwrap();
        for (n, i) in s["agents"].as_array().unwrap().iter().enumerate() {
            let verdict = &table[i.as_u64().unwrap() as usize];
            let keys: Vec<&String> = verdict.as_object().unwrap().keys().collect();
            assert_eq!(keys, ["status"]);
            let w = &full["verdicts"][whole[n].as_u64().unwrap() as usize];
            assert_eq!(verdict["status"], w["status"]);
        }
    }
    // Reasons bring their tables; --fields implies --json; schema 1 prunes its own keys.
    let (r, _) = t.json(&["list", "--fields", "name,agents.reasons"]);
    assert!(r["rules"].is_array() && r["reasons"].is_array() && r.get("fields").is_none());
    // Values refer only to fields the output keeps (the skill's `name`, the agent's name).
    let refs = r["value_refs"].as_array().unwrap();
    let mut referenced = std::collections::BTreeSet::new();
    for list in r["reasons"].as_array().unwrap() {
        for reason in list.as_array().unwrap() {
            for v in reason["values"].as_array().unwrap() {
                let parts = v.as_array().cloned().unwrap_or_else(|| vec![v.clone()]);
                for k in parts.iter().filter_map(Value::as_u64) {
                    referenced.insert(refs[k as usize].as_str().unwrap().to_string());
                }
            }
        }
    }
    assert!(referenced.contains("agent.name"), "{referenced:?}");
    assert!(
        referenced.iter().all(|k| k == "name" || k == "agent.name"),
        "{referenced:?}"
    );
    let (old, _) = t.json(&["list", "--json-schema", "1", "--fields", "agents.reasons"]);
    assert_eq!(old["schema"], 1);
    let first = &old["skills"][0];
    assert_eq!(first.as_object().unwrap().len(), 1);
    assert!(first["agents"]["codex"]["reasons"][0]["message"].is_string());
    // An unknown field: exit 2, naming the valid ones; nothing on stdout.
    let o = t.run(&["list", "--json", "--fields", "path,agents.stauts"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("agents.stauts") && err.contains("agents.status") && err.contains("path"),
        "{err}"
    );
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("p");
    let home = tmp.path().join("h");
    std::fs::create_dir_all(&home).unwrap();
    // Enough skills that the JSON outgrows a pipe's buffer many times.
    for i in 0..400 {
        let d = project.join(format!(".agents/skills/skill-{i:03}"));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: skill-{i:03}\ndescription: Skill number {i} of the pipe test, with a sentence.\n---\n# S\n"),
        )
        .unwrap();
    }
    for args in [
        &["list", "--json"][..],
        &["list", "--json-schema", "1"],
        &["check", "--json", "--fail-on", "never"],
    ] {
        let mut child = bin()
            .args(args)
            .arg("--project")
            .arg(&project)
            .arg("--home")
            .arg(&home)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 64];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        // The read end is closed here (dropped above).
        let o = child.wait_with_output().unwrap();
        assert!(head.starts_with(b"{"), "{args:?}");
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(
            o.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn check_json_names_each_rule_once() {
    let t = Tree::demo();
    let (v1, bytes1) = t.json(&["check", "--json-schema", "1", "--fail-on", "never"]);
    let (v2, bytes2) = t.json(&["check", "--json", "--fail-on", "never"]);
    assert_eq!(v2["schema"], 2);
    for k in ["skills", "errors", "warnings", "infos", "agents", "groups"] {
        assert_eq!(v1[k], v2[k], "{k}");
    }
    let rules = v2["rules"].as_array().unwrap();
    let f1 = v1["findings"].as_array().unwrap();
    let f2 = v2["findings"].as_array().unwrap();
    assert_eq!(f1.len(), f2.len());
    assert!(!f1.is_empty());
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let unique: std::collections::BTreeSet<&str> = ids.iter().copied().collect();
    assert_eq!(ids.len(), unique.len(), "each rule once");
    for (a, b) in f1.iter().zip(f2) {
        assert!(b.get("source").is_none() && b.get("evidence").is_none());
        let mut pruned = a.clone();
        let o = pruned.as_object_mut().unwrap();
        let (source, evidence) = (o.remove("source").unwrap(), o.remove("evidence").unwrap());
        assert_eq!(&pruned, b);
        if source.is_null() {
            continue;
        }
        let rule = rules
            .iter()
            .find(|r| r["id"] == a["cause"]["rule"])
            .unwrap_or_else(|| panic!("no rule for {a}"));
        assert_eq!(rule["source"], source);
        assert_eq!(rule["evidence"], evidence);
    }
    assert!(bytes2 < bytes1, "{bytes2} vs {bytes1}");
}

#[test]
fn schema_4_is_the_default_3_is_kept_and_2_is_refused_with_the_migration() {
    let t = Tree::demo();
    let (v, _) = t.json(&["list", "--json"]);
    assert_eq!(v["schema"], 4);
    let (v, _) = t.json(&["list", "--json-schema", "4"]);
    assert_eq!(v["schema"], 4);
    let (v, _) = t.json(&["list", "--json-schema", "3"]);
    assert_eq!(v["schema"], 3);
    let o = t.run(&["list", "--json-schema", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("schema 2") && err.contains("--json-schema 3"),
        "{err}"
    );
}

/// Values holding a NUL character (YAML's `\0`), which the compact writer's placeholders for
/// table indices are made of, are written escaped and expand to what schema 1 says.
#[test]
fn values_with_nul_characters_expand_to_schema_1() {
    let skill =
        "---\nname: \"nul\\0name\"\ndescription: \"A NUL \\0 and a \\x01 here.\"\n---\n# Body\n";
    let mut spec = format!(
        "@@ project/.agents/skills/nul-name/SKILL.md\n{skill}@@ project/.claude/skills/nul-name/SKILL.md\n{skill}"
    );
    for i in 0..10 {
        spec += &format!(
            "@@ home/.agents/skills/plain-{i}/SKILL.md\n---\nname: plain-{i}\ndescription: Plain.\n---\n# Plain\n"
        );
    }
    let t = Tree::of(&spec);
    let (v1, _) = t.json(&["list", "--json-schema", "1"]);
    let o = t.run(&["list", "--json"]);
    assert!(!o.stdout.contains(&0), "a raw NUL byte in the output");
    let v2: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(expands_to_schema_1(&v1, &v2) >= 12 * 20);
    let values: Vec<&Value> = v2["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|l| l.as_array().unwrap())
        .flat_map(|r| r["values"].as_array().unwrap())
        .collect();
    assert!(
        values
            .iter()
            .any(|x| x.as_str().is_some_and(|s| s.contains('\0'))),
        "no reason value kept the NUL: {values:?}"
    );
}
