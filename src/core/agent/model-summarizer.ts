// The Summarizer port backed by a real model call ("summary model"): the checkpoint prompt of
// src/core/strategies, temperature 0.2, no tools. The loop gives it the run's signal, a hook that asks
// the budget before each call and one that gives a failed call's spend back, and its retry policy:
// a transient failure (5xx, 429, timeout) is retried as a model call would be.
import type { Message, Tokenizer } from '../messages';
import { buildSummaryPrompt } from '../strategies/checkpoint';
import type { Summarizer } from '../strategies/types';
import { isAbortError, ProviderError } from './errors';
import { collectChat, type ChatProvider, type ProviderUsage } from './provider';
import { planRetry, type RetryCounts, type RetryPolicy } from './retry-policy';
import type { AbortableSleep } from './sleep';
import { replyEnd } from './stop-reason';

/** Ends a summary the output limit cut. */
export const CUT_SUMMARY_MARK = '[This summary was cut at its length limit here; what followed is missing.]';

export type SummaryUsage = ProviderUsage & { inputTokens: number; outputTokens: number };

export interface ModelSummarizerOptions {
  provider: ChatProvider;
  model: string;
  tokenizer: Tokenizer;
  summaryTokens: number;
  signal: () => AbortSignal;
  /**
   * Called before each summary call with its prompt tokens; throws to refuse it. Resolves with the output
   * tokens a hard budget leaves after the prompt, if one applies: the summary's output limit comes down to it.
   */
  beforeCall?: (promptTokens: number) => Promise<number | void>;
  /** Called when a call `beforeCall` allowed failed without an answer to bill: its spend is given back. */
  afterFailure?: (promptTokens: number) => Promise<void>;
  /**
   * Called after each answered summary call with what it used: the provider's usage (cache reads and
   * writes included, when reported), input and output filled in with our own counts when it reported none;
   * `promptTokens` is our count that `beforeCall` was given; `reported` is what the provider itself reported.
   */
  afterCall?: (usage: SummaryUsage, promptTokens: number, reported: ProviderUsage) => void | Promise<void>;
  /** Called when a summary was cut at its output limit (it is kept, marked as cut). */
  onCut?: () => void;
  /** Transient failures are retried with this policy (none without it). */
  retry?: { policy: RetryPolicy; sleep: AbortableSleep };
}

export function createModelSummarizer(o: ModelSummarizerOptions): Summarizer {
  const call = async (prompt: Message[], promptTokens: number): Promise<string> => {
    const room = await o.beforeCall?.(promptTokens);
    const limit = o.summaryTokens * 2;
    let result;
    try {
      result = await collectChat(
        o.provider.chat({
          model: o.model,
          messages: prompt,
          tools: [],
          signal: o.signal(),
          temperature: 0.2,
          maxOutputTokens: typeof room === 'number' ? Math.min(room, limit) : limit,
        }),
      );
    } catch (e) {
      // No answer to bill (or none kept: a failed summary is never recorded), so the budget forgets it.
      await o.afterFailure?.(promptTokens);
      throw e;
    }
    const text = result.text.trim();
    // A blank answer was still a call the provider billed.
    await o.afterCall?.(
      {
        ...result.usage,
        inputTokens: result.usage.inputTokens ?? promptTokens,
        outputTokens: result.usage.outputTokens ?? o.tokenizer.count(text),
      },
      promptTokens,
      result.usage,
    );
    if (text === '') throw new Error('The summary model returned an empty summary');
    // Most of a summary is worth more than none (and a resend could be cut again): kept, but marked, so
    // the model does not take its end for the whole story.
    if (replyEnd(result.finishReason) !== 'output-limit') return text;
    o.onCut?.();
    return `${text}\n${CUT_SUMMARY_MARK}`;
  };

  return {
    estimated: false,
    async summarize(
      messages: readonly Message[],
      previousCheckpoint: string | undefined,
      asked: readonly Message[] = [],
    ): Promise<string> {
      const prompt = buildSummaryPrompt(messages, previousCheckpoint, o.summaryTokens, asked);
      const promptTokens = prompt.reduce((n, m) => n + o.tokenizer.countMessage(m), 0);
      const tried: RetryCounts = { transient: 0, unreachable: 0, overflow: 0 };
      for (;;) {
        try {
          return await call(prompt, promptTokens);
        } catch (e) {
          const signal = o.signal();
          if (!o.retry || signal.aborted || isAbortError(e) || !(e instanceof ProviderError)) throw e;
          const plan = planRetry(e, tried, o.retry.policy);
          // A filtered resend (context overflow) has nothing to filter here: only plain resends apply.
          if (!plan || plan.filterNote !== undefined) throw e;
          tried[plan.counts]++;
          await o.retry.sleep(plan.delayMs, signal);
        }
      }
    },
  };
}
