// Codex `token_count` events that carry no new call's usage: Codex sends one whenever its rate limits
// change (as each request's headers arrive, repeating the last call's usage) and after a compaction or a
// rollback (an estimate with no input tokens). Shapes from codex-rs `Session::update_rate_limits`,
// `recompute_token_usage` and `send_token_count_event` (every event carries the running total).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrajectoryFile } from '../../../src/core/trajectories';

interface Usage {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
}

/** A rollout written as Codex writes it: the usage events carry the running total and the last call's usage. */
function rollout() {
  const lines: string[] = [];
  const add = (type: string, payload: object) =>
    lines.push(JSON.stringify({ timestamp: '2026-01-01T00:00:00Z', type, payload }));
  const zero: Usage = {
    input_tokens: 0,
    cached_input_tokens: 0,
    output_tokens: 0,
    reasoning_output_tokens: 0,
    total_tokens: 0,
  };
  let total = zero;
  let last: Usage | undefined;
  const limits = { primary: { used_percent: 7, window_minutes: 300, resets_at: 1 } };
  const event = (l: Usage | undefined) =>
    add('event_msg', {
      type: 'token_count',
      info: l ? { total_token_usage: total, last_token_usage: l, model_context_window: 272000 } : null,
      rate_limits: limits,
    });
  add('session_meta', { id: '019a0000-0000-7000-8000-000000000001', base_instructions: { text: 'You are Codex.' } });
  return {
    user: (t: string) =>
      add('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: t }] }),
    reply: (t: string) =>
      add('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: t }] }),
    /** A completed call's usage. */
    usage: (input: number) => {
      last = { ...zero, input_tokens: input, output_tokens: 40, total_tokens: input + 40 };
      total = {
        ...total,
        input_tokens: total.input_tokens + input,
        output_tokens: total.output_tokens + 40,
        total_tokens: total.total_tokens + input + 40,
      };
      event(last);
    },
    /** New rate limits: the last call's usage sent again. */
    rateLimits: () => event(last),
    /** After a compaction or rollback: an estimate of the context, no input tokens. */
    estimate: (tokens: number) => event({ ...zero, total_tokens: tokens }),
    add,
    async load() {
      const dir = mkdtempSync(join(tmpdir(), 'cd-codex-usage-'));
      writeFileSync(join(dir, 'rollout.jsonl'), lines.join('\n') + '\n');
      const [t] = await loadTrajectoryFile(join(dir, 'rollout.jsonl'));
      assert.equal(t!.format, 'codex');
      return t!;
    },
  };
}

test("Codex: an interrupted call does not take the usage Codex re-sends with the next request's rate limits", async () => {
  const r = rollout();
  r.user('first');
  r.rateLimits(); // no usage yet (info: null)
  r.reply('answer one');
  r.usage(1000);
  r.user('second');
  r.rateLimits();
  r.reply('an answer the person stopped half-way'); // no usage: the request never completed
  r.user('third');
  r.rateLimits(); // the first call's usage again, as the third request starts
  r.reply('answer three');
  r.usage(1500);
  const t = await r.load();
  assert.deepEqual(
    t.calls!.map((c) => c.recorded?.inputTokens),
    [1000, undefined, 1500],
  );
});

test("Codex: a re-estimate after a rollback or compaction is not a call's usage (0 input tokens)", async () => {
  const r = rollout();
  r.user('first');
  r.reply('answer one');
  r.usage(1000);
  r.user('second');
  r.reply('an answer the person stopped half-way');
  r.add('event_msg', { type: 'thread_rolled_back', num_turns: 1 });
  r.estimate(900);
  r.user('instead');
  r.reply('answer');
  r.usage(1100);
  const t = await r.load();
  assert.deepEqual(
    t.calls!.map((c) => c.recorded),
    [
      { inputTokens: 1000, cachedTokens: 0, outputTokens: 40 },
      undefined,
      { inputTokens: 1100, cachedTokens: 0, outputTokens: 40 },
    ],
  );
});

test('Codex: the usage of a later turn (a /compact call) is its own call, not given to a call its turn aborted', async () => {
  const r = rollout();
  r.add('turn_context', { cwd: '/w', model: 'gpt-5.5' });
  r.user('first');
  r.reply('answer one');
  r.usage(1000);
  r.add('turn_context', { cwd: '/w', model: 'gpt-5.5' });
  r.user('second');
  r.reply('an answer the person stopped half-way');
  r.add('event_msg', { type: 'turn_aborted', reason: 'interrupted' });
  r.add('turn_context', { cwd: '/w', model: 'gpt-5.5' });
  r.usage(4000); // the summary call of /compact: not written as items, its usage is
  r.add('compacted', { message: 'summary', replacement_history: [] });
  r.estimate(300);
  r.add('turn_context', { cwd: '/w', model: 'gpt-5.5' });
  r.user('third');
  r.reply('answer three');
  r.usage(500);
  const t = await r.load();
  assert.deepEqual(
    t.calls!.map((c) => c.recorded?.inputTokens),
    [1000, undefined, 4000, 500],
  );
  assert.equal(t.calls![2]!.output, undefined, 'the summary is not written as an item: a call with no reply');
});

test("Codex: older rollouts' flat token_count events (no `info`) are each call's usage", async () => {
  // Codex before TokenUsageInfo sent the completed response's TokenUsage itself as the event.
  const r = rollout();
  const flat = (input: number, cached: number) =>
    r.add('event_msg', {
      type: 'token_count',
      input_tokens: input,
      cached_input_tokens: cached,
      output_tokens: 40,
      reasoning_output_tokens: 0,
      total_tokens: input + 40,
    });
  r.user('first');
  r.reply('answer one');
  flat(1000, 0);
  r.user('second');
  r.reply('answer two');
  flat(1200, 1000);
  const t = await r.load();
  assert.deepEqual(
    t.calls!.map((c) => c.recorded),
    [
      { inputTokens: 1000, cachedTokens: 0, outputTokens: 40 },
      { inputTokens: 1200, cachedTokens: 1000, outputTokens: 40 },
    ],
  );
});

test('Codex: a response with no output items is a call of its own with its usage, said in a warning', async () => {
  const r = rollout();
  r.user('first');
  r.reply('answer one');
  r.usage(1000);
  r.usage(1100); // the model returned nothing the rollout writes as an item
  r.rateLimits(); // re-sent: not a call
  r.user('second');
  r.reply('answer two');
  r.usage(1200);
  const t = await r.load();
  assert.deepEqual(
    t.calls!.map((c) => [c.output === undefined, c.recorded?.inputTokens]),
    [
      [false, 1000],
      [true, 1100],
      [false, 1200],
    ],
  );
  // It sent what the first call sent and that call's reply.
  assert.deepEqual(t.calls![1]!.context, [[0, 3]]);
  assert.match(t.warnings!.join('\n'), /1 call with recorded usage but no output items in the rollout/);
});
