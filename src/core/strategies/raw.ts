// `raw`: the whole history, untouched. The baseline every other strategy is measured against.
import type { Message } from '../messages';
import type { ContextResult, ContextStrategy } from './types';

export function createRawStrategy(): ContextStrategy {
  return {
    name: 'raw',
    build(history: readonly Message[]): Promise<ContextResult> {
      return Promise.resolve({ messages: history.slice(), masked: [], summaries: [], summarizedTurns: 0 });
    },
  };
}
