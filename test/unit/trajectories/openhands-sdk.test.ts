import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrajectories, loadTrajectoryFile, type Trajectory } from '../../../src/core/trajectories';
import { callShape, fixture, shape } from './helpers';

// The fixture conversation (test/fixtures/trajectories/README.md): a system prompt, the task, one response
// with two parallel tool calls and their observations, a state update, a branch the user left (one
// action and its observation), a follow-up, a failing test, a condensation that forgets the first
// response and puts its summary at offset 2, and a last action.
const CONVERSATION = fixture('openhands-sdk-conversation');
const tmp = () => mkdtempSync(join(tmpdir(), 'cd-sdk-'));

async function conversation(dir = CONVERSATION): Promise<Trajectory> {
  const { trajectories, skipped } = await loadTrajectories([dir]);
  assert.deepEqual(skipped, []);
  assert.equal(trajectories.length, 1);
  return trajectories[0]!;
}

/** The fixture's events, in order, parsed. */
function events(): Record<string, unknown>[] {
  const dir = join(CONVERSATION, 'events');
  return readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>);
}

test('an OpenHands SDK conversation folder is one trajectory: the active branch as the View sent it', async () => {
  const t = await conversation();
  assert.equal(t.id, 'openhands-sdk-conversation');
  assert.equal(t.format, 'openhands-sdk');
  assert.deepEqual(shape(t), [
    'system/agent',
    'user/person',
    'assistant/agent', // one response, two tool calls
    'tool/environment',
    'tool/environment',
    'user/person', // the follow-up on the branch kept; the branch left is not here
    'assistant/agent',
    'tool/environment',
    'user/agent', // the condensation's summary
    'assistant/agent',
    'tool/environment',
  ]);
  assert.deepEqual(
    t.messages[2]!.toolCalls!.map((c) => [c.id, c.name]),
    [
      ['call_1', 'terminal'],
      ['call_2', 'file_editor'],
    ],
  );
  assert.equal(t.messages[2]!.content, 'Let me look at the files first.');
  assert.equal(
    t.messages[7]!.content,
    '[An error occurred during execution.]\nFAILED test_calc.py::test_add - assert -1 == 3',
  );
  assert.equal(t.messages[7]!.toolCallId, 'call_4');
  assert.deepEqual(callShape(t), [
    [[[0, 2]], 2],
    [[[0, 6]], 6],
    // After the condensation: system, task, the summary at offset 2, then the follow-up and its turn.
    [
      [
        [0, 2],
        [8, 9],
        [5, 8],
      ],
      9,
    ],
  ]);
  assert.ok(!t.messages.some((m) => m.content.includes('import calc')), 'the branch left is not replayed');
});

test("an SDK conversation's per-call usage comes from base_state.json by response id; its money only without other branches", async () => {
  const t = await conversation();
  assert.deepEqual(
    t.calls!.map((c) => c.recorded),
    [
      { inputTokens: 2100, cachedTokens: 0, cacheWriteTokens: 2000, outputTokens: 90 },
      { inputTokens: 2350, cachedTokens: 2000, cacheWriteTokens: 350, outputTokens: 120 },
      { inputTokens: 2650, cachedTokens: 2100, cacheWriteTokens: 250, outputTokens: 140 },
    ],
  );
  // The recorded money covers the branch left (resp-2) and the condenser: it is not this replay's.
  assert.equal(t.recordedCost, undefined);
  const warnings = t.warnings!.join('\n');
  assert.match(warnings, /2 events on branches the conversation left/);
  assert.match(warnings, /recorded cost is not shown/);
  assert.match(warnings, /2 usage records of calls that left no reply/);
  assert.match(warnings, /tool definitions are not counted/);

  // Without the branch, the recorded money is the conversation's (agent and condenser).
  const dir = join(tmp(), 'conv');
  cpSync(CONVERSATION, dir, { recursive: true });
  // (The SDK numbers events without gaps: the later ones are numbered down.)
  for (const f of readdirSync(join(dir, 'events')).sort()) {
    const n = Number(f.slice(6, 11));
    if (n === 7 || n === 8) rmSync(join(dir, 'events', f));
    else if (n > 8)
      renameSync(join(dir, 'events', f), join(dir, 'events', `event-${String(n - 2).padStart(5, '0')}${f.slice(11)}`));
  }
  const linear = await conversation(dir);
  assert.equal(linear.recordedCost, 0.0421 + 0.0012);
  assert.deepEqual(linear.messages, t.messages);
});

test('OpenHands SDK evaluation output.jsonl: each instance is a run from its history, usage from its metrics', async () => {
  const all = await loadTrajectoryFile(fixture('openhands-sdk-output.jsonl'));
  // The second instance failed before any event: no run.
  assert.equal(all.length, 1);
  const [t] = all as [Trajectory];
  const folder = await conversation();
  // The same branch without parent ids (events written before the tree): the previous event is the parent.
  assert.equal(t.format, 'openhands-sdk');
  assert.deepEqual(t.messages, folder.messages);
  assert.deepEqual(t.calls, folder.calls);
  assert.equal(t.recordedCost, 0.0421);
  assert.ok(!t.warnings!.some((w) => /no per-call usage/.test(w)), t.warnings!.join('\n'));
});

test('SDK events without a state (JSON lines, a list, the events API) read the same, without usage', async () => {
  const dir = tmp();
  const list = events();
  writeFileSync(join(dir, 'events.jsonl'), list.map((e) => JSON.stringify(e)).join('\n') + '\n');
  writeFileSync(join(dir, 'events.json'), JSON.stringify(list));
  writeFileSync(join(dir, 'page.json'), JSON.stringify({ items: list, next_page_id: null }));
  const { trajectories, skipped } = await loadTrajectories([dir]);
  assert.deepEqual(skipped, []);
  assert.equal(trajectories.length, 3);
  const folder = await conversation();
  for (const t of trajectories) {
    assert.deepEqual(t.messages, folder.messages, t.id);
    assert.deepEqual(callShape(t), callShape(folder), t.id);
    assert.ok(t.calls!.every((c) => c.recorded === undefined));
    assert.match(t.warnings!.join('\n'), /no per-call usage is recorded/);
  }
});

test('part of an SDK conversation is refused with a reason that says what to replay', async () => {
  const dir = tmp();
  const list = events();
  writeFileSync(join(dir, 'one-event.json'), JSON.stringify(list[1]));
  writeFileSync(join(dir, 'state.json'), readFileSync(join(CONVERSATION, 'base_state.json')));
  // A page with more to come, and a later page (it does not start with the system prompt).
  writeFileSync(join(dir, 'page-1.json'), JSON.stringify({ items: list.slice(0, 5), next_page_id: 'abc' }));
  writeFileSync(join(dir, 'page-2.json'), JSON.stringify({ items: list.slice(5), next_page_id: null }));
  const { trajectories, skipped } = await loadTrajectories([dir]);
  assert.equal(trajectories.length, 0);
  const by = Object.fromEntries(skipped.map((s) => [s.file.slice(dir.length + 1), s]));
  for (const f of ['one-event.json', 'state.json']) {
    assert.equal(by[f]!.group, 'part of an OpenHands SDK conversation (replay its folder)');
    assert.match(by[f]!.error, /the one holding base_state\.json and events\//);
  }
  for (const f of ['page-1.json', 'page-2.json']) {
    assert.equal(by[f]!.group, 'OpenHands SDK events page (part of a conversation)');
    assert.match(by[f]!.error, /save every page into one list, or replay the conversation folder/);
  }
});

test('a broken SDK event tree is refused with a reason, never replayed as some other branch', async () => {
  const cases: [string, (list: Record<string, unknown>[], state: Record<string, unknown>) => void, RegExp][] = [
    ['missing parent', (l) => (l[3]!.parent_id = 'ffffffff-0000'), /names a parent that is not among the events/],
    ['cycle', (l) => (l[0]!.parent_id = l[14]!.id), /cycle/],
    ['unknown leaf', (_l, s) => (s.leaf_event_id = 'ffffffff-1111'), /leaf event .* is not among its events/],
    ['same id twice', (l) => (l[4]!.id = l[3]!.id), /appears twice/],
  ];
  for (const [name, breakIt, reason] of cases) {
    const dir = join(tmp(), 'conv');
    mkdirSync(join(dir, 'events'), { recursive: true });
    const list = events();
    const state = JSON.parse(readFileSync(join(CONVERSATION, 'base_state.json'), 'utf8')) as Record<string, unknown>;
    breakIt(list, state);
    list.forEach((e, i) =>
      writeFileSync(
        join(dir, 'events', `event-${String(i).padStart(5, '0')}-0000000${i.toString(16)}-aaaa.json`),
        JSON.stringify(e),
      ),
    );
    writeFileSync(join(dir, 'base_state.json'), JSON.stringify(state));
    const { trajectories, skipped } = await loadTrajectories([dir]);
    assert.equal(trajectories.length, 0, name);
    assert.equal(skipped.length, 1, name);
    assert.equal(skipped[0]!.group, 'OpenHands SDK event tree broken', name);
    assert.match(skipped[0]!.error, reason, name);
  }
});

test('inside an SDK conversation folder only event files are read: links and other entries are skipped, a bad event names itself', async () => {
  const root = tmp();
  const dir = join(root, 'conv');
  cpSync(CONVERSATION, dir, { recursive: true });
  const outside = join(root, 'outside.json');
  writeFileSync(outside, JSON.stringify(events()[1]));
  symlinkSync(outside, join(dir, 'events', 'event-00099-0000abcd-ffff.json'));
  writeFileSync(join(dir, 'events', 'notes.txt'), 'not an event');
  const t = await conversation(dir);
  assert.equal(t.messages.length, 11, 'the linked event is not read');
  assert.match(t.warnings!.join('\n'), /2 entries under events\/ that are not event files skipped/);

  // A lost event file is refused: the context would be wrong without it.
  const lost = join(dir, 'events', 'event-00004-00000004-5e7a-4c1d-9d2b-7f3e8a6c4b24.json');
  const kept = readFileSync(lost);
  rmSync(lost);
  const gap = await loadTrajectories([dir]);
  assert.match(gap.skipped[0]!.error, /event number 4 is missing from events\/: the conversation is incomplete/);
  writeFileSync(lost, kept);
  writeFileSync(join(dir, 'events', 'event-00003-00000003-5e7a-4c1d-9d2b-7f3e8a6c4b23.json'), '{"id": ');
  const { skipped } = await loadTrajectories([root]);
  const bad = skipped.find((s) => s.file === dir);
  assert.ok(bad, JSON.stringify(skipped));
  assert.match(bad.error, /^events\/event-00003-[^:]+: not valid JSON/);
  assert.equal(bad.group, 'not valid JSON');
});

test('SDK events read differently are said: an excerpt without the system prompt, observations of SDKs before 1.0', async () => {
  const dir = tmp();
  const list = events().slice(9); // from the follow-up on
  const observation = list.find((e) => e.kind === 'ObservationEvent')!;
  observation.observation = { output: 'FAILED test_calc.py::test_add', error: true, kind: 'ExecuteBashObservation' };
  writeFileSync(join(dir, 'excerpt.jsonl'), list.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const [t] = (await loadTrajectoryFile(join(dir, 'excerpt.jsonl'))) as [Trajectory];
  assert.equal(t.messages[0]!.content, 'Run the tests first');
  assert.equal(t.messages[2]!.content, 'FAILED test_calc.py::test_add');
  const warnings = t.warnings!.join('\n');
  assert.match(warnings, /do not begin with the system prompt .*counts are a lower bound/);
  assert.match(warnings, /begin in the middle of a conversation/);
  assert.match(warnings, /1 observation of an SDK before 1\.0 read from its `output`/);
});

test("an ACP agent's conversation is refused: its model calls were made by the external agent, out of these events", async () => {
  const root = tmp();
  const folder = join(root, 'acp-folder');
  cpSync(CONVERSATION, folder, { recursive: true });
  const state = JSON.parse(readFileSync(join(folder, 'base_state.json'), 'utf8')) as { agent: { kind: string } };
  state.agent.kind = 'ACPAgent';
  writeFileSync(join(folder, 'base_state.json'), JSON.stringify(state));
  // Events alone: an ACP tool call among them gives it away.
  const list = events();
  list.splice(3, 0, { id: 'acp-1', timestamp: 't', source: 'agent', kind: 'ACPToolCallEvent', title: 'Read' });
  writeFileSync(join(root, 'acp.jsonl'), list.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const { trajectories, skipped } = await loadTrajectories([root]);
  assert.equal(trajectories.length, 0);
  assert.equal(skipped.length, 2);
  for (const s of skipped) {
    assert.equal(s.group, "OpenHands SDK ACP agent conversation (replay the agent's own log)", s.file);
    assert.match(s.error, /the external agent .* made the model calls/);
  }
});

test("a sub-agent's conversation (subagents/<id>/ inside the parent's folder) is a trajectory of its own", async () => {
  const root = tmp();
  const parent = join(root, 'conv');
  cpSync(CONVERSATION, parent, { recursive: true });
  cpSync(CONVERSATION, join(parent, 'subagents', 'task-1'), { recursive: true });
  writeFileSync(join(parent, 'TASKS.json'), '{"tasks": []}');
  const { trajectories, skipped } = await loadTrajectories([root]);
  assert.deepEqual(skipped, [], 'files of the conversation are not read as logs');
  assert.deepEqual(
    trajectories.map((t) => t.id),
    ['conv', join('conv', 'subagents', 'task-1')],
  );
});
