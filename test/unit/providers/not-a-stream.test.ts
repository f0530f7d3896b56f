// What a provider's answer that is no event stream is said to be. A proxy or gateway in front of the API
// answers with its own HTML page (a 502 from nginx, a sign-in page with status 200), and some servers ignore
// `stream: true`: the panel says what came back, not a 3 KB page of markup or "the connection closed".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProviderError } from '../../../src/core/agent/errors';
import type { ChatProvider } from '../../../src/core/agent/provider';
import { AnthropicProvider } from '../../../src/core/providers/anthropic';
import { OpenAICompatibleProvider } from '../../../src/core/providers/openai';
import { chat, oa, serve } from './raw-sse';
import { harness } from '../agent/helpers';

const PAGE = (title: string): string =>
  `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${title}</title><style>body { font: 14px sans-serif }</style>` +
  `<script>var config = {"sso": true};</script></head><body><h1>${title}</h1><p>${'Please sign in to continue. '.repeat(100)}</p></body></html>`;

const providers: [string, (url: string) => ChatProvider][] = [
  ['OpenAI-compatible', (url) => new OpenAICompatibleProvider({ baseURL: url, timeoutMs: 5000 })],
  ['Anthropic', (url) => new AnthropicProvider({ apiKey: 'k', baseURL: url, timeoutMs: 5000 })],
];

async function answer(
  make: (url: string) => ChatProvider,
  body: string,
  head: { status?: number; contentType?: string },
): Promise<ProviderError> {
  const s = await serve([body], 1, head);
  try {
    const r = await chat(make(s.url));
    assert.ok(r instanceof ProviderError, `refused, not taken as an answer: ${JSON.stringify(r)}`);
    return r;
  } finally {
    await s.close();
  }
}

for (const [name, make] of providers) {
  test(`${name}: a 200 sign-in page is said as that page, by its title, and not retried as a broken connection`, async () => {
    const e = await answer(make, PAGE('Sign in - Example Corp SSO'), { contentType: 'text/html; charset=utf-8' });
    assert.equal(e.kind, 'bad-request', 'the same request gets the same page: not retried');
    assert.match(e.message, /text\/html, not an event stream: an HTML page \("Sign in - Example Corp SSO"\)/);
    assert.match(e.message, /base URL/);
    assert.doesNotMatch(e.message, /stream ended early|<|sso": true/);
  });

  test(`${name}: a server that ignores "stream": true is said to, and a JSON error in a 200 gives its message`, async () => {
    const whole = JSON.stringify({ id: 'x', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' } }] });
    const e = await answer(make, whole, { contentType: 'application/json' });
    assert.equal(e.kind, 'bad-request');
    assert.match(e.message, /application\/json, not an event stream: one JSON document: the server does not stream/);
    const error = await answer(make, JSON.stringify({ error: { message: 'model "x" is not allowed' } }), {
      contentType: 'application/json',
    });
    assert.match(error.message, /an error in JSON \("model "x" is not allowed"\)/);
  });

  test(`${name}: a gateway's HTML error page is said by its title, in a short message`, async () => {
    const e = await answer(make, PAGE('502 Bad Gateway'), { status: 502, contentType: 'text/html' });
    assert.equal(e.kind, 'server', 'still retried like any 5xx');
    assert.equal(e.status, 502);
    assert.match(e.message, /\(HTTP 502\): an HTML page \("502 Bad Gateway"\)$/);
    assert.ok(e.message.length < 200, `${e.message.length} characters`);
  });
}

test('OpenAI-compatible: an event that is not valid JSON is a server fault, said so; a cut stream stays a cut stream', async () => {
  const e = await answer(providers[0]![1], 'data: {"id":"x","choices":[{"index":0,"delta":{"content":"hi"}\n\n', {});
  assert.equal(e.kind, 'server');
  assert.match(e.message, /^The provider sent an event that is not valid JSON \(/);
  // A server may label a real stream text/plain: cut short, it is still retried as a broken connection.
  const cut = await answer(providers[0]![1], oa({ role: 'assistant', content: 'Half an' }), {
    contentType: 'text/plain',
  });
  assert.equal(cut.kind, 'network');
  assert.match(cut.message, /stream ended early/);
});

test('the agent asks a sign-in page once and stops with what it was', async (t) => {
  const s = await serve([PAGE('Sign in'), PAGE('Sign in'), PAGE('Sign in')], 1, { contentType: 'text/html' });
  t.after(() => s.close());
  const h = await harness([], { provider: new OpenAICompatibleProvider({ baseURL: s.url, timeoutMs: 5000 }) });
  t.after(() => h.close());
  assert.equal(await h.agent.send('Hello'), 'error');
  assert.equal(s.requests(), 1, 'no retries: the same request gets the same page');
  const stopped = h.events.find((e) => e.type === 'stopped');
  assert.match(stopped?.type === 'stopped' ? stopped.message : '', /an HTML page \("Sign in"\)/);
});
