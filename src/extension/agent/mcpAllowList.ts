// "Always allow this tool": MCP tools the user allowed without asking, per server and tool, kept in
// the workspace's state (never in settings a repository could ship), and only while the server is the
// one the user allowed (its identity: the command or URL its config declares). Light: activation
// registers the reset command from here.
import type * as vscode from 'vscode';
import { mementoStrings } from '../mementoStrings';

const KEY = 'contextDesk.mcp.alwaysAllowed';

/** One entry per server (name and identity) and tool; JSON keeps names with any characters apart. */
const entry = (server: string, identity: string, tool: string): string => JSON.stringify([server, identity, tool]);

export class McpAllowList {
  constructor(private readonly state: vscode.Memento) {}

  private entries(): string[] {
    return mementoStrings(this.state, KEY);
  }

  has(server: string, identity: string, tool: string): boolean {
    return this.entries().includes(entry(server, identity, tool));
  }

  async add(server: string, identity: string, tool: string): Promise<void> {
    const e = entry(server, identity, tool);
    const all = this.entries();
    if (!all.includes(e)) await this.state.update(KEY, [...all, e]);
  }

  /** Forgets every "always allow"; returns how many there were. */
  async reset(): Promise<number> {
    const n = this.entries().length;
    await this.state.update(KEY, undefined);
    return n;
  }
}
