// The prompt size to ask the budget for before a call. Our tokenizer is OpenAI's: it counts a Claude or
// Gemini prompt about a fifth short, and the provider's figure comes only after the call. A hard budget
// that granted the room our count left, and capped the answer at it, was passed by that shortfall on its
// last call (20,721 billed of a 20,000-token limit). So the count is scaled by how far it fell short on
// the session's last reported call of the same model; the budget is brought to the reported figure after.
// Before any report (a session's first call) a model our tokenizer does not count exactly is scaled by a
// prior for its family: unscaled, a Claude session's first call passed an 8,000-token hard limit (9,308).
// A provider that reports nothing (vscode.lm) never gives a figure to settle to: the asked figure stands.
import { normalizeModelName } from '../cost/prices';
import type { CallRecord } from './session-state';

/**
 * The most a count is scaled up: a proxy that adds its own hidden prompt reports far more than our count
 * of a short prompt, and scaling a longer one by that would refuse calls the budget has room for.
 */
export const MAX_PROMPT_SCALE = 2;

/**
 * The scale of a first call to Claude 3 up to Opus 4.6 (one tokenizer). Measured against o200k (GPT-4o)
 * on the same texts, Claude 3.5 Sonnet's count was 16 % higher on English articles, 21 % on maths and 30 %
 * on Python code (L. Gupta, "Hidden costs in AI deployment", VentureBeat, May 2025); agent prompts are
 * mostly code and tool output, so 1.3, with room for content denser than those samples.
 */
export const CLAUDE_FIRST_SCALE = 1.65;
/**
 * The scale of a first call to Claude Opus 4.7 and later (Claude 5 models too), and to a Claude name we
 * cannot place: Anthropic's token-counting page says their newer tokenizer gives about 30 % more tokens for
 * the same text than earlier models, its Opus 4.7 release notes 1.0 to 1.35 times. On code, 1.3 x 1.35 =
 * 1.755: the earlier 1.65 fell short there. Not measured here: no Claude tokenizer is available offline.
 */
export const CLAUDE_NEW_TOKENIZER_FIRST_SCALE = 1.8;
/** The scale of a first call to any other model we do not count exactly (another tokenizer, or chars/4). */
export const OTHER_FIRST_SCALE = 1.5;

/**
 * The system prompt Anthropic adds to a request with tools (its pricing page: 346 tokens for Claude 4 with
 * `tool_choice` auto, the most of the current models). It is billed as input but is not in what we count,
 * and it does not grow with the prompt, so it is added, not scaled.
 */
export const CLAUDE_TOOL_PROMPT = 346;

/** What a past call tells about the provider's count: our count and, when reported, the provider's. */
export type ReportedCall = Pick<CallRecord, 'model' | 'tokensSent' | 'usage' | 'parts'>;

export interface PromptCount {
  /** Our count of the prompt (tokensSent). */
  tokens: number;
  /** Of it, the tool definitions: with any, Claude's tool prompt is added. */
  tools: number;
  /** True when our tokenizer is the model's own (an OpenAI model on its encoding): no prior is needed. */
  exact: boolean;
}

function isClaude(model: string): boolean {
  return normalizeModelName(model).startsWith('claude');
}

/**
 * Our count scaled by the provider's last shortfall (before any report: a prior for the model's family
 * when our count is not the model's own); never below our count.
 */
export function expectedPrompt(count: PromptCount, calls: readonly ReportedCall[], model: string): number {
  const claude = isClaude(model);
  const toolPrompt = (tools: number | undefined): number => (claude && (tools ?? 0) > 0 ? CLAUDE_TOOL_PROMPT : 0);
  const added = toolPrompt(count.tools);
  for (let i = calls.length - 1; i >= 0; i--) {
    const c = calls[i]!;
    const reported = c.usage?.inputTokens;
    if (c.model !== model || reported === undefined || !(c.tokensSent > 0)) continue;
    const scale = (billed: number): number => Math.min(MAX_PROMPT_SCALE, Math.max(1, billed / c.tokensSent));
    // Claude's tool prompt is in what it reported, and does not shrink with a shorter prompt (masked
    // outputs): scaled with the rest, it was asked for short. The larger reading of the two is asked.
    const fixed = c.parts ? toolPrompt(c.parts.tools) : 0;
    return Math.max(
      Math.ceil(count.tokens * scale(reported)),
      Math.ceil(count.tokens * scale(reported - fixed)) + added,
    );
  }
  if (count.exact) return count.tokens;
  return Math.ceil(count.tokens * priorScale(model)) + added;
}

function priorScale(model: string): number {
  if (!isClaude(model)) return OTHER_FIRST_SCALE;
  return usesClaude3Tokenizer(model) ? CLAUDE_FIRST_SCALE : CLAUDE_NEW_TOKENIZER_FIRST_SCALE;
}

/**
 * True for Claude models from Claude 3 to Opus 4.6, which share one tokenizer: `claude-3-5-sonnet`,
 * `claude-sonnet-4-5`, `claude-opus-4` (4.0). Opus 4.7 and later, Claude 5 and a name not placed here get
 * the newer tokenizer's larger scale: too high a prior only makes a first call ask for more.
 */
export function usesClaude3Tokenizer(model: string): boolean {
  const n = normalizeModelName(model);
  if (/^claude-(?:instant|2|3)(?:$|-)/.test(n)) return true;
  const v = /^claude-(?:opus|sonnet|haiku)-4(?:-(\d+))?$/.exec(n);
  return v !== null && Number(v[1] ?? 0) <= 6;
}

/**
 * An answer's output tokens when the provider did not report them: our count, scaled by the model family's
 * prior when our tokenizer is not the model's own (o200k counts a Claude answer short as it does a prompt).
 */
export function expectedOutput(tokens: number, exact: boolean, model: string): number {
  return exact ? tokens : Math.ceil(tokens * priorScale(model));
}
