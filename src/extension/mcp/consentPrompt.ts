// The text of the prompt that asks before a workspace's MCP servers start: each server with what
// starting it does (core/mcp/start-description.ts).
import { visibleName, visibleText } from '../../core/agent/tools/mcp';
import { whatStartingDoes } from '../../core/mcp/start-description';
import type { McpServerConfig } from '../../core/mcp/types';

const SHOWN = 3;

export function consentPrompt(configs: readonly McpServerConfig[], relative: (file: string) => string): string {
  const shown = configs
    .slice(0, SHOWN)
    .map((c) => `"${visibleName(c.name)}" (${visibleText(relative(c.source))}) ${whatStartingDoes(c)}`);
  const more = configs.length > SHOWN ? `; and ${configs.length - SHOWN} more` : '';
  return `Context Desk: this workspace defines MCP servers that have not been allowed to start: ${shown.join('; ')}${more}. Start them only if you trust whoever wrote this configuration.`;
}
