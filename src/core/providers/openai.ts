// OpenAI-compatible chat completions with the `openai` SDK: OpenAI, Ollama (the default base URL), vLLM,
// LM Studio, llama.cpp server. Streams text and tool calls; errors become classified ProviderErrors.
import OpenAI from 'openai';
import type { ChatProvider, ChatRequest, ChatStreamEvent } from '../agent/provider';
import {
  ProviderError,
  classifyHttpError,
  connectionError,
  describeKind,
  parseRetryAfter,
  saysOverflow,
} from '../agent/errors';
import { toOpenAIMessages, toOpenAITools } from './openai-messages';
import { endWatchingFetch, unfinished, watchingEnd, type EndWatch } from './sse-end';
import { usageFromOpenAI } from './openai-usage';
import { maxTokensField } from './openai-max-tokens';
import { trimTrailing } from '../trim';

/** The SDK's client, for the setup form's model list: one copy of the SDK, loaded with this module. */
export { OpenAI as OpenAIClient };

export const DEFAULT_OPENAI_BASE_URL = 'http://127.0.0.1:11434/v1';
const UNINDEXED = 1_000_000;

export interface OpenAIProviderOptions {
  baseURL?: string;
  /** Local servers ignore it; the SDK needs a non-empty string. */
  apiKey?: string;
  /** Per request, default 120 s. */
  timeoutMs?: number;
  /** Extra headers (e.g. an OpenRouter referer). */
  headers?: Record<string, string>;
}

/** Any error from the SDK (or the network under it) as a classified ProviderError naming `url`. */
export function classifyOpenAIError(e: unknown, signal?: AbortSignal, url?: string): ProviderError {
  return classify(e, signal).at(url);
}

function classify(e: unknown, signal?: AbortSignal): ProviderError {
  if (e instanceof ProviderError) return e;
  if (signal?.aborted || e instanceof OpenAI.APIUserAbortError || (e instanceof Error && e.name === 'AbortError'))
    return new ProviderError({ kind: 'aborted', message: 'Stopped' }, { cause: e });
  if (e instanceof OpenAI.APIConnectionTimeoutError)
    return new ProviderError(
      { kind: 'timeout', message: `The provider did not answer in time: ${e.message}` },
      { cause: e },
    );
  if (e instanceof OpenAI.APIConnectionError)
    return connectionError(
      e,
      `Could not reach the provider; check the base URL and that the server runs (${e.message})`,
    );
  if (e instanceof OpenAI.APIError && typeof e.status === 'number') {
    const headers = e.headers;
    const retryAfter = headers ? parseRetryAfter((n) => headers.get(n)) : undefined;
    const body = e.error as { message?: unknown; code?: unknown } | undefined;
    const detail = [
      typeof body?.message === 'string' ? body.message : e.message,
      typeof body?.code === 'string' ? body.code : '',
    ]
      .filter(Boolean)
      .join(' ');
    return classifyHttpError(e.status, detail, retryAfter);
  }
  const message = e instanceof Error ? e.message : String(e);
  // The SDK parses each event's JSON: a broken one is the server's fault, not the network's.
  if (e instanceof SyntaxError)
    return new ProviderError(
      { kind: 'server', message: `The provider sent an event that is not valid JSON (${message})` },
      { cause: e },
    );
  // An error inside an SSE stream has no status: the server's, unless it says the prompt is over the window
  // (vLLM and LiteLLM say so mid-stream), which only the filtered retry can help.
  if (e instanceof OpenAI.APIError) {
    const code = (e.error as { code?: unknown } | undefined)?.code;
    const overflow = code === 'context_length_exceeded' || saysOverflow(message);
    const kind = overflow ? 'context-overflow' : 'server';
    return new ProviderError({ kind, message: `${describeKind(kind)} (mid-answer): ${message}` }, { cause: e });
  }
  return connectionError(e, message);
}

export class OpenAICompatibleProvider implements ChatProvider {
  readonly id = 'openai-compatible';
  private readonly client: OpenAI;
  /** Where chat requests go (errors name it). */
  readonly url: string;

  constructor(options: OpenAIProviderOptions = {}) {
    this.client = new OpenAI({
      baseURL: options.baseURL ?? DEFAULT_OPENAI_BASE_URL,
      apiKey: options.apiKey || 'not-needed',
      timeout: options.timeoutMs ?? 120_000,
      maxRetries: 0, // the loop retries, with events the user sees
      fetch: endWatchingFetch(),
      ...(options.headers ? { defaultHeaders: options.headers } : {}),
    });
    this.url = `${trimTrailing(this.client.baseURL, '/')}/chat/completions`;
  }

  async *chat(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    // Calls in the order they began; `order` is the wire index (unindexed calls after the indexed ones).
    const calls = new Map<number, { order: number; id: string; name: string; arguments: string }>();
    const byIndex = new Map<number, number>();
    let lastKey = 0;
    let finish: string | undefined;
    let refused = false;
    let choiceIndex: number | undefined;
    const end: EndWatch = { sawDone: false };
    // A per-call signal: the SDK leaves a listener on the signal it gets, and a session's signal lives long.
    const local = new AbortController();
    const onAbort = (): void => local.abort();
    if (request.signal.aborted) local.abort();
    else request.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const stream = await watchingEnd(end, () =>
        this.client.chat.completions.create(
          {
            model: request.model,
            messages: toOpenAIMessages(request.messages),
            ...(request.tools.length > 0 ? { tools: toOpenAITools(request.tools) } : {}),
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            ...(request.maxOutputTokens !== undefined
              ? { [maxTokensField(this.client.baseURL, request.model)]: request.maxOutputTokens }
              : {}),
            stream: true,
            stream_options: { include_usage: true },
          },
          { signal: local.signal },
        ),
      );
      for await (const chunk of stream) {
        if (chunk.usage) yield { type: 'usage', usage: usageFromOpenAI(chunk.usage) };
        // One answer: the first choice seen (a server that ignores n=1 must not mix a second one into it).
        choiceIndex ??= chunk.choices[0]?.index;
        const choice = chunk.choices.find((c) => (c.index ?? 0) === (choiceIndex ?? 0));
        if (!choice) continue;
        if (choice.delta.content) yield { type: 'text-delta', text: choice.delta.content };
        // A refusal comes as its own text: it is the answer the user sees, reported as a `refusal` end.
        if (choice.delta.refusal) {
          refused = true;
          yield { type: 'text-delta', text: choice.delta.refusal };
        }
        for (const d of choice.delta.tool_calls ?? []) {
          // Some servers send each call whole, without `index` or (Ollama) all at index 0: a new id starts a
          // new call, so parallel calls are never merged into one. A chunk without `index` that repeats the
          // open call's id (or has none) goes on with that call.
          const wire = typeof d.index === 'number' ? d.index : undefined;
          let key = wire !== undefined ? byIndex.get(wire) : calls.size === 0 ? undefined : lastKey;
          const open = key === undefined ? undefined : calls.get(key);
          if (key === undefined || (d.id && open?.id && d.id !== open.id)) {
            key = calls.size;
            calls.set(key, { order: wire ?? UNINDEXED, id: '', name: '', arguments: '' });
            if (wire !== undefined) byIndex.set(wire, key);
          }
          lastKey = key;
          const c = calls.get(key)!;
          if (d.id) c.id = d.id;
          // A name is sent once, or in pieces; some servers repeat it whole in every chunk.
          const name = d.function?.name;
          if (name && name !== c.name) c.name += name;
          // Some servers send the arguments as the JSON object itself rather than its text.
          const args: unknown = d.function?.arguments;
          if (typeof args === 'string') c.arguments += args;
          else if (args !== undefined && args !== null) c.arguments += JSON.stringify(args);
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    } catch (e) {
      throw classifyOpenAIError(e, request.signal, this.url);
    } finally {
      request.signal.removeEventListener('abort', onAbort);
    }
    if (request.signal.aborted) throw new ProviderError({ kind: 'aborted', message: 'Stopped' });
    // Either marks a complete answer: some servers send a finish_reason and no [DONE], a few the reverse.
    if (finish === undefined && !end.sawDone) throw unfinished(end, 'finish_reason or [DONE]').at(this.url);
    let n = 0;
    for (const c of [...calls.entries()].sort((a, b) => a[1].order - b[1].order || a[0] - b[0]).map(([, v]) => v))
      yield {
        type: 'tool-call',
        call: { id: c.id || `call_${Date.now().toString(36)}_${n++}`, name: c.name, arguments: c.arguments },
      };
    if (refused) yield { type: 'finish', reason: 'refusal' };
    else if (finish) yield { type: 'finish', reason: finish };
  }
}
