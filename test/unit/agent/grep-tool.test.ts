import assert from 'node:assert/strict';
import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { ToolContext } from '../../../src/core/agent/tool-registry';
import { createWorkspaceTools, grepTool, PathGuard, type GrepPort } from '../../../src/core/agent/tools';
import { ripgrep } from '../../../src/core/search/ripgrep';

let ws: string;
// What a stuck search does: nothing, until it is stopped.
const untilStopped = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason));
  });
const ctx: ToolContext = { signal: new AbortController().signal, session: 's', turn: 1, callId: 'c' };

before(async () => {
  ws = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-grep-')));
  await mkdir(path.join(ws, 'src'));
});
after(() => rm(ws, { recursive: true, force: true }));

const grep = () =>
  createWorkspaceTools({ workspaceRoot: ws, storeRoot: path.join(ws, '.context-desk') }).find(
    (t) => t.name === 'grep',
  )!;

test('a match far into a long line is shown with the text around it', async () => {
  await writeFile(
    path.join(ws, 'src', 'bundle.min.js'),
    `${'a'.repeat(4000)};throw new Error("boom");${'b'.repeat(4000)}\n`,
  );
  const out = await grep().run({ pattern: 'new Error', path: 'src' }, ctx);
  assert.match(out.text, /^src\/bundle\.min\.js:1: …a{93};throw new Error\("boom"\);b+…$/);
  assert.ok(out.text.length < 560, `${out.text.length} characters`);
});

test('`$` matches at the end of a line with a Windows line end', async () => {
  await writeFile(path.join(ws, 'src', 'win.cs'), 'int a = 1;\r\nif (x) {\r\n');
  const out = await grep().run({ pattern: ';$', path: 'src/win.cs' }, ctx);
  assert.equal(out.text, 'src/win.cs:1: int a = 1;');
});

test('a binary file named by path reports its matches instead of "No matches"', async () => {
  await writeFile(path.join(ws, 'app.bin'), Buffer.concat([Buffer.from('version=1.2.3\n'), Buffer.from([0, 1, 2])]));
  const out = await grep().run({ pattern: 'version', path: 'app.bin' }, ctx);
  assert.equal(out.text, 'app.bin:1: version=1.2.3');
});

test('a file name with a newline is quoted, not read as another path', async () => {
  await mkdir(path.join(ws, 'odd'));
  await writeFile(path.join(ws, 'odd', 'x\nsrc'), 'needle-odd\n');
  const out = await grep().run({ pattern: 'needle-odd', path: 'odd' }, ctx);
  assert.equal(out.text, '"odd/x\\nsrc":1: needle-odd');
});

test('a search that runs out of time answers with what it found and how to search faster', async () => {
  // A port like ripgrep on a huge folder: one match, then nothing until it is stopped.
  const slow: GrepPort = async function* (o) {
    yield { file: path.join(ws, 'src', 'big.log'), line: 7, text: 'ERROR first', ranges: [{ start: 0, end: 5 }] };
    await untilStopped(o.signal!);
  };
  const guard = new PathGuard({ workspaceRoot: ws });
  const started = Date.now();
  const out = await grepTool(guard, slow, { timeoutMs: 200 }).run({ pattern: 'ERROR' }, ctx);
  assert.ok(Date.now() - started < 3000);
  assert.equal(out.ok, true);
  assert.equal(
    out.text,
    'src/big.log:7: ERROR first\n(grep stopped after 0.2 s; these 1 matches were found by then, there may be more: search a smaller path, add a glob, or use a simpler or literal (fixed) pattern)',
  );
  const none: GrepPort = async function* (o) {
    yield await untilStopped(o.signal!);
  };
  const empty = await grepTool(guard, none, { timeoutMs: 200 }).run({ pattern: 'ERROR', path: 'src' }, ctx);
  assert.deepEqual(empty, {
    ok: false,
    text: 'grep stopped after 0.2 s without a match in src: search a smaller path, add a glob, or use a simpler or literal (fixed) pattern.',
  });
  // Stopping the run is not a time-out: it still throws.
  const stop = new AbortController();
  const running = grepTool(guard, none, { timeoutMs: 10_000 }).run(
    { pattern: 'ERROR' },
    { ...ctx, signal: stop.signal },
  );
  stop.abort();
  await assert.rejects(running);
});

test("a path that does not exist is named plainly, not as rg's IO error with the absolute path", async () => {
  assert.deepEqual(await grep().run({ pattern: 'x', path: 'src/nope' }, ctx), {
    ok: false,
    text: 'No such file or folder: src/nope',
  });
});

test('a folder grep cannot read is named after the matches found elsewhere, which are kept', async () => {
  await writeFile(path.join(ws, 'src', 'found.ts'), 'const unreadableNeedle = 1;\n');
  // rg as on a folder without read permission: the matches elsewhere, then exit code 2 for the one path.
  const gone = path.join(ws, 'src', 'locked');
  const rg: GrepPort = (o) => ripgrep({ ...o, rgPath: '/usr/bin/rg', paths: [...o.paths, gone] });
  const tool = grepTool(new PathGuard({ workspaceRoot: ws }), rg);
  assert.deepEqual(await tool.run({ pattern: 'unreadableNeedle', path: 'src' }, ctx), {
    ok: true,
    text: 'src/found.ts:1: const unreadableNeedle = 1;\n(1 path could not be read and was not searched: src/locked: No such file or directory)',
  });
  const none = await tool.run({ pattern: 'absentNeedle', path: 'src' }, ctx);
  assert.deepEqual(none, {
    ok: true,
    text: 'No matches for "absentNeedle" in src.\n(1 path could not be read and was not searched: src/locked: No such file or directory)',
  });
});
