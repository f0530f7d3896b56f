// The "Tools" view: MCP servers with their status, their tools, and the Agent Skills found.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpServerState, McpToolEntry } from '../../core/mcp';
import { stripControls } from '../../core/mcp/inert';
import type { ToolsControllers } from './register';
import type { Skill } from '../../core/skills';

export type ToolsNode =
  | { kind: 'skills' }
  | { kind: 'skill'; skill: Skill }
  | { kind: 'server'; server: McpServerState }
  | { kind: 'tool'; server: McpServerState; tool: McpToolEntry }
  | { kind: 'message'; label: string; detail?: string; icon: string };

const STATUS_ICON: Record<McpServerState['status'], vscode.ThemeIcon> = {
  connected: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  'needs-auth': new vscode.ThemeIcon('key', new vscode.ThemeColor('notificationsWarningIcon.foreground')),
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
  disabled: new vscode.ThemeIcon('circle-slash'),
};

/** Server-controlled text on one line of the tree: no control characters or escape sequences. */
const label = (text: string, max = 200): string => {
  const s = stripControls(text, true);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

/**
 * A tooltip whose server-controlled parts are plain text: appendText escapes Markdown, isTrusted false
 * and no HTML mean no command links, no scripts, no fake headings or links.
 */
function inertTooltip(parts: ({ bold: string } | { text: string } | { italic: string })[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  md.isTrusted = false;
  md.supportHtml = false;
  for (const p of parts) {
    if ('bold' in p) md.appendMarkdown('**').appendText(label(p.bold)).appendMarkdown('**');
    else if ('italic' in p) md.appendMarkdown(`*${p.italic}*`);
    else md.appendText(stripControls(p.text));
  }
  return md;
}

export class ToolsTreeProvider implements vscode.TreeDataProvider<ToolsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ToolsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private subscription: vscode.Disposable | undefined;

  constructor(private readonly load: () => ToolsControllers) {}

  /** Loads the controllers on first use and follows their changes from then on. */
  private controllers(): ToolsControllers {
    const c = this.load();
    this.subscription ??= vscode.Disposable.from(
      c.mcp.onDidChange(() => this.changed.fire(undefined)),
      c.skills.onDidChange(() => this.changed.fire(undefined)),
    );
    return c;
  }

  getChildren(node?: ToolsNode): ToolsNode[] {
    const { mcp, skills } = this.controllers();
    if (!node) {
      const skillsNode: ToolsNode = { kind: 'skills' };
      const servers = mcp.manager.servers;
      const errors = mcp.manager.configErrors.map<ToolsNode>((e) => ({
        kind: 'message',
        label: label(`${path.basename(e.file)}:${e.line}: ${e.message}`),
        detail: e.file,
        icon: 'warning',
      }));
      if (servers.length === 0 && errors.length === 0) {
        return [
          {
            kind: 'message',
            label: 'No MCP servers configured',
            detail:
              'Add servers to .vscode/mcp.json, .cursor/mcp.json, .mcp.json or the contextDesk.mcp.servers setting.',
            icon: 'info',
          },
          skillsNode,
        ];
      }
      return [...errors, ...servers.map<ToolsNode>((server) => ({ kind: 'server', server })), skillsNode];
    }
    if (node.kind === 'skills') {
      if (skills.skills.length === 0) {
        const where =
          '.agents/skills/*/, .claude/skills/*/, .cursor/skills/*/, .github/skills/*/ or ~/.claude/skills/*/';
        return [
          {
            kind: 'message',
            label: 'No skills found',
            detail: `Skills are SKILL.md files under ${where}.`,
            icon: 'info',
          },
        ];
      }
      return skills.skills.map<ToolsNode>((skill) => ({ kind: 'skill', skill }));
    }
    if (node.kind === 'server') {
      if (node.server.tools.length === 0 && node.server.message) {
        return [
          {
            kind: 'message',
            label: label(node.server.fix ?? node.server.message),
            detail: stripControls(node.server.message),
            icon: 'lightbulb',
          },
        ];
      }
      return node.server.tools.map<ToolsNode>((tool) => ({ kind: 'tool', server: node.server, tool }));
    }
    return [];
  }

  getTreeItem(node: ToolsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'skills': {
        const item = new vscode.TreeItem('Skills', vscode.TreeItemCollapsibleState.Collapsed);
        item.description = `${this.controllers().skills.skills.length}`;
        item.iconPath = new vscode.ThemeIcon('book');
        return item;
      }
      case 'skill': {
        const item = new vscode.TreeItem(node.skill.name, vscode.TreeItemCollapsibleState.None);
        item.description = node.skill.description;
        item.tooltip = `${node.skill.description}\n${node.skill.file}`;
        item.iconPath = new vscode.ThemeIcon('mortar-board');
        item.contextValue = 'skill';
        item.command = { command: 'vscode.open', title: 'Open Skill', arguments: [vscode.Uri.file(node.skill.file)] };
        return item;
      }
      case 'server': {
        const s = node.server;
        const item = new vscode.TreeItem(
          label(s.name),
          s.tools.length > 0 || s.message
            ? vscode.TreeItemCollapsibleState.Collapsed
            : vscode.TreeItemCollapsibleState.None,
        );
        item.description = `${s.status}${s.tools.length ? ` · ${s.tools.length} tools` : ''}`;
        item.iconPath = STATUS_ICON[s.status];
        item.contextValue = `mcpServer.${s.status}`;
        item.tooltip = inertTooltip([
          { bold: s.name },
          { text: ` (${s.transport}): ${s.status}` },
          ...(s.message ? [{ text: `\n\n${s.message}` }] : []),
          ...(s.fix ? [{ text: '\n\n' }, { italic: 'Fix:' }, { text: ` ${s.fix}` }] : []),
        ]);
        return item;
      }
      case 'tool': {
        const item = new vscode.TreeItem(label(node.tool.name), vscode.TreeItemCollapsibleState.None);
        item.description = label(node.tool.summary);
        item.tooltip = label(node.tool.summary, 1000);
        item.iconPath = new vscode.ThemeIcon(node.tool.inputSchemaError ? 'warning' : 'tools');
        item.contextValue = 'mcpTool';
        if (node.tool.file)
          item.command = { command: 'contextDesk.mcp.openDescription', title: 'Open Description', arguments: [node] };
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(label(node.label), vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon(node.icon);
        if (node.detail) item.tooltip = stripControls(node.detail);
        return item;
      }
    }
  }

  dispose(): void {
    this.subscription?.dispose();
    this.changed.dispose();
  }
}
