// Anthropic Messages API with `@anthropic-ai/sdk`: streaming text and tool use, prompt-cache breakpoints
// placed against the previous request of the same conversation (see anthropic-messages.ts).
import Anthropic from '@anthropic-ai/sdk';
import type { Message } from '../messages';
import type { ChatProvider, ChatRequest, ChatStreamEvent, ProviderUsage } from '../agent/provider';
import { ProviderError, classifyHttpError, connectionError, parseRetryAfter } from '../agent/errors';
import { toAnthropicRequest, toAnthropicTools } from './anthropic-messages';
import { endWatchingFetch, unfinished, watchingEnd, type EndWatch } from './sse-end';
import { malformedEvent, streamErrorEvent } from './anthropic-stream-errors';
import { trimTrailing } from '../trim';

/** The SDK's client, for the setup form's model list: one copy of the SDK, loaded with this module. */
export { Anthropic as AnthropicClient };

export interface AnthropicProviderOptions {
  apiKey: string;
  baseURL?: string;
  timeoutMs?: number;
  /** Anthropic requires max_tokens; default 8192. */
  defaultMaxOutputTokens?: number;
}

/** Any error from the SDK (or the network under it) as a classified ProviderError naming `url`. */
export function classifyAnthropicError(e: unknown, signal?: AbortSignal, url?: string): ProviderError {
  return classify(e, signal).at(url);
}

function classify(e: unknown, signal?: AbortSignal): ProviderError {
  if (e instanceof ProviderError) return e;
  if (signal?.aborted || e instanceof Anthropic.APIUserAbortError || (e instanceof Error && e.name === 'AbortError'))
    return new ProviderError({ kind: 'aborted', message: 'Stopped' }, { cause: e });
  if (e instanceof Anthropic.APIConnectionTimeoutError)
    return new ProviderError(
      { kind: 'timeout', message: `Anthropic did not answer in time: ${e.message}` },
      { cause: e },
    );
  if (e instanceof Anthropic.APIConnectionError) return connectionError(e, `Could not reach Anthropic (${e.message})`);
  if (e instanceof Anthropic.APIError && typeof e.status === 'number') {
    const headers = e.headers;
    const retryAfter = headers ? parseRetryAfter((n) => headers.get(n)) : undefined;
    // 529 "overloaded" is a server condition worth retrying like a 5xx.
    return classifyHttpError(e.status, e.message, retryAfter);
  }
  // Without a status: an `error` event in the stream, or an event the SDK could not parse.
  if (e instanceof Anthropic.APIError) return streamErrorEvent(e.type, e.error);
  if (e instanceof SyntaxError) return malformedEvent(e);
  return connectionError(e, e instanceof Error ? e.message : String(e));
}

export class AnthropicProvider implements ChatProvider {
  readonly id = 'anthropic';
  private readonly client: Anthropic;
  /** Where requests go (errors name it). */
  readonly url: string;
  /** Previous request per conversation, keyed by model and system prompt (a summary call has its own). */
  private readonly previous = new Map<string, { messages: readonly Message[]; breakpoints: readonly number[] }>();

  /** Sent when a request names no limit: a budget that leaves less lowers it (model-call.ts). */
  readonly defaultMaxOutputTokens: number;

  constructor(private readonly options: AnthropicProviderOptions) {
    this.defaultMaxOutputTokens = options.defaultMaxOutputTokens ?? 8192;
    this.client = new Anthropic({
      apiKey: options.apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      timeout: options.timeoutMs ?? 120_000,
      maxRetries: 0,
      fetch: endWatchingFetch(), // notes what a 200 answer's body is (an HTML page is no stream)
    });
    this.url = `${trimTrailing(this.client.baseURL, '/')}/v1/messages`;
  }

  async *chat(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    const key = `${request.model}\u0000${request.messages.find((m) => m.role === 'system')?.content ?? ''}`;
    const before = this.previous.get(key);
    const parts = toAnthropicRequest(request.messages, before?.messages, before?.breakpoints);
    this.previous.set(key, { messages: request.messages.slice(), breakpoints: parts.breakpoints });
    const tools = new Map<number, { id: string; name: string; json: string }>();
    let finish: string | undefined;
    let stopped = false;
    const end: EndWatch = { sawDone: false };
    const local = new AbortController();
    const onAbort = (): void => local.abort();
    if (request.signal.aborted) local.abort();
    else request.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const stream = await watchingEnd(end, () =>
        this.client.messages.create(
          {
            model: request.model,
            max_tokens: request.maxOutputTokens ?? this.defaultMaxOutputTokens,
            messages: parts.messages,
            ...(parts.system ? { system: parts.system } : {}),
            ...(request.tools.length > 0 ? { tools: toAnthropicTools(request.tools) } : {}),
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            stream: true,
          },
          { signal: local.signal },
        ),
      );
      const prompt = new PromptUsage();
      for await (const event of stream) {
        if (event.type === 'message_start') {
          // Some Anthropic-compatible servers send no usage: the answer still counts, by our own count.
          // Reported now: a call that fails mid-stream is billed by what the provider counted.
          if (prompt.add(event.message.usage)) yield { type: 'usage', usage: prompt.usage() };
        } else if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
          tools.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
        } else if (event.type === 'content_block_delta') {
          if (event.delta.type === 'text_delta') yield { type: 'text-delta', text: event.delta.text };
          else if (event.delta.type === 'input_json_delta') {
            const t = tools.get(event.index);
            if (t) t.json += event.delta.partial_json;
          }
        } else if (event.type === 'message_delta') {
          // Cumulative figures: a server that sent placeholders at the start sends the prompt here.
          if (prompt.add(event.usage)) yield { type: 'usage', usage: prompt.usage() };
          const output = (event.usage as Anthropic.MessageDeltaUsage | undefined)?.output_tokens;
          if (isCount(output)) {
            yield { type: 'usage', usage: { outputTokens: output } };
          }
          if (event.delta.stop_reason) finish = event.delta.stop_reason;
        } else if (event.type === 'message_stop') stopped = true;
      }
    } catch (e) {
      throw classifyAnthropicError(e, request.signal, this.url);
    } finally {
      request.signal.removeEventListener('abort', onAbort);
    }
    if (request.signal.aborted) throw new ProviderError({ kind: 'aborted', message: 'Stopped' });
    if (!stopped) throw unfinished(end, 'message_stop').at(this.url);
    for (const [, t] of [...tools.entries()].sort((a, b) => a[0] - b[0]))
      yield { type: 'tool-call', call: { id: t.id, name: t.name, arguments: t.json === '' ? '{}' : t.json } };
    if (finish) yield { type: 'finish', reason: finish };
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * The prompt side of a stream's usage: message_start's figures, then message_delta's (cumulative: the
 * last said are the call's). A figure that is no count is not taken; without an uncached input count
 * the prompt size is unknown (billed by our own count), never NaN.
 */
class PromptUsage {
  private input: number | undefined;
  private read = 0;
  private written = 0;

  /** True when `u` said something of the prompt. */
  add(raw: unknown): boolean {
    const u = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    let said = false;
    if (isCount(u.input_tokens)) [this.input, said] = [u.input_tokens, true];
    if (isCount(u.cache_read_input_tokens)) [this.read, said] = [u.cache_read_input_tokens, true];
    if (isCount(u.cache_creation_input_tokens)) [this.written, said] = [u.cache_creation_input_tokens, true];
    // A whole prompt of 0 is a placeholder (no request is empty): not yet said.
    return said && this.input !== undefined && this.input + this.read + this.written > 0;
  }

  usage(): ProviderUsage {
    return {
      inputTokens: this.input! + this.read + this.written,
      cachedTokens: this.read,
      cacheWriteTokens: this.written,
    };
  }
}
