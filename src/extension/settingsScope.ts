// Writes a panel picker's choice to the scope where the setting is set now (workspace, else user
// settings), so the value the picker shows is the one the session uses.
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { SECTION, winningScope, type SettingScope } from './settings';

const TARGETS: Record<SettingScope, vscode.ConfigurationTarget> = {
  global: vscode.ConfigurationTarget.Global,
  workspace: vscode.ConfigurationTarget.Workspace,
  workspaceFolder: vscode.ConfigurationTarget.WorkspaceFolder,
};

/** Updates `contextDesk.<key>` where its value comes from; `effective` says whether the value now wins. */
export async function updateWhereSet(
  key: string,
  value: unknown,
): Promise<{ scope: SettingScope; effective: boolean }> {
  const scope = winningScope(vscode.workspace.getConfiguration(SECTION).inspect(key));
  await vscode.workspace.getConfiguration(SECTION).update(key, value, TARGETS[scope]);
  const effective = isDeepStrictEqual(vscode.workspace.getConfiguration(SECTION).get(key), value);
  return { scope, effective };
}
