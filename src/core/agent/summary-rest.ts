// A context is built even when summarizing fails: once its retries are used up (not a budget refusal or
// a Stop), the call goes ahead on the view without a new summary, and the summary model rests for a few
// calls, so a broken one is not asked (and waited for) every turn. A run never ends because a summary
// could not be written, unless the context without it is over the window: that call is not sent (the
// provider would refuse it, billed by some, or cut it silently) and the overflow says why.
import type { Message } from '../messages';
import type { BuildOptions, ContextResult, ContextStrategy } from '../strategies/types';
import { BudgetStop } from './call-records';
import { isAbortError } from './errors';

/** Contexts built without summarizing after a summary failed, before the summary model is asked again. */
export const SUMMARY_REST_CALLS = 5;

export class SummaryRest {
  private rest = 0;
  /** The strategy whose summarizer failed: another one (new settings) asks its own at once. */
  private resting: ContextStrategy | undefined;

  /**
   * The strategy's view; `failed` hears why summarizing failed when the call goes ahead without it (a view
   * still over the window carries the reason in `overWindow.summaryFailed` instead).
   */
  async build(
    strategy: ContextStrategy,
    history: readonly Message[],
    options: BuildOptions,
    signal: AbortSignal,
    failed: (why: string) => void,
  ): Promise<ContextResult> {
    if (this.rest > 0 && this.resting === strategy) {
      this.rest--;
      const view = await strategy.build(history, { ...options, summarize: false });
      // Over the window without a new summary: the rest ends early, a summary may bring it under.
      if (!view.overWindow) return view;
      this.rest = 0;
    }
    try {
      return await strategy.build(history, options);
    } catch (e) {
      if (e instanceof BudgetStop || signal.aborted || isAbortError(e)) throw e;
      this.rest = SUMMARY_REST_CALLS;
      this.resting = strategy;
      const why = e instanceof Error ? e.message : String(e);
      const view = await strategy.build(history, { ...options, summarize: false });
      // Over the window the call is not sent and the stop says why: "going on" would contradict it.
      if (view.overWindow) return { ...view, overWindow: { ...view.overWindow, summaryFailed: why } };
      failed(why);
      return view;
    }
  }
}
