// Where Context Desk keeps its files: `<workspace>/<contextDesk.storeFolder>` in a trusted folder window,
// else the extension's own storage (an untrusted or folder-less window never writes into the workspace).
// The setting may name a folder outside the workspace only from the user's own settings; a folder the
// store refuses (the workspace root, an ancestor, outside, not a store) falls back to `.context-desk`,
// then to the extension's storage, and the user is told why and how to fix it.
import * as path from 'node:path';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { SECTION } from './settings';

export const DEFAULT_STORE_FOLDER = '.context-desk';

export interface ContextFolder {
  /** Absolute path of the store root. */
  root: string;
  /** The workspace folder it lives in, when it lives in one. */
  workspaceFolder?: string;
  /** The folder came from the user's own settings (or is the extension's storage): it may lie outside the workspace. */
  allowOutsideWorkspace: boolean;
  /** What chose it, for messages (`contextDesk.storeFolder`, or a description of the fallback). */
  source: string;
}

/** Resolves the store folder of this window; remembers folders the store refused so every caller agrees. */
export class ContextFolders {
  private readonly refused = new Map<string, string>();

  constructor(private readonly context: vscode.ExtensionContext) {}

  private storage(workspaceFolder?: string): ContextFolder {
    const storage = this.context.storageUri ?? this.context.globalStorageUri;
    return {
      root: path.join(storage.fsPath, 'context-desk'),
      ...(workspaceFolder ? { workspaceFolder } : {}),
      allowOutsideWorkspace: true,
      source: "the extension's storage",
    };
  }

  /** The folder every part of the extension uses now. */
  current(): ContextFolder {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file' || !vscode.workspace.isTrusted)
      return this.storage(folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined);
    const ws = folder.uri.fsPath;
    const inspected = vscode.workspace.getConfiguration(SECTION).inspect<string>('storeFolder');
    const fromWorkspace = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
    const value = fromWorkspace ?? inspected?.globalValue ?? DEFAULT_STORE_FOLDER;
    const candidates: ContextFolder[] = [
      {
        root: path.resolve(ws, typeof value === 'string' ? expandHome(value) : DEFAULT_STORE_FOLDER),
        workspaceFolder: ws,
        allowOutsideWorkspace: fromWorkspace === undefined,
        source: `contextDesk.storeFolder (${fromWorkspace === undefined ? 'user settings' : 'workspace settings'})`,
      },
      {
        root: path.join(ws, DEFAULT_STORE_FOLDER),
        workspaceFolder: ws,
        allowOutsideWorkspace: false,
        source: 'the default',
      },
    ];
    for (const c of candidates) {
      const why = this.refused.get(c.root) ?? placementProblem(c.root, ws, c.allowOutsideWorkspace);
      if (!why) return c;
      this.refused.set(c.root, `${c.source}: ${why}`);
    }
    return this.storage(ws);
  }

  /** The store refused `root`: later calls of `current()` fall back. */
  refuse(root: string, why: string): void {
    this.refused.set(root, why);
  }

  /** Every folder refused so far, with why. */
  refusals(): [root: string, why: string][] {
    return [...this.refused];
  }
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The lexical placement rules (the store re-checks them with real paths, and checks the marker). */
export function placementProblem(root: string, workspace: string, allowOutside: boolean): string | undefined {
  if (isInside(root, workspace))
    return `${root} is the workspace folder or contains it; the store ignores and rotates files in its own folder`;
  if (!allowOutside && !isInside(workspace, root))
    return `${root} is outside the workspace; only your user settings may place the store there`;
  return undefined;
}
