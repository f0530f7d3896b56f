import { test } from 'node:test';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextOf, loadTrajectoryFile } from '../../../src/core/trajectories';
import { callShape, fixture, one, shape } from './helpers';

test('Codex rollout: items into messages, token_count as each call recorded usage, compaction replaces the history', async () => {
  const t = await one('codex-rollout.jsonl');
  assert.equal(t.format, 'codex');
  assert.deepEqual(shape(t), [
    'user/environment', // <environment_context> is the harness's
    'user/person',
    'assistant/agent',
    'tool/environment',
    'assistant/agent',
    'user/person', // replacement history after compaction
    'user/person',
    'user/person',
    'assistant/agent',
  ]);
  assert.deepEqual(t.messages[2]!.toolCalls, [
    { id: 'call_1', name: 'shell', arguments: '{"command":["pytest","-q"]}' },
  ]);
  assert.deepEqual(callShape(t), [
    [[[0, 2]], 2],
    [[[0, 4]], 4],
    [[[5, 8]], 8], // after compaction: the replacement history and the new request only
  ]);
  assert.deepEqual(
    t.calls!.map((c) => c.recorded),
    [
      { inputTokens: 2900, cachedTokens: 0, outputTokens: 60 },
      { inputTokens: 3010, cachedTokens: 2900, outputTokens: 20 },
      { inputTokens: 1200, cachedTokens: 0, outputTokens: 80 },
    ],
  );
  assert.match(t.warnings!.join('\n'), /does not keep Codex's system instructions/);
});

test('Gemini CLI JSONL: updates by id, tool results, usage per reply, /rewind and a compression', async () => {
  const t = await one('gemini-cli-session.jsonl');
  assert.equal(t.format, 'gemini-cli');
  assert.deepEqual(shape(t), [
    'user/person',
    'assistant/agent', // read_file, written first without its result
    'tool/environment',
    'assistant/agent',
    'tool/environment',
    'assistant/agent',
    'user/person', // the rewound follow-up and its reply are gone
    'assistant/agent',
    'tool/environment',
    'user/agent', // after compression: the CLI's summary,
    'assistant/agent', // its acknowledgement (no call),
    'user/person', // and the exchange it kept
    'assistant/agent',
    'tool/environment',
    'user/person',
    'assistant/agent',
  ]);
  assert.deepEqual(t.messages[1]!.toolCalls, [
    { id: 'read_file-1', name: 'read_file', arguments: '{"absolute_path":"/src/app/parse.py"}' },
  ]);
  assert.equal(t.messages[2]!.content, "def parse(s):\n    return int(s.strip(','))\n");
  assert.equal(t.messages[2]!.toolCallId, 'read_file-1');
  assert.match(t.messages[9]!.content, /^<state_snapshot>/);
  assert.deepEqual(callShape(t), [
    [[[0, 1]], 1],
    [[[0, 3]], 3],
    [[[0, 5]], 5],
    [[[0, 7]], 7],
    [[[9, 15]], 15], // the replaced history and what followed, nothing before
  ]);
  assert.deepEqual(
    t.calls!.map((c) => c.recorded),
    [
      { inputTokens: 5210, cachedTokens: 0, outputTokens: 151 }, // thoughts are billed as output
      { inputTokens: 5420, cachedTokens: 5100, outputTokens: 64 }, // usage written after the text
      { inputTokens: 5530, cachedTokens: 5400, outputTokens: 18 },
      { inputTokens: 5590, cachedTokens: 5500, outputTokens: 22 },
      { inputTokens: 1480, cachedTokens: 0, outputTokens: 52 }, // recorded on the acknowledgement
    ],
  );
  assert.equal(t.ignoredRecords, 1, 'the CLI info line');
  const warnings = t.warnings!.join('\n');
  assert.match(warnings, /does not record its system prompt/);
  assert.match(warnings, /1 history replacement/);
  assert.match(warnings, /1 reply taken back \(\/rewind\) not replayed/);
  assert.match(warnings, /line 20 is cut off/);
});

test('Gemini CLI JSON (before JSONL): the same conversation reads the same', async () => {
  const legacy = await one('gemini-cli-chat.json');
  const session = await one('gemini-cli-session.jsonl');
  assert.equal(legacy.format, 'gemini-cli');
  assert.deepEqual(legacy.messages, session.messages.slice(0, 6));
  assert.deepEqual(legacy.calls, session.calls!.slice(0, 3));
});

test('OpenHands saved trajectory: system, the person, one call per model response with its usage, tool results', async () => {
  const t = await one('openhands-trajectory.json');
  assert.equal(t.format, 'openhands');
  assert.deepEqual(shape(t), ['system/agent', 'user/person', 'assistant/agent', 'tool/environment', 'assistant/agent']);
  assert.deepEqual(t.messages[2]!.toolCalls, [
    { id: 'toolu_01', name: 'execute_bash', arguments: '{"command": "cat text.py"}' },
  ]);
  assert.deepEqual(
    t.calls!.map((c) => c.recorded),
    [
      { inputTokens: 1500, cachedTokens: 0, outputTokens: 25 },
      { inputTokens: 1700, cachedTokens: 1500, outputTokens: 25 },
    ],
  );
});

test('OpenHands eval output.jsonl: each line is a run read from its `history`, with the recorded total cost', async () => {
  const [t] = await loadTrajectoryFile(fixture('openhands-output.jsonl'));
  const saved = await one('openhands-trajectory.json');
  assert.deepEqual(t!.messages, saved.messages);
  assert.equal(t!.recordedCost, 0.031);
});

test('OpenHands V0: tools of the system action and a missing system action are said; $0 beside billed tokens is no cost', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-oh-'));
  const run = JSON.parse(readFileSync(fixture('openhands-output.jsonl'), 'utf8').split('\n')[0]!) as {
    history: { action?: string; args?: Record<string, unknown> }[];
    metrics: { accumulated_cost: number };
  };
  const system = run.history.find((e) => e.action === 'system')!;
  system.args = { ...system.args, tools: [{ type: 'function' }, { type: 'function' }, { type: 'function' }] };
  run.metrics.accumulated_cost = 0.0;
  writeFileSync(join(dir, 'output.jsonl'), JSON.stringify(run) + '\n');
  const [t] = await loadTrajectoryFile(join(dir, 'output.jsonl'));
  assert.equal(t!.recordedCost, undefined, 'a price LiteLLM did not know, not a free run');
  assert.match(t!.warnings!.join('\n'), /3 tool definitions sent with the system prompt not counted/);
  assert.match(
    t!.warnings!.join('\n'),
    /1 run recorded a cost of \$0 beside non-zero tokens: read as no cost recorded/,
  );
  // An older trajectory that has no system action.
  const events = JSON.parse(readFileSync(fixture('openhands-trajectory.json'), 'utf8')) as { action?: string }[];
  writeFileSync(join(dir, 'old.json'), JSON.stringify(events.filter((e) => e.action !== 'system')));
  const [old] = await loadTrajectoryFile(join(dir, 'old.json'));
  assert.match(old!.warnings!.join('\n'), /no system action: the system prompt and tool definitions .* lower bound/);
});

test("Cline task history: tool_use arguments kept, tool_result blocks observations, harness text the environment's", async () => {
  const [t] = await loadTrajectoryFile(fixture('cline-task/api_conversation_history.json'));
  assert.equal(t!.format, 'cline');
  assert.deepEqual(shape(t!), [
    'user/person',
    'user/environment',
    'assistant/agent',
    'tool/environment',
    'user/environment',
    'assistant/agent',
    'tool/environment',
    'user/person',
    'assistant/agent',
  ]);
  assert.deepEqual(t!.messages[2]!.toolCalls, [{ id: 'toolu_r1', name: 'read_file', arguments: '{"path":"text.py"}' }]);
  assert.match(t!.messages[5]!.toolCalls![0]!.arguments, /REPLACE/, 'tool_use input is counted, not a marker');
  assert.equal(t!.messages[3]!.toolCallId, 'toolu_r1');
  assert.equal(t!.calls!.length, 3);
  const warnings = t!.warnings!.join('\n');
  // Not "dropped from later turns": Claude keeps them within a tool-use loop, Opus 4.5+ in every turn.
  assert.match(warnings, /1 thinking block not counted, though Claude keeps them in the prompt within a tool-use loop/);
  assert.doesNotMatch(warnings, /drops them/);
  assert.match(warnings, /lower bound/);
});

test('Aider chat history: one run per session with calls, commands are not messages, what was dropped said', async () => {
  const all = await loadTrajectoryFile(fixture('aider.chat.history.md'));
  assert.equal(all.length, 1, 'the second session made no call');
  const t = all[0]!;
  assert.equal(t.format, 'aider');
  assert.deepEqual(shape(t), ['user/person', 'assistant/agent', 'user/person', 'assistant/agent']);
  assert.equal(t.messages[0]!.content, "slugify('a-1') returns 'a--'. Make it keep digits.");
  assert.equal(t.messages[2]!.content, 'Thanks. Now\nadd a test.');
  assert.ok(!t.messages.some((m) => m.content.includes('Tokens:') || m.content.includes('/run')));
  assert.match(t.messages[1]!.content, /<<<<<<< SEARCH/);
  assert.match(t.warnings!.join('\n'), /raw counts are a lower bound/);
});

test('Codex 0.3x-0.5x: `instructions` is AGENTS.md, sent once as its `<user_instructions>` item, never as the system prompt', async () => {
  const line = (type: string, payload: object) => JSON.stringify({ timestamp: '2025-10-01T00:00:00Z', type, payload });
  const user = (text: string) =>
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  const reply = line('response_item', {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'Done.' }],
  });
  const agents = '<!-- /AGENTS.md -->\n\nKeep the build green.';
  const read = async (meta: object, items: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'cd-codex-'));
    writeFileSync(join(dir, 'rollout.jsonl'), [line('session_meta', { id: 's', ...meta }), ...items].join('\n') + '\n');
    const [t] = await loadTrajectoryFile(join(dir, 'rollout.jsonl'));
    return { sent: contextOf(t!, t!.calls![0]!).map((m) => `${m.role}: ${m.content}`), warnings: t!.warnings ?? [] };
  };
  const asItem = [user(`<user_instructions>\n\n${agents}\n\n</user_instructions>`), user('find the bug'), reply];
  const without = await read({ instructions: agents }, asItem);
  assert.deepEqual(without.sent, [
    `user: <user_instructions>\n\n${agents}\n\n</user_instructions>`,
    'user: find the bug',
  ]);
  assert.match(without.warnings.join('\n'), /does not keep Codex's system instructions: raw counts are a lower bound/);
  const withBase = await read({ instructions: agents, base_instructions: { text: 'You are Codex.' } }, asItem);
  assert.equal(withBase.sent[0], 'system: You are Codex.');
  assert.equal(withBase.sent.length, 3);
  assert.ok(!withBase.warnings.some((w) => /lower bound/.test(w)));
  // No `<user_instructions>` item: the instructions went with the system prompt, which the rollout lacks.
  const early = await read({ instructions: agents }, [user('find the bug'), reply]);
  assert.deepEqual(early.sent, [`system: ${agents}`, 'user: find the bug']);
  assert.match(
    early.warnings.join('\n'),
    /only the AGENTS.md instructions sent with them\): raw counts are a lower bound/,
  );
});

test('Codex rollback (thread_rolled_back): later calls no longer send the turns it removed', async () => {
  const line = (type: string, payload: object) => JSON.stringify({ timestamp: '2026-01-01T00:00:00Z', type, payload });
  const user = (text: string) =>
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  const reply = (text: string) =>
    line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  const usage = (input: number) =>
    line('event_msg', { type: 'token_count', info: { last_token_usage: { input_tokens: input, output_tokens: 5 } } });
  const text = [
    line('session_meta', { id: 's', base_instructions: { text: 'You are Codex.' } }),
    user('<environment_context><cwd>/w</cwd></environment_context>'),
    user('first question'),
    reply('first answer'),
    usage(100),
    user('a question the person took back'),
    reply('an answer taken back'),
    usage(200),
    line('event_msg', { type: 'thread_rolled_back', num_turns: 1 }),
    user('the question instead'),
    reply('the answer'),
    usage(150),
  ].join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'cd-codex-'));
  writeFileSync(join(dir, 'rollout.jsonl'), text + '\n');
  const [t] = await loadTrajectoryFile(join(dir, 'rollout.jsonl'));
  assert.equal(t!.format, 'codex');
  const sent = (n: number) => contextOf(t!, t!.calls![n]!).map((m) => m.content);
  assert.deepEqual(sent(2), [
    'You are Codex.',
    '<environment_context><cwd>/w</cwd></environment_context>',
    'first question',
    'first answer',
    'the question instead',
  ]);
  assert.match(
    t!.warnings!.join('\n'),
    /1 rollback \(thread_rolled_back\): later calls do not send the turns it removed/,
  );
});

/** A UUIDv7 minted at millisecond `ms` (Codex's session and turn ids). */
const uuidV7 = (ms: number) => {
  const h = ms.toString(16).padStart(12, '0');
  return `${h.slice(0, 8)}-${h.slice(8)}-7a1c-9b2d-${h.slice(0, 12)}`;
};

/** A Codex rollout as Codex writes it, every line stamped at `now` (a fork's copy is stamped when copied). */
function codexRollout() {
  const lines: string[] = [];
  let now = '';
  const at = (ms: number) => (now = new Date(ms).toISOString());
  const add = (type: string, payload: object) => lines.push(JSON.stringify({ timestamp: now, type, payload }));
  const text = (role: string, t: string, type: string) => ({ type: 'message', role, content: [{ type, text: t }] });
  const sum = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  return {
    at,
    meta: (payload: object) => add('session_meta', payload),
    turn: (turnId?: string) => {
      add('turn_context', { ...(turnId ? { turn_id: turnId } : {}), cwd: '/w', model: 'gpt-5.5' });
      add('event_msg', { type: 'task_started', ...(turnId ? { turn_id: turnId } : {}) });
    },
    user: (t: string) => add('response_item', text('user', t, 'input_text')),
    reply: (t: string) => add('response_item', { ...text('assistant', t, 'output_text'), phase: 'final_answer' }),
    usage: (input: number) => {
      const last = { input_tokens: input, cached_input_tokens: 0, output_tokens: 40, total_tokens: input + 40 };
      // Codex's running total adds every call's figures (two calls of the same size are two calls).
      sum.input_tokens += input;
      sum.output_tokens += 40;
      sum.total_tokens += input + 40;
      add('event_msg', { type: 'token_count', info: { total_token_usage: { ...sum }, last_token_usage: last } });
    },
    text: () => lines.join('\n') + '\n',
  };
}

async function loadCodex(name: string, text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cd-codex-'));
  writeFileSync(join(dir, name), text);
  const [t] = await loadTrajectoryFile(join(dir, name));
  return t!;
}

const CHILD_BORN = Date.parse('2026-08-15T17:20:27.123Z');
const PARENT = uuidV7(CHILD_BORN - 600_000);
const base_instructions = { text: 'You are Codex.' };

/** A sub-agent forked with its parent's history: the copy (stamped at the fork, as Codex writes it), then its own turns. */
function forkedChild(turnIds: { parent: (n: number) => string | undefined; child: (n: number) => string | undefined }) {
  const r = codexRollout();
  r.at(CHILD_BORN);
  const spawn = { subagent: { thread_spawn: { parent_thread_id: PARENT, depth: 1 } } };
  r.meta({
    id: uuidV7(CHILD_BORN),
    forked_from_id: PARENT,
    timestamp: now(CHILD_BORN),
    source: spawn,
    base_instructions,
  });
  r.meta({ id: PARENT, timestamp: now(CHILD_BORN - 600_000), base_instructions });
  r.turn(turnIds.parent(1));
  r.user('find the flaky test');
  r.reply('It is the parser test: it depends on the clock.');
  r.usage(9000);
  r.turn(turnIds.parent(2));
  r.user('spawn a reviewer for the fix');
  r.usage(9500); // the call that asked for the sub-agent (its function call is not copied)
  r.at(CHILD_BORN + 40);
  r.turn(turnIds.child(1));
  r.user('review the parser fix');
  r.reply('The fix is right.');
  r.usage(9700);
  r.at(CHILD_BORN + 9000);
  r.turn(turnIds.child(2));
  r.user('and the tests?');
  r.reply('They pass.');
  r.usage(9800);
  return r.text();
}
const now = (ms: number) => new Date(ms).toISOString();

test("Codex: a forked sub-agent's copy of its parent's rollout is the context its first call sends, not its calls or recorded usage", async () => {
  const t = await loadCodex(
    'child.jsonl',
    forkedChild({
      parent: (n) => uuidV7(CHILD_BORN - 500_000 + n * 1000),
      child: (n) => uuidV7(CHILD_BORN + 30 + n * 5000),
    }),
  );
  assert.equal(t.calls!.length, 2);
  assert.deepEqual(
    contextOf(t, t.calls![0]!).map((m) => `${m.role}: ${m.content}`),
    [
      'system: You are Codex.',
      'user: find the flaky test',
      'assistant: It is the parser test: it depends on the clock.',
      'user: spawn a reviewer for the fix',
      'user: review the parser fix',
    ],
  );
  assert.equal(t.messages[t.calls![0]!.output!]!.content, 'The fix is right.');
  assert.deepEqual(
    t.calls!.map((c) => c.recorded?.inputTokens),
    [9700, 9800],
  );
  assert.match(
    t.warnings!.join('\n'),
    /a fork or sub-agent of session "[^"]+": it starts with a copy of that session's history \(records 2 to 11, 2 recorded calls of the parent's\), replayed as the context its first call sends/,
  );
});

test("Codex: a fork whose copy holds only the parent's turns (the child never started one) is a log with no calls of its own", async () => {
  const lines = forkedChild({ parent: (n) => uuidV7(CHILD_BORN - 500_000 + n * 1000), child: () => undefined })
    .split('\n')
    .slice(0, 11)
    .join('\n');
  // Nothing of its own to replay: skipped as a log with no calls, the parent's calls left to the parent's file.
  await assert.rejects(loadCodex('child.jsonl', lines + '\n'), /Codex CLI log with no model calls/);
});

test("Codex forks (property): whatever the copy's length, only the child's own calls and usage are this file's", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 1, max: 50_000 }), { maxLength: 5 }),
      fc.array(fc.integer({ min: 1, max: 50_000 }), { minLength: 1, maxLength: 4 }),
      async (parentCalls, childCalls) => {
        const r = codexRollout();
        r.at(CHILD_BORN);
        r.meta({ id: uuidV7(CHILD_BORN), forked_from_id: PARENT, timestamp: now(CHILD_BORN), base_instructions });
        r.meta({ id: PARENT, base_instructions });
        parentCalls.forEach((input, n) => {
          r.turn(uuidV7(CHILD_BORN - 100_000 + n));
          r.user(`parent ${n}`);
          r.reply(`parent answer ${n}`);
          r.usage(input);
        });
        childCalls.forEach((input, n) => {
          r.turn(uuidV7(CHILD_BORN + n));
          r.user(`child ${n}`);
          r.reply(`child answer ${n}`);
          r.usage(input);
        });
        const t = await loadCodex('child.jsonl', r.text());
        assert.deepEqual(
          t.calls!.map((c) => c.recorded?.inputTokens),
          childCalls,
        );
        // The first call sends the whole copy: the system prompt, two messages a parent turn, its own question.
        assert.equal(contextOf(t, t.calls![0]!).length, 1 + 2 * parentCalls.length + 1);
      },
    ),
    { numRuns: 40 },
  );
});

test('Codex: a fork copy whose end the turn ids do not mark keeps its calls but leaves out recorded usage, saying why', async () => {
  // Turn ids that are not UUIDv7 (older Codex): the copy's calls cannot be told from the child's.
  const t = await loadCodex('child.jsonl', forkedChild({ parent: (n) => `turn-p${n}`, child: (n) => `turn-c${n}` }));
  // The parent's two copied calls (the second, whose function call is not copied, with no reply) and the child's.
  assert.equal(t.calls!.length, 4);
  assert.ok(t.calls!.every((c) => c.recorded === undefined));
  assert.match(
    t.warnings!.join('\n'),
    /starts with a copy of that session's history from record 2, and its turn ids do not say where the copy ends: .*recorded usage is left out/,
  );
});

test("Codex: an unmarked fork copy ends where the parent's own rollout (in the same sessions tree) stops matching it", async () => {
  const child = forkedChild({ parent: (n) => `turn-p${n}`, child: (n) => `turn-c${n}` })
    .trimEnd()
    .split('\n');
  const own = child.findIndex((l) => l.includes('"turn-c1"'));
  // The parent's rollout as the parent wrote it (its own times), which went on after the fork.
  const stamp = (l: string) => l.replace(/"timestamp":"[^"]*"/, '"timestamp":"2026-08-15T17:10:00.000Z"');
  const later = codexRollout();
  later.turn('turn-p3');
  later.user('anything else?');
  later.reply('No.');
  later.usage(9900);
  const parent = [...child.slice(1, own).map(stamp), ...later.text().trimEnd().split('\n')];
  const sessions = mkdtempSync(join(tmpdir(), 'cd-codex-sessions-'));
  const day = (d: string) => {
    mkdirSync(join(sessions, '2026', '08', d), { recursive: true });
    return join(sessions, '2026', '08', d);
  };
  writeFileSync(join(day('14'), `rollout-2026-08-14T17-10-00-${PARENT}.jsonl`), parent.join('\n') + '\n');
  const file = join(day('15'), 'rollout-2026-08-15T17-20-27-child.jsonl');
  writeFileSync(file, child.join('\n') + '\n');
  const [t] = await loadTrajectoryFile(file);
  assert.deepEqual(
    t!.calls!.map((c) => c.recorded?.inputTokens),
    [9700, 9800],
  );
  assert.equal(contextOf(t!, t!.calls![0]!).at(-1)!.content, 'review the parser fix');
  assert.doesNotMatch(t!.warnings!.join('\n'), /do not say where the copy ends/);
  // A parent rollout that differs inside the copy (rewritten by another version) places nothing.
  writeFileSync(
    join(day('14'), `rollout-2026-08-14T17-10-00-${PARENT}.jsonl`),
    parent.map((l) => l.replace('It is the parser test', 'It was the parser test')).join('\n') + '\n',
  );
  const [u] = await loadTrajectoryFile(file);
  assert.ok(u!.calls!.every((c) => c.recorded === undefined));
  assert.match(u!.warnings!.join('\n'), /do not say where the copy ends/);
});

test('Codex: a sub-agent started with a fresh history (no copy) keeps its calls and recorded usage, with no note of a copy', async () => {
  const r = codexRollout();
  r.at(CHILD_BORN);
  const spawn = { subagent: { thread_spawn: { parent_thread_id: PARENT, depth: 1 } } };
  r.meta({ id: uuidV7(CHILD_BORN), timestamp: now(CHILD_BORN), source: spawn, base_instructions });
  r.turn(uuidV7(CHILD_BORN + 20));
  r.user('review the parser fix');
  r.reply('The fix is right.');
  r.usage(3000);
  const t = await loadCodex('sub.jsonl', r.text());
  assert.deepEqual(
    t.calls!.map((c) => c.recorded?.inputTokens),
    [3000],
  );
  assert.doesNotMatch((t.warnings ?? []).join('\n'), /copy/);
});

test("Codex: a fork's copy of its parent's metadata and a repeated session_meta are not a second system prompt; two sessions in one file are refused", async () => {
  const line = (type: string, payload: object) => JSON.stringify({ timestamp: '2026-06-15T13:00:00Z', type, payload });
  const user = (text: string) =>
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  const reply = (text: string) =>
    line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  const usage = (input: number) =>
    line('event_msg', { type: 'token_count', info: { last_token_usage: { input_tokens: input, output_tokens: 5 } } });
  const base = { text: 'You are Codex.' };
  const dir = mkdtempSync(join(tmpdir(), 'cd-codex-'));
  const load = async (name: string, lines: string[]) => {
    writeFileSync(join(dir, name), lines.join('\n') + '\n');
    return loadTrajectoryFile(join(dir, name));
  };
  const sent = (t: Awaited<ReturnType<typeof load>>[number]) =>
    t.calls!.map((c) => contextOf(t, c).map((m) => `${m.role}: ${m.content}`));
  // A fork writes its own metadata, then its parent's rollout as it was, the parent's metadata first.
  const [fork] = await load('fork.jsonl', [
    line('session_meta', { id: 'child', forked_from_id: 'parent', base_instructions: base }),
    line('session_meta', { id: 'parent', base_instructions: base }),
    user('parent question'),
    reply('parent answer'),
    usage(1000),
    user('child question'),
    reply('child answer'),
    usage(1100),
  ]);
  assert.deepEqual(sent(fork!)[1], [
    'system: You are Codex.',
    'user: parent question',
    'assistant: parent answer',
    'user: child question',
  ]);
  // A session that repeats its own metadata (resumed, long-lived): one system prompt.
  const [resumed] = await load('resumed.jsonl', [
    line('session_meta', { id: 's', base_instructions: base }),
    user('q1'),
    reply('a1'),
    usage(900),
    line('session_meta', { id: 's', base_instructions: base }),
    user('q2'),
    reply('a2'),
    usage(950),
  ]);
  assert.deepEqual(sent(resumed!)[1], ['system: You are Codex.', 'user: q1', 'assistant: a1', 'user: q2']);
  // Two unrelated sessions in one file (rollouts joined by hand): refused, not replayed as one.
  await assert.rejects(
    load('two.jsonl', [
      line('session_meta', { id: 'a', base_instructions: base }),
      user('q a'),
      reply('ans a'),
      line('session_meta', { id: 'b', base_instructions: base }),
      user('q b'),
      reply('ans b'),
    ]),
    /holds more than one Codex session \(a, then b at record 4\): replay each rollout file on its own/,
  );
});

test('Aider reflections (a malformed edit, lint errors): each is a call of its own, sent the error Aider showed', async () => {
  const t = await one('aider-reflections.chat.history.md');
  // One call per `> Tokens:` line: the request, two reflections, the person's thanks.
  assert.equal(t.calls!.length, 4);
  assert.deepEqual(shape(t), [
    'user/person',
    'assistant/agent',
    'user/environment',
    'assistant/agent',
    'user/environment',
    'assistant/agent',
    'user/person',
    'assistant/agent',
  ]);
  const sent = t.calls!.map((c) => contextOf(t, c).length);
  assert.deepEqual(sent, [1, 3, 5, 7]);
  assert.match(t.messages[2]!.content, /No filename provided before ``` in file listing/);
  assert.match(t.messages[4]!.content, /E999 SyntaxError: '\(' was never closed/);
  assert.ok(!t.messages.some((m) => m.content.includes('Tokens:')));
  assert.match(t.warnings!.join('\n'), /2 reflections \(Aider called the model again/);
});

test('Aider /clear and /reset empty the chat history: later replies are sent without what came before', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-aider-'));
  const text = [
    '# aider chat started at 2026-01-01 10:00:00',
    '',
    '#### first question  ',
    '',
    'first answer',
    '',
    '#### /clear  ',
    '',
    '#### second question  ',
    '',
    'second answer',
    '',
  ].join('\n');
  writeFileSync(join(dir, '.aider.chat.history.md'), text);
  const [t] = await loadTrajectoryFile(join(dir, '.aider.chat.history.md'));
  assert.deepEqual(
    contextOf(t!, t!.calls![1]!).map((m) => m.content),
    ['second question'],
  );
  assert.match(t!.warnings!.join('\n'), /1 \/clear or \/reset: later calls do not send what came before/);
});

test("Codex: another agent's message is this agent's input; after a compaction the instructions are still sent; an encrypted summary is said", async () => {
  const line = (type: string, payload: object) => JSON.stringify({ timestamp: '2026-01-01T00:00:00Z', type, payload });
  const user = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'review the parser' }] };
  const reply = (text: string) =>
    line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  const text = [
    line('session_meta', { id: 's', base_instructions: { text: 'You are Codex.' } }),
    line('response_item', user),
    reply('asking the explorer'),
    line('response_item', {
      type: 'agent_message',
      author: 'explorer',
      recipient: 'main',
      content: [{ type: 'input_text', text: 'the parser is in src/parse.rs' }],
    }),
    reply('found it'),
    line('compacted', {
      message: '',
      replacement_history: [user, { type: 'compaction', encrypted_content: 'gAAAA...' }],
    }),
    reply('after the compaction'),
  ].join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'cd-codex-'));
  writeFileSync(join(dir, 'rollout.jsonl'), text + '\n');
  const [t] = await loadTrajectoryFile(join(dir, 'rollout.jsonl'));
  const sent = (n: number) => contextOf(t!, t!.calls![n]!).map((m) => [m.content, m.origin]);
  assert.deepEqual(sent(1).slice(-2), [
    ['asking the explorer', 'agent'],
    ['the parser is in src/parse.rs', 'agent'],
  ]);
  // The instructions go with every request: a compaction replaces the history, not them.
  assert.deepEqual(sent(2), [
    ['You are Codex.', 'agent'],
    ['review the parser', 'person'],
  ]);
  assert.match(t!.warnings!.join('\n'), /1 compaction summary sent encrypted .*not counted/);
});

test("Aider: each call's `Tokens: N sent, M received` line is its recorded usage when exact; rounded figures are refused", async () => {
  const t = await one('aider-reflections.chat.history.md');
  // 640 sent, 31 received; then 1.1k (rounded by Aider) sent, 36 received; ...
  assert.deepEqual(t.calls![0]!.recorded, { inputTokens: 640, outputTokens: 31 });
  assert.equal(t.calls![1]!.recorded, undefined);
  assert.match(t.warnings!.join('\n'), /with usage Aider rounded \(1\.2k, 12k sent or received\): not used/);
  const dir = mkdtempSync(join(tmpdir(), 'cd-aider-usage-'));
  const text = [
    '# aider chat started at 2026-01-01 10:00:00',
    '#### Hi',
    'Hello.',
    '> Tokens: 2.5k sent, 1.2k cache write, 120 received. Cost: $0.01 message, $0.01 session.',
    '#### Again',
    'Sure.',
    '> Tokens: 999 sent, 7 received. Cost: $0.0021 message, $0.01 session.',
    '',
  ].join('\n');
  writeFileSync(join(dir, '.aider.chat.history.md'), text);
  const [u] = await loadTrajectoryFile(join(dir, '.aider.chat.history.md'));
  assert.deepEqual(
    u!.calls!.map((c) => c.recorded),
    [undefined, { inputTokens: 999, outputTokens: 7 }],
  );
  assert.match(u!.warnings!.join('\n'), /1 call with cache figures in Aider's report: not used/);
  // A continued reply (Aider's `FinishReasonLength` loop with assistant prefill) leaves no mark in the file:
  // each piece is written as it comes, then one Tokens line sums the calls.
  assert.match(u!.warnings!.join('\n'), /had the model continue is written as one reply .* calls are a lower bound/);
});
