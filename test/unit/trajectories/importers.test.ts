import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTrajectory, loadTrajectoryFile } from '../../../src/core/trajectories';
import { splitTurns } from '../../../src/core/messages';

const dir = join(__dirname, '../../fixtures/trajectories');
const fixture = (name: string) => join(dir, name);

test('mini-swe-agent: messages, usage per call, the unsent submission dropped', async () => {
  const t = await loadTrajectoryFile(fixture('mini-swe-agent.traj.json'));
  assert.equal(t.format, 'mini-swe-agent');
  assert.equal(t.id, 'acme__text-42');
  assert.deepEqual(
    t.messages.map((m) => m.role),
    ['system', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant'],
  );
  assert.ok(!t.messages.some((m) => m.content.startsWith('diff --git')), 'the submitted diff was never sent');
  assert.deepEqual(t.outputTokens, [31, 48, 22]);
  assert.deepEqual(t.providerPromptTokens, [120, 171, 240]);
  assert.equal(splitTurns(t.messages).turns.length, 3);
});

test('SWE-agent full .traj: history is used beside the trajectory array; parts and tool_call_ids read', async () => {
  const t = await loadTrajectoryFile(fixture('swe-agent-full.traj'));
  assert.equal(t.format, 'swe-agent');
  assert.equal(t.id, 'acme__text-42');
  assert.equal(t.messages[1]!.role, 'user');
  assert.match(t.messages[1]!.content, /^<uploaded_files>/);
  const action = t.messages[2]!;
  assert.equal(action.role, 'assistant');
  assert.deepEqual(action.toolCalls, [
    { id: 'toolu_01', name: 'str_replace_editor', arguments: '{"command": "view", "path": "/testbed/text.py"}' },
  ]);
  assert.equal(t.messages[3]!.role, 'tool');
  assert.equal(t.messages[3]!.toolCallId, 'toolu_01');
  assert.match(t.messages[3]!.content, /^OBSERVATION:\nHere's the result/);
  assert.equal(t.messages.at(-1)!.role, 'assistant', 'the submit observation was never sent');
  assert.equal(t.messages.length, 7);
});

test('SWE-agent history-only extract gives the same messages as the full file', async () => {
  const full = await loadTrajectoryFile(fixture('swe-agent-full.traj'));
  const hist = await loadTrajectoryFile(fixture('swe-agent.history.json'));
  assert.equal(hist.format, 'swe-agent-history');
  assert.deepEqual(hist.messages, full.messages);
});

test('SWE-agent without history is rebuilt from the last trajectory step', () => {
  const doc = JSON.parse(readFileSync(fixture('swe-agent-full.traj'), 'utf8')) as Record<string, unknown>;
  delete doc.history;
  const t = parseTrajectory(JSON.stringify(doc), 'x.traj');
  const full = parseTrajectory(readFileSync(fixture('swe-agent-full.traj'), 'utf8'), 'y.traj');
  assert.equal(t.format, 'swe-agent');
  assert.deepEqual(
    t.messages.map((m) => m.role),
    full.messages.map((m) => m.role),
  );
  assert.equal(t.messages.at(-1)!.content, full.messages.at(-1)!.content);
});

test('OpenAI chat JSON, bare array and JSONL read to the same messages', async () => {
  const obj = await loadTrajectoryFile(fixture('openai-chat.json'));
  const bare = await loadTrajectoryFile(fixture('openai-bare.json'));
  const lines = await loadTrajectoryFile(fixture('openai.jsonl'));
  assert.equal(obj.format, 'openai-chat');
  assert.equal(bare.format, 'openai-chat');
  assert.equal(lines.format, 'openai-jsonl');
  assert.deepEqual(bare.messages, obj.messages);
  assert.deepEqual(lines.messages, obj.messages);
  assert.equal(obj.messages[1]!.content, "Why does slugify('a-1') return 'a--'?");
  assert.equal(obj.messages[2]!.content, '');
  assert.equal(obj.messages[2]!.toolCalls![0]!.name, 'read_file');
  assert.equal(obj.messages[3]!.toolCallId, 'call_1');
  assert.equal(obj.id, 'openai-chat');
});

test('Claude Code session: blocks of one response merged, tool results as tool messages, usage recorded', async () => {
  const t = await loadTrajectoryFile(fixture('claude-code-session.jsonl'));
  assert.equal(t.format, 'claude-code');
  assert.equal(t.id, '5f0c7a8e-1b2c-4d3e-9f00-0123456789ab');
  assert.deepEqual(
    t.messages.map((m) => m.role),
    ['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant'],
  );
  const first = t.messages[1]!;
  assert.equal(first.content, "I'll read the file.");
  assert.deepEqual(first.toolCalls, [
    { id: 'toolu_A', name: 'Read', arguments: '{"file_path":"/home/dev/text/text.py"}' },
  ]);
  assert.equal(t.messages[2]!.toolCallId, 'toolu_A');
  assert.equal(t.messages[4]!.content, 'The file /home/dev/text/text.py has been updated.');
  assert.ok(!t.messages.some((m) => m.content.includes('sub-agent') || m.content.includes('/cost')));
  assert.deepEqual(t.outputTokens, [61, 75, 12]);
  assert.deepEqual(t.providerPromptTokens, [1204, 1294, 1414]);
});

test('detection is by content, not by extension', () => {
  const text = readFileSync(fixture('mini-swe-agent.traj.json'), 'utf8');
  assert.equal(parseTrajectory(text, 'renamed.txt').format, 'mini-swe-agent');
  const claude = readFileSync(fixture('claude-code-session.jsonl'), 'utf8');
  assert.equal(parseTrajectory(claude, 'session.json').format, 'claude-code');
  const chat = readFileSync(fixture('openai.jsonl'), 'utf8');
  assert.equal(parseTrajectory(chat, 'chat.json').format, 'openai-jsonl');
});
