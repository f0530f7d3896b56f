// The notice of the turn limit (contextDesk.agent.maxTurns): which value stopped the run, where it is set,
// and how to go on. Pure text; the panel's "Open Setting" opens that scope (turnLimitSetting.ts).
import type { NoticeAction } from '../../protocol/chat';

export const MAX_TURNS_SETTING: NoticeAction = { label: 'Open Setting', action: 'maxTurnsSetting' };

/** Where a workspace's lower turn limit comes from (see turnLimitScope.ts). */
export type TurnLimitScope = 'global' | 'workspace' | 'workspaceFolder' | 'default';
const WORKSPACE_LABELS: Partial<Record<TurnLimitScope, string>> = {
  workspace: 'workspace settings',
  workspaceFolder: 'workspace folder settings',
};

/**
 * The turn limit is no failure: the conversation goes on with the next message, and the limit is a
 * setting. A workspace's lower value is named as such: raising the user's own would not lift it.
 */
export function maxTurnsText(limit: number | undefined, scope?: TurnLimitScope): string {
  const calls = limit === undefined ? 'the most model calls' : `${limit} model call${limit === 1 ? '' : 's'}`;
  const where = scope && WORKSPACE_LABELS[scope];
  if (where && limit !== undefined)
    return (
      `The agent stopped after ${calls} for one message: contextDesk.agent.maxTurns (Context Desk › Agent: Max Turns) is ${limit} in the ${where}, ` +
      `which may lower your own limit, never raise it. Send a message such as "continue" to go on from here; a higher limit in the ${where} applies from your next message.`
    );
  return (
    `The agent stopped after ${calls} for one message (setting Context Desk › Agent: Max Turns, contextDesk.agent.maxTurns). ` +
    'Send a message such as "continue" to go on from here; a higher limit applies from your next message.'
  );
}
