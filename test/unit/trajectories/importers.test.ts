import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextOf, loadTrajectoryFile, type Trajectory } from '../../../src/core/trajectories';
import { callShape, fixture, one, shape } from './helpers';

test('mini-swe-agent 1.x: messages, usage and money per call, the unsent submission not in any call', async () => {
  const t = await one('mini-swe-agent.traj.json');
  assert.equal(t.format, 'mini-swe-agent');
  assert.equal(t.id, 'mini-swe-agent.traj.json');
  assert.deepEqual(shape(t).slice(0, 4), ['system/agent', 'user/person', 'assistant/agent', 'user/environment']);
  const calls = t.calls!;
  assert.equal(calls.length, 3);
  const last = calls.at(-1)!;
  assert.ok(
    t.messages.slice(0, last.context[0]![1]).every((m) => !m.content.startsWith('diff --git')),
    'the submitted diff was never sent',
  );
  assert.deepEqual(
    calls.map((c) => [c.recorded?.inputTokens, c.recorded?.outputTokens]),
    [
      [120, 31],
      [171, 48],
      [240, 22],
    ],
  );
});

test('mini-swe-agent: an instance cost of $0 beside recorded tokens is no recorded cost (a model LiteLLM has no price for)', async () => {
  const doc = JSON.parse(readFileSync(fixture('mini-swe-agent.traj.json'), 'utf8')) as {
    info: { model_stats: { instance_cost: number } };
  };
  doc.info.model_stats.instance_cost = 0;
  const dir = mkdtempSync(join(tmpdir(), 'cd-mini-'));
  writeFileSync(join(dir, 'local.traj.json'), JSON.stringify(doc));
  const [t] = await loadTrajectoryFile(join(dir, 'local.traj.json'));
  assert.ok(t!.calls!.some((c) => (c.recorded?.inputTokens ?? 0) > 0));
  assert.equal(t!.recordedCost, undefined);
  assert.match(t!.warnings!.join('\n'), /a cost of \$0 beside non-zero tokens: read as no cost recorded/);
});

test('mini-swe-agent 2.x tool calling: tool messages, a rejected reply as a call without output, exit ignored', async () => {
  const t = await one('mini-swe-agent-2-toolcall.traj.json');
  assert.deepEqual(shape(t), [
    'system/agent',
    'user/person',
    'assistant/agent',
    'tool/environment',
    'user/environment',
    'assistant/agent',
  ]);
  assert.deepEqual(callShape(t), [
    [[[0, 2]], 2],
    [[[0, 4]], null], // the rejected reply: it saw the tool output, its text was not kept
    [[[0, 5]], 5],
  ]);
  assert.deepEqual(
    t.calls!.map((c) => c.recorded),
    [
      { inputTokens: 210, cachedTokens: 0, outputTokens: 30, cost: 0.004 },
      { inputTokens: 290, cachedTokens: 200, outputTokens: 12, cost: 0.003 },
      { inputTokens: 330, cachedTokens: 280, outputTokens: 41, cost: 0.0053 },
    ],
  );
  assert.equal(t.messages[2]!.toolCalls![0]!.arguments, '{"command": "cat text.py"}');
  assert.equal(t.messages[3]!.toolCallId, 'call_1');
  assert.match(t.warnings!.join('\n'), /1 rejected reply/);
});

test('mini-swe-agent: a rejected reply whose response was kept as text (not serializable) is still a call', async () => {
  const doc = JSON.parse(readFileSync(fixture('mini-swe-agent-2-toolcall.traj.json'), 'utf8')) as {
    messages: { extra?: { response?: unknown } }[];
  };
  doc.messages[4]!.extra!.response = "ModelResponse(id='chatcmpl-1', choices=[...])";
  const t = await readDoc(doc);
  assert.deepEqual(callShape(t), [
    [[[0, 2]], 2],
    [[[0, 4]], null],
    [[[0, 5]], 5],
  ]);
  assert.deepEqual(t.calls![1]!.recorded, { cost: 0.003 }, 'its cost is kept; the text holds no usage to read');
});

test('mini-swe-agent 2.x Responses API: role-less response objects are calls, function_call_output items observations', async () => {
  const t = await one('mini-swe-agent-2-responses.traj.json');
  assert.deepEqual(shape(t), ['system/agent', 'user/person', 'assistant/agent', 'tool/environment', 'assistant/agent']);
  assert.equal(t.messages[2]!.content, 'I will inspect the workspace.');
  assert.deepEqual(t.messages[2]!.toolCalls, [{ id: 'call_a', name: 'bash', arguments: '{"command": "ls"}' }]);
  assert.equal(t.messages[3]!.toolCallId, 'call_a');
  assert.deepEqual(
    t.calls!.map((c) => c.recorded),
    [
      { inputTokens: 180, cachedTokens: 0, outputTokens: 55, cost: 0.008 },
      { inputTokens: 260, cachedTokens: 128, outputTokens: 20, cost: 0.012 },
    ],
  );
  assert.match(t.warnings!.join('\n'), /1 reasoning item not counted .*raw counts are a lower bound/);
  assert.doesNotMatch(t.warnings!.join('\n'), /does not resend them/);
});

test('SWE-agent full .traj: history beside trajectory; the task is the person, observations the environment', async () => {
  const t = await one('swe-agent-full.traj');
  assert.equal(t.format, 'swe-agent');
  assert.equal(t.id, 'swe-agent-full.traj', 'the id is the path, not `environment`');
  assert.equal(t.messages[1]!.origin, 'person');
  assert.match(t.messages[1]!.content, /^<uploaded_files>/);
  assert.deepEqual(t.messages[2]!.toolCalls, [
    { id: 'toolu_01', name: 'str_replace_editor', arguments: '{"command": "view", "path": "/testbed/text.py"}' },
  ]);
  assert.equal(t.messages[3]!.role, 'tool');
  assert.equal(t.messages[3]!.origin, 'environment');
  assert.equal(t.messages[3]!.toolCallId, 'toolu_01');
  assert.equal(t.calls!.length, 3);
});

test('SWE-agent: the last step is taken from `trajectory` when `history` stops short of it', async () => {
  const doc = JSON.parse(readFileSync(fixture('swe-agent-full.traj'), 'utf8')) as { history: unknown[] };
  doc.history = doc.history.slice(0, 6); // drops the final submit action and its observation
  const dir = mkdtempSync(join(tmpdir(), 'cd-swe-'));
  writeFileSync(join(dir, 'short.traj'), JSON.stringify(doc));
  const [t] = await loadTrajectoryFile(join(dir, 'short.traj'));
  const full = await one('swe-agent-full.traj');
  assert.equal(t!.calls!.length, full.calls!.length, 'the submit step is a call');
  const last = t!.calls!.at(-1)!;
  assert.deepEqual(last.context, [[0, 6]]);
  assert.equal(t!.messages[last.output!]!.role, 'assistant');
  assert.match(t!.messages[last.output!]!.content, /submit/);
  assert.match(t!.warnings!.join('\n'), /1 step missing from `history` taken from `trajectory`/);
});

test('SWE-agent history-only extract gives the same messages; without history the last step query is the chat', async () => {
  const full = await one('swe-agent-full.traj');
  const hist = await one('swe-agent.history.json');
  assert.equal(hist.format, 'swe-agent-history');
  assert.deepEqual(hist.messages, full.messages);
  const doc = JSON.parse(readFileSync(fixture('swe-agent-full.traj'), 'utf8')) as Record<string, unknown>;
  delete doc.history;
  const dir = mkdtempSync(join(tmpdir(), 'cd-swe-'));
  writeFileSync(join(dir, 'steps.traj'), JSON.stringify(doc));
  const [t] = await loadTrajectoryFile(join(dir, 'steps.traj'));
  const last = t!.calls!.at(-1)!;
  assert.deepEqual(
    t!.messages.slice(0, last.context[0]![1]).map((m) => m.role),
    full.messages.slice(0, full.calls!.at(-1)!.context[0]![1]).map((m) => m.role),
  );
});

// swe-agent-masked.traj: the first 7 steps of a real SWE-agent run whose history processor
// (`last_n_observations`, n=5) shortened old observations in the prompts it sent (see the fixtures' README).
type SweStep = { messages?: { content: string }[]; query?: { content: string }[] };
const maskedDoc = () =>
  JSON.parse(readFileSync(fixture('swe-agent-masked.traj'), 'utf8')) as {
    trajectory: SweStep[];
    history: { content: string }[];
  };

async function readDoc(doc: unknown): Promise<Trajectory> {
  const dir = mkdtempSync(join(tmpdir(), 'cd-swe-'));
  writeFileSync(join(dir, 'run.traj'), JSON.stringify(doc));
  const all = await loadTrajectoryFile(join(dir, 'run.traj'));
  assert.equal(all.length, 1);
  return all[0]!;
}

test('SWE-agent: each call sends the prompt its step recorded, not the unmasked history (per-step `messages`)', async () => {
  const doc = maskedDoc();
  const t = await one('swe-agent-masked.traj');
  const calls = t.calls!;
  assert.equal(calls.length, 7);
  // Call k sent what step k-1 recorded after it; the first call sent the system prompt and the task.
  assert.deepEqual(
    contextOf(t, calls[0]!).map((m) => m.content),
    doc.history.slice(0, 2).map((m) => m.content),
  );
  for (let k = 1; k < calls.length; k++)
    assert.deepEqual(
      contextOf(t, calls[k]!).map((m) => m.content),
      doc.trajectory[k - 1]!.messages!.map((m) => m.content),
      `call ${k}`,
    );
  assert.equal(contextOf(t, calls[6]!)[3]!.content, 'Old environment output: (7 lines omitted)');
  assert.equal(contextOf(t, calls[6]!)[3]!.origin, 'environment');
  assert.notEqual(doc.history[3]!.content, 'Old environment output: (7 lines omitted)', 'the history keeps it whole');
  // Messages the history holds are shared, not repeated per call: one copy per shortened observation.
  assert.equal(t.messages.length, doc.history.length + 1);
  assert.match(
    t.warnings!.join('\n'),
    /raw is what each call sent as its step recorded it: .*`last_n_observations`.* in 1 call/,
  );
});

test('SWE-agent 1.x `query`: the same prompts; without them a shortening history processor is said', async () => {
  const t0 = await one('swe-agent-masked.traj');
  const doc = maskedDoc();
  const steps = doc.trajectory;
  const withQuery = {
    ...doc,
    trajectory: steps.map((s, k) => {
      const { messages: _, ...rest } = s;
      return { ...rest, query: k === 0 ? doc.history.slice(0, 2) : steps[k - 1]!.messages };
    }),
  };
  const q = await readDoc(withQuery);
  assert.deepEqual(
    q.calls!.map((c) => contextOf(q, c).map((m) => m.content)),
    t0.calls!.map((c) => contextOf(t0, c).map((m) => m.content)),
  );
  const bare = await readDoc({ ...doc, trajectory: steps.map(({ messages: _, ...rest }) => rest) });
  assert.match(
    bare.warnings!.join('\n'),
    /the steps do not record the prompts sent, so raw counts the full `history`, more than was sent: .*`last_n_observations`/,
  );
  const unnamed = await readDoc({ history: doc.history });
  assert.match(unnamed.warnings!.join('\n'), /does not name SWE-agent's history processor/);
});

test('SWE-agent RetryAgent: each attempt is its own run with its own cost; the chosen copy and the total are not', async () => {
  const attempt = (cost: number, steps: number) => {
    const doc = maskedDoc() as ReturnType<typeof maskedDoc> & { info: { model_stats: Record<string, number> } };
    doc.trajectory = doc.trajectory.slice(0, steps);
    doc.history = doc.history.slice(0, 2 + 2 * steps);
    doc.info.model_stats = { instance_cost: cost, api_calls: steps };
    return doc;
  };
  const attempts = [attempt(0.5, 4), attempt(0.7, 7)];
  // As RetryAgent.get_trajectory_data(choose=True) writes it: the best attempt copied to the top level,
  // its model_stats overwritten with the totals of all attempts.
  const chosen = { ...attempt(0.7, 7), attempts };
  chosen.info.model_stats = { instance_cost: 1.2, api_calls: 11 };
  Object.assign(chosen.info, { best_attempt_idx: 1, rloop_model_stats: { instance_cost: 0.05 } });
  for (const doc of [chosen, { attempts }]) {
    const dir = mkdtempSync(join(tmpdir(), 'cd-swe-'));
    writeFileSync(join(dir, 'retry.traj'), JSON.stringify(doc));
    const runs = await loadTrajectoryFile(join(dir, 'retry.traj'));
    assert.deepEqual(
      runs.map((t) => [t.id, t.calls!.length, t.recordedCost]),
      [
        ['retry.traj#1', 4, 0.5],
        ['retry.traj#2', 7, 0.7],
      ],
    );
    assert.match(
      runs[0]!.warnings!.join('\n'),
      /a RetryAgent file: each of its 2 attempts is replayed as its own run.*reviewer or chooser.*not replayed/,
    );
    if (doc === chosen) assert.match(runs[0]!.warnings!.join('\n'), /#2 was chosen/);
  }
});

test('SWE-agent model_stats: more API calls than the log keeps is said; a run replayed without a model records no $0 cost', async () => {
  const withStats = (stats: Record<string, number>) => {
    const doc = maskedDoc() as ReturnType<typeof maskedDoc> & { info: { model_stats: Record<string, number> } };
    doc.info.model_stats = stats;
    return readDoc(doc);
  };
  // 7 steps kept; SWE-agent counted 9 queries (two replies it rejected and asked again for).
  const retried = await withStats({ instance_cost: 0.9, api_calls: 9 });
  assert.equal(retried.calls!.length, 7);
  assert.equal(retried.recordedCost, 0.9);
  assert.match(
    retried.warnings!.join('\n'),
    /`model_stats` counts 9 API calls, the log keeps 7: .* in the recorded cost but not replayed/,
  );
  const exact = await withStats({ instance_cost: 0.7, api_calls: 7 });
  assert.equal(exact.recordedCost, 0.7);
  assert.doesNotMatch((exact.warnings ?? []).join('\n'), /API calls/);
  // A demonstration replayed without a model: no calls, $0. That is not what its 7 calls cost.
  const replayed = await withStats({ instance_cost: 0, tokens_sent: 0, api_calls: 0 });
  assert.equal(replayed.recordedCost, undefined);
  assert.match(replayed.warnings!.join('\n'), /records no API calls .*: its cost of \$0 is not read as recorded/);
});

test('OpenAI chat JSON, bare array and JSONL read to the same messages; user is a person, tool the environment', async () => {
  const obj = await one('openai-chat.json');
  const bare = await one('openai-bare.json');
  const lines = await one('openai.jsonl');
  assert.equal(obj.format, 'openai-chat');
  assert.equal(lines.format, 'openai-jsonl');
  assert.deepEqual(bare.messages, obj.messages);
  assert.deepEqual(lines.messages, obj.messages);
  assert.equal(obj.messages[1]!.origin, 'person');
  assert.equal(obj.messages[2]!.toolCalls![0]!.name, 'read_file');
  assert.equal(obj.messages[3]!.origin, 'environment');
});

test('OpenAI Responses API request: instructions first, items in order, the request itself a call', async () => {
  const t = await one('responses-request.json');
  assert.equal(t.format, 'openai-responses');
  assert.deepEqual(shape(t), [
    'system/agent',
    'user/person',
    'assistant/agent',
    'tool/environment',
    'assistant/agent',
    'user/person',
  ]);
  assert.deepEqual(t.messages[2]!.toolCalls, [{ id: 'fc_1', name: 'shell', arguments: '{"cmd": "ls"}' }]);
  assert.deepEqual(callShape(t), [
    [[[0, 2]], 2],
    [[[0, 4]], 4],
  ]);
});

test('Anthropic Messages request: system blocks, tool_use and tool_result, the pending request as a call', async () => {
  const t = await one('anthropic-request.json');
  assert.equal(t.format, 'anthropic-request');
  assert.deepEqual(shape(t), ['system/agent', 'user/person', 'assistant/agent', 'tool/environment', 'user/person']);
  assert.deepEqual(callShape(t), [
    [[[0, 2]], 2],
    [[[0, 5]], null],
  ]);
  assert.match(t.warnings!.join('\n'), /1 image part counted as a one-word marker/);
  assert.match(t.warnings!.join('\n'), /1 tool definition not counted/);
});

test('Context Desk history: messages with their origins, unknown record kinds skipped and counted', async () => {
  const t = await one('context-desk-history.jsonl');
  assert.equal(t.format, 'context-desk');
  assert.deepEqual(shape(t), [
    'system/agent',
    'user/person',
    'assistant/agent',
    'tool/environment',
    'user/person',
    'assistant/agent',
  ]);
  assert.equal(t.ignoredRecords, 1);
  assert.equal(t.warnings, undefined, 'a newer record kind is not a warning');
  assert.deepEqual(t.messages[2]!.toolCalls, [{ id: 'c1', name: 'read_file', arguments: '{"path":"text.py"}' }]);
});

test('detection is by content, not by extension', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-detect-'));
  const copy = (from: string, to: string) => {
    writeFileSync(join(dir, to), readFileSync(fixture(from)));
    return join(dir, to);
  };
  assert.equal(
    (await loadTrajectoryFile(copy('mini-swe-agent.traj.json', 'renamed.txt')))[0]!.format,
    'mini-swe-agent',
  );
  assert.equal((await loadTrajectoryFile(copy('claude-code-session.jsonl', 'session.json')))[0]!.format, 'claude-code');
  assert.equal((await loadTrajectoryFile(copy('openai.jsonl', 'chat.json')))[0]!.format, 'openai-jsonl');
  assert.equal((await loadTrajectoryFile(copy('aider.chat.history.md', 'notes.txt')))[0]!.format, 'aider');
  assert.equal(
    (await loadTrajectoryFile(copy('cline-task/api_conversation_history.json', 'x.json')))[0]!.format,
    'cline',
  );
});

test('mini-swe-agent: each call keeps its response id (how a copy of the log is found), unless ids repeat', async () => {
  const t = await one('mini-swe-agent-2-toolcall.traj.json');
  assert.deepEqual(
    t.calls!.map((c) => c.responseId),
    ['chatcmpl-1', 'chatcmpl-2', 'chatcmpl-3'],
  );
  // The 1.x fixture gives all three responses the id "gen-1": it identifies none of them.
  const repeated = await one('mini-swe-agent.traj.json');
  assert.deepEqual(
    repeated.calls!.map((c) => c.responseId),
    [undefined, undefined, undefined],
  );
});

test('Context Desk history: a separate summary model’s own units are kept out of the session’s cost units', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-units-'));
  const base = readFileSync(fixture('context-desk-history.jsonl'), 'utf8').trimEnd();
  const line = (call: Record<string, unknown>) =>
    JSON.stringify({ v: 1, session: 's-1', kind: 'summary-call', at: '2025-09-10T12:00:00.000Z', call });
  const file = join(dir, 'history.jsonl');
  writeFileSync(
    file,
    [
      base,
      line({ model: 'claude-sonnet-4-5', inputTokens: 1000, outputTokens: 100, cost: 1500 }),
      line({ model: 'my-local-llm', inputTokens: 20000, outputTokens: 300, cost: 21200, unitsOf: 'my-local-llm' }),
    ].join('\n') + '\n',
  );
  const [t] = await loadTrajectoryFile(file);
  assert.equal(t!.recordedSummaries?.calls, 2);
  // The first record names no agent model and has no money: its own model's units; the second, my-local-llm's own.
  assert.deepEqual(t!.recordedSummaries?.units, [
    { model: 'claude-sonnet-4-5', units: 1500 },
    { model: 'my-local-llm', units: 21200 },
  ]);
});
