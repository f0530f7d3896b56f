// `raw`: the whole history, untouched. The baseline every other strategy is measured against.
// It cannot make the history smaller, so a history over the window is reported (the agent then stops
// with a clear message) rather than left to the provider's refusal.
import type { Message } from '../messages';
import { messageCounter, sumTokens } from '../cost/message-tokens';
import {
  usableWindow,
  type BuildOptions,
  type ContextResult,
  type ContextStrategy,
  type StrategyDeps,
  type StrategyOptions,
} from './types';

export function createRawStrategy(
  deps: Pick<StrategyDeps, 'tokenizer'>,
  options: Pick<StrategyOptions, 'contextWindow'>,
): ContextStrategy {
  const count = messageCounter(deps.tokenizer);
  return {
    name: 'raw',
    build(history: readonly Message[], buildOptions?: BuildOptions): Promise<ContextResult> {
      const window = usableWindow(options.contextWindow, buildOptions);
      const size = sumTokens(history, count);
      return Promise.resolve({
        messages: history.slice(),
        masked: [],
        summaries: [],
        summarizedTurns: 0,
        ...(size > window ? { overWindow: { tokens: size, window } } : {}),
      });
    },
  };
}
