// Context Desk's call records in replay: a record's cost units are its own model's uncached input tokens,
// so the `recorded` figures never add units of two models. One model: one total; several: one entry per
// model by name (table, CSV and JSON), and no total, with the reason said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aggregate, replayTrajectory, DEFAULT_REPLAY_OPTIONS } from '../../../src/core/replay/replay';
import { loadTrajectoryFile } from '../../../src/core/trajectories';
import { createTokenizer } from '../../../src/core/tokens';
import { buildReport, type ReplayReport } from '../../../src/cli/replay/report';
import { formatTable } from '../../../src/cli/replay/report-table';
import { formatCsv } from '../../../src/cli/replay/report-csv';
import { reportMeta } from './report-meta';

const prices = { cachedPrice: 0.1, cacheWritePrice: 1, outputPrice: 4 };

/** A history file whose k-th call was made by `models[k]` and billed 1,000 x (k + 1) units (the provider's figures). */
function historyFile(dir: string, name: string, models: (string | undefined)[], summary?: object): string {
  const lines: object[] = [];
  let index = 0;
  const msg = (message: object) =>
    lines.push({ v: 1, session: name, index: index++, at: '2026-01-01T00:00:00Z', message });
  msg({ role: 'system', content: 'You are an agent.' });
  models.forEach((model, k) => {
    msg({ role: 'user', content: `Question ${k}`, origin: 'person' });
    msg({ role: 'assistant', content: `Answer ${k}` });
    const sent = 1000 * (k + 1);
    const call = {
      turn: k + 1,
      call: k + 1,
      at: k,
      ...(model !== undefined ? { model } : {}),
      tokensSent: sent,
      rawHistoryTokens: sent,
      cachedTokens: 0,
      outputTokens: 0,
      cost: sent,
      billedBy: 'provider',
      usage: { inputTokens: sent, cachedTokens: 0 },
      prices,
      answered: true,
    };
    lines.push({ v: 1, session: name, kind: 'call', call });
  });
  if (summary) lines.push({ v: 1, session: name, kind: 'summary-call', call: summary });
  const file = join(dir, name);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

async function reportOf(files: string[]): Promise<ReplayReport> {
  const tokenizer = createTokenizer('o200k');
  const replays = [];
  for (const f of files)
    for (const t of await loadTrajectoryFile(f))
      replays.push(await replayTrajectory(t, 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer));
  return buildReport(
    [{ strategy: 'raw', totals: aggregate(replays), replays }],
    reportMeta({ perTrajectory: true }),
    (x) => aggregate([x]),
  );
}

const csvCost = (r: ReplayReport, scope: string) => {
  const csv = formatCsv(r).trim().split('\n');
  const col = csv[0]!.split(',').indexOf('cost');
  return csv.find((l) => l.startsWith(`${scope},recorded,`))!.split(',')[col];
};

test('one session that used three models: recorded cost units per model, never one sum', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-units-'));
  const file = historyFile(dir, 'three.jsonl', ['model-a', 'model-b', 'model-a', 'model-c']);
  const r = await reportOf([file]);
  const rec = r.recorded!;
  assert.equal(rec.costUnits, undefined, 'no total over three models');
  assert.deepEqual(rec.costUnitsByModel, [
    { model: 'model-a', units: 4000 },
    { model: 'model-b', units: 2000 },
    { model: 'model-c', units: 4000 },
  ]);
  const table = formatTable(r);
  assert.doesNotMatch(table, /10,000 cost units/, 'the three never added');
  assert.match(table, /4,000 of model-a, 2,000 of model-b, 4,000 of model-c/);
  assert.match(table, /not added/);
  assert.equal(csvCost(r, 'total'), '', 'the CSV leaves the cell empty rather than sum');
  const json = JSON.parse(JSON.stringify(r)) as ReplayReport;
  assert.deepEqual(json.recorded!.costUnitsByModel!.length, 3);
});

test('two sessions of different models: no total across them; a model’s own sessions still add up', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-units-'));
  const a = historyFile(dir, 'a.jsonl', ['gpt-4o', 'gpt-4o']);
  const b = historyFile(dir, 'b.jsonl', ['claude-sonnet-4-5']);
  const r = await reportOf([a, b]);
  assert.equal(r.recorded!.costUnits, undefined);
  assert.deepEqual(r.recorded!.costUnitsByModel, [
    { model: 'gpt-4o', units: 3000 },
    { model: 'claude-sonnet-4-5', units: 1000 },
  ]);
  assert.equal(r.recordedPerTrajectory!['a.jsonl']!.costUnits, 3000, 'one model: its total');
  const same = await reportOf([a, historyFile(dir, 'c.jsonl', ['gpt-4o'])]);
  assert.equal(same.recorded!.costUnits, 4000);
  assert.equal(csvCost(same, 'total'), '4000');
  assert.match(formatTable(same), /4,000 cost units recomputed from the records/);
});

test('a record without a model is its session’s model’s; sessions that never said their model are not added to each other', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-units-'));
  const mixed = await reportOf([historyFile(dir, 'm.jsonl', [undefined, 'gpt-4o'])]);
  assert.equal(mixed.recorded!.costUnits, 3000, 'an older record of the same session is the session model’s');
  const old1 = historyFile(dir, 'o1.jsonl', [undefined]);
  const old2 = historyFile(dir, 'o2.jsonl', [undefined]);
  assert.equal((await reportOf([old1])).recorded!.costUnits, 1000);
  const both = await reportOf([old1, old2]);
  assert.equal(both.recorded!.costUnits, undefined, 'two unknown models may differ');
  assert.match(formatTable(both), /model not recorded/);
});

test('summary calls: a separate summary model’s own units are its own entry, named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-units-'));
  const file = historyFile(dir, 's.jsonl', ['gpt-4o'], {
    model: 'my-llm',
    inputTokens: 20000,
    outputTokens: 300,
    cost: 21200,
    unitsOf: 'my-llm',
  });
  const r = await reportOf([file]);
  assert.equal(r.recorded!.costUnits, undefined);
  assert.deepEqual(r.recorded!.costUnitsByModel, [
    { model: 'gpt-4o', units: 1000 },
    { model: 'my-llm', units: 21200 },
  ]);
});
