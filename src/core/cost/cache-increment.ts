// OpenAI serves a cached prompt prefix in steps: from 1,024 tokens on, in increments of 128 tokens
// (its prompt-caching guide; "cache hits occurring in increments of 128 tokens", Prompt Caching 201). A
// shared prefix of 1,500 tokens is read as 1,408 cached, the other 92 billed uncached. No other provider
// we bill states such a step for its prefix cache (Anthropic reads at its breakpoints), so only OpenAI's
// own models get one: counting a whole shared prefix as read would put their cost too low.
import { normalizeModelName } from './prices';

export const OPENAI_CACHE_INCREMENT = 128;

/** OpenAI's model families (gpt-oss is open weights, served by others). */
const OPENAI_MODEL = /^(?:gpt-(?!oss)|o[1-9](?:-|$)|chatgpt-|codex-)/;

/** The step a model's provider caches a prefix in, when it states one (OpenAI's models: 128 tokens). */
export function cacheIncrementOf(model: string): number | undefined {
  return OPENAI_MODEL.test(normalizeModelName(model)) ? OPENAI_CACHE_INCREMENT : undefined;
}
