import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp, createReadStream } from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { ContextStore } from '../../../src/core/store/context-store';
import { ToolOutputStore, fullOutputLine } from '../../../src/core/store/tool-outputs';
import { listStoredOutputs } from '../../../src/core/store/output-index';
import { createTokenizer } from '../../../src/core/tokens/tokenizer';
import { tempDir } from './helpers';

const tokenizer = createTokenizer('o200k');

async function setup(t: Parameters<typeof tempDir>[0]): Promise<{ ws: string; store: ContextStore }> {
  const ws = await tempDir(t);
  return { ws, store: await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws }) };
}

test('a short output is returned whole and not stored', async (t) => {
  const { store } = await setup(t);
  const r = await new ToolOutputStore(store, tokenizer).save({
    session: 's',
    turn: 1,
    tool: 'shell',
    output: '\x1b[32mok\x1b[0m\nline 2\n',
  });
  assert.equal(r.content, 'ok\nline 2\n');
  assert.equal(r.storedAt, undefined);
  assert.equal(r.lines, 2);
  assert.equal(r.tokens, tokenizer.count('ok\nline 2\n'));
  assert.deepEqual(await fsp.readdir(store.folder('tool-outputs')), []);
});

test('a short output kept for masking stays whole for the agent and gets a sanitized file', async (t) => {
  const { ws, store } = await setup(t);
  const outputs = new ToolOutputStore(store, tokenizer);
  const r = await outputs.store('\x1b[32mok\x1b[0m\nAKIAIOSFODNN7EXAMPLE\n', {
    session: 's',
    turn: 1,
    tool: 'shell',
    keep: true,
  });
  assert.ok(r.storedAt, 'the output has a file');
  assert.doesNotMatch(r.text, /Full output/, 'the agent sees the output whole, as before');
  assert.doesNotMatch(r.text, /AKIAIOSFODNN7EXAMPLE/);
  assert.equal(await fsp.readFile(path.join(ws, r.storedAt), 'utf8'), r.text, 'the file holds what the agent saw');
  assert.equal((await listStoredOutputs(store, 's')).length, 1, 'indexed like a long one');
  // Nothing to keep: an empty output gets no file.
  assert.equal((await outputs.store('', { session: 's', turn: 2, tool: 'shell', keep: true })).storedAt, undefined);
});

test('a long output is stored; the agent gets head, tail and exactly one Full output line', async (t) => {
  const { store } = await setup(t);
  const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} of the build log`);
  const text = lines.join('\n') + '\n';
  const r = await new ToolOutputStore(store, tokenizer).save({
    session: 'sess 1',
    turn: 3,
    tool: 'run_shell',
    output: text,
  });
  const rel = '.context-desk/tool-outputs/sess_1-';
  assert.ok(r.display!.startsWith(rel), r.display);
  assert.ok(r.display!.endsWith('/0003-run_shell.txt'), r.display);
  assert.equal(await fsp.readFile(r.storedAt!, 'utf8'), text);
  assert.equal(r.lines, 5000);
  assert.equal(r.tokens, tokenizer.count(text));
  assert.ok(r.tokensExact);
  const out = r.content.split('\n');
  assert.equal(out.filter((l) => l.startsWith('Full output')).length, 1);
  assert.equal(out.at(-1), fullOutputLine(5000, r.tokens, r.display!));
  assert.equal(out[0], 'line 0 of the build log');
  assert.equal(out.at(-2), 'line 4999 of the build log');
  assert.match(r.content, /\[\.\.\. \d+ lines omitted \.\.\.\]/);
  assert.ok(r.content.length < 8 * 1024);
  // A second output of the same tool in the same turn gets its own file.
  const again = await new ToolOutputStore(store, tokenizer).save({
    session: 'sess 1',
    turn: 3,
    tool: 'run_shell',
    output: text,
  });
  assert.ok(again.display!.endsWith('/0003-run_shell-2.txt'));
  // The agent's port returns the same preview and the workspace-relative path.
  const port = await new ToolOutputStore(store, tokenizer, { thresholdChars: 100 }).store(text, {
    session: 's2',
    turn: 1,
    tool: 'x',
  });
  assert.equal(port.storedAt, '.context-desk/tool-outputs/s2/0001-x.txt');
  assert.ok(port.text.endsWith(`: ${port.storedAt} - read, tail or grep it`));
});

test('a 5 MB output with a planted key is stored redacted', async (t) => {
  const { store } = await setup(t);
  const filler = 'x'.repeat(99) + '\n';
  const key = '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';
  const output = filler.repeat(25_000) + `token=${key}\n` + filler.repeat(25_000);
  const r = await new ToolOutputStore(store, tokenizer).save({ session: 's', turn: 2, tool: 'cat', output });
  const disk = await fsp.readFile(r.storedAt!, 'utf8');
  assert.ok(!disk.includes(key));
  assert.ok(disk.includes('token=[REDACTED:github-token]'));
  assert.deepEqual(r.stats.redactions, { 'github-token': 1 });
});

test('a binary blob becomes a one-line note, not a file', async (t) => {
  const { store } = await setup(t);
  const blob = Buffer.alloc(1 << 20, 0);
  const r = await new ToolOutputStore(store, tokenizer).save({ session: 's', turn: 1, tool: 'cat', output: blob });
  assert.equal(r.content, `[binary output: ${1 << 20} bytes, not stored]\n`);
  assert.equal(r.storedAt, undefined);
});

test('an aborted stream leaves no file behind and says why', async (t) => {
  const { store } = await setup(t);
  const ac = new AbortController();
  async function* gen(): AsyncIterable<string> {
    for (let i = 0; ; i++) {
      if (i === 50) ac.abort(new Error('tool cancelled'));
      yield 'y'.repeat(1023) + '\n';
    }
  }
  await assert.rejects(
    new ToolOutputStore(store, tokenizer).save({
      session: 's',
      turn: 1,
      tool: 'gen',
      output: gen(),
      signal: ac.signal,
    }),
    /tool cancelled/,
  );
  const dir = path.join(store.folder('tool-outputs'), 's');
  assert.deepEqual(await fsp.readdir(dir).catch(() => []), []);
});

// 1 GB goes through the whole pipeline (decode, strip, redact, write) in bounded memory. It takes about
// a minute on 2 cores, so the default run streams 200 MB; CONTEXT_DESK_BIG=1 streams the full 1 GB.
test('a huge streamed output is stored without holding it in memory', async (t) => {
  const { store } = await setup(t);
  const total = process.env.CONTEXT_DESK_BIG === '1' ? 1024 ** 3 : 200 * 1024 ** 2;
  const line = 'INFO 2026-11-22T02:33:02Z worker-7 processed batch with 512 items in 12 ms; queue depth 3\n';
  const chunk = line.repeat(Math.floor((1 << 20) / line.length));
  const chunks = Math.ceil(total / chunk.length);
  let peakRss = 0;
  async function* gen(): AsyncIterable<string> {
    for (let i = 0; i < chunks; i++) {
      if (i % 64 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
      yield chunk;
    }
  }
  const rssBefore = process.memoryUsage().rss;
  const r = await new ToolOutputStore(store, createTokenizer('chars4')).save({
    session: 'big',
    turn: 1,
    tool: 'gen',
    output: gen(),
  });
  const expectedLines = (chunk.split('\n').length - 1) * chunks;
  assert.equal(r.lines, expectedLines);
  assert.equal((await fsp.stat(r.storedAt!)).size, chunk.length * chunks);
  assert.ok(peakRss - rssBefore < 400 * 1024 * 1024, `rss grew ${(peakRss - rssBefore) / 2 ** 20} MB`);
  // The stored file reads back line by line (spot-check the last line).
  let last = '';
  for await (const l of readline.createInterface({
    input: createReadStream(r.storedAt!, { start: (await fsp.stat(r.storedAt!)).size - 200 }),
  }))
    last = l;
  assert.equal(last + '\n', line);
});

test('stored outputs are indexed for the quick pick: newest first, with first line; the index is rebuilt from the folder when lost', async (t) => {
  const { store } = await setup(t);
  let now = Date.UTC(2026, 10, 22, 3, 0, 0);
  const clock = { now: () => (now += 1000) };
  const outputs = new ToolOutputStore(store, tokenizer, { thresholdChars: 50, clock });
  for (const [turn, tool] of [
    [1, 'shell'],
    [2, 'read_file'],
    [3, 'shell'],
  ] as const) {
    await outputs.save({ session: 's', turn, tool, output: `\n  first line of ${tool} ${turn}\n${'z'.repeat(80)}\n` });
  }
  const list = await listStoredOutputs(store, 's');
  assert.deepEqual(
    list.map((e) => [e.turn, e.tool, e.firstLine, e.file]),
    [
      [3, 'shell', '  first line of shell 3', '0003-shell.txt'],
      [2, 'read_file', '  first line of read_file 2', '0002-read_file.txt'],
      [1, 'shell', '  first line of shell 1', '0001-shell.txt'],
    ],
  );
  assert.equal(list[0]!.display, '.context-desk/tool-outputs/s/0003-shell.txt');
  assert.equal(list[0]!.lines, 3);
  // A rotated-away file disappears from the list; a lost index is rebuilt from the folder.
  await fsp.rm(path.join(store.folder('tool-outputs'), 's', '0002-read_file.txt'));
  await fsp.writeFile(path.join(store.folder('tool-outputs'), 's', 'index.jsonl'), '{"turn":1,"entr');
  const rebuilt = await listStoredOutputs(store, 's');
  assert.deepEqual(rebuilt.map((e) => [e.turn, e.tool, e.firstLine]).sort(), [
    [1, 'shell', '  first line of shell 1'],
    [3, 'shell', '  first line of shell 3'],
  ]);
  // A link among the files (a repository can ship one) is not listed and its target is not read.
  const secret = path.join(path.dirname(store.root), 'outside-secret.txt');
  await fsp.writeFile(secret, 'PRIVATE KEY\n');
  await fsp.symlink(secret, path.join(store.folder('tool-outputs'), 's', '0009-shell.txt'));
  const withLink = await listStoredOutputs(store, 's');
  assert.deepEqual(withLink.map((e) => e.file).sort(), ['0001-shell.txt', '0003-shell.txt']);
  assert.deepEqual(await listStoredOutputs(store, 'no-such-session'), []);
  // An index that is a link to /dev/zero is not read (it was, to about 600 MB): the folder scan lists the files.
  await fsp.rm(path.join(store.folder('tool-outputs'), 's', 'index.jsonl'));
  await fsp.symlink('/dev/zero', path.join(store.folder('tool-outputs'), 's', 'index.jsonl'));
  await fsp.symlink('/dev/zero', path.join(store.folder('tool-outputs'), 's', 'index.json'));
  const started = performance.now();
  const scanned = await listStoredOutputs(store, 's');
  assert.ok(performance.now() - started < 2000);
  assert.deepEqual(scanned.map((e) => e.file).sort(), ['0001-shell.txt', '0003-shell.txt']);
});
