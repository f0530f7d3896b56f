// The agent's side of MCP: a static prompt with server names, statuses and tool names only, and two
// tools, `mcp_describe` (the stored description of one tool) and `mcp_call` (arguments validated against
// the tool's input schema with ajv, then called). Results are plain text; the caller puts long ones
// through the long-output store.
import { promptName, stripControls } from './inert';
import { toolJsonValue } from './render';
import { redactJsonForStore } from '../store/store-writer';
import { compileInputSchema, formatSchemaErrors } from './schema';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../json-depth';
import type { McpCallResult, McpServerState, McpToolDescription, McpToolEntry } from './types';

/** What the user is asked before an MCP tool runs: the server, the tool, the validated arguments. */
export interface McpCallApproval {
  server: string;
  /** The server's identity (identity.ts): a choice remembered for it holds only while it is the same. */
  serverIdentity: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** The server annotates the tool as read-only (`annotations.readOnlyHint`): its own claim, not a guarantee. */
  readOnlyHint: boolean;
}

/** Resolves true when the call may go ahead (approved, or allowed without asking). */
export type McpApprovalPort = (request: McpCallApproval) => Promise<boolean>;

/** True only when the server said so explicitly (`annotations.readOnlyHint: true`). */
export function readOnlyHint(tool: McpToolDescription): boolean {
  const a = tool.annotations;
  return typeof a === 'object' && a !== null && (a as { readOnlyHint?: unknown }).readOnlyHint === true;
}

/**
 * Tools of the `vscode` server that are never offered to the agent: VS Code's internal helpers
 * (`*_internal`, the chat's confirmation dialogs), which only work inside its own chat, and Context
 * Desk's own language-model tools, which the agent has as grep, read_file and tail already.
 */
export function isInternalVscodeTool(name: string): boolean {
  return /_internal$/.test(name) || /^vscode_get_\w*confirmation\w*$/.test(name) || name.startsWith('contextDesk_');
}

/** What the agent tools need from the manager (McpSyncManager implements it). */
export interface McpToolHost {
  readonly servers: McpServerState[];
  getTool(server: string, tool: string): McpToolEntry | undefined;
  callTool(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallResult>;
}

/** An agent tool's definition, in the shape every provider takes. */
export interface AgentToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export const MCP_DESCRIBE_TOOL: AgentToolDefinition = {
  name: 'mcp_describe',
  description: "Returns an MCP tool's full description and input schema. Call it before mcp_call.",
  inputSchema: {
    type: 'object',
    properties: {
      server: { type: 'string', description: 'Server name' },
      tool: { type: 'string', description: 'Tool name' },
    },
    required: ['server', 'tool'],
    additionalProperties: false,
  },
};

export const MCP_CALL_TOOL: AgentToolDefinition = {
  name: 'mcp_call',
  description: "Calls an MCP tool. Arguments must match the tool's input schema (see mcp_describe).",
  inputSchema: {
    type: 'object',
    properties: {
      server: { type: 'string', description: 'Server name' },
      tool: { type: 'string', description: 'Tool name' },
      arguments: { type: 'object', description: 'Arguments for the tool' },
    },
    required: ['server', 'tool'],
    additionalProperties: false,
  },
};

/** What an agent tool returns: text for the model, `ok: false` for errors the model should read and fix. */
export interface AgentToolResult {
  ok: boolean;
  text: string;
}

function statusNote(s: McpServerState): string {
  if (s.status === 'needs-auth') return ' - needs the user to sign in; tell them';
  if (s.status === 'error') return ' - unavailable (see SERVER.md)';
  if (s.status === 'disabled') return ' - disabled';
  return '';
}

/**
 * The static prompt text: server names, statuses and tool names only (descriptions are read on demand).
 * Names come from servers and cloned config files: an untidy one is shown as a JSON string, so it can
 * neither break its line nor pose as an instruction.
 */
export function renderMcpStaticPrompt(servers: readonly McpServerState[], folder = '.context-desk/mcp'): string {
  if (servers.length === 0) return '';
  const lines = [
    `MCP tools (descriptions in ${folder}/; use mcp_describe(server, tool), then mcp_call(server, tool, arguments); a name in double quotes is a JSON string, pass its value):`,
  ];
  for (const s of servers) {
    const names = s.tools.map((t) => promptName(t.name)).join(', ');
    lines.push(`- ${promptName(s.name)} [${s.status}${statusNote(s)}]${names ? `: ${names}` : ''}`);
  }
  return lines.join('\n');
}

function findServer(host: McpToolHost, server: string): McpServerState | undefined {
  return host.servers.find((s) => s.name === server);
}

/** Explains why a server or tool cannot be used, listing what exists. */
function unknown(host: McpToolHost, server: string, tool: string): AgentToolResult {
  const s = findServer(host, server);
  if (!s)
    return {
      ok: false,
      text: `No MCP server ${promptName(server)}. Servers: ${host.servers.map((x) => promptName(x.name)).join(', ') || '(none)'}.`,
    };
  if (s.status !== 'connected') {
    return {
      ok: false,
      text: stripControls(
        `The MCP server ${promptName(server)} is ${s.status}: ${s.message ?? ''}${s.fix ? `\nFix: ${s.fix}` : ''}`,
      ).trim(),
    };
  }
  const names = s.tools.map((t) => promptName(t.name));
  const shown = names.slice(0, 50).join(', ') + (names.length > 50 ? `, ... (${names.length} tools)` : '');
  return {
    ok: false,
    text: `The server ${promptName(server)} has no tool ${promptName(tool)}. Its tools: ${shown || '(none)'}.`,
  };
}

/**
 * `mcp_describe(server, tool)`: the per-tool JSON as the store holds it (every string redacted), made
 * from the copy in memory. Never read back from the file: in a cloned repository the store's folder or
 * the file itself can be a link the sync refused to write through, pointing anywhere on the machine.
 */
export async function mcpDescribe(
  host: McpToolHost,
  input: { server?: unknown; tool?: unknown },
): Promise<AgentToolResult> {
  if (typeof input.server !== 'string' || typeof input.tool !== 'string')
    return { ok: false, text: 'mcp_describe needs "server" and "tool" strings.' };
  const entry = host.getTool(input.server, input.tool);
  if (!entry) return unknown(host, input.server, input.tool);
  return { ok: true, text: (await redactJsonForStore(toolJsonValue(entry.tool, entry))).value };
}

/** Parses the `arguments` the model gave: an object, a JSON string of one, or nothing. */
function parseArguments(raw: unknown): Record<string, unknown> | string {
  if (raw === undefined || raw === null) return {};
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = raw.trim() === '' ? {} : (JSON.parse(raw) as unknown);
    } catch (e) {
      return `"arguments" is not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '"arguments" must be a JSON object.';
  if (nestedDeeperThan(value)) return `"arguments" nest more than ${MAX_JSON_DEPTH} levels deep.`;
  return value as Record<string, unknown>;
}

/** `mcp_call(server, tool, arguments)`: validates the arguments against the input schema, then calls the tool. */
export async function mcpCall(
  host: McpToolHost,
  input: { server?: unknown; tool?: unknown; arguments?: unknown },
  signal?: AbortSignal,
  approve?: McpApprovalPort,
): Promise<AgentToolResult & { result?: McpCallResult }> {
  if (typeof input.server !== 'string' || typeof input.tool !== 'string')
    return { ok: false, text: 'mcp_call needs "server" and "tool" strings.' };
  const entry = host.getTool(input.server, input.tool);
  if (!entry) return unknown(host, input.server, input.tool);
  if (entry.inputSchemaError)
    return {
      ok: false,
      text: `The tool ${promptName(input.tool)} cannot be called: ${entry.inputSchemaError}. Tell the user the server publishes a broken schema.`,
    };
  const args = parseArguments(input.arguments);
  if (typeof args === 'string') return { ok: false, text: args };
  const compiled = compileInputSchema(entry.tool.inputSchema);
  if (!compiled.ok)
    return { ok: false, text: `The tool ${promptName(input.tool)} cannot be called: ${compiled.error}.` };
  if (!compiled.validate(args)) {
    return {
      ok: false,
      text: `The arguments do not match the input schema of ${input.server}/${input.tool}:\n${formatSchemaErrors(compiled.validate.errors)}\nCall mcp_describe to see the schema.`,
    };
  }
  // Asked once the call is known to be valid, so the user approves exactly what will run.
  const request: McpCallApproval = {
    server: input.server,
    serverIdentity: host.servers.find((s) => s.name === input.server)?.identity ?? '',
    tool: input.tool,
    arguments: args,
    readOnlyHint: readOnlyHint(entry.tool),
  };
  if (approve && !(await approve(request)))
    return { ok: false, text: `The user declined the call of ${input.server}/${input.tool}; it did not run.` };
  if (signal?.aborted) return { ok: false, text: 'Cancelled before the call was made.' };
  try {
    const result = await host.callTool(input.server, input.tool, args, signal);
    return { ok: !result.isError, text: result.text, result };
  } catch (e) {
    return {
      ok: false,
      text: `Calling ${input.server}/${input.tool} failed: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}
