// Claude Code 2.1 sessions keep sub-agents and the call that wrote a compaction summary in files of
// their own (`<session>/subagents/agent-<id>.jsonl`); the fixture project folder holds a main session
// written for these tests and trimmed public files (test/fixtures/trajectories/README.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
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
