// The turn-limit notice names the scope whose contextDesk.agent.maxTurns applied: a workspace may lower
// the user's limit (readSettings), and then raising the user's own value changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readSettings } from '../../../src/extension/settings';
import { turnLimitScope, type TurnLimitLayers } from '../../../src/extension/agent/turnLimitScope';
import { ChatModel, emptyChat } from '../../../src/extension/agent/chatModel';
import { applyChatPatches } from '../../../src/protocol/chatPatch';

const DEFAULT = 50;
type Layers = Omit<TurnLimitLayers, 'effective'>;

/** VS Code's own reading: the most specific layer wins (what `get` returns). */
const effective = (l: Layers): unknown => l.workspaceFolderValue ?? l.workspaceValue ?? l.globalValue;

/** The limit a session runs with, read as the extension reads it. */
function applied(l: Layers): number {
  return readSettings({
    get: <T>(key: string, fallback?: T) => (key === 'agent.maxTurns' ? (effective(l) ?? fallback) : fallback) as T,
    inspect: ((key: string) => (key === 'agent.maxTurns' ? { key, ...l } : { key })) as never,
  })['agent.maxTurns'];
}

const scopeOf = (l: Layers): ReturnType<typeof turnLimitScope> =>
  turnLimitScope({ ...l, effective: effective(l) }, applied(l), DEFAULT);

test('a lower workspace or folder value is where the limit came from; else the user settings', () => {
  assert.equal(scopeOf({ globalValue: 30, workspaceValue: 1 }), 'workspace');
  assert.equal(scopeOf({ workspaceValue: 5 }), 'workspace', 'lower than the default the user kept');
  assert.equal(scopeOf({ globalValue: 30, workspaceFolderValue: 2, workspaceValue: 1 }), 'workspaceFolder');
  assert.equal(scopeOf({ globalValue: 3, workspaceValue: 10 }), 'global', 'a higher workspace value lifts nothing');
  assert.equal(scopeOf({ globalValue: 3 }), 'global');
  assert.equal(scopeOf({}), 'default');
  assert.equal(scopeOf({ workspaceValue: 80 }), 'default');
  // Restricted Mode: VS Code does not apply the workspace's value, so it set nothing.
  assert.equal(turnLimitScope({ globalValue: 5, workspaceValue: 5, effective: 5 }, 5, DEFAULT), 'workspace');
  assert.equal(turnLimitScope({ globalValue: 5, workspaceValue: 5, effective: undefined }, 5, DEFAULT), 'global');
});

test('the scope named holds the limit that applied, and raising it there lifts the limit', () => {
  const turns = fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined });
  fc.assert(
    fc.property(turns, turns, turns, (globalValue, workspaceValue, workspaceFolderValue) => {
      const l: Layers = { globalValue, workspaceValue, workspaceFolderValue };
      const limit = applied(l);
      const scope = scopeOf(l);
      const key = (
        { global: 'globalValue', workspace: 'workspaceValue', workspaceFolder: 'workspaceFolderValue' } as const
      )[scope as 'global'];
      assert.equal(scope === 'default' ? DEFAULT : l[key], limit, JSON.stringify({ l, scope }));
      // A tie (the user's and the workspace's limit are the same) takes raising both; else the one named.
      const user = globalValue ?? DEFAULT;
      const workspace = workspaceFolderValue ?? workspaceValue;
      if (workspace !== undefined && workspace === user) return;
      const raised = { ...l, [scope === 'default' ? 'globalValue' : key]: limit + 10 };
      assert.ok(applied(raised) > limit, JSON.stringify({ l, scope, raised }));
    }),
  );
});

test('the notice names the workspace settings when their lower value stopped the run', () => {
  const notice = (scope: ReturnType<typeof turnLimitScope>): string => {
    const chat = new ChatModel(emptyChat('s', 'masking', 100_000, false), { turnLimitScope: () => scope });
    const view = applyChatPatches(chat.snapshot, chat.event({ type: 'done', reason: 'max-turns', turns: 1, limit: 1 }));
    const item = view.items.find((i) => i.kind === 'notice');
    assert.ok(item?.kind === 'notice');
    assert.deepEqual(item.action, { label: 'Open Setting', action: 'maxTurnsSetting' });
    return item.text;
  };
  assert.match(notice('workspace'), /contextDesk\.agent\.maxTurns .* is 1 in the workspace settings/);
  assert.match(notice('workspace'), /a higher limit in the workspace settings applies from your next message/);
  assert.match(notice('workspaceFolder'), /is 1 in the workspace folder settings/);
  assert.doesNotMatch(notice('global'), /workspace/);
  assert.match(notice('global'), /after 1 model call /);
});
