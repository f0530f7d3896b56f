import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ContextStore } from '../../../src/core/store/context-store';
import { FullScreenSessions } from '../../../src/core/store/sanitize/alt-screen';
import { TerminalLogWriter } from '../../../src/core/store/terminal-log';
import { parseTerminalLog } from '../../../src/core/store/terminal-log-reader';
import { tempDir } from './helpers';

// What `script -q -c "echo before; less f.txt; echo after"` recorded (f.txt: the numbers 1-200).
const LESS =
  'before\r\n\x1b[?1049h\x1b[22;0;0t\x1b[?1h\x1b=\r' +
  Array.from({ length: 23 }, (_, i) => `${i + 1}\r\n`).join('') +
  '\x1b[7mf.txt\x1b[27m\x1b[K\r\x1b[K\x1b[?1l\x1b>\x1b[?1049l\x1b[23;0;0tafter\r\n';

async function logOf(t: Parameters<typeof tempDir>[0], chunks: string[]): Promise<ReturnType<typeof parseTerminalLog>> {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const w = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 1 });
  const cap = await w.begin({ command: 'echo before; less f.txt; echo after' });
  for (const c of chunks) await cap.push(c);
  await cap.end({ exitCode: 0 });
  await w.close();
  return parseTerminalLog(await fsp.readFile(w.path, 'utf8'));
}

test('a pager that ran and exited leaves a note in the log: the screens a person saw are not in it', async (t) => {
  const log = await logOf(t, [LESS.slice(0, 12), LESS.slice(12)]);
  const [e] = log.executions;
  assert.deepEqual(e?.output, ['before', 'after']);
  assert.equal(e?.notes.length, 1);
  assert.match(
    e?.notes[0] ?? '',
    /^a full-screen program \(a pager, an editor, a monitor\) drew here; its screens are not kept/,
  );
});

test('output without a full-screen program has no such note', async (t) => {
  const log = await logOf(t, ['plain\r\n', '\x1b[1mbold\x1b[0m\r\n', '\x1b[?25l\x1b[?1049lhidden cursor\r\n']);
  assert.deepEqual(log.executions[0]?.notes, []);
});

test('full-screen sessions are counted wherever the output is cut, and a leave without an enter is not one', () => {
  const text = `x${LESS}\x1b[?1049l${LESS}\x1b[?47h\x1b[2Jtop\x1b[?47l\x1b[?1049h`;
  fc.assert(
    fc.property(fc.array(fc.nat(text.length)), (cuts) => {
      const sessions = new FullScreenSessions();
      let from = 0;
      for (const cut of [...cuts.sort((a, b) => a - b), text.length]) {
        sessions.see(text.slice(from, cut));
        from = cut;
      }
      assert.equal(sessions.ended, 3);
    }),
  );
});
