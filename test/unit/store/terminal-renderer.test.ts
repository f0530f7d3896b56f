import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Terminal } from '@xterm/headless';
import { ONE_CELL_RANGES, TWO_CELL_RANGES, isOneCell, isTwoCell } from '../../../src/core/store/sanitize/cell-width';
import { TerminalRenderer } from '../../../src/core/store/sanitize/terminal-renderer';
import { LOST_ROWS } from '../../../src/core/store/sanitize/xterm-screen';
import { UNICODE_11, unicode11Width } from '../../../src/core/store/sanitize/unicode-v11';

const COLS = 20;
const ROWS = 5;
/**
 * A private mode switch no fast path handles (wraparound on, which it already is): the output is
 * rendered by xterm from the first byte.
 */
const FORCE_XTERM = '\x1b[?7h';

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

/** A character from the one-cell ranges beyond ASCII (spinners, bars, box drawing, letters). */
const oneCell = fc
  .constantFrom(...ONE_CELL_RANGES.slice(1))
  .chain(([a, b]) => fc.integer({ min: a, max: b }))
  .map((c) => String.fromCharCode(c));
/** A character from the two-cell ranges (CJK, kana, Hangul, fullwidth forms). */
const twoCell = fc
  .constantFrom(...TWO_CELL_RANGES)
  .chain(([a, b]) => fc.integer({ min: a, max: b }))
  .map((c) => String.fromCharCode(c));

const token = fc.oneof(
  fc.stringMatching(/^[a-z ]{0,12}$/),
  fc.array(fc.oneof(oneCell, twoCell, fc.constant(' ')), { minLength: 1, maxLength: 8 }).map((cs) => cs.join('')),
  // what still needs xterm: combining, bidi control, astral, halfwidth
  fc.constantFrom('e\u0301', '\u3099', '\u202e', '\u{1F680}', '\uff71'),
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
    .tuple(fc.constantFrom('A', 'B', 'C', 'D', 'G', 'd'), fc.integer({ min: 0, max: 7 }))
    .map(([f, n]) => `\x1b[${n === 0 ? '' : n}${f}`),
  // erase in display; "above" from column 0 only: xterm 6 throws on it at the last column of the last row
  fc.constantFrom('\x1b[J', '\x1b[0J', '\x1b[2J', '\r\x1b[1J'),
  // cursor position: absolute row and column, either omitted, off the screen included
  fc
    .tuple(fc.integer({ min: -1, max: 8 }), fc.integer({ min: -1, max: 24 }), fc.constantFrom('H', 'f'))
    .map(([r, c, f]) => `\x1b[${r < 0 ? '' : r}${c < 0 ? '' : `;${c}`}${f}`),
  // parameters read in place: an empty second one, leading zeros, a third one (handed over)
  fc.constantFrom('\x1b[3;H', '\x1b[;H', '\x1b[;;H', '\x1b[2;3;4H', '\x1b[007;0012H', '\x1b[;2f', '\x1b[02B'),
  // private modes and keypad switches that change no text, alone or several at once
  fc
    .subarray(['1', '12', '25', '1000', '1004', '1006', '2004'], { minLength: 1, maxLength: 3 })
    .chain((modes) => fc.constantFrom(`\x1b[?${modes.join(';')}h`, `\x1b[?${modes.join(';')}l`)),
  fc.constantFrom('\x1b=', '\x1b>', '\x1b[H\x1b[2J'),
  // sequences the line emulator hands over to xterm with the screen so far
  fc.constantFrom('\x1bM', '\x1b[2S', '\x1b[1;2A', '\x1b[?7l', '\x1b[4h'),
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

test('every character of known width takes exactly that many cells in xterm', async () => {
  const ROWS_PER_WRITE = 1000;
  const term = new Terminal({ cols: 8, rows: ROWS_PER_WRITE + 1, scrollback: 0, allowProposedApi: true });
  // The widths the renderer's xterm uses (VS Code's terminal's).
  term.unicode.register(UNICODE_11);
  term.unicode.activeVersion = '11';
  const write = (data: string): Promise<void> => new Promise((resolve) => term.write(data, resolve));
  const wrong: string[] = [];
  let checked = 0;
  for (const [width, ranges, known] of [
    [1, ONE_CELL_RANGES, isOneCell],
    [2, TWO_CELL_RANGES, isTwoCell],
  ] as const) {
    // The emoji among the ranges are not of known width (they take two cells in Unicode 11): left out.
    const codes = ranges
      .flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, i) => first + i))
      .filter((c) => known(c) || unicode11Width(c) === width);
    for (let at = 0; at < codes.length; at += ROWS_PER_WRITE) {
      const batch = codes.slice(at, at + ROWS_PER_WRITE);
      // One character per row, between two letters: the second letter lands `width` cells later.
      await write('\x1b[H\x1b[2J' + batch.map((c) => `a${String.fromCharCode(c)}b`).join('\r\n'));
      batch.forEach((c, row) => {
        const ch = String.fromCharCode(c);
        const line = term.buffer.active.getLine(row)!;
        const ok =
          line.getCell(1)?.getChars() === ch &&
          line.getCell(1)?.getWidth() === width &&
          line.getCell(1 + width)?.getChars() === 'b' &&
          line.translateToString(true) === `a${ch}b`;
        if (!ok || !known(c)) wrong.push(c.toString(16));
        checked++;
      });
    }
  }
  term.dispose();
  assert.ok(checked > 40000, `checked ${checked}`);
  assert.deepEqual(wrong, []);
  // and the exclusions really are neither
  for (const c of [0x0301, 0x0483, 0x202e, 0x302a, 0x3099, 0x303f, 0xff71, 0x9f, 0xd800, 0x2705, 0x26a1, 0x231b])
    assert.equal(isOneCell(c) || isTwoCell(c), false, c.toString(16));
  // and take the same cells with unicodeVersion "6"
  assert.deepEqual(await wrongInUnicode6(), []);
});

test("an emoji takes two cells, as in VS Code's terminal: what a cursor move then writes lands where a person saw it", async () => {
  // Unicode 11 widths (terminal.integrated.unicodeVersion's default): 🚀 and ✅ take two cells each.
  const cases: [string, string][] = [
    ['ab🚀cd\r\x1b[4Cx\r\n', 'ab🚀xd\n'],
    ['✅ done\r\x1b[2CX\r\n', '✅Xdone\n'],
    ['⚡ build\x1b[6D*\r\n', '⚡*build\n'],
    ['❌ 1 failed\r\x1b[3C2\r\n', '❌ 2 failed\n'],
  ];
  for (const [text, shown] of cases) {
    assert.equal((await render(text)).out, shown, JSON.stringify(text));
    assert.equal((await render(FORCE_XTERM + text)).out, shown, JSON.stringify(text));
  }
});

test('spinners and bars of one-cell characters stay out of xterm and render as xterm does', async () => {
  let text = 'Installing\r\n';
  const spin = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
  for (let frame = 0; frame <= 20; frame++) {
    if (frame > 0) text += '\x1b[2A';
    for (const pkg of ['café', 'señal'])
      text += `\x1b[2K${spin[frame % spin.length]} ${pkg} │${'█'.repeat(frame / 5).padEnd(4, '░')}│${frame * 5}%\r\n`;
  }
  text += '\r✔ done → ok\r\n';
  const r = await render(text, [9, 60, 301]);
  assert.ok(!r.modes.has('xterm'), `modes: ${[...r.modes].join(', ')}`);
  assert.equal(r.out, 'Installing\n⠋ café │████│100%\n⠋ señal │████│100%\n✔ done → ok\n');
  assert.equal(r.out, (await render(FORCE_XTERM + text)).out);
  const bar = await render('⠋ 10% ░░░░\r⠙ 50% ██░░\r⠹ 99% ███▓\r\n');
  assert.deepEqual([...bar.modes], ['lines']);
  assert.equal(bar.out, '⠹ 99% ███▓\n');
});

test('CJK redraws stay out of xterm, and a two-cell character half overwritten goes whole, as in xterm', async () => {
  let text = '下载 layers\r\n';
  for (let frame = 0; frame <= 10; frame++)
    text += `${frame > 0 ? '\x1b[1A' : ''}\x1b[2K层 ${frame}: ${'█'.repeat(frame)}\r\n`;
  // Overwrite the right half of 日 and the left half of 本; erase from the middle of 語.
  text += '日本語テスト\r\x1b[1Cx\x1b[1Cy\x1b[1C\x1b[K\r\n';
  const r = await render(text, [4, 33, 80]);
  assert.ok(!r.modes.has('xterm'), `modes: ${[...r.modes].join(', ')}`);
  assert.equal(r.out, (await render(FORCE_XTERM + text)).out);
  assert.equal(r.out, '下载 layers\n层 10: ██████████\n x y\n');
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

test('wrapping hands over to xterm without losing the screen (two-cell characters before it)', async () => {
  const text = 'one\r\ntwo\r\n\x1b[1A\x1b[2Kzwei 日本語\r\n' + 'x'.repeat(45) + '\r\nend\r\n';
  const r = await render(text);
  assert.ok(r.modes.has('xterm'));
  assert.equal(r.out, (await render(FORCE_XTERM + text)).out);
  assert.equal(r.out, 'one\nzwei 日本語\n' + 'x'.repeat(45) + '\nend\n');
});

test('full-screen redraws (clear, cursor position) and text-neutral modes stay in the line emulator', async () => {
  // A `watch`/`top -b`-style program: hide the cursor, then per frame clear and write rows by position.
  let text = '\x1b[?25l\x1b[?2004h\x1b=';
  for (let frame = 1; frame <= 3; frame++) {
    text += '\x1b[H\x1b[2J';
    for (let row = 1; row <= 3; row++) text += `\x1b[${row};1Hrow ${row} of frame ${frame}`;
  }
  text += '\x1b[4;1H\x1b[?25h\x1b>done\r\n';
  const r = await render(text, [5, 40, 90]);
  assert.ok(!r.modes.has('xterm'), `modes: ${[...r.modes].join(', ')}`);
  assert.equal(r.out, 'row 1 of frame 3\nrow 2 of frame 3\nrow 3 of frame 3\ndone\n');
  assert.equal(r.out, (await render(FORCE_XTERM + text)).out);
});

test('the alternate screen and modes that change the text still go to xterm', async () => {
  for (const mode of ['\x1b[?1049h', '\x1b[?7l', '\x1b[?6h', '\x1b[3;4r']) {
    const r = await render(`a\r\n${mode}b\r\n`);
    assert.ok(r.modes.has('xterm'), JSON.stringify(mode));
  }
});

test('a redraw after lines wider than the screen (they wrap there) or an empty first line lands where xterm puts it', async () => {
  for (const [text, shown] of [
    ['y'.repeat(23) + '\r\n\x1b[1A\rX\r\n', 'y'.repeat(20) + 'Xyy\n'],
    ['界'.repeat(12) + '\r\n\x1b[1A\x1b[3CX\r\n', '界'.repeat(11) + ' X\n'],
    ['下载 layers\r\n\x1b[1A\x1b[2K层 1\r\n', '层 1\n'],
    // an empty first line stays on screen for the redraw too
    ['\r\nabc\r\n\x1b[2A\rX\r\n', 'X\nabc\n'],
  ]) {
    const r = await render(text!, [5]);
    assert.equal(r.out, shown);
    assert.equal(r.out, (await render(FORCE_XTERM + text)).out);
  }
});

test('a long output through xterm keeps every row once, in order, while its scrollback is reused (wrapped rows, pagers open at write ends)', async () => {
  // 20,000 lines, every fifth wrapping over three rows, and scrollback erases: far more rows than
  // xterm keeps. Each write ends inside a pager session (`ESC[?1049;1h` is drawn by xterm) that the
  // next write closes, so xterm is on the alternate screen whenever a write has been rendered.
  const r = new TerminalRenderer({ cols: 40, rows: 10 });
  const lines = Array.from({ length: 20_000 }, (_, i) => (i % 5 === 0 ? `${i} ${'w'.repeat(100)}` : `line ${i}`));
  let out = await r.write(FORCE_XTERM);
  for (let i = 0; i < lines.length; i += 700) {
    const block = lines
      .slice(i, i + 700)
      .map((l, k) => ((i + k) % 250 === 0 ? ((i + k) % 500 === 0 ? '\x1b[3J' : '\x1b[?3J') : '') + l + '\r\n')
      .join('');
    out += await r.write(`${i === 0 ? '' : '\x1b[?1049l'}${block}\x1b[?1049;1h\x1b[H${'page row\r\n'.repeat(30)}`);
    out += await r.flush();
  }
  out += (await r.write('\x1b[?1049l')) + (await r.end());
  assert.ok(!out.includes(LOST_ROWS));
  assertSameLines(out, lines.join('\n') + '\n');
});

/** Equal texts; on a difference, shows the lines around the first one (not two 500 KB strings). */
function assertSameLines(actual: string, expected: string): void {
  const a = actual.split('\n');
  const e = expected.split('\n');
  const at = a.findIndex((line, i) => line !== e[i]);
  const i = at === -1 ? (a.length === e.length ? -1 : Math.min(a.length, e.length)) : at;
  if (i !== -1) assert.deepEqual(a.slice(Math.max(0, i - 2), i + 3), e.slice(Math.max(0, i - 2), i + 3), `line ${i}`);
}

test('a terminal reset keeps what was shown before it, scrolled off or still on screen', async () => {
  // `reset`, `tput reset` and some programs on start send ESC c: xterm empties screen and scrollback.
  const r = new TerminalRenderer({ cols: 40, rows: 10 });
  const blocks = [0, 1, 2].map((b) => Array.from({ length: 1000 }, (_, i) => `block ${b} line ${i}`));
  let out = await r.write(FORCE_XTERM);
  for (const [b, lines] of blocks.entries()) {
    out += await r.write(lines.map((l) => l + '\r\n').join('') + (b < 2 ? 'prompt$ \x1bc' : ''));
    out += await r.flush();
  }
  out += await r.end();
  // every line once, in order, and each prompt as shown (its printed space stays)
  assertSameLines(out, blocks.map((lines) => lines.join('\n') + '\n').join('prompt$ \n'));
});

test('rows that scroll past the emulator before they are read (a repeat of millions of characters) leave a note, and what follows is kept', async () => {
  const xs = (out: string): number => out.length - out.replace(/x/g, '').length;
  // Rows emitted before the repeat: the marker on the last of them is dropped with the rows.
  const r = new TerminalRenderer({ cols: 200, rows: 50 });
  let out = (await r.write(`${FORCE_XTERM}${'before\r\n'.repeat(60)}`)) + (await r.flush());
  assert.equal(out, 'before\n'.repeat(11)); // 60 lines and the cursor's: 11 rows scrolled off
  out += (await r.write('x\x1b[3000000b\r\nafter\r\n')) + (await r.end());
  // the 49 still on screen scroll off with the repeat's first rows, and are dropped with them
  assert.ok(out.startsWith('before\n'.repeat(11) + LOST_ROWS + 'x'), out.slice(0, 200));
  assert.ok(out.endsWith('\nafter\n'));
  assert.ok(xs(out) > 0 && xs(out) < 3_000_001, `${xs(out)} x`);
  // Nothing emitted before it: a full scrollback says rows were dropped.
  const alone = await render(`${FORCE_XTERM}x\x1b[3000000b\r\nafter\r\n`);
  assert.ok(alone.out.startsWith(LOST_ROWS));
  assert.ok(alone.out.endsWith('\nafter\n'));
});

test('with terminal.integrated.unicodeVersion "6" an emoji takes one cell, as that terminal shows it', async () => {
  // Column 5 is `d` when 🚀 takes one cell (Unicode 6), `c` when it takes two (11, the default).
  const text = 'ab🚀cd\x1b[5Gx\r\n';
  const shown = async (unicodeVersion?: '6' | '11'): Promise<string> => {
    const r = new TerminalRenderer({ cols: COLS, rows: ROWS, ...(unicodeVersion ? { unicodeVersion } : {}) });
    return (await r.write(text)) + (await r.end());
  };
  assert.equal(await shown('6'), 'ab🚀cx\n');
  assert.equal(await shown('11'), 'ab🚀xd\n');
  assert.equal(await shown(), 'ab🚀xd\n');
});

/** Known widths that xterm's own Unicode 6 widths disagree with (the fast paths serve both versions). */
async function wrongInUnicode6(): Promise<string[]> {
  const codes = Array.from({ length: 0x10000 }, (_, c) => c).filter((c) => isOneCell(c) || isTwoCell(c));
  const rows = 1000;
  // xterm's own widths are Unicode 6 (nothing registered).
  const term = new Terminal({ cols: 8, rows: rows + 1, scrollback: 0, allowProposedApi: true });
  const wrong: string[] = [];
  for (let at = 0; at < codes.length; at += rows) {
    const batch = codes.slice(at, at + rows);
    await new Promise<void>((resolve) =>
      term.write('\x1b[H\x1b[2J' + batch.map((c) => `a${String.fromCharCode(c)}b`).join('\r\n'), resolve),
    );
    batch.forEach((c, row) => {
      const width = isOneCell(c) ? 1 : 2;
      if (
        term.buffer.active
          .getLine(row)!
          .getCell(1 + width)
          ?.getChars() !== 'b'
      )
        wrong.push(c.toString(16));
    });
  }
  term.dispose();
  assert.ok(codes.length > 40000);
  return wrong;
}
