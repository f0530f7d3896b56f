// The agent loop's public surface.
export { AgentSession, type AgentOptions } from './session';
export type { AgentEvent, AgentEventListener, ContextPrepared, MaskedObservation, ToolCallStatus } from './events';
export { ProviderError, classifyHttpError, describeKind, parseRetryAfter, type ProviderErrorKind } from './errors';
export {
  collectChat,
  type ChatProvider,
  type ChatRequest,
  type ChatStreamEvent,
  type ProviderUsage,
  type ToolSpec,
} from './provider';
export { ToolRegistry, type AgentTool, type ToolContext, type ToolOutput } from './tool-registry';
export { passThroughLongOutput, type LongOutputPort, type LongOutputMeta } from './long-output';
export { parseSessionState, type SessionState, type CallRecord } from './session-state';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy';
export { createModelSummarizer } from './model-summarizer';
