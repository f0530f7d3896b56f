// A context is built even when summarizing fails: once its retries are used up (not a budget refusal or
// a Stop), the call goes ahead on the view without a new summary, and the summary model rests for a few
// calls, so a broken one is not asked (and waited for) every turn. A run never ends because a summary
// could not be written.
import type { Message } from '../messages';
import type { BuildOptions, ContextResult, ContextStrategy } from '../strategies/types';
import { BudgetStop } from './call-records';
import { isAbortError } from './errors';

/** Contexts built without summarizing after a summary failed, before the summary model is asked again. */
export const SUMMARY_REST_CALLS = 5;

export class SummaryRest {
  private rest = 0;

  /** The strategy's view; `failed` hears why summarizing failed (the view is then built without it). */
  async build(
    strategy: ContextStrategy,
    history: readonly Message[],
    options: BuildOptions,
    signal: AbortSignal,
    failed: (why: string) => void,
  ): Promise<ContextResult> {
    if (this.rest > 0) {
      this.rest--;
      return strategy.build(history, { ...options, summarize: false });
    }
    try {
      return await strategy.build(history, options);
    } catch (e) {
      if (e instanceof BudgetStop || signal.aborted || isAbortError(e)) throw e;
      this.rest = SUMMARY_REST_CALLS;
      failed(e instanceof Error ? e.message : String(e));
      return strategy.build(history, { ...options, summarize: false });
    }
  }
}
