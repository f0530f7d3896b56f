// An output the store cannot write is never lost and never floods the window: head and tail stay in the
// context, capped, with a note saying what was left out and why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ToolRegistry, type ToolContext } from '../../../src/core/agent/tool-registry';
import { runToolCalls } from '../../../src/core/agent/run-tools';
import type { LongOutputPort } from '../../../src/core/agent/long-output';
import { HeadTail, UNSTORED_KEEP_CHARS } from '../../../src/core/agent/unstored-output';

const diskFull = (): Error => Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
const lines = (n: number): string[] => Array.from({ length: n }, (_, i) => `line ${i} ${'x'.repeat(40)}\n`);

/** A store whose writes fail: `storeStream` after reading `readBeforeFailing` chunks. */
function failingStore(readBeforeFailing: number): LongOutputPort {
  return {
    store: () => Promise.reject(diskFull()),
    storeStream: async (chunks) => {
      let read = 0;
      for await (const _ of chunks) if (++read >= readBeforeFailing) break;
      throw diskFull();
    },
  };
}

async function runOne(longOutput: LongOutputPort, run: (ctx: ToolContext) => Promise<{ ok: boolean; text: string }>) {
  const tools = new ToolRegistry([
    { name: 'cmd', description: 'a command', inputSchema: { type: 'object' }, run: (_a, ctx) => run(ctx) },
  ]);
  const [message] = await runToolCalls([{ id: 'c', name: 'cmd', arguments: '{}' }], {
    tools,
    longOutput,
    session: 'sess',
    turn: 1,
    signal: new AbortController().signal,
    clock: { now: () => 0 },
    emit: () => undefined,
  });
  return message!;
}

test('a streamed command output whose file fails keeps its head and tail, capped, with a note', async () => {
  const all = lines(5000); // ~235,000 characters
  const message = await runOne(failingStore(3), async (ctx) => {
    async function* chunks() {
      for (const l of all) yield Buffer.from(l); // bytes, as a terminal gives them
    }
    const stored = await ctx.storeOutput!(chunks());
    return { ok: true, text: `${stored.text}\n[exit code: 0]` };
  });
  assert.equal(message.unstored, true, 'strategies keep it (no file to name)');
  assert.equal(message.storedAt, undefined);
  assert.ok(message.content.startsWith(all[0]!), 'the head is kept');
  assert.ok(message.content.includes(all.at(-1)!), 'the tail (read after the store failed) is kept');
  assert.match(
    message.content,
    /could not store this output \(ENOSPC: no space left on device\); only the first \d+ and last \d+ of its \d+ characters are kept/,
  );
  assert.ok(message.content.length < UNSTORED_KEEP_CHARS + 400, `capped: ${message.content.length}`);
  assert.equal((message.content.match(/could not store/g) ?? []).length, 1, 'one note, not a second failed attempt');
});

test('a long output that `store` refuses is capped in the context, head and tail kept', async () => {
  const all = lines(5000).join('');
  const message = await runOne(failingStore(1), () => Promise.resolve({ ok: true, text: all }));
  assert.equal(message.unstored, true);
  assert.ok(message.content.length < UNSTORED_KEEP_CHARS + 400, `capped: ${message.content.length}`);
  assert.ok(message.content.startsWith(all.slice(0, 1000)) && message.content.includes(all.slice(-1000)));
  assert.match(message.content, /could not store this output \(ENOSPC/);
});

test('a short output that `store` refuses stays whole', async () => {
  const message = await runOne(failingStore(1), () => Promise.resolve({ ok: true, text: 'short\n' }));
  assert.equal(message.unstored, true);
  assert.ok(message.content.startsWith('short\n'));
  assert.match(message.content, /it is kept here in full\]$/);
});

test('HeadTail: whatever the chunking, the kept text is the whole text when it fits, else its head and tail', () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ maxLength: 30 }), { maxLength: 40 }),
      fc.integer({ min: 2, max: 200 }),
      (parts, keep) => {
        const kept = new HeadTail(keep);
        for (const p of parts) kept.add(p);
        const whole = parts.join('');
        const shown = kept.text('r').replace(/\n\[Context Desk could not store[^\]]*\]$/, '');
        const half = Math.floor(keep / 2);
        if (whole.length <= 2 * half) assert.equal(shown, whole);
        else {
          assert.ok(shown.startsWith(whole.slice(0, half)));
          assert.ok(shown.endsWith(whole.slice(-half)));
          assert.ok(shown.includes(`[... ${whole.length - 2 * half} characters left out ...]`));
        }
      },
    ),
  );
});
