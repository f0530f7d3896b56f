// Static-prompt tokens of full MCP tool schemas versus what Context Desk puts in the prompt instead:
// the names-only index plus the definitions of mcp_describe and mcp_call.
import type { Tokenizer } from '../messages';
import { MCP_CALL_TOOL, MCP_DESCRIBE_TOOL, renderMcpStaticPrompt } from './agent-tools';
import type { McpServerState } from './types';

export interface McpTokenReport {
  servers: number;
  tools: number;
  /** Every tool as a provider receives it: `{type: 'function', function: {name, description, parameters}}`. */
  fullSchemaTokens: number;
  /** The names-only static prompt plus the two agent tools' definitions. */
  indexTokens: number;
  /** indexTokens / fullSchemaTokens (0 when there are no tools). */
  ratio: number;
}

function asFunction(name: string, description: string | undefined, parameters: unknown): string {
  return JSON.stringify({
    type: 'function',
    function: { name, description: description ?? '', parameters: parameters ?? { type: 'object' } },
  });
}

export function measureMcpTokens(servers: readonly McpServerState[], tokenizer: Tokenizer): McpTokenReport {
  let full = 0;
  let tools = 0;
  for (const s of servers) {
    for (const t of s.tools) {
      tools++;
      full += tokenizer.count(asFunction(t.name, t.tool.description, t.tool.inputSchema));
    }
  }
  const agentTools = [MCP_DESCRIBE_TOOL, MCP_CALL_TOOL].reduce(
    (n, t) => n + tokenizer.count(asFunction(t.name, t.description, t.inputSchema)),
    0,
  );
  const index = tokenizer.count(renderMcpStaticPrompt(servers)) + agentTools;
  return {
    servers: servers.length,
    tools,
    fullSchemaTokens: full,
    indexTokens: index,
    ratio: full === 0 ? 0 : Math.round((index / full) * 10_000) / 10_000,
  };
}
