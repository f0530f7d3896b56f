// The summary model as a session uses it: each summary call is asked of the budget (its output capped at
// what a hard limit leaves), billed with the session's prices and recorded beside the model calls. Its
// prompt is asked for as the summary model's provider will count it (expected-prompt.ts, by that model's
// own past summary calls): asked by our count, a Claude summary passed a hard limit by our count's shortfall.
import type { TokenBudget } from '../budget';
import type { Tokenizer } from '../messages';
import type { Clock, Logger } from '../ports';
import type { MoneyPrice } from '../cost/pricing';
import type { Summarizer } from '../strategies/types';
import type { CallAccountant } from './accounting';
import { countsExactly } from '../tokens/model-family';
import { BudgetStop } from './call-records';
import type { AgentEvent } from './events';
import type { ModelCaller } from './model-call';
import { expectedOutput, expectedPrompt, type ReportedCall } from './expected-prompt';
import { createModelSummarizer } from './model-summarizer';
import { MIN_ANSWER_TOKENS, tooSmallMessage } from './output-cap';
import type { RetryPolicy } from './retry-policy';
import type { AgentOptions } from './session-options';
import type { SessionState, SummaryCallRecord } from './session-state';
import { otherUnits } from './model-units';
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
  const exact = tokenizer.exact && countsExactly(tokenizer.name, summary.model);
  // The prompt as asked of the budget for the summary call in flight (one at a time), settled after it.
  let asked = 0;
  return createModelSummarizer({
    ...summary,
    tokenizer,
    summaryTokens,
    signal: d.signal,
    beforeCall: async (counted) => {
      const tokens = expectedPrompt(
        { tokens: counted, tools: 0, exact },
        reportedSummaries(d.state(), summary.model),
        summary.model,
      );
      asked = tokens;
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
    afterFailure: () => d.budget.refund({ tokens: asked, ...scope }),
    retry: { policy: d.policy, sleep: d.sleep },
    onCut: () => {
      const message =
        'The summary of earlier turns was cut at its length limit. It is kept, marked as cut: ' +
        'the model may miss some of what it covered.';
      d.log.warn(message);
      d.emit({ type: 'warning', turn: d.state().turns + 1, message });
    },
    afterCall: async (usage, promptTokens, reported) => {
      const s = d.state();
      const money = d.money();
      // Its output is asked of the budget with the next model call, like a model call's own output; its
      // prompt is counted as the provider reported it, as a model call's is. Unreported, both stay
      // estimates: our count where it is the model's own, else the asked prompt and the scaled answer.
      const input = reported.inputTokens ?? (exact ? promptTokens : asked);
      const output = reported.outputTokens ?? expectedOutput(usage.outputTokens, exact, summary.model);
      // Billed by the same figures the budget keeps (a scaled estimate only where nothing was reported).
      const scaled =
        !exact && (reported.inputTokens === undefined || reported.outputTokens === undefined)
          ? { inputTokens: input, outputTokens: output }
          : undefined;
      const { cost, costUsd, unitsOf } = summaryCallCost(scaled ? { ...usage, ...scaled } : usage, {
        model: o.model,
        accountant: d.accountant(),
        money,
        ...(o.summaryModel ? { summaryModel: o.summaryModel } : {}),
      });
      d.caller.pendingTokens += output + Math.max(0, input - asked);
      if (input < asked) await d.budget.refund({ tokens: asked - input, ...scope });
      const record: SummaryCallRecord = {
        model: summary.model,
        tokensSent: promptTokens,
        ...(reported.inputTokens === undefined ? { estimated: true as const } : {}),
        inputTokens: usage.inputTokens,
        ...(usage.cachedTokens !== undefined ? { cachedTokens: usage.cachedTokens } : {}),
        ...(usage.cacheWriteTokens !== undefined ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
        outputTokens: usage.outputTokens,
        cost,
        ...(costUsd !== undefined ? { costUsd } : {}),
        ...(unitsOf !== undefined ? { unitsOf } : {}),
        agentModel: o.model,
        ...(scaled ? { scaled } : {}),
        at: d.clock.now(),
        budget: { spentTokens: (d.budget.usage()[0]?.used ?? 0) + d.caller.pendingTokens },
      };
      s.summaryCalls.push(record);
      // Another model's units are not the session's: kept apart (the record has them), never added.
      if (unitsOf === undefined) s.cost += cost;
      d.report(() => o.onSummaryCall?.(record));
      d.emit({ type: 'summary-call', record, costSoFar: s.cost, ...otherUnits(s) });
    },
  });
}

/** The session's past summary calls of `model` whose prompt the provider reported, as expectedPrompt reads them. */
function reportedSummaries(s: SessionState, model: string): ReportedCall[] {
  return s.summaryCalls
    .filter((c) => c.model === model && c.tokensSent !== undefined && !c.estimated)
    .map((c) => ({ model, tokensSent: c.tokensSent!, usage: { inputTokens: c.inputTokens } }));
}
