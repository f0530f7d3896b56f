// Claude Code 2.1 sessions keep sub-agents and the call that wrote a compaction summary in files of
// their own (`<session>/subagents/agent-<id>.jsonl`); the fixture project folder holds a main session
// written for these tests and trimmed public files (test/fixtures/trajectories/README.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextOf, loadTrajectories, loadTrajectoryFile, TrajectoryError } from '../../../src/core/trajectories';
import { fixture } from './helpers';

const SESSION = '4d5611e5-241a-462a-8d15-5122611a9569';
const project = fixture('claude-code-project');
const compaction = join(project, SESSION, 'subagents', 'agent-acompact-e1f845.jsonl');

test('Claude Code compaction call (agent-acompact-*): replayed over the main conversation it was sent with', async () => {
  // Replaying the project folder reads it as replaying the file alone does.
  const { trajectories, skipped } = await loadTrajectories([project]);
  assert.deepEqual(skipped, []);
  const t = trajectories.find((x) => x.id === join(SESSION, 'subagents', 'agent-acompact-e1f845.jsonl'));
  assert.deepEqual(await loadTrajectoryFile(compaction), [{ ...t!, id: 'agent-acompact-e1f845.jsonl' }]);
  assert.equal(t!.calls!.length, 1, 'the one call that wrote the summary');
  const sent = contextOf(t!, t!.calls![0]!);
  // The main session's conversation up to the compaction, each hook reminder after the tool result it
  // followed, then the summary prompt; nothing from after the boundary.
  assert.deepEqual(
    sent.map((m) => `${m.role}/${m.origin}`),
    [
      'user/person',
      'assistant/agent',
      'tool/environment',
      'user/environment',
      'assistant/agent',
      'tool/environment',
      'user/environment',
      'assistant/agent',
      'tool/environment',
      'user/environment',
      'user/environment',
    ],
  );
  assert.match(sent[0]!.content, /^Work on spotter-dov/);
  assert.match(sent[3]!.content, /PostToolUse:Edit hook additional context/);
  assert.match(sent.at(-1)!.content, /^Your task is to create a detailed summary of the conversation so far/);
  assert.ok(!sent.some((m) => m.content.startsWith('This session is being continued')));
  assert.equal(t!.calls![0]!.recorded?.inputTokens, 173_514);
  assert.match(t!.warnings!.join('\n'), /its prompt was the main conversation up to the compaction/);
});

test('Claude Code compaction call without its session beside it: refused, not counted from its few records', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'cd-acompact-')), SESSION, 'subagents');
  mkdirSync(dir, { recursive: true });
  copyFileSync(compaction, join(dir, 'agent-acompact-e1f845.jsonl'));
  await assert.rejects(loadTrajectoryFile(join(dir, 'agent-acompact-e1f845.jsonl')), (e: unknown) => {
    assert.ok(e instanceof TrajectoryError);
    assert.match(e.reason, /compaction call .*its prompt was the main conversation/);
    assert.equal(e.group, 'Claude Code compaction call without its session (replay the project folder)');
    return true;
  });
});

const explore = join(project, '8463c716-a2ea-4c14-9efa-87158ebd9f20', 'subagents', 'agent-a7be2f0.jsonl');

test('Claude Code 2.1 (stop_reason null on every record): prompt figures kept, the message_start output snapshot dropped', async () => {
  const [t] = await loadTrajectoryFile(explore);
  assert.deepEqual(
    t!.calls!.map((c) => c.recorded),
    [
      { inputTokens: 17_877, cachedTokens: 15_511, cacheWriteTokens: 2363 },
      { inputTokens: 20_906, cachedTokens: 17_874, cacheWriteTokens: 3025 },
    ],
    'no output figure: replay counts the reply text instead of the 3 and 4 tokens recorded',
  );
  // A record that ends the response (it has a stop reason) holds the final output count: that one is used.
  const lines = readFileSync(explore, 'utf8').trimEnd().split('\n');
  // A record of the second response (its last one hangs on a side branch below hook progress records).
  const last = lines.findIndex((l) => l.includes('"uuid":"da003159-'));
  const r = JSON.parse(lines[last]!) as { message: { stop_reason: string; usage: { output_tokens: number } } };
  r.message.stop_reason = 'tool_use';
  r.message.usage.output_tokens = 187;
  lines[last] = JSON.stringify(r);
  const dir = mkdtempSync(join(tmpdir(), 'cd-stop-'));
  writeFileSync(join(dir, 'agent-a7be2f0.jsonl'), lines.join('\n') + '\n');
  const [ended] = await loadTrajectoryFile(join(dir, 'agent-a7be2f0.jsonl'));
  assert.deepEqual(
    ended!.calls!.map((c) => c.recorded?.outputTokens),
    [undefined, 187],
  );
});

test('Claude Code 2.1 parallel tool calls: the calls and results written on side branches are replayed, not abandoned', async () => {
  // Each tool_use record of a response and each tool result names the record written before it in its own
  // chain: here the second of three results hangs beside the path, and the second response's second call
  // and its result hang below four PreToolUse hook progress records.
  const [t] = await loadTrajectoryFile(explore);
  const calls = t!.messages.map((m) => (m.toolCalls ?? []).map((c) => c.id.slice(-6)));
  const results = t!.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId!.slice(-6));
  assert.deepEqual(
    calls.filter((c) => c.length > 0),
    [
      ['hvjWMi', '1dvvR8', 'HgjdmZ'],
      ['afNuA5', '8M8H3T'],
    ],
  );
  assert.deepEqual(results, ['hvjWMi', '1dvvR8', 'HgjdmZ', '8M8H3T', 'afNuA5']);
  assert.equal(t!.calls!.length, 2, 'records of one response are still one call');
  // The second call was sent with all three results of the first.
  const sent = contextOf(t!, t!.calls![1]!);
  assert.deepEqual(
    sent.filter((m) => m.role === 'tool').map((m) => m.toolCallId!.slice(-6)),
    ['hvjWMi', '1dvvR8', 'HgjdmZ'],
  );
  assert.match(sent.find((m) => m.toolCallId?.endsWith('1dvvR8'))!.content, /SessionRegistry/);
  assert.doesNotMatch(t!.warnings!.join('\n'), /abandoned/);
});

test('Claude Code main session replayed alone: its sub-agent and compaction call kept elsewhere are said, and the lower bound', async () => {
  const [t, more] = await loadTrajectoryFile(join(project, `${SESSION}.jsonl`));
  assert.equal(more, undefined, 'the sub-agent is not in this file');
  const said = t!.warnings!.join('\n');
  assert.match(said, /1 sub-agent ran in a file of its own \(<session>\/subagents\/agent-<id>\.jsonl\)/);
  assert.match(said, /the call that wrote each summary is kept in <session>\/subagents\/agent-acompact-\*\.jsonl/);
  assert.match(said, /system prompt, tool definitions and most hook output are not in .*raw counts are a lower bound/);
});
