// Consent before a server the workspace defines starts. Trusting a folder lets its settings apply; it
// does not mean every program a cloned repository's `.mcp.json` names should run as soon as the Tools
// view or the agent looks at MCP. Such a server waits, disabled, until the user chooses Start in a
// prompt that names what it runs. The choice is kept in workspace state (never in a file a repository
// could ship) per server definition, so a `git pull` that points it at another program, or changes its
// environment (`NODE_OPTIONS`, `PATH`), asks again. Light: activation's reset command uses it.
import type * as vscode from 'vscode';
import { serverIdentity } from '../../core/mcp/identity';
import { definedInFolder } from '../../core/mcp/start-description';
import { mementoStrings } from '../mementoStrings';
import type { McpServerConfig } from '../../core/mcp/types';

const KEY = 'contextDesk.mcp.startAllowed';

/** Whether a server's definition came with the workspace: one of its config files, or a workspace value of the setting. */
export function definedByWorkspace(
  config: McpServerConfig,
  workspaceFolder: string | undefined,
  workspaceSettingNames: ReadonlySet<string>,
): boolean {
  if (config.source === 'setting') return workspaceSettingNames.has(config.name);
  return definedInFolder(config, workspaceFolder);
}

/** Server names that the workspace's or a folder's value of `contextDesk.mcp.servers` defines. */
export function workspaceValueNames(
  inspected: { workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined,
): Set<string> {
  const names = new Set<string>();
  for (const v of [inspected?.workspaceValue, inspected?.workspaceFolderValue])
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const name of Object.keys(v)) names.add(name);
  return names;
}

/** What a consent is for: the server's name and its identity with env values (only a hash is kept). */
export function consentKey(config: McpServerConfig): string {
  return JSON.stringify([config.name, serverIdentity(config, { envValues: true })]);
}

export class McpStartConsent {
  constructor(private readonly state: vscode.Memento) {}

  private entries(): string[] {
    return mementoStrings(this.state, KEY);
  }

  isAllowed(config: McpServerConfig): boolean {
    return this.entries().includes(consentKey(config));
  }

  async allow(configs: readonly McpServerConfig[]): Promise<void> {
    const all = new Set(this.entries());
    for (const c of configs) all.add(consentKey(c));
    await this.state.update(KEY, [...all]);
  }

  /** Forgets every server allowed to start; returns how many there were. */
  async reset(): Promise<number> {
    const n = this.entries().length;
    await this.state.update(KEY, undefined);
    return n;
  }
}
