// A call record's text (a model name a server sent, a provider's error, any field added later) is
// written through the same redaction as a message: no string of it reaches the history files as given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ContextStore } from '../../../src/core/store/context-store';
import { HistoryWriter, isCallLine, loadSession } from '../../../src/core/store/history';
import { tempDir } from './helpers';

// Fake credentials (test/fixtures/secrets/README.md): each one a redaction rule recognises alone.
const SLACK = 'xoxb-2837461928374-4827364918273-Kd8sJf7Hg6Tr5Ew4Qa3Zx2Cv';
const ANTHROPIC = 'sk-ant-api03-' + 'Qw7'.repeat(30);
const GITHUB = 'ghp_' + 'Zr4Tq8Lm2Vx6Np0Bc5Hd9Jk3Ws7Ye1Ua4Gf';

async function files(w: HistoryWriter): Promise<string> {
  const [a, b] = await Promise.all([fsp.readFile(w.paths.jsonl, 'utf8'), fsp.readFile(w.paths.markdown, 'utf8')]);
  return a + b;
}

async function writer(t: Parameters<typeof tempDir>[0], session: string): Promise<HistoryWriter> {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  return HistoryWriter.open(store, session);
}

test('every string of a call record, and its note, is redacted before it is written; numbers stay', async (t) => {
  const w = await writer(t, 'calls');
  await w.appendCall(
    'call',
    {
      turn: 1,
      call: 2,
      tokensSent: 1234,
      model: `gpt-x ${SLACK}`,
      tokenizer: `o200k ${ANTHROPIC}`,
      error: `401 from https://me:Pa55w0rdXyz@api.example.com: bad key ${GITHUB}`,
      money: { usdPerUnit: 0.1, model: `m ${GITHUB}`, source: 'setting', asOf: SLACK },
      masked: { count: 1, stored: 1, newly: [{ toolCallId: ANTHROPIC, storedAt: `out/${GITHUB}.txt` }] },
      serverNote: { nested: [[`deep ${SLACK}`]] },
      [`key-${GITHUB}`]: 1,
    },
    `call 2 · failed (${ANTHROPIC})`,
  );
  await w.appendCall('summary-call', { model: SLACK, inputTokens: 5, outputTokens: 6, cost: 7 }, `summary ${GITHUB}`);
  await w.close();
  const text = await files(w);
  for (const secret of [SLACK, ANTHROPIC, GITHUB, 'Pa55w0rdXyz'])
    assert.ok(!text.includes(secret.slice(-16)), `${secret} reached the history`);
  const { records } = await loadSession(await storeOf(w), 'calls');
  const calls = records.filter(isCallLine);
  assert.equal(calls.length, 2);
  assert.equal(calls[0]!.call.turn, 1);
  assert.equal(calls[0]!.call.tokensSent, 1234);
  assert.match(String(calls[0]!.call.model), /^gpt-x \[REDACTED:/);
  assert.equal((calls[0]!.call.money as { source: string }).source, 'setting', 'plain text is kept as it was');
  assert.equal(calls[1]!.call.outputTokens, 6);
});

test('a call record that holds a secret anywhere in any shape never writes it', async (t) => {
  const w = await writer(t, 'shapes');
  const secrets = fc.constantFrom(SLACK, ANTHROPIC, GITHUB);
  // A JSON-like value with the secret put into one of its strings (or keys).
  const leaf = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 3 }),
    ),
  })).node;
  let n = 0;
  await fc.assert(
    fc.asyncProperty(value, secrets, fc.boolean(), async (v, secret, asKey) => {
      const record: Record<string, unknown> = { turn: ++n, extra: v };
      if (asKey) record[`${secret}`] = v;
      else record.where = [v, `text before ${secret} and after`];
      await w.appendCall('call', record);
      const text = await fsp.readFile(w.paths.jsonl, 'utf8');
      return !text.includes(secret.slice(-16));
    }),
    { numRuns: 60 },
  );
  await w.close();
});

test('the strategy state is redacted at every depth, not only its top-level strings', async (t) => {
  const w = await writer(t, 'state');
  await w.appendState({ strategy: 'hybrid', notes: { last: [`key ${ANTHROPIC}`] }, summarizedTurns: 2 });
  await w.close();
  const text = await fsp.readFile(w.paths.jsonl, 'utf8');
  assert.ok(!text.includes(ANTHROPIC.slice(-16)));
  assert.match(text, /"strategy":"hybrid"/);
  assert.match(text, /"summarizedTurns":2/);
});

async function storeOf(w: HistoryWriter): Promise<ContextStore> {
  const root = path.dirname(path.dirname(w.paths.jsonl));
  return ContextStore.open({ root, workspaceRoot: path.dirname(root) });
}
