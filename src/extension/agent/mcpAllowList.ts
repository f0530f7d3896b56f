// "Always allow this tool": MCP tools the user allowed without asking, per server and tool, kept in
// the workspace's state (never in settings a repository could ship). Light: activation registers the
// reset command from here.
import type * as vscode from 'vscode';

const KEY = 'contextDesk.mcp.alwaysAllowed';

/** One entry per server and tool; JSON keeps names with any characters apart. */
const entry = (server: string, tool: string): string => JSON.stringify([server, tool]);

export class McpAllowList {
  constructor(private readonly state: vscode.Memento) {}

  private entries(): string[] {
    const v = this.state.get<unknown>(KEY);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  has(server: string, tool: string): boolean {
    return this.entries().includes(entry(server, tool));
  }

  async add(server: string, tool: string): Promise<void> {
    const e = entry(server, tool);
    const all = this.entries();
    if (!all.includes(e)) await this.state.update(KEY, [...all, e]);
  }

  /** The allowed tools as `[server, tool]` pairs. */
  list(): [string, string][] {
    return this.entries().flatMap((e) => {
      try {
        const [server, tool] = JSON.parse(e) as unknown[];
        return typeof server === 'string' && typeof tool === 'string' ? [[server, tool] as [string, string]] : [];
      } catch {
        return [];
      }
    });
  }

  /** Forgets every "always allow"; returns how many there were. */
  async reset(): Promise<number> {
    const n = this.entries().length;
    await this.state.update(KEY, undefined);
    return n;
  }
}
