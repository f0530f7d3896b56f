// The big libraries live in dist/vendor/<group>.js (scripts/lib/vendor-split.mjs): loading the features
// bundle must read none of them, and each path that uses one must load its file and work through the
// shim (a default import, a class, an error class), as the bundle users run does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { nodeBundle } from '../../scripts/lib/node-bundle.mjs';
import { vendorBuilds, vendorSplit } from '../../scripts/lib/vendor-split.mjs';

/** Loads the bundle in a fresh node (every `vscode.X` an inert proxy), runs `then`, prints what loaded. */
const LOADER = `
const Module = require('module');
const fs = require('fs');
const inert = () => new Proxy(function () {}, {
  get: (_, k) => (k === 'then' || k === '__esModule' ? undefined : inert()),
  construct: () => inert(),
  apply: () => inert(),
});
const vendor = [];
const load = Module._load;
Module._load = function (request, ...rest) {
  if (/^\\.\\/vendor\\//.test(request)) vendor.push(request);
  if (request !== 'vscode') return load.call(this, request, ...rest);
  const api = {};
  for (const m of fs.readFileSync(process.argv[2], 'utf8').matchAll(/vscode\\d*\\.(\\w+)/g)) api[m[1]] = inert();
  return api;
};
const exported = require(process.argv[2]);
const atLoad = [...new Set(vendor)];
Promise.resolve(eval(process.argv[3] ?? 'undefined'))
  .then((value) => ({ value }), (e) => ({ error: String(e && e.stack || e) }))
  .then((r) => console.log(JSON.stringify({ atLoad, after: [...new Set(vendor)].sort(), ...r })));
`;

interface Run {
  atLoad: string[];
  after: string[];
  value?: unknown;
  error?: string;
}

async function bundle(dir: string, entry: string): Promise<string> {
  const outfile = path.join(dir, `${path.basename(entry, '.ts')}.js`);
  const r = await build({ ...nodeBundle, entryPoints: [entry], outfile, logLevel: 'silent', plugins: [vendorSplit()] });
  assert.deepEqual(r.errors, []);
  return outfile;
}

function run(dir: string, file: string, then = ''): Run {
  const loader = path.join(dir, 'load.cjs');
  writeFileSync(loader, LOADER);
  const r = spawnSync(process.execPath, [loader, file, then], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Run;
}

const src = (p: string): string => JSON.stringify(path.resolve(p));

/** An entry reaching each vendored library the way the product does, and a one-request stream server. */
const ENTRY = [
  `export { anthropicModule, openAIModule } from ${src('src/extension/agent/providerModules.ts')};`,
  `export { collectChat } from ${src('src/core/agent/provider.ts')};`,
  `export { McpSyncManager } from ${src('src/core/mcp/manager.ts')};`,
  `export { TerminalRenderer } from ${src('src/core/store/sanitize/terminal-renderer.ts')};`,
  `export { parseSkillFile } from ${src('src/core/skills/frontmatter.ts')};`,
  `export { compileInputSchema } from ${src('src/core/mcp/schema.ts')};`,
  `import http from 'node:http';`,
  `export function serveOnce(body: string): Promise<{ url: string; close(): void }> {`,
  `  const s = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.end(body); }); });`,
  `  return new Promise((r) => s.listen(0, '127.0.0.1', () => r({ url: 'http://127.0.0.1:' + (s.address() as { port: number }).port, close: () => { s.closeAllConnections(); s.close(); } })));`,
  `}`,
].join('\n');

/** Sends "hi" through `provider` (an expression over `m`, the provider module, and `url`) and returns the text. */
const chatThrough = (module: string, provider: string, body: string): string =>
  `(async () => { const s = await exported.serveOnce(${JSON.stringify(body)}); const url = s.url; const m = exported.${module}();
    try { const r = await exported.collectChat(${provider}.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [], signal: new AbortController().signal })); return r.text; }
    finally { s.close(); } })()`;

const sse = (type: string, data: object = {}): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const ANTHROPIC_BODY =
  sse('message_start', {
    message: {
      id: 'x',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 3, output_tokens: 1 },
    },
  }) +
  sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
  sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'from anthropic' } }) +
  sse('content_block_stop', { index: 0 }) +
  sse('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }) +
  sse('message_stop');
const chunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const OPENAI_BODY = chunk({ role: 'assistant', content: 'from openai' }) + chunk({}, 'stop') + 'data: [DONE]\n\n';

test('the features bundle holds none of the vendored libraries and loads none of their files', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cd-vendor-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = await build({
    ...nodeBundle,
    entryPoints: ['src/extension/features.ts'],
    outfile: path.join(dir, 'features.js'),
    metafile: true,
    logLevel: 'silent',
    plugins: [vendorSplit()],
  });
  const vendored = Object.keys(r.metafile.inputs).filter((f) =>
    /node_modules\/(@anthropic-ai\/sdk|openai|@modelcontextprotocol\/sdk|zod|@xterm\/headless|yaml|re2js)\//.test(f),
  );
  assert.deepEqual(vendored, []);
  const loaded = run(dir, path.join(dir, 'features.js'), 'Object.keys(exported).length');
  assert.ok((loaded.value as number) > 10, 'the bundle loaded and exported its features');
  assert.deepEqual(loaded.atLoad, []);
});

test('each path loads its vendored file on first use and works through it', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cd-vendor-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const entry = path.join(dir, 'entry.ts');
  writeFileSync(entry, ENTRY);
  const [file] = await Promise.all([
    bundle(dir, entry),
    ...vendorBuilds({ ...nodeBundle, logLevel: 'silent' }, dir).map((b) => build(b)),
  ]);
  assert.deepEqual(run(dir, file!).atLoad, []);

  const anthropic = run(
    dir,
    file!,
    chatThrough(
      'anthropicModule',
      `new m.AnthropicProvider({ apiKey: 'k', baseURL: url, timeoutMs: 5000 })`,
      ANTHROPIC_BODY,
    ),
  );
  assert.deepEqual(
    [anthropic.error, anthropic.value, anthropic.after],
    [undefined, 'from anthropic', ['./vendor/anthropic.js']],
  );

  const openai = run(
    dir,
    file!,
    chatThrough('openAIModule', `new m.OpenAICompatibleProvider({ baseURL: url, timeoutMs: 5000 })`, OPENAI_BODY),
  );
  assert.deepEqual([openai.error, openai.value, openai.after], [undefined, 'from openai', ['./vendor/openai.js']]);

  // A full-screen program's sequences send the renderer to xterm, which renders the screen.
  const xterm = run(
    dir,
    file!,
    "(async (r) => { await r.write('\\x1b[?1049h\\x1b[2J\\x1b[5;5Hxterm ran\\r\\n'); return String(await r.end()); })(new exported.TerminalRenderer())",
  );
  assert.equal(xterm.error, undefined);
  assert.deepEqual(xterm.after, ['./vendor/xterm.js']);

  const skill = run(
    dir,
    file!,
    "exported.parseSkillFile('---\\nname: a-skill\\ndescription: b\\n---\\n', 'SKILL.md').name",
  );
  assert.deepEqual([skill.error, skill.value, skill.after], [undefined, 'a-skill', ['./vendor/yaml.js']]);

  // A schema `pattern` is checked by RE2.
  const re2 = run(
    dir,
    file!,
    "(c => [c.validate({ a: 'abc' }), c.validate({ a: 'x' })])(exported.compileInputSchema({ type: 'object', properties: { a: { type: 'string', pattern: '^a' } } }))",
  );
  assert.deepEqual([re2.error, re2.value, re2.after], [undefined, [true, false], ['./vendor/re2js.js']]);

  // A server whose command does not exist: the first connect runs the MCP SDK's client, which reports it.
  const mcp = run(
    dir,
    file!,
    "(m => m.syncAll().then(() => m.servers.map((s) => s.status)).finally(() => m.dispose()))(new exported.McpSyncManager({ allowStart: true, settingServers: { s: { command: 'cd-no-such-command' } } }))",
  );
  assert.deepEqual([mcp.error, mcp.value, mcp.after], [undefined, ['error'], ['./vendor/mcp.js']]);
});

test('a vendored module the list does not name fails the build, naming the list', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cd-vendor-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const entry = path.join(dir, 'entry.ts');
  writeFileSync(entry, `export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`);
  await assert.rejects(
    build({
      ...nodeBundle,
      entryPoints: [entry],
      outfile: path.join(dir, 'out.js'),
      logLevel: 'silent',
      absWorkingDir: process.cwd(),
      nodePaths: [path.resolve('node_modules')],
      plugins: [vendorSplit()],
    }),
    /server\/mcp\.js is not listed in VENDOR \(scripts\/lib\/vendor-split\.mjs\)/,
  );
});
