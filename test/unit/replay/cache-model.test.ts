import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Message } from '../../../src/core/messages';
import type { Trajectory } from '../../../src/core/trajectories';
import { DEFAULT_REPLAY_OPTIONS, replayTrajectory, type ReplayOptions } from '../../../src/core/replay/replay';
import { anthropicCacheBill } from '../../../src/core/cost/anthropic-cache';
import { messageCounter } from '../../../src/core/cost/message-tokens';
import { parseReplayArgs } from '../../../src/cli/replay/args';
import { UsageError } from '../../../src/cli/command';
import { buildReport } from '../../../src/cli/replay/report';
import { formatTable } from '../../../src/cli/replay/report-table';
import { aggregate } from '../../../src/core/replay/replay';
import { wordTokenizer } from '../strategies/helpers';
import { reportMeta } from './report-meta';

const tokenizer = wordTokenizer();
const count = messageCounter(tokenizer);
const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

/**
 * Call 0 sends a system prompt and 40 messages; call 1 sends the first 25 of them unchanged and a new one
 * (an old message changed, as masking does). The generic cache reads those 25 messages; Anthropic's reads
 * only where a breakpoint wrote within 20 blocks: call 0 wrote only at its end, so only the system prompt.
 */
function changedFarBack(format: Trajectory['format']): Trajectory {
  const messages: Message[] = [{ role: 'system', content: `system ${words(30, 's')}` }];
  for (let i = 1; i <= 40; i++) messages.push({ role: 'user', content: `note${i} ${words(50, 'w')}` });
  messages.push({ role: 'user', content: `changed ${words(50, 'x')}` });
  return {
    id: 'far',
    source: 'far.json',
    format,
    messages,
    calls: [
      { context: [[0, 41]] },
      {
        context: [
          [0, 26],
          [41, 42],
        ],
      },
    ],
  };
}

const options: ReplayOptions = { ...DEFAULT_REPLAY_OPTIONS, minCachedTokens: 0, cacheWritePrice: 1.25 };
const tokens = (ms: readonly Message[]) => ms.reduce((n, m) => n + count(m), 0);

test('auto bills an Anthropic request log with the Anthropic cache: a prefix no breakpoint wrote is not read', async () => {
  const t = changedFarBack('anthropic-request');
  const r = await replayTrajectory(t, 'raw', options, tokenizer);
  assert.equal(r.cacheModel, 'anthropic');
  const second = r.calls[1]!;
  const system = count(t.messages[0]!);
  assert.equal(second.cachedTokens, system);
  // Everything past the system prompt is written again (at 1.25), none of it read.
  assert.equal(second.cacheWriteTokens, second.contextTokens - system);
  assert.ok(Math.abs(second.cost - (system * 0.1 + (second.contextTokens - system) * 1.25)) < 1e-9);
  // The same figures as the live agent's Anthropic bill.
  const first = anthropicCacheBill(undefined, t.messages.slice(0, 41), count, {
    toolsKey: '',
    toolTokens: 0,
    minCachedTokens: 0,
  });
  const live = anthropicCacheBill(first.next, [...t.messages.slice(0, 26), t.messages[41]!], count, {
    toolsKey: '',
    toolTokens: 0,
    minCachedTokens: 0,
  });
  assert.equal(second.cachedTokens, live.cached);
  assert.equal(second.cacheWriteTokens, live.written);
});

test('--cache-model prefix bills the same log with the generic cache, which reads up to the change', async () => {
  const t = changedFarBack('anthropic-request');
  const r = await replayTrajectory(t, 'raw', { ...options, cacheModel: 'prefix' }, tokenizer);
  assert.equal(r.cacheModel, 'prefix');
  assert.equal(r.calls[1]!.cachedTokens, tokens(t.messages.slice(0, 26)));
});

test('auto keeps the generic cache for other formats; --cache-model anthropic overrides it', async () => {
  const t = changedFarBack('openai-chat');
  const auto = await replayTrajectory(t, 'raw', options, tokenizer);
  assert.equal(auto.cacheModel, 'prefix');
  assert.equal(auto.calls[1]!.cachedTokens, tokens(t.messages.slice(0, 26)));
  const anthropic = await replayTrajectory(t, 'raw', { ...options, cacheModel: 'anthropic' }, tokenizer);
  assert.equal(anthropic.cacheModel, 'anthropic');
  assert.equal(anthropic.calls[1]!.cachedTokens, count(t.messages[0]!));
  assert.ok(anthropic.calls[1]!.cost > auto.calls[1]!.cost);
});

test('--cache-model is parsed and checked; auto is the default', () => {
  assert.equal(parseReplayArgs(['x']).options.cacheModel, 'auto');
  assert.equal(parseReplayArgs(['x', '--cache-model', 'anthropic']).options.cacheModel, 'anthropic');
  assert.throws(
    () => parseReplayArgs(['x', '--cache-model', 'claude']),
    (e) => e instanceof UsageError && /--cache-model must be one of auto, prefix, anthropic/.test(e.message),
  );
});

test('the report says which cache model billed how many trajectories, and the Anthropic write price', async () => {
  const runs = [
    {
      strategy: 'raw' as const,
      replays: [
        await replayTrajectory(changedFarBack('anthropic-request'), 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer),
        await replayTrajectory(changedFarBack('openai-chat'), 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer),
      ],
    },
  ].map((r) => ({ ...r, totals: aggregate(r.replays) }));
  const report = buildReport(runs, reportMeta(), (r) => aggregate([r]));
  assert.deepEqual(report.cacheModels, { anthropic: 1, prefix: 1 });
  const table = formatTable(report);
  assert.match(table, /Cache model \(--cache-model auto[^\n]*anthropic \(reads only where[^\n]*: 1 trajectory/);
  assert.match(table, /prefix \(any prefix shared[^\n]*: 1 trajectory/);
  assert.match(table, /give --cache-write-price 1\.25/);
});
