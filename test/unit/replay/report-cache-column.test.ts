// Every row of the CSV report, and every strategy figure of the JSON report, says which prompt-cache
// model billed it; per trajectory also why (--cache-model, the model the log names, or its format).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Trajectory } from '../../../src/core/trajectories';
import { aggregate, DEFAULT_REPLAY_OPTIONS, replayTrajectory } from '../../../src/core/replay/replay';
import { buildReport } from '../../../src/cli/replay/report';
import { formatCsv } from '../../../src/cli/replay/report-csv';
import { formatTable } from '../../../src/cli/replay/report-table';
import { wordTokenizer } from '../strategies/helpers';
import { reportMeta } from './report-meta';

const tokenizer = wordTokenizer();

function chat(id: string, format: Trajectory['format'], model?: string): Trajectory {
  return {
    id,
    source: `${id}.json`,
    format,
    ...(model ? { model } : {}),
    messages: [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Fix the bug in wrap.' },
      { role: 'assistant', content: 'Done, the bug is fixed.' },
    ],
  };
}

async function report() {
  const logs = [chat('claude-log', 'openai-chat', 'claude-sonnet-4-5'), chat('plain-log', 'openai-chat')];
  const runs = [];
  for (const strategy of ['raw', 'masking'] as const) {
    const replays = [];
    for (const t of logs) replays.push(await replayTrajectory(t, strategy, DEFAULT_REPLAY_OPTIONS, tokenizer));
    runs.push({ strategy, replays, totals: aggregate(replays) });
  }
  return buildReport(runs, reportMeta({ perTrajectory: true }), (r) => aggregate([r]));
}

test('JSON: each strategy says its cache model (mixed over logs billed differently), each trajectory why', async () => {
  const r = await report();
  assert.equal(r.strategies.raw!.cacheModel, 'mixed');
  assert.equal(r.perTrajectory!['claude-log']!.raw!.cacheModel, 'anthropic');
  assert.equal(r.perTrajectory!['claude-log']!.masking!.cacheModelBasis, 'model claude-sonnet-4-5');
  assert.equal(r.perTrajectory!['plain-log']!.raw!.cacheModel, 'prefix');
  assert.equal(r.perTrajectory!['plain-log']!.raw!.cacheModelBasis, 'format openai-chat (the log names no model)');
});

test('CSV: a cacheModel and a cacheModelBasis column on every row', async () => {
  const rows = formatCsv(await report())
    .trimEnd()
    .split('\n')
    .map((l) => l.split(','));
  const header = rows[0]!;
  const col = (name: string) => {
    const i = header.indexOf(name);
    assert.ok(i >= 0, `column ${name}`);
    return i;
  };
  const [model, basis] = [col('cacheModel'), col('cacheModelBasis')];
  const row = (scope: string, strategy: string) => rows.find((r) => r[0] === scope && r[1] === strategy)!;
  assert.equal(row('total', 'raw')[model], 'mixed');
  assert.equal(row('claude-log', 'raw')[model], 'anthropic');
  assert.equal(row('claude-log', 'masking')[basis], 'model claude-sonnet-4-5');
  assert.equal(row('plain-log', 'masking')[model], 'prefix');
  assert.ok(
    rows.every((r) => r.length === header.length),
    'every row has every column',
  );
});

test('the table says how auto chose, and counts the logs billed prefix only for naming no model', async () => {
  const r = await report();
  assert.equal(r.prefixByFormat, 1);
  const table = formatTable(r);
  assert.match(table, /--cache-model auto: by the model each log names/);
  assert.match(table, /1 trajectory names no model of a known family and got prefix by format/);
});
