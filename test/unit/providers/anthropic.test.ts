// The Anthropic provider against a loopback server speaking the Messages streaming protocol.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { ProviderError } from '../../../src/core/agent/errors';
import { collectChat } from '../../../src/core/agent/provider';
import type { Message } from '../../../src/core/messages';
import { AnthropicProvider } from '../../../src/core/providers/anthropic';

type Handler = (body: Record<string, unknown>, res: http.ServerResponse) => void;

async function server(
  handlers: Handler[],
): Promise<{ url: string; bodies: Record<string, unknown>[]; close(): Promise<void> }> {
  const bodies: Record<string, unknown>[] = [];
  let n = 0;
  const s = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(data) as Record<string, unknown>;
      bodies.push(body);
      handlers[n++]!(body, res);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    bodies,
    close: () => new Promise((r) => (s.closeAllConnections(), s.close(() => r()))),
  };
}

function sse(res: http.ServerResponse, events: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const e of events) res.write(`event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}

const toolReply: Handler = (_b, res) =>
  sse(res, [
    {
      type: 'message_start',
      message: {
        id: 'm',
        type: 'message',
        role: 'assistant',
        model: 'c',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 900, cache_creation_input_tokens: 50 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me grep.' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'tu1', name: 'grep', input: {} } },
    { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"pattern":' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"foo"}' } },
    { type: 'content_block_stop', index: 1 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 25 } },
    { type: 'message_stop' },
  ]);

const history: Message[] = [
  { role: 'system', content: 'You are an agent.' },
  { role: 'user', content: 'Find foo.' },
];

test('streams text and tool use, reports cache reads and writes, and marks breakpoints on the wire', async () => {
  const s = await server([toolReply, toolReply]);
  try {
    const p = new AnthropicProvider({ apiKey: 'k', baseURL: s.url });
    const tools = [
      {
        name: 'grep',
        description: 'search',
        inputSchema: { type: 'object', properties: { pattern: { type: 'string' } } },
      },
    ];
    const r = await collectChat(
      p.chat({ model: 'claude', messages: history, tools, signal: new AbortController().signal }),
    );
    assert.equal(r.text, 'Let me grep.');
    assert.deepEqual(r.toolCalls, [{ id: 'tu1', name: 'grep', arguments: '{"pattern":"foo"}' }]);
    assert.deepEqual(r.usage, { inputTokens: 960, cachedTokens: 900, cacheWriteTokens: 50, outputTokens: 25 });
    assert.equal(r.finishReason, 'tool_use');
    const next: Message[] = [
      ...history,
      { role: 'assistant', content: r.text, toolCalls: r.toolCalls },
      { role: 'tool', content: 'a.ts:1: foo', toolCallId: 'tu1' },
    ];
    await collectChat(p.chat({ model: 'claude', messages: next, tools, signal: new AbortController().signal }));
    const second = s.bodies[1]! as {
      system: { cache_control?: unknown }[];
      messages: { content: { cache_control?: unknown }[] }[];
    };
    assert.deepEqual(second.system[0]!.cache_control, { type: 'ephemeral' });
    // The previous request ended with the task; it and the new end carry breakpoints.
    const marked = second.messages.flatMap((m, i) =>
      m.content.flatMap((b, j) => (b.cache_control ? [`${i}.${j}`] : [])),
    );
    assert.deepEqual(marked, ['0.0', '2.0']);
    assert.equal(s.bodies[0]!.max_tokens, 8192);
  } finally {
    await s.close();
  }
});

test('classifies Anthropic failures: 429 with retry-after, 529 overloaded, 401', async () => {
  const fail =
    (status: number, headers: Record<string, string> = {}): Handler =>
    (_b, res) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify({ type: 'error', error: { type: 'x', message: `status ${status}` } }));
    };
  const s = await server([fail(429, { 'retry-after': '4' }), fail(529), fail(401)]);
  try {
    const p = new AnthropicProvider({ apiKey: 'k', baseURL: s.url });
    const kinds: [string, number | undefined][] = [];
    for (let i = 0; i < 3; i++) {
      const e = await collectChat(
        p.chat({ model: 'c', messages: history, tools: [], signal: new AbortController().signal }),
      ).catch((x: unknown) => x);
      assert.ok(e instanceof ProviderError);
      assert.equal(e.url, `${s.url}/v1/messages`);
      kinds.push([e.kind, e.retryAfterMs]);
    }
    assert.deepEqual(kinds, [
      ['rate-limit', 4000],
      ['server', undefined],
      ['auth', undefined],
    ]);
  } finally {
    await s.close();
  }
});
