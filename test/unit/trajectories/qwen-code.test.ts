import { test } from 'node:test';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextOf, loadTrajectoryFile, type Trajectory } from '../../../src/core/trajectories';
import { assertQuick } from '../../support/linear-time';
import { callShape, fixture, shape } from './helpers';

test('Qwen Code: read as its own format, not as Claude Code (whose keys its records share)', async () => {
  const [main, sub] = (await loadTrajectoryFile(fixture('qwen-code-session.jsonl'))) as [Trajectory, Trajectory];
  assert.equal(main.format, 'qwen-code');
  assert.equal(main.messages[0]!.content, 'Fix the off-by-one in wrap() in src/wrap.py');
  assert.equal(main.messages[1]!.content, "I'll read the file first.");
  assert.deepEqual(main.messages[1]!.toolCalls, [
    { id: 'call_1', name: 'read_file', arguments: '{"absolute_path":"/home/dev/textkit/src/wrap.py"}' },
  ]);
  assert.equal(main.messages[2]!.toolCallId, 'call_1');
  assert.match(main.messages[2]!.content, /^def wrap\(text, width\):/);
  assert.equal(sub.id, 'qwen-code-session.jsonl#2', "a sub-agent's records are a run of their own");
  assert.deepEqual(shape(sub), ['user/agent', 'assistant/agent', 'tool/environment', 'assistant/agent']);
});

test('Qwen Code: the active branch, one reply written in two parts, usage per call, a compression', async () => {
  const [t] = await loadTrajectoryFile(fixture('qwen-code-session.jsonl'));
  assert.deepEqual(shape(t!), [
    'user/person',
    'assistant/agent',
    'tool/environment',
    'assistant/agent', // a thought, then the call under the same uuid: one reply
    'tool/environment',
    'assistant/agent',
    'user/person', // the follow-up after the rewind; the rewound one is gone
    'assistant/agent',
    'tool/environment',
    'user/agent', // the compression's summary
    'assistant/agent',
    'user/person',
    'assistant/agent',
  ]);
  assert.ok(!t!.messages.some((m) => m.content.includes('trailing spaces')), 'the rewound branch is not replayed');
  assert.deepEqual(
    t!.messages[3]!.toolCalls?.map((c) => c.name),
    ['replace'],
  );
  assert.deepEqual(callShape(t!), [
    [[[0, 1]], 1],
    [[[0, 3]], 3],
    [[[0, 5]], 5],
    [[[0, 7]], 7],
    [[[9, 12]], 12],
  ]);
  // Gemini usage: cached tokens inside the prompt, thoughts billed as output.
  assert.deepEqual(t!.calls![1]!.recorded, { inputTokens: 2230, cachedTokens: 2100, outputTokens: 70 });
  assert.deepEqual(
    t!.calls!.map((c) => c.recorded?.inputTokens),
    [2100, 2230, 2310, 2345, 412],
  );
  const warnings = t!.warnings!.join('\n');
  assert.match(warnings, /2 messages on abandoned branches \(rewound\) not replayed/);
  assert.match(warnings, /1 thought part not counted/);
  assert.match(warnings, /1 compression/);
  assert.match(warnings, /does not record its system prompt or tool declarations: raw counts are a lower bound/);
});

/** The one-run session made of these record lines, written to a temporary file. */
async function session(lines: string[]): Promise<Trajectory[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cd-qwen-'));
  writeFileSync(join(dir, 's.jsonl'), lines.join('\n') + '\n');
  return loadTrajectoryFile(join(dir, 's.jsonl'));
}

const record = (uuid: string, parent: string | null, type: string, extra: object) =>
  JSON.stringify({
    uuid,
    parentUuid: parent,
    sessionId: 's',
    timestamp: '2026-11-20T10:00:00Z',
    type,
    cwd: '/w',
    version: '1',
    ...extra,
  });
const user = (text: string) => ({ message: { role: 'user', parts: [{ text }] } });
const reply = (text: string, usage?: object) => ({
  message: { role: 'model', parts: [{ text }] },
  ...(usage ? { usageMetadata: usage } : {}),
});

test('Qwen Code: usage that is not a token count is left out, never summed', async () => {
  const [t] = await session([
    record('u1', null, 'user', user('hi')),
    record('a1', 'u1', 'assistant', reply('hello', { promptTokenCount: -5, candidatesTokenCount: 3 })),
    record('u2', 'a1', 'user', user('and?')),
    record('a2', 'u2', 'assistant', reply('more', { promptTokenCount: 40.5 })),
  ]);
  assert.deepEqual(
    t!.calls!.map((c) => c.recorded),
    [{ unreadableTokens: true }, { unreadableTokens: true }],
  );
});

// Qwen Code's OpenAI converter (openaiContentGenerator/converter.ts) writes completion_tokens, reasoning
// included, as candidatesTokenCount and reasoning_tokens (or an estimate) as thoughtsTokenCount, with
// totalTokenCount = total_tokens; Gemini's own usage keeps thoughts beside the candidates and in the total.
test('Qwen Code: thoughts are added to the output only where they are beside it (Gemini), not inside it (OpenAI)', async () => {
  const [t] = await session([
    record('u1', null, 'user', user('hi')),
    // OpenAI-compatible model: 70 completion tokens, 18 of them reasoning; total_tokens 2300.
    record(
      'a1',
      'u1',
      'assistant',
      reply('one', {
        promptTokenCount: 2230,
        candidatesTokenCount: 70,
        thoughtsTokenCount: 18,
        totalTokenCount: 2300,
        cachedContentTokenCount: 2100,
      }),
    ),
    record('u2', 'a1', 'user', user('and?')),
    // Gemini: 52 candidates beside 18 thoughts and 5 tool-use prompt tokens; the total holds them all.
    record(
      'a2',
      'u2',
      'assistant',
      reply('two', {
        promptTokenCount: 2400,
        toolUsePromptTokenCount: 5,
        candidatesTokenCount: 52,
        thoughtsTokenCount: 18,
        totalTokenCount: 2475,
      }),
    ),
    record('u3', 'a2', 'user', user('more?')),
    // No total (a provider that sent no total_tokens): which convention is not known.
    record(
      'a3',
      'u3',
      'assistant',
      reply('three', {
        promptTokenCount: 2500,
        candidatesTokenCount: 30,
        thoughtsTokenCount: 10,
        totalTokenCount: 0,
      }),
    ),
    record('u4', 'a3', 'user', user('last')),
    // More thoughts than candidates: only Gemini writes that (OpenAI's reasoning is part of its completion).
    record(
      'a4',
      'u4',
      'assistant',
      reply('four', {
        promptTokenCount: 2600,
        candidatesTokenCount: 10,
        thoughtsTokenCount: 300,
      }),
    ),
  ]);
  assert.deepEqual(
    t!.calls!.map((c) => c.recorded),
    [
      { inputTokens: 2230, cachedTokens: 2100, outputTokens: 70 },
      { inputTokens: 2405, outputTokens: 70 },
      { inputTokens: 2500 },
      { inputTokens: 2600, outputTokens: 310 },
    ],
  );
  assert.match(
    t!.warnings!.join('\n'),
    /1 reply's output tokens not known: its thought tokens may or may not be inside its candidate tokens/,
  );
});

test("Qwen Code (property): the output is the completion under the OpenAI convention, candidates plus thoughts under Gemini's", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 200_000 }),
      fc.integer({ min: 0, max: 5_000 }),
      fc.integer({ min: 0, max: 20_000 }),
      fc.integer({ min: 0, max: 20_000 }),
      async (prompt, tool, visible, thoughts) => {
        const [t] = await session([
          record('u1', null, 'user', user('hi')),
          // OpenAI-compatible: completion_tokens holds the reasoning; total_tokens = prompt + completion.
          record(
            'a1',
            'u1',
            'assistant',
            reply('one', {
              promptTokenCount: prompt,
              candidatesTokenCount: visible + thoughts,
              thoughtsTokenCount: thoughts,
              totalTokenCount: prompt + visible + thoughts,
            }),
          ),
          record('u2', 'a1', 'user', user('and?')),
          // Gemini: thoughts and the tool-use prompt beside, all in the total.
          record(
            'a2',
            'u2',
            'assistant',
            reply('two', {
              promptTokenCount: prompt,
              toolUsePromptTokenCount: tool,
              candidatesTokenCount: visible,
              thoughtsTokenCount: thoughts,
              totalTokenCount: prompt + tool + visible + thoughts,
            }),
          ),
        ]);
        assert.deepEqual(
          t!.calls!.map((c) => c.recorded?.outputTokens),
          [visible + thoughts, visible + thoughts],
        );
      },
    ),
    { numRuns: 60 },
  );
});

test('Qwen Code: a notification is the environment, a prompt typed mid-turn the person, function responses beside text', async () => {
  const [t] = await session([
    record('u1', null, 'user', user('start the build')),
    record('a1', 'u1', 'assistant', reply('starting')),
    record('n1', 'a1', 'user', {
      subtype: 'notification',
      ...user('<task-notification>build done</task-notification>'),
    }),
    record('m1', 'n1', 'user', { subtype: 'mid_turn_user_message', ...user('also run the tests') }),
    record('t1', 'm1', 'tool_result', {
      message: {
        role: 'user',
        parts: [
          { functionResponse: { id: 'c1', name: 'run_shell_command', response: { error: 'exit 1' } } },
          { text: 'stderr follows' },
        ],
      },
    }),
    record('a2', 't1', 'assistant', reply('the build failed')),
  ]);
  assert.deepEqual(shape(t!), [
    'user/person',
    'assistant/agent',
    'user/environment',
    'user/person',
    'tool/environment',
    'user/environment',
    'assistant/agent',
  ]);
  assert.equal(t!.messages[4]!.content, 'exit 1');
  assert.equal(contextOf(t!, t!.calls![1]!).length, 6);
});

test('Qwen Code: a file of records without any Gemini message is not claimed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-qwen-'));
  // A Claude Code session stays Claude Code's.
  writeFileSync(join(dir, 'cc.jsonl'), readFileSync(fixture('claude-code-session.jsonl')));
  const [cc] = await loadTrajectoryFile(join(dir, 'cc.jsonl'));
  assert.equal(cc!.format, 'claude-code');
});

test('Qwen Code: a long session and its sub-agents read in time linear in their records', async () => {
  // 100,000 records: a walk or a grouping that copies per record takes minutes here.
  const lines: string[] = [];
  const parents = new Map<string, string | null>();
  for (let i = 0; i < 100000; i++) {
    const agent = i % 4 === 3 ? 'explore' : 'main';
    const sidechain = agent === 'main' ? {} : { isSidechain: true, agentId: agent };
    const uuid = `r${i}`;
    const asks = (i >> 1) % 2 === 0;
    lines.push(
      record(uuid, parents.get(agent) ?? null, asks ? 'user' : 'assistant', {
        ...sidechain,
        ...(asks ? user(`q${i}`) : reply(`a${i}`)),
      }),
    );
    parents.set(agent, uuid);
  }
  const started = performance.now();
  const runs = await session(lines);
  assertQuick(started);
  assert.equal(runs.length, 2);
  assert.ok(runs[0]!.calls!.length > 20000 && runs[1]!.calls!.length > 5000);
});
