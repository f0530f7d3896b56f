// The summary model as a session uses it: each summary call is asked of the budget (its output capped at
// what a hard limit leaves), billed with the session's prices and recorded beside the model calls.
import type { TokenBudget } from '../budget';
import type { Tokenizer } from '../messages';
import type { Clock, Logger } from '../ports';
import type { MoneyPrice } from '../cost/pricing';
import type { Summarizer } from '../strategies/types';
import type { CallAccountant } from './accounting';
import { BudgetStop } from './call-records';
import type { AgentEvent } from './events';
import type { ModelCaller } from './model-call';
import { createModelSummarizer } from './model-summarizer';
import { MIN_ANSWER_TOKENS, tooSmallMessage } from './output-cap';
import type { RetryPolicy } from './retry-policy';
import type { AgentOptions } from './session-options';
import type { SessionState, SummaryCallRecord } from './session-state';
import type { AbortableSleep } from './sleep';
import { summaryCallCost } from './summary-cost';

/** What the session lends its summarizer; getters where the session may change the value later. */
export interface SessionSummarizerDeps {
  options: AgentOptions;
  budget: TokenBudget;
  caller: ModelCaller;
  state: () => SessionState;
  accountant: () => CallAccountant;
  money: () => MoneyPrice | undefined;
  signal: () => AbortSignal;
  policy: RetryPolicy;
  sleep: AbortableSleep;
  clock: Clock;
  log: Logger;
  emit: (event: AgentEvent) => void;
  /** Runs a host callback (history writes) without letting its failure end the run. */
  report: (callback: () => void) => void;
}

export function sessionSummarizer(d: SessionSummarizerDeps, tokenizer: Tokenizer, summaryTokens: number): Summarizer {
  const o = d.options;
  const summary = o.summaryModel ?? { provider: o.provider, model: o.model };
  const scope = { taskId: o.taskId, agentId: o.agentId };
  return createModelSummarizer({
    ...summary,
    tokenizer,
    summaryTokens,
    signal: d.signal,
    beforeCall: async (tokens) => {
      // The last answer's output is asked for first, as a model call asks for it: granted without it, a
      // summary call passed a hard limit by that answer (13,937 spent of 13,437 with 500-token answers).
      const late = d.caller.pendingTokens;
      const decision = await d.budget.request({
        tokens: tokens + late,
        spent: late,
        ...scope,
        reason: 'summary model call',
      });
      if (!decision.allowed) throw new BudgetStop(`The budget refused a summary call (${decision.reason})`);
      d.caller.pendingTokens = Math.max(0, d.caller.pendingTokens - late);
      if (decision.room && decision.room.tokens < MIN_ANSWER_TOKENS) {
        await d.budget.refund({ tokens, ...scope }); // not sent
        throw new BudgetStop(tooSmallMessage(decision.room));
      }
      return decision.room?.tokens; // the summary's output is capped at what the budget leaves
    },
    afterFailure: (tokens) => d.budget.refund({ tokens, ...scope }),
    retry: { policy: d.policy, sleep: d.sleep },
    onCut: () => {
      const message =
        'The summary of earlier turns was cut at its length limit. It is kept, marked as cut: ' +
        'the model may miss some of what it covered.';
      d.log.warn(message);
      d.emit({ type: 'warning', turn: d.state().turns + 1, message });
    },
    afterCall: async (usage, promptTokens) => {
      const s = d.state();
      const money = d.money();
      const { cost, costUsd } = summaryCallCost(usage, {
        model: o.model,
        accountant: d.accountant(),
        money,
        ...(o.summaryModel ? { summaryModel: o.summaryModel } : {}),
      });
      // Its output is asked of the budget with the next model call, like a model call's own output; its
      // prompt is counted as the provider reported it, as a model call's is.
      d.caller.pendingTokens += usage.outputTokens + Math.max(0, usage.inputTokens - promptTokens);
      if (usage.inputTokens < promptTokens)
        await d.budget.refund({ tokens: promptTokens - usage.inputTokens, ...scope });
      const record: SummaryCallRecord = {
        inputTokens: usage.inputTokens,
        ...(usage.cachedTokens !== undefined ? { cachedTokens: usage.cachedTokens } : {}),
        ...(usage.cacheWriteTokens !== undefined ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
        outputTokens: usage.outputTokens,
        cost,
        ...(costUsd !== undefined ? { costUsd } : {}),
        at: d.clock.now(),
        budget: { spentTokens: (d.budget.usage()[0]?.used ?? 0) + d.caller.pendingTokens },
      };
      s.summaryCalls.push(record);
      s.cost += cost;
      d.report(() => o.onSummaryCall?.(record));
      d.emit({ type: 'summary-call', record, costSoFar: s.cost });
    },
  });
}
