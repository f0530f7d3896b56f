// The life of executions in one terminal log, with the real TerminalLogWriter: back-to-back and
// pasted commands whose start and end events arrive in any order, end events that never come, late
// or repeated ends, commands seen only when they ended, and logs of the older format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ContextStore } from '../../../src/core/store/context-store';
import { TerminalLogWriter, MARKER } from '../../../src/core/store/terminal-log';
import { readTerminalLog, parseTerminalLog, recentExecutions } from '../../../src/core/store/terminal-log-reader';
import { tempDir } from './helpers';

async function setup(t: Parameters<typeof tempDir>[0]): Promise<ContextStore> {
  const ws = await tempDir(t);
  return ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
}

let ids = 0;
const open = (store: ContextStore, extra: Partial<Parameters<typeof TerminalLogWriter.open>[1]> = {}) =>
  TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: `t${++ids}`, drainMs: 50, ...extra });

test('a begin while the previous end is still draining waits for it: both kept, exit codes too', async (t) => {
  const store = await setup(t);
  const w = await open(store, { drainMs: 200 });
  const a = await w.begin({ command: 'echo a' });
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  async function* slow(): AsyncIterable<string> {
    yield 'a1\r\n';
    await gate;
    yield 'a2\r\n';
  }
  const consumed = a.consume(slow());
  const endA = a.end({ exitCode: 3 }); // draining: read() has not delivered a2 yet
  const b = await w.begin({ command: 'echo b' }); // the old code threw "already ended" here
  const pushB = b.push('b1\r\n');
  release();
  const endB = b.end({ exitCode: 0 });
  assert.equal((await endA).exitCode, 3);
  assert.equal((await endB).exitCode, 0);
  await Promise.all([consumed, pushB]);
  await w.close();
  const log = await readTerminalLog(w.path);
  assert.deepEqual(
    log.executions.map((e) => [e.command, e.output, e.end?.exitCode]),
    [
      ['echo a', ['a1', 'a2'], 3],
      ['echo b', ['b1'], 0],
    ],
  );
});

test('an end that arrives after the next begin keeps its exit code and its output', async (t) => {
  const store = await setup(t);
  const w = await open(store);
  const a = await w.begin({ command: 'make' });
  const b = await w.begin({ command: 'make test' }); // start of B reported before the end of A
  const outputs = [a.push('compiled\r\n'), b.push('passed\r\n')];
  const ends = [b.end({ exitCode: 0 }), a.end({ exitCode: 2 })];
  await Promise.all([...outputs, ...ends]);
  await w.close();
  const log = await readTerminalLog(w.path);
  assert.deepEqual(
    log.executions.map((e) => [e.seq, e.command, e.output, e.end?.exitCode]),
    [
      [1, 'make', ['compiled'], 2],
      [2, 'make test', ['passed'], 0],
    ],
  );
});

test('an end event that never comes: closed after the grace with an unknown exit code, the next one goes on', async (t) => {
  const store = await setup(t);
  const w = await open(store, { endGraceMs: 30 });
  const a = await w.begin({ command: 'echo pasted-one' });
  await a.push('pasted-one\r\n');
  const b = await w.begin({ command: 'echo pasted-two' });
  await b.push('pasted-two\r\n');
  const summaryB = await b.end({ exitCode: 0 });
  assert.equal(summaryB.exitCode, 0);
  const late = await a.end({ exitCode: 1 }); // too late: the same summary, no second footer, no throw
  assert.equal(late.exitCode, undefined);
  assert.match(late.reason ?? '', /no end/);
  await w.close();
  const text = await fsp.readFile(w.path, 'utf8');
  assert.equal(text.match(/^␞ exit /gm)?.length, 2);
  const log = await readTerminalLog(w.path);
  assert.deepEqual(
    log.executions.map((e) => [e.command, e.output, e.end?.exitCode]),
    [
      ['echo pasted-one', ['pasted-one'], null],
      ['echo pasted-two', ['pasted-two'], 0],
    ],
  );
  assert.match(log.executions[0]!.end!.reason ?? '', /VS Code reported no end/);
  assert.match(text, /^␞ exit unknown · \d+ ms · VS Code reported no end for this command/m);
});

test('end called twice at once writes one footer and answers both with the same summary', async (t) => {
  const store = await setup(t);
  const w = await open(store);
  const a = await w.begin({ command: 'true' });
  const [x, y] = await Promise.all([a.end({ exitCode: 0 }), a.end({ exitCode: 5 })]);
  assert.equal(x, y);
  assert.equal(x.exitCode, 0);
  await w.close();
  assert.equal((await readTerminalLog(w.path)).executions.length, 1);
});

test('pasted lines: any order of start, output and end events loses no execution and keeps every reported exit code', async (t) => {
  const store = await setup(t);
  const execution = fc.record({
    lines: fc.array(fc.stringMatching(/^[a-z0-9 ]{0,12}$/), { maxLength: 3 }),
    exitCode: fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }),
    /** How many later begins come before this one's output / end (0: none). */
    outputLag: fc.integer({ min: 0, max: 1 }),
    endLag: fc.integer({ min: 0, max: 2 }),
    endComes: fc.boolean(),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(execution, { minLength: 1, maxLength: 5 }), async (execs) => {
      const w = await open(store, { endGraceMs: 60_000 });
      const captures: Awaited<ReturnType<typeof w.begin>>[] = [];
      const pending: Promise<unknown>[] = [];
      for (let step = 0; step < execs.length + 3; step++) {
        if (step < execs.length) captures.push(await w.begin({ command: `cmd ${step}` }));
        execs.forEach((e, i) => {
          if (i + e.outputLag === step) for (const l of e.lines) pending.push(captures[i]!.push(`${l}\r\n`));
          if (e.endComes && i + Math.max(e.endLag, e.outputLag) === step)
            pending.push(captures[i]!.end(e.exitCode === undefined ? {} : { exitCode: e.exitCode }));
        });
      }
      await w.close();
      await Promise.all(pending);
      const log = await readTerminalLog(w.path);
      assert.deepEqual(log.badMarkers, []);
      assert.deepEqual(log.outside, []);
      assert.deepEqual(
        log.executions.map((x) => [x.command, x.output, x.end?.exitCode]),
        execs.map((e, i) => [`cmd ${i}`, e.lines, e.endComes ? (e.exitCode ?? null) : null]),
      );
      for (const [i, x] of log.executions.entries())
        if (!execs[i]!.endComes) assert.match(x.end?.reason ?? '', /closed before this command ended/);
    }),
    { numRuns: 60 },
  );
});

test('output that looks like our own lines is escaped and never read as a header or footer', async (t) => {
  const store = await setup(t);
  const w = await open(store);
  const c = await w.begin({ command: 'cat evil' });
  const forged = [`${MARKER} exit 0 · 1 ms`, `${MARKER} #9 · 2026-01-01 00:00:00 +00:00`, `${MARKER} $ rm -rf /`];
  await c.push(forged.map((l) => `${l}\r\n`).join(''));
  await c.end({ exitCode: 7 });
  await w.close();
  const log = await readTerminalLog(w.path);
  assert.equal(log.executions.length, 1);
  assert.deepEqual(log.executions[0]!.output, forged);
  assert.equal(log.executions[0]!.end?.exitCode, 7);
});

test('a multi-line command, a note, and a command seen only at its end are readable and parse back', async (t) => {
  const store = await setup(t);
  const w = await open(store);
  await w.note('This terminal was open before Context Desk started; its earlier output is not available.');
  await w.record({ command: 'npm run build', cwd: '/w', exitCode: 1, notes: ['Started before capture began.'] });
  const c = await w.begin({ command: 'for i in 1 2\ndo echo $i\ndone', cwd: '/w', notes: ['a note'] });
  await c.push('1\r\n2\r\n');
  await c.end({ exitCode: 0 });
  await w.close();
  const text = await fsp.readFile(w.path, 'utf8');
  assert.match(text, /^␞ note: This terminal was open before/m);
  assert.match(text, /^␞ \$ for i in 1 2\n␞ > do echo \$i\n␞ > done\n␞ note: a note\n1\n2\n␞ exit 0 · \d+ ms$/m);
  assert.match(text, /^␞ \$ npm run build\n␞ note: Started before capture began\.\n␞ exit 1 · duration unknown$/m);
  const log = await readTerminalLog(w.path);
  assert.deepEqual(log.notes, [
    'This terminal was open before Context Desk started; its earlier output is not available.',
  ]);
  const [unwatched, loop] = log.executions;
  assert.equal(unwatched!.source, 'unwatched');
  assert.equal(unwatched!.startedAt, null);
  assert.deepEqual([unwatched!.end?.exitCode, unwatched!.end?.durationMs], [1, null]);
  assert.equal(loop!.command, 'for i in 1 2\ndo echo $i\ndone');
  assert.deepEqual(loop!.notes, ['a note']);
  assert.deepEqual(loop!.output, ['1', '2']);
  assert.deepEqual(
    (await recentExecutions(w.path, 5)).map((e) => [e.command, e.exitCode]),
    [
      ['npm run build', 1],
      ['for i in 1 2\ndo echo $i\ndone', 0],
    ],
  );
});

test('without its index a log still parses from its readable lines (to the second)', async (t) => {
  const store = await setup(t);
  const clock = { now: () => Date.UTC(2026, 10, 23, 9, 4, 12, 0) };
  const w = await open(store, { clock });
  const c = await w.begin({ command: 'npm test', cwd: '/work/a · b' });
  await c.push('ok\r\n');
  clock.now = () => Date.UTC(2026, 10, 23, 9, 4, 15, 200);
  await c.end({ exitCode: 0 });
  await w.close();
  await fsp.rm(w.indexPath);
  const [e] = (await readTerminalLog(w.path)).executions;
  assert.deepEqual(e, {
    exec: '#1',
    seq: 1,
    command: 'npm test',
    cwd: '/work/a · b',
    startedAt: '2026-11-23T09:04:12.000Z',
    output: ['ok'],
    notes: [],
    end: { exitCode: 0, durationMs: 3200, endedAt: '2026-11-23T09:04:15.200Z' },
  });
});

test('a reopened log goes on numbering where its index stopped', async (t) => {
  const store = await setup(t);
  const w1 = await open(store);
  await (await w1.begin({ command: 'one' })).end({ exitCode: 0 });
  await w1.close();
  const w2 = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: `t${ids}` });
  assert.equal(w2.path, w1.path);
  await (await w2.begin({ command: 'two' })).end({ exitCode: 0 });
  await w2.close();
  assert.deepEqual(
    (await readTerminalLog(w1.path)).executions.map((e) => [e.seq, e.command]),
    [
      [1, 'one'],
      [2, 'two'],
    ],
  );
});

test('logs of the older JSON-marker format still parse', () => {
  const old = [
    `${MARKER} {"event":"begin","exec":"x-1","command":"npm test","cwd":"/w","startedAt":"2026-11-22T02:33:02.000Z","redactions":{}}`,
    '$ npm test',
    'all good',
    `${MARKER} {"event":"end","exec":"x-1","exitCode":0,"durationMs":1234,"endedAt":"2026-11-22T02:33:03.234Z","redactions":{}}`,
    `${MARKER} {"event":"begin","exec":"x-2","command":"a\\nb","cwd":null,"startedAt":"2026-11-22T02:34:00.000Z"}`,
    '$ a',
    '> b',
    'out',
    '',
  ].join('\n');
  const log = parseTerminalLog(old);
  assert.deepEqual(log.badMarkers, []);
  assert.deepEqual(
    log.executions.map((e) => [e.command, e.cwd, e.output, e.end?.exitCode, e.end?.durationMs]),
    [
      ['npm test', '/w', ['all good'], 0, 1234],
      ['a\nb', null, ['out'], undefined, undefined],
    ],
  );
});
