// How a reply ended, from the provider's stop reason. A reply cut at the output limit is not a complete
// answer (its text ends mid-way, its last tool call may be half written), and a refusal is no answer.
import type { BudgetRoom, BudgetScope } from '../budget';
import type { ToolCall } from '../messages';
import type { ToolRegistry } from './tool-registry';

export type ReplyEnd = 'complete' | 'output-limit' | 'refused';

/** OpenAI's `length`, Anthropic's `max_tokens` (and its window running out mid-reply). */
const OUTPUT_LIMIT = new Set(['length', 'max_tokens', 'model_context_window_exceeded']);
/** A refusal (OpenAI's `refusal` text is reported as this reason, Anthropic's own), or a provider's filter. */
const REFUSED = new Set(['refusal', 'content_filter']);

export function replyEnd(reason: string | undefined): ReplyEnd {
  if (reason === undefined) return 'complete';
  if (OUTPUT_LIMIT.has(reason)) return 'output-limit';
  return REFUSED.has(reason) ? 'refused' : 'complete';
}

/**
 * The call of a reply cut at the output limit that the limit left incomplete: the last one (the one being
 * written), when its arguments do not parse or fall short of its schema. Earlier calls were finished.
 */
export function cutCall(calls: readonly ToolCall[], tools: ToolRegistry): ToolCall | undefined {
  const last = calls.at(-1);
  if (!last) return undefined;
  const checked = tools.check(last);
  return !checked.ok && (checked.kind === 'malformed-json' || checked.kind === 'invalid-arguments') ? last : undefined;
}

/** What a call cut by the output limit gets as its result: it was not run, and how to do better. */
export const CUT_CALL_TEXT =
  'Not run: your reply reached the output limit while you were writing this call, so its arguments are ' +
  'incomplete. Send it again in smaller pieces: for a large file, write a first part and add the rest ' +
  'with further calls; keep each reply short.';

/** What a call cut by the output limit a hard budget set gets: the budget ran out, not the model's limit. */
export const BUDGET_CUT_CALL_TEXT =
  'Not run: the token budget ran out while you were writing this call, so its arguments are incomplete.';

/** The name of a budget for messages: "session", "task build", "agent a1". */
export function budgetName(scope: BudgetScope): string {
  return scope.id !== undefined ? `${scope.level} ${scope.id}` : scope.level;
}

/**
 * The warning the user sees for a reply that did not end normally (none for a complete one); `budget` when
 * the output limit was the one a hard budget set (what it had left after the prompt).
 */
export function replyEndWarning(
  end: ReplyEnd,
  reason: string,
  callCut: boolean,
  budget?: BudgetScope,
  ran = 0,
): string | undefined {
  // The calls the model finished before the cut still run: the user is told, as a cut answer's are no surprise.
  const run =
    ran > 0
      ? ` The ${ran === 1 ? 'tool call' : `${ran} tool calls`} it finished before the cut ${ran === 1 ? 'runs' : 'run'}.`
      : '';
  if (end === 'output-limit' && budget)
    return (
      `The answer was cut where the ${budgetName(budget)} budget ran out (${reason}): ` +
      (callCut ? 'the tool call the model was writing was not run.' : 'it ends mid-way.') +
      run
    );
  if (end === 'output-limit')
    return callCut
      ? `The answer was cut at the output limit (${reason}) while the model wrote a tool call: that call was ` +
          `not run, and the model is told to write smaller pieces.${run}`
      : `The answer was cut at the output limit (${reason}): it ends mid-way. Ask the model to continue, ` +
          `or allow it more output tokens.${run}`;
  if (end === 'refused')
    return reason === 'content_filter'
      ? "The provider's content filter stopped the answer (content_filter)."
      : `The model refused this request (${reason}).`;
  return undefined;
}

/**
 * A reply that did not end normally: cut at the output limit (then the tool call the limit left half
 * written, answered with a note instead of run) or refused, with the warning the user sees.
 */
export function unfinishedReply(
  reason: string | undefined,
  calls: readonly ToolCall[],
  tools: ToolRegistry,
  budget: BudgetScope | undefined,
  text: string,
): { cut?: ToolCall; warning?: string } {
  const end = replyEnd(reason);
  // An empty answer would end the run as "Completed" with nothing to read: the user is told instead.
  if (end === 'complete' && calls.length === 0 && text.trim() === '' && !budget) return { warning: EMPTY_ANSWER };
  if (end === 'complete' || reason === undefined) return {};
  const cut = end === 'output-limit' ? cutCall(calls, tools) : undefined;
  const ran = calls.filter((c) => c !== cut && tools.check(c).ok).length;
  const warning = replyEndWarning(end, reason, cut !== undefined, budget, ran);
  return { ...(cut ? { cut } : {}), ...(warning ? { warning } : {}) };
}

/** The warning for an answer with no visible text and no tool call. */
export const EMPTY_ANSWER =
  'The model sent an empty answer (no text, no tool call). Send your message again, or try another model.';

/** Why the run stops when the budget ran out in the answer just kept (its finished calls were run). */
export function budgetRanOutMessage(cut: Omit<BudgetRoom, 'tokens'>): string {
  if (cut.mode === 'approval')
    return (
      `The ${budgetName(cut)} budget reached its limit in the last answer (approval): send a message to go ` +
      'on, and the next call asks for your approval'
    );
  return `The ${budgetName(cut)} budget stopped the run (hard-limit): the last answer used it up`;
}
