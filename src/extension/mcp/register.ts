// Registers the Tools view (MCP servers and skills) and its commands. The controllers behind it load
// on first use: when the view is shown or a command runs.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpController } from './mcpController';
import { terminalText } from '../../core/mcp/inert';
import { ToolsTreeProvider, type ToolsNode } from './toolsTree';
import type { SkillsController } from '../skills';
import type { ShowStoreFile } from '../store/storeFileView';

export const TOOLS_VIEW_ID = 'contextDesk.tools';

export interface ToolsControllers {
  mcp: McpController;
  skills: SkillsController;
}

/** `showFile` opens the store's MCP files read-only, as checked (a tool's file may be a link a server or command made). */
export function registerToolsView(
  context: vscode.ExtensionContext,
  load: () => ToolsControllers,
  showFile: ShowStoreFile,
): void {
  const tree = new ToolsTreeProvider(load);
  const view = vscode.window.createTreeView(TOOLS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  const start = (): void => {
    const { mcp, skills } = load();
    mcp.ensureStarted();
    if (skills.skills.length === 0) void skills.refresh();
  };
  if (view.visible) start();
  context.subscriptions.push(
    tree,
    view,
    view.onDidChangeVisibility((e) => e.visible && start()),
    vscode.commands.registerCommand('contextDesk.mcp.refresh', async () => {
      const { mcp, skills } = load();
      await skills.refresh();
      return mcp.refresh({ askAgain: true });
    }),
    vscode.commands.registerCommand('contextDesk.mcp.openDescription', async (node?: ToolsNode) => {
      const target = node?.kind === 'tool' ? node : await pickTool(load().mcp);
      const dir = load().mcp.manager.mcpDir;
      if (!target || !dir) return false;
      return showFile(path.dirname(dir), target.tool.file, { what: 'the tool description' });
    }),
    vscode.commands.registerCommand('contextDesk.mcp.openServerFolder', async (node?: ToolsNode) => {
      const dir = load().mcp.manager.mcpDir;
      if (!dir) return false;
      const server = node?.kind === 'server' || node?.kind === 'tool' ? node.server : undefined;
      const file = server ? path.join(dir, server.folderName, 'SERVER.md') : path.join(dir, 'INDEX.md');
      return showFile(path.dirname(dir), file, { what: server ? 'the server description' : 'the MCP index' });
    }),
  );
}

async function pickTool(controller: McpController): Promise<Extract<ToolsNode, { kind: 'tool' }> | undefined> {
  const items = controller.manager.servers.flatMap((server) =>
    server.tools
      .filter((t) => t.file)
      .map((tool) => ({
        label: terminalText(tool.name),
        description: terminalText(server.name),
        detail: terminalText(tool.summary),
        node: { kind: 'tool' as const, server, tool },
      })),
  );
  if (items.length === 0) {
    void vscode.window
      .showInformationMessage('Context Desk: no MCP tools are synced yet.', 'Refresh')
      .then((c) => c && controller.refresh());
    return undefined;
  }
  return (
    await vscode.window.showQuickPick(items, {
      title: 'Open MCP Tool Description',
      matchOnDescription: true,
      matchOnDetail: true,
    })
  )?.node;
}
