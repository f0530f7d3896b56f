// Options of McpSyncManager, the state it keeps per live server, and the states and configs it starts from.
import * as path from 'node:path';
import type { CommandResolver } from './command';
import type { McpConnection } from './connection';
import type { InputResolver } from './variables';
import { buildToolEntries } from './tools';
import { loadMcpConfig } from './config';
import type {
  McpCallResult,
  McpConfigError,
  McpInputDeclaration,
  McpServerConfig,
  McpServerState,
  VscodeToolInfo,
} from './types';
import type { Clock, Logger } from '../ports';
import type { ContextStore } from '../store/context-store';
import { serverIdentity } from './identity';

/** Name of the server that carries VS Code's own tools (`vscode.lm.tools`). */
export const VSCODE_SERVER = 'vscode';

export interface McpSyncManagerOptions {
  /** Files go to `<outDir>/mcp/` (a Context Desk store). Leave undefined to sync in memory only (e.g. to count tokens). */
  outDir?: string;
  /**
   * Opens the store the files go to (every write goes through its writer). Default: the store at
   * `outDir`, which may lie anywhere (the CLI's `--out`). The extension passes its own, which knows the
   * workspace, the settings' scope and how to tell the user about a refused folder or link.
   */
  openStore?: () => Promise<ContextStore>;
  /** False in an untrusted workspace: no server is started, every one shows `disabled`. */
  allowStart: boolean;
  /**
   * Asked for each server before it starts (when `allowStart`): false keeps it `disabled`, waiting for the
   * user's consent (a server a repository's config defines). Default: every server may start.
   */
  mayStart?: (config: McpServerConfig) => boolean;
  /** Resolves `${workspaceFolder}` and is where `.vscode/mcp.json`, `.cursor/mcp.json`, `.mcp.json` are looked for. */
  workspaceFolder?: string;
  /** Explicit config files (replace discovery in `workspaceFolder`). */
  configFiles?: string[];
  /** Servers given directly (the `contextDesk.mcp.servers` setting): name -> entry in the `mcpServers` shape. */
  settingServers?: unknown;
  /** Environment for `${env:NAME}` (default `process.env`). */
  env?: Record<string, string | undefined>;
  home?: string;
  /** Asked for each `${input:id}` once per manager (the glue prompts and keeps values in SecretStorage). */
  resolveInput?: InputResolver;
  /** How stdio commands are started (see CommandResolver). */
  resolveCommand?: CommandResolver;
  connectTimeoutMs?: number;
  /** Per `tools/list` page. */
  listTimeoutMs?: number;
  /** One overall deadline per server for connect + the full listing (default 60 s). */
  syncDeadlineMs?: number;
  /** False for one-shot syncs (the CLI): a connection lost after the sync is not reconnected or reported. */
  keepAlive?: boolean;
  callTimeoutMs?: number;
  /** Backoff after a lost connection: delay doubles from `initialDelayMs` up to `maxDelayMs`, `maxAttempts` tries. */
  reconnect?: { initialDelayMs: number; maxDelayMs: number; maxAttempts: number };
  /** VS Code's own tools, shown as the server `vscode` (omit in the CLI). */
  vscodeTools?: VscodeToolInfo[];
  /** Invokes one of VS Code's tools for `mcp_call` on the server `vscode`. */
  invokeVscodeTool?: (name: string, args: Record<string, unknown>, signal?: AbortSignal) => Promise<McpCallResult>;
  clock?: Clock;
  logger?: Logger;
}

export interface Live {
  key: string;
  config: McpServerConfig;
  connection?: McpConnection;
  secrets: string[];
  attempts: number;
  timer?: NodeJS.Timeout;
  /** A re-list after `tools/list_changed` is queued and has not started yet. */
  resyncQueued?: boolean;
}

export const DEFAULT_RECONNECT = { initialDelayMs: 1000, maxDelayMs: 30_000, maxAttempts: 5 };

/** The server `vscode`: VS Code's own tools, always `connected`. */
export function vscodeServerState(
  folderName: string,
  vscodeTools: readonly VscodeToolInfo[],
  mcpDir: string | undefined,
  now: number,
): McpServerState {
  const folder = mcpDir ? path.join(mcpDir, folderName) : '';
  const tools = vscodeTools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema ?? { type: 'object' },
  }));
  return {
    name: VSCODE_SERVER,
    folderName,
    transport: 'vscode',
    source: 'VS Code (vscode.lm.tools)',
    status: 'connected',
    lastSync: now,
    tools: buildToolEntries(tools, folder),
  };
}

export type NotStarted = 'config' | 'untrusted' | 'consent';

/** Why a server is not started (disabled in its config, an untrusted workspace, no consent yet), if it is not. */
export function notStartedBecause(
  config: McpServerConfig,
  o: Pick<McpSyncManagerOptions, 'allowStart' | 'mayStart'>,
): NotStarted | undefined {
  if (config.disabled) return 'config';
  if (!o.allowStart) return 'untrusted';
  return o.mayStart?.(config) === false ? 'consent' : undefined;
}

/** A server that is not started: disabled in its config, the workspace is not trusted, or no consent yet. */
export function disabledState(
  base: McpServerState,
  config: McpServerConfig,
  now: number,
  why: NotStarted,
): McpServerState {
  if (why === 'config') return { ...base, status: 'disabled', message: `Disabled in ${config.source}.`, lastSync: now };
  if (why === 'consent')
    return {
      ...base,
      status: 'disabled',
      message: `Not started: the workspace defines it (${config.source}) and you have not allowed it to start.`,
      fix: 'Run "Context Desk: Refresh MCP Tools" and choose Start when asked, if you trust this definition.',
      lastSync: now,
    };
  return {
    ...base,
    status: 'disabled',
    message: 'Servers are not started in an untrusted workspace.',
    fix: 'Trust the workspace to start its MCP servers.',
    lastSync: now,
  };
}

/** A server whose variables could not be resolved (unknown variable, missing input, unreadable envFile). */
export function unresolvedState(base: McpServerState, config: McpServerConfig, e: Error, now: number): McpServerState {
  return {
    ...base,
    status: 'error',
    message: `Cannot resolve the server's definition: ${e.message}.`,
    fix: `Check the variables in ${config.source}.`,
    lastSync: now,
  };
}

/** After a lost connection: the state to show and the backoff delay, or no delay once attempts are used up. */
export function lostState(
  prev: McpServerState,
  attempts: number,
  r: { initialDelayMs: number; maxDelayMs: number; maxAttempts: number },
): { state: McpServerState; delayMs?: number } {
  const base = { ...prev, status: 'error' as const, tools: [] };
  if (attempts > r.maxAttempts) {
    const message = `The connection was lost; gave up after ${r.maxAttempts} reconnect attempts.`;
    return { state: { ...base, message, fix: 'Check the server, then refresh.' } };
  }
  const delayMs = Math.min(r.initialDelayMs * 2 ** (attempts - 1), r.maxDelayMs);
  const message = `The connection was lost; reconnecting in ${delayMs} ms (attempt ${attempts} of ${r.maxAttempts}).`;
  return { state: { ...base, message, fix: 'Wait, or refresh.' }, delayMs };
}

/** A configured server before its first sync: named, placed, not connected. */
export function initialState(config: McpServerConfig, folderName: string): McpServerState {
  return {
    name: config.name,
    folderName,
    transport: config.type,
    source: config.source,
    identity: serverIdentity(config),
    status: 'error',
    tools: [],
  };
}

/**
 * The servers of every config the options name, with the problems found; a server named like VS Code's
 * own tools server is refused when those tools are synced too.
 */
export async function loadConfiguredServers(
  o: McpSyncManagerOptions,
): Promise<{ servers: McpServerConfig[]; errors: McpConfigError[]; inputs: McpInputDeclaration[] }> {
  const loaded = await loadMcpConfig({
    workspaceFolder: o.workspaceFolder,
    files: o.configFiles,
    settingServers: o.settingServers,
  });
  const errors = [...loaded.errors];
  const servers = loaded.servers.filter((s) => {
    if (s.name !== VSCODE_SERVER || !o.vscodeTools) return true;
    errors.push({
      file: s.source,
      line: 0,
      column: 0,
      message: `the server name '${VSCODE_SERVER}' is reserved for VS Code's own tools; this one is ignored`,
    });
    return false;
  });
  return { servers, errors, inputs: loaded.inputs };
}

/** Equal for two states with the same tools (names and schemas): a change fires `onDidChangeTools`. */
export function toolsFingerprint(s: McpServerState): string {
  return JSON.stringify(s.tools.map((t) => [t.name, t.tool]));
}
