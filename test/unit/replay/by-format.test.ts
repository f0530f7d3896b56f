// A folder that mixes log formats: the report says what its totals pool, format by format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregate, type TrajectoryReplay } from '../../../src/core/replay/replay';
import type { StrategyName } from '../../../src/core/strategies';
import { buildReport } from '../../../src/cli/replay/report';
import { formatTable } from '../../../src/cli/replay/report-table';
import { reportMeta } from './report-meta';

function replay(
  id: string,
  format: TrajectoryReplay['format'],
  strategy: StrategyName,
  sent: number[],
  media = 0,
): TrajectoryReplay {
  return {
    trajectoryId: id,
    format,
    strategy,
    cacheModel: 'prefix',
    cacheModelBasis: '--cache-model prefix',
    summaryEstimated: false,
    notes: [],
    calls: sent.map((n, k) => ({
      call: k,
      inputTokens: n,
      contextTokens: n,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 0,
      outputRecorded: false,
      cost: n,
      maskedObservations: 0,
      summaryCall: false,
      summaryCalls: 0,
      summaryInputTokens: 0,
      summaryOutputTokens: 0,
    })),
    ...(media > 0 ? { uncountedMedia: { file: `/logs/${id}`, parts: media } } : {}),
  };
}

function report(runs: Record<string, TrajectoryReplay[]>) {
  return buildReport(
    Object.entries(runs).map(([strategy, replays]) => ({
      strategy: strategy as StrategyName,
      totals: aggregate(replays),
      replays,
    })),
    reportMeta(),
    (x) => aggregate([x]),
  );
}

test('a folder mixing formats: each format its runs, calls, raw tokens and every ratio over its own runs', () => {
  // The pooled masking ratio (0.28) is the large format's (0.25) in disguise: the small one kept 0.9.
  const r = report({
    raw: [
      replay('a.traj.json', 'mini-swe-agent', 'raw', [1000, 2000]),
      replay('b.json', 'swe-agent-history', 'raw', [100, 100, 100]),
      replay('c.jsonl', 'claude-code', 'raw', [50], 1),
    ],
    masking: [
      replay('a.traj.json', 'mini-swe-agent', 'masking', [250, 500]),
      replay('b.json', 'swe-agent-history', 'masking', [90, 90, 90]),
      replay('c.jsonl', 'claude-code', 'masking', [50], 1),
    ],
  });
  assert.deepEqual(r.formats, {
    'claude-code': { trajectories: 1, calls: 1, rawInputTokens: 50, uncountedMedia: 1, ratioToRaw: { masking: null } },
    'mini-swe-agent': {
      trajectories: 1,
      calls: 2,
      rawInputTokens: 3000,
      uncountedMedia: 0,
      ratioToRaw: { masking: 0.25 },
    },
    'swe-agent-history': {
      trajectories: 1,
      calls: 3,
      rawInputTokens: 300,
      uncountedMedia: 0,
      ratioToRaw: { masking: 0.9 },
    },
  });
  const table = formatTable(r);
  assert.match(table, /By format: the totals above pool 3 log formats/);
  assert.match(table, /^format\s+trajectories\s+calls\s+raw input tokens\s+masking vs raw$/m);
  assert.match(table, /^claude-code\s+1\s+1\s+≥ 50\s+-$/m);
  assert.match(table, /^mini-swe-agent\s+1\s+2\s+3,000\s+0\.250$/m);
  assert.match(table, /^swe-agent-history\s+1\s+3\s+300\s+0\.900$/m);
});

test('one format: its figures are the totals, no table of formats', () => {
  const r = report({ raw: [replay('a.traj.json', 'mini-swe-agent', 'raw', [10])] });
  assert.deepEqual(Object.keys(r.formats), ['mini-swe-agent']);
  assert.doesNotMatch(formatTable(r), /By format/);
});
