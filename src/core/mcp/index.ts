// Public API of the MCP core for the extension glue and the CLI.
export { DEFAULT_SYNC_DEADLINE_MS, McpSyncManager, VSCODE_SERVER, type McpSyncManagerOptions } from './manager';
export { mdBlock, mdInline, promptName, stripControls, terminalText } from './inert';
export { identityCommand, type CommandResolver } from './command';
export {
  loadMcpConfig,
  parseMcpConfigText,
  parseSettingServers,
  formatConfigError,
  WORKSPACE_CONFIG_FILES,
} from './config';
export { redact, type InputResolver } from './variables';
export { renderIndexMd, renderServerMd, renderToolJson } from './render';
export { INDEX_FILE, SERVER_FILE } from './writer';
export type { Disposable, Event } from './events';
export {
  isInternalVscodeTool,
  mcpCall,
  mcpDescribe,
  readOnlyHint,
  renderMcpStaticPrompt,
  MCP_CALL_TOOL,
  MCP_DESCRIBE_TOOL,
  type AgentToolDefinition,
  type AgentToolResult,
  type McpApprovalPort,
  type McpCallApproval,
  type McpToolHost,
} from './agent-tools';
export type * from './types';
export { measureMcpTokens, type McpTokenReport } from './token-report';
