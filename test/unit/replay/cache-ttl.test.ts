import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '../../../src/core/messages';
import { loadTrajectoryFile, type Trajectory } from '../../../src/core/trajectories';
import {
  CACHE_EXPIRED_NOTE,
  DEFAULT_REPLAY_OPTIONS,
  replayTrajectory,
  type ReplayOptions,
} from '../../../src/core/replay/replay';
import { ANTHROPIC_CACHE_TTL_MS } from '../../../src/core/replay/cache-model';
import { messageCounter } from '../../../src/core/cost/message-tokens';
import { wordTokenizer } from '../strategies/helpers';
import { assertQuick } from '../../support/linear-time';

const tokenizer = wordTokenizer();
const count = messageCounter(tokenizer);
const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
const options: ReplayOptions = { ...DEFAULT_REPLAY_OPTIONS, minCachedTokens: 0, cacheWritePrice: 1.25 };

/** Two calls of one conversation, the second `idle` ms after the first one's prompt was read. */
function paused(idle: number | undefined, format: Trajectory['format'] = 'anthropic-request'): Trajectory {
  const messages: Message[] = [
    { role: 'system', content: `system ${words(40, 's')}` },
    { role: 'user', content: `task ${words(60, 't')}` },
    { role: 'assistant', content: `answer ${words(20, 'a')}` },
    { role: 'user', content: `more ${words(30, 'm')}` },
    { role: 'assistant', content: 'done' },
  ];
  return {
    id: 'paused',
    source: 'paused.json',
    format,
    messages,
    calls: [
      { context: [[0, 2]], output: 2 },
      { context: [[0, 4]], output: 4, ...(idle !== undefined ? { idleBefore: idle } : {}) },
    ],
  };
}

test('Anthropic cache: a call within the 5-minute lifetime reads what the previous call wrote', async () => {
  const t = paused(ANTHROPIC_CACHE_TTL_MS);
  const r = await replayTrajectory(t, 'raw', options, tokenizer);
  const prefix = t.messages.slice(0, 2).reduce((n, m) => n + count(m), 0);
  assert.equal(r.calls[1]!.cachedTokens, prefix);
  assert.deepEqual(r.notes, []);
});

test('Anthropic cache: after a pause past its 5-minute lifetime nothing is read, all of the prompt is written again', async () => {
  const t = paused(ANTHROPIC_CACHE_TTL_MS + 1);
  const r = await replayTrajectory(t, 'raw', options, tokenizer);
  const second = r.calls[1]!;
  assert.equal(second.cachedTokens, 0);
  assert.equal(second.cacheWriteTokens, second.contextTokens);
  assert.ok(Math.abs(second.cost - second.contextTokens * 1.25) < 1e-9);
  assert.deepEqual(r.notes, [CACHE_EXPIRED_NOTE]);
  assert.match(CACHE_EXPIRED_NOTE, /after a pause longer than the cache's 5-minute lifetime/);
  // The call after an expired one reads again what that one wrote.
  const three: Trajectory = {
    ...t,
    messages: [...t.messages, { role: 'user', content: 'again' }, { role: 'assistant', content: 'ok' }],
    calls: [...t.calls!, { context: [[0, 6]], output: 6, idleBefore: 1000 }],
  };
  const r3 = await replayTrajectory(three, 'raw', options, tokenizer);
  assert.equal(
    r3.calls[2]!.cachedTokens,
    three.messages.slice(0, 4).reduce((n, m) => n + count(m), 0),
  );
});

test('the generic prefix cache, whose lifetime no provider states for certain, is not expired by a pause', async () => {
  const t = paused(3_600_000, 'openai-chat');
  const r = await replayTrajectory(t, 'raw', { ...options, cacheModel: 'prefix' }, tokenizer);
  assert.ok(r.calls[1]!.cachedTokens > 0);
});

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 10, minutes)).toISOString();
const rec = (uuid: string, parent: string | null, type: string, content: unknown, time: string, id?: string) =>
  JSON.stringify({
    type,
    uuid,
    parentUuid: parent,
    sessionId: 's',
    timestamp: time,
    message: { role: type, content, ...(id ? { id, model: 'claude-sonnet-4-5' } : {}) },
  });

test('Claude Code: the pause before a call is read from the log, and replay bills the cache as expired after 5 minutes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-ttl-'));
  const file = join(dir, 's.jsonl');
  const text = (s: string) => [{ type: 'text', text: s }];
  writeFileSync(
    file,
    [
      rec('u1', null, 'user', `task ${words(200, 't')}`, at(0)),
      // The first answer's records: the prompt was read by the first of them (10:01).
      rec('a1', 'u1', 'assistant', text('first'), at(1), 'm1'),
      rec('a1b', 'a1', 'assistant', text('first, more'), at(2), 'm1'),
      // Four minutes after the answer began, the person asks again: within the lifetime.
      rec('u2', 'a1b', 'user', 'second question', at(5), undefined),
      rec('a2', 'u2', 'assistant', text('second'), at(6), 'm2'),
      // Twenty minutes later: past it.
      rec('u3', 'a2', 'user', 'third question', at(26), undefined),
      rec('a3', 'u3', 'assistant', text('third'), at(27), 'm3'),
    ].join('\n') + '\n',
  );
  const [t] = await loadTrajectoryFile(file);
  assert.deepEqual(
    t!.calls!.map((c) => c.idleBefore),
    [undefined, 4 * 60_000, 20 * 60_000],
  );
  const r = await replayTrajectory(t!, 'raw', options, tokenizer);
  assert.equal(r.cacheModel, 'anthropic');
  assert.ok(r.calls[1]!.cachedTokens > 0);
  assert.equal(r.calls[2]!.cachedTokens, 0);
});

test('Claude Code: record times are read in linear time, a huge or unreadable one ignored', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-ttl-'));
  const file = join(dir, 'long.jsonl');
  const lines = [rec('u0', null, 'user', 'question', '9'.repeat(1_000_000))];
  for (let i = 0; i < 50_000; i++) {
    lines.push(rec(`a${i}`, i ? `u${i}` : 'u0', 'assistant', [{ type: 'text', text: `a${i}` }], at(i % 60), `m${i}`));
    lines.push(rec(`u${i + 1}`, `a${i}`, 'user', `q${i}`, i === 7 ? 'not a time' : at((i + 1) % 60)));
  }
  writeFileSync(file, lines.join('\n') + '\n');
  const started = performance.now();
  const [t] = await loadTrajectoryFile(file);
  assertQuick(started);
  assert.equal(t!.calls!.length, 50_000);
  assert.equal(t!.calls![0]!.idleBefore, undefined, 'the first call has nothing before it');
  assert.equal(t!.calls![8]!.idleBefore, undefined, 'an unreadable time tells nothing');
  assert.equal(t!.calls![9]!.idleBefore, 60_000);
});
