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

/** A Claude Code 2.1 record; `id` is the response's message id (records of one response share it). */
function record(uuid: string, parent: string | null, type: 'user' | 'assistant', content: unknown, more = {}) {
  return {
    type,
    uuid,
    parentUuid: parent,
    sessionId: 's',
    version: '2.1.30',
    message: { role: type, content },
    ...more,
  };
}
function reply(uuid: string, parent: string, id: string, input: number, block: unknown, more = {}) {
  const usage = { input_tokens: input, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 2 };
  return record(uuid, parent, 'assistant', [block], {
    requestId: `req_${id}`,
    ...more,
    message: { id, role: 'assistant', model: 'claude-opus-4-6', content: [block], stop_reason: null, usage },
  });
}
const use = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: { file_path: `/${id}` } });
const result = (id: string) => [{ type: 'tool_result', tool_use_id: id, content: `contents of ${id}` }];
const hook = (uuid: string, parent: string, more = {}) =>
  record(uuid, parent, 'user', '<system-reminder>PostToolUse:Read hook additional context: ok</system-reminder>', {
    isMeta: true,
    ...more,
  });
const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

test('Claude Code: a hook reminder (isMeta) between the records of one streamed response does not split it into two calls', async () => {
  // One response with two parallel tool calls, written as two records; a hook's reminder lands between them.
  const main = [
    record('u1', null, 'user', 'read both files'),
    reply('a1', 'u1', 'msg_A', 100, use('t1')),
    record('r1', 'a1', 'user', result('t1')),
    hook('h1', 'r1'),
    reply('a2', 'h1', 'msg_A', 100, use('t2')),
    record('r2', 'a2', 'user', result('t2')),
    reply('a3', 'r2', 'msg_B', 180, { type: 'text', text: 'done' }),
  ];
  const dir = mkdtempSync(join(tmpdir(), 'cd-meta-'));
  writeFileSync(join(dir, 's.jsonl'), jsonl(main));
  const [t] = await loadTrajectoryFile(join(dir, 's.jsonl'));
  assert.deepEqual(
    t!.calls!.map((c) => c.recorded?.inputTokens),
    [100, 180],
    'msg_A billed once: its second record is the same call, not another 100-token prompt',
  );
  assert.deepEqual(
    t!.messages[t!.calls![0]!.output!]!.toolCalls!.map((c) => c.id),
    ['t1', 't2'],
  );
});

test('Claude Code compaction call: none of the main conversation calls is counted as the compaction', async () => {
  // The compaction's own file holds the hook reminders it re-sent, each hanging below its main-session
  // parent (here between the two records of msg_A), then the summary prompt and its reply.
  const main = [
    record('u1', null, 'user', 'read both files'),
    reply('a1', 'u1', 'msg_A', 100, use('t1')),
    record('r1', 'a1', 'user', result('t1')),
    reply('a2', 'r1', 'msg_A', 100, use('t2')),
    record('r2', 'a2', 'user', result('t2')),
    reply('a3', 'r2', 'msg_B', 180, { type: 'text', text: 'done' }),
    { type: 'system', subtype: 'compact_boundary', uuid: 'b1', parentUuid: null, sessionId: 's', version: '2.1.30' },
  ];
  const side = { isSidechain: true, agentId: 'acompact-1' };
  const own = [
    hook('h1', 'r1', side),
    record('p1', 'a3', 'user', 'Your task is to create a detailed summary of the conversation so far', side),
    reply('c1', 'p1', 'msg_C', 400, { type: 'text', text: '<summary>read two files</summary>' }, side),
  ];
  const project = mkdtempSync(join(tmpdir(), 'cd-compact-'));
  mkdirSync(join(project, 's', 'subagents'), { recursive: true });
  writeFileSync(join(project, 's.jsonl'), jsonl(main));
  writeFileSync(join(project, 's', 'subagents', 'agent-acompact-1.jsonl'), jsonl(own));
  const { trajectories } = await loadTrajectories([project]);
  const byId = new Map(trajectories.map((t) => [t.id, t]));
  assert.deepEqual(
    byId.get('s.jsonl')!.calls!.map((c) => c.recorded?.inputTokens),
    [100, 180],
  );
  const compaction = byId.get(join('s', 'subagents', 'agent-acompact-1.jsonl'))!;
  assert.deepEqual(
    compaction.calls!.map((c) => c.recorded?.inputTokens),
    [400],
    'only the call that wrote the summary: msg_A is the main session',
  );
});

test('Claude Code compaction call: a hook context the main session holds as an attachment is sent once, not again from its reminder', async () => {
  // Sessions that record hook output keep it as a `hook_additional_context` attachment below the tool
  // result; the compaction's file writes the same context again as a reminder below that result.
  const text = '[COMPILE ERROR] undefined module attribute @max in lib/x.ex';
  const attachment = (uuid: string, parent: string) => ({
    type: 'attachment',
    uuid,
    parentUuid: parent,
    sessionId: 's',
    attachment: { type: 'hook_additional_context', content: [text], hookName: 'PostToolUse:Edit' },
  });
  const reminder = (uuid: string, parent: string, more = {}) =>
    record(
      uuid,
      parent,
      'user',
      `<system-reminder>\nPostToolUse:Edit hook additional context: ${text}\n</system-reminder>`,
      {
        isMeta: true,
        ...more,
      },
    );
  const main = [
    record('u1', null, 'user', 'fix both files'),
    reply('a1', 'u1', 'msg_A', 100, use('t1')),
    record('r1', 'a1', 'user', result('t1')),
    attachment('h1', 'r1'),
    reply('a2', 'h1', 'msg_B', 150, use('t2')),
    record('r2', 'a2', 'user', result('t2')),
    reply('a3', 'r2', 'msg_C', 180, { type: 'text', text: 'done' }),
    { type: 'system', subtype: 'compact_boundary', uuid: 'b1', parentUuid: null, sessionId: 's', version: '2.1.30' },
  ];
  const side = { isSidechain: true, agentId: 'acompact-1' };
  const own = [
    reminder('o1', 'r1', side),
    reminder('o2', 'r2', side), // the main session kept no attachment for this one: it was sent only here
    record('p1', 'a3', 'user', 'Your task is to create a detailed summary of the conversation so far', side),
    reply('c1', 'p1', 'msg_D', 400, { type: 'text', text: '<summary>fixed</summary>' }, side),
  ];
  const dir = mkdtempSync(join(tmpdir(), 'cd-compact-hook-'));
  mkdirSync(join(dir, 's', 'subagents'), { recursive: true });
  writeFileSync(join(dir, 's.jsonl'), jsonl(main));
  writeFileSync(join(dir, 's', 'subagents', 'agent-acompact-1.jsonl'), jsonl(own));
  const { trajectories } = await loadTrajectories([dir]);
  const t = trajectories.find((x) => x.id === join('s', 'subagents', 'agent-acompact-1.jsonl'))!;
  const sent = contextOf(t, t.calls![0]!).map((m) => m.content);
  assert.equal(sent.filter((c) => c.includes(text)).length, 2, 'each hook context once');
  assert.ok(sent.includes(text), "the first from the main session's attachment");
  assert.ok(
    sent.some((c) => c.startsWith('<system-reminder>')),
    'the second from the reminder only the compaction kept',
  );
});
