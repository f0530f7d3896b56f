// The stored-output index: one redacted line appended per stored output; earlier entries are never
// rewritten (rewriting and redacting the whole index on every add made a long session quadratic).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ContextStore } from '../../../src/core/store/context-store';
import { addToIndex, listStoredOutputs, type StoredOutputEntry } from '../../../src/core/store/output-index';
import { tempDir } from './helpers';

async function setup(t: Parameters<typeof tempDir>[0]): Promise<{ store: ContextStore; dir: string }> {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const dir = path.join(store.folder('tool-outputs'), 's');
  await fsp.mkdir(dir, { recursive: true });
  return { store, dir };
}

function entry(turn: number, firstLine = `output of turn ${turn}`): StoredOutputEntry {
  const file = `${String(turn).padStart(4, '0')}-shell.txt`;
  return {
    turn,
    tool: 'shell',
    display: `.context-desk/tool-outputs/s/${file}`,
    file,
    bytes: 10,
    lines: 1,
    tokens: 3,
    tokensExact: true,
    firstLine,
    storedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, turn)).toISOString(),
  };
}

test('adding an entry appends one line and leaves the earlier entries as written', async (t) => {
  const { store, dir } = await setup(t);
  const file = path.join(dir, 'index.jsonl');
  let before = '';
  for (let turn = 1; turn <= 5; turn++) {
    await fsp.writeFile(path.join(dir, entry(turn).file), `output of turn ${turn}\n`);
    await addToIndex(store, 's', entry(turn));
    const after = await fsp.readFile(file, 'utf8');
    assert.ok(after.startsWith(before), `entry ${turn} rewrote the entries before it`);
    const added = after.slice(before.length);
    assert.match(added, /^[^\n]+\n$/, 'one line per entry');
    assert.deepEqual(JSON.parse(added), entry(turn));
    before = after;
  }
  assert.deepEqual(
    (await listStoredOutputs(store, 's')).map((e) => e.turn),
    [5, 4, 3, 2, 1],
  );
});

test('an index of earlier versions is still read; a torn last line is skipped and the next entry starts a line', async (t) => {
  const { store, dir } = await setup(t);
  for (const turn of [1, 2, 3]) await fsp.writeFile(path.join(dir, entry(turn).file), 'x\n');
  await fsp.writeFile(
    path.join(dir, 'index.json'),
    JSON.stringify({ v: 1, entries: [entry(1, 'from the old index')] }),
  );
  await fsp.writeFile(path.join(dir, 'index.jsonl'), `${JSON.stringify(entry(2))}\n{"turn":3,"fi`);
  await addToIndex(store, 's', entry(3));
  const list = await listStoredOutputs(store, 's');
  assert.deepEqual(
    list.map((e) => [e.turn, e.firstLine, e.lines]),
    [
      [3, 'output of turn 3', 1],
      [2, 'output of turn 2', 1],
      [1, 'from the old index', 1],
    ],
  );
});

test('secrets in an entry never reach the index, whatever the entries around it hold', async (t) => {
  const { store, dir } = await setup(t);
  const secrets = [
    'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789',
    'postgres://app:Hunter2HunterPw@db:5432/app',
    'DB_PASSWORD=Xk9mP2vL8qRtW3zN',
    'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  ];
  const leaked = ['aBcDeFgHiJkLmNoPqRsTuVwXyZ', 'Hunter2HunterPw', 'Xk9mP2vL8qRtW3zN', 'bPxRfiCYEXAMPLEKEY'];
  let turn = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.constantFrom(...secrets), fc.constantFrom('', 'see ', '"', 'x: ', '\\n')), {
        minLength: 1,
        maxLength: 3,
      }),
      async (parts) => {
        for (const [secret, before] of parts) await addToIndex(store, 's', entry(++turn, before + secret));
        const text = await fsp.readFile(path.join(dir, 'index.jsonl'), 'utf8');
        for (const piece of leaked) assert.ok(!text.includes(piece), `${piece} on disk`);
        for (const line of text.split('\n').slice(0, -1)) JSON.parse(line);
      },
    ),
    { numRuns: 25 },
  );
});
