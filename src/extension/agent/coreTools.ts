// The agent's workspace tools that need no VS Code (read, list, grep, tail): the core's implementations,
// rooted at the workspace and the store.
import type { AgentTool } from '../../core/agent/tool-registry';
import type { ContextStore } from '../../core/store/context-store';

export function coreAgentTools(_workspaceRoot: string, _store: ContextStore): AgentTool[] {
  return [];
}
