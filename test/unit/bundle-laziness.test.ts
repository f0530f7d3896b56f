// The features bundle evaluates the big SDKs only when they are used: loading dist/features.js (what the
// first chat or capture does) must not run the Anthropic, OpenAI or MCP SDK, zod, xterm, yaml or RE2. Each is
// reached through a require() inside a function, which esbuild bundles as an initializer run on the first
// call; one static import anywhere would evaluate it at load and hold its memory for the whole window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { nodeBundle } from '../../scripts/lib/node-bundle.mjs';

const LAZY = ['@anthropic-ai/sdk', 'openai', '@modelcontextprotocol/sdk', 'zod', '@xterm/headless', 'yaml', 're2js'];

/** Prepends `globalThis.__evaluated.add(<package>)` to every file of the lazy packages. */
const markEvaluation: Plugin = {
  name: 'mark-evaluation',
  setup(b) {
    b.onLoad({ filter: /node_modules[\\/].*\.(c|m)?js$/ }, async (args) => {
      const pkg = LAZY.find((p) => args.path.includes(`node_modules${path.sep}${p}${path.sep}`));
      if (!pkg) return undefined;
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      // Put before a "use strict" the file may then run sloppy: harmless for noticing that it ran.
      return {
        contents: `(globalThis.__evaluated ??= new Set()).add(${JSON.stringify(pkg)});\n${source}`,
        loader: 'js',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

/** Loads the bundle in a fresh node with every `vscode.X` it names as an inert proxy; prints what ran. */
const LOADER = `
const Module = require('module');
const fs = require('fs');
const inert = () => new Proxy(function () {}, {
  get: (_, k) => (k === 'then' || k === '__esModule' ? undefined : inert()),
  construct: () => inert(),
  apply: () => inert(),
});
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request !== 'vscode') return load.call(this, request, ...rest);
  const api = {};
  for (const m of fs.readFileSync(process.argv[2], 'utf8').matchAll(/vscode\\d*\\.(\\w+)/g)) api[m[1]] = inert();
  return api;
};
const exported = require(process.argv[2]);
const before = [...(globalThis.__evaluated ?? [])];
Promise.resolve(eval(process.argv[3] ?? ''))
  .catch(() => {})
  .then(() => {
    const after = [...(globalThis.__evaluated ?? [])].sort();
    console.log(JSON.stringify({ exports: Object.keys(exported).length, before, after }));
  });
`;

async function bundle(dir: string, entry: string): Promise<string> {
  const outfile = path.join(dir, `${path.basename(entry, '.ts')}.js`);
  await build({ ...nodeBundle, entryPoints: [entry], outfile, logLevel: 'error', plugins: [markEvaluation] });
  return outfile;
}

function run(dir: string, file: string, then = ''): { exports: number; before: string[]; after: string[] } {
  const loader = path.join(dir, 'load.cjs');
  writeFileSync(loader, LOADER);
  const r = spawnSync(process.execPath, [loader, file, then], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { exports: number; before: string[]; after: string[] };
}

test('loading the features bundle evaluates none of the SDKs, zod, xterm or yaml', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cd-lazy-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = run(dir, await bundle(dir, 'src/extension/features.ts'));
  assert.ok(r.exports > 10, 'the bundle loaded and exported its features');
  assert.deepEqual(r.before, []);
});

test('each lazy package is in the bundle and evaluated on first use', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cd-lazy-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // An entry that reaches each lazy module the way the product does, and a use that triggers each.
  const entry = path.join(dir, 'entry.ts');
  const src = (p: string): string => JSON.stringify(path.resolve(p));
  writeFileSync(
    entry,
    [
      `export { anthropicModule, openAIModule } from ${src('src/extension/agent/providerModules.ts')};`,
      `export { McpSyncManager } from ${src('src/core/mcp/manager.ts')};`,
      `export { TerminalRenderer } from ${src('src/core/store/sanitize/terminal-renderer.ts')};`,
      `export { parseSkillFile } from ${src('src/core/skills/frontmatter.ts')};`,
    ].join('\n'),
  );
  const file = await bundle(dir, entry);
  const loadedOnly = run(dir, file);
  assert.deepEqual(loadedOnly.before, []);
  const anthropic = run(dir, file, 'exported.anthropicModule()');
  assert.deepEqual(anthropic.after, ['@anthropic-ai/sdk']);
  const openai = run(dir, file, 'exported.openAIModule()');
  assert.deepEqual(openai.after, ['openai']);
  // A full-screen program's sequences (alternate screen) send the renderer to xterm.
  const xterm = run(
    dir,
    file,
    "(r => r.write('\\x1b[?1049h\\x1b[2J\\x1b[5;5Hx\\n').then(() => r.end()))(new exported.TerminalRenderer())",
  );
  assert.deepEqual(xterm.after, ['@xterm/headless']);
  // A server whose command does not exist: the first connect evaluates the MCP SDK (and its zod) to fail.
  const mcp = run(
    dir,
    file,
    "(m => m.syncAll().finally(() => m.dispose()))(new exported.McpSyncManager({ allowStart: true, settingServers: { s: { command: 'cd-no-such-command' } } }))",
  );
  assert.deepEqual(mcp.after, ['@modelcontextprotocol/sdk', 'zod']);
  const skill = run(dir, file, "exported.parseSkillFile('---\\nname: a\\ndescription: b\\n---\\n', 'SKILL.md')");
  assert.deepEqual(skill.after, ['yaml']);
});
