#!/usr/bin/env node
// Renders the results of field-probes.mjs as Markdown: per agent a field × shape table, the edge
// cases per agent, then every probe's raw outcome where any agent did something other than list
// the skill under its YAML name with its YAML description.
// Usage: node tests/oracle/field-probes-report.mjs OUT_DIR > report.md
// The YAML values are read with the `yaml` package of the installed pi release (YAML 1.2 core).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const versions = JSON.parse(fs.readFileSync(path.join(here, "versions.json"), "utf8"));
const cache = process.env.SKILLTUI_ORACLE_CACHE || path.join(os.homedir(), ".cache", "skilltui-oracle");
const require = createRequire(path.join(cache, `pi@${versions.pi.version}`, "node_modules", "x.js"));
const YAML = require("yaml");

const dir = process.argv[2];
const probes = JSON.parse(fs.readFileSync(path.join(dir, "probes.json"), "utf8"));
const results = JSON.parse(fs.readFileSync(path.join(dir, "results.json"), "utf8"));
const agents = Object.keys(results);

function yamlOf(p) {
  try {
    return YAML.parse(p.front) ?? {};
  } catch {
    return null;
  }
}

function cell(p, r) {
  if (!r) return "";
  if (!r.listed) return r.errors.length ? "✗" : "∅";
  const y = yamlOf(p);
  let c = "✓";
  if (y) {
    if (r.name !== y.name) c += r.name === p.id ? "F" : "n";
    if (r.description !== y.description) c += "d";
  } else c += "?";
  if (r.hidden) c += "h";
  if (r.errors.length) c += "!";
  return c;
}

const show = (s) => {
  if (s === null || s === undefined) return "null";
  const j = JSON.stringify(s);
  return j.length <= 160 ? "`" + j.replace(/`/g, "\\`") + "`" : `(${s.length} chars) \`${JSON.stringify(s.slice(0, 60)).slice(0, -1)}…${JSON.stringify(s.slice(-20)).slice(1)}\``;
};

const out = [];
const fields = [...new Set(probes.filter((p) => p.field !== "edge").map((p) => p.field))];
const shapes = [...new Set(probes.filter((p) => p.field !== "edge").map((p) => p.shape))];
out.push(
  "Cells: `✓` listed under its YAML name with its YAML description; `F` listed under the folder name instead; " +
    "`n` under another name; `d` with another description than the YAML value; `h` (Claude Code) loaded but left out of the model's listing; " +
    "`!` with a warning; `✗` not listed, with an error; `∅` not listed, silently; `?` the probe is not valid YAML 1.2 (`yaml` package).\n",
);
for (const a of agents) {
  out.push(`### ${a} ${versions[a].version}\n`);
  out.push(`| field | ${shapes.join(" | ")} |`);
  out.push(`|---|${shapes.map(() => "---").join("|")}|`);
  for (const f of fields) {
    const row = shapes.map((s) => {
      const p = probes.find((q) => q.field === f && q.shape === s);
      return p ? cell(p, results[a][p.id]) : "";
    });
    out.push(`| ${f} | ${row.join(" | ")} |`);
  }
  out.push("");
}
out.push("### Edge cases\n");
out.push(`| probe | ${agents.join(" | ")} |`);
out.push(`|---|${agents.map(() => "---").join("|")}|`);
for (const p of probes.filter((q) => q.field === "edge")) {
  out.push(`| ${p.id} | ${agents.map((a) => cell(p, results[a][p.id])).join(" | ")} |`);
}
out.push("\n## Raw details\n");
out.push("Every probe where some agent's cell is not a plain `✓` (warnings aside). Frontmatter as written, then per agent: listed, name, description (JSON), errors.\n");
for (const p of probes) {
  const cells = agents.map((a) => cell(p, results[a][p.id]).replace("!", ""));
  if (cells.every((c) => c === "✓")) continue;
  out.push(`#### ${p.id}\n`);
  out.push("```yaml\n" + (p.front.length > 400 ? p.front.slice(0, 400) + "…" : p.front) + "\n```");
  for (const a of agents) {
    const r = results[a][p.id];
    if (!r) continue;
    const errs = r.errors.map((e) => e.replace(/\/tmp\/\S*?\/project\//g, "").replace(/\s+/g, " ").slice(0, 300));
    out.push(
      `- **${a}** ${cells[agents.indexOf(a)]}: ` +
        (r.listed ? `listed as ${show(r.name)}, description ${show(r.description)}${r.hidden ? " (not in the model's listing)" : ""}` : "not listed") +
        (errs.length ? `; errors: ${errs.map((e) => "`" + e.replace(/`/g, "'") + "`").join("; ")}` : ""),
    );
  }
  out.push("");
}
process.stdout.write(out.join("\n") + "\n");
