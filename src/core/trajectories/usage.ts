// Provider usage objects, normalised to RecordedUsage. OpenAI chat (`prompt_tokens`, cached tokens
// inside it), the Responses API (`input_tokens` with `input_tokens_details.cached_tokens` inside it) and
// Anthropic (`input_tokens` beside `cache_read_input_tokens` and `cache_creation_input_tokens`) differ in
// whether cached tokens are part of the input; the result always counts the whole prompt.
import { isObject, optionalNumber } from './json';
import type { RecordedUsage } from './types';

function set<K extends keyof RecordedUsage>(u: RecordedUsage, k: K, v: number | undefined): void {
  if (v !== undefined) u[k] = v;
}

/** Reads any of the three usage shapes; undefined when it is none of them. */
export function usageFrom(v: unknown): RecordedUsage | undefined {
  if (!isObject(v)) return undefined;
  const u: RecordedUsage = {};
  const prompt = optionalNumber(v.prompt_tokens);
  const input = optionalNumber(v.input_tokens);
  const cacheRead = optionalNumber(v.cache_read_input_tokens);
  const cacheWrite = optionalNumber(v.cache_creation_input_tokens);
  if (prompt !== undefined) {
    // OpenAI chat (and LiteLLM's rendering of every provider): the prompt includes cached tokens.
    const details = isObject(v.prompt_tokens_details) ? v.prompt_tokens_details : undefined;
    u.inputTokens = prompt;
    set(u, 'cachedTokens', optionalNumber(details?.cached_tokens) ?? cacheRead);
    set(u, 'cacheWriteTokens', optionalNumber(details?.cache_write_tokens) ?? cacheWrite);
    set(u, 'outputTokens', optionalNumber(v.completion_tokens));
  } else if (input !== undefined && (cacheRead !== undefined || cacheWrite !== undefined)) {
    // Anthropic: cache reads and writes are billed beside `input_tokens`.
    u.inputTokens = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
    set(u, 'cachedTokens', cacheRead);
    set(u, 'cacheWriteTokens', cacheWrite);
    set(u, 'outputTokens', optionalNumber(v.output_tokens));
  } else if (input !== undefined) {
    // Responses API (cached tokens inside the input) or Anthropic without caching: the same thing.
    const details = isObject(v.input_tokens_details) ? v.input_tokens_details : undefined;
    u.inputTokens = input;
    set(u, 'cachedTokens', optionalNumber(details?.cached_tokens) ?? optionalNumber(v.cached_input_tokens));
    set(u, 'outputTokens', optionalNumber(v.output_tokens));
  } else {
    set(u, 'outputTokens', optionalNumber(v.completion_tokens) ?? optionalNumber(v.output_tokens));
  }
  set(u, 'cost', optionalNumber(v.cost));
  return Object.keys(u).length > 0 ? u : undefined;
}
