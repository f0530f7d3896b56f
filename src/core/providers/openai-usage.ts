// The usage an OpenAI-compatible server reports, as ProviderUsage. Servers name the prompt cache's figures
// differently: OpenAI `prompt_tokens_details.cached_tokens`; OpenRouter adds `cache_write_tokens` there;
// DeepSeek `prompt_cache_hit_tokens`; LiteLLM passes Anthropic's `cache_read_input_tokens` and
// `cache_creation_input_tokens` through (and `prompt_tokens_details.cache_creation_tokens`). In all of them
// `prompt_tokens` is meant to be the whole prompt, but older LiteLLM versions left cache figures out of it
// (litellm-prompt.ts): a prompt smaller than its cache figures is rebuilt where certain, else left unknown
// (the agent then bills by its own count). A figure no field gives stays absent: unknown, never 0.
import type { ProviderUsage } from '../agent/provider';
import { wholePrompt } from '../cost/litellm-prompt';

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;

const first = (...values: unknown[]): number | undefined => values.map(count).find((v) => v !== undefined);

export function usageFromOpenAI(raw: unknown): ProviderUsage {
  const u = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  // No request has an empty prompt: a prompt of 0 is a server's placeholder (it counts nothing), and so
  // are its other figures then. Unknown, so the call is billed by our own count, not as free.
  if (count(u.prompt_tokens) === 0) return {};
  const details = (u.prompt_tokens_details ?? {}) as Record<string, unknown>;
  const usage: ProviderUsage = {};
  const cached = first(details.cached_tokens, u.prompt_cache_hit_tokens, u.cache_read_input_tokens);
  const written = first(details.cache_write_tokens, details.cache_creation_tokens, u.cache_creation_input_tokens);
  const prompt = count(u.prompt_tokens);
  const input = prompt === undefined ? undefined : wholePrompt(prompt, cached ?? 0, written ?? 0);
  if (input !== undefined) usage.inputTokens = input;
  const output = outputTokens(u);
  if (output !== undefined) usage.outputTokens = output;
  const reasoning = count((u.completion_tokens_details as Record<string, unknown> | undefined)?.reasoning_tokens);
  // A part of the output: never more than it.
  if (reasoning !== undefined && output !== undefined) usage.reasoningTokens = Math.min(reasoning, output);
  if (cached !== undefined) usage.cachedTokens = cached;
  if (written !== undefined) usage.cacheWriteTokens = written;
  return usage;
}

/**
 * Output tokens, reasoning included. OpenAI counts reasoning in `completion_tokens`; some adapters (Gemini
 * behind an OpenAI-compatible proxy) leave it out and count it only in `total_tokens` and
 * `reasoning_tokens`. Then the part of the total beyond prompt and completion, up to the reported reasoning,
 * is output too. Without a reasoning figure the excess is not taken: on a server whose `prompt_tokens`
 * leaves cache reads out, it would be input billed at the output price.
 */
function outputTokens(u: Record<string, unknown>): number | undefined {
  const completion = count(u.completion_tokens);
  if (completion === undefined) return undefined;
  const prompt = count(u.prompt_tokens) ?? 0;
  const total = count(u.total_tokens);
  const reasoning = count((u.completion_tokens_details as Record<string, unknown> | undefined)?.reasoning_tokens);
  if (total === undefined || reasoning === undefined) return completion;
  return completion + Math.min(Math.max(0, total - prompt - completion), reasoning);
}
