#!/usr/bin/env python3
"""Convert free-text rule sources in agent models to structured, public sources.

Usage:  python3 assets/agents/tools/convert_sources.py [--check] [FILE.toml ...]
        (no FILE: every assets/agents/*.toml; --check: report, write nothing)
        Run from the repository root. `#N` issue numbers become URLs only for issues the
        research notes name by URL ($SKILLTUI_RESEARCH, default ../shared/research; without
        them, only explicit URLs are kept).

Only `source = "..."` strings are rewritten (a rule already in the list form is left alone),
in place, on the same line; a rule's `evidence` label is lowered in place when no public source
of its kind backs it: to the strongest label its public sources back, else INF. Each free-text source becomes a list of sources:

  * the research citations it names are mapped to public addresses: source files with line
    ranges become permalinks at the commit that was read (CODE below); `#N` issue numbers
    become issue URLs when the agent's tracker has that issue in the research (ISSUES);
    `tests/oracle: case NAME` and `oracle ... random tree N` become `observed` sources, and so
    does a run of the newest release the research reports, through the oracle case that
    exercises the rule (CASES);
  * the evidence label adds the source that backs it: OBS -> the oracle case that exercises the
    rule (CASES, only for the agents the oracle runs), DOC -> the agent's docs page, SPEC -> the
    specification, CL -> the agent's changelog, ASI -> the benchmark check (CHECKS), BUNDLE ->
    the package page at that version, SRC -> the file read at the commit;
  * what is left (research notes that are not public) becomes one `inferred` source that says
    what the claim rests on; a label that nothing public backs becomes INF.

Then run `cargo test --test agent_models` (it fails on a rule with no source, a permalink
without a commit, a missing oracle case or a URL outside the citable addresses).
"""
import json, os, re, sys, tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ORACLE = ["codex", "opencode", "pi", "copilot-cli", "claude-code"]
ORACLE_VERSION = {"codex": "0.171.0", "opencode": "1.18.34", "pi": "0.73.1", "copilot-cli": "1.0.102", "claude-code": "2.1.332"}

# Source code read at a commit: repository, commit, file name as cited -> path in the repository.
CODE = {
    "codex": ("openai/codex", "4e30281a13f7d1e5b58637ab7028023334617bee", {
        "loader.rs": "codex-rs/core-skills/src/loader.rs",
        "render.rs": "codex-rs/core-skills/src/render.rs",
        "injection.rs": "codex-rs/core-skills/src/injection.rs",
        "model.rs": "codex-rs/core-skills/src/model.rs",
        "config_loader/mod.rs": "codex-rs/core/src/config_loader/mod.rs",
        "skills/src/lib.rs": "codex-rs/skills/src/lib.rs",
        "Cargo.toml": "codex-rs/Cargo.toml",
    }, "loader.rs"),
    "pi": ("badlogic/pi-mono", "83378aad7e74a0e2bb8f37c007a9685fb4609d8a", {
        "skills.ts": "packages/coding-agent/src/core/skills.ts",
        "config.ts": "packages/coding-agent/src/config.ts",
        "package-manager.ts": "packages/coding-agent/src/core/package-manager.ts",
        "agent-session.ts": "packages/coding-agent/src/core/agent-session.ts",
        "resource-loader.ts": "packages/coding-agent/src/core/resource-loader.ts",
        "system-prompt.ts": "packages/coding-agent/src/core/system-prompt.ts",
        "frontmatter.ts": "packages/coding-agent/src/utils/frontmatter.ts",
    }, "skills.ts"),
}
CHANGELOG = {
    "claude-code": "https://github.com/anthropics/claude-code/blob/main/CHANGELOG.md",
    "copilot-cli": "https://github.com/github/copilot-cli/blob/main/changelog.md",
    "codex": "https://github.com/openai/codex/releases/tag/rust-v{v}",
    "opencode": "https://github.com/sst/opencode/releases/tag/v{v}",
    "pi": "https://github.com/badlogic/pi-mono/blob/main/packages/coding-agent/CHANGELOG.md",
    "cursor": "https://cursor.com/changelog",
}
PACKAGE = {
    "claude-code": "https://www.npmjs.com/package/@anthropic-ai/claude-code/v/{v}",
    "copilot-cli": "https://www.npmjs.com/package/@github/copilot/v/{v}",
    "codex": "https://www.npmjs.com/package/@openai/codex/v/{v}",
    "opencode": "https://www.npmjs.com/package/opencode-ai/v/{v}",
    "pi": "https://www.npmjs.com/package/@mariozechner/pi-coding-agent/v/{v}",
}
TRACKER = {
    "claude-code": "anthropics/claude-code", "copilot-cli": "github/copilot-cli",
    "codex": "openai/codex", "opencode": "sst/opencode", "pi": "badlogic/pi-mono",
}
ASI_PAGE = {"claude-code": "claude-code", "copilot-cli": "copilot", "antigravity": "antigravity", "codex": "codex"}
SPEC = "https://agentskills.io/specification"

# The oracle case (src/oracle/cases.rs) that exercises each rule, by key path (first match).
CASES = [
    (r"\.git_marker$", "fake-git"),
    (r"\.no_git$", "walk-nogit"),
    (r"\.walk$", "walk-git"),
    (r"\.except_user_roots$", "walk-nogit-home-ancestor"),
    (r"^settings\.[^.]*-env$", "env-overrides"),
    (r"(traversal\.)?nested$", "nesting"),
    (r"max_depth$", "depth"),
    (r"hidden$|node_modules$|ignore_files$", "hidden-node_modules-gitignore"),
    (r"symlinked_dirs$|symlinked_files$|reported_path$", "symlinks"),
    (r"skill_md_in_root$", "skill-md-in-root"),
    (r"loose_md$|file_name$", "loose-md"),
    (r"^precedence\.(mode|warns)$", "collision-scopes"),
    (r"^precedence\.order$", "collision-levels"),
    (r"^precedence\.tie_break$", "collision-within"),
    (r"^name_rules\.collision_key$", "collision-levels"),
    (r"^name_rules\.(charset|listed_spaces)$", "name-charset"),
    (r"^(name_rules|description_rules)\.length$", "limits@{tag}"),
    (r"^name_rules\.(source|missing|empty|folder_mismatch)$", "yaml@{tag}"),
    (r"^description_rules\.(missing|empty)$", "yaml@{tag}"),
    (r"^parse\.(?!yaml_library)", "yaml@{tag}"),
    (r'^fields\.(name|description|metadata|metadata\.short-description|disable-model-invocation|user-invocable|\*)$', "yaml@{tag}"),
]
# agentskillimplementation.com check ids, by key path (first match).
CHECKS = [
    (r"^(roots|not_roots|former_roots)\.", "cross-client-directory-interop"),
    (r"nested$", "nested-skill-discovery"),
    (r"loose_md$", "recursive-root-discovery"),
    (r"max_depth$", "recursive-root-discovery"),
    (r"^precedence\.", "name-collision-precedence"),
    (r"^parse\.(yaml|duplicate)", "malformed-yaml-tolerance"),
    (r"^description_rules\.length$", "description-length-unit"),
    (r"^description_rules\.", "missing-description-handling"),
    (r"^name_rules\.length$", "name-length-unit"),
    (r"^name_rules\.charset$", "invalid-name-tolerance"),
    (r"^name_rules\.(folder_mismatch|collision_key|source|invoke)$", "name-directory-mismatch"),
    (r"^listing\.(bundled_files|bundle_excludes)$", "bundled-file-enumeration-scale"),
    (r"^listing\.frontmatter_reaches_model$", "frontmatter-handling"),
    (r"^listing\.", "discovery-listing-fields"),
    (r"^body\.relative_paths$", "path-resolution-base"),
    (r"^body\.scripts$", "bundled-script-execution"),
    (r"allowed.tools", "allowed-tools-behavior"),
    (r"^fields\.", "frontmatter-handling"),
    (r"^parse\.", "frontmatter-handling"),
]


def oracle_cases():
    """(name, agents or None) of the targeted cases, read from src/oracle/cases.rs."""
    text = (ROOT / "src/oracle/cases.rs").read_text()
    names = set(re.findall(r'Case::new\("([^"{}]+)"\)', text))
    names |= {"yaml@agents", "yaml@claude", "limits@agents", "limits@claude"}
    # The field-value cases are built per agent (`fields-<agent>`, `fields-names<N>-<agent>`).
    for agent in ORACLE:
        names.add(f"fields-{agent}")
        names |= {f"fields-names{n}-{agent}" for n in (1, 2, 3)}
    return names


def case_for(agent, path, rule):
    tag = "claude" if agent == "claude-code" else "agents"
    if re.match(r"(roots|former_roots|not_roots)\.", path) and "path" in rule:
        return "env-overrides" if "${" in rule["path"] else "roots"
    for pat, case in CASES:
        if re.search(pat, path):
            return case.replace("{tag}", tag)
    return None


def check_for(path):
    for pat, check in CHECKS:
        if re.search(pat, path):
            return check
    return None


def research_issues():
    """Issue numbers per tracker that the research names by URL (RESEARCH, when it exists)."""
    out = {}
    base = Path(os.environ.get("SKILLTUI_RESEARCH", "../shared/research"))
    if not base.is_dir():
        return out
    for f in base.rglob("*.md"):
        for owner_repo, n in re.findall(r"https://github\.com/([\w.-]+/[\w.-]+)/issues/(\d+)", f.read_text()):
            out.setdefault(owner_repo, set()).add(n)
    return out


NOTE_RE = re.compile(r"(?:notes/)?[\w-]+\.md\b(?:[^;()§\[]*?§\s?[\d.]+(?:\s?item \d+)?(?:,\s?§?\s?[\d.]+)*)?|\bseeds/\d+")


def unnamed(text):
    """The text without the names of research files that do not ship (`agent-matrix.md §1`)."""
    out = NOTE_RE.sub("", text)
    out = re.sub(r"\(\s*\)|\s+([,;:)])", lambda m: m.group(1) or "", out)
    out = re.sub(r"^[\s;,:]+|[\s;,:]+$", "", re.sub(r"\s{2,}", " ", out))
    out = re.sub(r"(;\s*)+", "; ", out)
    return out or "no public statement"


def toml_str(s):
    return json.dumps(s, ensure_ascii=False)


def render(sources):
    parts = []
    for s in sources:
        kv = [f"{k} = {toml_str(v)}" for k, v in s.items() if v is not None]
        parts.append("{ " + ", ".join(kv) + " }")
    return "[" + ", ".join(parts) + "]"


def convert(agent, path, rule, legacy, model, issues, cases, stats):
    ev = rule.get("evidence", "NONE")
    version = rule.get("version")
    sources, covered = [], set()

    def add(s):
        if s not in sources:
            sources.append(s)
        covered.add(next(iter(s)))

    frags = [f.strip() for f in legacy.split(";") if f.strip()]
    rest = []
    for frag in frags:
        public = False
        for url in re.findall(r"https?://[^\s)\]>,;\"']+", frag):
            kind = "issue" if "/issues/" in url or "/pull/" in url else "changelog" if "changelog" in url.lower() else "doc"
            s = {kind: url.rstrip(".")}
            if kind == "changelog":
                s["version"] = version
            add(s)
            public = True
        # Source files with line ranges.
        if agent in CODE:
            repo, commit, files, _ = CODE[agent]
            for name, lines in re.findall(r"([\w./-]+\.(?:rs|ts|toml)):(\d+(?:-\d+)?)", frag):
                key = next((k for k in files if name.endswith(k)), None)
                if key:
                    a, _, b = lines.partition("-")
                    anchor = f"#L{a}-L{b}" if b else f"#L{a}"
                    add({"source": f"https://github.com/{repo}/blob/{commit}/{files[key]}{anchor}"})
                    public = True
        # Issue numbers in the agent's own tracker.
        tr = TRACKER.get(agent)
        for n in re.findall(r"#(\d{3,6})\b", frag):
            if tr and n in issues.get(tr, ()):
                add({"issue": f"https://github.com/{tr}/issues/{n}"})
                public = True
        # Oracle cases.
        for name in re.findall(r"case ([\w@.-]+)", frag):
            name = name.rstrip(".,")
            if name in cases:
                add({"observed": name, "version": ORACLE_VERSION.get(agent, version)})
                public = True
        for nums in re.findall(r"random trees? ([\d/, ]+)", frag):
            for n in re.findall(r"\d+", nums):
                add({"observed": f"random-{n}", "version": ORACLE_VERSION.get(agent, version)})
            public = True
        # Changelog entries and benchmark findings named in the text.
        if agent in CHANGELOG and re.search(r"\bCL\b|changelog", frag):
            for v in re.findall(r"(?:CL|changelog)[^;]*?(\d+\.\d+\.\d+)", frag)[:1]:
                add({"changelog": CHANGELOG[agent].format(v=v), "version": v})
                public = True
        if agent in ASI_PAGE and check_for(path):
            for v in re.findall(r"ASI (\d+\.\d+\.\d+)", frag)[:1]:
                add({"benchmark": check_for(path), "url": f"https://agentskillimplementation.com/platforms/{ASI_PAGE[agent]}/", "version": v})
                public = True
        # A run of the newest release in the research: the oracle case that reproduces it.
        if "newest-releases.md" in frag and agent in ORACLE:
            case = case_for(agent, path, rule)
            if case in cases:
                add({"observed": case, "version": ORACLE_VERSION[agent]})
                public = True
        if re.fullmatch(r"\[?DOC\b.*", frag) and model.get("docs"):
            add({"doc": model["docs"]})
            public = True
        if not public:
            rest.append(frag)

    # The source that backs the evidence label.
    if ev == "OBS" and "observed" not in covered and agent in ORACLE:
        case = case_for(agent, path, rule)
        if case in cases:
            add({"observed": case, "version": ORACLE_VERSION[agent]})
    if ev == "DOC" and "doc" not in covered and model.get("docs"):
        add({"doc": model["docs"]})
    if ev == "SPEC" and not any("agentskills.io" in str(s.get("doc", "")) for s in sources):
        add({"doc": SPEC})
    if ev == "CL" and "changelog" not in covered and agent in CHANGELOG:
        add({"changelog": CHANGELOG[agent].format(v=version), "version": version})
    if ev == "ASI" and "benchmark" not in covered and agent in ASI_PAGE and check_for(path):
        add({"benchmark": check_for(path), "url": f"https://agentskillimplementation.com/platforms/{ASI_PAGE[agent]}/", "version": version})
    if ev == "BUNDLE" and "package" not in covered and agent in PACKAGE and version:
        add({"package": PACKAGE[agent].format(v=version.split()[0]), "version": version})
    if ev == "SRC" and "source" not in covered and agent in CODE and rule.get("commit"):
        repo, commit, files, main = CODE[agent]
        add({"source": f"https://github.com/{repo}/blob/{commit}/{files[main]}"})

    backing = {"OBS": "observed", "DOC": "doc", "SPEC": "doc", "CL": "changelog", "ASI": "benchmark",
               "BUNDLE": "package", "SRC": "source", "ISSUE": "issue"}
    new_ev = ev
    if ev in backing and backing[ev] not in covered:
        # The strongest label a public source of this rule backs, else an inference.
        new_ev = next((l for l in ["OBS", "SRC", "BUNDLE", "ASI", "DOC", "CL", "ISSUE"]
                       if backing[l] in covered), "INF")
    if new_ev in ("INF", "3P", "FT", "NONE") or not sources:
        what = {"3P": "a third-party article or tool profile", "FT": "a third-party cross-agent field table",
                "NONE": "nothing public establishes it"}.get(ev, "skilltui's research notes (not public)")
        text = f"{what}: {unnamed(legacy)}"
        if new_ev != ev:
            text = f"{what}, which report it as {ev}: {unnamed(legacy)}"
        add({"inferred": text})
    for s in sources:
        stats[next(iter(s))] = stats.get(next(iter(s)), 0) + 1
    return sources, new_ev


def rules(table, prefix=""):
    if "evidence" in table:
        yield prefix, table
    for k, v in table.items():
        p = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            yield from rules(v, p)
        elif isinstance(v, list):
            for item in v:
                if isinstance(item, dict):
                    yield from rules(item, f"{p}.{item.get('id') or item.get('path') or '?'}")


SRC_RE = re.compile(r'(\bsource = )("(?:[^"\\]|\\.)*")')
EV_RE = re.compile(r'(\bevidence = ")([A-Z0-9]+)(")')


def main(argv):
    check = "--check" in argv
    files = [Path(a) for a in argv if not a.startswith("--")] or sorted((ROOT / "assets/agents").glob("*.toml"))
    issues, cases, stats, lowered = research_issues(), oracle_cases(), {}, []
    for f in files:
        text = f.read_text()
        model = tomllib.loads(text)
        agent = model["id"]
        todo = [(p, r) for p, r in rules(model) if isinstance(r.get("source"), str)]
        lines = text.split("\n")
        # Every free-text `source = "..."` in the file, in order, decoded as TOML.
        occ = []
        for i, line in enumerate(lines):
            if line.lstrip().startswith("#"):
                continue
            for m in SRC_RE.finditer(line):
                try:
                    occ.append([i, tomllib.loads("x = " + m.group(2))["x"], False])
                except tomllib.TOMLDecodeError:
                    pass
        # Match each rule's source to its occurrence, in file order, by its decoded text.
        pos = 0
        edits = {}
        for path, rule in todo:
            legacy = rule["source"]
            k = next((k for k in range(pos, len(occ)) if not occ[k][2] and occ[k][1] == legacy), None)
            if k is None:
                k = next((k for k in range(len(occ)) if not occ[k][2] and occ[k][1] == legacy), None)
            if k is None:
                print(f"{f}: {path}: source line not found", file=sys.stderr)
                continue
            occ[k][2] = True
            pos = k + 1
            edits.setdefault(occ[k][0], []).append((legacy, path, rule))
        for i, items in sorted(edits.items()):
            line = lines[i]
            for legacy, path, rule in items:
                sources, new_ev = convert(agent, path, rule, legacy, model, issues, cases, stats)
                m = next(m for m in SRC_RE.finditer(line)
                         if m.group(2).startswith('"') and tomllib.loads("x = " + m.group(2))["x"] == legacy)
                # The rule's own evidence label: the last one before its source on this line.
                evs = [e for e in EV_RE.finditer(line) if e.start() < m.start()]
                line = line[: m.start(2)] + render(sources) + line[m.end(2):]
                if new_ev != rule["evidence"]:
                    lowered.append(f"{agent}/{path}: {rule['evidence']} -> {new_ev}")
                    if evs:
                        e = evs[-1]
                        line = line[: e.start(2)] + new_ev + line[e.end(2):]
                    else:
                        j = i
                        while j >= 0 and not lines[j].startswith("evidence = "):
                            j -= 1
                        lines[j] = EV_RE.sub(lambda mm: mm.group(1) + new_ev + mm.group(3), lines[j])
            lines[i] = line
        if not check:
            f.write_text("\n".join(lines))
    print("sources by kind:", json.dumps(stats, sort_keys=True))
    print(f"labels lowered (no public source of their kind): {len(lowered)}")
    for l in lowered:
        print("  " + l)


if __name__ == "__main__":
    main(sys.argv[1:])
