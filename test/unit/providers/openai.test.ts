import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ProviderError,
  classifyHttpError,
  displayUrl,
  parseRetryAfter,
  unreachableReason,
} from '../../../src/core/agent/errors';
import { collectChat, type ChatRequest } from '../../../src/core/agent/provider';
import { DEFAULT_OPENAI_BASE_URL, OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { startScriptedModelServer, type ScriptStep } from '../../support/scripted-model-server';

function request(signal = new AbortController().signal): ChatRequest {
  return {
    model: 'm',
    messages: [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'grep', arguments: '{"pattern":"x"}' }] },
      { role: 'tool', content: 'no matches', toolCallId: 'a', name: 'grep', storedAt: 'x.txt' },
    ],
    tools: [{ name: 'grep', description: 'search', inputSchema: { type: 'object', properties: {} } }],
    signal,
  };
}

async function run(steps: ScriptStep[], opts: { timeoutMs?: number; signal?: AbortSignal } = {}) {
  const server = await startScriptedModelServer(steps);
  try {
    const provider = new OpenAICompatibleProvider({ baseURL: server.baseURL, timeoutMs: opts.timeoutMs ?? 5000 });
    const result = await collectChat(provider.chat(request(opts.signal))).catch((e: unknown) => e);
    return { result, bodies: server.chatRequests() };
  } finally {
    await server.close();
  }
}

test('the default base URL is Ollama on loopback', () => {
  assert.equal(DEFAULT_OPENAI_BASE_URL, 'http://127.0.0.1:11434/v1');
});

test('streams text and assembles split tool calls; reports usage with cached tokens', async () => {
  const { result, bodies } = await run([
    {
      reply: {
        text: 'Looking at two files now.',
        toolCalls: [
          { name: 'grep', arguments: { pattern: 'foo' } },
          { name: 'grep', arguments: '{"pattern":"bar"}' },
        ],
      },
      usage: { promptTokens: 120, completionTokens: 30, cachedTokens: 64 },
    },
  ]);
  assert.ok(!(result instanceof Error));
  const r = result as Awaited<ReturnType<typeof collectChat>>;
  assert.equal(r.text, 'Looking at two files now.');
  assert.deepEqual(
    r.toolCalls.map((c) => [c.name, c.arguments]),
    [
      ['grep', '{"pattern":"foo"}'],
      ['grep', '{"pattern":"bar"}'],
    ],
  );
  assert.deepEqual(r.usage, { inputTokens: 120, outputTokens: 30, cachedTokens: 64 });
  assert.equal(r.finishReason, 'tool_calls');
  // What went over the wire: the OpenAI format, no storedAt, tools as functions, streaming with usage.
  const body = bodies[0]!;
  assert.equal(body.stream, true);
  assert.deepEqual(body.stream_options, { include_usage: true });
  assert.deepEqual(body.messages[2], {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'a', type: 'function', function: { name: 'grep', arguments: '{"pattern":"x"}' } }],
  });
  assert.deepEqual(body.messages[3], { role: 'tool', tool_call_id: 'a', content: 'no matches' });
  assert.equal(body.tools![0]!.function.name, 'grep');
});

// Parallel calls as servers stream them: each call must come out whole, with its own id, in order.
const threeCalls = [
  { name: 'read_file', arguments: { path: 'hello.py' } },
  { name: 'grep', arguments: { pattern: 'world' } },
  { name: 'read_file', arguments: { path: 'b.py' } },
];
const streamShapes: [string, Partial<Extract<ScriptStep, { reply: unknown }>>][] = [
  ['split by index (OpenAI)', {}],
  ['sent whole without index (Ollama)', { wholeToolCalls: true }],
  ['sent whole, all at index 0 with their own ids (Ollama 0.20)', { wholeToolCalls: 'at-index-0' }],
  ['with the name repeated in every chunk', { repeatNames: true }],
  ['in pieces without index, each repeating the id', { unindexedPieces: true }],
];
for (const [shape, options] of streamShapes)
  test(`parallel tool calls ${shape} stay separate, in order, named once`, async () => {
    const { result } = await run([{ reply: { toolCalls: threeCalls }, ...options }]);
    const r = result as Awaited<ReturnType<typeof collectChat>>;
    assert.deepEqual(
      r.toolCalls.map((c) => [c.id, c.name, c.arguments]),
      [
        ['call_0_0', 'read_file', '{"path":"hello.py"}'],
        ['call_0_1', 'grep', '{"pattern":"world"}'],
        ['call_0_2', 'read_file', '{"path":"b.py"}'],
      ],
    );
  });

const cases: [string, ScriptStep, Partial<ProviderError>][] = [
  ['429', { fault: 'rate-limit', retryAfter: 7 }, { kind: 'rate-limit', status: 429, retryAfterMs: 7000 }],
  ['500', { fault: 'server-error' }, { kind: 'server', status: 500 }],
  ['503', { fault: 'server-error', status: 503 }, { kind: 'server', status: 503 }],
  ['504', { fault: 'server-error', status: 504 }, { kind: 'timeout', status: 504 }],
  ['401', { fault: 'auth' }, { kind: 'auth', status: 401 }],
  ['overflow', { fault: 'context-overflow' }, { kind: 'context-overflow', status: 400 }],
];
for (const [name, step, expected] of cases) {
  test(`classifies ${name}`, async () => {
    const { result } = await run([step]);
    assert.ok(result instanceof ProviderError, String(result));
    for (const [k, v] of Object.entries(expected))
      assert.equal((result as unknown as Record<string, unknown>)[k], v, k);
  });
}

test('classifies a hung server as a timeout and Stop as aborted', async () => {
  const { result } = await run([{ fault: 'hang' }], { timeoutMs: 300 });
  assert.ok(result instanceof ProviderError && result.kind === 'timeout', String(result));
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 100);
  const stopped = await run([{ fault: 'hang', text: 'partial' }], { signal: ac.signal });
  assert.ok(stopped.result instanceof ProviderError && stopped.result.kind === 'aborted', String(stopped.result));
});

test('classifies an unreachable server as a network error that never reached it, naming the URL', async () => {
  const server = await startScriptedModelServer([]);
  await server.close();
  const provider = new OpenAICompatibleProvider({ baseURL: `${server.baseURL}/` });
  const e = await collectChat(provider.chat(request())).catch((x: unknown) => x);
  assert.ok(e instanceof ProviderError && e.kind === 'network' && /base URL/.test(e.message), String(e));
  assert.equal(e.unreachable, true);
  assert.equal(e.url, `${server.baseURL}/chat/completions`);
  assert.ok(!e.message.includes(server.baseURL), 'the message does not repeat the URL');
});

test('HTTP errors name the URL too; a URL with credentials is never requested nor shown with them', async () => {
  const server = await startScriptedModelServer([{ fault: 'server-error' }]);
  try {
    const provider = new OpenAICompatibleProvider({ baseURL: server.baseURL });
    const e = await collectChat(provider.chat(request())).catch((x: unknown) => x);
    assert.ok(e instanceof ProviderError && e.status === 500, String(e));
    assert.equal(e.url, `${server.baseURL}/chat/completions`);
    assert.equal(e.toInfo().url, e.url);
    const withCredentials = new OpenAICompatibleProvider({ baseURL: server.baseURL.replace('//', '//user:secret@') });
    const refused = await collectChat(withCredentials.chat(request())).catch((x: unknown) => x);
    assert.ok(refused instanceof ProviderError && refused.unreachable, String(refused));
    assert.equal(refused.url, `${server.baseURL}/chat/completions`);
    assert.equal(server.chatRequests().length, 1);
  } finally {
    await server.close();
  }
});

test('unreachableReason: refused, DNS failures, blocked ports and TLS refusals, through cause chains', () => {
  const wrapped = (code: string) =>
    new Error('Connection error.', {
      cause: new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) }),
    });
  assert.equal(unreachableReason(wrapped('ECONNREFUSED'))?.code, 'ECONNREFUSED');
  assert.match(unreachableReason(wrapped('ENOTFOUND'))!.reason, /does not resolve/);
  assert.match(unreachableReason(wrapped('EAI_AGAIN'))!.reason, /DNS failure/);
  assert.equal(unreachableReason(wrapped('CERT_HAS_EXPIRED'))?.code, 'CERT_HAS_EXPIRED');
  // Happy eyeballs: both addresses refused, as an AggregateError.
  const both = new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })], 'connect');
  assert.equal(unreachableReason(new Error('x', { cause: both }))?.code, 'ECONNREFUSED');
  assert.equal(unreachableReason(new Error('x', { cause: new Error('bad port') }))?.code, 'bad port');
  // A reset or a timeout after connecting may have reached the server.
  assert.equal(unreachableReason(wrapped('ECONNRESET')), undefined);
  assert.equal(unreachableReason(wrapped('ETIMEDOUT')), undefined);
  const loop: { cause?: unknown } = {};
  loop.cause = loop;
  assert.equal(unreachableReason(loop), undefined);
});

test('displayUrl drops credentials, query and fragment; a bad URL is not echoed', () => {
  assert.equal(displayUrl('https://u:p@host.example/v1/chat?key=abc#x'), 'https://host.example/v1/chat');
  assert.equal(displayUrl('not a url with sk-secret'), '(an invalid URL)');
});

test('parseRetryAfter: milliseconds header, seconds, HTTP date, garbage', () => {
  const h = (o: Record<string, string>) => (n: string) => o[n];
  assert.equal(parseRetryAfter(h({ 'retry-after-ms': '250', 'retry-after': '9' })), 250);
  assert.equal(parseRetryAfter(h({ 'retry-after': '3' })), 3000);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter(h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), now), 10_000);
  assert.equal(parseRetryAfter(h({ 'retry-after': 'soon' })), undefined);
  assert.equal(parseRetryAfter(h({})), undefined);
});

test('classifyHttpError: statuses and overflow messages', () => {
  assert.equal(classifyHttpError(403, 'forbidden').kind, 'auth');
  assert.equal(classifyHttpError(413, 'too big').kind, 'context-overflow');
  assert.equal(classifyHttpError(400, 'prompt is too long: 210000 tokens > 200000 maximum').kind, 'context-overflow');
  assert.equal(classifyHttpError(400, 'bad field').kind, 'bad-request');
  assert.equal(classifyHttpError(529, 'overloaded').kind, 'server');
  assert.equal(classifyHttpError(429, 'slow down', 1500).retryAfterMs, 1500);
  assert.equal(classifyHttpError(500, 'x', 1500).retryAfterMs, undefined);
  assert.equal(classifyHttpError(503, 'busy', 1500).retryAfterMs, 1500);
});
