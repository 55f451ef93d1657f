// Lists the skills pi loads in PROJECT the way its CLI does (main.js → createAgentSessionServices):
// SettingsManager.create(cwd, agentDir) and DefaultResourceLoader({cwd, agentDir, settingsManager})
// with extensions, prompt templates, themes and context files switched off (they do not touch skills).
// Usage (run by driver.mjs with the sandboxed environment): node pi-skills.mjs PI_INDEX_JS PROJECT
// Prints {"skills": [{name, path, description, enabled}], "errors": [text], "builtin": []}.
import { pathToFileURL } from "node:url";

const [indexJs, cwd] = process.argv.slice(2);
const pi = await import(pathToFileURL(indexJs).href);
const agentDir = pi.getAgentDir();
const settingsManager = pi.SettingsManager.create(cwd, agentDir);
const loader = new pi.DefaultResourceLoader({
  cwd,
  agentDir,
  settingsManager,
  noExtensions: true,
  noPromptTemplates: true,
  noThemes: true,
  noContextFiles: true,
});
await loader.reload();
const { skills, diagnostics } = loader.getSkills();
const out = {
  skills: skills.map((s) => ({ name: s.name, path: s.filePath, description: s.description ?? null, enabled: !s.disableModelInvocation })),
  errors: diagnostics.map((d) =>
    d.type === "collision" && d.collision
      ? `collision: ${d.collision.name}: ${d.collision.winnerPath} wins over ${d.collision.loserPath}`
      : `${d.type}: ${d.path || ""}: ${d.message}`,
  ),
  builtin: [],
};
process.stdout.write(JSON.stringify(out) + "\n", () => process.exit(0));
