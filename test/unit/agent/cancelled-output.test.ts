// A tool cut short by Stop: its output is sanitized and stored like any other, never raw in the conversation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ContextStore } from '../../../src/core/store/context-store';
import { ToolOutputStore } from '../../../src/core/store/tool-outputs';
import { createTokenizer } from '../../../src/core/tokens/tokenizer';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import { CANCELLED_TEXT, runToolCalls } from '../../../src/core/agent/run-tools';

test('a cancelled tool output is sanitized and stored like any other', async (t) => {
  const ws = await mkdtemp(path.join(tmpdir(), 'cd-cancel-'));
  t.after(() => rm(ws, { recursive: true, force: true }));
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const controller = new AbortController();
  const key = ['AKIA', 'IOSFODNN7', 'EXAMPLE'].join('');
  const lines = Array.from({ length: 3000 }, (_, i) => `\x1b[32mline ${i}\x1b[0m key=${key}`).join('\n');
  const tools = new ToolRegistry([
    {
      name: 'slow',
      description: 'stopped midway',
      inputSchema: { type: 'object' },
      run: async () => {
        controller.abort(); // the user presses Stop while it runs; it returns what it had
        return { ok: false, text: lines };
      },
    },
  ]);
  const [message] = await runToolCalls([{ id: 'c', name: 'slow', arguments: '{}' }], {
    tools,
    longOutput: new ToolOutputStore(store, createTokenizer('chars4')),
    session: 'sess',
    turn: 1,
    signal: controller.signal,
    clock: { now: () => 0 },
    emit: () => undefined,
  });
  assert.ok(message!.storedAt, 'stored like any long output');
  assert.ok(!message!.content.includes(key) && !message!.content.includes('\x1b['), 'the model sees it sanitized');
  assert.match(message!.content, /Full output \(3001 lines/);
  const stored = await readFile(path.join(ws, message!.storedAt!), 'utf8');
  assert.ok(!stored.includes(key), 'the key never reaches disk');
  assert.ok(stored.endsWith(`${CANCELLED_TEXT}\n`) || stored.endsWith(CANCELLED_TEXT));
});
