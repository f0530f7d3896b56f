// Media whose tokens replay cannot count make a run's totals lower bounds: only the run that sent it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrajectoryFile } from '../../../src/core/trajectories';
import { fixture } from './helpers';
import { aggregate } from '../../../src/core/replay/aggregate';
import type { TrajectoryReplay } from '../../../src/core/replay/replay';

/** An image given by URL: Anthropic bills it at a size the log does not hold. */
const urlImage = { type: 'image', source: { type: 'url', url: 'https://example.com/shot.png' } };

function write(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cd-run-media-')), name);
  writeFileSync(file, text);
  return file;
}

test('Claude Code: an uncounted image in a sub-agent makes only that sub-agent a lower bound', async () => {
  const base = { sessionId: 's1', version: '1.0.51', cwd: '/w' };
  const records = [
    { ...base, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'Fix it' } },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4', content: [{ type: 'text', text: 'Done.' }] },
    },
    {
      ...base,
      type: 'user',
      uuid: 's-u1',
      parentUuid: null,
      isSidechain: true,
      agentId: 'ag1',
      message: { role: 'user', content: [{ type: 'text', text: 'Look at this page' }, urlImage] },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 's-a1',
      parentUuid: 's-u1',
      isSidechain: true,
      agentId: 'ag1',
      message: {
        id: 'msg_2',
        role: 'assistant',
        model: 'claude-sonnet-4',
        content: [{ type: 'text', text: 'A form.' }],
      },
    },
  ];
  const runs = await loadTrajectoryFile(write('session.jsonl', records.map((r) => JSON.stringify(r)).join('\n')));
  assert.deepEqual(
    runs.map((t) => [t.id, t.uncountedMedia]),
    [
      ['session.jsonl#1', undefined],
      ['session.jsonl#2', 1],
    ],
  );
  // The file's warning still says it once.
  assert.match(runs[0]!.warnings!.join('\n'), /1 image part counted as a one-word marker/);
});

test('SWE-agent RetryAgent: an image in one attempt makes that attempt a lower bound, and no other', async () => {
  const doc = JSON.parse(readFileSync(fixture('swe-agent-masked.traj'), 'utf8')) as {
    history: { role: string; content: unknown }[];
  };
  const withImage = structuredClone(doc);
  const task = withImage.history.findIndex((m) => m.role === 'user');
  withImage.history[task]!.content = [
    { type: 'text', text: String(withImage.history[task]!.content) },
    { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
  ];
  const runs = await loadTrajectoryFile(write('retry.traj', JSON.stringify({ attempts: [doc, withImage] })));
  assert.deepEqual(
    runs.map((t) => [t.id, t.uncountedMedia]),
    [
      ['retry.traj#1', undefined],
      ['retry.traj#2', 1],
    ],
  );
});

test('Claude Code compaction call read beside its session: an uncounted image of the conversation it sent is its own', async () => {
  const session = '4d5611e5-241a-462a-8d15-5122611a9569';
  const project = fixture('claude-code-project');
  const dir = mkdtempSync(join(tmpdir(), 'cd-run-media-'));
  const lines = readFileSync(join(project, `${session}.jsonl`), 'utf8').split('\n');
  // The person's first prompt carries a screenshot given by URL.
  const first = JSON.parse(lines[0]!) as { message: { content: unknown } };
  first.message.content = [{ type: 'text', text: String(first.message.content) }, urlImage];
  lines[0] = JSON.stringify(first);
  writeFileSync(join(dir, `${session}.jsonl`), lines.join('\n'));
  mkdirSync(join(dir, session, 'subagents'), { recursive: true });
  const name = 'agent-acompact-e1f845.jsonl';
  copyFileSync(join(project, session, 'subagents', name), join(dir, session, 'subagents', name));
  const [t] = await loadTrajectoryFile(join(dir, session, 'subagents', name));
  assert.equal(t!.uncountedMedia, 1);
});

test("totals add up each run's own uncounted media, two runs of one file included", () => {
  const run = (id: string, parts: number): TrajectoryReplay => ({
    trajectoryId: id,
    format: 'claude-code',
    strategy: 'raw',
    cacheModel: 'anthropic',
    cacheModelBasis: 'format claude-code (the log names no model)',
    calls: [],
    summaryEstimated: false,
    notes: [],
    uncountedMedia: { file: '/logs/session.jsonl', parts },
  });
  assert.equal(aggregate([run('session.jsonl#2', 1), run('session.jsonl#3', 2)]).uncountedMedia, 3);
});
