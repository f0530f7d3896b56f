// Where Context Desk keeps its files: `<workspace>/<contextDesk.storeFolder>` in a trusted folder window,
// else the extension's own storage (an untrusted or folder-less window never writes into the workspace).
import * as path from 'node:path';
import * as vscode from 'vscode';

export interface ContextFolder {
  /** Absolute path of the store root. */
  root: string;
  /** The workspace folder it lives in, when it lives in one. */
  workspaceFolder?: string;
}

export function resolveContextFolder(context: vscode.ExtensionContext, storeFolder: string): ContextFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder && folder.uri.scheme === 'file' && vscode.workspace.isTrusted) {
    const root = path.resolve(folder.uri.fsPath, storeFolder);
    // A setting that points outside the workspace is not honoured: the store stays inside it.
    const inside = root === folder.uri.fsPath || root.startsWith(folder.uri.fsPath + path.sep);
    return { root: inside ? root : path.join(folder.uri.fsPath, '.context-desk'), workspaceFolder: folder.uri.fsPath };
  }
  const storage = context.storageUri ?? context.globalStorageUri;
  return { root: path.join(storage.fsPath, 'context-desk'), ...(folder ? { workspaceFolder: folder.uri.fsPath } : {}) };
}
