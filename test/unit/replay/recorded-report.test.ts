import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregate, type TrajectoryReplay } from '../../../src/core/replay/replay';
import type { RecordedUsage } from '../../../src/core/trajectories';
import { buildReport, type ReplayReport } from '../../../src/cli/replay/report';
import { formatTable } from '../../../src/cli/replay/report-table';
import { formatCsv } from '../../../src/cli/replay/report-csv';
import { reportMeta } from './report-meta';

/** A raw replay whose calls sent `sent[k]` context tokens and recorded `recorded[k]` (or nothing). */
function replay(
  id: string,
  calls: { sent: number; recorded?: RecordedUsage }[],
  extra: Partial<TrajectoryReplay> = {},
): TrajectoryReplay {
  return {
    trajectoryId: id,
    format: 'mini-swe-agent',
    strategy: 'raw',
    cacheModel: 'prefix',
    cacheModelBasis: '--cache-model prefix',
    summaryEstimated: false,
    notes: [],
    calls: calls.map((c, k) => ({
      call: k,
      inputTokens: c.sent,
      contextTokens: c.sent,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 0,
      outputRecorded: false,
      cost: c.sent,
      maskedObservations: 0,
      summaryCall: false,
      summaryCalls: 0,
      summaryInputTokens: 0,
      summaryOutputTokens: 0,
      ...(c.recorded ? { recorded: c.recorded } : {}),
    })),
    ...extra,
  };
}

function report(replays: TrajectoryReplay[]): ReplayReport {
  return buildReport(
    [{ strategy: 'raw', totals: aggregate(replays), replays }],
    reportMeta({ perTrajectory: true }),
    (x) => aggregate([x]),
  );
}

test('a run that recorded only money has no agreement (null), never 0', () => {
  // A SWE-agent run: its total cost recorded, no prompt sizes.
  const r = report([replay('swe.json', [{ sent: 100 }, { sent: 200 }], { recordedCost: 0.5 })]);
  assert.equal(r.recordedPerTrajectory!['swe.json']!.agreement, null);
  assert.equal(r.recorded!.agreement, null);
  assert.equal(r.recorded!.costUsd, 0.5);
  // Money keeps 6 decimals, halves rounded up as written ($0.0001245 is not $0.000124).
  const half = report([replay('a.json', [{ sent: 100 }], { recordedCost: 0.0001245 })]);
  assert.equal(half.recorded!.costUsd, 0.000125);
  assert.deepEqual(r.agreement, {});
  // Table and CSV give no ratio for it either.
  assert.doesNotMatch(formatTable(r), /^swe\.json\s+recorded/m);
  const csv = formatCsv(r).trim().split('\n');
  const col = csv[0]!.split(',').indexOf('ratioToRaw');
  for (const line of csv.filter((l) => l.includes(',recorded,'))) assert.equal(line.split(',')[col], '');
});

test("the per-trajectory recorded row's ratio is recorded / raw from the counts, not from the rounded agreement", () => {
  // 1500 / 1003 = 1.4955…; 1 / round(1003 / 1500, 4) = 1 / 0.6687 = 1.4954… (one off in the last digit).
  const r = report([
    replay('a.json', [{ sent: 1003, recorded: { inputTokens: 1500 } }]),
    // Agreement rounds to 0 here: 1 / 0 would print Infinity.
    replay('b.json', [{ sent: 1, recorded: { inputTokens: 30_000 } }]),
  ]);
  const table = formatTable(r);
  assert.match(table, /^a\.json\s+recorded\s+1\s+1,500\s+1\.496\s/m);
  assert.match(table, /^b\.json\s+recorded\s+1\s+30,000\s+30000\.000\s/m);
  assert.match(table, /^recorded\s+2\s+2\s+31,500\s+31\.375\s/m, 'the total row agrees');
});

test("raw's agreement is refused where media were not counted (raw is then a lower bound), and said why", () => {
  const media = replay('img.jsonl', [{ sent: 900, recorded: { inputTokens: 1000 } }], {
    format: 'claude-code',
    uncountedMedia: { file: '/logs/img.jsonl', parts: 2 },
  });
  const plain = replay('txt.json', [{ sent: 800, recorded: { inputTokens: 1000 } }]);
  const r = report([media, plain]);
  const per = r.recordedPerTrajectory!;
  assert.equal(per['img.jsonl']!.agreement, null);
  assert.equal(per['img.jsonl']!.uncountedMedia, 2);
  assert.equal(per['txt.json']!.agreement, 0.8, 'a log without media keeps its agreement');
  assert.equal(per['txt.json']!.uncountedMedia, 0);
  assert.equal(r.recorded!.agreement, null, 'the total covers a lower bound');
  assert.equal(r.agreement['claude-code']!.agreement, null);
  assert.equal(r.agreement['mini-swe-agent']!.agreement, 0.8);
  const table = formatTable(r);
  assert.match(table, /^img\.jsonl\s+recorded\s+1\s+1,000\s+-\s/m);
  assert.match(table, /^txt\.json\s+recorded\s+1\s+1,000\s+1\.250\s/m);
  assert.match(table, /^recorded\s+2\s+2\s+2,000\s+-\s/m);
  assert.match(table, /claude-code - \(media not counted\)/);
  assert.match(table, /raw's tokens are a lower bound.*not compared with the recorded prompt sizes/);
  const csv = formatCsv(r).trim().split('\n');
  const col = csv[0]!.split(',').indexOf('ratioToRaw');
  const cell = (scope: string) => csv.find((l) => l.startsWith(`${scope},recorded,`))!.split(',')[col];
  assert.equal(cell('img.jsonl'), '');
  assert.equal(cell('total'), '');
  assert.equal(cell('txt.json'), '1.25');
});

test("a separate summary model's own units are reported apart from the recorded cost units, not added", () => {
  const r = report([
    replay('a', [{ sent: 100, recorded: { inputTokens: 100, sentTokens: 100, costUnits: 100 } }], {
      recordedSummaries: {
        calls: 1,
        inputTokens: 20000,
        outputTokens: 300,
        units: [{ model: 'my-llm', units: 21200 }],
      },
    }),
  ]);
  assert.equal(r.recorded!.costUnits, undefined, 'two models’ units: no total');
  assert.deepEqual(r.recorded!.costUnitsByModel, [
    { model: null, units: 100, trajectory: 'a' },
    { model: 'my-llm', units: 21200 },
  ]);
  assert.match(formatTable(r), /21,200 of my-llm.*not added/);
});
