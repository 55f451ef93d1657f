#!/usr/bin/env node
// Field probes: what each pinned agent release does with every value shape of every frontmatter
// field the models know. One skill per probe, in the agent's own project root; probes whose name
// could collide (every `name` probe) run alone, the others share one tree per agent.
//
// Usage: node tests/oracle/field-probes.mjs OUT_DIR [agent ...]
// Writes OUT_DIR/probes.json (the probes) and OUT_DIR/results.json
// ({agent: {probe: {listed, name, description, enabled, errors}}}). Every agent runs through
// driver.mjs under `unshare --net` (sandboxed, offline; see README.md). Needs install.sh first.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const [outDir, ...only] = process.argv.slice(2);
if (!outDir) {
  console.error("usage: node field-probes.mjs OUT_DIR [agent ...]");
  process.exit(2);
}
const ROOTS = {
  codex: ".agents/skills",
  opencode: ".opencode/skills",
  pi: ".pi/skills",
  "copilot-cli": ".github/skills",
  "claude-code": ".claude/skills",
};
const agents = only.length ? only : Object.keys(ROOTS);

// Every field named in a model's [fields.*] table (kept in step with assets/agents/*.toml).
const FIELDS = [
  "name", "description", "license", "compatibility", "metadata", "allowed-tools",
  "metadata.short-description", "disable-model-invocation", "user-invocable", "argument-hint",
  "when_to_use", "context", "agent", "hooks", "paths", "model", "effort", "icon", "color",
];

const words = (n, stem) => {
  let s = "";
  for (let i = 0; s.length < n; i++) s += (s ? " " : "") + `${stem}${i}`;
  return s.slice(0, n);
};
// Value shapes: a YAML value text after `key:`; a leading newline starts a block (indented below).
const SHAPES = {
  string: () => "Plain text value",
  quoted: () => '"Quoted text value"',
  empty: () => '""',
  bare: () => "",
  null: () => "null",
  tilde: () => "~",
  integer: () => "42",
  float: () => "1.5",
  true: () => "true",
  "true-cap": () => "True",
  false: () => "false",
  yes: () => "yes",
  "quoted-true": () => '"true"',
  "flow-list": () => "[alpha, beta]",
  "block-list": () => "\n- alpha\n- beta",
  "nonstring-list": () => "[1, true]",
  mapping: () => "\nkey: value",
  "block-literal": () => "|\nline one\nline two",
  "block-folded": () => ">\nline one\nline two",
  long: () => words(2000, "word"),
};

const slug = (s) => s.replace(/[^a-zA-Z0-9]+/g, "-").toLowerCase();

/** `key: value` at `indent` spaces, block values indented two more. */
function line(key, value, indent = 0) {
  const pad = " ".repeat(indent);
  if (value.startsWith("\n")) {
    return `${pad}${key}:` + value.split("\n").slice(1).map((l) => `\n${pad}  ${l}`).join("");
  }
  if (value.startsWith("|") || value.startsWith(">")) {
    const [head, ...rest] = value.split("\n");
    return `${pad}${key}: ${head}` + rest.map((l) => `\n${pad}  ${l}`).join("");
  }
  return value === "" ? `${pad}${key}:` : `${pad}${key}: ${value}`;
}

const probes = [];
function probe(id, field, shape, front, { alone = false, value } = {}) {
  probes.push({ id, field, shape, front, alone, value });
}

for (const field of FIELDS) {
  for (const [shape, v] of Object.entries(SHAPES)) {
    const id = `${field === "name" ? "n" : "f"}-${slug(field)}-${slug(shape)}`;
    let value = v();
    if (field === "name" && shape === "string") value = id;
    if (field === "name" && shape === "quoted") value = `"${id}"`;
    if (field === "name" && shape === "long") value = words(2000, "n").replace(/ /g, "-");
    const std = (omit) => [omit === "name" ? null : `name: ${id}`, omit === "description" ? null : `description: Probe ${id}.`];
    let lines;
    if (field === "metadata.short-description") lines = [...std(), "metadata:", line("short-description", value, 2)];
    else lines = [...std(field), line(field, value)];
    probe(id, field, shape, lines.filter((l) => l !== null).join("\n"), { alone: field === "name" });
  }
}

// Edge cases.
const e = (id, front, opts) => probe(id, "edge", id, front, opts);
const desc = (id) => `description: Probe ${id}.`;
e("e-name-outer-spaces", `name: "  e-name-outer-spaces  "\n${desc("e-name-outer-spaces")}`, { alone: true });
e("e-name-newline", `name: "e-name-newline\\nsecond"\n${desc("e-name-newline")}`, { alone: true });
e("e-name-257", `name: ${"e".repeat(257)}\n${desc("e-name-257")}`, { alone: true });
e("e-name-65", `name: ${"a".repeat(65)}\n${desc("e-name-65")}`, { alone: true });
e("e-name-64", `name: ${"b".repeat(64)}\n${desc("e-name-64")}`, { alone: true });
e("e-name-missing", desc("e-name-missing"), { alone: true });
e("e-name-mismatch", `name: other-name\n${desc("e-name-mismatch")}`, { alone: true });
e("e-name-upper", `name: E-Name-Upper\n${desc("e-name-upper")}`, { alone: true });
e("e-name-false", `name: false\n${desc("e-name-false")}`, { alone: true });
e("e-desc-missing", "name: e-desc-missing");
e("e-desc-empty", 'name: e-desc-empty\ndescription: ""');
e("e-desc-null", "name: e-desc-null\ndescription: null");
e("e-desc-1024", `name: e-desc-1024\ndescription: ${words(1024, "d")}`);
e("e-desc-1025", `name: e-desc-1025\ndescription: ${words(1025, "d")}`);
e("e-desc-outer-spaces", 'name: e-desc-outer-spaces\ndescription: "  Spaced text.  "');
e("e-desc-tabs-newlines", 'name: e-desc-tabs-newlines\ndescription: "A\\tB\\n\\nC  D\\nE"');
e("e-desc-colon", "name: e-desc-colon\ndescription: Use when: the user asks");
e("e-desc-plain-multiline", "name: e-desc-plain-multiline\ndescription: first line\n  continued line");
e("e-argument-hint-two-lists", `name: e-argument-hint-two-lists\n${desc("e-argument-hint-two-lists")}\nargument-hint: [filename] [format]`);
e("e-argument-hint-list", `name: e-argument-hint-list\n${desc("e-argument-hint-list")}\nargument-hint: [describe x]`);
e("e-metadata-bare", `name: e-metadata-bare\n${desc("e-metadata-bare")}\nmetadata:`);
e("e-metadata-null", `name: e-metadata-null\n${desc("e-metadata-null")}\nmetadata: null`);
e("e-paths-string", `name: e-paths-string\n${desc("e-paths-string")}\npaths: "src/**"`);
e("e-paths-list", `name: e-paths-list\n${desc("e-paths-list")}\npaths:\n  - "src/**"`);
e("e-paths-empty-list", `name: e-paths-empty-list\n${desc("e-paths-empty-list")}\npaths: []`);
e("e-paths-empty-string", `name: e-paths-empty-string\n${desc("e-paths-empty-string")}\npaths: ""`);
e("e-unknown-key", `name: e-unknown-key\n${desc("e-unknown-key")}\nx-custom: [1, 2]`);
e("e-user-invocable-1", `name: e-user-invocable-1\n${desc("e-user-invocable-1")}\nuser-invocable: 1`);
e("e-allowed-tools-null-list", `name: e-allowed-tools-null-list\n${desc("e-allowed-tools-null-list")}\nallowed-tools: [Read, null]`);
e("e-short-description-long", `name: e-short-description-long\n${desc("e-short-description-long")}\nmetadata:\n  short-description: Short text.`);

const body = (id) => `# Title\n\nFirst body paragraph of ${id}.\n\nSecond paragraph.\n`;

function runDriver(agent, project, home) {
  return new Promise((resolve) => {
    const child = spawn("unshare", ["--net", process.execPath, path.join(here, "driver.mjs"), agent, project, home], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", () => {
      try {
        resolve(JSON.parse(out));
      } catch {
        resolve({ raw_error: `driver: ${out.slice(0, 300)} ${err.slice(-500)}` });
      }
    });
  });
}

function writeTree(base, agent, list) {
  fs.rmSync(base, { recursive: true, force: true });
  const project = path.join(base, "project");
  const home = path.join(base, "home");
  fs.mkdirSync(path.join(project, ".git", "objects"), { recursive: true });
  fs.mkdirSync(path.join(project, ".git", "refs", "heads"), { recursive: true });
  fs.writeFileSync(path.join(project, ".git", "HEAD"), "ref: refs/heads/main\n");
  fs.mkdirSync(home, { recursive: true });
  for (const p of list) {
    const d = path.join(project, ROOTS[agent], p.id);
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, "SKILL.md"), `---\n${p.front}\n---\n${body(p.id)}`);
  }
  return { project, home };
}

function collect(agent, out, list, results) {
  const byId = new Map(list.map((p) => [p.id, p]));
  for (const p of list) results[p.id] = { listed: false, name: null, description: null, errors: [] };
  if (out.raw_error) {
    for (const p of list) results[p.id].errors.push(`RUN FAILED: ${out.raw_error}`);
    return;
  }
  for (const s of out.skills || []) {
    const folder = s.path ? path.basename(path.dirname(s.path)) : s.folder;
    if (!byId.has(folder)) continue;
    Object.assign(results[folder], { listed: true, name: s.name, description: s.description ?? null });
    if (s.enabled !== undefined) results[folder].enabled = s.enabled;
    // Claude Code: loaded (in /skills) but not in the model's listing.
    if (!s.path) results[folder].hidden = true;
  }
  for (const text of out.errors || []) {
    for (const p of list) {
      const re = new RegExp(`[/\\\\]${p.id}(?![a-z0-9-])`);
      if (re.test(text)) results[p.id].errors.push(text);
    }
  }
}

async function pool(tasks, n) {
  let i = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (i < tasks.length) await tasks[i++]();
  }));
}

fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, "probes.json"), JSON.stringify(probes, null, 1));
const results = {};
const tasks = [];
for (const agent of agents) {
  results[agent] = {};
  const batch = probes.filter((p) => !p.alone);
  tasks.push(async () => {
    const t = writeTree(path.join(outDir, "trees", agent, "batch"), agent, batch);
    const out = await runDriver(agent, t.project, t.home);
    if (out.raw_error) {
      // One probe broke the whole listing: run each alone.
      for (const p of batch) {
        const t1 = writeTree(path.join(outDir, "trees", agent, p.id), agent, [p]);
        collect(agent, await runDriver(agent, t1.project, t1.home), [p], results[agent]);
      }
    } else collect(agent, out, batch, results[agent]);
    console.error(`${agent}: batch of ${batch.length} done`);
  });
  for (const p of probes.filter((p) => p.alone)) {
    tasks.push(async () => {
      const t = writeTree(path.join(outDir, "trees", agent, p.id), agent, [p]);
      collect(agent, await runDriver(agent, t.project, t.home), [p], results[agent]);
    });
  }
}
await pool(tasks, Number(process.env.JOBS || 3));
fs.writeFileSync(path.join(outDir, "results.json"), JSON.stringify(results, null, 1));
console.error(`${probes.length} probes × ${agents.length} agents -> ${path.join(outDir, "results.json")}`);
