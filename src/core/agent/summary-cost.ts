// What a summary call costs, in the session's units (the agent model's uncached input).
import { pricesAt } from '../cost/long-context';
import { DEFAULT_OUTPUT_PRICE, inputUnits, type MoneyPrice, type Pricing } from '../cost/pricing';
import { reportedInput, type CallAccountant } from './accounting';
import type { SummaryUsage } from './model-summarizer';

export interface SummaryCostContext {
  /** The agent's own model, its prices and money. */
  model: string;
  accountant: CallAccountant;
  money: MoneyPrice | undefined;
  /** A separate summary model, when one is set. */
  summaryModel?: { model: string; pricing?: Pricing };
}

/**
 * The input is billed by the rule of a model call: cache reads and writes as the provider reported them
 * (the Anthropic provider marks the summary prompt for caching, so it is written). A separate summary
 * model is billed at its own prices, converted when both prices are known. When either price is unknown its
 * units (the summary model's uncached input) cannot be put in the session's: `unitsOf` names the model they
 * are of, and they are kept apart, never added to the agent model's units. Without the summary model's
 * price the call gets no money, so the session's total in US$ is not shown rather than wrong. A prompt
 * over a long-context tier's threshold is billed whole at that tier.
 */
export function summaryCallCost(
  usage: SummaryUsage,
  c: SummaryCostContext,
): { cost: number; costUsd?: number; unitsOf?: string } {
  const own = c.summaryModel;
  // Nothing of the summary prompt is in our count's cache: no cached share to estimate.
  const { input } = reportedInput(usage, { tokensSent: usage.inputTokens, cachedTokens: 0 });
  // The prompt's size picks the prices, as for a model call: a long-context tier bills the whole call.
  if (!own || own.model === c.model) {
    const cost =
      inputUnits(input, c.accountant.pricesFor(input.input)) + c.accountant.outputCost(usage.outputTokens, input.input);
    return { cost, ...(c.money ? { costUsd: cost * c.money.usdPerUnit } : {}) };
  }
  const p = own.pricing ? pricesAt(own.pricing, input.input) : undefined;
  const units =
    inputUnits(input, p ?? { cachedPrice: 1, cacheWritePrice: 1 }) +
    usage.outputTokens * (p?.outputPrice ?? DEFAULT_OUTPUT_PRICE);
  const money = own.pricing?.money;
  if (!money) return { cost: units, unitsOf: own.model };
  const costUsd = units * money.usdPerUnit;
  return c.money ? { cost: costUsd / c.money.usdPerUnit, costUsd } : { cost: units, costUsd, unitsOf: own.model };
}
