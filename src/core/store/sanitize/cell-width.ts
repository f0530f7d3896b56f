// Characters whose width in the terminal is known, so the fast renderers can place them without xterm.
// One cell: the spinners, bars and marks of progress output (braille, block elements, box drawing,
// arrows, check marks) and Latin, Greek and Cyrillic letters. Two cells: CJK ideographs, kana, Hangul
// and fullwidth forms. The ranges leave out what xterm (with the Unicode 11 widths VS Code's terminal
// uses, unicode-v11.ts) shows otherwise, and the table below drops the emoji among them: combining marks (U+0300-036F, U+0483-0489, U+302A-302F, U+3099-309A), bidi controls
// (U+202A-202E), U+303F, halfwidth forms, and what was not checked (control pictures, characters
// outside the Basic Multilingual Plane). An exhaustive test writes every one of them to xterm.

import { unicode11Width } from './unicode-v11';

/** The ranges, inclusive, as [first, last] UTF-16 code units (all in the Basic Multilingual Plane). */
export const ONE_CELL_RANGES: readonly (readonly [number, number])[] = [
  [0x20, 0x7e],
  [0xa0, 0x2ff],
  [0x370, 0x482],
  [0x48a, 0x4ff],
  [0x2010, 0x2027],
  [0x2030, 0x205e],
  [0x2190, 0x2328],
  [0x232b, 0x23ff],
  [0x2460, 0x27bf],
  [0x2800, 0x28ff],
];

/** Characters shown in two cells, same form. */
export const TWO_CELL_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x3029],
  [0x3030, 0x303e],
  [0x3041, 0x3096],
  [0x309b, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
];

/** Cells per UTF-16 code unit: 1 or 2 for the characters above, 0 for everything else (a lookup, for speed). */
export const CELL_WIDTH: Uint8Array = (() => {
  const table = new Uint8Array(0x10000);
  for (const [a, b] of ONE_CELL_RANGES) table.fill(1, a, b + 1);
  for (const [a, b] of TWO_CELL_RANGES) table.fill(2, a, b + 1);
  // Only where Unicode 11 (the widths the terminal renderer's xterm uses) agrees: the emoji among the
  // symbols (✅ ⚡ ⌛ ❌) take two cells there and are left to xterm.
  for (let c = 0; c < table.length; c++) if (table[c] !== 0 && table[c] !== unicode11Width(c)) table[c] = 0;
  return table;
})();

/** True when the UTF-16 code unit `c` is a character shown in exactly one cell. */
export const isOneCell = (c: number): boolean => CELL_WIDTH[c] === 1;

/** True when the UTF-16 code unit `c` is a character shown in two cells. */
export const isTwoCell = (c: number): boolean => CELL_WIDTH[c] === 2;
