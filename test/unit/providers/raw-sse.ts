// A loopback server that answers each request with the next raw SSE body, and the OpenAI chunks and
// Anthropic events to build them: for the providers' handling of streams as servers really send them (cut, odd, split).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderError } from '../../../src/core/agent/errors';
import { collectChat, type ChatProvider, type ChatResult } from '../../../src/core/agent/provider';
import { AnthropicProvider } from '../../../src/core/providers/anthropic';

/**
 * Serves each request the next body, written in `pieces` writes (so markers may be split), with `status`
 * and `contentType` (an event stream by default).
 */
export async function serve(
  bodies: string[],
  pieces = 1,
  { status = 200, contentType = 'text/event-stream' } = {},
): Promise<{ url: string; requests(): number; close(): Promise<void> }> {
  let n = 0;
  const s = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = bodies[n++] ?? '';
      res.writeHead(status, { 'content-type': contentType });
      const size = Math.ceil(body.length / pieces);
      for (let i = 0; i < body.length; i += size) res.write(body.slice(i, i + size));
      res.end();
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    requests: () => n,
    close: () => new Promise((r) => (s.closeAllConnections(), s.close(() => r()))),
  };
}

export async function chat(provider: ChatProvider): Promise<ChatResult | ProviderError> {
  const request = {
    model: 'm',
    messages: [{ role: 'user' as const, content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
  };
  return collectChat(provider.chat(request)).catch((e: unknown) => {
    if (e instanceof ProviderError) return e;
    throw e;
  });
}

const base = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm' };
/** One chunk of choice 0 (or `index`). */
export const oa = (delta: object, finish: string | null = null, index = 0): string =>
  `data: ${JSON.stringify({ ...base, choices: [{ index, delta, finish_reason: finish }] })}\n\n`;
export const oaUsage = `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } })}\n\n`;
export const DONE = 'data: [DONE]\n\n';

/** One Anthropic SSE event of `type` with `data`. */
export const an = (type: string, data: object = {}): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** What the Anthropic provider makes of `body` served once. */
export async function anthropic(body: string): Promise<ChatResult | ProviderError> {
  const s = await serve([body]);
  try {
    return await chat(new AnthropicProvider({ apiKey: 'k', baseURL: s.url, timeoutMs: 5000 }));
  } finally {
    await s.close();
  }
}
