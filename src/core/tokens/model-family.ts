// Whether a tokenizer's counts are a model's own: o200k and cl100k are OpenAI's encodings, so they count
// exactly only for OpenAI's models; for Claude, Gemini, Llama, Qwen... they are estimates, shown with ≈.
import type { TokenizerName } from './tokenizer';

/** OpenAI's models on o200k_base (GPT-4o and later, the o-series) and on cl100k_base (GPT-4, 3.5, embeddings). */
const O200K = /^(?:gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|chatgpt-4o|o1|o3|o4)(?:$|[-.:])/;
const CL100K = /^(?:gpt-4|gpt-3\.5|text-embedding-(?:3|ada))(?:$|[-.:])/;

/** The OpenAI encoding a model name uses; undefined for anything else (another family, an unknown name). */
export function openAiEncodingOf(model: string): 'o200k' | 'cl100k' | undefined {
  // `openai/gpt-4o` (OpenRouter), `azure/...`: the vendor prefix says nothing about the encoding.
  const n = model
    .trim()
    .toLowerCase()
    .replace(/^(?:[a-z0-9_-]+\/)+/, '');
  if (O200K.test(n)) return 'o200k';
  if (CL100K.test(n)) return 'cl100k';
  return undefined;
}

/**
 * True when `tokenizer` counts `model`'s tokens exactly: the model's own OpenAI encoding. The chars/4
 * estimate never does, and neither does any tokenizer for no model name: VS Code's language models then
 * take the first model offered, which may be Claude, and its counts must get the budget's margin.
 */
export function countsExactly(tokenizer: TokenizerName, model: string): boolean {
  if (tokenizer === 'chars4') return false;
  return openAiEncodingOf(model) === tokenizer;
}
