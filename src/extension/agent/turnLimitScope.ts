// Where the turn limit that stopped a run was set. readSettings takes a workspace's contextDesk.agent.maxTurns
// only where it is lower than the user's, so "Open Setting" on the user settings showed a value that did
// not apply, and raising it changed nothing: the notice names the scope whose value applied.
import type { SettingScope } from '../settings';

/** The setting's layers as `WorkspaceConfiguration.inspect` gives them, and the value VS Code applies (`get`). */
export interface TurnLimitLayers {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
  effective?: unknown;
}

const isTurns = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The scope whose value is `applied`: a folder or workspace value no higher than the user's (it binds:
 * raising the user's own would not lift it), else the user settings (`default` when nothing sets it).
 */
export function turnLimitScope(
  layers: TurnLimitLayers | undefined,
  applied: number,
  fallback: number,
): SettingScope | 'default' {
  const user = isTurns(layers?.globalValue) ? layers.globalValue : fallback;
  // The same order readSettings reads them in: the folder's value first; one that VS Code does not
  // apply (Restricted Mode) set nothing.
  const folder = isTurns(layers?.workspaceFolderValue);
  const workspace = folder ? layers?.workspaceFolderValue : layers?.workspaceValue;
  if (isTurns(workspace) && workspace === layers?.effective && workspace === applied && applied <= user)
    return folder ? 'workspaceFolder' : 'workspace';
  return isTurns(layers?.globalValue) ? 'global' : 'default';
}
