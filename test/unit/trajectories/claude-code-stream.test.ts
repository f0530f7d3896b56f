// Claude Code's headless output (`claude -p --output-format stream-json --verbose`): a sub-agent's
// messages are marked by `parent_tool_use_id` (the Task call that started it), not `isSidechain`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextOf, loadTrajectoryFile } from '../../../src/core/trajectories';

function reply(id: string, block: unknown, prompt: number, parent: string | null = null) {
  const usage = {
    input_tokens: 3,
    cache_read_input_tokens: prompt - 3,
    cache_creation_input_tokens: 0,
    output_tokens: 5,
  };
  const message = { id, role: 'assistant', model: 'claude-sonnet-4-5', content: [block], stop_reason: null, usage };
  return { type: 'assistant', message, parent_tool_use_id: parent, session_id: 's1', uuid: `u-${id}` };
}
const user = (uuid: string, content: unknown, parent: string | null = null) => ({
  type: 'user',
  message: { role: 'user', content },
  parent_tool_use_id: parent,
  session_id: 's1',
  uuid,
});
const result = (id: string, content: string) => [{ type: 'tool_result', tool_use_id: id, content }];

test('Claude Code stream-json: a sub-agent (parent_tool_use_id) is a run of its own, not calls of the main conversation', async () => {
  const records = [
    { type: 'system', subtype: 'init', session_id: 's1', model: 'claude-sonnet-4-5', tools: ['Task', 'Read'] },
    reply('msg_1', { type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'find the loader' } }, 20_000),
    user('u1', [{ type: 'text', text: 'find the loader' }], 'toolu_task'),
    reply(
      'msg_2',
      { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: '/a.ts' } },
      4000,
      'toolu_task',
    ),
    user('u2', result('toolu_read', 'export function load() {}\n'.repeat(200)), 'toolu_task'),
    reply('msg_3', { type: 'text', text: 'It is in /a.ts' }, 6000, 'toolu_task'),
    user('u3', result('toolu_task', 'It is in /a.ts')),
    reply('msg_4', { type: 'text', text: 'The loader is in /a.ts.' }, 20_100),
    { type: 'result', subtype: 'success', total_cost_usd: 0.05, session_id: 's1' },
  ];
  const dir = mkdtempSync(join(tmpdir(), 'cd-stream-json-'));
  writeFileSync(join(dir, 'run.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const [main, sub, more] = await loadTrajectoryFile(join(dir, 'run.jsonl'));
  assert.equal(more, undefined);
  assert.deepEqual(
    main!.calls!.map((c) => c.recorded?.inputTokens),
    [20_000, 20_100],
    "the main conversation's calls only",
  );
  // The last main call sent the Task's result, not the sub-agent's file read.
  assert.ok(!contextOf(main!, main!.calls![1]!).some((m) => m.content.includes('export function load')));
  assert.deepEqual(
    sub!.calls!.map((c) => c.recorded?.inputTokens),
    [4000, 6000],
  );
  const first = contextOf(sub!, sub!.calls![0]!);
  assert.deepEqual(
    first.map((m) => `${m.role}/${m.origin}:${m.content}`),
    ['user/agent:find the loader'],
    "the sub-agent's first call sent its task, written by the main agent, and nothing of the main conversation",
  );
  assert.match(main!.warnings!.join('\n'), /stream-json output \(1 sub-agent replayed as a run of its own/);
  assert.match(main!.warnings!.join('\n'), /the prompt it was started with is not in it/);
});
