// Gemini CLI gives a reply's usage to the last message when that is a reply without usage
// (packages/core/src/services/chatRecordingService.ts `recordMessageTokens`), and records a reply only when
// its stream ends. After a reply that got no usage (interrupted, or its stream failed), the next reply's
// first usage lands on it, and the next reply keeps a later chunk's usage or none. Built from that format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrajectoryFile } from '../../../src/core/trajectories';

const tokens = (input: number, output = 12) => ({
  input,
  output,
  cached: 0,
  thoughts: 0,
  tool: 0,
  total: input + output,
});

async function load(messages: object[]) {
  const chat = {
    sessionId: '7a1c2e3f-5a2b-4c8d-9e7f-112233445566',
    projectHash: 'cd'.repeat(32),
    startTime: '2026-03-03T09:00:00.000Z',
    lastUpdated: '2026-03-03T09:00:20.000Z',
    messages: [{ id: 'u1', timestamp: '2026-03-03T09:00:01.000Z', type: 'user', content: 'fix the test' }, ...messages],
  };
  const dir = mkdtempSync(join(tmpdir(), 'cd-gemini-early-'));
  const file = join(dir, 'session-2026-03-03T09-00-7a1c2e3f.json');
  writeFileSync(file, JSON.stringify(chat));
  const [t] = await loadTrajectoryFile(file);
  assert.equal(t!.format, 'gemini-cli');
  return t!;
}

const reply = (id: string, content: string, usage?: object) => ({
  id,
  timestamp: '2026-03-03T09:00:05.000Z',
  type: 'gemini',
  content,
  thoughts: [],
  ...(usage ? { tokens: usage } : {}),
  model: 'gemini-2.5-pro',
});

const WARNING = /1 reply followed straight by another reply whose usage it may hold .*: its recorded usage is not used/;

test('Gemini CLI: usage on a reply followed by a reply without usage is not given to either call', async () => {
  // g1 was cut off before its usage came; g2's usage was put on g1, and g2 kept none.
  const t = await load([reply('g1', 'Let me look', tokens(5200, 3)), reply('g2', 'The test fails because ...')]);
  assert.equal(t.calls!.length, 2);
  assert.equal(t.calls![0]!.recorded, undefined, "g2's usage is not billed to g1's call");
  assert.equal(t.calls![1]!.recorded, undefined);
  assert.match(t.warnings!.join('\n'), WARNING);
});

test("Gemini CLI: a reply with the next reply's prompt size holds that reply's first usage: not used for it; replies with their own usage keep it", async () => {
  const t = await load([reply('g1', 'Let me look', tokens(5200, 3)), reply('g2', 'The test fails', tokens(5200, 80))]);
  assert.equal(t.calls![0]!.recorded, undefined);
  assert.equal(t.calls![1]!.recorded?.inputTokens, 5200);
  assert.match(t.warnings!.join('\n'), WARNING);
  // Replies with their own usage, or a user turn between, keep it.
  {
    const kept = await load([
      reply('g1', 'Let me look', tokens(5200, 3)),
      reply('g2', 'The test fails', tokens(5300, 80)),
      { id: 'u2', timestamp: '2026-03-03T09:00:09.000Z', type: 'user', content: 'go on' },
      reply('g3', 'Done'),
    ]);
    assert.deepEqual(
      kept.calls!.map((c) => c.recorded?.inputTokens),
      [5200, 5300, undefined],
    );
    assert.doesNotMatch((kept.warnings ?? []).join('\n'), /followed straight by another reply/);
  }
});
