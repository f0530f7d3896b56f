// `masking` (LastNObservations, M = 10): observations older than the last M turns become
// `Old environment output: (N lines omitted)`; `polling` k moves the boundary only every k turns.
import { splitTurns, type Message } from '../messages';
import { maskTurns, publishedMaskedTurns } from './mask-turns';
import { messageCounter } from '../cost/message-tokens';
import type { ContextResult, ContextStrategy, StrategyDeps, StrategyOptions } from './types';

export function createMaskingStrategy(
  deps: Pick<StrategyDeps, 'tokenizer'>,
  options: Pick<StrategyOptions, 'window' | 'polling'>,
): ContextStrategy {
  const count = messageCounter(deps.tokenizer);
  return {
    name: 'masking',
    build(history: readonly Message[]): Promise<ContextResult> {
      const split = splitTurns(history);
      const boundary = publishedMaskedTurns(split.turns.length, options.window, options.polling);
      const { messages, masked } = maskTurns(history, split, 0, boundary, count);
      return Promise.resolve({ messages, masked, summaries: [], summarizedTurns: 0 });
    },
  };
}
