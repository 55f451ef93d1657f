#!/usr/bin/env node
// Runs one real agent release's own skill listing on a tree and prints normalized JSON:
//   {"agent", "version", "skills": [{"name", "path", "description", "enabled"?}], "errors": [text],
//    "builtin": [names], "raw_error"?: text}
// `path` is the absolute SKILL.md path the agent reports (Copilot reports the folder; the driver
// appends /SKILL.md). Built-in/bundled skills (Codex system scope, OpenCode <built-in>, Copilot
// builtin, Claude Code built-in) are moved to "builtin": skilltui's trees do not hold them.
// `description` is the text the agent lists for the skill, exactly as it reports it (null when
// the agent reports none).
//
// Usage: node driver.mjs AGENT PROJECT HOME [KEY=VALUE ...]
// AGENT: codex | opencode | pi | copilot-cli | claude-code | gemini-cli | qwen-code | qoder-cli |
// kilo | factory-droid | amp | cline (through @cline/core, with paths) | auggie (ACP, names only).
// The agent runs with cwd = PROJECT,
// HOME = HOME, PATH = /usr/bin:/bin (plus node's folder), the given variables and nothing else
// from the caller's environment: no credentials. Run the whole driver without network
// (`unshare --net node driver.mjs ...`); the Rust harness does. No skill script is ever run:
// the agents are only asked for their listing.
//
// Releases come from versions.json, installed by install.sh into $SKILLTUI_ORACLE_CACHE
// (default ~/.cache/skilltui-oracle/<agent>@<version>).

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const versions = JSON.parse(fs.readFileSync(path.join(here, "versions.json"), "utf8"));
const cache = process.env.SKILLTUI_ORACLE_CACHE || path.join(os.homedir(), ".cache", "skilltui-oracle");
const TIMEOUT_MS = Number(process.env.SKILLTUI_ORACLE_AGENT_TIMEOUT_MS || 60000);

const [agent, project, home, ...assigns] = process.argv.slice(2);
if (!agent || !project || !home) {
  console.error("usage: node driver.mjs AGENT PROJECT HOME [KEY=VALUE ...]");
  process.exit(2);
}
const pin = versions[agent];
if (!pin) {
  console.error(`unknown agent ${agent}`);
  process.exit(2);
}
// SKILLTUI_AGENTS_PREFIX: a folder holding node_modules/ with the agent's packages (a global
// npm install: the parent of `npm root -g`), used instead of the pinned releases in the cache
// (`skilltui agents --verify` runs the user's own installs this way).
// SKILLTUI_AGENT_ENTRY: the agent's own executable as the user runs it (a binary on PATH:
// native installer, Homebrew, npm; for pi the dist/index.js of its package), used instead of
// either. SKILLTUI_AGENT_VERSION: its version, reported instead of the pinned one.
const prefix = process.env.SKILLTUI_AGENTS_PREFIX;
const entry = process.env.SKILLTUI_AGENT_ENTRY;
const dir = prefix || path.join(cache, `${agent}@${pin.version}`);
if (!entry && !prefix && !fs.existsSync(path.join(dir, ".installed"))) {
  console.error(`${agent}@${pin.version} is not installed in ${dir}; run tests/oracle/install.sh`);
  process.exit(3);
}

const extra = {};
for (const a of assigns) {
  const i = a.indexOf("=");
  if (i > 0) extra[a.slice(0, i)] = a.slice(i + 1);
}

// Every process of this run carries this variable (children inherit it): what is left running
// when the run ends is found by it, and only by it (never by HOME, which under
// `skilltui agents --verify` is the user's own).
const RUN_TAG = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;

function baseEnv() {
  return {
    SKILLTUI_ORACLE_RUN: RUN_TAG,
    PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: home,
    USER: "oracle",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    CI: "1",
    ...extra,
  };
}

/** Spawns a program; resolves {code, stdout, stderr} (files when stdoutFile is set). */
function run(cmd, args, { env, input, stdoutFile, onStdoutLine, timeoutMs = TIMEOUT_MS } = {}) {
  return new Promise((resolve) => {
    const out = stdoutFile ? fs.openSync(stdoutFile, "w") : "pipe";
    const child = spawn(cmd, args, { cwd: project, env, stdio: ["pipe", out, "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let buf = "";
    const timer = setTimeout(() => {
      stderr += `\n[driver] timeout after ${timeoutMs} ms\n`;
      kill();
    }, timeoutMs);
    function kill() {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }
    if (!stdoutFile) {
      child.stdout.on("data", (d) => {
        const s = d.toString("utf8");
        stdout += s;
        if (onStdoutLine) {
          buf += s;
          let nl;
          while ((nl = buf.indexOf("\n")) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            onStdoutLine(line, child, kill);
          }
        }
      });
    }
    child.stderr.on("data", (d) => (stderr += d.toString("utf8")));
    child.stdin.on("error", () => {});
    if (input !== undefined) {
      if (input !== null) child.stdin.write(input);
      if (!onStdoutLine) child.stdin.end();
    }
    child.on("close", (code) => {
      clearTimeout(timer);
      // Anything the agent left running in its process group (a daemon, a telemetry flush)
      // goes with it.
      kill();
      if (stdoutFile) {
        fs.closeSync(out);
        stdout = fs.readFileSync(stdoutFile, "utf8");
      }
      resolve({ code, stdout, stderr });
    });
  });
}

/** `rel` inside the npm package `name` that holds `exe` (a bin link or file), or null. */
function packageFile(exe, name, rel) {
  let d;
  try {
    d = path.dirname(fs.realpathSync(exe));
  } catch {
    return null;
  }
  for (;;) {
    try {
      if (JSON.parse(fs.readFileSync(path.join(d, "package.json"), "utf8")).name === name) return path.join(d, rel);
    } catch {}
    const up = path.dirname(d);
    if (up === d) return null;
    d = up;
  }
}

function bin(rel) {
  if (entry) return entry;
  return path.join(dir, "node_modules", rel);
}

const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");

// ---------------------------------------------------------------------------------------------
async function codex() {
  const exe = bin("@openai/codex/vendor/x86_64-unknown-linux-musl/bin/codex");
  const env = baseEnv();
  if (!env.CODEX_HOME) env.CODEX_HOME = path.join(home, ".codex");
  fs.mkdirSync(env.CODEX_HOME, { recursive: true });
  let result = null;
  const requests = [
    { jsonrpc: "2.0", id: 1, method: "initialize", params: { clientInfo: { name: "skilltui-oracle", version: "0" } } },
    { jsonrpc: "2.0", method: "initialized" },
  ];
  const r = await run(exe, ["app-server"], {
    env,
    input: requests.map((m) => JSON.stringify(m)).join("\n") + "\n",
    onStdoutLine: (line, child, kill) => {
      let m;
      try {
        m = JSON.parse(line);
      } catch {
        return;
      }
      if (m.id === 1) {
        child.stdin.write(
          JSON.stringify({ jsonrpc: "2.0", id: 2, method: "skills/list", params: { cwds: [project], forceReload: true } }) + "\n",
        );
      } else if (m.id === 2) {
        result = m;
        child.stdin.end();
        kill();
      }
    },
  });
  if (!result || !result.result) return { raw_error: `no skills/list answer (exit ${r.code}): ${stripAnsi(r.stderr).slice(-2000)}` };
  const skills = [];
  const builtin = [];
  const errors = [];
  for (const entry of result.result.data || []) {
    for (const s of entry.skills || []) {
      if (s.scope === "system") builtin.push(s.name);
      else skills.push({ name: s.name, path: s.path, description: s.description ?? null, enabled: s.enabled, scope: s.scope });
    }
    for (const e of entry.errors || []) errors.push(typeof e === "string" ? e : `${e.path || ""}: ${e.message || JSON.stringify(e)}`);
  }
  return { skills, errors, builtin };
}

// ---------------------------------------------------------------------------------------------
async function opencode() {
  const exe = bin("opencode-linux-x64/bin/opencode");
  const env = {
    ...baseEnv(),
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    ...extra,
  };
  // 1.18.34 stops writing at 64 KiB into a pipe: stdout goes to a file.
  const outFile = path.join(os.tmpdir(), `skilltui-oracle-opencode-${process.pid}.json`);
  const r = await run(exe, ["debug", "skill", "--print-logs"], { env, input: null, stdoutFile: outFile });
  fs.rmSync(outFile, { force: true });
  let list;
  try {
    list = JSON.parse(r.stdout);
  } catch (e) {
    return { raw_error: `unparsable output (exit ${r.code}): ${r.stdout.slice(0, 500)} ${stripAnsi(r.stderr).slice(-1500)}` };
  }
  const skills = [];
  const builtin = [];
  for (const s of list) {
    if (s.location === "<built-in>") builtin.push(s.name);
    else skills.push({ name: s.name, path: s.location, description: s.description ?? null });
  }
  const errors = stripAnsi(r.stderr)
    .split("\n")
    .filter((l) => /level=(WARN|ERROR)/.test(l) || /skill/i.test(l) && /duplicate|fail|invalid/i.test(l));
  return { skills, errors, builtin };
}

// ---------------------------------------------------------------------------------------------
async function pi() {
  const env = baseEnv();
  const pkg = entry
    ? packageFile(entry, "@mariozechner/pi-coding-agent", "dist/index.js")
    : bin("@mariozechner/pi-coding-agent/dist/index.js");
  if (!pkg) return { raw_error: `${entry} is not inside the @mariozechner/pi-coding-agent package` };
  const r = await run(process.execPath, [path.join(here, "pi-skills.mjs"), pkg, project], { env, input: null });
  let out;
  try {
    out = JSON.parse(r.stdout);
  } catch {
    return { raw_error: `pi-skills.mjs failed (exit ${r.code}): ${r.stdout.slice(0, 500)} ${r.stderr.slice(-1500)}` };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
async function copilot() {
  const exe = bin("@github/copilot-linux-x64/copilot");
  const env = baseEnv();
  // The first run unpacks ~235 MB; keep it in the cache, outside the sandboxed home.
  env.COPILOT_PKG_CACHE_HOME = path.join(cache, "copilot-pkg");
  const r = await run(exe, ["skill", "list", "--json"], { env, input: null });
  let list;
  try {
    list = JSON.parse(r.stdout);
  } catch {
    return { raw_error: `unparsable output (exit ${r.code}): ${r.stdout.slice(0, 500)} ${stripAnsi(r.stderr).slice(-1500)}` };
  }
  const skills = [];
  const builtin = [];
  for (const s of list) {
    if (s.source === "builtin") builtin.push(s.name);
    else skills.push({ name: s.name, path: path.join(s.path, "SKILL.md"), description: s.description ?? null, enabled: s.enabled, scope: s.source });
  }
  const errors = [];
  for (const l of stripAnsi(r.stderr).split("\n")) {
    const m = l.match(/^\s*•\s*(.*)$/);
    if (m) errors.push(m[1]);
    else if (/\S/.test(l) && !/failed to load:?$/.test(l)) errors.push(l.trim());
  }
  return { skills, errors, builtin };
}

// ---------------------------------------------------------------------------------------------
async function claude() {
  const exe = bin("@anthropic-ai/claude-code-linux-x64/claude");
  const env = baseEnv();
  env.DISABLE_AUTOUPDATER = "1";
  env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = "1";
  Object.assign(env, extra);
  const debugFile = path.join(os.tmpdir(), `skilltui-oracle-claude-${process.pid}.log`);
  const answers = {};
  const req = (id, request) => JSON.stringify({ type: "control_request", request_id: id, request }) + "\n";
  const r = await run(
    exe,
    ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--no-session-persistence", "--debug-file", debugFile],
    {
      env,
      input: req("r1", { subtype: "initialize" }),
      onStdoutLine: (line, child, kill) => {
        let m;
        try {
          m = JSON.parse(line);
        } catch {
          return;
        }
        if (m.type !== "control_response") return;
        const id = m.response && m.response.request_id;
        answers[id] = m.response;
        if (id === "r1") child.stdin.write(req("r2", { subtype: "get_skills_dialog" }));
        else if (id === "r2") child.stdin.write(req("r3", { subtype: "get_context_usage", mode: "summary" }));
        else if (id === "r3") {
          child.stdin.end();
          setTimeout(kill, 2000);
        }
      },
    },
  );
  let debug = "";
  try {
    debug = fs.readFileSync(debugFile, "utf8");
  } catch {}
  fs.rmSync(debugFile, { force: true });
  if (!answers.r2 || !answers.r3) return { raw_error: `no control answers (exit ${r.code}): ${r.stdout.slice(-800)} ${stripAnsi(r.stderr).slice(-800)}` };
  const dialog = (answers.r2.response && answers.r2.response.skills) || [];
  const ctx = (answers.r3.response && answers.r3.response.skills && answers.r3.response.skills.skillFrontmatter) || [];
  const skills = [];
  const builtin = [];
  const seenFolders = new Set();
  // The dialog carries the listed description; its `name` is the skill's folder name.
  const dialogDesc = new Map();
  for (const s of dialog) if (s.source !== "built-in" && s.source !== "bundled" && s.source !== "plugin") dialogDesc.set(s.name, s.description ?? null);
  for (const s of ctx) {
    if (!s.path) {
      builtin.push(s.name);
      continue;
    }
    const folder = path.basename(path.dirname(s.path));
    skills.push({ name: s.name, path: s.path, description: dialogDesc.has(folder) ? dialogDesc.get(folder) : null, scope: s.source });
    seenFolders.add(path.basename(path.dirname(s.path)));
  }
  // Loaded skills the model's listing leaves out (disable-model-invocation, paths:): the dialog
  // has only their folder name, so the path is unknown (compared by name only).
  for (const s of dialog) {
    if (s.source === "built-in" || s.source === "bundled" || s.source === "plugin") continue;
    if (!seenFolders.has(s.name)) skills.push({ name: s.display_name || s.name, path: "", description: s.description ?? null, scope: s.source, enabled: s.state === "on", folder: s.name });
  }
  const errors = debug
    .split("\n")
    .filter((l) => /\[(WARN|ERROR)\]/.test(l) && /skill|frontmatter|yaml|SKILL\.md/i.test(l))
    .map((l) => l.replace(/^\S+ /, ""));
  return { skills, errors, builtin };
}

// ---------------------------------------------------------------------------------------------
// `gemini skills list --all` and `qodercli skills list --all` print the same text (Qoder CLI is
// derived from Gemini CLI): after "Discovered Agent Skills:", per skill
//   <name> [Enabled]|[Disabled][ [Built-in]]
//     Description: <description, possibly over several lines>
//     Location:    <absolute SKILL.md path>
// Conflict and load warnings go to stderr.
function parseSkillsList(stdout) {
  const text = stripAnsi(stdout).replace(/\r\n/g, "\n");
  const start = text.indexOf("Discovered Agent Skills:");
  if (start < 0) return null;
  const body = text.slice(start + "Discovered Agent Skills:".length);
  // Qoder CLI adds `  Tools:`, `  When to use:` and `  Model:` lines (allowed-tools, when_to_use,
  // model; a block value goes on over unindented lines) between the description and Location.
  const re = /^(.*) \[(Enabled|Disabled)\]( \[Built-in\])?\n  Description: ([\s\S]*?)(?:\n  (?:Tools|When to use|Model): [\s\S]*?)?\n  Location:    (.*)$/gm;
  const skills = [];
  const builtin = [];
  const disabled = [];
  let m;
  while ((m = re.exec(body))) {
    const [, name, state, isBuiltin, description, location] = m;
    // A disabled skill (settings skills.disabled) is known but never used: not a listed skill.
    if (isBuiltin) builtin.push(name);
    else if (state === "Enabled") skills.push({ name, path: location, description, enabled: true });
    else disabled.push(name);
  }
  return { skills, builtin, disabled };
}

function stderrLines(stderr, keep) {
  return stripAnsi(stderr)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && keep(l));
}

// ---------------------------------------------------------------------------------------------
async function gemini() {
  const exe = bin("@google/gemini-cli/bundle/gemini.js");
  const env = baseEnv();
  // The bundle is a node script; a native install (SKILLTUI_AGENT_ENTRY) is run as it is.
  const [cmd, args] = exe.endsWith(".js") ? [process.execPath, [exe]] : [exe, []];
  // Into a pipe, a listing over 64 KiB is cut when the CLI exits: stdout goes to a file.
  const outFile = path.join(os.tmpdir(), `skilltui-oracle-gemini-${process.pid}.txt`);
  const r = await run(cmd, [...args, "skills", "list", "--all"], { env, input: null, stdoutFile: outFile });
  fs.rmSync(outFile, { force: true });
  if (/No skills discovered/.test(r.stdout)) return { skills: [], errors: stderrLines(r.stderr, (l) => /skill/i.test(l)), builtin: [] };
  const parsed = parseSkillsList(r.stdout);
  if (!parsed) return { raw_error: `unparsable output (exit ${r.code}): ${r.stdout.slice(0, 500)} ${stripAnsi(r.stderr).slice(-1500)}` };
  // Skipped skills leave no message; conflicts do ("Skill conflict detected: ...").
  const errors = stderrLines(r.stderr, (l) => /skill/i.test(l) && !/Ripgrep/.test(l));
  return { ...parsed, errors };
}

// ---------------------------------------------------------------------------------------------
async function qoder() {
  const exe = bin("@qoder-ai/qodercli/bundle/qodercli.js");
  const env = baseEnv();
  const [cmd, args] = exe.endsWith(".js") ? [process.execPath, [exe]] : [exe, []];
  // Into a pipe, a listing over 64 KiB is cut when the CLI exits: stdout goes to a file, and
  // the run ends when the CLI does (1.1.52 idles ~7 s after the listing; slow under load).
  const outFile = path.join(os.tmpdir(), `skilltui-oracle-qoder-${process.pid}.txt`);
  const r = await run(cmd, [...args, "skills", "list", "--all"], {
    env,
    input: null,
    stdoutFile: outFile,
    timeoutMs: Math.max(TIMEOUT_MS, 180000),
  });
  fs.rmSync(outFile, { force: true });
  if (/No skills (discovered|found)/i.test(r.stdout)) return { skills: [], errors: stderrLines(r.stderr, (l) => /skill/i.test(l)), builtin: [] };
  const parsed = parseSkillsList(r.stdout);
  if (!parsed) return { raw_error: `unparsable output (exit ${r.code}): ${r.stdout.slice(0, 500)} ${stripAnsi(r.stderr).slice(-1500)}` };
  const errors = stderrLines(r.stderr, (l) => /skill/i.test(l));
  return { ...parsed, errors };
}

// ---------------------------------------------------------------------------------------------
// Qwen Code has no listing command: its ACP server (`qwen --acp`) announces the skills in the
// `available_commands_update` session update that follows `session/new`
// (`_meta.availableSkillDetails`: name, description, filePath, level). The ACP server needs an
// auth method: a dummy OpenAI key satisfies it, and no request is ever made (no prompt is sent).
async function qwen() {
  const exe = bin("@qwen-code/qwen-code/cli.js");
  const env = { ...baseEnv(), OPENAI_API_KEY: "sk-offline-dummy", OPENAI_MODEL: "dummy-model", ...extra };
  const [cmd, args] = exe.endsWith(".js") ? [process.execPath, [exe]] : [exe, []];
  let details = null;
  const send = (child, o) => child.stdin.write(JSON.stringify(o) + "\n");
  const r = await run(cmd, [...args, "--acp", "--auth-type=openai"], {
    env,
    input: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } },
    }) + "\n",
    onStdoutLine: (line, child, kill) => {
      let m;
      try {
        m = JSON.parse(line);
      } catch {
        return;
      }
      if (m.id === 1 && !m.method) {
        send(child, { jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: project, mcpServers: [] } });
      } else if (m.method === "session/update") {
        const u = m.params && m.params.update;
        if (u && u.sessionUpdate === "available_commands_update" && u._meta && Array.isArray(u._meta.availableSkillDetails)) {
          details = u._meta.availableSkillDetails;
          child.stdin.end();
          kill();
        }
      } else if (m.method && m.id !== undefined) {
        // Any request from the agent (permissions, files): refused; nothing is to be done.
        send(child, { jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "not supported" } });
      } else if (m.id === 2 && m.error) {
        kill();
      }
    },
  });
  if (!details) return { raw_error: `no available_commands_update (exit ${r.code}): ${r.stdout.slice(-800)} ${stripAnsi(r.stderr).slice(-800)}` };
  const skills = [];
  const builtin = [];
  for (const s of details) {
    if (s.level === "bundled" || s.level === "extension") builtin.push(s.name);
    else skills.push({ name: s.name, path: s.filePath, description: s.description ?? null, scope: s.level, model: s.modelInvocable });
  }
  return { skills, errors: [], builtin };
}

// ---------------------------------------------------------------------------------------------
// XDG folders inside the sandboxed home (Kilo and Amp read ~/.config through XDG_CONFIG_HOME).
function xdgEnv() {
  return {
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
  };
}

// Kilo Code CLI (an OpenCode fork): `kilo debug skill` prints a JSON array [{name, description,
// location, content}] on stdout; duplicate and load warnings go to stderr as logfmt lines.
async function kilo() {
  const exe = bin("@kilocode/cli-linux-x64/bin/kilo");
  const env = { ...baseEnv(), ...xdgEnv(), KILO_TELEMETRY_LEVEL: "off", KILO_DISABLE_AUTOUPDATE: "1", ...extra };
  // Like OpenCode, stdout goes to a file (a pipe may cut a large listing).
  const outFile = path.join(os.tmpdir(), `skilltui-oracle-kilo-${process.pid}.json`);
  // Under load (a shared 2-core machine, load 20) a large tree took Kilo over a minute.
  const r = await run(exe, ["debug", "skill", "--print-logs", "--log-level", "WARN"], { env, input: null, stdoutFile: outFile, timeoutMs: Math.max(TIMEOUT_MS, 180000) });
  fs.rmSync(outFile, { force: true });
  let list;
  try {
    list = JSON.parse(r.stdout);
  } catch {
    return { raw_error: `unparsable output (exit ${r.code}): ${r.stdout.slice(0, 500)} ${stripAnsi(r.stderr).slice(-1500)}` };
  }
  const skills = [];
  const builtin = [];
  for (const s of list) {
    if (s.location === "builtin" || s.location === "<built-in>") builtin.push(s.name);
    else skills.push({ name: s.name, path: s.location, description: s.description ?? null });
  }
  const errors = stripAnsi(r.stderr)
    .split("\n")
    .filter((l) => /skill/i.test(l) && /level=(WARN|ERROR)/.test(l));
  return { skills, errors, builtin };
}

// Factory Droid: `droid exec` in stream-jsonrpc mode answers locally, with no login:
// droid.initialize_session, then droid.list_skills → {skills: [{name, description, location,
// filePath, enabled, disabledBy?, userInvocable}]}. Disabled skills are listed with
// `enabled: false` (a missing description, a frontmatter error): they are loaded but not usable,
// so they are reported apart ("disabled") and not compared as listed.
async function droid() {
  const exe = bin("@factory/cli-linux-x64/bin/droid");
  const env = { ...baseEnv(), ...xdgEnv(), ...extra };
  const req = (id, method, params) =>
    JSON.stringify({ jsonrpc: "2.0", factoryApiVersion: "1.0.0", factoryProtocolVersion: "1.220.0", type: "request", id, method, params }) + "\n";
  let result = null;
  let failure = null;
  const r = await run(exe, ["exec", "--input-format", "stream-jsonrpc", "--output-format", "stream-jsonrpc"], {
    env,
    input: req("1", "droid.initialize_session", { machineId: "skilltui-oracle", cwd: project }),
    onStdoutLine: (line, child, kill) => {
      let m;
      try {
        m = JSON.parse(line);
      } catch {
        return;
      }
      if (m.type === "notification") return;
      if (m.id === "1") {
        if (m.error) failure = m.error;
        child.stdin.write(req("2", "droid.list_skills", {}));
      } else if (m.id === "2") {
        if (m.error) failure = m.error;
        result = m.result || null;
        child.stdin.end();
        kill();
      } else if (m.method && m.id !== undefined) {
        child.stdin.write(JSON.stringify({ jsonrpc: "2.0", type: "response", id: m.id, error: { code: -32601, message: "not supported" } }) + "\n");
      }
    },
  });
  if (!result) return { raw_error: `no droid.list_skills answer (exit ${r.code})${failure ? ": " + JSON.stringify(failure) : ""}: ${stripAnsi(r.stderr).slice(-1500)}` };
  const skills = [];
  const builtin = [];
  const disabled = [];
  for (const s of result.skills || []) {
    if (s.location !== "project" && s.location !== "personal") builtin.push(s.name);
    else if (s.enabled === false) disabled.push({ name: s.name, path: s.filePath, disabledBy: s.disabledBy ?? null });
    else skills.push({ name: s.name, path: s.filePath, description: s.description ?? null, enabled: s.enabled, scope: s.location });
  }
  const errors = disabled.map((d) => `${d.path}: listed disabled (${JSON.stringify(d.disabledBy)}) as ${JSON.stringify(d.name)}`);
  return { skills, errors, builtin, disabled };
}

// Amp: `amp skill list --json` with any non-empty AMP_API_KEY (without one it starts a browser
// login) → {skills: [{name, description, baseDir: "file://<folder>" | "builtin:///skills",
// source}], errors: [{path, error, hint}]}.
async function amp() {
  const exe = bin("@ampcode/cli-linux-x64/amp");
  const env = { ...baseEnv(), ...xdgEnv(), AMP_API_KEY: "sgamp_offline_dummy", ...extra };
  const outFile = path.join(os.tmpdir(), `skilltui-oracle-amp-${process.pid}.json`);
  // A numeric `name` can make 0.0.1790142911 crash in its sort and then hang: the timeout is short.
  const r = await run(exe, ["skill", "list", "--json"], { env, input: null, stdoutFile: outFile, timeoutMs: Math.min(TIMEOUT_MS, 20000) });
  fs.rmSync(outFile, { force: true });
  let out;
  try {
    out = JSON.parse(r.stdout);
  } catch {
    // The release's known crash on a numeric `name` (it then hangs until the timeout): no
    // listing, reported as such for the harness to match against the model's [[bugs]].
    const crash = (r.stdout + "\n" + r.stderr).match(/TypeError: [^\n]*localeCompare is not a function[^\n]*/);
    if (crash) return { crashed: crash[0].slice(0, 300) };
    return { raw_error: `unparsable output (exit ${r.code}): ${r.stdout.slice(0, 500)} ${stripAnsi(r.stderr).slice(-1500)}` };
  }
  const fromUrl = (u) => (typeof u === "string" && u.startsWith("file://") ? decodeURIComponent(u.slice(7)) : u);
  const skills = [];
  const builtin = [];
  for (const s of out.skills || []) {
    if (s.source === "builtin" || !String(s.baseDir || "").startsWith("file://")) {
      builtin.push(String(s.name));
      continue;
    }
    const dir = fromUrl(s.baseDir);
    // The listing names the folder, not the file: Amp also reads a lowercase skill.md.
    const file = fs.existsSync(path.join(dir, "SKILL.md")) ? "SKILL.md" : fs.existsSync(path.join(dir, "skill.md")) ? "skill.md" : "SKILL.md";
    // A name or description that is not text is reported as its YAML value (123, true, a list,
    // a mapping): compared as the text JavaScript makes of it (String(value)).
    const text = (v) => (v === null || v === undefined ? null : String(v));
    skills.push({ name: text(s.name) ?? "", path: path.join(dir, file), description: text(s.description), scope: s.source });
  }
  const errors = (out.errors || []).map((e) => `${fromUrl(e.path)}: ${e.error}${e.hint ? ` (${e.hint})` : ""}`);
  return { skills, errors, builtin };
}

// ---------------------------------------------------------------------------------------------
// Cline 3.0.65 lists skills only in its TUI (and `cline --acp` announces none). The skills come
// from the loader of its SDK, @cline/core 0.0.86, which the CLI depends on and embeds: the driver
// runs that loader in a child node process (createSkillsConfigDefinition +
// UnifiedConfigFileWatcher, as the CLI does) → [{id, name, description, disabled, path}] and the
// parse errors it emits. The CLI passes its workspace root (the git root, seen from a
// sub-folder); the driver passes the nearest folder holding .git, else the project. Plugin skills
// are not included. The child runs in its own process group, which is killed when it ends, and any
// process of the run left after it (found by the SKILLTUI_ORACLE_RUN variable it inherits: the
// CLI's hub daemon, `cline --cline-hub-daemon`, leaves its group and outlives the CLI) is killed
// by its pid.
const CLINE_LIST = `
import { pathToFileURL } from "node:url";
const m = await import(pathToFileURL(process.argv[1]).href);
const def = m.createSkillsConfigDefinition({ workspacePath: process.argv[2] });
const w = new m.UnifiedConfigFileWatcher([def], { emitParseErrors: true });
const errors = [];
w.subscribe((e) => { if (e.kind === "error") errors.push((e.filePath || "") + ": " + String(e.error?.message ?? e.error)); });
await w.refreshAll();
const skills = [...w.getSnapshot("skill").values()].map((r) => ({ id: r.id, name: r.item.name, description: r.item.description ?? null, disabled: r.item.disabled ?? false, path: r.filePath }));
w.stop();
process.stdout.write(JSON.stringify({ directories: def.directories, skills, errors }) + "\\n", () => process.exit(0));
`;

function gitRoot(dir) {
  for (let d = path.resolve(dir); ; ) {
    if (fs.existsSync(path.join(d, ".git"))) return d;
    const up = path.dirname(d);
    if (up === d) return path.resolve(dir);
    d = up;
  }
}

/** Pids of the processes (other than this one) whose environment holds `entry` (KEY=value). */
function processesWithEnv(want) {
  const out = [];
  let pids = [];
  try {
    pids = fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return out;
  }
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    try {
      const env = fs.readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
      if (env.includes(want)) out.push(Number(pid));
    } catch {}
  }
  return out;
}

/** Kills what this run's agent left running (its processes carry RUN_TAG); returns their pids. */
function killLeftovers() {
  const pids = processesWithEnv(`SKILLTUI_ORACLE_RUN=${RUN_TAG}`);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  return pids;
}

function clineCore() {
  if (entry) {
    // The user's `cline` (a bin link into the npm package `cline`): its @cline/core.
    const pkg = packageFile(entry, "cline", ".");
    if (!pkg) return null;
    for (const c of [path.join(pkg, "node_modules/@cline/core/dist/index.js"), path.join(pkg, "../@cline/core/dist/index.js")]) {
      if (fs.existsSync(c)) return c;
    }
    return null;
  }
  // The oracle's cache holds @cline/core at the top; a global npm install nests it in cline's.
  const top = bin("@cline/core/dist/index.js");
  const nested = bin("cline/node_modules/@cline/core/dist/index.js");
  return fs.existsSync(top) || !fs.existsSync(nested) ? top : nested;
}

async function cline() {
  const core = clineCore();
  if (!core) return { raw_error: `${entry} is not inside the npm package cline with its @cline/core (a standalone build cannot be listed offline)` };
  const env = { ...baseEnv(), ...xdgEnv(), ...extra };
  const r = await run(process.execPath, ["--input-type=module", "-e", CLINE_LIST, core, gitRoot(project)], { env, input: null, timeoutMs: Math.max(TIMEOUT_MS, 120000) });
  const left = killLeftovers();
  let out;
  try {
    out = JSON.parse(r.stdout);
  } catch {
    return { raw_error: `the @cline/core loader failed (exit ${r.code}): ${r.stdout.slice(0, 500)} ${stripAnsi(r.stderr).slice(-1500)}` };
  }
  const skills = [];
  const disabled = [];
  for (const s of out.skills || []) {
    if (s.disabled) disabled.push({ name: s.name, path: s.path });
    else skills.push({ name: s.name, path: s.path, description: s.description, id: s.id });
  }
  const errors = [...(out.errors || []), ...disabled.map((d) => `${d.path}: disabled in its frontmatter (${JSON.stringify(d.name)})`)];
  return { skills, errors, builtin: [], disabled, left_running: left };
}

// ---------------------------------------------------------------------------------------------
// Auggie 0.36.0 (`auggie --acp`): the ACP server refuses to log in, but a dummy session variable
// is accepted and nothing is fetched before a prompt (none is sent). After `session/new` it sends
// `available_commands_update` with its slash commands; a skill is a command named after its
// FOLDER, described "<description> (<source>)", source ∈ user, workspace, .claude, .agents. No
// paths: the listing is names only ("names_only": the harness compares the set of names).
// The workspace-indexing permission request is answered with its reject option.
const AUGGIE_SOURCES = ["user", "workspace", ".claude", ".agents"];
async function auggie() {
  const exe = bin("@augmentcode/auggie/augment.mjs");
  const env = {
    ...baseEnv(),
    ...xdgEnv(),
    AUGMENT_SESSION_AUTH: JSON.stringify({ accessToken: "offline-dummy", tenantURL: "https://d1.api.augmentcode.com/", scopes: ["email"] }),
    ...extra,
  };
  const [cmd, args] = exe.endsWith(".mjs") || exe.endsWith(".js") ? [process.execPath, [exe]] : [exe, []];
  let commands = null;
  let failure = null;
  const send = (child, o) => child.stdin.write(JSON.stringify(o) + "\n");
  const r = await run(cmd, [...args, "--acp"], {
    env,
    input: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } },
    }) + "\n",
    // Under load (a shared 2-core machine, load 30) its start alone took 20 s, and a run over 90 s.
    timeoutMs: Math.max(TIMEOUT_MS, 240000),
    onStdoutLine: (line, child, kill) => {
      let m;
      try {
        m = JSON.parse(line);
      } catch {
        return;
      }
      if (m.id === 1 && !m.method) {
        if (m.error) {
          failure = m.error;
          kill();
          return;
        }
        send(child, { jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: project, mcpServers: [] } });
      } else if (m.method === "session/update") {
        const u = m.params && m.params.update;
        if (u && u.sessionUpdate === "available_commands_update" && Array.isArray(u.availableCommands)) {
          commands = u.availableCommands;
          child.stdin.end();
          kill();
        }
      } else if (m.method === "session/request_permission" && m.id !== undefined) {
        const opts = (m.params && m.params.options) || [];
        const o = opts.find((x) => x.kind === "reject_once") || opts.find((x) => /reject/.test(x.kind || "")) || opts[0];
        send(child, { jsonrpc: "2.0", id: m.id, result: { outcome: o ? { outcome: "selected", optionId: o.optionId } : { outcome: "cancelled" } } });
      } else if (m.method && m.id !== undefined) {
        send(child, { jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "not supported" } });
      } else if (m.id === 2 && m.error) {
        failure = m.error;
        kill();
      }
    },
  });
  killLeftovers();
  if (!commands) return { raw_error: `no available_commands_update (exit ${r.code})${failure ? ": " + JSON.stringify(failure) : ""}: ${r.stdout.slice(-800)} ${stripAnsi(r.stderr).slice(-800)}` };
  const skills = [];
  const builtin = [];
  for (const c of commands) {
    const d = typeof c.description === "string" ? c.description : "";
    const m = d.match(/^([\s\S]*) \(([^()]*)\)$/);
    if (m && AUGGIE_SOURCES.includes(m[2])) skills.push({ name: String(c.name), path: "", scope: m[2] });
    else builtin.push(String(c.name));
  }
  return { skills, errors: [], builtin, names_only: true };
}

const drivers = { codex, opencode, pi, "copilot-cli": copilot, "claude-code": claude, "gemini-cli": gemini, "qwen-code": qwen, "qoder-cli": qoder, kilo, "factory-droid": droid, amp, cline, auggie };
const out = await drivers[agent]();
// Whatever any agent left running (a daemon that left its process group) goes too.
const left = killLeftovers();
if (left.length) out.left_running = [...(out.left_running || []), ...left];
const version = process.env.SKILLTUI_AGENT_VERSION || pin.version;
// Exit once the whole line is written: into a pipe, stdout is asynchronous and an early exit
// cuts it at the pipe's buffer (64 KiB).
process.stdout.write(JSON.stringify({ agent, version, skills: [], errors: [], builtin: [], ...out }) + "\n", () => process.exit(0));
