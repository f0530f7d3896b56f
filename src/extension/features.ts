// The heavy part of the extension (MCP SDK, YAML, tokenizer, stores, the agent) is bundled as
// dist/features.js and loaded on first use, so activation stays cheap. Only what activation needs to
// construct lazily is exported here.
export { McpController } from './mcp/mcpController';
export { SkillsController } from './skills';
export { ChatController } from './agent/chatController';
export { hostPorts } from './agent/hostTools';
export { StoreAccess } from './storeLinks';
export { guardHostPorts, RESTRICTED_MODE_PROMPT } from './trust';
export { mcpApprovalPort } from './agent/mcpApprovals';
export { TerminalCapture } from './store/terminalCapture';
export { answerOrFailure, grepText, readStored, terminalsText } from '../core/agent/tools/store-answers';
export { getSetup, saveSetup } from './agent/setupService';
export { listModels, testConnection } from './agent/connection';
export { renderMcpStaticPrompt } from '../core/mcp/agent-tools';
export { renderSkillsPrompt } from '../core/skills/discover';
export { redactSecretsSync, setCustomPatterns } from '../core/store/sanitize/secrets';
export { loadedEncodings } from '../core/tokens';
export { describeProblems } from '../core/store/sanitize/custom-patterns';
