// `--dump-contexts` writes with plain file calls (not the store writer, which redacts whole lines), so
// every string of every message it writes must be redacted on the way: names and ids of tool calls
// too, and the folder named after the trajectory's file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../support/cli';

// A fake GitHub token (test/fixtures/secrets/README.md).
const KEY = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

function temp(t: { after(fn: () => void): void }, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('--dump-contexts redacts the names and ids of tool calls and results, not only their text', async (t) => {
  const src = temp(t, 'cd-dump-src-');
  const args = JSON.stringify({ path: '.env', new_text: 'A=1\nDB_PASSWORD=hunter2hunter2x' });
  writeFileSync(
    join(src, `chat-${KEY}.json`),
    JSON.stringify({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: `c1 ${KEY}`, type: 'function', function: { name: `fetch ${KEY}`, arguments: args } }],
        },
        { role: 'tool', tool_call_id: `c1 ${KEY}`, name: `fetch ${KEY}`, content: 'ok' },
        { role: 'assistant', content: 'done' },
      ],
    }),
  );
  const out = temp(t, 'cd-dump-');
  const r = await runCli(['replay', src, '--strategy', 'raw', '--dump-contexts', out]);
  assert.equal(r.code, 0, r.err);
  const [folder, ...others] = readdirSync(out);
  assert.equal(others.length, 0);
  assert.ok(!folder!.includes(KEY.slice(4, 16)), `the folder is named after the secret: ${folder}`);
  const text = readFileSync(join(out, folder!, 'raw.jsonl'), 'utf8');
  assert.ok(!text.includes(KEY.slice(4, 16)), text);
  assert.ok(!text.includes('hunter2hunter2x'), text);
  const last = JSON.parse(text.trim().split('\n').at(-1)!) as {
    messages: { toolCalls?: { id: string }[]; toolCallId?: string }[];
  };
  const call = last.messages.find((m) => m.toolCalls)!.toolCalls![0]!.id;
  const answer = last.messages.find((m) => m.toolCallId)!.toolCallId;
  assert.equal(answer, call, 'a call and its result are still linked by one (redacted) id');
});
