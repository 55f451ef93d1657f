//! Skill trees for the oracle: targeted cases (one per model rule or group of rules) and
//! randomized trees from a seed.
//!
//! A tree is written under a fresh base folder. Paths in a case are relative to that base: the
//! project (the agent's cwd) is usually `w/project` with `w/project/.git`, the home `home`.
//! Variable values may use `{base}`.

use super::Case;

impl Case {
    fn new(name: &str) -> Case {
        Case {
            name: name.to_string(),
            random: false,
            spec: "@@ mkdir w/project/.git\n".to_string(),
            symlinks: Vec::new(),
            cwd: "w/project".into(),
            home: "home".into(),
            // Gemini CLI reads project skills only in a trusted folder: the cases trust theirs
            // (the gemini-trust-* cases and a share of the random trees do not).
            vars: vec![("GEMINI_CLI_TRUST_WORKSPACE".into(), "true".into())],
            agents: None,
            real_git: true,
        }
    }

    fn add(&mut self, block: String) -> &mut Case {
        self.spec.push_str(&block);
        self
    }

    /// A skill folder `dir` (relative to the base) with the given frontmatter lines.
    fn skill(&mut self, dir: &str, front: &str) -> &mut Case {
        self.add(skill_file(&format!("{dir}/SKILL.md"), front))
    }

    /// A standard skill named after its folder.
    fn std(&mut self, dir: &str) -> &mut Case {
        let name = dir.rsplit('/').next().unwrap_or(dir).to_string();
        self.skill(
            dir,
            &format!("name: {name}\ndescription: Skill {name} for tests."),
        )
    }

    fn link(&mut self, link: &str, target: &str) -> &mut Case {
        self.symlinks.push((link.into(), target.into()));
        self
    }
}

fn skill_file(path: &str, front: &str) -> String {
    format!("@@ {path}\n---\n{front}\n---\n# Body\n\nBody text of the skill.\n")
}

/// Every project-level root folder any of the five agents scans (or is known not to).
pub const PROJECT_ROOTS: [&str; 9] = [
    ".agents/skills",
    ".claude/skills",
    ".github/skills",
    ".codex/skills",
    ".opencode/skills",
    ".opencode/skill",
    ".pi/skills",
    ".claude/skill",
    ".cursor/skills",
];

/// Every user-level root folder (relative to home).
pub const HOME_ROOTS: [&str; 10] = [
    ".agents/skills",
    ".claude/skills",
    ".codex/skills",
    ".copilot/skills",
    ".config/opencode/skills",
    ".config/opencode/skill",
    ".opencode/skills",
    ".pi/agent/skills",
    ".github/skills",
    ".gemini/config/skills",
];

fn slug(root: &str) -> String {
    root.trim_start_matches('.')
        .replace(['/', '.'], "-")
        .replace("-skills", "")
        .replace("-skill", "-s1")
}

/// The targeted cases: one or a few per rule of the models.
pub fn targeted() -> Vec<Case> {
    let mut v = Vec::new();
    walk_cases(&mut v);
    ignore_file_cases(&mut v);
    link_and_collision_cases(&mut v);
    frontmatter_cases(&mut v);
    root_file_cases(&mut v);
    name_and_env_cases(&mut v);
    plugin_cases(&mut v);

    v.extend(new_agent_cases());
    v.extend(oracleb_cases());
    v.extend(cline_auggie_cases());

    // Field values: the whole field × shape matrix, per agent in its own root.
    v.extend(field_cases());

    v
}

/// Targeted cases: the roots, the project walk with and without git, nesting, depth, hidden
/// folders and `node_modules`.
fn walk_cases(v: &mut Vec<Case>) {
    // Roots: one skill in each folder, project and home.
    let mut c = Case::new("roots");
    for r in PROJECT_ROOTS {
        c.std(&format!("w/project/{r}/p-{}", slug(r)));
    }
    for r in HOME_ROOTS {
        c.std(&format!("home/{r}/u-{}", slug(r)));
    }
    v.push(c);

    // Project walk in a git repository: cwd two levels below the git root, skills at every
    // level and above the git root.
    let mut c = Case::new("walk-git");
    c.cwd = "w/project/sub/dir".into();
    for r in ["agents", "claude", "github", "codex", "opencode", "pi"] {
        let root = format!(".{r}/skills");
        c.std(&format!("w/{root}/above-{r}"));
        c.std(&format!("w/project/{root}/top-{r}"));
        c.std(&format!("w/project/sub/{root}/mid-{r}"));
        c.std(&format!("w/project/sub/dir/{root}/cwd-{r}"));
    }
    v.push(c);

    // A bare `.git` folder that is not a repository (git rev-parse fails in it).
    let mut c = Case::new("fake-git");
    c.real_git = false;
    c.cwd = "w/project/sub".into();
    for r in ["agents", "claude", "github", "codex", "opencode", "pi"] {
        let root = format!(".{r}/skills");
        c.std(&format!("w/{root}/fk-above-{r}"));
        c.std(&format!("w/project/{root}/fk-top-{r}"));
        c.std(&format!("w/project/sub/{root}/fk-cwd-{r}"));
    }
    v.push(c);

    // Without git: cwd and its parent.
    let mut c = Case::new("walk-nogit");
    c.spec.clear();
    c.cwd = "w/project".into();
    for r in ["agents", "claude", "github", "codex", "opencode", "pi"] {
        let root = format!(".{r}/skills");
        c.std(&format!("w/{root}/up-{r}"));
        c.std(&format!("w/project/{root}/here-{r}"));
    }
    v.push(c);

    // Without git, home is an ancestor of the project.
    let mut c = Case::new("walk-nogit-home-ancestor");
    c.spec.clear();
    c.home = "h".into();
    c.cwd = "h/work/project".into();
    for r in ["agents", "claude", "github", "opencode"] {
        let root = format!(".{r}/skills");
        c.std(&format!("h/work/{root}/work-{r}"));
        c.std(&format!("h/work/project/{root}/proj-{r}"));
        c.std(&format!("h/{root}/home-{r}"));
    }
    v.push(c);

    // Nesting and grouping folders.
    let mut c = Case::new("nesting");
    for r in [
        ".agents/skills",
        ".claude/skills",
        ".github/skills",
        ".pi/skills",
    ] {
        let s = slug(r);
        c.std(&format!("w/project/{r}/outer-{s}"));
        c.std(&format!("w/project/{r}/outer-{s}/inner-{s}"));
        c.std(&format!("w/project/{r}/group-{s}/grouped-{s}"));
        c.std(&format!("w/project/{r}/group-{s}/sub/deepgrouped-{s}"));
    }
    v.push(c);

    // Depth: a skill folder 6 and 7 levels below the root, and 10.
    let mut c = Case::new("depth");
    for r in [".agents/skills", ".claude/skills", ".github/skills"] {
        let s = slug(r);
        c.std(&format!("w/project/{r}/a/b/c/d/e/d6-{s}"));
        c.std(&format!("w/project/{r}/a/b/c/d/e/f/d7-{s}"));
        c.std(&format!("w/project/{r}/a/b/c/d/e/f/g/h/i/d10-{s}"));
    }
    v.push(c);

    // Hidden folders, node_modules, ignore files.
    let mut c = Case::new("hidden-node_modules-gitignore");
    for r in [
        ".agents/skills",
        ".claude/skills",
        ".github/skills",
        ".opencode/skills",
    ] {
        let s = slug(r);
        c.std(&format!("w/project/{r}/.hidden/hid-{s}"));
        c.std(&format!("w/project/{r}/.hid-{s}-dot"));
        c.std(&format!("w/project/{r}/node_modules/nm-{s}"));
        c.std(&format!("w/project/{r}/ign/ignored-{s}"));
        c.add(format!("@@ w/project/{r}/.gitignore\nign/\n"));
    }
    v.push(c);
}

/// Targeted cases: gitignore's rules in pi's ignore files.
fn ignore_file_cases(v: &mut Vec<Case>) {
    // gitignore's rules in pi's ignore files (the `ignore` crate's matcher, applied top-down):
    // nothing under an excluded folder comes back with a later `!`, classes, anchoring, `**`,
    // and the three file names at two levels.
    let mut c = Case::new("ignore-file-rules");
    let r = "w/project/.pi/skills";
    for s in [
        "ign/keep",
        "ign/other",
        "ax",
        "cx",
        "anch",
        "sub/anch",
        "d-tmp",
        "sub/deep-1",
        "sub/x/deep-2",
        "sub/kept",
        "fd-x",
        "a/b/c/starstar",
        "plain",
    ] {
        c.std(&format!("{r}/{s}"));
    }
    c.add(format!(
        "@@ {r}/.gitignore\nign/\n!ign/keep\n[ab]x/\n/anch/\n*-tmp\n# a comment\na/**/starstar\n"
    ));
    c.add(format!("@@ {r}/sub/.ignore\ndeep-*\n!kept\n"));
    c.add(format!("@@ {r}/.fdignore\nfd-?\n"));
    c.agents = Some(vec!["pi"]);
    v.push(c);
}

/// Targeted cases: Symlinks, and collisions across scopes, within a root and across levels.
fn link_and_collision_cases(v: &mut Vec<Case>) {
    // Symlinks: a linked skill folder, a linked SKILL.md, a linked root.
    let mut c = Case::new("symlinks");
    for r in [".agents/skills", ".claude/skills", ".github/skills"] {
        let s = slug(r);
        c.std(&format!("store/ld-{s}"));
        c.link(&format!("w/project/{r}/ld-{s}"), &format!("store/ld-{s}"));
        c.add(skill_file(
            &format!("store/lf-{s}.md"),
            &format!("name: lf-{s}\ndescription: Linked file {s}."),
        ));
        c.link(
            &format!("w/project/{r}/lf-{s}/SKILL.md"),
            &format!("store/lf-{s}.md"),
        );
    }
    c.std("store2/lr-root");
    c.link("home/.agents/skills", "store2");
    v.push(c);

    // Collisions across scopes: the same folder and name in project and home roots.
    let mut c = Case::new("collision-scopes");
    for r in [".agents/skills", ".claude/skills"] {
        c.std(&format!("w/project/{r}/dup"));
        c.std(&format!("home/{r}/dup"));
    }
    c.std("home/.copilot/skills/dup");
    c.std("home/.codex/skills/dup");
    c.std("home/.pi/agent/skills/dup");
    c.std("w/project/.pi/skills/dup");
    c.std("w/project/.github/skills/dup");
    c.std("home/.config/opencode/skills/dup");
    v.push(c);

    // Collisions within a root and across root types and levels.
    let mut c = Case::new("collision-within");
    for r in [".agents/skills", ".claude/skills", ".github/skills"] {
        let s = slug(r);
        c.skill(
            &format!("w/project/{r}/one-{s}"),
            "name: same\ndescription: First copy.",
        );
        c.skill(
            &format!("w/project/{r}/two-{s}"),
            "name: same\ndescription: Second copy.",
        );
    }
    v.push(c);

    let mut c = Case::new("collision-levels");
    c.cwd = "w/project/sub".into();
    c.std("w/project/.github/skills/lvl");
    c.std("w/project/sub/.agents/skills/lvl");
    c.std("w/project/.claude/skills/lvl2");
    c.std("w/project/sub/.claude/skills/lvl2");
    c.std("w/project/.agents/skills/lvl3");
    c.std("w/project/sub/.agents/skills/lvl3");
    c.skill(
        "w/project/.claude/skills/fold-a",
        "name: shared\ndescription: Folder a.",
    );
    c.skill(
        "home/.claude/skills/fold-b",
        "name: shared\ndescription: Folder b.",
    );
    c.std("home/.claude/skills/fold-a");
    v.push(c);
}

/// Targeted cases: Frontmatter and YAML breakage, in the roots each agent reads.
fn frontmatter_cases(v: &mut Vec<Case>) {
    // Frontmatter and YAML breakage, in the roots each agent reads.
    for (tag, root, agents) in [
        (
            "agents",
            ".agents/skills",
            vec![
                "codex",
                "opencode",
                "pi",
                "copilot-cli",
                "gemini-cli",
                "qwen-code",
                "qoder-cli",
                "kilo",
                "factory-droid",
            ],
        ),
        ("claude", ".claude/skills", vec!["claude-code"]),
        // Amp without the numeric name its listing crashes on (case bug-numeric-name).
        ("amp", ".agents/skills", vec!["amp"]),
    ] {
        let mut c = Case::new(&format!("yaml@{tag}"));
        c.agents = Some(agents);
        let d = |n: &str| format!("w/project/{root}/{n}");
        let cases: &[(&str, &str)] = &[
            ("ok-plain", "name: ok-plain\ndescription: Fine."),
            ("colon-value", "name: colon-value\ndescription: Use when: x"),
            ("colon-nested", "name: colon-nested\ndescription: a: b: c"),
            ("at-mention", "name: at-mention\ndescription: @mention it"),
            ("backtick", "name: backtick\ndescription: `code` here"),
            ("open-bracket", "name: open-bracket\ndescription: [unclosed"),
            ("seq-desc", "name: seq-desc\ndescription: [a, b]"),
            ("map-desc", "name: map-desc\ndescription: {a: 1}"),
            ("percent", "name: percent\ndescription: %complete"),
            ("alias", "name: alias\ndescription: *bold* text"),
            (
                "ends-colon",
                "name: ends-colon\ndescription: ends with colon:",
            ),
            (
                "quoted-trail",
                "name: quoted-trail\ndescription: \"Use when: x\" trailing",
            ),
            (
                "unterminated",
                "name: unterminated\ndescription: \"never closed",
            ),
            (
                "tab-indent",
                "name: tab-indent\ndescription: x\nmetadata:\n\tk: v",
            ),
            ("tab-value", "name: tab-value\ndescription:\tTabbed value."),
            (
                "dup-key",
                "name: dup-key\ndescription: one\ndescription: two",
            ),
            (
                "metadata-str",
                "name: metadata-str\ndescription: x\nmetadata: hello",
            ),
            (
                "metadata-colon",
                "name: metadata-colon\ndescription: x\nmetadata:\n  short-description: k: v: w",
            ),
            ("desc-empty", "name: desc-empty\ndescription: \"\""),
            ("desc-null", "name: desc-null\ndescription: null"),
            ("desc-missing", "name: desc-missing"),
            ("name-missing", "description: No name key."),
            ("name-empty", "name: \"\"\ndescription: Empty name."),
            ("name-number", "name: 123\ndescription: Numeric name."),
            ("desc-number", "name: desc-number\ndescription: 2024-01-01"),
            ("desc-bool", "name: desc-bool\ndescription: true"),
            (
                "name-mismatch",
                "name: other-name\ndescription: Folder differs.",
            ),
            ("dash-item", "name: dash-item\ndescription: x\n- item"),
            ("comment", "name: comment\ndescription: Text # a comment"),
            (
                "multiline",
                "name: multiline\ndescription: >\n  Folded\n  text.",
            ),
            (
                "unknown-keys",
                "name: unknown-keys\ndescription: x\nrequires: y\npriority: 3",
            ),
            (
                "dmi-true",
                "name: dmi-true\ndescription: x\ndisable-model-invocation: true",
            ),
            (
                "dmi-string",
                "name: dmi-string\ndescription: x\ndisable-model-invocation: \"true\"",
            ),
            (
                "ui-false",
                "name: ui-false\ndescription: x\nuser-invocable: false",
            ),
        ];
        for (dir, front) in cases {
            if tag == "amp" && *dir == "name-number" {
                continue;
            }
            c.skill(&d(dir), front);
        }
        let raw: &[(&str, &str)] = &[
            ("no-front", "# Title\n\nJust a body paragraph.\n"),
            (
                "bom",
                "\u{feff}---\nname: bom\ndescription: With BOM.\n---\nBody\n",
            ),
            (
                "blank-first",
                "\n---\nname: blank-first\ndescription: Blank line.\n---\nBody\n",
            ),
            (
                "unclosed",
                "---\nname: unclosed\ndescription: Never closed.\nBody\n",
            ),
            (
                "dots-close",
                "---\nname: dots-close\ndescription: Dots.\n...\nBody\n",
            ),
            ("empty-block", "---\n---\nBody paragraph.\n"),
            (
                "crlf",
                "---\r\nname: crlf\r\ndescription: CRLF lines.\r\n---\r\nBody\r\n",
            ),
            (
                "padded",
                "  ---  \nname: padded\ndescription: Padded delimiters.\n  ---  \nBody\n",
            ),
        ];
        for (dir, text) in raw {
            c.add(format!("@@ {}/SKILL.md\n{text}", d(dir)));
        }
        // skill.md in lower case and a loose .md directly in the root.
        c.add(format!(
            "@@ {}/skill.md\n---\nname: lower-case\ndescription: x\n---\n",
            d("lower")
        ));
        c.add(format!(
            "@@ {}\n---\nname: loose\ndescription: Loose file.\n---\n",
            d("loose.md")
        ));
        v.push(c);
    }
}

/// Targeted cases: A SKILL.md directly in a root, loose `*.md` files, length limits.
fn root_file_cases(v: &mut Vec<Case>) {
    // A SKILL.md directly in a root, per root.
    let mut c = Case::new("skill-md-in-root");
    for r in [
        ".agents/skills",
        ".claude/skills",
        ".github/skills",
        ".pi/skills",
    ] {
        let s = slug(r);
        c.add(skill_file(
            &format!("w/project/{r}/SKILL.md"),
            &format!("name: rootskill-{s}\ndescription: At the root."),
        ));
        c.std(&format!("w/project/{r}/below-{s}"));
        c.add(format!(
            "@@ w/project/{r}/loose-{s}.md\n---\nname: loose-{s}\ndescription: Loose.\n---\n"
        ));
    }
    v.push(c);

    // Loose *.md files and lower-case skill.md in roots without a SKILL.md of their own.
    let mut c = Case::new("loose-md");
    for r in [
        ".agents/skills",
        ".claude/skills",
        ".github/skills",
        ".pi/skills",
        ".opencode/skills",
    ] {
        let s = slug(r);
        c.add(format!(
            "@@ w/project/{r}/loosefile-{s}.md\n---\nname: loosefile-{s}\ndescription: Loose.\n---\n"
        ));
        c.add(format!(
            "@@ w/project/{r}/lower-{s}/skill.md\n---\nname: lower-{s}\ndescription: Lower.\n---\n"
        ));
    }
    c.add(
        "@@ home/.pi/agent/skills/loosehome.md\n---\nname: loosehome\ndescription: Loose.\n---\n"
            .into(),
    );
    v.push(c);

    // Length limits in code points and UTF-16 units.
    for (tag, root, agents) in [
        (
            "agents",
            ".agents/skills",
            vec![
                "codex",
                "opencode",
                "pi",
                "copilot-cli",
                "gemini-cli",
                "qwen-code",
                "qoder-cli",
                "kilo",
                "factory-droid",
                "amp",
            ],
        ),
        ("claude", ".claude/skills", vec!["claude-code"]),
    ] {
        let mut c = Case::new(&format!("limits@{tag}"));
        c.agents = Some(agents);
        let d = |n: &str| format!("w/project/{root}/{n}");
        let n64 = format!("n{}", "a".repeat(63));
        let n65 = format!("n{}", "a".repeat(64));
        c.skill(&d("name64"), &format!("name: {n64}\ndescription: x"));
        c.skill(&d("name65"), &format!("name: {n65}\ndescription: x"));
        let greek40 = "λ".repeat(40);
        c.skill(
            &d("name-greek"),
            &format!("name: {greek40}\ndescription: x"),
        );
        let emoji33 = "😀".repeat(33); // 33 code points, 66 UTF-16 units
        c.skill(
            &d("name-emoji"),
            &format!("name: e{emoji33}\ndescription: x"),
        );
        for (dir, desc) in [
            ("desc1024", "a".repeat(1024)),
            ("desc1025", "a".repeat(1025)),
            ("desc-emoji512", "😀".repeat(512)),
            ("desc-emoji513", "😀".repeat(513)),
            ("desc-emoji1025", "😀".repeat(1025)),
            ("desc-greek1000", "λ".repeat(1000)),
            ("desc1537", "b".repeat(1537)),
            ("desc5000", "c".repeat(5000)),
        ] {
            c.skill(&d(dir), &format!("name: {dir}\ndescription: {desc}"));
        }
        v.push(c);
    }
}

/// Targeted cases: Name characters and environment overrides.
fn name_and_env_cases(v: &mut Vec<Case>) {
    // Name characters.
    let mut c = Case::new("name-charset");
    for root in [".agents/skills", ".claude/skills"] {
        let s = slug(root);
        for (i, name) in [
            "Upper-Case",
            "with space",
            "under_score",
            "dot.name",
            "colon:name",
            "héllo",
            "-leading",
            "trailing-",
            "double--hyphen",
        ]
        .iter()
        .enumerate()
        {
            c.skill(
                &format!("w/project/{root}/cs{i}-{s}"),
                &format!("name: \"{name}\"\ndescription: Charset case {i}."),
            );
        }
    }
    v.push(c);

    // Environment overrides.
    let mut c = Case::new("env-overrides");
    c.std("ch/skills/e-codex-home");
    c.std("cc/skills/e-claude-config");
    c.std("cp/skills/e-copilot-home");
    c.std("pa/skills/e-pi-agent-dir");
    c.std("xdg/opencode/skills/e-xdg");
    c.std("ocd/skills/e-oc-config-dir");
    c.std("extra/e-copilot-dirs");
    for r in HOME_ROOTS {
        c.std(&format!("home/{r}/h-{}", slug(r)));
    }
    c.std("w/project/.claude/skills/p-claude");
    c.vars = [
        ("CODEX_HOME", "{base}/ch"),
        ("CLAUDE_CONFIG_DIR", "{base}/cc"),
        ("COPILOT_HOME", "{base}/cp"),
        ("PI_CODING_AGENT_DIR", "{base}/pa"),
        ("XDG_CONFIG_HOME", "{base}/xdg"),
        ("OPENCODE_CONFIG_DIR", "{base}/ocd"),
        ("COPILOT_SKILLS_DIRS", "{base}/extra"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    v.push(c);

    let mut c = Case::new("env-opencode-disable-external");
    c.agents = Some(vec!["opencode"]);
    c.std("w/project/.claude/skills/x-claude");
    c.std("w/project/.agents/skills/x-agents");
    c.std("w/project/.opencode/skills/x-opencode");
    c.std("home/.claude/skills/xu-claude");
    c.std("home/.agents/skills/xu-agents");
    c.vars = vec![("OPENCODE_DISABLE_EXTERNAL_SKILLS".into(), "1".into())];
    v.push(c);

    let mut c = Case::new("env-opencode-disable-claude");
    c.agents = Some(vec!["opencode"]);
    c.std("w/project/.claude/skills/y-claude");
    c.std("w/project/.agents/skills/y-agents");
    c.std("home/.claude/skills/yu-claude");
    c.vars = vec![("OPENCODE_DISABLE_CLAUDE_CODE_SKILLS".into(), "1".into())];
    v.push(c);
}

/// Targeted cases: Plugin namespaces: manifests in and above skill folders and roots.
fn plugin_cases(v: &mut Vec<Case>) {
    // Plugin namespaces: a `.codex-plugin` or `.claude-plugin` manifest in a skill's folder or
    // any folder above it (skill root, above the root, the symlink target's folders).
    let mut c = Case::new("plugin-namespace");
    c.agents = Some(vec!["codex"]);
    let man = |c: &mut Case, dir: &str, text: &str| {
        c.add(format!("@@ {dir}/plugin.json\n{text}\n"));
    };
    let r = "w/project/.agents/skills";
    c.std(&format!("{r}/plain"));
    man(
        &mut c,
        &format!("{r}/cx/.codex-plugin"),
        r#"{"name":"cxp"}"#,
    );
    c.std(&format!("{r}/cx"));
    man(
        &mut c,
        &format!("{r}/other/.claude-plugin"),
        r#"{"name":"plug","skills":"./"}"#,
    );
    c.std(&format!("{r}/other"));
    man(
        &mut c,
        &format!("{r}/both/.codex-plugin"),
        r#"{"name":"cdp"}"#,
    );
    man(
        &mut c,
        &format!("{r}/both/.claude-plugin"),
        r#"{"name":"clp"}"#,
    );
    c.std(&format!("{r}/both"));
    man(
        &mut c,
        &format!("{r}/noname/.claude-plugin"),
        r#"{"description":"x"}"#,
    );
    c.std(&format!("{r}/noname"));
    man(
        &mut c,
        &format!("{r}/blank/.claude-plugin"),
        r#"{"name":"  "}"#,
    );
    c.std(&format!("{r}/blank"));
    man(&mut c, &format!("{r}/bad/.claude-plugin"), "{not json");
    c.std(&format!("{r}/bad"));
    man(
        &mut c,
        &format!("{r}/nullname/.claude-plugin"),
        r#"{"name":null}"#,
    );
    c.std(&format!("{r}/nullname"));
    man(&mut c, &format!("{r}/badcodex/.codex-plugin"), "{bad");
    man(
        &mut c,
        &format!("{r}/badcodex/.claude-plugin"),
        r#"{"name":"bcl"}"#,
    );
    c.std(&format!("{r}/badcodex"));
    man(
        &mut c,
        &format!("{r}/pl/.claude-plugin"),
        r#"{"name":"plg"}"#,
    );
    c.std(&format!("{r}/pl/skills/inner"));
    man(
        &mut c,
        &format!("{r}/outer/.claude-plugin"),
        r#"{"name":"outerp"}"#,
    );
    man(
        &mut c,
        &format!("{r}/outer/in/.claude-plugin"),
        r#"{"name":7}"#,
    );
    c.std(&format!("{r}/outer/in/nest"));
    man(
        &mut c,
        &format!("{r}/mix/.codex-plugin"),
        r#"{"name":"mixcodex"}"#,
    );
    man(
        &mut c,
        &format!("{r}/mix/sub/.claude-plugin"),
        r#"{"name":"mixclaude"}"#,
    );
    c.std(&format!("{r}/mix/sub"));
    man(
        &mut c,
        &format!("{r}/dup1/.claude-plugin"),
        r#"{"name":"p1"}"#,
    );
    c.skill(
        &format!("{r}/dup1/x"),
        "name: x\ndescription: Skill x in p1.",
    );
    man(
        &mut c,
        &format!("{r}/dup2/.claude-plugin"),
        r#"{"name":"p2"}"#,
    );
    c.skill(
        &format!("{r}/dup2/x"),
        "name: x\ndescription: Skill x in p2.",
    );
    man(&mut c, "w/ext/.claude-plugin", r#"{"name":"ext"}"#);
    c.std("w/ext/linked");
    c.link(&format!("{r}/lnk/linked"), "w/ext/linked");
    // A manifest in a user root's own folder, and one above a user root.
    man(
        &mut c,
        "home/.codex/skills/.claude-plugin",
        r#"{"name":"rootp"}"#,
    );
    c.std("home/.codex/skills/r1");
    man(&mut c, "home/.agents/.codex-plugin", r#"{"name":"above"}"#);
    c.std("home/.agents/skills/u1");
    v.push(c);
}

/// The roots of Gemini CLI, Qwen Code and Qoder CLI besides `.agents/skills`: (agent, case-name
/// prefix, own project root, own user root relative to home).
pub const NEW_AGENT_ROOTS: [(&str, &str, &str, &str); 3] = [
    ("gemini-cli", "gemini", ".gemini/skills", ".gemini/skills"),
    ("qwen-code", "qwen", ".qwen/skills", ".qwen/skills"),
    ("qoder-cli", "qoder", ".qoder/skills", ".qoder/skills"),
];

/// Targeted cases for the rules of Gemini CLI, Qwen Code and Qoder CLI (more-agents.md §1, 2, 12)
/// that the shared cases do not reach: their own roots and the precedence between them, the
/// order within one root, parsing and identity in their own root, Gemini's folder trust and
/// settings, Qwen's `skills.directories`, the home variables.
fn new_agent_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for (agent, tag, own, own_home) in NEW_AGENT_ROOTS {
        // Roots and precedence: one skill per root, and one name in every pair of roots and in
        // all four.
        let mut c = Case::new(&format!("{tag}-roots"));
        c.agents = Some(vec![agent]);
        let roots = [
            ("pown", format!("w/project/{own}")),
            ("pagents", "w/project/.agents/skills".to_string()),
            ("uown", format!("home/{own_home}")),
            ("uagents", "home/.agents/skills".to_string()),
        ];
        for (id, dir) in &roots {
            c.skill(
                &format!("{dir}/only-{id}"),
                &format!("name: only-{id}\ndescription: Only in {id}."),
            );
            c.skill(
                &format!("{dir}/dup-all"),
                &format!("name: dup-all\ndescription: Copy in {id}."),
            );
        }
        for i in 0..roots.len() {
            for j in i + 1..roots.len() {
                let name = format!("dup-{}-{}", roots[i].0, roots[j].0);
                for k in [i, j] {
                    c.skill(
                        &format!("{}/{name}", roots[k].1),
                        &format!("name: {name}\ndescription: Copy in {}.", roots[k].0),
                    );
                }
            }
        }
        // Not a root of these agents; nor is the project's git root seen from a sub-folder
        // (walk-git covers .agents/skills).
        c.std("w/project/.claude/skills/not-claude");
        c.std(&format!("w/project/sub/{own}/below-cwd"));
        v.push(c);

        // The walk below the agent's own root: depth 2 to 5, hidden folders, node_modules, a
        // nested skill, a SKILL.md in the root itself.
        let mut c = Case::new(&format!("{tag}-walk"));
        c.agents = Some(vec![agent]);
        let r = format!("w/project/{own}");
        for dir in [
            "a/w-d2",
            "a/b/w-d3",
            "a/b/c/w-d4",
            "a/b/c/d/w-d5",
            ".hid/w-hidden",
            ".w-dot",
            "node_modules/w-nm",
            "w-outer",
            "w-outer/w-inner",
        ] {
            c.std(&format!("{r}/{dir}"));
        }
        c.add(skill_file(
            &format!("{r}/SKILL.md"),
            "name: w-root\ndescription: In the root itself.",
        ));
        v.push(c);

        // Order within one root: one frontmatter name in folders created out of byte order.
        let mut c = Case::new(&format!("{tag}-order-within-root"));
        c.agents = Some(vec![agent]);
        for folder in ["zq", "Zed", "b7", "alpha", "a3", "_u", "Mid"] {
            c.skill(
                &format!("w/project/{own}/{folder}"),
                &format!("name: same\ndescription: Folder {folder}."),
            );
        }
        v.push(c);

        // Parsing and identity in the agent's own project root.
        let mut c = Case::new(&format!("{tag}-parse"));
        c.agents = Some(vec![agent]);
        let d = |n: &str| format!("w/project/{own}/{n}");
        for (folder, front) in [
            ("ok", "name: ok\ndescription: Fine."),
            (
                "folder-x",
                "name: fm-name\ndescription: Name differs from folder.",
            ),
            ("no-name", "description: No name."),
            ("no-desc", "name: no-desc"),
            ("empty-name", "name: \"\"\ndescription: Empty name."),
            ("empty-desc", "name: empty-desc\ndescription: \"\""),
            ("num-name", "name: 123\ndescription: Numeric name."),
            ("colon-name", "name: a:b/c\ndescription: Colon and slash."),
            ("space-name", "name: two words\ndescription: A space."),
            ("upper-name", "name: Upper-Dup\ndescription: Upper case."),
            ("colon-desc", "name: colon-desc\ndescription: Use when: x"),
            ("list-desc", "name: list-desc\ndescription: [a, b]"),
            ("null-desc", "name: null-desc\ndescription: null"),
            (
                "block-desc",
                "name: block-desc\ndescription: |\n  line one\n  line two",
            ),
            (
                "dmi",
                "name: dmi\ndescription: Hidden from the model.\ndisable-model-invocation: true",
            ),
            (
                "long-name",
                &format!("name: {}\ndescription: Long name.", "l".repeat(80)),
            ),
        ] {
            c.skill(&d(folder), front);
        }
        c.add(format!(
            "@@ {}/SKILL.md\n# No frontmatter\n\nJust a body.\n",
            d("no-fm")
        ));
        c.add(format!(
            "@@ {}/SKILL.md\n{}---\nname: bom\ndescription: With a BOM.\n---\nBody.\n",
            d("bom"),
            '\u{feff}'
        ));
        c.add(format!(
            "@@ {}/SKILL.md\n---\r\nname: crlf\r\ndescription: CRLF lines.\r\n---\r\nBody.\r\n",
            d("crlf")
        ));
        c.add(format!(
            "@@ {}/SKILL.md\n---\nname: no-desc-body\n---\n# Heading\n\nFirst body line.\n",
            d("no-desc-body")
        ));
        v.push(c);
    }

    // Home variables.
    let mut c = Case::new("gemini-home-env");
    c.agents = Some(vec!["gemini-cli"]);
    c.vars.push(("GEMINI_CLI_HOME".into(), "{base}/gh".into()));
    c.std("gh/.gemini/skills/gh-gemini");
    c.std("gh/.agents/skills/gh-agents");
    c.std("home/.gemini/skills/home-gemini");
    c.std("home/.agents/skills/home-agents");
    v.push(c);
    let mut c = Case::new("qwen-home-env");
    c.agents = Some(vec!["qwen-code"]);
    c.vars.push(("QWEN_HOME".into(), "{base}/qh".into()));
    c.std("qh/skills/qh-skill");
    c.std("home/.qwen/skills/home-qwen");
    c.std("home/.agents/skills/home-agents");
    v.push(c);

    // Gemini CLI's folder trust: without GEMINI_CLI_TRUST_WORKSPACE the project is untrusted
    // unless ~/.gemini/trustedFolders.json trusts it; the variable set to false overrides the
    // file.
    for (name, var, file) in [
        ("gemini-trust-none", None, None),
        ("gemini-trust-file", None, Some("TRUST_FOLDER")),
        ("gemini-trust-parent", None, Some("TRUST_PARENT")),
        ("gemini-trust-distrust", None, Some("DO_NOT_TRUST")),
        (
            "gemini-trust-env-false",
            Some("false"),
            Some("TRUST_FOLDER"),
        ),
    ] {
        let mut c = Case::new(name);
        c.agents = Some(vec!["gemini-cli"]);
        c.vars.clear();
        if let Some(v) = var {
            c.vars.push(("GEMINI_CLI_TRUST_WORKSPACE".into(), v.into()));
        }
        if let Some(level) = file {
            // TRUST_PARENT on a file inside the project trusts the project folder.
            let path = if level == "TRUST_PARENT" {
                "{base}/w/project/README.md"
            } else {
                "{base}/w/project"
            };
            c.add(format!(
                "@@ home/.gemini/trustedFolders.json\n{{\n  // folders the user trusts\n  \"{path}\": \"{level}\"\n}}\n"
            ));
        }
        c.std("w/project/.gemini/skills/t-project-gemini");
        c.std("w/project/.agents/skills/t-project-agents");
        c.std("home/.gemini/skills/t-user");
        v.push(c);
    }

    // Settings: skills.disabled (Gemini CLI, Qwen Code), skills.directories (Qwen Code).
    let mut c = Case::new("gemini-settings");
    c.agents = Some(vec!["gemini-cli"]);
    c.std("home/.gemini/skills/gs-off");
    c.std("home/.gemini/skills/gs-on");
    c.std("w/project/.gemini/skills/gs-project-off");
    c.add("@@ home/.gemini/settings.json\n{ \"skills\": { \"disabled\": [\"gs-off\"] } }\n".into());
    c.add(
        "@@ w/project/.gemini/settings.json\n{ \"skills\": { \"disabled\": [\"gs-project-off\"] } }\n"
            .into(),
    );
    v.push(c);
    let mut c = Case::new("qwen-settings");
    c.agents = Some(vec!["qwen-code"]);
    c.std("home/.qwen/skills/qs-off");
    c.std("home/.qwen/skills/qs-on");
    c.std("home/extra/qs-extra");
    c.std("w/project/rel-extra/qs-relative");
    c.std("abs-extra/qs-absolute");
    c.std("home/extra/qs-on");
    c.add(
        "@@ home/.qwen/settings.json\n{ \"skills\": { \"disabled\": [\"qs-off\"], \"directories\": [\"~/extra\", \"rel-extra\", \"{base}/abs-extra\"] } }\n"
            .into(),
    );
    v.push(c);
    v
}

/// A small xorshift64* generator (no external crate).
#[derive(Debug, Clone)]
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> XorShift {
        // splitmix64 of the seed, never zero.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        XorShift((z ^ (z >> 31)) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    /// True with probability p percent.
    pub fn chance(&mut self, p: u32) -> bool {
        self.below(100) < p as usize
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const NAMES: [&str; 10] = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "pdf",
    "review",
    "deploy",
    "lint",
    "x-1",
    "Mixed_Case",
];

/// A random tree from `seed`.
pub fn random(seed: u64) -> Case {
    let mut r = XorShift::new(seed);
    // A second stream for what the newer agents add (their roots, Gemini CLI's folder trust), so
    // that the draws above, and the trees the first five agents see, stay as they were.
    let mut alt = XorShift::new(seed ^ 0x5eed_a9e7_0000_0018);
    let mut c = Case::new(&format!("random-{seed}"));
    c.random = true;
    c.spec.clear();
    random_trust(&mut alt, &mut c);
    random_layout(&mut r, &mut c);
    let n = 1 + r.below(10);
    let mut dirs: Vec<String> = Vec::new();
    for i in 0..n {
        let dir = if !dirs.is_empty() && r.chance(8) {
            // Nested inside an earlier skill.
            let parent = r.pick(&dirs).clone();
            format!("{parent}/{}", r.pick(&NAMES))
        } else {
            let root = random_root(&mut r, &mut alt);
            format!("{root}/{}", random_rel(&mut r, i))
        };
        let folder = dir.rsplit('/').next().unwrap_or("x").to_string();
        let front = random_frontmatter(&mut r, &folder, i);
        let body = random_body(&mut r, &folder, &front);
        if r.chance(7) {
            // The skill folder lives elsewhere and is linked in.
            let store = format!("store/s{i}");
            c.spec.push_str(&format!("@@ {store}/SKILL.md\n{body}"));
            c.symlinks.push((dir.clone(), store));
        } else {
            c.spec.push_str(&format!("@@ {dir}/SKILL.md\n{body}"));
        }
        dirs.push(dir);
    }
    extra_skills(seed, &mut c, &NEWER_AGENTS);
    extra_skills(seed, &mut c, &CLINE_AUGGIE);
    c
}

/// Gemini CLI's trust: the variable (60 %), the trust file (20 %), or neither (untrusted).
fn random_trust(alt: &mut XorShift, c: &mut Case) {
    c.vars.clear();
    match alt.below(100) {
        0..=59 => c
            .vars
            .push(("GEMINI_CLI_TRUST_WORKSPACE".into(), "true".into())),
        60..=79 => c.spec.push_str(
            "@@ home/.gemini/trustedFolders.json\n{ \"{base}/w/project\": \"TRUST_FOLDER\" }\n",
        ),
        _ => {}
    }
}

/// Layout: git at the project (70 %), at w (15 %, the project is a subfolder) or none; the
/// agent runs in the project (70 %) or a subfolder of it.
fn random_layout(r: &mut XorShift, c: &mut Case) {
    let git = r.below(100);
    if git < 70 {
        c.spec.push_str("@@ mkdir w/project/.git\n");
    } else if git < 85 {
        c.spec.push_str("@@ mkdir w/.git\n");
    }
    c.cwd = if r.chance(30) {
        "w/project/sub".into()
    } else {
        "w/project".into()
    };
}

/// A skill root: a project root of the first agents at one of the three levels (65 %) or one of
/// their home roots; a third of them move to a root of Gemini CLI, Qwen Code or Qoder CLI (the
/// same level: project folder or home), drawn from `alt`.
fn random_root(r: &mut XorShift, alt: &mut XorShift) -> String {
    let levels = ["w", "w/project", "w/project/sub"];
    let root = if r.chance(65) {
        let level = *r.pick(&levels);
        format!("{level}/{}", r.pick(&PROJECT_ROOTS[..7]))
    } else {
        format!("home/{}", r.pick(&HOME_ROOTS[..8]))
    };
    if !alt.chance(33) {
        return root;
    }
    let (_, _, own, own_home) = *alt.pick(&NEW_AGENT_ROOTS);
    match root.strip_prefix("home/") {
        Some(_) => format!("home/{own_home}"),
        None => {
            let level = root.split("/.").next().unwrap_or("w/project");
            format!("{level}/{own}")
        }
    }
}

/// The skill folder's path inside its root: sometimes under a group, hidden, `node_modules` or
/// deep folder; a name from the list, sometimes numbered with `i`.
fn random_rel(r: &mut XorShift, i: usize) -> String {
    let mut rel = String::new();
    if r.chance(12) {
        let part: &&str = r.pick(&["group/", ".hidden/", "node_modules/", "a/b/"]);
        rel.push_str(part);
    }
    if r.chance(4) {
        rel.push_str("a/b/c/d/e/f/");
    }
    let name: &&str = r.pick(&NAMES);
    rel.push_str(name);
    if r.chance(30) {
        rel.push_str(&format!("-{i}"));
    }
    rel
}

/// The frontmatter lines of skill `i` in `folder`: a name and a description in one of their
/// usual shapes (or missing, empty, too long, badly quoted), sometimes in another shape of the
/// field matrix, and up to two more fields.
fn random_frontmatter(r: &mut XorShift, folder: &str, i: usize) -> Vec<String> {
    let name = match r.below(100) {
        0..=59 => Some(format!("name: {folder}")),
        60..=74 => Some(format!("name: {}", r.pick(&NAMES))),
        75..=84 => None,
        85..=88 => Some("name: \"\"".into()),
        89..=93 => Some(format!("name: {} {}", folder, r.pick(&NAMES))),
        _ => Some(format!("name: {}", "z".repeat(60 + r.below(10)))),
    };
    let desc = match r.below(100) {
        0..=71 => Some(format!("description: Skill {folder} number {i}.")),
        72..=79 => None,
        80..=84 => Some("description: Use when: testing".into()),
        85..=88 => Some(format!("description: {}", "d".repeat(1020 + r.below(10)))),
        89..=91 => Some(format!("description: {}", "😀".repeat(505 + r.below(15)))),
        92..=95 => Some("description: \"quoted: fine\"".into()),
        _ => Some("description: \"unterminated".into()),
    };
    // Field values: a name or description in another shape of the matrix (8 % each), and up
    // to two more fields any model knows, each in any shape (40 %, 15 %).
    let name = if r.chance(8) {
        let (_, value) = *r.pick(&SHAPES);
        Some(field_line("name", value, 0))
    } else {
        name
    };
    let desc = if r.chance(8) {
        let (_, value) = *r.pick(&SHAPES);
        Some(field_line("description", value, 0))
    } else {
        desc
    };
    let mut front: Vec<String> = [name, desc].into_iter().flatten().collect();
    if r.chance(40) {
        let (first, lines) = random_field(r);
        front.push(lines);
        if r.chance(15) {
            let (second, lines) = random_field(r);
            // A key twice is a YAML error of its own, not a field value.
            if top_key(second) != top_key(first) {
                front.push(lines);
            }
        }
    }
    front
}

/// The SKILL.md text: the frontmatter and a heading, or (7 %) no frontmatter, a byte-order mark
/// or a tab in the frontmatter.
fn random_body(r: &mut XorShift, folder: &str, front: &[String]) -> String {
    let body = format!(
        "---\n{}\n---\n# {folder}\n\nBody of {folder}.\n",
        front.join("\n")
    );
    match r.below(100) {
        0..=2 => format!("# {folder}\n\nNo frontmatter.\n"),
        3..=4 => format!("\u{feff}{body}"),
        5..=6 => body.replacen("---\n", "---\n\tbad: tab\n", 1),
        _ => body,
    }
}

/// Up to four more skills in roots only some agents read, from a generator of their own (seeded
/// from the tree's seed and `extra.salt`), so that the rest of the tree is the one
/// `random(seed)` always made and the other agents' verdicts on it are unchanged. Names come from
/// the same list, so they collide with the tree's `.agents` and `.claude` skills.
struct ExtraRoots {
    salt: u64,
    /// Project roots, under one of the three levels.
    project: &'static [&'static str],
    /// User roots, relative to home.
    home: &'static [&'static str],
    /// Folder suffix when the folder is not the bare name: `{name}{suffix}{i}`.
    suffix: &'static str,
    /// The chance (in %) that a name is upper-cased (a draw only when set).
    upper_case: Option<u32>,
}

fn extra_skills(seed: u64, c: &mut Case, extra: &ExtraRoots) {
    let mut r = XorShift::new(seed ^ extra.salt);
    let n = r.below(5);
    let levels = ["w", "w/project", "w/project/sub"];
    for i in 0..n {
        let root = if r.chance(55) {
            format!("{}/{}", r.pick(&levels), r.pick(extra.project))
        } else {
            format!("home/{}", r.pick(extra.home))
        };
        let name: &&str = r.pick(&NAMES);
        let name = match extra.upper_case {
            Some(p) if r.chance(p) => name.to_uppercase(),
            _ => name.to_string(),
        };
        let folder = if r.chance(40) {
            format!("{name}{}{i}", extra.suffix)
        } else {
            name.clone()
        };
        let dir = if r.chance(10) {
            format!("{root}/group/{folder}")
        } else {
            format!("{root}/{folder}")
        };
        let front = match r.below(10) {
            0..=5 => format!("name: {folder}\ndescription: Extra {folder} {i}."),
            6..=7 => format!("name: {name}\ndescription: Extra {name} {i}."),
            8 => format!("name: {folder}"),
            _ => format!("description: Extra {folder} {i}, no name."),
        };
        c.spec
            .push_str(&skill_file(&format!("{dir}/SKILL.md"), &front));
    }
}

/// The roots only Cline and Auggie read (`.clinerules/skills`, `.cline/skills`,
/// `.augment/skills`, `~/.cline/skills`, `~/.augment/skills`); some names differ from another
/// copy only in case (Cline compares names lower-cased).
const CLINE_AUGGIE: ExtraRoots = ExtraRoots {
    salt: 0x636c_696e_6561_7567,
    project: &[".clinerules/skills", ".cline/skills", ".augment/skills"],
    home: &[".cline/skills", ".augment/skills"],
    suffix: "-c",
    upper_case: Some(15),
};

/// Project roots only the newer agents read (Kilo, Factory Droid, Amp), for random trees.
const NEW_PROJECT_ROOTS: [&str; 5] = [
    ".factory/skills",
    ".kilo/skills",
    ".kilo/skill",
    ".kilocode/skills",
    ".kilocode/skill",
];

/// User roots only the newer agents read, relative to home.
const NEW_HOME_ROOTS: [&str; 7] = [
    ".factory/skills",
    ".kilo/skills",
    ".kilocode/skills",
    ".config/kilo/skills",
    ".config/kilo/skill",
    ".config/amp/skills",
    ".config/agents/skills",
];

/// The roots only the newer agents read (Kilo, Factory Droid, Amp).
const NEWER_AGENTS: ExtraRoots = ExtraRoots {
    salt: 0x006f_7261_636c_6562,
    project: &NEW_PROJECT_ROOTS,
    home: &NEW_HOME_ROOTS,
    suffix: "-n",
    upper_case: None,
};

// ---------------------------------------------------------------------------------------------
// Field values: every frontmatter field any model knows, in every value shape. The same matrix
// as tests/oracle/field-probes.mjs (which writes the per-agent ground truth as Markdown).

/// Every field named in a model's `[fields.*]` table (assets/agents/*.toml).
pub const FIELDS: [&str; 19] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "metadata.short-description",
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
];

/// Value shapes: (id, YAML text after `key:`). A text starting with a newline is a block: its
/// lines go below the key, indented.
pub const SHAPES: [(&str, &str); 20] = [
    ("string", "Plain text value"),
    ("quoted", "\"Quoted text value\""),
    ("empty", "\"\""),
    ("bare", ""),
    ("null", "null"),
    ("tilde", "~"),
    ("integer", "42"),
    ("float", "1.5"),
    ("true", "true"),
    ("true-cap", "True"),
    ("false", "false"),
    ("yes", "yes"),
    ("quoted-true", "\"true\""),
    ("flow-list", "[alpha, beta]"),
    ("block-list", "\n- alpha\n- beta"),
    ("nonstring-list", "[1, true]"),
    ("mapping", "\nkey: value"),
    ("block-literal", "|\nline one\nline two"),
    ("block-folded", ">\nline one\nline two"),
    ("long", "<long>"),
];

/// `words(n)`: `word0 word1 …` cut at n characters.
fn words(n: usize, stem: &str, sep: &str) -> String {
    let mut s = String::new();
    let mut i = 0;
    while s.len() < n {
        if !s.is_empty() {
            s.push_str(sep);
        }
        s.push_str(&format!("{stem}{i}"));
        i += 1;
    }
    s.truncate(n);
    s
}

/// `key: value` at `indent` spaces; block values (and block scalars' lines) two deeper.
pub fn field_line(key: &str, value: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let value = if value == "<long>" {
        words(2000, "word", " ")
    } else {
        value.to_string()
    };
    let deeper = |lines: &[&str]| -> String {
        lines
            .iter()
            .map(|l| format!("\n{pad}  {l}"))
            .collect::<String>()
    };
    if let Some(block) = value.strip_prefix('\n') {
        let lines: Vec<&str> = block.split('\n').collect();
        return format!("{pad}{key}:{}", deeper(&lines));
    }
    if value.starts_with('|') || value.starts_with('>') {
        let mut lines = value.split('\n');
        let head = lines.next().unwrap_or_default();
        let rest: Vec<&str> = lines.collect();
        return format!("{pad}{key}: {head}{}", deeper(&rest));
    }
    if value.is_empty() {
        format!("{pad}{key}:")
    } else {
        format!("{pad}{key}: {value}")
    }
}

/// The frontmatter line(s) giving `field` the value `value` (`metadata.short-description` nests
/// under `metadata:`).
pub fn field_lines(field: &str, value: &str) -> String {
    match field.strip_prefix("metadata.") {
        Some(sub) => format!("metadata:\n{}", field_line(sub, value, 2)),
        None => field_line(field, value, 0),
    }
}

/// One field probe: a skill folder and its frontmatter. `group` 0 probes share one tree; the
/// `name` probes are split in groups whose listed names cannot collide (`true`, `True` and
/// `"true"` in different trees).
#[derive(Debug, Clone)]
pub struct Probe {
    pub id: String,
    pub front: String,
    pub group: usize,
}

/// The field-value matrix (every field × every shape) and the edge cases the issue names.
pub fn field_probes() -> Vec<Probe> {
    let mut v = Vec::new();
    let name_group = |shape: &str| match shape {
        "string" | "empty" | "null" | "integer" | "true" | "flow-list" | "mapping"
        | "block-literal" | "long" => 1,
        "quoted" | "bare" | "tilde" | "float" | "true-cap" | "block-list" | "block-folded" => 2,
        _ => 3,
    };
    for field in FIELDS {
        let fslug = field.replace(['.', '_'], "-");
        for (shape, value) in SHAPES {
            let id = format!(
                "{}-{fslug}-{shape}",
                if field == "name" { "n" } else { "f" }
            );
            let (front, group) = match field {
                "name" => {
                    let value = match shape {
                        "string" => id.clone(),
                        "quoted" => format!("\"{id}\""),
                        "long" => words(2000, "n", "-"),
                        _ => value.to_string(),
                    };
                    (
                        format!(
                            "{}\ndescription: Probe {id}.",
                            field_line("name", &value, 0)
                        ),
                        name_group(shape),
                    )
                }
                "description" => (
                    format!("name: {id}\n{}", field_line("description", value, 0)),
                    0,
                ),
                _ => (
                    format!(
                        "name: {id}\ndescription: Probe {id}.\n{}",
                        field_lines(field, value)
                    ),
                    0,
                ),
            };
            v.push(Probe { id, front, group });
        }
    }
    let d = |id: &str| format!("description: Probe {id}.");
    let mut e = |id: &str, front: String, group: usize| {
        v.push(Probe {
            id: id.to_string(),
            front,
            group,
        })
    };
    e(
        "e-name-outer-spaces",
        format!(
            "name: \"  e-name-outer-spaces  \"\n{}",
            d("e-name-outer-spaces")
        ),
        1,
    );
    e(
        "e-name-newline",
        format!("name: \"e-name-newline\\nsecond\"\n{}", d("e-name-newline")),
        2,
    );
    e(
        "e-name-257",
        format!("name: {}\n{}", "e".repeat(257), d("e-name-257")),
        1,
    );
    e(
        "e-name-65",
        format!("name: {}\n{}", "a".repeat(65), d("e-name-65")),
        2,
    );
    e(
        "e-name-64",
        format!("name: {}\n{}", "b".repeat(64), d("e-name-64")),
        3,
    );
    e("e-name-missing", d("e-name-missing"), 1);
    e(
        "e-name-mismatch",
        format!("name: other-name\n{}", d("e-name-mismatch")),
        2,
    );
    e(
        "e-name-upper",
        format!("name: E-Name-Upper\n{}", d("e-name-upper")),
        3,
    );
    e("e-desc-missing", "name: e-desc-missing".into(), 0);
    e(
        "e-desc-1024",
        format!("name: e-desc-1024\ndescription: {}", words(1024, "d", " ")),
        0,
    );
    e(
        "e-desc-1025",
        format!("name: e-desc-1025\ndescription: {}", words(1025, "d", " ")),
        0,
    );
    e(
        "e-desc-outer-spaces",
        "name: e-desc-outer-spaces\ndescription: \"  Spaced text.  \"".into(),
        0,
    );
    e(
        "e-desc-tabs-newlines",
        "name: e-desc-tabs-newlines\ndescription: \"A\\tB\\n\\nC  D\\nE\"".into(),
        0,
    );
    e(
        "e-desc-colon",
        "name: e-desc-colon\ndescription: Use when: the user asks".into(),
        0,
    );
    e(
        "e-desc-plain-multiline",
        "name: e-desc-plain-multiline\ndescription: first line\n  continued line".into(),
        0,
    );
    for (id, extra) in [
        (
            "e-argument-hint-two-lists",
            "argument-hint: [filename] [format]",
        ),
        ("e-argument-hint-list", "argument-hint: [describe x]"),
        ("e-metadata-bare", "metadata:"),
        ("e-metadata-null", "metadata: null"),
        ("e-paths-string", "paths: \"src/**\""),
        ("e-paths-list", "paths:\n  - \"src/**\""),
        ("e-paths-empty-list", "paths: []"),
        ("e-paths-empty-string", "paths: \"\""),
        ("e-unknown-key", "x-custom: [1, 2]"),
        ("e-user-invocable-1", "user-invocable: 1"),
        ("e-allowed-tools-null-list", "allowed-tools: [Read, null]"),
    ] {
        e(id, format!("name: {id}\n{}\n{extra}", d(id)), 0);
    }
    v
}

/// The project root each agent reads and no other of the five agents' projects scans twice.
pub fn native_root(agent: &str) -> &'static str {
    match agent {
        "codex" => ".agents/skills",
        "opencode" => ".opencode/skills",
        "pi" => ".pi/skills",
        "copilot-cli" => ".github/skills",
        "gemini-cli" => ".gemini/skills",
        "qwen-code" => ".qwen/skills",
        "qoder-cli" => ".qoder/skills",
        "kilo" => ".kilo/skills",
        "factory-droid" => ".factory/skills",
        "amp" => ".agents/skills",
        "cline" => ".cline/skills",
        "auggie" => ".augment/skills",
        _ => ".claude/skills",
    }
}

/// Skills per tree of Qoder CLI's field matrix.
pub const QODER_PART: usize = 100;

/// The targeted field cases: per agent, the whole matrix in its own project root, in four trees
/// (the shared one and three `name` groups). Every finding of issue #15 is one of these probes
/// (`f-user-invocable-yes`, `f-argument-hint-flow-list`, `e-argument-hint-two-lists`,
/// `e-metadata-null`, `e-paths-list`, `n-name-mapping`, `f-description-null`, …).
pub fn field_cases() -> Vec<Case> {
    let probes = field_probes();
    let mut v = Vec::new();
    for agent in super::AGENTS {
        for group in 0..4 {
            let name = if group == 0 {
                format!("fields-{agent}")
            } else {
                format!("fields-names{group}-{agent}")
            };
            let group: Vec<&Probe> = probes.iter().filter(|p| p.group == group).collect();
            // Qoder CLI 1.1.52 exits 1 ("Watcher did not become ready within 5000ms") when its
            // watcher of the skills root is not ready in 5 s, which ~380 folders under load
            // exceed: its matrix runs in trees of at most QODER_PART skills.
            let parts = if agent == "qoder-cli" {
                group.chunks(QODER_PART).collect::<Vec<_>>()
            } else {
                vec![group.as_slice()]
            };
            let many = parts.len() > 1;
            for (i, part) in parts.into_iter().enumerate() {
                let mut c = Case::new(&if many {
                    format!("{name}-part{}", i + 1)
                } else {
                    name.clone()
                });
                c.agents = Some(vec![agent]);
                for p in part {
                    c.add(format!(
                        "@@ w/project/{}/{}/SKILL.md\n---\n{}\n---\n# Title\n\nFirst body paragraph of {}.\n\nSecond paragraph.\n",
                        native_root(agent),
                        p.id,
                        p.front,
                        p.id
                    ));
                }
                v.push(c);
            }
        }
    }
    v
}

/// A field value drawn from the matrix for a random tree: a field (not name or description),
/// its shape, and the line(s).
fn random_field(r: &mut XorShift) -> (&'static str, String) {
    let field = FIELDS[2 + r.below(FIELDS.len() - 2)];
    let (_, value) = *r.pick(&SHAPES);
    (field, field_lines(field, value))
}

/// The frontmatter key a field is written under (`metadata.x` → `metadata`).
fn top_key(field: &str) -> &str {
    field.split('.').next().unwrap_or(field)
}

/// Where each of the newer agents (Kilo, Factory Droid, Amp) may read skills, relative to the
/// base of a tree whose cwd is `w/project/sub` below the git root `w/project`: every user root,
/// and each project root at cwd and at the git root.
fn locations(agent: &str) -> Vec<String> {
    let (home, project): (&[&str], &[&str]) = match agent {
        "kilo" => (
            &[
                ".claude/skills",
                ".agents/skills",
                ".config/kilo/skill",
                ".config/kilo/skills",
                ".kilocode/skill",
                ".kilocode/skills",
                ".kilo/skill",
                ".kilo/skills",
            ],
            &[
                ".claude/skills",
                ".agents/skills",
                ".kilocode/skills",
                ".kilo/skill",
                ".kilo/skills",
            ],
        ),
        "factory-droid" => (
            &[".factory/skills", ".agents/skills"],
            &[".factory/skills", ".agents/skills"],
        ),
        _ => (
            &[
                ".config/agents/skills",
                ".agents/skills",
                ".config/amp/skills",
                ".claude/skills",
            ],
            &[".agents/skills", ".claude/skills"],
        ),
    };
    let mut v: Vec<String> = home.iter().map(|r| format!("home/{r}")).collect();
    for level in ["w/project/sub", "w/project"] {
        v.extend(project.iter().map(|r| format!("{level}/{r}")));
    }
    v
}

/// Targeted cases for Kilo, Factory Droid and Amp: which folders are roots, the precedence of
/// every pair of roots, ties inside one root, and their known bugs.
pub fn oracleb_cases() -> Vec<Case> {
    const NEW: [&str; 3] = ["kilo", "factory-droid", "amp"];
    let mut v = Vec::new();

    // Every folder any of them reads or is said not to read, project (cwd, git root, above the
    // git root) and home, one skill each.
    let mut c = Case::new("roots-new");
    c.agents = Some(NEW.to_vec());
    c.cwd = "w/project/sub".into();
    for r in [
        ".agents/skills",
        ".claude/skills",
        ".factory/skills",
        ".droid/skills",
        ".kilo/skills",
        ".kilo/skill",
        ".kilocode/skills",
        ".kilocode/skill",
        ".amp/skills",
        ".codex/skills",
        ".opencode/skills",
        ".cursor/skills",
        ".github/skills",
    ] {
        let s = slug(r);
        c.std(&format!("w/project/sub/{r}/n-cwd-{s}"));
        c.std(&format!("w/project/{r}/n-top-{s}"));
        c.std(&format!("w/{r}/n-above-{s}"));
    }
    for r in [
        ".agents/skills",
        ".claude/skills",
        ".factory/skills",
        ".kilo/skills",
        ".kilo/skill",
        ".kilocode/skills",
        ".kilocode/skill",
        ".config/kilo/skills",
        ".config/kilo/skill",
        ".config/kilocode/skills",
        ".config/amp/skills",
        ".config/agents/skills",
        ".config/opencode/skills",
        ".amp/skills",
        ".codex/skills",
    ] {
        c.std(&format!("home/{r}/n-home-{}", slug(r)));
    }
    v.push(c);

    // Precedence: for every pair of places an agent reads, a name found in exactly those two.
    for agent in NEW {
        let mut c = Case::new(&format!("pairs-{agent}"));
        c.agents = Some(vec![agent]);
        c.cwd = "w/project/sub".into();
        let locs = locations(agent);
        // Kilo reads `skill/` and `skills/` of one folder in one glob, where the winner is
        // random: those pairs are left out.
        let one_glob = |a: &str, b: &str| {
            a.strip_suffix("/skill") == b.strip_suffix("/skills")
                && a.ends_with("/skill")
                && b.ends_with("/skills")
                || b.strip_suffix("/skill") == a.strip_suffix("/skills")
                    && b.ends_with("/skill")
                    && a.ends_with("/skills")
        };
        for i in 0..locs.len() {
            for j in i + 1..locs.len() {
                if one_glob(&locs[i], &locs[j]) {
                    continue;
                }
                let name = format!("p{i}-{j}");
                for (k, l) in [(i, &locs[i]), (j, &locs[j])] {
                    c.skill(
                        &format!("{l}/{name}"),
                        &format!("name: {name}\ndescription: Copy in place {k}."),
                    );
                }
            }
        }
        v.push(c);
    }

    // Hidden folders in the roots only they read.
    let mut c = Case::new("hidden-new");
    c.agents = Some(NEW.to_vec());
    for r in [
        "w/project/.kilo/skills",
        "w/project/.kilocode/skills",
        "w/project/.factory/skills",
        "home/.kilo/skills",
        "home/.config/kilo/skills",
        "home/.factory/skills",
        "home/.config/amp/skills",
        "home/.config/agents/skills",
    ] {
        let s = r.replace(['/', '.'], "-");
        c.std(&format!("{r}/.hidden/hid{s}"));
        c.std(&format!("{r}/.dot{s}"));
        c.std(&format!("{r}/node_modules/nm{s}"));
        c.std(&format!("{r}/vis{s}"));
    }
    v.push(c);

    // Two or three copies of one name inside one root: sorted, read order or random.
    let mut c = Case::new("within-root-new");
    c.agents = Some(NEW.to_vec());
    for r in [".agents/skills", ".factory/skills", ".kilo/skills"] {
        let s = slug(r);
        let same = format!("same-{s}");
        for dir in ["aa", "zz", "mm"] {
            c.skill(
                &format!("w/project/{r}/{dir}"),
                &format!("name: {same}\ndescription: Copy {dir}."),
            );
        }
        let n = format!("nest-{s}");
        c.skill(
            &format!("w/project/{r}/{n}"),
            &format!("name: {n}\ndescription: Top copy."),
        );
        c.skill(
            &format!("w/project/{r}/group0/{n}"),
            &format!("name: {n}\ndescription: Grouped copy."),
        );
        let k = format!("case-{s}");
        c.skill(
            &format!("w/project/{r}/alpha"),
            &format!("name: {k}\ndescription: Lower folder."),
        );
        c.skill(
            &format!("w/project/{r}/Zed"),
            &format!("name: {k}\ndescription: Upper folder."),
        );
    }
    v.push(c);

    // Known bugs. Factory Droid: a UTF-8 BOM (and a numeric name) list as a disabled `unknown`.
    let mut c = Case::new("bug-bom");
    c.agents = Some(vec!["factory-droid", "kilo", "amp"]);
    c.add(
        "@@ w/project/.agents/skills/bom/SKILL.md\n\u{feff}---\nname: bom\ndescription: With BOM.\n---\nBody\n"
            .into(),
    );
    c.std("w/project/.agents/skills/plain");
    v.push(c);

    // Amp: a numeric name crashes `amp skill list` (or lists the number).
    let mut c = Case::new("bug-numeric-name");
    c.agents = Some(vec!["amp", "factory-droid", "kilo"]);
    c.skill(
        "w/project/.agents/skills/num",
        "name: 123\ndescription: Numeric name.",
    );
    c.std("w/project/.agents/skills/plain");
    c.std("w/project/.agents/skills/other");
    v.push(c);

    v
}

/// Targeted cases for Cline (through its SDK loader, with paths) and Auggie (its ACP command
/// list, names only): which folders are roots (from a sub-folder of the git repository), the
/// precedence of every pair of roots, copies inside one root (sorted order, case), and parsing.
pub fn cline_auggie_cases() -> Vec<Case> {
    const BOTH: [&str; 2] = ["cline", "auggie"];
    let mut v = Vec::new();

    // Every folder either reads or is said not to read: at the cwd (a sub-folder), the git root
    // and above it; and in the home.
    let mut c = Case::new("roots-cline-auggie");
    c.agents = Some(BOTH.to_vec());
    c.cwd = "w/project/sub".into();
    for r in [
        ".clinerules/skills",
        ".cline/skills",
        ".agents/skills",
        ".augment/skills",
        ".claude/skills",
        ".github/skills",
        ".codex/skills",
    ] {
        let s = slug(r);
        c.std(&format!("w/project/sub/{r}/c-cwd-{s}"));
        c.std(&format!("w/project/{r}/c-top-{s}"));
        c.std(&format!("w/{r}/c-above-{s}"));
    }
    for r in [
        ".cline/skills",
        ".agents/skills",
        ".augment/skills",
        ".claude/skills",
        ".clinerules/skills",
        ".config/agents/skills",
        ".codex/skills",
        "Documents/Cline/skills",
    ] {
        c.std(&format!("home/{r}/c-home-{}", slug(r)));
    }
    v.push(c);

    // Precedence: a name found in exactly two of the places the agent reads, for every pair.
    for (agent, places) in [
        (
            "cline",
            &[
                "w/project/.clinerules/skills",
                "w/project/.cline/skills",
                "w/project/.agents/skills",
                "home/.cline/skills",
                "home/.agents/skills",
            ][..],
        ),
        (
            "auggie",
            &[
                "home/.augment/skills",
                "w/project/.augment/skills",
                "home/.claude/skills",
                "w/project/.claude/skills",
                "home/.agents/skills",
                "w/project/.agents/skills",
            ][..],
        ),
    ] {
        let mut c = Case::new(&format!("pairs-{agent}"));
        c.agents = Some(vec![agent]);
        for i in 0..places.len() {
            for j in i + 1..places.len() {
                let name = format!("p{i}-{j}");
                for (k, l) in [(i, places[i]), (j, places[j])] {
                    c.skill(
                        &format!("{l}/{name}"),
                        &format!("name: {name}\ndescription: Copy in place {k}."),
                    );
                }
            }
        }
        // One name in every place.
        for (k, l) in places.iter().enumerate() {
            c.skill(
                &format!("{l}/all"),
                &format!("name: all\ndescription: Copy in place {k}."),
            );
        }
        v.push(c);
    }

    // Copies inside one root: three folders with one name, folders that sort differently with
    // and without case, names that differ only in case, and a copy one level down.
    let mut c = Case::new("within-root-cline-auggie");
    c.agents = Some(BOTH.to_vec());
    for r in [".cline/skills", ".agents/skills", ".augment/skills"] {
        let s = slug(r);
        let same = format!("same-{s}");
        for dir in ["aa", "zz", "mm"] {
            c.skill(
                &format!("w/project/{r}/{dir}"),
                &format!("name: {same}\ndescription: Copy {dir}."),
            );
        }
        let k = format!("case-{s}");
        c.skill(
            &format!("w/project/{r}/alpha-{s}"),
            &format!("name: {k}\ndescription: Lower folder."),
        );
        c.skill(
            &format!("w/project/{r}/Zed-{s}"),
            &format!("name: {k}\ndescription: Upper folder."),
        );
        c.skill(
            &format!("w/project/{r}/low-{s}"),
            &format!("name: mixed-{s}\ndescription: Lower-case name."),
        );
        c.skill(
            &format!("w/project/{r}/up-{s}"),
            &format!("name: Mixed-{s}\ndescription: Upper-case name."),
        );
        let n = format!("nest-{s}");
        c.skill(
            &format!("w/project/{r}/{n}"),
            &format!("name: {n}\ndescription: Top copy."),
        );
        c.skill(
            &format!("w/project/{r}/group0/{n}"),
            &format!("name: {n}\ndescription: Grouped copy."),
        );
    }
    // Case across roots: `Across` in the project, `across` in the home.
    c.skill(
        "w/project/.cline/skills/across-p",
        "name: Across\ndescription: Project copy.",
    );
    c.skill(
        "home/.cline/skills/across-u",
        "name: across\ndescription: User copy.",
    );
    v.push(c);

    // Parsing and the walk, in each agent's own project root.
    for (agent, r) in [
        ("cline", "w/project/.cline/skills"),
        ("auggie", "w/project/.augment/skills"),
    ] {
        let mut c = Case::new(&format!("parse-{agent}"));
        c.agents = Some(vec![agent]);
        c.std(&format!("{r}/plain"));
        c.skill(
            &format!("{r}/colon"),
            "name: colon\ndescription: Use when: x",
        );
        c.skill(&format!("{r}/numname"), "name: 123\ndescription: Numeric.");
        c.skill(&format!("{r}/noname"), "description: No name.");
        c.skill(&format!("{r}/nodesc"), "name: nodesc");
        c.skill(
            &format!("{r}/folder-x"),
            "name: fm-name\ndescription: Other name.",
        );
        c.skill(
            &format!("{r}/upper"),
            "name: Upper-Dup\ndescription: Upper.",
        );
        c.skill(
            &format!("{r}/slashes"),
            "name: a:b/c\ndescription: Odd name.",
        );
        c.skill(
            &format!("{r}/long"),
            &format!("name: {}\ndescription: Long name.", "l".repeat(80)),
        );
        c.skill(
            &format!("{r}/off"),
            "name: off\ndescription: Off.\ndisabled: true",
        );
        c.skill(
            &format!("{r}/on"),
            "name: on\ndescription: On.\ndisabled: false",
        );
        c.skill(
            &format!("{r}/.dot-skill"),
            "name: dot-skill\ndescription: Hidden.",
        );
        c.std(&format!("{r}/.hidden/hidden-skill"));
        c.std(&format!("{r}/group/grouped"));
        c.std(&format!("{r}/outer"));
        c.std(&format!("{r}/outer/refs/inner"));
        c.add(format!("@@ {r}/nofm/SKILL.md\n# Just a body\n\nText.\n"));
        c.add(format!(
            "@@ {r}/emptybody/SKILL.md\n---\nname: emptybody\ndescription: No body.\n---\n"
        ));
        c.add(format!(
            "@@ {r}/bom/SKILL.md\n{}---\nname: bom\ndescription: With BOM.\n---\nBody\n",
            '\u{feff}'
        ));
        c.add(format!(
            "@@ {r}/lower/skill.md\n---\nname: lower\ndescription: Lowercase file.\n---\nBody\n"
        ));
        c.std("w/ext/linked-target");
        c.link(&format!("{r}/linked-link"), "w/ext/linked-target");
        v.push(c);
    }
    v
}
