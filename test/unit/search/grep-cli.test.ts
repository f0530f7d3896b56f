import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../support/cli';
import { ContextStore } from '../../../src/core/store/context-store';
import { TerminalLogWriter } from '../../../src/core/store/terminal-log';
import { HistoryWriter } from '../../../src/core/store/history';
import { grepStore, type GrepScope } from '../../../src/core/search/store-grep';
import { RipgrepError } from '../../../src/core/search/ripgrep';

async function fixtureStore(t: { after(fn: () => Promise<void>): void }): Promise<ContextStore> {
  const ws = await mkdtemp(path.join(tmpdir(), 'cd-grep-'));
  t.after(() => rm(ws, { recursive: true, force: true }));
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const w = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 1 });
  const cap = await w.begin({ command: 'make' });
  await cap.push('compiling\r\nerror: undefined reference to `frobnicate`\r\n-- done --\r\n');
  await cap.end({ exitCode: 2 });
  await w.close();
  const out = store.toolOutputPath('s1', 1, 'shell');
  await fsp.mkdir(path.dirname(out), { recursive: true });
  await fsp.writeFile(out, 'tool said Error: frobnicate failed\n');
  const h = await HistoryWriter.open(store, 's1');
  await h.append({ role: 'user', content: 'why does frobnicate fail?' });
  await h.close();
  return store;
}

test('grepStore searches the chosen scope despite the store .gitignore, skipping the JSONL', async (t) => {
  const store = await fixtureStore(t);
  const files = async (scope: 'terminals' | 'tool-outputs' | 'history' | 'all'): Promise<string[]> => {
    const out: string[] = [];
    for await (const m of grepStore({ root: store.root, pattern: 'frobnicate', scope }))
      out.push(path.relative(store.root, m.file).split(path.sep).join('/'));
    return out.sort();
  };
  assert.deepEqual(await files('terminals'), ['terminals/bash-1.log']);
  assert.deepEqual(await files('tool-outputs'), ['tool-outputs/s1/0001-shell.txt']);
  assert.deepEqual(await files('history'), ['history/s1.md']);
  assert.deepEqual(await files('all'), ['history/s1.md', 'terminals/bash-1.log', 'tool-outputs/s1/0001-shell.txt']);
  await assert.rejects(
    grepStore({ root: path.join(store.root, 'nope'), pattern: 'x' }).next(),
    (e: unknown) => e instanceof RipgrepError && /no Context Desk folder/.test(e.message),
  );
});

test('a scope that is not one of the four is refused: a model-written ../.. searched outside the store', async (t) => {
  const store = await fixtureStore(t);
  const ws = path.dirname(store.root);
  await fsp.writeFile(path.join(ws, 'frobnicate-outside.txt'), 'frobnicate outside the store\n');
  for (const scope of ['..', '../..', 'terminals/../..', '/etc', ''])
    await assert.rejects(
      grepStore({ root: store.root, pattern: 'frobnicate', scope: scope as GrepScope }).next(),
      (e: unknown) =>
        e instanceof RipgrepError && /unknown scope .*use one of terminals, tool-outputs, history, all/.test(e.message),
      scope,
    );
});

test('a Context Desk folder or scope folder that is a symbolic link is refused, not followed', async (t) => {
  const store = await fixtureStore(t);
  const ws = path.dirname(store.root);
  // What a hostile repository can ship: a store folder pointing at files outside the workspace.
  const outside = await mkdtemp(path.join(tmpdir(), 'cd-grep-outside-'));
  t.after(() => rm(outside, { recursive: true, force: true }));
  await fsp.writeFile(path.join(outside, 'id_rsa.log'), 'PRIVATE frobnicate key\n');
  await fsp.rename(path.join(store.root, 'tool-outputs'), path.join(ws, 'moved'));
  await fsp.symlink(outside, path.join(store.root, 'tool-outputs'));
  for (const scope of ['tool-outputs', 'all'] as const)
    await assert.rejects(
      grepStore({ root: store.root, pattern: 'frobnicate', scope }).next(),
      (e: unknown) => e instanceof RipgrepError && /tool-outputs is a symbolic link: not searched/.test(e.message),
    );
  // Other scopes still work.
  const terminals: string[] = [];
  for await (const m of grepStore({ root: store.root, pattern: 'frobnicate', scope: 'terminals' }))
    terminals.push(m.text);
  assert.equal(terminals.length, 1);
  const cli = await runCli(['grep', 'PRIVATE'], { cwd: ws });
  assert.equal(cli.code, 2);
  assert.equal(cli.out, '');
  assert.match(cli.err, /symbolic link: not searched/);
  // The whole folder as a link.
  const linkWs = await mkdtemp(path.join(tmpdir(), 'cd-grep-linkws-'));
  t.after(() => rm(linkWs, { recursive: true, force: true }));
  await fsp.symlink(store.root, path.join(linkWs, '.context-desk'));
  const whole = await runCli(['grep', 'frobnicate'], { cwd: linkWs });
  assert.equal(whole.code, 2);
  assert.equal(whole.out, '');
  assert.match(whole.err, /\.context-desk is a symbolic link: not searched/);
});

test('context-desk grep prints file:line:text, defaults to ./.context-desk, exits 0/1', async (t) => {
  const store = await fixtureStore(t);
  const ws = path.dirname(store.root);
  const r = await runCli(['grep', 'undefined reference', '--in', 'terminals'], { cwd: ws });
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, '.context-desk/terminals/bash-1.log:4:error: undefined reference to `frobnicate`\n');
  const none = await runCli(['grep', 'no such text anywhere'], { cwd: ws });
  assert.deepEqual([none.code, none.out], [1, '']);
});

test('on a terminal, escape sequences in a matched line (a store shipped by a cloned repository) are not passed on', async (t) => {
  const store = await fixtureStore(t);
  const ws = path.dirname(store.root);
  const hostile = 'needle \x1b]0;PWNED\x07\x1b]52;c;ZWNobyBoaQ==\x07\x1b[2J\x9b31m visible\x07\n';
  await fsp.writeFile(path.join(store.root, 'history', 'shipped.md'), hostile);
  const tty = await runCli(['grep', 'needle'], { cwd: ws, tty: true });
  assert.equal(tty.code, 0, tty.err);
  assert.equal(tty.out, '.context-desk/history/shipped.md:1:needle  visible\n');
  // To a file or a pipe the bytes are rg's, unchanged, as `rg` itself would write them.
  const piped = await runCli(['grep', 'needle'], { cwd: ws });
  assert.equal(piped.out, `.context-desk/history/shipped.md:1:${hostile}`);
});

test('context-desk grep --json, --fixed, --ignore-case, --max, --dir and a pattern starting with -', async (t) => {
  const store = await fixtureStore(t);
  const json = await runCli(['grep', 'FROBNICATE', '--ignore-case', '--json', '--dir', store.root, '--max', '2'], {
    cwd: tmpdir(),
  });
  assert.equal(json.code, 0, json.err);
  const rows = json.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { file: string; line: number; text: string });
  assert.equal(rows.length, 2);
  assert.ok(rows.every((r) => typeof r.file === 'string' && r.line > 0 && /frobnicate/i.test(r.text)));
  const dash = await runCli(['grep', '--fixed', '--dir', store.root, '--', '-- done --'], { cwd: tmpdir() });
  assert.equal(dash.code, 0, dash.err);
  assert.match(dash.out, /bash-1\.log:5:-- done --\n$/);
  const hostile = await runCli(['grep', '--dir', store.root, 'x . ; touch PWNED; #'], { cwd: store.root });
  assert.equal(hostile.code, 1);
  await assert.rejects(fsp.access(path.join(store.root, 'PWNED')));
});

test('context-desk grep explains bad usage and bad patterns', async (t) => {
  const store = await fixtureStore(t);
  const cases: [string[], RegExp][] = [
    [['grep'], /PATTERN is missing/],
    [['grep', 'a', 'b'], /expected one PATTERN/],
    [['grep', 'a', '--in', 'everything'], /--in must be one of terminals, tool-outputs, history, all/],
    [['grep', 'a', '--max', '0'], /--max must be a positive integer/],
    [['grep', 'a', '--bogus'], /Unknown option '--bogus'/],
  ];
  for (const [argv, msg] of cases) {
    const r = await runCli(argv, { cwd: store.root });
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.err, msg);
    assert.match(r.err, /Usage: context-desk grep PATTERN/);
  }
  const badRegex = await runCli(['grep', '--dir', store.root, '(unclosed'], { cwd: tmpdir() });
  assert.equal(badRegex.code, 2);
  assert.match(badRegex.err, /Not a valid regular expression: unclosed group/);
  const noDir = await runCli(['grep', 'x', '--dir', path.join(store.root, 'missing')], { cwd: tmpdir() });
  assert.equal(noDir.code, 2);
  assert.match(noDir.err, /no Context Desk folder at/);
});
