import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Terminal } from '@xterm/headless';
import { cellsOf, padBeforeWideWrap, rowsText } from '../../../src/core/store/sanitize/xterm-screen';

const COLS = 12;
const ROWS = 4;

function write(term: Terminal, text: string): Promise<void> {
  return new Promise((resolve) => term.write(text, resolve));
}

/**
 * What xterm's own API reads for rows [from, upTo), with the renderer's rules for wrapped rows: no
 * newline, and no blank xterm put in the last column when a two-cell character wrapped.
 */
function xtermRows(term: Terminal, from: number, upTo: number, final: boolean): string {
  const b = term.buffer.normal;
  let out = '';
  for (let i = from; i < upTo; i++) {
    const continued = b.getLine(i + 1)?.isWrapped === true && (i + 1 < upTo || !final);
    let row = b.getLine(i)?.translateToString(!continued) ?? '';
    if (continued && padBeforeWideWrap(b.getLine(i)!, b.getLine(i + 1))) row = row.slice(0, -1);
    out += row + (continued ? '' : '\n');
  }
  return out;
}

const token = fc.oneof(
  fc.stringMatching(/^[a-z ]{0,15}$/),
  // two-cell, combining marks (combined cells), astral, emoji sequences, halfwidth, bidi control
  fc.constantFrom(
    '\u4e2d',
    'e\u0301',
    'a\u0301\u0302\u0303',
    '\u{1F680}',
    '\u{1F468}\u200d\u{1F469}',
    '\u2764\ufe0f',
    '\uff71',
    '\u202e',
    '\u{20000}',
  ),
  fc.constantFrom(
    '\r\n',
    '\n',
    '\r',
    '\t',
    '\x1b[K',
    '\x1b[2J',
    '\x1b[H',
    '\x1b[3;5H',
    '\x1b[31m',
    '\x1b[0m',
    '\x1b[2;3r',
    '\x1b[r',
    '\x1b[?1049h',
    '\x1b[?1049l',
  ),
);

test('rows read from xterm cells equal translateToString (wide, combined, astral, wrapped, blank rows)', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(token, { maxLength: 80 }), fc.boolean(), async (tokens, final) => {
      const term = new Terminal({ cols: COLS, rows: ROWS, scrollback: 50, allowProposedApi: true, convertEol: true });
      await write(term, tokens.join(''));
      const b = term.buffer.normal;
      for (let from = 0; from < b.length; from += 3)
        for (const upTo of [from, from + 1, from + 5, b.length])
          assert.equal(
            rowsText(b, from, Math.min(upTo, b.length), final),
            xtermRows(term, from, Math.min(upTo, b.length), final),
          );
      term.dispose();
    }),
    { numRuns: 300 },
  );
});

test('rows longer than one chunk of code units and full of combined cells are read whole', async () => {
  const cols = 5000;
  const term = new Terminal({ cols, rows: 3, scrollback: 10, allowProposedApi: true });
  // Four code units per combined cell: half a row of them fills the room reserved for the whole row
  // (two units a cell), and the plain cells after them must still be read.
  const combined = 'e\u0301\u0302\u0303'.repeat(cols / 2 - 1) + 'y'.repeat(cols / 2 + 1);
  const text = 'x'.repeat(6000) + '\r\n' + combined + '\r\n' + '\u{1F680}'.repeat(2400);
  await write(term, text);
  const b = term.buffer.normal;
  assert.equal(rowsText(b, 0, b.length, true), xtermRows(term, 0, b.length, true));
  assert.ok(rowsText(b, 0, b.length, true).includes(combined + '\n'));
  term.dispose();
});

test('the pinned xterm lays out its cells as the renderer reads them (else it falls back to the slower API)', async () => {
  const term = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
  await write(term, 'ab\u4e2d');
  const line = term.buffer.normal.getLine(0)!;
  const cells = cellsOf(line);
  assert.ok(cells, 'xterm internals changed: rows are read with translateToString (correct, slower)');
  assert.equal(cells._data[0]! & 0x1fffff, 0x61);
  assert.equal(cells._data[2 * 3]! >> 22, 2);
  term.dispose();
});
