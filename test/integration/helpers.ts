import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ContextDeskApi } from '../../src/extension/extension';
import type { McpServerState } from '../../src/core/mcp/types';

export const EXTENSION_ID = 'context-desk.context-desk';

export async function api(): Promise<ContextDeskApi> {
  const ext = vscode.extensions.getExtension<ContextDeskApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is loaded`);
  return ext.isActive ? ext.exports : await ext.activate();
}

export function extensionPath(): string {
  return vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
}

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests run with a workspace folder open');
  return folder.uri.fsPath;
}

export { waitFor } from '../support/wait';

/**
 * Syncs MCP and starts the servers the workspace defines, as Start in the consent prompt does (they
 * wait, disabled, until then).
 */
export async function syncAllowingWorkspaceServers(a: ContextDeskApi): Promise<McpServerState[]> {
  await a.tools().mcp.refresh();
  return a.tools().mcp.startWaitingServers();
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, rej) => setTimeout(() => rej(new Error(`${what} did not finish within ${ms} ms`)), ms)),
  ]);
}
