// Builds the panel's chat view model from the agent's events: a pure translation, no VS Code calls.
import type { ChatSnapshot, ContextMeter } from '../../protocol/chat';

export const STRATEGIES = ['cache-aware', 'masking', 'raw', 'summary', 'hybrid', 'sliding-window'] as const;

export function emptyMeter(contextWindow: number, estimated: boolean): ContextMeter {
  return {
    tokensInWindow: 0,
    contextWindow,
    cachedTokens: 0,
    rawHistoryTokens: 0,
    costUnits: 0,
    calls: 0,
    maskedObservations: 0,
    estimated,
  };
}

export function emptyChat(
  sessionId: string,
  strategy: string,
  contextWindow: number,
  estimated: boolean,
): ChatSnapshot {
  return {
    sessionId,
    status: 'idle',
    strategy,
    strategies: [...STRATEGIES],
    models: [],
    items: [],
    meter: emptyMeter(contextWindow, estimated),
    series: [],
    pastSessions: [],
  };
}
