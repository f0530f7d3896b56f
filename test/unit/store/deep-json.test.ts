// Store files a cloned repository can ship (a terminal log, a tool-output index) are JSON-parsed only
// after the shared depth check: a value nested thousands deep would overflow every later walk of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { ContextStore } from '../../../src/core/store/context-store';
import { listStoredOutputs } from '../../../src/core/store/output-index';
import { parseMarkerLine } from '../../../src/core/store/terminal-log-format';
import { MAX_JSON_DEPTH } from '../../../src/core/json-depth';
import { tempDir } from './helpers';

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

test('a terminal-log record nested deeper than the limit is a damaged line, not a record', () => {
  assert.deepEqual(parseMarkerLine(`␞ {"event":"begin","exec":${deep(5000)}}`), { kind: 'bad' });
  const shallow = parseMarkerLine(`␞ {"event":"begin","exec":${deep(MAX_JSON_DEPTH - 1)}}`);
  assert.equal(shallow.kind, 'json', 'one level under the limit still reads');
});

test('a tool-output index nested deeper than the limit is ignored: the folder scan lists the files', async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const dir = path.join(store.folder('tool-outputs'), 's');
  await fsp.mkdir(dir, { recursive: true });
  await fsp.writeFile(path.join(dir, '0001-shell.txt'), 'first line\n');
  const entry = { turn: 1, display: 'x', file: '0001-shell.txt', bytes: 1, lines: 1, tokens: 1, tokensExact: true };
  const index = `{"v":1,"entries":[${JSON.stringify({ ...entry, storedAt: '2026-01-01T00:00:00.000Z', firstLine: 'x' }).slice(0, -1)},"tool":${deep(5000)}}]}`;
  await fsp.writeFile(path.join(dir, 'index.json'), index);
  const list = await listStoredOutputs(store, 's');
  assert.deepEqual(
    list.map((e) => [e.file, e.tool, e.firstLine]),
    [['0001-shell.txt', 'shell', 'first line']],
  );
});
