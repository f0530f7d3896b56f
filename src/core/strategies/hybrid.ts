// `hybrid`: mask with W (the masking window, 10) and summarize at N = 43 with a tail of M = 10, then
// every N turns. The summarizer sees the masked turns, as the agent did.
import { createCheckpointingStrategy } from './checkpointing';
import { DEFAULT_STRATEGY_OPTIONS, type ContextStrategy, type StrategyDeps, type StrategyOptions } from './types';

export const HYBRID_N = 43;
export const HYBRID_M = 10;

export function createHybridStrategy(
  deps: StrategyDeps,
  options: Pick<StrategyOptions, 'summaryTokens' | 'window' | 'polling'> &
    Partial<Pick<StrategyOptions, 'contextWindow'>>,
): ContextStrategy {
  return createCheckpointingStrategy(deps, {
    name: 'hybrid',
    every: HYBRID_N,
    keep: HYBRID_M,
    summaryTokens: options.summaryTokens,
    contextWindow: options.contextWindow ?? DEFAULT_STRATEGY_OPTIONS.contextWindow,
    mask: { window: options.window, polling: options.polling },
  });
}
