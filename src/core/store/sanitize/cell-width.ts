// Characters beyond ASCII that a terminal shows in exactly one cell, so the fast renderers can treat
// them like ASCII: the spinners, bars and marks of progress output (braille, block elements, box
// drawing, arrows, check marks) and Latin, Greek and Cyrillic letters. The ranges leave out what
// xterm (Unicode 6 widths, @xterm/headless's default) shows otherwise: combining marks (U+0300-036F,
// U+0483-0489), bidi controls (U+202A-202E), the wide angle brackets U+2329/232A, and control
// pictures (U+2400-245F, not checked). An exhaustive test writes every one of them to xterm.

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

const hex = (n: number): string => `\\u${n.toString(16).padStart(4, '0')}`;
/** A regular-expression character class body matching one such character. */
export const ONE_CELL_CLASS = ONE_CELL_RANGES.map(([a, b]) => `${hex(a)}-${hex(b)}`).join('');

/** True when the UTF-16 code unit `c` is a character shown in exactly one cell. */
export function isOneCell(c: number): boolean {
  if (c >= 0x20 && c <= 0x7e) return true;
  if (c < 0xa0) return false;
  for (const [a, b] of ONE_CELL_RANGES) if (c >= a && c <= b) return true;
  return false;
}
