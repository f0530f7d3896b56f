// The most output tokens a model writes in one answer, as its provider publishes it, for the output cap
// of a call under a hard budget (output-cap.ts). An OpenAI-compatible server sends no limit of its own, so
// without one the model writes up to this: a 30,000-token hard budget let 34,143 through with
// 12,000-token answers. A server refuses a larger limit than the model's with a 400, so an entry must not
// be above the real figure; one below it only cuts the rare longer answer (where unsure, the lower one).
import { matchModelKey } from '../cost/prices';

/** OpenAI: platform.openai.com/docs/models; Anthropic: its models overview; DeepSeek, Google: their API docs. */
const MAX_OUTPUT: Readonly<Record<string, number>> = {
  'gpt-3.5-turbo': 4096,
  'gpt-4': 8192,
  'gpt-4-turbo': 4096,
  'gpt-4o': 16_384,
  // The first snapshot writes at most 4,096 (later ones 16,384).
  'gpt-4o-2024-05-13': 4096,
  'gpt-4o-mini': 16_384,
  'gpt-4.1': 32_768,
  'gpt-4.1-mini': 32_768,
  'gpt-4.1-nano': 32_768,
  'gpt-5': 128_000,
  'gpt-5-mini': 128_000,
  'gpt-5-nano': 128_000,
  'gpt-5-codex': 128_000,
  'gpt-5.1': 128_000,
  o1: 100_000,
  'o1-mini': 65_536,
  o3: 100_000,
  'o3-mini': 100_000,
  'o4-mini': 100_000,
  'claude-opus-4': 32_000,
  'claude-opus-4-1': 32_000,
  'claude-opus-4-5': 64_000,
  'claude-opus-4-6': 64_000,
  'claude-sonnet-4': 64_000,
  'claude-sonnet-4-5': 64_000,
  'claude-haiku-4-5': 64_000,
  'claude-3-5-haiku': 8192,
  'deepseek-chat': 8192,
  'deepseek-reasoner': 64_000,
  'gemini-2.5-pro': 65_536,
  'gemini-2.5-flash': 65_536,
};

const KEYS = Object.keys(MAX_OUTPUT);

/** The model's own output limit, matched by name as prices are (`openai/gpt-4.1`, dated snapshots); else undefined. */
export function modelOutputLimit(model: string): number | undefined {
  const key = matchModelKey(model, KEYS);
  return key === undefined ? undefined : MAX_OUTPUT[key];
}
