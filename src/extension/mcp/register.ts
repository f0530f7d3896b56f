// Registers the Tools view and its commands.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { McpController } from './mcpController';
import { ToolsTreeProvider, type ToolsNode } from './toolsTree';
import type { SkillsController } from '../skills';

export const TOOLS_VIEW_ID = 'contextDesk.tools';

export function registerToolsView(
  context: vscode.ExtensionContext,
  controller: McpController,
  skills: SkillsController,
): void {
  const tree = new ToolsTreeProvider(controller, skills);
  const view = vscode.window.createTreeView(TOOLS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  const start = (): void => {
    controller.ensureStarted();
    if (skills.skills.length === 0) void skills.refresh();
  };
  if (view.visible) start();
  context.subscriptions.push(
    skills,
    view.onDidChangeVisibility((e) => e.visible && start()),
    controller,
    tree,
    view,
    vscode.commands.registerCommand('contextDesk.mcp.refresh', async () => {
      await skills.refresh();
      return controller.refresh();
    }),
    vscode.commands.registerCommand('contextDesk.mcp.openDescription', async (node?: ToolsNode) => {
      const target = node?.kind === 'tool' ? node : await pickTool(controller);
      if (!target) return;
      await vscode.window.showTextDocument(vscode.Uri.file(target.tool.file), { preview: true });
    }),
    vscode.commands.registerCommand('contextDesk.mcp.openServerFolder', async (node?: ToolsNode) => {
      const dir = controller.manager.mcpDir;
      if (!dir) return;
      const server = node?.kind === 'server' || node?.kind === 'tool' ? node.server : undefined;
      const file = server ? path.join(dir, server.folderName, 'SERVER.md') : path.join(dir, 'INDEX.md');
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
    }),
  );
}

async function pickTool(controller: McpController): Promise<Extract<ToolsNode, { kind: 'tool' }> | undefined> {
  const items = controller.manager.servers.flatMap((server) =>
    server.tools
      .filter((t) => t.file)
      .map((tool) => ({
        label: tool.name,
        description: server.name,
        detail: tool.summary,
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
