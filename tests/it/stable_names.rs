//! Stable names (exit codes, problem codes, quick-fix codes): the enums keep their strings, the
//! README's tables name every variant (a variant added without its row, or a row left behind,
//! fails here with the expected rows), and the command line checks them.

use skilltui::context::ExitCode;
use std::path::Path;
use strum::IntoEnumIterator;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// The table rows (`| … |` lines after the header and its rule) of the README section headed
/// `heading`.
fn table_under(readme: &str, heading: &str) -> Vec<String> {
    let start = readme
        .find(heading)
        .unwrap_or_else(|| panic!("README has no section {heading}"));
    readme[start..]
        .lines()
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(str::to_string)
        .collect()
}

fn assert_table(heading: &str, expected: Vec<String>) {
    let found = table_under(&readme(), heading);
    assert_eq!(
        found,
        expected,
        "the README's table under {heading} differs from the enum; expected rows:\n{}",
        expected.join("\n")
    );
}

#[test]
fn exit_code_table_matches_the_enum() {
    let rows = ExitCode::iter()
        .map(|c| format!("| {} | `{c}` | {} |", c.code(), c.meaning()))
        .collect();
    assert_table("### Exit codes", rows);
}

#[test]
fn exit_codes_are_the_process_statuses() {
    let pairs: Vec<(u8, &str)> = ExitCode::iter().map(|c| (u8::from(c), c.into())).collect();
    assert_eq!(pairs, [(0, "ok"), (1, "finding"), (2, "usage")]);
}

#[test]
fn help_ends_with_the_exit_codes() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let tail = &help[help
        .find("Exit status:")
        .expect("--help lists the exit status")..];
    for c in ExitCode::iter() {
        let line = format!("  {}  ", c.code());
        assert!(tail.contains(&line), "--help lacks exit status {c}: {tail}");
    }
}

/// The codes named in the first column of the rows under `heading`, in order (a row may name
/// several, `a`, `b`).
fn codes_in_first_column(heading: &str) -> Vec<String> {
    table_under(&readme(), heading)
        .iter()
        .flat_map(|row| {
            let first = row.split('|').nth(1).unwrap_or_default().to_string();
            first
                .split(',')
                .map(|c| c.trim().trim_matches('`').to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn problem_code_table_names_every_spec_code() {
    use skilltui::findings::Code;
    // The spec's problem codes follow the verdict codes in `Code::all`.
    let spec: Vec<String> = Code::all()
        .skip_while(|c| !matches!(c, Code::Spec(_)))
        .map(|c| c.as_str().to_string())
        .collect();
    assert_eq!(
        codes_in_first_column("Problem codes are stable"),
        spec,
        "README's problem code table and findings::Code differ"
    );
}

#[test]
fn fix_table_names_every_fix_in_order() {
    use skilltui::actions::FixCode;
    let codes: Vec<String> = FixCode::iter().map(|c| c.as_str().to_string()).collect();
    assert_eq!(
        codes_in_first_column("Quick fixes (`fix --only CODE`)"),
        codes,
        "README's quick fix table and actions::FixCode differ"
    );
}

#[test]
fn code_strings_are_unchanged() {
    use skilltui::findings::Code;
    let all: Vec<&str> = Code::all().map(Code::as_str).collect();
    assert_eq!(
        all,
        [
            "shadowed",
            "rejected",
            "disabled",
            "unknown",
            "not-found",
            "invisible",
            "root-not-scanned",
            "spec-other",
            "path-missing",
            "not-a-directory",
            "skill-md-missing",
            "skill-md-lowercase",
            "file-too-large",
            "file-not-utf8",
            "file-binary",
            "file-unreadable",
            "frontmatter-missing",
            "frontmatter-unclosed",
            "yaml-invalid",
            "frontmatter-not-mapping",
            "field-unexpected",
            "name-missing",
            "name-not-string",
            "name-empty",
            "name-too-long",
            "name-not-lowercase",
            "name-hyphen-edge",
            "name-consecutive-hyphens",
            "name-invalid-chars",
            "name-directory-mismatch",
            "description-missing",
            "description-not-string",
            "description-empty",
            "description-too-long",
            "compatibility-not-string",
            "compatibility-too-long",
            "compatibility-empty",
            "metadata-not-map",
            "allowed-tools-not-string",
            "license-not-string",
            "reference-missing",
        ]
    );
    for c in Code::all() {
        assert_eq!(c.to_string(), c.as_str());
        assert_eq!(Code::parse(c.as_str()), Some(c));
        assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
    }
    // Findings sort by code: the derived order is `Code::all`'s.
    let all: Vec<Code> = Code::all().collect();
    assert!(all.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn fix_only_rejects_an_unknown_code_and_lists_the_codes() {
    use skilltui::actions::FixCode;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(["fix", "some-skill", "--only", "quote-evrything", "--demo"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(i32::from(ExitCode::Usage.code())));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("quote-evrything"), "{err}");
    for c in FixCode::iter() {
        assert!(err.contains(c.as_str()), "the error lacks {c}: {err}");
    }
}

#[test]
fn problem_codes_keep_their_strings_and_each_is_a_finding_code() {
    use skilltui::findings::Code;
    use skilltui::spec::ProblemCode;
    let all: Vec<&str> = ProblemCode::all().map(ProblemCode::as_str).collect();
    assert_eq!(
        all,
        [
            "path-missing",
            "not-a-directory",
            "skill-md-missing",
            "skill-md-lowercase",
            "file-too-large",
            "file-not-utf8",
            "file-binary",
            "file-unreadable",
            "frontmatter-missing",
            "frontmatter-unclosed",
            "yaml-invalid",
            "frontmatter-not-mapping",
            "field-unexpected",
            "name-missing",
            "name-not-string",
            "name-empty",
            "name-too-long",
            "name-not-lowercase",
            "name-hyphen-edge",
            "name-consecutive-hyphens",
            "name-invalid-chars",
            "name-directory-mismatch",
            "description-missing",
            "description-not-string",
            "description-empty",
            "description-too-long",
            "compatibility-not-string",
            "compatibility-too-long",
            "compatibility-empty",
            "metadata-not-map",
            "allowed-tools-not-string",
            "license-not-string",
            "reference-missing",
        ]
    );
    for p in ProblemCode::all() {
        assert_eq!(p.to_string(), p.as_str());
        assert_eq!(p.as_str().parse::<ProblemCode>(), Ok(p));
        assert_eq!(serde_json::to_value(p).unwrap(), p.as_str());
        assert!(p == p.as_str());
        // Every problem is a finding of its own code, never the catch-all.
        assert_eq!(Code::parse(p.as_str()), Some(Code::Spec(p)), "{p}");
        assert_eq!(Code::from(p).as_str(), p.as_str());
    }
}

#[test]
fn refusal_kinds_keep_their_strings() {
    use skilltui::actions::RefusalKind;
    let all: Vec<&str> = RefusalKind::iter().map(<&str>::from).collect();
    assert_eq!(
        all,
        [
            "cancelled",
            "not-found",
            "ambiguous",
            "outside-roots",
            "conflict",
            "changed",
            "unchanged",
            "invalid",
            "no-plan",
            "io",
        ]
    );
    // Every refusal is a finding (exit 1), whatever its kind.
    for k in RefusalKind::iter() {
        assert_eq!(skilltui::context::refusal_exit(k), ExitCode::Finding, "{k}");
    }
}

#[test]
fn derived_name_tables_keep_their_strings() {
    use skilltui::actions::Mode;
    use skilltui::findings::Severity;
    use skilltui::skill::YamlType;
    let found: Vec<&str> = Severity::iter().map(Severity::as_str).collect();
    assert_eq!(found, ["error", "warning", "info"]);
    for s in Severity::iter() {
        assert_eq!(Severity::parse(s.as_str()), Some(s));
        assert_eq!(s.to_string(), s.as_str());
        assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
    }
    assert_eq!(Severity::parse("notice"), None);
    let found: Vec<&str> = skilltui::spec::Severity::iter()
        .map(skilltui::spec::Severity::as_str)
        .collect();
    assert_eq!(found, ["error", "warning"]);
    for s in skilltui::spec::Severity::iter() {
        assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
    }
    let found: Vec<&str> = Mode::iter().map(Mode::verb).collect();
    assert_eq!(found, ["move", "copy", "link"]);
    let found: Vec<&str> = YamlType::iter().map(YamlType::as_str).collect();
    assert_eq!(
        found,
        [
            "null", "boolean", "integer", "float", "string", "sequence", "mapping"
        ]
    );
    for t in YamlType::iter() {
        assert_eq!(t.to_string(), t.as_str());
    }
}

/// The model's and the resolver's name tables (derived with strum) keep the strings that the
/// JSON, the text output and the agent models use.
#[test]
fn model_and_verdict_names_are_unchanged() {
    use skilltui::agents::model::{Handling, Scope, Unit};
    use skilltui::resolve::Status;
    let scopes: Vec<&str> = [Scope::Project, Scope::User, Scope::System, Scope::Other]
        .into_iter()
        .map(Scope::as_str)
        .collect();
    assert_eq!(scopes, ["project", "user", "system", "other"]);
    let units: Vec<&str> = [Unit::CodePoints, Unit::Utf16, Unit::Bytes]
        .into_iter()
        .map(Unit::as_str)
        .collect();
    assert_eq!(units, ["code points", "UTF-16 units", "bytes"]);
    let handling: Vec<&str> = [
        Handling::Read,
        Handling::Ignored,
        Handling::Unsupported,
        Handling::Unknown,
    ]
    .into_iter()
    .map(Handling::as_str)
    .collect();
    assert_eq!(handling, ["read", "ignored", "unsupported", "unknown"]);
    assert_eq!(Status::Visible.as_str(), "visible");
    assert_eq!(Status::NotFound.as_str(), "not-found");
    assert_eq!(
        skilltui::oracle::verify::Found::Path.as_str(),
        "PATH",
        "the oracle's report names a command found on PATH so"
    );
}
