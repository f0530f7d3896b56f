// A terminal log or index that a command made a hard link to another file (`ln ~/.bash_history
// .context-desk/terminals/bash-1.index.jsonl`) is not read: its content may be any file of the user's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { ContextStore } from '../../../src/core/store/context-store';
import { TerminalLogWriter } from '../../../src/core/store/terminal-log';
import { readTerminalLog, recentExecutions } from '../../../src/core/store/terminal-log-reader';
import { terminalIndexPath } from '../../../src/core/store/terminal-log-format';
import { terminalsText } from '../../../src/core/agent/tools/store-answers';
import { ReadRefusedError } from '../../../src/core/read-text';
import { tempDir } from './helpers';

async function loggedTerminal(t: Parameters<typeof tempDir>[0]) {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const w = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 1, drainMs: 50 });
  await (await w.begin({ command: 'make test' })).end({ exitCode: 0 });
  await w.close();
  // Outside the store, in the format our index has, so that a reader that took it would show it.
  const outside = path.join(ws, 'elsewhere.jsonl');
  await fsp.writeFile(outside, '{"event":"begin","seq":1,"exec":"x","command":"export TOKEN=outside-secret"}\n');
  return { ws, store, log: w.path, outside };
}

const hardLink = (e: unknown): boolean => e instanceof ReadRefusedError && e.reason === 'hard-link';

test('a terminal log or its index with other names is refused, not parsed', async (t) => {
  const { log, outside } = await loggedTerminal(t);
  assert.equal((await readTerminalLog(log)).executions.length, 1);
  const index = terminalIndexPath(log);
  await fsp.rm(index);
  await fsp.link(outside, index);
  await assert.rejects(readTerminalLog(log), hardLink);
  await assert.rejects(recentExecutions(log, 1), hardLink);
  await fsp.rm(index);
  await fsp.link(log, path.join(path.dirname(outside), 'log-copy.txt'));
  await assert.rejects(readTerminalLog(log), hardLink);
});

test('the terminal list says why a terminal index with other names is not read, and shows none of it', async (t) => {
  const { store, log, outside } = await loggedTerminal(t);
  const index = terminalIndexPath(log);
  await fsp.rm(index);
  await fsp.link(outside, index);
  const row = await terminalsText(store, [{ name: 'bash', state: 'captured', log }]);
  assert.doesNotMatch(row, /outside-secret/);
  assert.match(
    row,
    /^bash: captured - log: \.context-desk\/terminals\/bash-1\.log - its index is not read: .* 2 names \(a hard link\)/,
  );
});
