import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRetryFilterStrategy, describeToolCall, toolsUsedLine } from '../../../src/core/strategies/retry-filter';
import { conversation } from './helpers';

test('without the retry flag the history is sent as is', async () => {
  const history = conversation([{ action: 2, observations: [10], tool: true }]);
  const r = await createRetryFilterStrategy().build(history);
  assert.deepEqual(r.messages, history);
});

test('on a retry, tool results and tool-calling messages go; one line names the tools used', async () => {
  const history = conversation([
    { action: 2, observations: [10], tool: true },
    { action: 2, observations: [10], tool: false },
    { action: 2, observations: [10], tool: true },
  ]);
  const r = await createRetryFilterStrategy().build(history, { retry: true });
  assert.ok(r.messages.every((m) => m.role !== 'tool' && !(m.toolCalls && m.toolCalls.length > 0)));
  assert.deepEqual(r.messages.slice(0, 2), history.slice(0, 2));
  assert.equal(r.messages.at(-1)!.content, 'Tools already used: bash(command="ls 0"), bash(command="ls 2")');
  // The text-only turn (no tool calls) stays.
  assert.ok(r.messages.some((m) => m.content.startsWith('act1 ')));
});

test('tool calls are described by their first two scalar arguments, clipped; bad JSON is shown raw', () => {
  assert.equal(
    describeToolCall({
      id: '1',
      name: 'edit',
      arguments: JSON.stringify({ path: '/a.ts', command: 'view', nested: {} }),
    }),
    'edit(path="/a.ts", command="view")',
  );
  assert.equal(describeToolCall({ id: '1', name: 'bash', arguments: '{"command": "ls' }), 'bash({"command": "ls)');
  const long = describeToolCall({ id: '1', name: 'bash', arguments: JSON.stringify({ command: 'x'.repeat(100) }) });
  assert.ok(long.length < 60);
  const dup = toolsUsedLine([
    { id: '1', name: 'bash', arguments: '{"command":"ls"}' },
    { id: '2', name: 'bash', arguments: '{"command":"ls"}' },
  ]);
  assert.equal(dup, 'Tools already used: bash(command="ls")');
});
