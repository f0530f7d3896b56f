import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrajectoryFile, type Trajectory } from '../../../src/core/trajectories';

/** A rollout of these `[type, payload]` records. */
async function rollout(records: [string, object][]): Promise<Trajectory> {
  const dir = mkdtempSync(join(tmpdir(), 'cd-codex-'));
  const lines = records.map(([type, payload]) =>
    JSON.stringify({ timestamp: '2026-11-20T10:00:00.000Z', type, payload }),
  );
  writeFileSync(join(dir, 'rollout.jsonl'), lines.join('\n') + '\n');
  const [t] = await loadTrajectoryFile(join(dir, 'rollout.jsonl'));
  return t!;
}

let total = 0;
const usage = (input: number): [string, object] => {
  total += input;
  return [
    'event_msg',
    {
      type: 'token_count',
      info: {
        total_token_usage: { input_tokens: total, output_tokens: 0 },
        last_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: 20 },
      },
    },
  ];
};

// codex-rs/protocol/src/models.rs: `tool_search_call` (the model looks tools up, `arguments` a JSON value)
// answered by `tool_search_output` (the `tools` it loaded, sent to the model from then on);
// `compaction` / `context_compaction` (an encrypted summary the provider wrote in the history).
test('Codex: a tool search is a tool call and its output the tools it loaded; an inline compaction is said', async () => {
  const t = await rollout([
    ['session_meta', { id: 's1', base_instructions: { text: 'You are Codex.' } }],
    ['turn_context', { cwd: '/w', model: 'gpt-5.5' }],
    ['response_item', { type: 'additional_tools', role: 'developer', tools: [{ type: 'function', name: 'jira' }] }],
    ['response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list my PRs' }] }],
    [
      'response_item',
      { type: 'tool_search_call', call_id: 'ts1', execution: 'client', arguments: { query: 'github pull requests' } },
    ],
    usage(1000),
    [
      'response_item',
      {
        type: 'tool_search_output',
        call_id: 'ts1',
        status: 'completed',
        execution: 'client',
        tools: [{ type: 'function', name: 'gh_pr_list', description: 'List pull requests', parameters: {} }],
      },
    ],
    ['response_item', { type: 'function_call', name: 'gh_pr_list', arguments: '{}', call_id: 'c1' }],
    usage(1500),
    ['response_item', { type: 'function_call_output', call_id: 'c1', output: 'PR #1 fix the build' }],
    ['response_item', { type: 'context_compaction', encrypted_content: 'gAAAA' }],
    ['response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'One PR.' }] }],
    usage(800),
  ]);
  const search = t.messages.find((m) => m.toolCalls?.some((c) => c.id === 'ts1'));
  assert.deepEqual(search?.toolCalls, [
    { id: 'ts1', name: 'tool_search', arguments: '{"query":"github pull requests"}' },
  ]);
  const loaded = t.messages.find((m) => m.role === 'tool' && m.toolCallId === 'ts1');
  assert.match(loaded?.content ?? '', /gh_pr_list/);
  assert.deepEqual(
    t.calls!.map((c) => c.recorded?.inputTokens),
    [1000, 1500, 800],
  );
  const warnings = t.warnings!.join('\n');
  assert.match(warnings, /1 compaction item in the history/);
  assert.match(warnings, /raw counts more than was sent/);
  assert.doesNotMatch(warnings, /tool_search/);
  assert.match(warnings, /1 set of tool definitions added to the session \(additional_tools\) not counted/);
});
