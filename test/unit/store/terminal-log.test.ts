import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ContextStore } from '../../../src/core/store/context-store';
import { TerminalLogWriter, MARKER } from '../../../src/core/store/terminal-log';
import { formatLocalTime, terminalIndexPath } from '../../../src/core/store/terminal-log-format';
import { parseTerminalLog } from '../../../src/core/store/terminal-log-reader';
import { waitFor } from '../../support/wait';
import { exited, startChild, tempDir } from './helpers';

/** A clock the test moves by hand. */
function steppingClock(start: number): { now(): number; advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

async function setup(t: Parameters<typeof tempDir>[0]): Promise<ContextStore> {
  const ws = await tempDir(t);
  return ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
}

test('a command lands in its terminal log with header, rendered output and footer', async (t) => {
  const store = await setup(t);
  const clock = steppingClock(Date.UTC(2026, 10, 22, 2, 33, 2));
  const w = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 'w1-1', clock });
  assert.equal(w.display, '.context-desk/terminals/bash-w1-1.log');
  const cap = await w.begin({ command: 'npm install', cwd: '/work/app' });
  for (const c of [
    '\x1b]633;C\x07added ',
    '3 packages\r\n',
    'fetch  10%\r',
    'fetch  60%\r',
    'fetch 100%\r\n',
    '\x1b[1mdone\x1b[0m\r\n',
  ])
    await cap.push(c);
  clock.advance(1234);
  const summary = await cap.end({ exitCode: 0 });
  assert.equal(summary.exitCode, 0);
  assert.equal(summary.durationMs, 1234);
  const second = await w.begin({ command: 'false' });
  clock.advance(5);
  await second.end({ exitCode: 1 });
  await w.close();

  const text = await fsp.readFile(w.path, 'utf8');
  // A person reads the log: a header with number, local time and folder, the command, the output, the exit.
  const at = formatLocalTime(Date.UTC(2026, 10, 22, 2, 33, 2));
  assert.equal(
    text,
    `${MARKER} #1 · ${at} · /work/app\n${MARKER} $ npm install\nadded 3 packages\nfetch 100%\ndone\n${MARKER} exit 0 · 1.2 s\n\n` +
      `${MARKER} #2 · ${formatLocalTime(Date.UTC(2026, 10, 22, 2, 33, 3, 234))}\n${MARKER} $ false\n${MARKER} exit 1 · 5 ms\n\n`,
  );
  assert.doesNotMatch(text, /[{}]/, 'no JSON in the log: the exact record is in the index');
  const index = await fsp.readFile(w.indexPath, 'utf8');
  assert.equal(w.indexPath, w.path.replace(/\.log$/, '.index.jsonl'));
  const log = parseTerminalLog(text, index);
  assert.equal(log.tornTail, undefined);
  assert.equal(log.executions.length, 2);
  const [a, b] = log.executions;
  assert.equal(a!.command, 'npm install');
  assert.equal(a!.cwd, '/work/app');
  assert.equal(a!.startedAt, '2026-11-22T02:33:02.000Z');
  assert.deepEqual(a!.output, ['added 3 packages', 'fetch 100%', 'done']);
  assert.deepEqual(a!.end, { exitCode: 0, durationMs: 1234, endedAt: '2026-11-22T02:33:03.234Z' });
  assert.equal(b!.cwd, null);
  assert.equal(b!.end?.exitCode, 1);
});

test('output is the same whatever the chunk boundaries (escape sequences, code points)', async (t) => {
  const store = await setup(t);
  const raw = Buffer.from(
    'ünïcödé \x1b[31m✓\x1b[0m 😀\r\n\x1b[?25lspin |\rspin /\rspin -\rspin ok\r\n\x1b[?25hlast line no newline',
  );
  let n = 0;
  const render = async (cuts: number[]): Promise<string[]> => {
    const w = await TerminalLogWriter.open(store, { terminalName: 't', terminalId: ++n });
    const cap = await w.begin({ command: 'x' });
    let prev = 0;
    for (const c of [...new Set(cuts)].sort((x, y) => x - y)) {
      await cap.push(raw.subarray(prev, c));
      prev = c;
    }
    await cap.push(raw.subarray(prev));
    await cap.end({ exitCode: 0 });
    await w.close();
    return parseTerminalLog(await fsp.readFile(w.path, 'utf8')).executions[0]!.output;
  };
  const whole = await render([]);
  assert.deepEqual(whole, ['ünïcödé ✓ 😀', 'spin ok', 'last line no newline']);
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: raw.length - 1 }), { maxLength: 15 }), async (cuts) => {
      assert.deepEqual(await render(cuts), whole);
    }),
    { numRuns: 30 },
  );
});

test('secrets in the command line and the output are redacted on disk', async (t) => {
  const store = await setup(t);
  const w = await TerminalLogWriter.open(store, { terminalName: 'zsh', terminalId: 2 });
  const cap = await w.begin({ command: 'curl https://admin:Sup3rS3cretPw@api.example.com/v1', cwd: '/w' });
  await cap.push('export GITHUB_TOKEN=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\r\n');
  const s = await cap.end({ exitCode: 0 });
  await w.close();
  const text = await fsp.readFile(w.path, 'utf8');
  assert.ok(!text.includes('Sup3rS3cretPw'));
  assert.ok(!text.includes('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'));
  assert.deepEqual(s.stats.redactions, { 'github-token': 1 });
  assert.match(text, /\$ curl https:\/\/admin:\[REDACTED:url-password\]@api\.example\.com\/v1/);
});

test('output cannot forge a marker line', async (t) => {
  const store = await setup(t);
  const w = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 3 });
  const cap = await w.begin({ command: 'cat evil' });
  const forged = `${MARKER} {"event":"end","exec":"x","exitCode":0,"durationMs":0,"endedAt":"now"}`;
  await cap.push(`${forged}\r\n`);
  await cap.end({ exitCode: 7 });
  await w.close();
  const log = parseTerminalLog(await fsp.readFile(w.path, 'utf8'));
  assert.equal(log.executions.length, 1);
  assert.deepEqual(log.executions[0]!.output, [forged]);
  assert.equal(log.executions[0]!.end?.exitCode, 7);
});

test('executions never ended are closed with an unknown exit code when the terminal closes', async (t) => {
  const store = await setup(t);
  const w = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 4 });
  const first = await w.begin({ command: 'sleep 100' });
  await first.push('zzz\r\n');
  await w.begin({ command: 'ls' });
  await w.close();
  await assert.rejects(first.push('late'), /already ended/);
  const log = parseTerminalLog(await fsp.readFile(w.path, 'utf8'));
  assert.deepEqual(
    log.executions.map((e) => [e.command, e.end?.exitCode]),
    [
      ['sleep 100', null],
      ['ls', null],
    ],
  );
});

test('a log over its size limit is rotated and a fresh one continues', async (t) => {
  const store = await setup(t);
  const w = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 5, maxLogBytes: 10_000 });
  for (let e = 0; e < 3; e++) {
    const cap = await w.begin({ command: `gen ${e}` });
    await cap.push(`${'q'.repeat(99)}\r\n`.repeat(150));
    await cap.end({ exitCode: 0 });
  }
  await w.close();
  const all = await fsp.readdir(store.folder('terminals'));
  const files = all.filter((f) => f.endsWith('.log')).sort();
  assert.equal(files.length, 4, all.join());
  assert.ok(files.includes('bash-5.log'));
  const commands: string[] = [];
  for (const f of files) {
    // Each rotated log keeps its own index beside it.
    const index = f.replace(/\.log$/, '.index.jsonl');
    assert.ok(all.includes(index), `${index} beside ${f}`);
    const dir = store.folder('terminals');
    const log = parseTerminalLog(
      await fsp.readFile(path.join(dir, f), 'utf8'),
      await fsp.readFile(path.join(dir, index), 'utf8'),
    );
    assert.ok(log.executions.every((x) => x.end?.exitCode === 0));
    commands.push(...log.executions.map((x) => x.command));
  }
  assert.deepEqual(commands.sort(), ['gen 0', 'gen 1', 'gen 2']);
});

test('a capture process killed with SIGKILL leaves a log that still parses', async (t) => {
  const store = await setup(t);
  const child = await startChild('terminal-writer.ts', [store.root, 'bash', 'k', '0', '0']);
  const log = store.terminalLogPath('bash', 'k');
  const size = async (): Promise<number> => (await fsp.stat(log).catch(() => ({ size: 0 }))).size;
  await waitFor(async () => (await size()) >= 2 * 1024 * 1024, 30_000, 'the writer wrote 2 MB', 5);
  child.kill('SIGKILL');
  await exited(child);
  const parsed = parseTerminalLog(await fsp.readFile(log, 'utf8'));
  assert.deepEqual(parsed.badMarkers, []);
  assert.equal(parsed.executions.length, 1);
  const lines = parsed.executions[0]!.output;
  assert.ok(lines.length > 1000);
  lines.forEach((l, i) => assert.equal(l, `k exec 0 line ${i} ${'z'.repeat(200)}`));
  // A new writer continues the same log after the crash.
  const w = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 'k' });
  await (await w.begin({ command: 'after' })).end({ exitCode: 0 });
  await w.close();
  const again = parseTerminalLog(await fsp.readFile(log, 'utf8'));
  assert.equal(again.executions.at(-1)?.command, 'after');
  assert.equal(again.executions.at(-1)?.end?.exitCode, 0);
});

test('two windows capturing terminals of the same name write separate logs, every record whole', async (t) => {
  // A log has one writer: ids are unique per window, so same-named terminals of two windows never share a file.
  const store = await setup(t);
  const children = await Promise.all(
    ['win1-a1', 'win2-b2'].map((id) => startChild('terminal-writer.ts', [store.root, 'shared', id, '20', '300'])),
  );
  assert.deepEqual(await Promise.all(children.map(exited)), [0, 0]);
  for (const id of ['win1-a1', 'win2-b2']) {
    const file = store.terminalLogPath('shared', id);
    const parsed = parseTerminalLog(
      await fsp.readFile(file, 'utf8'),
      await fsp.readFile(terminalIndexPath(file), 'utf8'),
    );
    assert.deepEqual(parsed.badMarkers, []);
    assert.equal(parsed.tornTail, undefined);
    assert.deepEqual(parsed.outside, []);
    assert.deepEqual(
      parsed.executions.map((e) => [e.command, e.end?.exitCode]),
      Array.from({ length: 20 }, (_, e) => [`echo ${id} ${e}`, e % 3]),
    );
    for (const e of parsed.executions) {
      assert.equal(e.output.length, 300);
      assert.ok(e.output.every((l) => new RegExp(`^${id} exec \\d+ line \\d+ z{200}$`).test(l)));
    }
  }
});

test('an end event that arrives before read() has drained still keeps the output, and never hangs', async (t) => {
  const store = await setup(t);
  const w = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 9 });
  const cap = await w.begin({ command: 'slow' });
  async function* slow(): AsyncIterable<string> {
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 10));
      yield `part ${i}\r\n`;
    }
  }
  const consumed = cap.consume(slow());
  const summary = await cap.end({ exitCode: 0 }); // called at once, like an early end event
  await consumed;
  assert.equal(summary.exitCode, 0);
  // A read() that never ends: end() returns after its drain wait and later chunks are ignored.
  const stuck = await w.begin({ command: 'stuck' });
  let stop = false;
  async function* forever(): AsyncIterable<string> {
    for (let i = 0; !stop; i++) {
      await new Promise((r) => setTimeout(r, 5));
      yield `tick ${i}\r\n`;
    }
  }
  const running = stuck.consume(forever());
  await stuck.end({ exitCode: 130 });
  stop = true;
  await running;
  await w.close();
  const log = parseTerminalLog(await fsp.readFile(w.path, 'utf8'));
  assert.deepEqual(log.executions[0]!.output, ['part 0', 'part 1', 'part 2', 'part 3', 'part 4']);
  assert.equal(log.executions[1]!.end?.exitCode, 130);
  assert.ok(log.executions[1]!.output.length > 0);
  assert.deepEqual(log.outside, []);
});

test("a command's log renders with the character widths its terminal uses (unicodeVersion)", async (t) => {
  const store = await setup(t);
  const w = await TerminalLogWriter.open(store, { terminalName: 't', terminalId: 'uv' });
  // After 🚀 the cursor goes to column 5: `d` in Unicode 6 (🚀 one cell), `c` in 11 (two cells).
  for (const unicodeVersion of ['6', '11'] as const) {
    const cap = await w.begin({ command: `echo ${unicodeVersion}`, unicodeVersion });
    await cap.push(Buffer.from('ab🚀cd\x1b[5Gx\r\n'));
    await cap.end({ exitCode: 0 });
  }
  await w.close();
  const runs = parseTerminalLog(await fsp.readFile(w.path, 'utf8')).executions;
  assert.deepEqual(
    runs.map((r) => r.output),
    [['ab🚀cx'], ['ab🚀xd']],
  );
});
