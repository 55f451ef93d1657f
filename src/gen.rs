//! A generator of realistic skill trees, for benchmarks (`cargo run --example gen`) and tests.
//!
//! One tree holds a home folder and a git repository whose project folder is a package inside it
//! (`repo/packages/web`), so that project roots exist both at the project folder and at the git
//! root (a monorepo). `skills` SKILL.md files are spread over every agent's roots at project and
//! user scope, with: the same skill installed for several agents (copies and symlinked folders:
//! name collisions), grouping folders (`<root>/<group>/<name>/SKILL.md`), nested skills (a
//! SKILL.md inside another skill's folder), bundled files (`scripts/`, `references/`, `assets/`,
//! 0–40 files per skill, most skills with few), descriptions of realistic length (80–500
//! characters), bodies of 1–8 KiB, and about 1 % broken files (unclosed frontmatter, invalid YAML,
//! missing fields, bad names, invalid UTF-8, NUL bytes, empty files, `skill.md` spelling, loose
//! `*.md` in a root).
//!
//! The shapes of public catalogs (anthropics/skills, NVIDIA/skills, github/awesome-copilot, …),
//! in synthetic text: `metadata` with list values (`tags: [a, b]`), `argument-hint` (a string, or
//! the YAML list `[describe the thing]`), `allowed-tools` as words, commas or a YAML list, plugin
//! folders (`<root>/plugins/<p>/skills/<s>/SKILL.md`), README.md and LICENSE beside SKILL.md, and
//! bodies whose code blocks hold the user's project paths (`src/lib/auth.ts`), placeholders
//! (`path/to/…`, `<output-dir>`) and version lists, beside links and paths to the skill's own
//! files (`[guide](references/…)`, `${CLAUDE_SKILL_DIR}/scripts/…`); about 3 % of skills link a
//! file they lack (`references/missing-…`, counted in [`Stats::missing_refs`]). The output is
//! deterministic for a given seed.

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

/// What to generate.
#[derive(Debug, Clone)]
pub struct Options {
    /// SKILL.md files to write (copies, nested and broken files included).
    pub skills: usize,
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            skills: 1000,
            seed: 0x5eed,
        }
    }
}

/// Where the generated tree's project and home are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    pub out: PathBuf,
    pub project: PathBuf,
    pub home: PathBuf,
    pub git_root: PathBuf,
}

impl Tree {
    pub fn at(out: &Path) -> Tree {
        Tree {
            out: out.to_path_buf(),
            project: out.join("repo/packages/web"),
            home: out.join("home"),
            git_root: out.join("repo"),
        }
    }
}

/// What was written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// SKILL.md (and loose `*.md`) files, symlinked copies included.
    pub skill_files: usize,
    /// Distinct skill names.
    pub names: usize,
    /// Copies of an earlier skill in another root (files and symlinked folders).
    pub copies: usize,
    pub symlinked: usize,
    pub grouped: usize,
    pub nested: usize,
    pub broken: usize,
    pub bundled_files: usize,
    /// Skills inside plugin folders (`<root>/plugins/<p>/skills/<name>`).
    pub plugins: usize,
    /// README.md and LICENSE files beside a SKILL.md.
    pub side_files: usize,
    /// Written SKILL.md files (copies included) whose body links a file the skill lacks.
    pub missing_refs: usize,
    pub bytes: u64,
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 1000 < percent * 10
    }
}

/// Where roots sit.
#[derive(Clone, Copy)]
enum Base {
    Project,
    GitRoot,
    Home,
}

/// Every agent's roots (project roots at the project folder and at the git root), with weights.
const ROOTS: [(Base, &str, usize); 21] = [
    (Base::Project, ".agents/skills", 10),
    (Base::Project, ".claude/skills", 10),
    (Base::Project, ".codex/skills", 3),
    (Base::Project, ".cursor/skills", 3),
    (Base::Project, ".github/skills", 4),
    (Base::Project, ".opencode/skills", 2),
    (Base::Project, ".opencode/skill", 1),
    (Base::Project, ".pi/skills", 2),
    (Base::GitRoot, ".agents/skills", 5),
    (Base::GitRoot, ".claude/skills", 5),
    (Base::GitRoot, ".github/skills", 2),
    (Base::Home, ".agents/skills", 12),
    (Base::Home, ".claude/skills", 14),
    (Base::Home, ".codex/skills", 5),
    (Base::Home, ".codex/skills/.system", 1),
    (Base::Home, ".config/opencode/skills", 3),
    (Base::Home, ".copilot/skills", 4),
    (Base::Home, ".cursor/skills", 4),
    (Base::Home, ".gemini/config/skills", 3),
    (Base::Home, ".opencode/skills", 1),
    (Base::Home, ".pi/agent/skills", 3),
];

const VERBS: [&str; 24] = [
    "analyze",
    "build",
    "check",
    "convert",
    "deploy",
    "draft",
    "extract",
    "fill",
    "format",
    "generate",
    "inspect",
    "lint",
    "merge",
    "migrate",
    "plan",
    "profile",
    "refactor",
    "release",
    "review",
    "scaffold",
    "summarize",
    "test",
    "translate",
    "triage",
];
const NOUNS: [&str; 32] = [
    "api",
    "brand",
    "changelog",
    "chart",
    "commit",
    "component",
    "contract",
    "csv",
    "dashboard",
    "docker",
    "docs",
    "email",
    "excel",
    "figma",
    "form",
    "graphql",
    "invoice",
    "k8s",
    "log",
    "notebook",
    "pdf",
    "pptx",
    "pr",
    "query",
    "schema",
    "slides",
    "spreadsheet",
    "sql",
    "terraform",
    "ticket",
    "ui",
    "webapp",
];
const GROUPS: [&str; 8] = [
    "frontend", "backend", "data", "ops", "docs", "security", "vendor", "team",
];
const WORDS: [&str; 48] = [
    "use",
    "when",
    "the",
    "user",
    "asks",
    "to",
    "a",
    "an",
    "with",
    "for",
    "files",
    "project",
    "repository",
    "and",
    "or",
    "this",
    "skill",
    "helps",
    "create",
    "update",
    "validate",
    "reports",
    "tables",
    "from",
    "data",
    "into",
    "clear",
    "consistent",
    "output",
    "following",
    "team",
    "conventions",
    "including",
    "edge",
    "cases",
    "tests",
    "scripts",
    "templates",
    "reference",
    "guide",
    "steps",
    "before",
    "after",
    "changes",
    "review",
    "quickly",
    "safely",
    "documents",
];
const TOOLS: [&str; 6] = ["Bash", "Read", "Write", "Edit", "Grep", "WebFetch"];

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(&WORDS));
    }
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str() + ".",
        None => s,
    }
}

fn description(rng: &mut Rng) -> String {
    let target = rng.range(80, 500);
    let mut d = String::new();
    while d.len() < target {
        if !d.is_empty() {
            d.push(' ');
        }
        let n = rng.range(6, 16);
        d.push_str(&sentence(rng, n));
    }
    d
}

fn frontmatter(rng: &mut Rng, name: &str) -> String {
    let mut fm = String::from("---\n");
    let _ = writeln!(fm, "name: {name}");
    let d = description(rng);
    if rng.chance(30) {
        // Folded block scalar, as many published skills write long descriptions.
        fm.push_str("description: >-\n");
        for chunk in d.as_bytes().chunks(72) {
            let _ = writeln!(fm, "  {}", String::from_utf8_lossy(chunk).trim());
        }
    } else {
        let _ = writeln!(fm, "description: {}", d.replace(": ", " - "));
    }
    if rng.chance(40) {
        fm.push_str("license: Apache-2.0\n");
    }
    if rng.chance(25) {
        fm.push_str("compatibility: Requires Python 3.10+ and network access\n");
    }
    if rng.chance(35) {
        let n = rng.range(1, 4);
        let tools: Vec<&str> = (0..n).map(|_| rng.pick(&TOOLS)).collect();
        match rng.below(3) {
            0 => {
                let _ = writeln!(fm, "allowed-tools: {}", tools.join(" "));
            }
            // Claude Code's comma form with a scoped Bash rule.
            1 => {
                let _ = writeln!(fm, "allowed-tools: {}, Bash(git:*)", tools.join(", "));
            }
            _ => {
                fm.push_str("allowed-tools:\n");
                for t in tools {
                    let _ = writeln!(fm, "  - {t}");
                }
            }
        }
    }
    if rng.chance(15) {
        // A YAML flow list (what many published skills write), or a string.
        let hint = match rng.below(3) {
            0 => format!("[describe the {}]", rng.pick(&NOUNS)),
            1 => format!("\"<{}-file> [--dry-run]\"", rng.pick(&NOUNS)),
            _ => format!("<{}-name>", rng.pick(&NOUNS)),
        };
        let _ = writeln!(fm, "argument-hint: {hint}");
    }
    if rng.chance(40) {
        let _ = writeln!(
            fm,
            "metadata:\n  author: example-org\n  version: \"{}.{}\"",
            rng.below(4),
            rng.below(10)
        );
        // List values under metadata (`metadata.tags: [..]`), flow or block style.
        if rng.chance(60) {
            let tags: Vec<&str> = (0..rng.range(1, 4)).map(|_| rng.pick(&NOUNS)).collect();
            if rng.chance(70) {
                let _ = writeln!(fm, "  tags: [{}]", tags.join(", "));
            } else {
                fm.push_str("  tags:\n");
                for t in tags {
                    let _ = writeln!(fm, "    - {t}");
                }
            }
        }
    }
    if rng.chance(8) {
        // Agent-specific extensions.
        fm.push_str("disable-model-invocation: true\n");
    }
    if rng.chance(5) {
        fm.push_str("user-invocable: false\n");
    }
    fm.push_str("---\n");
    fm
}

/// Paths of the user's project, as skills show them in examples.
const PROJECT_PATHS: [&str; 10] = [
    "src/lib/auth.ts",
    "app/api/webhooks/route.ts",
    "src/components/Button.tsx",
    "tests/unit/test_api.py",
    "docs/setup.md",
    "lib/db/users.ts",
    "templates/report.html",
    "modules/network/main.tf",
    "scripts/deploy.sh",
    "assets/styles/main.css",
];

/// One code block or line of the kind real bodies hold, none a file of the skill.
fn example(rng: &mut Rng, b: &mut String) {
    let project = rng.pick(&PROJECT_PATHS);
    match rng.below(6) {
        0 => {
            let _ = writeln!(
                b,
                "\n```bash\npython scripts/run.py --input data.csv --out report.md\n```"
            );
        }
        1 => {
            let n = rng.range(4, 9);
            let _ = writeln!(
                b,
                "\n```ts\n// {project} - {}\nimport {{ helper }} from \"./lib/helper\";\nexport const x = helper(\"path/to/input.json\");\n```",
                sentence(rng, n)
            );
        }
        2 => {
            let _ = writeln!(
                b,
                "\n```bash\n./{project} --config path/to/config.yaml --out <output-dir>\ncp {{name}}/SKILL.md your-skill/SKILL.md\n```"
            );
        }
        3 => {
            // A layout of the user's project, in a tilde fence.
            let _ = writeln!(
                b,
                "\n~~~text\nsrc/\n  components/Button.tsx\n  lib/auth.ts\n{project}\n~~~"
            );
        }
        4 => {
            // In prose only paths under folders no generated skill has (a path under a folder
            // the skill has reads as the skill's own file).
            let project = rng.pick(&PROJECT_PATHS[..8]);
            let _ = writeln!(
                b,
                "\nEdit `{project}` in the user's project; see https://example.com/docs/{project}."
            );
        }
        _ => {
            let _ = writeln!(
                b,
                "\nWorks with models 4.6/4.7/4.8; name outputs `reports/<date>.md`."
            );
        }
    }
}

/// The body; it refers to some of the skill's `bundle` files (`folder/file`), and, when
/// `missing` is set, links a file the skill lacks.
fn body(rng: &mut Rng, name: &str, bundle: &[String], missing: Option<usize>) -> String {
    let target = rng.range(1024, 8 * 1024);
    let mut b = format!("\n# {name}\n\n");
    if let Some(i) = missing {
        let _ = writeln!(
            b,
            "Read [the notes](references/missing-notes-{i}.md) before you start.\n"
        );
    }
    let mut section = 0;
    while b.len() < target {
        section += 1;
        let _ = writeln!(b, "## Step {section}\n");
        let n = rng.range(8, 20);
        let _ = writeln!(b, "{}\n", sentence(rng, n));
        for _ in 0..rng.range(2, 6) {
            let n = rng.range(4, 12);
            let _ = writeln!(b, "- {}", sentence(rng, n));
        }
        if rng.chance(40) {
            example(rng, &mut b);
        }
        if !bundle.is_empty() && rng.chance(30) {
            let f = &bundle[rng.below(bundle.len())];
            match rng.below(3) {
                0 => {
                    let _ = writeln!(b, "\nSee [{f}]({f}) for details.");
                }
                1 => {
                    let _ = writeln!(b, "\nRun `{f}` when the checks pass.");
                }
                _ => {
                    let _ = writeln!(b, "\n```bash\nbash ${{CLAUDE_SKILL_DIR}}/{f}\n```");
                }
            }
        }
        b.push('\n');
    }
    b
}

/// Bundled files per skill: most skills have none or a few, some up to 40.
fn bundle_count(rng: &mut Rng) -> usize {
    match rng.below(100) {
        0..=39 => 0,
        40..=79 => rng.range(1, 5),
        80..=94 => rng.range(6, 20),
        _ => rng.range(21, 40),
    }
}

const FILLER: &str = "# generated reference material for benchmarks\n\
    lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt\n";

/// The bundled files of a skill (`folder/file`), chosen before its body refers to them.
fn bundle_files(rng: &mut Rng) -> Vec<String> {
    let n = bundle_count(rng);
    (0..n)
        .map(|i| match rng.below(3) {
            0 => format!("scripts/{}_{i}.py", rng.pick(&VERBS)),
            1 => format!("references/{}-{i}.md", rng.pick(&NOUNS)),
            _ => format!("assets/template-{i}.json"),
        })
        .collect()
}

fn write_bundle(rng: &mut Rng, dir: &Path, files: &[String], stats: &mut Stats) -> io::Result<()> {
    for f in files {
        let p = dir.join(f);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d)?;
        }
        let len = rng.range(100, 1500);
        let mut text = String::with_capacity(len + FILLER.len());
        while text.len() < len {
            text.push_str(FILLER);
        }
        std::fs::write(p, &text)?;
        stats.bundled_files += 1;
        stats.bytes += text.len() as u64;
    }
    Ok(())
}

/// A broken SKILL.md of kind `k`: (file name, bytes).
fn broken(k: usize, name: &str, rng: &mut Rng) -> (&'static str, Vec<u8>) {
    let d = description(rng);
    match k % 8 {
        0 => (
            "SKILL.md",
            format!("---\nname: {name}\ndescription: {d}\n\n# never closed\n").into_bytes(),
        ),
        1 => (
            "SKILL.md",
            format!("---\nname: {name}\ndescription: broken: [yaml: {{\n---\nbody\n").into_bytes(),
        ),
        2 => (
            "SKILL.md",
            format!("---\nname: {name}\n---\n# missing description\n").into_bytes(),
        ),
        3 => (
            "SKILL.md",
            format!("---\nname: Not_{name}\ndescription: {d}\n---\nbody\n").into_bytes(),
        ),
        4 => {
            let mut b =
                format!("---\nname: {name}\ndescription: {d}\n---\nbad byte: ").into_bytes();
            b.extend_from_slice(&[0xff, 0xfe, b'\n']);
            ("SKILL.md", b)
        }
        5 => ("SKILL.md", b"\0\x01binary\0".to_vec()),
        6 => ("SKILL.md", Vec::new()),
        _ => (
            "skill.md",
            format!("---\nname: {name}\ndescription: {d}\n---\nlowercase file name\n").into_bytes(),
        ),
    }
}

fn root_path(tree: &Tree, base: Base, rel: &str) -> PathBuf {
    match base {
        Base::Project => tree.project.join(rel),
        Base::GitRoot => tree.git_root.join(rel),
        Base::Home => tree.home.join(rel),
    }
}

fn pick_root(rng: &mut Rng) -> usize {
    let total: usize = ROOTS.iter().map(|r| r.2).sum();
    let mut x = rng.below(total);
    for (i, r) in ROOTS.iter().enumerate() {
        if x < r.2 {
            return i;
        }
        x -= r.2;
    }
    0
}

/// Writes the tree under `out` (which must not hold an older tree: the caller clears it).
pub fn generate(out: &Path, opts: &Options) -> io::Result<(Tree, Stats)> {
    let tree = Tree::at(out);
    let mut stats = Stats::default();
    let mut rng = Rng(opts.seed);
    // A git work tree at repo/: HEAD, objects/, refs/ (what skilltui's git-root check needs).
    let git = tree.git_root.join(".git");
    std::fs::create_dir_all(git.join("objects"))?;
    std::fs::create_dir_all(git.join("refs"))?;
    std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n")?;
    std::fs::create_dir_all(&tree.project)?;
    std::fs::create_dir_all(&tree.home)?;
    for (base, rel, _) in ROOTS {
        std::fs::create_dir_all(root_path(&tree, base, rel))?;
    }
    std::fs::write(
        tree.project.join(".agents/skills/.gitignore"),
        "drafts/\n*.tmp\n",
    )?;

    // (skill folder, name, root index, seed of its content) of every regular skill so far.
    let mut made: Vec<(PathBuf, String, usize, u64)> = Vec::new();
    let mut written = 0usize;
    let mut i = 0usize;
    while written < opts.skills {
        i += 1;
        let roll = rng.below(1000);
        let ri = pick_root(&mut rng);
        let (base, rel, _) = ROOTS[ri];
        let root = root_path(&tree, base, rel);
        if roll < 120 && !made.is_empty() {
            // The same skill installed for another agent: a copy, or a symlinked folder.
            let (src, name, src_root, seed) = made[rng.below(made.len())].clone();
            if src_root == ri {
                continue;
            }
            let dst = root.join(&name);
            if dst.exists() {
                continue;
            }
            stats.copies += 1;
            if rng.chance(35) {
                std::os::unix::fs::symlink(&src, &dst)?;
                stats.symlinked += 1;
            } else {
                let mut r = Rng(seed);
                write_skill(&mut r, &dst, &name, &mut stats)?;
            }
            stats.skill_files += 1;
            written += 1;
            continue;
        }
        let name = format!(
            "{}-{}-{}",
            rng.pick(&VERBS),
            rng.pick(&NOUNS),
            radix36(i as u64)
        );
        if roll < 130 {
            // About 1 %: broken files.
            let k = rng.below(9);
            if k == 8 {
                // A loose Markdown file directly in a root (some agents load those).
                let d = description(&mut rng);
                std::fs::write(
                    root.join(format!("{name}.md")),
                    format!("---\nname: {name}\ndescription: {d}\n---\nloose\n"),
                )?;
            } else {
                let (file, bytes) = broken(k, &name, &mut rng);
                let dir = root.join(&name);
                std::fs::create_dir_all(&dir)?;
                stats.bytes += bytes.len() as u64;
                std::fs::write(dir.join(file), bytes)?;
            }
            stats.broken += 1;
            stats.skill_files += 1;
            stats.names += 1;
            written += 1;
            continue;
        }
        let dir = if roll < 160 && !made.is_empty() {
            // Nested: a skill inside another skill's folder.
            let (parent, _, _, _) = &made[rng.below(made.len())];
            stats.nested += 1;
            parent.join("sub-skills").join(&name)
        } else if roll < 310 {
            stats.grouped += 1;
            root.join(rng.pick(&GROUPS)).join(&name)
        } else if roll < 340 {
            // A plugin folder inside the root, as plugin catalogs lay skills out.
            let plugin = root.join("plugins").join(rng.pick(&GROUPS));
            std::fs::create_dir_all(plugin.join(".claude-plugin"))?;
            std::fs::write(
                plugin.join(".claude-plugin/plugin.json"),
                "{\"name\": \"generated\", \"version\": \"1.0.0\"}\n",
            )?;
            stats.plugins += 1;
            plugin.join("skills").join(&name)
        } else {
            root.join(&name)
        };
        let seed = rng.next();
        let mut r = Rng(seed);
        write_skill(&mut r, &dir, &name, &mut stats)?;
        made.push((dir, name, ri, seed));
        stats.skill_files += 1;
        stats.names += 1;
        written += 1;
    }
    Ok((tree, stats))
}

fn write_skill(rng: &mut Rng, dir: &Path, name: &str, stats: &mut Stats) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let fm = frontmatter(rng, name);
    let files = bundle_files(rng);
    let missing = rng.chance(3).then(|| rng.below(100));
    let text = fm + &body(rng, name, &files, missing);
    stats.bytes += text.len() as u64;
    stats.missing_refs += usize::from(missing.is_some());
    std::fs::write(dir.join("SKILL.md"), text)?;
    if rng.chance(20) {
        // README.md and LICENSE beside SKILL.md, as catalogs ship them.
        let n = rng.range(6, 14);
        std::fs::write(
            dir.join("README.md"),
            format!("# {name}\n\n{}\n", sentence(rng, n)),
        )?;
        std::fs::write(
            dir.join("LICENSE"),
            "Synthetic licence text for generated test trees.\n",
        )?;
        stats.side_files += 2;
    }
    write_bundle(rng, dir, &files, stats)
}

fn radix36(mut n: u64) -> String {
    const D: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut s = Vec::new();
    loop {
        s.push(D[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

/// Generates into `out` unless a tree made with the same options is already there (a marker file
/// records them); returns the tree. Benchmarks use this to reuse trees between runs.
pub fn ensure(out: &Path, opts: &Options) -> io::Result<Tree> {
    let marker = out.join("gen.txt");
    let want = format!(
        "skilltui-gen v2 skills={} seed={}\n",
        opts.skills, opts.seed
    );
    if std::fs::read_to_string(&marker).is_ok_and(|m| m.starts_with(&want)) {
        return Ok(Tree::at(out));
    }
    if out.exists() {
        std::fs::remove_dir_all(out)?;
    }
    let (tree, stats) = generate(out, opts)?;
    std::fs::write(&marker, format!("{want}{stats:?}\n"))?;
    Ok(tree)
}
