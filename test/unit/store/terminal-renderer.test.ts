import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TerminalRenderer } from '../../../src/core/store/sanitize/terminal-renderer';

const COLS = 20;
const ROWS = 5;
/** A private mode switch no fast path handles: the output is rendered by xterm from the first byte. */
const FORCE_XTERM = '\x1b[?25l';

async function render(text: string, cuts: number[] = []): Promise<{ out: string; modes: Set<string> }> {
  const r = new TerminalRenderer({ cols: COLS, rows: ROWS });
  const modes = new Set<string>();
  let out = '';
  let prev = 0;
  for (const c of [...new Set(cuts)].filter((x) => x > 0 && x < text.length).sort((a, b) => a - b)) {
    out += await r.write(text.slice(prev, c));
    modes.add(r.mode);
    prev = c;
  }
  out += await r.write(text.slice(prev));
  modes.add(r.mode);
  out += await r.end();
  return { out, modes };
}

const token = fc.oneof(
  fc.stringMatching(/^[a-z ]{0,12}$/),
  fc.constantFrom(
    '\r',
    '\r\n',
    '\n',
    '\t',
    '\x1b[K',
    '\x1b[0K',
    '\x1b[1K',
    '\x1b[2K',
    '\x1b[31m',
    '\x1b[0m',
    '\x1b]633;C\x07',
  ),
  fc
    .tuple(fc.constantFrom('A', 'B', 'C', 'D', 'G'), fc.integer({ min: 0, max: 7 }))
    .map(([f, n]) => `\x1b[${n === 0 ? '' : n}${f}`),
);

test('the line emulator renders exactly what xterm renders (random redraw streams)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(token, { maxLength: 60 }),
      fc.array(fc.nat(400), { maxLength: 6 }),
      async (tokens, cuts) => {
        const text = 'start\r\n\x1b[1A' + tokens.join('');
        const fast = await render(text, cuts);
        const reference = await render(FORCE_XTERM + text);
        assert.equal(fast.out, reference.out);
      },
    ),
    { numRuns: 300 },
  );
});

test('a docker-style redraw stays in the line emulator and collapses to the final frame', async () => {
  let text = 'Pulling layers\r\n';
  for (let frame = 0; frame <= 100; frame += 10) {
    if (frame > 0) text += '\x1b[3A';
    for (const layer of ['a1', 'b2', 'c3'])
      text += `\x1b[2K${layer}: ${'#'.repeat(frame / 10).padEnd(10)} ${frame}%\r\n`;
  }
  text += 'done\r\n';
  const r = await render(text, [7, 50, 123, 400]);
  assert.deepEqual([...r.modes].pop(), 'line-emulator');
  assert.equal(r.out, 'Pulling layers\na1: ########## 100%\nb2: ########## 100%\nc3: ########## 100%\ndone\n');
  assert.equal(r.out, (await render(FORCE_XTERM + text)).out);
});

test('wide characters and wrapping hand over to xterm without losing the screen', async () => {
  const text = 'one\r\ntwo\r\n\x1b[1A\x1b[2Kzwei 日本語\r\n' + 'x'.repeat(45) + '\r\nend\r\n';
  const r = await render(text);
  assert.ok(r.modes.has('xterm'));
  assert.equal(r.out, (await render(FORCE_XTERM + text)).out);
  assert.equal(r.out, 'one\nzwei 日本語\n' + 'x'.repeat(45) + '\nend\n');
});
