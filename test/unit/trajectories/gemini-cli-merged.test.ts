// Gemini CLI before 0.30 (February 2026, JSON chat files) recorded a reply made only of function calls
// (no text, no thoughts) by adding its calls to the previous reply's message, and kept its usage only
// in memory, where the next reply's usage overwrote it (packages/core/src/services/chatRecordingService.ts
// `recordToolCalls` / `recordMessageTokens`, and geminiChat.ts before commit f700c923d9). The file then
// holds one message with two replies' calls, recorded a model call apart. Built from that format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrajectoryFile } from '../../../src/core/trajectories';

const call = (id: string, timestamp: string) => ({
  id,
  name: 'run_shell_command',
  args: { command: `echo ${id}` },
  status: 'success',
  timestamp,
  result: [{ functionResponse: { id, name: 'run_shell_command', response: { output: id } } }],
});
const tokens = (input: number) => ({ input, output: 12, cached: 0, thoughts: 0, tool: 0, total: input + 12 });

async function load(toolCalls: object[]) {
  const chat = {
    sessionId: '0d6f3c1e-5a2b-4c8d-9e7f-112233445566',
    projectHash: 'ab'.repeat(32),
    startTime: '2025-11-03T09:00:00.000Z',
    lastUpdated: '2025-11-03T09:00:20.000Z',
    messages: [
      { id: 'u1', timestamp: '2025-11-03T09:00:01.000Z', type: 'user', content: 'run both checks' },
      {
        id: 'g1',
        timestamp: '2025-11-03T09:00:03.000Z',
        type: 'gemini',
        content: 'Running the first check.',
        thoughts: [],
        tokens: tokens(2100),
        model: 'gemini-2.0-flash',
        toolCalls,
      },
      {
        id: 'g2',
        timestamp: '2025-11-03T09:00:15.000Z',
        type: 'gemini',
        content: 'Both pass.',
        thoughts: [],
        tokens: tokens(2400),
        model: 'gemini-2.0-flash',
      },
    ],
  };
  const dir = mkdtempSync(join(tmpdir(), 'cd-gemini-merged-'));
  writeFileSync(join(dir, 'session-2025-11-03T09-00-0d6f3c1e.json'), JSON.stringify(chat));
  const [t] = await loadTrajectoryFile(join(dir, 'session-2025-11-03T09-00-0d6f3c1e.json'));
  assert.equal(t!.format, 'gemini-cli');
  return t!;
}

test('Gemini CLI JSON: a reply holding tool calls recorded a model call apart is said to undercount calls and usage', async () => {
  // c2 is the function-call-only reply the CLI added to g1: recorded after another model call (9 s later).
  const t = await load([call('c1', '2025-11-03T09:00:04.000Z'), call('c2', '2025-11-03T09:00:13.000Z')]);
  assert.equal(t.calls!.length, 2, 'the file keeps two calls; the merged one cannot be placed for sure');
  assert.match(
    t.warnings!.join('\n'),
    /1 reply with tool calls recorded more than a second apart: Gemini CLI before 0\.30 .* calls and recorded usage may be undercounted/,
  );
  // Parallel calls of one reply are recorded together: no sign of a merged reply.
  const parallel = await load([call('c1', '2025-11-03T09:00:04.000Z'), call('c2', '2025-11-03T09:00:04.003Z')]);
  assert.doesNotMatch(parallel.warnings!.join('\n'), /recorded more than a second apart/);
});
