// The provider port: one streaming chat completion with tool calls. OpenAI-compatible, Anthropic and
// (in the extension) vscode.lm implement it; the loop never sees a vendor type.
import type { Message, ToolCall } from '../messages';

/** A tool as every provider takes it: name, description, JSON Schema of the arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ChatRequest {
  model: string;
  /** What the strategy prepared for this call (`storedAt` is ours and never sent). */
  messages: readonly Message[];
  tools: readonly ToolSpec[];
  signal: AbortSignal;
  temperature?: number;
  /** At most this many output tokens: the provider stops the answer there (`finish` reports the cut). */
  maxOutputTokens?: number;
}

/** What the provider reported about the call; absent fields were not reported. */
export interface ProviderUsage {
  inputTokens?: number;
  outputTokens?: number;
  /** Input tokens served from the provider's prompt cache. */
  cachedTokens?: number;
  /** Input tokens written to the cache (Anthropic reports them). */
  cacheWriteTokens?: number;
  /**
   * Of `outputTokens`, those the model spent reasoning (OpenAI's `reasoning_tokens`): billed as output, never
   * sent back, so they take no room in the context.
   */
  reasoningTokens?: number;
}

export type ChatStreamEvent =
  | { type: 'text-delta'; text: string }
  /** A complete tool call; `arguments` is the raw JSON text the model produced, possibly malformed. */
  | { type: 'tool-call'; call: ToolCall }
  | { type: 'usage'; usage: ProviderUsage }
  | { type: 'finish'; reason: string };

export interface ChatProvider {
  /** For logs and session files, e.g. `openai-compatible` or `anthropic`. */
  readonly id: string;
  /** The output limit it sends when a request names none (Anthropic requires one); absent: none is sent. */
  readonly defaultMaxOutputTokens?: number;
  /** True when a request's `maxOutputTokens` cannot be passed on (vscode.lm): the loop cuts the stream. */
  readonly ignoresOutputLimit?: boolean;
  /**
   * Streams one completion. Throws `ProviderError` (classified) on failure, with kind `aborted` when
   * `signal` fired. Must stop reading the network as soon as the signal fires.
   */
  chat(request: ChatRequest): AsyncIterable<ChatStreamEvent>;
}

export interface ChatResult {
  text: string;
  toolCalls: ToolCall[];
  usage: ProviderUsage;
  finishReason?: string;
}

/**
 * Drains a stream into one result, reporting text deltas as they arrive. `result` is filled as events
 * arrive, so after a failure it holds what came before (usage the provider already reported, above all).
 */
export async function collectChat(
  stream: AsyncIterable<ChatStreamEvent>,
  onText?: (delta: string) => void,
  result: ChatResult = { text: '', toolCalls: [], usage: {} },
): Promise<ChatResult> {
  for await (const event of stream) {
    if (event.type === 'text-delta') {
      result.text += event.text;
      onText?.(event.text);
    } else if (event.type === 'tool-call') result.toolCalls.push(event.call);
    else if (event.type === 'usage') result.usage = { ...result.usage, ...event.usage };
    else result.finishReason = event.reason;
  }
  return result;
}

/** The stream, calling `first` before its first event (the moment a server is known to have answered). */
export async function* onFirst(
  stream: AsyncIterable<ChatStreamEvent>,
  first: () => void,
): AsyncIterable<ChatStreamEvent> {
  let seen = false;
  for await (const event of stream) {
    if (!seen) {
      seen = true;
      first();
    }
    yield event;
  }
}
