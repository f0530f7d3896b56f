// What an importer produces: the messages of a recorded run, the model calls made over them, and what
// the provider recorded about each call. Every format reads into this one shape.
import type { Message } from '../messages';

export type TrajectoryFormat =
  | 'mini-swe-agent'
  | 'swe-agent'
  | 'swe-agent-history'
  | 'openai-chat'
  | 'openai-jsonl'
  | 'openai-responses'
  | 'anthropic-request'
  | 'claude-code'
  | 'codex'
  | 'gemini-cli'
  | 'qwen-code'
  | 'openhands'
  | 'openhands-sdk'
  | 'cline'
  | 'aider'
  | 'context-desk';

/**
 * What the provider reported for one model call, normalised across providers. OpenAI counts cached
 * tokens inside its prompt tokens, Anthropic beside them: here `inputTokens` is always the whole prompt
 * (uncached + cache reads + cache writes) so that it compares with a computed context size.
 * Issue 14's per-call records (Context Desk's own history) fill the same shape.
 */
export interface RecordedUsage {
  /** The whole prompt the provider billed: uncached input + cache reads + cache writes. */
  inputTokens?: number;
  /** Prompt tokens read from the provider's cache. */
  cachedTokens?: number;
  /** Prompt tokens written to the provider's cache (Anthropic `cache_creation_input_tokens`). */
  cacheWriteTokens?: number;
  outputTokens?: number;
  /** Money the log recorded for this call (US dollars in every format read today). */
  cost?: number;
  /** Context Desk's own records: the tokens the agent counted as sent (its tokenizer, tools included). */
  sentTokens?: number;
  /** Context Desk's own records: the call's cost in units, recomputed from its figures and prices. */
  costUnits?: number;
  /**
   * The model whose units `costUnits` is in (one unit: one of its uncached input tokens); absent when the
   * record does not say (then its run's model, as the meter takes it).
   */
  costModel?: string;
  /** The log recorded token figures for this call that are not counts (negative, fractional, beyond 2^53): none is used. */
  unreadableTokens?: true;
  /**
   * LiteLLM left Anthropic cache tokens out of `prompt_tokens` (some versions did), and which ones is not
   * known: the prompt size is not given (`inputTokens` is absent), the other figures are.
   */
  promptSizeUnknown?: true;
}

/** Summarizer calls a log recorded beside the model calls (Context Desk's summary and hybrid). */
export interface RecordedSummaries {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /**
   * Cost units per model whose units they are: the agent model's for its own summaries, a separate summary
   * model's own when its price or the agent model's was not known (the record's `unitsOf`). `model` is
   * absent when the record does not say (then its run's model). Never added across models.
   */
  units: { model?: string; units: number }[];
  /** US dollars, when every one had a known price. */
  cost?: number;
}

/** A half-open range of message indices, `[from, to)`. */
export type MessageRange = readonly [from: number, to: number];

export interface ModelCall {
  /** The context this call sent: these message ranges, in order (one range unless the agent condensed). */
  context: readonly MessageRange[];
  /** Index of the assistant message the call produced; absent when the log kept no output (a rejected reply). */
  output?: number;
  recorded?: RecordedUsage;
  /** The provider's id of the response, where the log keeps it: how copies of a call in other logs are found. */
  responseId?: string;
  /**
   * Milliseconds that certainly passed between the previous call's prompt reaching the provider and this
   * call being sent (a lower bound from the log's times), where the log keeps times: past the cache's
   * lifetime, the previous call's cache entries are gone (cache-model.ts).
   */
  idleBefore?: number;
}

export interface Trajectory {
  /** Its path relative to the argument it was found under, plus `#n` when a file holds several. */
  id: string;
  /** The file it came from. */
  source: string;
  format: TrajectoryFormat;
  /** The model the log names for its calls (the first one named), when it names one: picks the cache model. */
  model?: string;
  messages: Message[];
  /**
   * The model calls. Absent: one call per assistant message, each sending every message before it
   * (see `callsOf`). Importers set it when context was reset (compaction) or a reply was not kept.
   */
  calls?: ModelCall[];
  /** Money the log recorded for the whole run, when it keeps only a total (US dollars). */
  recordedCost?: number;
  recordedSummaries?: RecordedSummaries;
  /** Records skipped by design, without a warning (record kinds a newer version of the tool writes). */
  ignoredRecords?: number;
  /** What was read differently or dropped, said once per kind (shown with the results). */
  warnings?: string[];
  /**
   * Media parts (images, audio, files) in its file counted as a one-word marker: the provider billed them
   * at a size replay does not know, so every token total over this run is a lower bound.
   */
  uncountedMedia?: number;
}

/** The calls of a trajectory: its own, or one per assistant message over every message before it. */
export function callsOf(t: Trajectory): ModelCall[] {
  if (t.calls) return t.calls;
  const calls: ModelCall[] = [];
  t.messages.forEach((m, i) => {
    if (m.role === 'assistant') calls.push({ context: [[0, i]], output: i });
  });
  return calls;
}

/** The messages a call sent, in order. */
export function contextOf(t: Trajectory, call: ModelCall): Message[] {
  if (call.context.length === 1) return t.messages.slice(call.context[0]![0], call.context[0]![1]);
  return call.context.flatMap(([from, to]) => t.messages.slice(from, to));
}
