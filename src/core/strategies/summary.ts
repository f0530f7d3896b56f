// `summary` (N = 21, M = 10): fold the oldest N turns into a checkpoint once N + M are unsummarized.
import { createCheckpointingStrategy } from './checkpointing';
import { DEFAULT_STRATEGY_OPTIONS, type ContextStrategy, type StrategyDeps, type StrategyOptions } from './types';

export const SUMMARY_N = 21;
export const SUMMARY_M = 10;

export function createSummaryStrategy(
  deps: StrategyDeps,
  options: Pick<StrategyOptions, 'summaryTokens'> & Partial<Pick<StrategyOptions, 'contextWindow'>>,
): ContextStrategy {
  return createCheckpointingStrategy(deps, {
    name: 'summary',
    every: SUMMARY_N,
    keep: SUMMARY_M,
    summaryTokens: options.summaryTokens,
    contextWindow: options.contextWindow ?? DEFAULT_STRATEGY_OPTIONS.contextWindow,
  });
}
