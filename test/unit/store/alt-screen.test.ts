import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Terminal, type IBuffer } from '@xterm/headless';
import { AltScreenSegments, onlyTouchesAltScreen } from '../../../src/core/store/sanitize/alt-screen';
import { TerminalRenderer } from '../../../src/core/store/sanitize/terminal-renderer';

const COLS = 20;
const ROWS = 5;
const OPEN = '\x1b[?1049h';
const CLOSE = '\x1b[?1049l';

/**
 * What xterm shows for the whole text, written at once into a terminal with room for every row: the
 * normal screen and its scrollback down to the last row with content (or the cursor row when the cursor
 * is not at its start), then, when it ended on the alternate screen, that screen the same way. A row
 * continued by a wrapped row gets no newline, nor the blank xterm pads the last column with when a
 * two-cell character does not fit there.
 */
async function xtermShows(text: string): Promise<string> {
  const term = new Terminal({ cols: COLS, rows: ROWS, scrollback: 100_000, allowProposedApi: true, convertEol: true });
  const dump = (b: IBuffer): string => {
    let last = b.cursorX > 0 ? b.baseY + b.cursorY : -1;
    for (let r = b.length - 1; r > last; r--) if (b.getLine(r)!.translateToString(true) !== '') last = r;
    let out = '';
    for (let r = 0; r <= last; r++) {
      const continued = r < last && b.getLine(r + 1)!.isWrapped;
      let row = b.getLine(r)!.translateToString(!continued);
      // The blank xterm puts in the last column when a two-cell character wraps is not the program's.
      const lastCell = b.getLine(r)!.getCell(COLS - 1);
      if (
        continued &&
        lastCell?.getChars() === '' &&
        // (the right half of a two-cell character that fits exactly has width 0: it is not that blank)
        lastCell.getWidth() !== 0 &&
        b
          .getLine(r + 1)!
          .getCell(0)
          ?.getWidth() === 2
      )
        row = row.slice(0, -1);
      out += row + (continued ? '' : '\n');
    }
    return out;
  };
  const shown = (): string =>
    dump(term.buffer.normal) + (term.buffer.active.type === 'alternate' ? dump(term.buffer.active) : '');
  // What was shown when the program reset the terminal (`ESC c` empties everything) was seen too.
  let beforeResets = '';
  term.parser.registerEscHandler({ final: 'c' }, () => {
    beforeResets += shown();
    return false;
  });
  await new Promise<void>((resolve) => term.write(text, resolve));
  const out = beforeResets + shown();
  term.dispose();
  return out;
}

async function render(text: string, cuts: number[] = []): Promise<string> {
  const r = new TerminalRenderer({ cols: COLS, rows: ROWS });
  let out = '';
  let prev = 0;
  for (const c of [...new Set(cuts)].filter((x) => x > 0 && x < text.length).sort((a, b) => a - b)) {
    out += await r.write(text.slice(prev, c));
    prev = c;
  }
  return out + (await r.write(text.slice(prev))) + (await r.end());
}

const words = fc.stringMatching(/^[a-z ]{1,12}$/);
/** On the normal screen: text (a full row leaves the cursor waiting to wrap), saved cursors, marks. */
const normalToken = fc.oneof(
  words,
  fc.constantFrom('\r\n', '\r', '\n', 'x'.repeat(COLS), 'y'.repeat(COLS + 3), '\x1b[31m', '\x1b[0m'),
  fc.constantFrom('\x1b7', '\x1b8', '\x1b[s', '\x1b[u', '\x1b[2A', '\x1b[3G', '\x1b[K', '\u0301', 'e\u0301', '界'),
  // other ways onto or off the alternate screen, and a restore without a save
  fc.constantFrom('\x1b[?47h', '\x1b[?1047h', '\x1b[?1049;25h', '\x1b[?47l', CLOSE, '\x1b[?1048h', '\x1b[?1048l'),
);
/** Inside a full-screen program: what only touches its screen, then what may change more. */
const neutralInside = fc.oneof(
  words,
  fc.constantFrom('\r\n', '\x1b[H', '\x1b[2J', '\x1b[3;4H', '\x1b[K', '\x1b[2;4r', '\x1b[r', '\x1bM', '\x1bD'),
  fc.constantFrom('\x1b7', '\x1b8', '\x1b[s', '\x1b[u', '\x1b[1;7m', '\x1b]0;title\x07', '\x1b[?25l', '\x1b[?2004h'),
  fc.constantFrom(
    '\x1b[8;10;30t',
    '\x1b[22;0;0t',
    '\x1b[>4;2m',
    '\x1b[>c',
    '\x1b[2 q',
    '\x1b[?2026h',
    'x'.repeat(COLS),
  ),
);
const otherInside = fc.constantFrom(
  '\x1b[4h',
  '\x1b[?7l',
  '\x1b[?6h',
  '\x1b(0q',
  '\x0e',
  '\x1bc',
  OPEN,
  '\x1b[?47l',
  '\x1b[?1047l',
  '\x1b[!p',
  'a\x1b[3b',
  '\x1bH',
  '\x1b[3g',
  '\x1b[20h',
);
const segment = fc
  .tuple(
    fc.array(fc.oneof({ weight: 6, arbitrary: neutralInside }, { weight: 1, arbitrary: otherInside }), {
      maxLength: 12,
    }),
    fc.boolean(),
  )
  .map(([inside, closed]) => OPEN + inside.join('') + (closed ? CLOSE : ''));

test('full-screen sessions render exactly what xterm shows (random streams, cut anywhere)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.oneof({ weight: 3, arbitrary: normalToken }, { weight: 1, arbitrary: segment }), {
        maxLength: 30,
      }),
      fc.array(fc.nat(300), { maxLength: 8 }),
      fc.boolean(),
      async (tokens, cuts, forceXterm) => {
        // A combining mark with no character before it is kept by the plain-lines path and dropped by
        // xterm: it is only sent through xterm from the first byte (a mode switch that changes nothing).
        const text = forceXterm
          ? '\x1b[?7h' + tokens.join('')
          : tokens.map((t) => (t === '\u0301' ? 'e\u0301' : t)).join('');
        // Blank lines at the very end: the plain-lines path keeps them, xterm's screen does not show them.
        const trimmed = (out: string): string => out.replace(/\n+$/, '');
        assert.equal(trimmed(await render(text, cuts)), trimmed(await xtermShows(text)));
      },
    ),
    {
      numRuns: 500,
      // A two-cell character that ends exactly in the last column, then one that wraps.
      examples: [[[' aa  ', ' a      ', 'aa  a', '界', '界'], [], false]],
    },
  );
});

test('a two-cell character wrapped from the last column renders without the blank xterm pads it with', async () => {
  // 19 cells, then 界 (two cells) does not fit in column 20: xterm leaves that cell blank and wraps.
  const text = 'a'.repeat(COLS - 1) + '界x\r\n';
  const expected = 'a'.repeat(COLS - 1) + '界x\n';
  assert.equal(await xtermShows(text), expected, 'the reference leaves the blank out');
  assert.equal(await render(text), expected, 'plain lines');
  assert.equal(await render('\x1b[?7h' + text), expected, 'through xterm');
  assert.equal(await render(text, [COLS - 1, COLS]), expected, 'cut at the character');
  // A space the program printed in that column stays.
  assert.equal(await render('a'.repeat(COLS - 1) + ' 界\r\n'), 'a'.repeat(COLS - 1) + ' 界\n');
});

test('a pager session leaves only what was around it, however the output is cut', async () => {
  let text = 'git log\r\n' + OPEN + '\x1b[22;0;0t\x1b[H\x1b[2J';
  for (let i = 0; i < 300; i++) text += `commit ${i}\r\n`;
  text += '\x1b[7m(END)\x1b[27m' + CLOSE + '\x1b[23;0;0tdone\r\n';
  const expected = 'git log\ndone\n';
  assert.equal(await xtermShows(text), expected);
  for (const cut of [1, 8, 10, 13, 20, text.length - 20, text.length - 12, text.length - 8, text.length - 3])
    assert.equal(await render(text, [cut, cut + 3]), expected, `cut at ${cut}`);
  // The session is replaced, not emulated.
  const alt = new AltScreenSegments();
  assert.equal(
    alt.filter(text.slice(0, 100)) + alt.filter(text.slice(100)) + alt.end(),
    'git log\r\n\x1b7\x1b8\x1b[23;0;0tdone\r\n',
  );
  assert.equal(alt.replaced, 1);
});

test('output that ends inside a full-screen program keeps the lines before it and shows its screen', async () => {
  const before = Array.from({ length: 12 }, (_, i) => `line ${i}\r\n`).join('');
  const text = `${before}${OPEN}\x1b[H\x1b[2Jtop - 10:00\r\nload 0.5\r\n`;
  const out = await render(text, [40, 101]);
  assert.equal(out, await xtermShows(text));
  assert.equal(out, Array.from({ length: 12 }, (_, i) => `line ${i}\n`).join('') + 'top - 10:00\nload 0.5\n');
});

test('a session longer than what is held is fed as it comes and still renders as xterm does', async () => {
  let text = 'start\r\n' + OPEN;
  for (let i = 0; text.length < 1.2 * 1024 * 1024; i++) text += `\x1b[H\x1b[2Jframe ${i}\r\n${'#'.repeat(i % 19)}`;
  text += CLOSE + 'after\r\n';
  const cuts = Array.from({ length: 80 }, (_, i) => i * 16384 + 5);
  assert.equal(await render(text, cuts), 'start\nafter\n');
  const alt = new AltScreenSegments();
  let fed = '';
  for (let i = 0; i < text.length; i += 16384) fed += alt.filter(text.slice(i, i + 16384));
  fed += alt.end();
  assert.equal(fed, text);
  assert.equal(alt.replaced, 0);
});

test('what counts as touching only the alternate screen', () => {
  for (const ok of [
    '',
    'abc',
    '\x1b[2;4r\x1b[H\x1b[2J',
    '\x1b]2;vim\x07\x1b[?25l\x1b[?2004h',
    '\x1bP+q544e\x1b\\',
    '\x1b8\x1b[u',
  ])
    assert.equal(onlyTouchesAltScreen(ok), true, JSON.stringify(ok));
  for (const no of [
    '\x1b[4h',
    '\x1b[?7l',
    '\x1b(0',
    '\x0e',
    '\x1bc',
    OPEN,
    '\x1b[?1047l',
    '\x1b[b',
    '\x9b2J',
    '\x1b[?5h',
    '\x1b',
    '\x1b7',
    '\x1b[s',
  ])
    assert.equal(onlyTouchesAltScreen(`a${no}b`), false, JSON.stringify(no));
});

test('rows of a long output through xterm are each emitted once, in order', async () => {
  // A mode switch sends the output to xterm; 30,000 rows go through its scrollback several times over.
  const lines = Array.from({ length: 30_000 }, (_, i) => `${i} 界 ${'w'.repeat(i % 7)}`);
  const r = new TerminalRenderer({ cols: 200, rows: 50 });
  let out = await r.write('\x1b[?7h');
  for (let i = 0; i < lines.length; i += 1000) {
    out += await r.write(lines.slice(i, i + 1000).join('\r\n') + '\r\n');
    assert.equal(r.mode, 'xterm');
  }
  out += await r.end();
  assert.equal(out, lines.join('\n') + '\n');
});
