// "Open Setting" on the turn-limit notice: opens the scope whose contextDesk.agent.maxTurns applied. A
// workspace's lower value is opened in its settings file, at the setting; the user's in the Settings editor.
import * as vscode from 'vscode';
import { SECTION, SETTINGS, type Settings } from '../settings';
import { turnLimitScope } from './turnLimitScope';
import type { TurnLimitScope } from './maxTurnsNotice';

const KEY = 'agent.maxTurns';

/** Where the turn limit `applied` (the value the session ran with) was set. */
export function currentTurnLimitScope(applied: number): TurnLimitScope {
  const config = vscode.workspace.getConfiguration(SECTION);
  return turnLimitScope(
    { ...config.inspect<unknown>(KEY), effective: config.get<unknown>(KEY) },
    applied,
    SETTINGS[KEY].default,
  );
}

/** Opens the setting where the limit in effect now was set; resolves to the scope opened. */
export async function openTurnLimitSetting(settings: Settings): Promise<TurnLimitScope> {
  const scope = currentTurnLimitScope(settings[KEY]);
  const file = scope === 'global' || scope === 'default' ? undefined : settingsFile();
  if (!file) {
    await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.${KEY}`);
    return scope;
  }
  const editor = await vscode.window.showTextDocument(file);
  // The key as written in the file (JSON with comments: a plain search, linear in its size).
  const at = editor.document.getText().indexOf(`"${SECTION}.${KEY}"`);
  if (at >= 0) {
    const start = editor.document.positionAt(at);
    const range = new vscode.Range(start, editor.document.positionAt(at + SECTION.length + KEY.length + 3));
    editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
  }
  return scope;
}

/** The workspace's settings: the .code-workspace file of a multi-root workspace, else the folder's. */
function settingsFile(): vscode.Uri | undefined {
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile?.scheme === 'file') return workspaceFile;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder && vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
}
