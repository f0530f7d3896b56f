import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextOf, loadTrajectoryFile, TrajectoryError, type Trajectory } from '../../../src/core/trajectories';
import { CLEARED_TOOL_RESULT } from '../../../src/core/trajectories/formats/claude-code';
import { assertQuick } from '../../support/linear-time';
import { callShape, fixture, shape } from './helpers';

test('Claude Code: blocks of one response merged into one call, tool results as tool messages, usage recorded', async () => {
  const [t, sub] = (await loadTrajectoryFile(fixture('claude-code-session.jsonl'))) as [Trajectory, Trajectory];
  assert.equal(t.format, 'claude-code');
  assert.equal(sub.id, 'claude-code-session.jsonl#2', 'the sidechain message is a sub-agent run of its own');
  assert.ok(!t.messages.some((m) => m.content.includes('sub-agent')));
  assert.equal(t.messages[1]!.content, "I'll read the file.");
  assert.deepEqual(t.messages[1]!.toolCalls, [
    { id: 'toolu_A', name: 'Read', arguments: '{"file_path":"/home/dev/text/text.py"}' },
  ]);
  assert.equal(t.messages[2]!.toolCallId, 'toolu_A');
  assert.equal(t.messages[2]!.origin, 'environment');
  assert.equal(t.messages[0]!.origin, 'person');
  assert.deepEqual(
    t.calls!.map((c) => [c.recorded?.inputTokens, c.recorded?.outputTokens]),
    [
      [1204, 61],
      [1294, 75],
      [1414, 12],
    ],
  );
  // The `/cost` command record is meta: sent by the harness, so the environment's.
  assert.ok(t.messages.some((m) => m.content.includes('/cost') && m.origin === 'environment'));
});

test('Claude Code compaction: calls after the boundary send the summary and what follows, nothing before', async () => {
  const [main, sub] = await loadTrajectoryFile(fixture('claude-code-compaction.jsonl'));
  assert.equal(main!.id, 'claude-code-compaction.jsonl#1');
  const summary = main!.messages.findIndex((m) => m.content.startsWith('This session is being continued'));
  assert.equal(main!.messages[summary]!.origin, 'agent', 'a summary is neither a person nor an observation');
  const after = main!.calls!.filter((c) => c.context[0]![0] >= summary);
  assert.equal(after.length, 2);
  for (const c of after) assert.equal(c.context[0]![0], summary, 'the context starts at the summary');
  for (const c of main!.calls!.filter((c) => !after.includes(c))) assert.ok(c.context[0]![1] < summary);
  // Recorded prompt sizes: input + cache read + cache write, exactly.
  assert.deepEqual(
    main!.calls!.map((c) => c.recorded?.inputTokens),
    [5204, 7306, 7365, 1504, 1534],
  );
  // The sub-agent ran in a context of its own.
  assert.equal(sub!.id, 'claude-code-compaction.jsonl#2');
  assert.deepEqual(shape(sub!), ['user/agent', 'assistant/agent', 'tool/environment', 'assistant/agent']);
  assert.equal(sub!.calls!.length, 2);
  assert.ok(!main!.messages.some((m) => m.content === 'src/a.c:1:#include <b.h>'));
});

test('Claude Code: a torn last line is skipped with a warning and the rest kept', async () => {
  const [main] = await loadTrajectoryFile(fixture('claude-code-compaction.jsonl'));
  assert.match(main!.warnings!.join('\n'), /line 19 is cut off \(the session was still being written\?\): skipped/);
  assert.equal(main!.calls!.length, 5);
});

test('Claude Code: an invalid line in the middle is skipped with a warning', async () => {
  const lines = readFileSync(fixture('claude-code-session.jsonl'), 'utf8').split('\n');
  lines.splice(3, 0, '{"type": "assistant", "message": {oops');
  const dir = mkdtempSync(join(tmpdir(), 'cd-cc-'));
  writeFileSync(join(dir, 's.jsonl'), lines.join('\n'));
  const [t] = await loadTrajectoryFile(join(dir, 's.jsonl'));
  assert.match(t!.warnings!.join('\n'), /1 line that is not valid JSON skipped/);
  assert.equal(t!.calls!.length, 3);
});

test('Claude Code: a file of summary lines only is skipped with its own reason', async () => {
  await assert.rejects(loadTrajectoryFile(fixture('claude-code-summaries.jsonl')), (e: unknown) => {
    assert.ok(e instanceof TrajectoryError);
    assert.match(e.reason, /only session summaries, no conversation/);
    assert.equal(e.group, 'Claude Code summaries only (no conversation)');
    return true;
  });
});

/** One session record; an assistant record gets its response's message id (and request id, if given). */
const rec = (
  uuid: string,
  parent: string | null,
  type: string,
  content: unknown,
  id?: string,
  requestId?: string,
): string =>
  JSON.stringify({
    type,
    uuid,
    parentUuid: parent,
    sessionId: 's',
    ...(requestId ? { requestId } : {}),
    message: { role: type, content, ...(id ? { id, model: 'm' } : {}) },
  });

/** The one trajectory of a session file made of `records`. */
async function session(name: string, records: string[]): Promise<Trajectory> {
  const dir = mkdtempSync(join(tmpdir(), 'cd-cc-'));
  writeFileSync(join(dir, name), records.join('\n') + '\n');
  const [t] = await loadTrajectoryFile(join(dir, name));
  return t!;
}

test('Claude Code: messages on an abandoned branch (a rewind) are not replayed', async () => {
  const t = await session('rewind.jsonl', [
    rec('u1', null, 'user', 'first question'),
    rec('a1', 'u1', 'assistant', [{ type: 'text', text: 'first answer' }], 'm1'),
    rec('u2', 'a1', 'user', 'a question the person rewound'),
    rec('a2', 'u2', 'assistant', [{ type: 'text', text: 'abandoned answer' }], 'm2'),
    rec('u3', 'a1', 'user', 'the edited question'),
    rec('a3', 'u3', 'assistant', [{ type: 'text', text: 'final answer' }], 'm3'),
  ]);
  assert.deepEqual(
    t.messages.map((m) => m.content),
    ['first question', 'first answer', 'the edited question', 'final answer'],
  );
  assert.deepEqual(callShape(t), [
    [[[0, 1]], 1],
    [[[0, 3]], 3],
  ]);
  assert.match(t.warnings!.join('\n'), /2 messages on abandoned branches/);
});

/** A hook `progress` record (Claude Code 2.1 writes them into the parent chain around tool calls). */
const progress = (uuid: string, parent: string): string =>
  JSON.stringify({
    type: 'progress',
    uuid,
    parentUuid: parent,
    sessionId: 's',
    data: { type: 'hook_progress', hookEvent: 'PreToolUse' },
  });

test('Claude Code: parallel tool calls on side branches are replayed; a rewind and a retried response beside them are not', async () => {
  const call = (id: string) => [{ type: 'tool_use', id, name: 'Read', input: { file_path: id } }];
  const result = (id: string) => [{ type: 'tool_result', tool_use_id: id, content: `contents of ${id}` }];
  const text = (t: string) => [{ type: 'text', text: t }];
  const t = await session('parallel.jsonl', [
    rec('u1', null, 'user', 'first question'),
    rec('a1', 'u1', 'assistant', call('t1'), 'm1', 'q1'),
    progress('p1', 'a1'),
    progress('p2', 'p1'),
    rec('a1b', 'p2', 'assistant', call('t2'), 'm1', 'q1'), // the same response, below hook progress
    rec('r2', 'a1b', 'user', result('t2')),
    rec('r1', 'a1', 'user', result('t1')),
    rec('ax', 'r1', 'assistant', text('a reply cut off, then retried'), 'm9', 'q9'),
    rec('a2', 'r1', 'assistant', text('first answer'), 'm2', 'q2'),
    rec('u2', 'a2', 'user', 'a question the person rewound'),
    rec('a3', 'u2', 'assistant', call('t3'), 'm3', 'q3'),
    rec('a3b', 'a3', 'assistant', call('t4'), 'm3', 'q3'),
    rec('r3', 'a3', 'user', result('t3')),
    rec('r4', 'a3b', 'user', result('t4')),
    rec('u3', 'a2', 'user', 'the edited question'),
    rec('a4', 'u3', 'assistant', text('final answer'), 'm4', 'q4'),
  ]);
  assert.deepEqual(
    t.messages.map((m) => m.toolCallId ?? `${m.content}${(m.toolCalls ?? []).map((c) => c.id).join(',')}`),
    ['first question', 't1,t2', 't2', 't1', 'first answer', 'the edited question', 'final answer'],
  );
  assert.equal(t.calls!.length, 3);
  // The rewound question, its response's two calls and their results, and the reply that was retried.
  assert.match(t.warnings!.join('\n'), /6 messages on abandoned branches/);
});

test('Claude Code with placeholder ids: a parallel call joins its response; a rewound reply (same ids) and a reply to another prompt do not', async () => {
  // Only records below the same response's kept records join it; a rewind starts below a person's prompt.
  // Placeholder ids tell responses apart only by their prompt sizes (one request has one prompt).
  const reply = (uuid: string, parent: string, content: unknown, cacheRead = 900) => {
    const r = JSON.parse(rec(uuid, parent, 'assistant', content, '[REDACTED]', '[REDACTED]')) as {
      message: Record<string, unknown>;
    };
    r.message.usage = { input_tokens: 5, cache_read_input_tokens: cacheRead, output_tokens: 2 };
    return JSON.stringify(r);
  };
  const call = (id: string) => [{ type: 'tool_use', id, name: 'Read', input: { file_path: id } }];
  const result = (id: string) => [{ type: 'tool_result', tool_use_id: id, content: `contents of ${id}` }];
  const t = await session('placeholder-rewind.jsonl', [
    rec('u1', null, 'user', 'question'),
    reply('a1', 'u1', call('t1')),
    progress('p1', 'a1'),
    reply('a1b', 'p1', call('t2')),
    rec('r2', 'a1b', 'user', result('t2')),
    rec('r1', 'a1', 'user', result('t1')),
    reply('ax', 'r1', [{ type: 'text', text: 'a reply to a longer prompt, left' }], 950),
    rec('u2', 'r1', 'user', 'a question the person rewound'),
    reply('a2', 'u2', [{ type: 'text', text: 'abandoned answer' }]),
    rec('u3', 'r1', 'user', 'the edited question'),
    reply('a3', 'u3', [{ type: 'text', text: 'final answer' }]),
  ]);
  assert.deepEqual(
    t.messages.map((m) => m.toolCallId ?? `${m.content}${(m.toolCalls ?? []).map((c) => c.id).join(',')}`),
    ['question', 't1,t2', 't2', 't1', 'the edited question', 'final answer'],
  );
  assert.match(t.warnings!.join('\n'), /3 messages on abandoned branches/);
});

test('Claude Code with redacted ids (one placeholder for every record): each turn is its own call', async () => {
  const answer = (uuid: string, parent: string, content: unknown, cacheRead: number) => {
    const r = JSON.parse(rec(uuid, parent, 'assistant', content, '[REDACTED_MESSAGE_ID]', '[REDACTED_REQUESTID]')) as {
      message: Record<string, unknown>;
    };
    r.message.usage = {
      input_tokens: 6,
      cache_creation_input_tokens: 40,
      cache_read_input_tokens: cacheRead,
      output_tokens: 9,
    };
    return JSON.stringify(r);
  };
  const text = (t: string) => [{ type: 'text', text: t }];
  const t = await session('redacted.jsonl', [
    rec('u1', null, 'user', 'first question'),
    answer('a1', 'u1', [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } }], 3000),
    rec('r1', 'a1', 'user', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'file a' }]),
    answer('a1b', 'r1', text('first answer'), 3000), // the same response, written after the tool result
    rec('u2', 'a1b', 'user', 'second question'),
    answer('a2', 'u2', text('second answer'), 3000), // same prompt size, but a person's prompt came between
    rec('u3', 'a2', 'user', 'third question'),
    answer('a3', 'u3', text('third answer'), 3400),
  ]);
  assert.equal(t.calls!.length, 3);
  assert.deepEqual(
    t.messages.filter((m) => m.role === 'user').map((m) => m.content),
    ['first question', 'second question', 'third question'],
  );
  assert.deepEqual(
    t.calls!.map((c) => t.messages[c.output!]!.content),
    ['first answer', 'second answer', 'third answer'],
  );
  assert.deepEqual(
    t.calls!.map((c) => c.responseId),
    [undefined, undefined, undefined],
    'a placeholder names no response: it must not match copies in other logs',
  );
  assert.match(t.warnings!.join('\n'), /3 calls with a redacted or shared message id/);
  // Same placeholder, no person's prompt between, different prompt sizes: two requests.
  const split = await session('sizes.jsonl', [
    rec('u1', null, 'user', 'question'),
    answer('a1', 'u1', [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } }], 3000),
    rec('r1', 'a1', 'user', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'file a' }]),
    answer('a2', 'r1', text('answer'), 3100),
  ]);
  assert.equal(split.calls!.length, 2);
});

test('Claude Code behind a gateway that reuses one message id: each request is its own call', async () => {
  const text = (t: string) => [{ type: 'text', text: t }];
  const t = await session('gateway.jsonl', [
    rec('u1', null, 'user', 'first question'),
    rec('a1', 'u1', 'assistant', text('first answer'), 'msg_gateway', 'req_1'),
    rec('a1b', 'a1', 'assistant', text('and more of it'), 'msg_gateway', 'req_1'),
    rec('u2', 'a1b', 'user', 'second question'),
    rec('a2', 'u2', 'assistant', text('second answer'), 'msg_gateway', 'req_2'),
  ]);
  assert.deepEqual(
    t.messages.map((m) => m.content),
    ['first question', 'first answer\nand more of it', 'second question', 'second answer'],
  );
  assert.deepEqual(
    t.calls!.map((c) => c.responseId),
    ['msg_gateway:req_1', 'msg_gateway:req_2'],
  );
});

test('Claude Code: a log of 150,000 records in file order (two roots) is read whole, in linear time', async () => {
  // Kept in file order, the records were appended with one spread: over about 120,000 it overflowed the
  // stack. And every call's context was found by a walk over all messages before it: 25 s here, now 1 s.
  const records = [rec('r0', null, 'user', 'question 0'), rec('r1', null, 'user', 'question 1')];
  for (let i = 0; i < 74_999; i++) {
    records.push(rec(`a${i}`, i === 0 ? 'r1' : `u${i}`, 'assistant', [{ type: 'text', text: `answer ${i}` }], `m${i}`));
    records.push(rec(`u${i + 1}`, `a${i}`, 'user', `question ${i + 2}`));
  }
  const started = performance.now();
  const t = await session('two-roots.jsonl', records);
  assertQuick(started);
  assert.equal(t.messages.length, 150_000);
  assert.equal(t.messages.at(-1)!.content, 'question 75000');
  assert.equal(t.calls!.length, 74_999);
});

test('Claude Code: one message id for 20,000 responses, and a sub-agent chain of 20,000 records, read in linear time', async () => {
  // A gateway that gives every response one id and no request id: each merge searched the whole message
  // (90 s). Sidechain records without an agentId: each walked its chain to the root (10 s).
  const sameId = [rec('u0', null, 'user', 'question')];
  for (let i = 0; i < 20_000; i++)
    sameId.push(
      rec(`a${i}`, i ? `a${i - 1}` : 'u0', 'assistant', [{ type: 'text', text: `part ${i} `.repeat(20) }], 'same'),
    );
  let started = performance.now();
  const merged = await session('same-id.jsonl', sameId);
  assertQuick(started);
  assert.equal(merged.calls!.length, 1, 'without a request id the records read as one response');
  assert.equal(merged.messages[1]!.content.split('\n').length, 20_000);

  const side = (uuid: string, parent: string | null, type: string, content: unknown, id?: string): string => {
    const r = JSON.parse(rec(uuid, parent, type, content, id)) as Record<string, unknown>;
    return JSON.stringify({ ...r, isSidechain: true });
  };
  const chain = [
    rec('m0', null, 'user', 'main question'),
    rec('m1', 'm0', 'assistant', [{ type: 'text', text: 'main answer' }], 'mm'),
    side('s0', null, 'user', 'sub-agent task'),
  ];
  for (let i = 0; i < 20_000; i++)
    chain.push(
      i % 2
        ? side(`s${i + 1}`, `s${i}`, 'user', `result ${i}`)
        : side(`s${i + 1}`, `s${i}`, 'assistant', [{ type: 'text', text: `step ${i}` }], `x${i}`),
    );
  const dir = mkdtempSync(join(tmpdir(), 'cd-cc-'));
  writeFileSync(join(dir, 'chain.jsonl'), chain.join('\n') + '\n');
  started = performance.now();
  const [main, sub] = await loadTrajectoryFile(join(dir, 'chain.jsonl'));
  assertQuick(started);
  assert.equal(main!.calls!.length, 1);
  assert.equal(sub!.calls!.length, 10_000, 'the whole chain is one sub-agent run');
});

/** A `microcompact_boundary` record naming the tool results Claude Code cleared. */
const microcompact = (uuid: string, parent: string, ids: unknown[]): string =>
  JSON.stringify({
    type: 'system',
    subtype: 'microcompact_boundary',
    content: 'Context microcompacted',
    uuid,
    parentUuid: parent,
    sessionId: 's',
    microcompactMetadata: { trigger: 'auto', preTokens: 58000, tokensSaved: 20000, compactedToolIds: ids },
  });

const toolUse = (id: string) => [{ type: 'tool_use', id, name: 'Read', input: { file_path: `/w/${id}` } }];
const toolResult = (id: string, text: string) => [{ type: 'tool_result', tool_use_id: id, content: text }];

test('Claude Code microcompaction: calls after the boundary send the cleared tool results as the marker, earlier calls the whole text', async () => {
  const t = await session('microcompact.jsonl', [
    rec('u1', null, 'user', 'read both files'),
    rec('a1', 'u1', 'assistant', toolUse('toolu_1'), 'm1'),
    rec('r1', 'a1', 'user', toolResult('toolu_1', 'first file, long')),
    rec('a2', 'r1', 'assistant', toolUse('toolu_2'), 'm2'),
    rec('r2', 'a2', 'user', toolResult('toolu_2', 'second file, long')),
    microcompact('b1', 'r2', ['toolu_1', 'toolu_unknown', 7]),
    rec('a3', 'b1', 'assistant', [{ type: 'text', text: 'done' }], 'm3'),
  ]);
  const sent = (k: number) => contextOf(t, t.calls![k]!).map((m) => m.content);
  assert.deepEqual(sent(1), ['read both files', '', 'first file, long']);
  assert.deepEqual(sent(2), ['read both files', '', CLEARED_TOOL_RESULT, '', 'second file, long']);
  const cleared = contextOf(t, t.calls![2]!)[2]!;
  assert.equal(cleared.toolCallId, 'toolu_1', 'the marker answers the same tool call');
  assert.equal(cleared.origin, 'environment');
  assert.match(t.warnings!.join('\n'), /1 tool result cleared by microcompaction/);
});

test('Claude Code microcompaction on a branch the person rewound clears nothing on the branch kept', async () => {
  const t = await session('microcompact-rewound.jsonl', [
    rec('u1', null, 'user', 'read it'),
    rec('a1', 'u1', 'assistant', toolUse('toolu_1'), 'm1'),
    rec('r1', 'a1', 'user', toolResult('toolu_1', 'the file')),
    rec('a2', 'r1', 'assistant', [{ type: 'text', text: 'abandoned answer' }], 'm2'),
    microcompact('b1', 'a2', ['toolu_1']),
    rec('u3', 'r1', 'user', 'the edited question'),
    rec('a3', 'u3', 'assistant', [{ type: 'text', text: 'final answer' }], 'm3'),
  ]);
  const last = contextOf(t, t.calls!.at(-1)!).map((m) => m.content);
  assert.deepEqual(last, ['read it', '', 'the file', 'the edited question']);
  assert.doesNotMatch(t.warnings!.join('\n'), /microcompaction/);
});

/** An `attachment` record. */
const attachment = (uuid: string, parent: string, a: object): string =>
  JSON.stringify({ type: 'attachment', uuid, parentUuid: parent, sessionId: 's', attachment: a });

test('Claude Code attachments: a message typed mid-turn is the person’s, file and memory contents are counted, other kinds said', async () => {
  const t = await session('attachments.jsonl', [
    rec('u1', null, 'user', 'refactor the parser'),
    rec('a1', 'u1', 'assistant', toolUse('toolu_1'), 'm1'),
    rec('r1', 'a1', 'user', toolResult('toolu_1', 'parser source')),
    attachment('q1', 'r1', { type: 'queued_command', prompt: 'keep the public API unchanged', commandMode: 'prompt' }),
    attachment('q2', 'q1', {
      type: 'queued_command',
      prompt: '<task-notification>build finished</task-notification>',
      commandMode: 'task-notification',
    }),
    attachment('n1', 'q2', {
      type: 'nested_memory',
      path: '/w/src/CLAUDE.md',
      content: { path: '/w/src/CLAUDE.md', content: 'Use tabs.' },
    }),
    attachment('e1', 'n1', { type: 'edited_text_file', filename: '/w/src/p.ts', snippet: '12\tconst x = 1;' }),
    attachment('f1', 'e1', {
      type: 'file',
      filename: '/w/a.ts',
      content: { type: 'text', file: { filePath: '/w/a.ts', content: 'export {}' } },
    }),
    attachment('d1', 'f1', { type: 'todo_reminder', content: [] }),
    rec('a2', 'd1', 'assistant', [{ type: 'text', text: 'done' }], 'm2'),
  ]);
  const sent = contextOf(t, t.calls![1]!);
  assert.deepEqual(
    sent.slice(3).map((m) => [m.content, m.origin]),
    [
      ['keep the public API unchanged', 'person'],
      ['<task-notification>build finished</task-notification>', 'environment'],
      ['Use tabs.', 'environment'],
      ['12\tconst x = 1;', 'environment'],
      ['export {}', 'environment'],
    ],
  );
  const warnings = t.warnings!.join('\n');
  assert.match(warnings, /3 attachments \(files, edits, memory\) counted by content/);
  assert.match(warnings, /1 attachment of kind "todo_reminder" not counted/);
});

test('Claude Code: attachments written on a branch the person rewound are not sent on the branch kept', async () => {
  const t = await session('attachment-rewound.jsonl', [
    rec('u1', null, 'user', 'first question'),
    rec('a1', 'u1', 'assistant', [{ type: 'text', text: 'first answer' }], 'm1'),
    rec('u2', 'a1', 'user', 'a question the person rewound'),
    attachment('q1', 'u2', { type: 'queued_command', prompt: 'and make it fast' }),
    attachment('q2', 'q1', { type: 'nested_memory', path: '/w/CLAUDE.md', content: 'Use tabs.' }),
    rec('a2', 'q2', 'assistant', [{ type: 'text', text: 'abandoned answer' }], 'm2'),
    rec('u3', 'a1', 'user', 'the edited question'),
    rec('a3', 'u3', 'assistant', [{ type: 'text', text: 'final answer' }], 'm3'),
  ]);
  assert.deepEqual(
    contextOf(t, t.calls!.at(-1)!).map((m) => m.content),
    ['first question', 'first answer', 'the edited question'],
  );
});

test('Claude Code: a background task notice Claude Code stamped as such is the environment, not the person', async () => {
  const notice = JSON.parse(rec('u2', 'a1', 'user', '<task-notification>tests passed</task-notification>')) as object;
  const t = await session('notice.jsonl', [
    rec('u1', null, 'user', 'run the tests in the background'),
    rec('a1', 'u1', 'assistant', [{ type: 'text', text: 'started' }], 'm1'),
    JSON.stringify({ ...notice, origin: { kind: 'task-notification' } }),
    rec('a2', 'u2', 'assistant', [{ type: 'text', text: 'they passed' }], 'm2'),
  ]);
  assert.deepEqual(shape(t), ['user/person', 'assistant/agent', 'user/environment', 'assistant/agent']);
});

// The Messages API returns `context_management.applied_edits` when its context editing cleared tool
// results or thinking from the prompt it was sent (`clear_tool_uses_20250919`, `clear_thinking_20251015`):
// that call's prompt held less than the session file, and nothing in the file says what.
test('Claude Code: a response whose prompt the API edited (context management) is said, not replayed silently as sent whole', async () => {
  const reply = (uuid: string, parent: string, id: string, edits: object[]) =>
    JSON.stringify({
      type: 'assistant',
      uuid,
      parentUuid: parent,
      sessionId: 's',
      requestId: `req_${id}`,
      message: {
        id,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, cache_read_input_tokens: 4000, cache_creation_input_tokens: 0, output_tokens: 2 },
        context_management: { applied_edits: edits },
      },
    });
  const t = await session('edited.jsonl', [
    rec('u1', null, 'user', 'first'),
    reply('a1', 'u1', 'msg_1', []),
    rec('u2', 'a1', 'user', 'second'),
    reply('a2', 'u2', 'msg_2', [
      { type: 'clear_tool_uses_20250919', cleared_tool_uses: 3, cleared_input_tokens: 12000 },
    ]),
    rec('u3', 'a2', 'user', 'third'),
    reply('a3', 'u3', 'msg_3', [
      { type: 'clear_thinking_20251015', cleared_thinking_turns: 2, cleared_input_tokens: 800 },
    ]),
  ]);
  assert.equal(t.calls!.length, 3);
  assert.match(
    t.warnings!.join('\n'),
    /2 calls whose prompt the API edited \(context management cleared 12,800 input tokens of tool results or thinking\): the log does not say which, so raw counts more than was sent/,
  );
});
