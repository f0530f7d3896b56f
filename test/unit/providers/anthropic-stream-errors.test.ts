// The Anthropic provider on streams that go wrong after their 200 (a loopback server speaking Anthropic's
// SSE protocol): error events, events that are not JSON, and servers that leave usage out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProviderError } from '../../../src/core/agent/errors';
import { DEFAULT_RETRY_POLICY, planRetry } from '../../../src/core/agent/retry-policy';
import { an, anthropic } from './raw-sse';

const start = (usage?: object): string =>
  an('message_start', {
    message: {
      ...{ id: 'msg', type: 'message', role: 'assistant', model: 'm', content: [] },
      ...{ stop_reason: null, stop_sequence: null },
      ...(usage ? { usage } : {}),
    },
  });
const text =
  an('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
  an('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Done.' } }) +
  an('content_block_stop', { index: 0 });
const stop = an('message_stop');
const errorEvent = (type: string, message: string): string => an('error', { error: { type, message } });

const never = { transient: 0, unreachable: 0, overflow: 0 };

test('an error event mid-answer is the failure its type names, in words, and retried only when that helps', async () => {
  const cases = [
    { type: 'overloaded_error', message: 'Overloaded', kind: 'server', retried: true },
    { type: 'rate_limit_error', message: 'Too many requests', kind: 'rate-limit', retried: true },
    {
      type: 'invalid_request_error',
      message: 'prompt is too long: 210000 tokens > 200000 maximum',
      kind: 'context-overflow',
      retried: true,
    },
    { type: 'invalid_request_error', message: 'messages: roles must alternate', kind: 'bad-request', retried: false },
    { type: 'authentication_error', message: 'invalid x-api-key', kind: 'auth', retried: false },
  ];
  for (const c of cases) {
    const r = await anthropic(start({ input_tokens: 10, output_tokens: 1 }) + text + errorEvent(c.type, c.message));
    assert.ok(r instanceof ProviderError, c.type);
    assert.equal(r.kind, c.kind, c.type);
    assert.ok(r.message.includes(c.message), `${c.type}: ${r.message}`);
    assert.doesNotMatch(r.message, /[{}]/, `${c.type}: no raw JSON in "${r.message}"`);
    assert.equal(planRetry(r, never, DEFAULT_RETRY_POLICY) !== undefined, c.retried, c.type);
  }
});

test('an event whose data is not JSON fails the call with a message that says so', async () => {
  const broken = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,\n\n';
  const r = await anthropic(start({ input_tokens: 10, output_tokens: 1 }) + broken + stop);
  assert.ok(r instanceof ProviderError);
  assert.equal(r.kind, 'server');
  assert.match(r.message, /stream event that is not valid JSON/);
});

test('a server that leaves usage out of message_start or message_delta still gives the whole answer', async () => {
  const noDeltaUsage = an('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null } });
  const withDeltaUsage = an('message_delta', {
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 7 },
  });
  for (const [body, usage] of [
    [start() + text + withDeltaUsage + stop, { outputTokens: 7 }],
    [start({ input_tokens: 10, output_tokens: 1 }) + text + noDeltaUsage + stop, { inputTokens: 10 }],
  ] as const) {
    const r = await anthropic(body);
    assert.ok(!(r instanceof Error), String(r));
    assert.equal(r.text, 'Done.');
    assert.equal(r.finishReason, 'end_turn');
    for (const [k, v] of Object.entries(usage)) assert.equal(r.usage[k as keyof typeof r.usage], v, k);
  }
});
