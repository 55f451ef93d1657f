//! Every problem code of `skilltui validate`, each from a fixture built in a temp dir, through
//! the library API and the command line (text, JSON, exit status).

use skilltui::spec::{self, Severity};
use std::path::{Path, PathBuf};
use std::process::Command;

fn skill(tmp: &Path, dir: &str, md: &str) -> PathBuf {
    let d = tmp.join(dir);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("SKILL.md"), md).unwrap();
    d
}

fn fm(fields: &str) -> String {
    format!("---\n{fields}\n---\n# Body\n")
}

/// (folder, SKILL.md, expected code, severity, expected line)
fn cases() -> Vec<(&'static str, String, &'static str, Severity, Option<usize>)> {
    use Severity::{Error as E, Warning as W};
    let long = "a".repeat(65);
    vec![
        (
            "f1",
            "# no frontmatter".into(),
            "frontmatter-missing",
            E,
            Some(1),
        ),
        (
            "f2",
            "\u{feff}".to_string() + &fm("name: f2\ndescription: d"),
            "frontmatter-missing",
            E,
            Some(1),
        ),
        (
            "f3",
            "\n".to_string() + &fm("name: f3\ndescription: d"),
            "frontmatter-missing",
            E,
            Some(1),
        ),
        (
            "f4",
            "---\nname: f4\ndescription: d\n".into(),
            "frontmatter-unclosed",
            E,
            Some(1),
        ),
        (
            "f5",
            fm("name: f5\ndescription: [unclosed"),
            "yaml-invalid",
            E,
            Some(3),
        ),
        (
            "f6",
            fm("name: f6\ndescription: Use when: x"),
            "yaml-invalid",
            E,
            Some(3),
        ),
        ("f7", fm("- a\n- b"), "frontmatter-not-mapping", E, Some(2)),
        (
            "f8",
            "---\n---\nbody".into(),
            "frontmatter-not-mapping",
            E,
            Some(2),
        ),
        (
            "f9",
            fm("name: f9\ndescription: d\nversion: 1"),
            "field-unexpected",
            E,
            Some(4),
        ),
        ("f10", fm("description: d"), "name-missing", E, None),
        (
            "f11",
            fm("name: 123\ndescription: d"),
            "name-not-string",
            E,
            Some(2),
        ),
        (
            "f12",
            fm("name: \"  \"\ndescription: d"),
            "name-empty",
            E,
            Some(2),
        ),
        ("f13", fm("name:\ndescription: d"), "name-empty", E, Some(2)),
        (
            Box::leak(long.clone().into_boxed_str()),
            fm(&format!("name: {long}\ndescription: d")),
            "name-too-long",
            E,
            Some(2),
        ),
        (
            "F15",
            fm("name: F15\ndescription: d"),
            "name-not-lowercase",
            E,
            Some(2),
        ),
        (
            "-f16",
            fm("name: -f16\ndescription: d"),
            "name-hyphen-edge",
            E,
            Some(2),
        ),
        (
            "f--17",
            fm("name: f--17\ndescription: d"),
            "name-consecutive-hyphens",
            E,
            Some(2),
        ),
        (
            "f_18",
            fm("name: f_18\ndescription: d"),
            "name-invalid-chars",
            E,
            Some(2),
        ),
        (
            "f19",
            fm("name: other\ndescription: d"),
            "name-directory-mismatch",
            E,
            Some(2),
        ),
        ("f20", fm("name: f20"), "description-missing", E, None),
        (
            "f21",
            fm("name: f21\ndescription: [a, b]"),
            "description-not-string",
            E,
            Some(3),
        ),
        (
            "f22",
            fm("name: f22\ndescription: ''"),
            "description-empty",
            E,
            Some(3),
        ),
        (
            "f23",
            fm(&format!("name: f23\ndescription: {}", "é".repeat(1025))),
            "description-too-long",
            E,
            Some(3),
        ),
        (
            "f24",
            fm("name: f24\ndescription: d\ncompatibility: {a: b}"),
            "compatibility-not-string",
            E,
            Some(4),
        ),
        (
            "f25",
            fm(&format!(
                "name: f25\ndescription: d\ncompatibility: {}",
                "x".repeat(501)
            )),
            "compatibility-too-long",
            E,
            Some(4),
        ),
        (
            "f26",
            fm("name: f26\ndescription: d\nmetadata: hello"),
            "metadata-not-map",
            W,
            Some(4),
        ),
        (
            "f27",
            fm("name: f27\ndescription: d\nmetadata:\n  version: 1.0"),
            "metadata-not-map",
            W,
            Some(5),
        ),
        (
            "f28",
            fm("name: f28\ndescription: d\nallowed-tools:\n  - Read\n  - Bash"),
            "allowed-tools-not-string",
            W,
            Some(5),
        ),
        (
            "f29",
            fm("name: f29\ndescription: d\ncompatibility: ''"),
            "compatibility-empty",
            W,
            Some(4),
        ),
        (
            "f30",
            fm("name: f30\ndescription: d\nname: f30"),
            "yaml-invalid",
            E,
            Some(4),
        ),
    ]
}

#[test]
fn every_code_from_a_fixture() {
    let tmp = tempfile::tempdir().unwrap();
    for (dir, md, code, severity, line) in cases() {
        let d = skill(tmp.path(), dir, &md);
        let r = spec::validate_path(&d);
        let p = r
            .problems
            .iter()
            .find(|p| p.code == code)
            .unwrap_or_else(|| panic!("{dir}: expected {code}, got {:?}", r.problems));
        assert_eq!(p.severity, severity, "{dir}: {code}");
        assert_eq!(p.line, line, "{dir}: {code} line");
        assert_eq!(r.valid(), severity != Severity::Error, "{dir}: validity");
    }
}

#[test]
fn hints_name_the_cause() {
    let tmp = tempfile::tempdir().unwrap();
    let bom = skill(
        tmp.path(),
        "bom",
        &("\u{feff}".to_string() + &fm("name: bom\ndescription: d")),
    );
    let blank = skill(
        tmp.path(),
        "blank",
        &("\n".to_string() + &fm("name: blank\ndescription: d")),
    );
    let colon = skill(
        tmp.path(),
        "colon",
        &fm("name: colon\ndescription: Use when: x"),
    );
    let msg = |d: &Path| spec::validate_path(d).problems[0].message.clone();
    assert!(msg(&bom).contains("byte order mark"), "{}", msg(&bom));
    assert!(msg(&blank).contains("blank line"), "{}", msg(&blank));
    assert!(msg(&colon).contains("must be quoted"), "{}", msg(&colon));
}

#[test]
fn file_level_codes() {
    let tmp = tempfile::tempdir().unwrap();
    // path-missing, not-a-directory, skill-md-missing
    let r = spec::validate_path(&tmp.path().join("nope"));
    assert_eq!(r.problems[0].code, "path-missing");
    let f = tmp.path().join("file.txt");
    std::fs::write(&f, "x").unwrap();
    assert_eq!(spec::validate_path(&f).problems[0].code, "not-a-directory");
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert_eq!(
        spec::validate_path(&empty).problems[0].code,
        "skill-md-missing"
    );
    // A skills root: the hint says so.
    let root = tmp.path().join("root");
    skill(&root, "a", &fm("name: a\ndescription: d"));
    let r = spec::validate_path(&root);
    assert!(
        r.problems[0].message.contains("skills root"),
        "{:?}",
        r.problems
    );
    // file-too-large
    let big = tmp.path().join("big");
    std::fs::create_dir(&big).unwrap();
    std::fs::write(big.join("SKILL.md"), vec![b'a'; 1024 * 1024 + 1]).unwrap();
    assert_eq!(spec::validate_path(&big).problems[0].code, "file-too-large");
    // file-not-utf8 with its line
    let latin = tmp.path().join("latin");
    std::fs::create_dir(&latin).unwrap();
    std::fs::write(
        latin.join("SKILL.md"),
        b"---\nname: latin\ndescription: caf\xe9\n---\n",
    )
    .unwrap();
    let r = spec::validate_path(&latin);
    assert_eq!(r.problems[0].code, "file-not-utf8");
    assert_eq!(r.problems[0].line, Some(3));
    // file-binary
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::write(bin.join("SKILL.md"), b"---\nname: bin\0\n---\n").unwrap();
    assert_eq!(spec::validate_path(&bin).problems[0].code, "file-binary");
    // A SKILL.md path is accepted in place of its folder; a lowercase skill.md warns.
    let ok = skill(tmp.path(), "ok", &fm("name: ok\ndescription: d"));
    assert!(spec::validate_path(&ok.join("SKILL.md")).valid());
    let lower = tmp.path().join("lower");
    std::fs::create_dir(&lower).unwrap();
    std::fs::write(lower.join("skill.md"), fm("name: lower\ndescription: d")).unwrap();
    let r = spec::validate_path(&lower);
    if r.skill_md.as_ref().unwrap().ends_with("skill.md") {
        assert!(r.valid());
        assert_eq!(r.problems[0].code, "skill-md-lowercase");
    }
}

#[test]
fn yaml_1_2_where_skills_ref_is_strictyaml() {
    // Flow style, anchors and tags are valid YAML 1.2; skills-ref's strictyaml rejects them.
    let tmp = tempfile::tempdir().unwrap();
    let d = skill(
        tmp.path(),
        "flow",
        &fm("name: &n flow\ndescription: !!str A skill\nmetadata: {author: me, alias: *n}"),
    );
    let r = spec::validate_path(&d);
    assert!(r.valid(), "{:?}", r.problems);
    assert!(r.problems.is_empty(), "{:?}", r.problems);
}

#[test]
fn alias_bomb_is_a_bounded_error() {
    let mut y = String::from(
        "name: bomb\ndescription: d\nmetadata:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n",
    );
    for i in 1..12 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        y.push_str(&format!("  a{i}: &a{i} [{refs}]\n"));
    }
    let tmp = tempfile::tempdir().unwrap();
    let d = skill(tmp.path(), "bomb", &fm(&y));
    let r = spec::validate_path(&d);
    assert_eq!(r.problems[0].code, "yaml-invalid");
    assert!(
        r.problems[0].message.contains("alias"),
        "{}",
        r.problems[0].message
    );
}

fn skilltui(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn cli_text_json_and_exit_status() {
    let tmp = tempfile::tempdir().unwrap();
    let good = skill(tmp.path(), "good", &fm("name: good\ndescription: d"));
    let bad = skill(tmp.path(), "bad", &fm("name: Bad\ndescription: d"));
    let g = good.to_str().unwrap();
    let b = bad.to_str().unwrap();

    let (code, out, _) = skilltui(&["validate", g]);
    assert_eq!(code, 0);
    assert_eq!(out, format!("{g}: ok\n"));

    let (code, out, _) = skilltui(&["validate", g, b]);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!("{b}/SKILL.md:2:7: error[name-not-lowercase]: ")),
        "{out}"
    );
    assert!(out.contains("2 checked: 1 valid, 1 invalid"), "{out}");

    let (code, out, _) = skilltui(&["validate", "--json", g, b]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["path"], g);
    assert_eq!(v[0]["valid"], true);
    assert_eq!(v[0]["problems"].as_array().unwrap().len(), 0);
    assert_eq!(v[1]["valid"], false);
    let p = &v[1]["problems"][0];
    assert_eq!(p["code"], "name-not-lowercase");
    assert_eq!(p["severity"], "error");
    assert_eq!(p["line"], 2);
    assert!(p["message"].is_string());

    let (code, _, err) = skilltui(&["validate"]);
    assert_eq!(code, 2);
    assert!(err.contains("PATH"), "{err}");
    let (code, _, _) = skilltui(&["validate", "--bogus", g]);
    assert_eq!(code, 2);
}

#[test]
fn cli_text_never_carries_escape_sequences() {
    let tmp = tempfile::tempdir().unwrap();
    let d = skill(
        tmp.path(),
        "evil",
        &fm("name: \"evil\\e]52;c;aGk=\\a\\e[2J\\u202e\"\ndescription: d"),
    );
    let (code, out, _) = skilltui(&["validate", d.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{7}') && !out.contains('\u{202e}'),
        "{out:?}"
    );
    assert!(out.contains("\\u{1b}]52"), "{out}");
    // JSON keeps the original text, escaped by JSON.
    let (_, json, _) = skilltui(&["validate", "--json", d.to_str().unwrap()]);
    assert!(!json.contains('\u{1b}'));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let msgs: Vec<&str> = v[0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["message"].as_str().unwrap())
        .collect();
    assert!(msgs.iter().any(|m| m.contains('\u{1b}')), "{msgs:?}");
}
