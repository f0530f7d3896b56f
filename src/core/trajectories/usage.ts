// Provider usage objects, normalised to RecordedUsage. OpenAI chat (`prompt_tokens`, cached tokens
// inside it), the Responses API (`input_tokens` with `input_tokens_details.cached_tokens` inside it) and
// Anthropic (`input_tokens` beside `cache_read_input_tokens` and `cache_creation_input_tokens`) differ in
// whether cached tokens are part of the input; the result always counts the whole prompt.
import { BAD_COUNT, isObject, optionalCount, optionalNumber, type JsonObject } from './json';
import type { RecordedUsage } from './types';
import { wholePrompt } from '../cost/litellm-prompt';

type Figure = Exclude<keyof RecordedUsage, 'unreadableTokens' | 'promptSizeUnknown' | 'costModel'>;

function set(u: RecordedUsage, k: Figure, v: number | undefined): void {
  if (v !== undefined) u[k] = v;
}

/**
 * Reads any of the three usage shapes; undefined when it is none of them. A record with a figure that
 * is not a token count (negative, fractional, absurd) gives no token figures at all (its money is kept):
 * the call then counts as one whose usage was not recorded, never with a wrong prompt size.
 */
export function usageFrom(v: unknown): RecordedUsage | undefined {
  if (!isObject(v)) return undefined;
  const u: RecordedUsage = {};
  const tokens = tokenFigures(v);
  if (tokens) {
    const { prompt, input, cacheRead, cacheWrite } = tokens;
    if (prompt !== undefined) {
      // OpenAI chat (and LiteLLM's rendering of every provider): the prompt includes cached tokens.
      const whole = wholePrompt(prompt, cacheRead ?? 0, cacheWrite ?? 0);
      if (whole !== undefined) u.inputTokens = whole;
      else u.promptSizeUnknown = true;
      set(u, 'cachedTokens', tokens.promptCached ?? cacheRead);
      set(u, 'cacheWriteTokens', tokens.promptCacheWrite ?? cacheWrite);
      set(u, 'outputTokens', tokens.completion);
    } else if (input !== undefined && (cacheRead !== undefined || cacheWrite !== undefined)) {
      // Anthropic: cache reads and writes are billed beside `input_tokens`.
      u.inputTokens = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
      set(u, 'cachedTokens', cacheRead);
      set(u, 'cacheWriteTokens', cacheWrite);
      set(u, 'outputTokens', tokens.output);
    } else if (input !== undefined) {
      // Responses API (cached tokens inside the input) or Anthropic without caching: the same thing.
      u.inputTokens = input;
      set(u, 'cachedTokens', tokens.inputCached ?? tokens.cachedInput);
      set(u, 'outputTokens', tokens.output);
    } else {
      set(u, 'outputTokens', tokens.completion ?? tokens.output);
    }
  } else u.unreadableTokens = true;
  set(u, 'cost', optionalNumber(v.cost));
  return Object.keys(u).length > 0 ? u : undefined;
}

/** Every token figure a usage object may hold; undefined when one of them is not a count. */
type TokenFigures = Record<
  | 'prompt'
  | 'input'
  | 'cacheRead'
  | 'cacheWrite'
  | 'completion'
  | 'output'
  | 'promptCached'
  | 'promptCacheWrite'
  | 'inputCached'
  | 'cachedInput',
  number | undefined
>;

function tokenFigures(v: JsonObject): TokenFigures | undefined {
  const promptDetails = isObject(v.prompt_tokens_details) ? v.prompt_tokens_details : undefined;
  const inputDetails = isObject(v.input_tokens_details) ? v.input_tokens_details : undefined;
  const figures: Record<keyof TokenFigures, ReturnType<typeof optionalCount>> = {
    prompt: optionalCount(v.prompt_tokens),
    input: optionalCount(v.input_tokens),
    cacheRead: optionalCount(v.cache_read_input_tokens),
    cacheWrite: optionalCount(v.cache_creation_input_tokens),
    completion: optionalCount(v.completion_tokens),
    output: optionalCount(v.output_tokens),
    promptCached: optionalCount(promptDetails?.cached_tokens),
    promptCacheWrite: optionalCount(promptDetails?.cache_write_tokens),
    inputCached: optionalCount(inputDetails?.cached_tokens),
    cachedInput: optionalCount(v.cached_input_tokens),
  };
  return Object.values(figures).includes(BAD_COUNT) ? undefined : (figures as TokenFigures);
}
