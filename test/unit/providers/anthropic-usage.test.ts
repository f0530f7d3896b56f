// What an Anthropic stream reports a call used. The message_delta event's figures are cumulative and may
// carry the input side too (servers that send placeholders in message_start, as some Anthropic-compatible
// ones do, send the real prompt there): the last figures said are the call's. A figure that is no count
// is unknown (the call is billed by our own count), never NaN.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { collectChat } from '../../../src/core/agent/provider';
import { AnthropicProvider } from '../../../src/core/providers/anthropic';

async function withServer(events: Record<string, unknown>[], f: (url: string) => Promise<void>): Promise<void> {
  const s = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of events) res.write(`event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  try {
    await f(`http://127.0.0.1:${(s.address() as AddressInfo).port}`);
  } finally {
    await new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())));
  }
}

const start = (usage: Record<string, unknown>) => ({
  type: 'message_start',
  message: { id: 'm', type: 'message', role: 'assistant', model: 'c', content: [], stop_reason: null, usage },
});
const text = [
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done.' } },
  { type: 'content_block_stop', index: 0 },
];
const end = (usage: Record<string, unknown>) => [
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage },
  { type: 'message_stop' },
];

async function usageOf(events: Record<string, unknown>[]) {
  let usage: unknown;
  await withServer(events, async (url) => {
    const p = new AnthropicProvider({ apiKey: 'k', baseURL: url });
    const r = await collectChat(
      p.chat({
        model: 'c',
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [],
        signal: new AbortController().signal,
      }),
    );
    usage = r.usage;
  });
  return usage;
}

test('the input figures of message_delta (cumulative) are the call’s, over message_start’s placeholders', async () => {
  const u = await usageOf([
    start({ input_tokens: 0, output_tokens: 0 }),
    ...text,
    ...end({ input_tokens: 200, cache_read_input_tokens: 1000, cache_creation_input_tokens: 100, output_tokens: 30 }),
  ]);
  assert.deepEqual(u, { inputTokens: 1300, cachedTokens: 1000, cacheWriteTokens: 100, outputTokens: 30 });
});

test('a message_delta with output only keeps message_start’s input figures', async () => {
  const u = await usageOf([
    start({ input_tokens: 10, cache_read_input_tokens: 900, cache_creation_input_tokens: 50, output_tokens: 1 }),
    ...text,
    ...end({ input_tokens: null, cache_read_input_tokens: null, cache_creation_input_tokens: null, output_tokens: 25 }),
  ]);
  assert.deepEqual(u, { inputTokens: 960, cachedTokens: 900, cacheWriteTokens: 50, outputTokens: 25 });
});

test('a usage without an input count is unknown, never NaN', async () => {
  const u = (await usageOf([start({ output_tokens: 1 }), ...text, ...end({ output_tokens: 3 })])) as Record<
    string,
    unknown
  >;
  assert.equal(u.inputTokens, undefined);
  assert.equal(u.outputTokens, 3);
  for (const v of Object.values(u)) assert.ok(Number.isFinite(v), JSON.stringify(u));
});

test('a usage of zeros is a placeholder: the prompt is unknown', async () => {
  const u = (await usageOf([
    start({ input_tokens: 0, output_tokens: 0 }),
    ...text,
    ...end({ output_tokens: 3 }),
  ])) as Record<string, unknown>;
  assert.equal(u.inputTokens, undefined);
  assert.equal(u.outputTokens, 3);
});
