// The output limit of a model call under a hard budget. The output is only known after the call, so a
// budget that asked for it with the next call was passed by the last answer it allowed (a 17,000-token
// hard limit: 19,920 spent with 3,000-token answers). Instead each call asks for at most what the budget
// leaves after its prompt, and a server that honours the limit stops the answer there.
import type { BudgetRoom } from '../budget';

/** Fewer output tokens left than this, and a call is not sent: its answer could only be cut at once. */
export const MIN_ANSWER_TOKENS = 16;

/**
 * The largest output limit every chat model takes. A model refuses a larger one than it can write with a
 * 400 ("max_tokens is too large", gpt-3.5-turbo and gpt-4-turbo stop at 4,096; vLLM refuses one past its
 * window), so under a hard budget a model whose own limit is unknown is asked for at most this: sending no
 * limit let it write past the budget (a 30,000-token hard limit: 34,143 spent with 12,000-token answers).
 */
export const ANY_MODEL_OUTPUT = 4096;

export type OutputCap =
  /** `byBudget`: the budget's room is the limit (lower than the configured one, or the only one). */
  { type: 'send'; maxOutputTokens?: number; byBudget: boolean } | { type: 'too-small'; room: BudgetRoom };

/**
 * The output limit to send: `configured` (the session's `maxOutputTokens`, else the provider's own default
 * when it always sends one) lowered to the budget's `room` when a hard limit applies. With nothing
 * configured, a hard limit sends its room up to `modelLimit` (the model's own, when known; else 4,096):
 * a call without a limit could write past the budget.
 */
export function outputCap(
  room: BudgetRoom | undefined,
  configured: number | undefined,
  modelLimit?: number,
): OutputCap {
  const send = (limit: number | undefined, byBudget: boolean): OutputCap => ({
    type: 'send',
    ...(limit !== undefined ? { maxOutputTokens: limit } : {}),
    byBudget,
  });
  if (room === undefined) return send(configured, false);
  if (room.tokens < MIN_ANSWER_TOKENS) return { type: 'too-small', room };
  if (configured !== undefined) return room.tokens < configured ? send(room.tokens, true) : send(configured, false);
  const limit = modelLimit ?? ANY_MODEL_OUTPUT;
  return room.tokens <= limit ? send(room.tokens, true) : send(limit, false);
}

/** The stop message when the budget leaves too little for an answer. */
export function tooSmallMessage(room: BudgetRoom): string {
  return (
    `The ${room.level} budget stopped the run (hard-limit): ${room.tokens} tokens are left after the prompt, ` +
    'too few for an answer'
  );
}
