// A real OpenAI-compatible HTTP server on loopback, driven by a script of steps, that records every
// request. Unit tests import it; integration and e2e tests start it as a process:
//   tsx test/support/scripted-model-server.ts --script FILE.json [--port N]
// which prints `listening on http://127.0.0.1:PORT`.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

export interface ScriptToolCall {
  name: string;
  /** An object is sent as its JSON text; a string is sent verbatim (use it for malformed JSON). */
  arguments: string | Record<string, unknown>;
  id?: string;
}

export interface ReplyStep {
  reply: { text?: string; toolCalls?: ScriptToolCall[] };
  /** Usage to report; default: prompt chars/4 and completion chars/4. */
  usage?: { promptTokens?: number; completionTokens?: number; cachedTokens?: number };
  /** A usage object sent as it is (a server's own field names), instead of the one `usage` builds. */
  rawUsage?: Record<string, unknown>;
  /** Delay between streamed chunks (ms). */
  chunkDelayMs?: number;
  /**
   * Honour the request's `max_completion_tokens` or `max_tokens` as a real server does: an answer longer
   * (completion tokens) is cut there (text first, then the tool calls' arguments, cut mid-way) and ends
   * with `length`; the usage reports the cap.
   */
  honourMaxTokens?: boolean;
  /**
   * Send each tool call whole in one chunk instead of split by index: without `index` (older Ollama) or
   * every call at `index: 0` (Ollama 0.20).
   */
  wholeToolCalls?: boolean | 'at-index-0';
  /** Repeat the call's name in every chunk of its arguments (as some servers do). */
  repeatNames?: boolean;
  /** Split each call in pieces without `index`, every piece repeating the call's id (as some servers do). */
  unindexedPieces?: boolean;
}

export type FaultStep =
  | { fault: 'rate-limit'; retryAfter?: number }
  | { fault: 'server-error'; status?: number; message?: string; retryAfter?: number }
  | { fault: 'malformed-tool-call'; name?: string }
  | { fault: 'context-overflow' }
  | { fault: 'auth' }
  /** Streams `text` (if any), then never ends the response until the client goes away. */
  | { fault: 'hang'; text?: string }
  /** Closes the connection without any answer (the client sees a reset socket). */
  | { fault: 'disconnect' }
  /** Streams `text`, the usage when `usage` is given, then an error inside the stream (no HTTP status). */
  | {
      fault: 'mid-stream-error';
      text?: string;
      usage?: { promptTokens: number; completionTokens: number };
      /** Sent as the usage object instead of one built from `usage`. */
      rawUsage?: Record<string, unknown>;
    };

export type RecordedRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: ChatBody | undefined;
  at: number;
};

export interface ChatBody {
  model?: string;
  stream?: boolean;
  messages: {
    role: string;
    content: string | null;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: { function: { name: string } }[];
  [key: string]: unknown;
}

export type ScriptStep = ReplyStep | FaultStep | ((request: ChatBody, index: number) => ReplyStep | FaultStep);

export interface ScriptedServer {
  url: string;
  /** `${url}/v1`, the base URL for the openai SDK. */
  baseURL: string;
  port: number;
  /** Every request received, in order (chat completions and model lists). */
  requests: RecordedRequest[];
  /** Chat completion bodies only. */
  chatRequests(): ChatBody[];
  /** Steps consumed so far. */
  readonly stepsUsed: number;
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function promptChars(body: ChatBody): number {
  return JSON.stringify(body.messages).length;
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

function errorBody(message: string, type: string, code?: string): unknown {
  return { error: { message, type, ...(code ? { code } : {}) } };
}

/** The request's output limit, when the step honours one. */
function maxTokens(body: ChatBody, step: ReplyStep): number | undefined {
  if (!step.honourMaxTokens) return undefined;
  const limit = body.max_completion_tokens ?? body.max_tokens;
  return typeof limit === 'number' ? limit : undefined;
}

async function reply(
  res: http.ServerResponse,
  body: ChatBody,
  step: ReplyStep,
  n: number,
  closed: () => boolean,
): Promise<void> {
  let text = step.reply.text ?? '';
  let calls = (step.reply.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${n}_${i}`,
    name: c.name,
    arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
  }));
  const built = {
    prompt_tokens: step.usage?.promptTokens ?? Math.ceil(promptChars(body) / 4),
    completion_tokens: step.usage?.completionTokens ?? Math.ceil((text.length + JSON.stringify(calls).length) / 4),
    ...(step.usage?.cachedTokens !== undefined
      ? { prompt_tokens_details: { cached_tokens: step.usage.cachedTokens } }
      : {}),
  };
  let cut = false;
  const limit = maxTokens(body, step);
  if (limit !== undefined && built.completion_tokens > limit) {
    // Cut at `limit` tokens of 4 characters: the text, then the calls' arguments (the last one half written).
    cut = true;
    built.completion_tokens = limit;
    let chars = limit * 4;
    text = text.slice(0, chars);
    chars -= text.length;
    const kept: typeof calls = [];
    for (const c of calls) {
      if (chars <= 0) break;
      kept.push({ ...c, arguments: c.arguments.slice(0, chars) });
      chars -= c.arguments.length;
    }
    calls = kept;
  }
  const usage = step.rawUsage ?? { ...built, total_tokens: built.prompt_tokens + built.completion_tokens };
  const finish = cut ? 'length' : calls.length > 0 ? 'tool_calls' : 'stop';
  const id = `chatcmpl-${n}`;
  const base = { id, object: 'chat.completion.chunk', created: 0, model: body.model ?? 'scripted' };
  if (!body.stream) {
    const message = {
      role: 'assistant',
      content: text || null,
      ...(calls.length > 0
        ? {
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : {}),
    };
    sendJson(res, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = async (chunk: unknown): Promise<void> => {
    if (closed()) return;
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    if (step.chunkDelayMs) await sleep(step.chunkDelayMs);
  };
  await send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  // Text in a few pieces, tool-call arguments split in two, as real servers stream them.
  for (const piece of text.match(/[\s\S]{1,16}/g) ?? [])
    await send({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  const delta = (tool: Record<string, unknown>): Promise<void> =>
    send({ ...base, choices: [{ index: 0, delta: { tool_calls: [tool] }, finish_reason: null }] });
  for (const [i, c] of calls.entries()) {
    const fn = { name: c.name, arguments: c.arguments };
    if (step.wholeToolCalls) {
      // Ollama style: each call complete in one chunk.
      await delta({
        ...(step.wholeToolCalls === 'at-index-0' ? { index: 0 } : {}),
        id: c.id,
        type: 'function',
        function: fn,
      });
      continue;
    }
    const half = Math.ceil(c.arguments.length / 2);
    const at = step.unindexedPieces ? {} : { index: i };
    await delta({ ...at, id: c.id, type: 'function', function: { ...fn, arguments: c.arguments.slice(0, half) } });
    const name = step.repeatNames ? { name: c.name } : {};
    const id = step.unindexedPieces ? { id: c.id, type: 'function' } : {};
    await delta({ ...at, ...id, function: { ...name, arguments: c.arguments.slice(half) } });
  }
  await send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
  if (body.stream_options && (body.stream_options as { include_usage?: boolean }).include_usage)
    await send({ ...base, choices: [], usage });
  if (!closed()) res.end('data: [DONE]\n\n');
}

export async function startScriptedModelServer(
  script: readonly ScriptStep[],
  options: { port?: number } = {},
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  let next = 0;
  const open = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '/').split('?')[0]!;
        let body: ChatBody | undefined;
        if (chunks.length > 0) {
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
          } catch {
            requests.push({ method: req.method ?? '', path, headers: req.headers, body: undefined, at: Date.now() });
            return sendJson(res, 400, errorBody('The request body is not JSON', 'invalid_request_error'));
          }
        }
        requests.push({ method: req.method ?? '', path, headers: req.headers, body, at: Date.now() });
        if (req.method === 'GET' && path === '/v1/models')
          return sendJson(res, 200, {
            object: 'list',
            data: [{ id: 'scripted', object: 'model', created: 0, owned_by: 'test' }],
          });
        if (req.method !== 'POST' || path !== '/v1/chat/completions')
          return sendJson(res, 404, errorBody(`No route ${req.method} ${path}`, 'not_found'));
        if (!body || !Array.isArray(body.messages))
          return sendJson(res, 400, errorBody('"messages" must be an array', 'invalid_request_error'));
        const index = next++;
        const raw = script[index];
        if (raw === undefined)
          return sendJson(
            res,
            500,
            errorBody(`The script has only ${script.length} steps; request ${index + 1} has none`, 'script_exhausted'),
          );
        const step = typeof raw === 'function' ? raw(body, index) : raw;
        let closed = false;
        res.on('close', () => {
          closed = true;
          open.delete(res);
        });
        open.add(res);
        if ('reply' in step) return reply(res, body, step, index, () => closed);
        switch (step.fault) {
          case 'rate-limit':
            return sendJson(res, 429, errorBody('Rate limit reached', 'rate_limit_exceeded'), {
              'retry-after': String(step.retryAfter ?? 1),
            });
          case 'server-error':
            return sendJson(
              res,
              step.status ?? 500,
              errorBody(step.message ?? 'Internal server error', 'server_error'),
              step.retryAfter !== undefined ? { 'retry-after': String(step.retryAfter) } : {},
            );
          case 'disconnect':
            req.socket.destroy();
            return;
          case 'mid-stream-error': {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            const chunk = (value: unknown): boolean => res.write(`data: ${JSON.stringify(value)}\n\n`);
            const base = { id: 'e', object: 'chat.completion.chunk', created: 0, model: 'scripted' };
            chunk({
              ...base,
              choices: [{ index: 0, delta: { content: step.text ?? 'Working' }, finish_reason: null }],
            });
            if (step.usage || step.rawUsage)
              chunk({
                ...base,
                choices: [],
                usage: step.rawUsage ?? {
                  prompt_tokens: step.usage!.promptTokens,
                  completion_tokens: step.usage!.completionTokens,
                  total_tokens: step.usage!.promptTokens + step.usage!.completionTokens,
                },
              });
            chunk({ error: { message: 'The model crashed mid-answer', type: 'server_error' } });
            return res.end();
          }
          case 'auth':
            return sendJson(
              res,
              401,
              errorBody('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'),
            );
          case 'context-overflow':
            return sendJson(
              res,
              400,
              errorBody(
                "This model's maximum context length is 8192 tokens",
                'invalid_request_error',
                'context_length_exceeded',
              ),
            );
          case 'malformed-tool-call':
            return reply(
              res,
              body,
              { reply: { toolCalls: [{ name: step.name ?? 'read_file', arguments: '{"path": "src/a.ts", ' }] } },
              index,
              () => closed,
            );
          case 'hang':
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            if (step.text)
              res.write(
                `data: ${JSON.stringify({ id: 'h', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [{ index: 0, delta: { content: step.text }, finish_reason: null }] })}\n\n`,
              );
            return; // until the client aborts
        }
      })().catch((e: unknown) => {
        if (!res.headersSent) sendJson(res, 500, errorBody(String(e), 'server_error'));
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    port,
    requests,
    chatRequests: () => requests.filter((r) => r.path === '/v1/chat/completions' && r.body).map((r) => r.body!),
    get stepsUsed() {
      return next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a JSON script file: `{ "steps": [...] }` or a bare array of steps. */
export function loadScript(file: string): ScriptStep[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`Cannot read the script ${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const steps = Array.isArray(parsed) ? parsed : (parsed as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps)) throw new Error(`The script ${file} must be an array of steps or { "steps": [...] }`);
  steps.forEach((s: unknown, i) => {
    const o = s as Record<string, unknown> | null;
    if (!o || typeof o !== 'object' || (!('reply' in o) && !('fault' in o)))
      throw new Error(`Step ${i + 1} of ${file} needs "reply" or "fault"`);
  });
  return steps as ScriptStep[];
}

if (require.main === module) {
  const { values } = parseArgs({ options: { script: { type: 'string' }, port: { type: 'string' } } });
  if (!values.script) {
    console.error('usage: tsx test/support/scripted-model-server.ts --script FILE.json [--port N]');
    process.exit(2);
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be an integer 0-65535, got ${values.port}`);
    process.exit(2);
  }
  startScriptedModelServer(loadScript(values.script), { port }).then(
    (s) => {
      console.log(`listening on ${s.url}`);
      const stop = (): void => void s.close().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    },
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    },
  );
}
