//! The unit tests of `skilltui::skill::body` (`src/skill/body.rs`).

use skilltui::skill::body::*;

const FOLDERS: [&str; 4] = ["scripts", "references", "assets", "examples"];

fn refs(body: &str) -> Vec<(String, RefKind)> {
    references(body, 1, &|f| FOLDERS.contains(&f))
        .into_iter()
        .map(|r| (r.target, r.kind))
        .collect()
}

fn targets(body: &str) -> Vec<String> {
    refs(body).into_iter().map(|r| r.0).collect()
}

#[test]
fn links_images_and_definitions_are_references() {
    let body = "# T\nSee [the guide](references/guide.md#setup) and ![logo](assets/logo.png \"Logo\").\nAlso [notes](NOTES.md), [up](../other/SKILL.md) and [sp](<docs/a b.md>).\n[def]: references/def.md\n";
    let r = references(body, 5, &|f| FOLDERS.contains(&f));
    assert_eq!(
        r.iter().map(|r| r.target.as_str()).collect::<Vec<_>>(),
        [
            "references/guide.md",
            "assets/logo.png",
            "NOTES.md",
            "../other/SKILL.md",
            "references/def.md"
        ]
    );
    assert_eq!(r[0].line, 6);
    assert!(r.iter().all(|r| r.kind == RefKind::Link));
    // A link to a project folder is still a link the body makes.
    assert_eq!(targets("[auth](src/lib/auth.ts)"), ["src/lib/auth.ts"]);
}

#[test]
fn paths_under_a_folder_the_skill_has() {
    let body = "Run `python scripts/extract.py FILE` and read references/api.md, then ./assets/logo.png.\n";
    assert_eq!(
        refs(body),
        [
            ("scripts/extract.py".to_string(), RefKind::Path),
            ("references/api.md".to_string(), RefKind::Path),
            ("./assets/logo.png".to_string(), RefKind::Path),
        ]
    );
    // A folder the skill does not have: the user's project.
    assert!(targets("Edit `src/lib/auth.ts` and templates/x.html and docs/codebase/.").is_empty());
    assert!(references("Run scripts/x.sh", 1, &|_| false).is_empty());
    // Words joined by a slash, or a name cut at a space, are no file.
    assert!(targets("regenerate scripts/references, `references/Skill Card.txt`").is_empty());
    assert_eq!(targets("see references/sub/ now"), ["references/sub/"]);
    // An `examples/` folder the skill has is not a placeholder.
    assert_eq!(targets("See examples/basic.md."), ["examples/basic.md"]);
}

#[test]
fn skill_dir_variables_anywhere() {
    let body = "Run ${CLAUDE_SKILL_DIR}/scripts/ok.sh.\n```bash\npython $SKILL_DIR/tools/run.py --x\npython {baseDir}/scripts/gen.py\n<skill_dir>/lib/x.py\n${SKILL_ROOT:-.}/bin/y\n```\n";
    assert_eq!(
        refs(body),
        [
            ("scripts/ok.sh".to_string(), RefKind::SkillDir),
            ("tools/run.py".to_string(), RefKind::SkillDir),
            ("scripts/gen.py".to_string(), RefKind::SkillDir),
            ("lib/x.py".to_string(), RefKind::SkillDir),
            ("bin/y".to_string(), RefKind::SkillDir),
        ]
    );
    // Other variables are not the skill folder; placeholders after it are no file.
    assert!(
        targets(
            "$SKILLS_DIR/a/b.md ${CLAUDE_PLUGIN_ROOT}/x/y.sh ${BASE}/q/r.md $HOME/scripts/x.sh"
        )
        .is_empty()
    );
    assert!(
        targets("{baseDir}/scripts/<script-name> ${CLAUDE_SKILL_DIR}/scripts/{name}.py").is_empty()
    );
    for v in [
        "CLAUDE_SKILL_DIR",
        "SKILL_DIR",
        "skill-dir",
        "baseDir",
        "SKILL_ROOT",
        "SKILL_BASE_DIR",
        "MY_SKILL_PATH",
    ] {
        assert!(is_skill_dir_variable(v), "{v}");
    }
    for v in [
        "SKILLS_DIR",
        "CLAUDE_PLUGIN_ROOT",
        "BASE",
        "HOME",
        "TAO_SKILL_BANK_PATH",
        "X_SKILL_BASE_DIR",
        "MY_BASE_DIR",
    ] {
        assert!(!is_skill_dir_variable(v), "{v}");
    }
}

#[test]
fn code_blocks_keep_only_block_paths() {
    let body = "Intro.\n```ts\n// src/app/page.tsx\n[x](references/in-fence.md)\npython scripts/run.py\n```\n~~~\nreferences/tilde.md\n~~~\n\n    scripts/indented.sh\n    [y](references/indented.md)\n\nAfter.\n";
    assert_eq!(
        refs(body),
        [
            ("scripts/run.py".to_string(), RefKind::Block),
            ("references/tilde.md".to_string(), RefKind::Block),
            ("scripts/indented.sh".to_string(), RefKind::Block),
        ]
    );
    assert!(!RefKind::Block.missing_is_reported());
    // An unclosed fence runs to the end.
    assert_eq!(refs("```\n[a](references/a.md)\n"), []);
    // Indented list content is not a code block.
    assert_eq!(
        refs("- item\n\n    see [b](references/b.md)\n"),
        [("references/b.md".to_string(), RefKind::Link)]
    );
    // A link inside an inline code span is not a link.
    assert!(targets("Write `[x](notes/y.md)` in the file.").is_empty());
}

#[test]
fn never_urls_placeholders_versions() {
    let body = "\
[site](https://x.y/a/b.md) [mail](mailto:a@b.c) [top](#usage) [abs](/etc/x.md) [home](~/x.md)
[file](file:///tmp/a.md) [ph](path/to/file.md) [angle](<your-file>.md) [tpl]({name}/SKILL.md)
[ex](example/SKILL.md) [yours](your-skill/SKILL.md) [dots](references/.../x.md)
[ver](4.6/4.7/4.8) [win](C:/x/y.md)
Versions 4.6/4.7/4.8, scripts/<name>.py, scripts/*.sh, references/your-topic.md, assets/path/to/x.png.
See https://example.com/scripts/x.sh and git@host:scripts/y.sh.
";
    assert!(targets(body).is_empty(), "{:?}", targets(body));
}

use proptest::prelude::*;

fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("```".to_string()),
        Just("~~~".to_string()),
        Just("    ".to_string()),
        Just("\n".to_string()),
        Just("\t".to_string()),
        Just("`".to_string()),
        Just("](".to_string()),
        Just("![".to_string()),
        Just("[x]: ".to_string()),
        Just(")".to_string()),
        Just("${CLAUDE_SKILL_DIR}/".to_string()),
        Just("$SKILL_DIR".to_string()),
        Just("{baseDir}".to_string()),
        Just("<skill_dir>".to_string()),
        Just("${".to_string()),
        Just("scripts/".to_string()),
        Just("references/a.md".to_string()),
        Just("../".to_string()),
        Just("./".to_string()),
        Just("- ".to_string()),
        Just("1. ".to_string()),
        Just("é/ü.md".to_string()),
        "[a-z./<>{}$#:_-]{0,8}",
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    /// Any Markdown-ish text: no panic, at most MAX_REFERENCES, every target relative,
    /// distinct, without anchors, and lines inside the body.
    #[test]
    fn any_body(parts in proptest::collection::vec(fragment(), 0..40)) {
        let body = parts.concat();
        let lines = body.lines().count();
        let r = references(&body, 3, &|f| FOLDERS.contains(&f));
        prop_assert!(r.len() <= MAX_REFERENCES);
        for (i, x) in r.iter().enumerate() {
            prop_assert!(!x.target.is_empty() && !is_external(&x.target), "{:?}", x);
            prop_assert!(!x.target.contains('#'), "{:?}", x);
            prop_assert!(x.line >= 3 && x.line < 3 + lines.max(1), "{:?}", x);
            prop_assert!(r[..i].iter().all(|y| y.target != x.target));
        }
    }
}

#[test]
fn at_most_max_references() {
    let body: String = (0..150)
        .map(|i| format!("[r](references/r{i}.md)\n"))
        .collect();
    assert_eq!(targets(&body).len(), MAX_REFERENCES);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    /// The scanner cuts a body into the lines `str::lines` gives, and tells code from prose
    /// with its shortcut for plain lines exactly as from every line's indent, fence and list
    /// marks.
    #[test]
    fn lines_and_code_as_the_full_rules(
        parts in proptest::collection::vec(
            prop_oneof![fragment(), Just("\r\n".to_string()), Just("\r".to_string()),
                Just("\u{a0}".to_string()), Just("\u{b}".to_string()), Just("Text".to_string())],
            0..60,
        )
    ) {
        let body = parts.concat();
        let shortcut = code_lines(&body, true);
        let full = code_lines(&body, false);
        let cut: Vec<&str> = shortcut.iter().map(|&(l, _)| l).collect();
        prop_assert_eq!(cut, body.lines().collect::<Vec<_>>());
        prop_assert_eq!(shortcut, full);
        // Each line marked with whether it holds a `/` and a `]`, as a search of it says.
        let marked: Vec<(&str, bool, bool)> = body
            .lines()
            .map(|l| (l, l.contains('/'), l.contains(']')))
            .collect();
        prop_assert_eq!(cut_lines(&body), marked);
    }

    /// A path's segments are matched against the placeholder words as bytes in ASCII case,
    /// exactly as their lowercased copies compare (the plain definition, in the test), in any
    /// script and letter case.
    #[test]
    fn placeholders_as_their_lowercased_segments(
        parts in proptest::collection::vec(
            prop_oneof![Just("/".to_string()), Just("./".to_string()), Just(".".to_string()),
                Just("PATH".to_string()), Just("path".to_string()), Just("To".to_string()),
                Just("to-".to_string()), Just("Your-".to_string()), Just("YOUR_".to_string()),
                Just("yourSkill".to_string()), Just("My-Skill".to_string()), Just("XxX".to_string()),
                Just("PlaceHolder".to_string()), Just("Foo".to_string()), Just("bAr".to_string()),
                Just("baz".to_string()), Just("your".to_string()), Just("SOME".to_string()),
                Just("Example".to_string()), Just("examples".to_string()), Just("İ".to_string()),
                Just("ſ".to_string()), Just("K".to_string()), Just("x".to_string()),
                Just("scripts".to_string()), Just("a.md".to_string())],
            0..8,
        ),
        has_first in any::<bool>(),
    ) {
        let t = parts.concat();
        let segs: Vec<String> = t
            .split('/')
            .filter(|s| !s.is_empty() && *s != ".")
            .map(str::to_ascii_lowercase)
            .collect();
        let plain = segs
            .windows(2)
            .any(|w| w[0] == "path" && (w[1] == "to" || w[1].starts_with("to-")))
            || segs.iter().any(|s| {
                ["your-", "your_", "yourskill", "my-skill", "xxx", "placeholder"]
                    .iter()
                    .any(|w| s.starts_with(w))
                    || matches!(s.as_str(), "foo" | "bar" | "baz" | "your" | "some")
            })
            || !has_first && segs.first().is_some_and(|s| s.starts_with("example"));
        prop_assert_eq!(placeholder_named(&t, has_first), plain, "{:?}", t);
    }

    /// A variable name is told to stand for the skill folder from its last letters as from
    /// its whole lowercased copy, on any name.
    #[test]
    fn skill_dir_variables_as_their_lowercased_copies(
        parts in proptest::collection::vec(
            prop_oneof![Just("SKILL".to_string()), Just("skill".to_string()), Just("_".to_string()),
                Just("-".to_string()), Just("Dir".to_string()), Just("ROOT".to_string()),
                Just("path".to_string()), Just("Base".to_string()), Just("CLAUDE".to_string()),
                Just("s".to_string()), Just("İ".to_string()), Just("K".to_string()), "[a-zA-Z_-]{0,3}"],
            0..7,
        )
    ) {
        let name = parts.concat();
        prop_assert_eq!(
            is_skill_dir_variable(&name),
            is_skill_dir_variable_by_chars(&name),
            "{:?}", name
        );
    }

    /// The run of path characters around a `/`, read byte by byte while ASCII, is the run a
    /// char-by-char reading of the whole line gives, in any script.
    #[test]
    fn path_runs_as_read_char_by_char(
        parts in proptest::collection::vec(
            prop_oneof![fragment(), Just("é".to_string()), Just("日本/".to_string()),
                Just("\u{300}".to_string()), Just(" ".to_string()), Just("a/b.md".to_string()),
                Just("v@2+x_y".to_string()), Just("%!:".to_string())],
            0..20,
        )
    ) {
        let line: String = parts.concat().replace(['\n', '\r'], " ");
        let path_char = |c: char| c.is_alphanumeric() || "_-./+@".contains(c);
        for (at, _) in line.match_indices('/') {
            let start = line[..at]
                .char_indices()
                .rfind(|&(_, c)| !path_char(c))
                .map_or(0, |(j, c)| j + c.len_utf8());
            let end = line[at..]
                .char_indices()
                .find(|&(_, c)| !path_char(c))
                .map_or(line.len(), |(j, _)| at + j);
            prop_assert_eq!(path_run_at(&line, at), (start, end), "{:?} at {}", line, at);
        }
    }
}

#[test]
fn lines_are_marked_with_their_slashes_and_brackets() {
    assert_eq!(
        cut_lines("a/b\r\n[x]\n\nplain\r\nlast]/\r"),
        [
            ("a/b", true, false),
            ("[x]", false, true),
            ("", false, false),
            ("plain", false, false),
            ("last]/\r", true, true)
        ]
    );
    assert!(cut_lines("").is_empty());
    assert_eq!(cut_lines("\n"), [("", false, false)]);
}

#[test]
fn code_lines_shortcut_agrees_on_fences_lists_and_indents() {
    let body = "Intro\n```\ncode /x\nstill\n```\n- item\n\n    indented in list\nText\n\n    code\n~~~\nx\n~~~\r\nend\r";
    let shortcut = code_lines(body, true);
    assert_eq!(shortcut, code_lines(body, false));
    let code: Vec<&str> = shortcut
        .iter()
        .filter(|&&(_, c)| c)
        .map(|&(l, _)| l)
        .collect();
    assert_eq!(
        code,
        [
            "```", "code /x", "still", "```", "    code", "~~~", "x", "~~~"
        ]
    );
    // A bare `\r` at the end is no line end (as `str::lines`).
    assert_eq!(shortcut.last().map(|&(l, _)| l), Some("end\r"));
}
