// The prompt size to ask the budget for before a call. Our tokenizer is OpenAI's: it counts a Claude or
// Gemini prompt about a fifth short, and the provider's figure comes only after the call. A hard budget
// that granted the room our count left, and capped the answer at it, was passed by that shortfall on its
// last call (20,721 billed of a 20,000-token limit). So the count is scaled by how far it fell short on
// the session's last reported call of the same model; the budget is brought to the reported figure after.
import type { CallRecord } from './session-state';

/**
 * The most a count is scaled up: a proxy that adds its own hidden prompt reports far more than our count
 * of a short prompt, and scaling a longer one by that would refuse calls the budget has room for.
 */
export const MAX_PROMPT_SCALE = 2;

/** `counted` (our count of the prompt) scaled by the provider's last shortfall; never below `counted`. */
export function expectedPrompt(counted: number, calls: readonly CallRecord[], model: string): number {
  for (let i = calls.length - 1; i >= 0; i--) {
    const c = calls[i]!;
    const reported = c.usage?.inputTokens;
    if (c.model !== model || reported === undefined || !(c.tokensSent > 0)) continue;
    const scale = Math.min(MAX_PROMPT_SCALE, Math.max(1, reported / c.tokensSent));
    return Math.ceil(counted * scale);
  }
  return counted;
}
