import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextOf, loadTrajectories, loadTrajectoryFile, type Trajectory } from '../../../src/core/trajectories';

/** An 8-message Cline history: the task, then three tool exchanges and a last reply. */
function history(): object[] {
  const use = (id: string) => ({
    role: 'assistant',
    content: [{ type: 'tool_use', id, name: 'read_file', input: { path: `${id}.ts` } }],
  });
  const result = (id: string) => ({
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, content: `contents of ${id}.ts` }],
  });
  return [
    { role: 'user', content: [{ type: 'text', text: '<task>\nfix the build\n</task>' }] },
    use('a'),
    result('a'),
    use('b'),
    result('b'),
    use('c'),
    result('c'),
    { role: 'assistant', content: [{ type: 'text', text: 'fixed' }] },
  ];
}

/** A ui_messages.json row: what Cline wrote while the history ended at `index`. */
const row = (say: string, index: number, range?: [number, number]) => ({
  ts: 1732000000000 + index,
  type: 'say',
  say,
  text: say === 'api_req_started' ? '{"request":"…"}' : 'working',
  conversationHistoryIndex: index,
  ...(range ? { conversationHistoryDeletedRange: range } : {}),
});

async function task(ui?: unknown): Promise<Trajectory> {
  const dir = join(mkdtempSync(join(tmpdir(), 'cd-cline-')), 'task-1');
  mkdirSync(dir);
  writeFileSync(join(dir, 'api_conversation_history.json'), JSON.stringify(history()));
  if (ui !== undefined) writeFileSync(join(dir, 'ui_messages.json'), JSON.stringify(ui));
  const [t] = await loadTrajectoryFile(join(dir, 'api_conversation_history.json'));
  return t!;
}

const sent = (t: Trajectory) => t.calls!.map((c) => contextOf(t, c).map((m) => m.content));

test('Cline: each call leaves out the range Cline recorded beside the history when it truncated', async () => {
  const t = await task([
    row('api_req_started', 0),
    row('text', 0),
    row('api_req_started', 2),
    row('text', 2),
    // The request for reply 5 truncated: the row written before it still has no range, the rows after it do.
    row('api_req_started', 4),
    row('text', 4, [2, 3]),
    row('api_req_started', 6, [2, 3]),
    row('text', 6, [2, 5]),
  ]);
  assert.deepEqual(sent(t), [
    ['<task>\nfix the build\n</task>'],
    ['<task>\nfix the build\n</task>', '', 'contents of a.ts'],
    ['<task>\nfix the build\n</task>', '', 'contents of b.ts'],
    ['<task>\nfix the build\n</task>', '', 'contents of c.ts'],
  ]);
  assert.match(t.warnings!.join('\n'), /2 calls sent without the part of the history Cline had left out/);
});

test('Cline: without ui_messages.json the history is replayed whole, and that is said', async () => {
  const t = await task();
  assert.equal(sent(t).at(-1)!.length, 7);
  assert.match(t.warnings!.join('\n'), /ui_messages\.json \(none beside it\): if Cline left part/);
});

test('Roo Code rows without ranges change nothing; a range reaching past its reply is refused, said', async () => {
  const roo = await task([row('api_req_started', 0), row('text', 6)]);
  assert.equal(sent(roo).at(-1)!.length, 7);
  assert.doesNotMatch(roo.warnings!.join('\n'), /left out|ui_messages/);
  const bad = await task([row('text', 6, [2, 9]), { conversationHistoryIndex: 'x' }, 'junk']);
  assert.equal(sent(bad).at(-1)!.length, 7);
  assert.match(bad.warnings!.join('\n'), /1 recorded range reaching past the reply it was for: not applied/);
});

test('Cline: a ui_messages.json that is not valid JSON is said, and the history still replays', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'cd-cline-')), 'task-2');
  mkdirSync(dir);
  writeFileSync(join(dir, 'api_conversation_history.json'), JSON.stringify(history()));
  writeFileSync(join(dir, 'ui_messages.json'), '[{"ts": 1, ');
  const [t] = await loadTrajectoryFile(join(dir, 'api_conversation_history.json'));
  assert.equal(t!.calls!.length, 4);
  assert.match(t!.warnings!.join('\n'), /ui_messages\.json \(the one beside it cannot be read\)/);
});

test('a Cline task folder: ui_messages.json is not reported as an unknown kind of JSON', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'cd-cline-')), 'task-3');
  mkdirSync(dir);
  writeFileSync(join(dir, 'api_conversation_history.json'), JSON.stringify(history()));
  writeFileSync(join(dir, 'ui_messages.json'), JSON.stringify([row('api_req_started', 0)]));
  const { trajectories, skipped } = await loadTrajectories([dir]);
  assert.equal(trajectories.length, 1);
  assert.deepEqual(
    skipped.map((s) => s.group),
    ['Cline / Roo Code UI messages (read with the task history beside them)'],
  );
});

test("Cline / Roo Code: the usage on api_req_started rows is said not to be read (its tokensIn's meaning depends on the provider), never used", async () => {
  const usage = { request: '…', tokensIn: 12, tokensOut: 80, cacheWrites: 2000, cacheReads: 9000, cost: 0.01 };
  const t = await task([{ ...row('api_req_started', 0), text: JSON.stringify(usage) }, row('text', 0)]);
  assert.ok(t.calls!.every((c) => c.recorded === undefined));
  assert.match(
    t.warnings!.join('\n'),
    /per-request usage in ui_messages\.json \(tokensIn, cacheReads, cost\) is not read/,
  );
  // The reason holds even where task_metadata.json names the provider: the version is not recorded.
  assert.match(t.warnings!.join('\n'), /depends on the provider and on the version that wrote it/);
});
