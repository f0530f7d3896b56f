// Replay of Context Desk's own history: the cache its calls are billed with is their model's (a Claude
// session reads only where the Anthropic provider wrote), and a pause between two calls past Anthropic's
// 5-minute lifetime expires it, by the times the call records keep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrajectoryFile } from '../../../src/core/trajectories';
import { DEFAULT_REPLAY_OPTIONS, replayTrajectory } from '../../../src/core/replay/replay';
import { parseCallRecord } from '../../../src/core/agent/call-log';
import { wordTokenizer } from '../strategies/helpers';

const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
const T0 = Date.UTC(2026, 0, 1, 10);
const MIN = 60_000;

function history(model: string, second: { sentAt: number; at: number }): string {
  let index = 0;
  const message = (role: string, content: string, at: number) =>
    JSON.stringify({ v: 1, session: 's', index: index++, at: new Date(at).toISOString(), message: { role, content } });
  const call = (n: number, times: { sentAt?: number; at: number }) =>
    JSON.stringify({
      v: 1,
      session: 's',
      kind: 'call',
      at: new Date(times.at).toISOString(),
      call: {
        turn: n,
        call: n,
        tokensSent: 2000,
        rawHistoryTokens: 2000,
        cachedTokens: 0,
        outputTokens: 5,
        cost: 2000,
        model,
        answered: true,
        ...times,
      },
    });
  const dir = mkdtempSync(join(tmpdir(), 'cd-hist-'));
  const file = join(dir, 's.jsonl');
  writeFileSync(
    file,
    [
      message('system', `system ${words(1500, 's')}`, T0),
      message('user', 'question', T0),
      message('assistant', 'answer', T0 + 5_000),
      call(1, { sentAt: T0 + 1_000, at: T0 + 5_000 }),
      message('user', 'more', second.sentAt),
      message('assistant', 'done', second.at),
      call(2, second),
    ].join('\n') + '\n',
  );
  return file;
}

const options = { ...DEFAULT_REPLAY_OPTIONS, cacheWritePrice: 1.25 };

test('Context Desk history names its model: a Claude session is replayed with the Anthropic cache', async () => {
  const [t] = await loadTrajectoryFile(history('claude-sonnet-4-5', { sentAt: T0 + MIN, at: T0 + MIN + 5_000 }));
  assert.equal(t!.model, 'claude-sonnet-4-5');
  const r = await replayTrajectory(t!, 'raw', options, wordTokenizer());
  assert.equal(r.cacheModel, 'anthropic');
  assert.equal(r.cacheModelBasis, 'model claude-sonnet-4-5');
  const [g] = await loadTrajectoryFile(history('gpt-4.1', { sentAt: T0 + MIN, at: T0 + MIN + 5_000 }));
  assert.equal((await replayTrajectory(g!, 'raw', options, wordTokenizer())).cacheModel, 'prefix');
});

test('Context Desk history: the pause before a call is from its send to the previous call’s end, and past 5 minutes nothing is read', async () => {
  // Sent four minutes after the first call ended: within the lifetime.
  const [near] = await loadTrajectoryFile(
    history('claude-sonnet-4-5', { sentAt: T0 + 5_000 + 4 * MIN, at: T0 + 10 * MIN }),
  );
  assert.equal(near!.calls![1]!.idleBefore, 4 * MIN);
  assert.ok((await replayTrajectory(near!, 'raw', options, wordTokenizer())).calls[1]!.cachedTokens > 0);
  // Sent six minutes after it: the cache is gone (a long answer before it would not count as a pause).
  const [far] = await loadTrajectoryFile(
    history('claude-sonnet-4-5', { sentAt: T0 + 5_000 + 6 * MIN, at: T0 + 7 * MIN }),
  );
  assert.equal(far!.calls![1]!.idleBefore, 6 * MIN);
  assert.equal((await replayTrajectory(far!, 'raw', options, wordTokenizer())).calls[1]!.cachedTokens, 0);
});

test('a call record keeps when its call was sent; one without it (older files) or with a bad one reads as before', () => {
  const base = {
    turn: 1,
    call: 1,
    tokensSent: 1,
    rawHistoryTokens: 1,
    cachedTokens: 0,
    outputTokens: 1,
    cost: 1,
    at: 5,
  };
  assert.equal(parseCallRecord({ ...base, sentAt: 3 })?.sentAt, 3);
  assert.equal(parseCallRecord(base)?.sentAt, undefined);
  assert.equal(parseCallRecord({ ...base, sentAt: 'soon' })?.sentAt, undefined);
});
