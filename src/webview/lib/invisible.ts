// Characters that change how text is drawn without being seen: bidirectional embeddings, overrides and
// isolates ("Trojan Source", CVE-2021-42574), direction marks, zero-width characters, and control
// characters a browser does not draw. Where the user reads what will run (an approval, a call's
// arguments) they are shown as `\u{202e}`, as the host already writes them in approvals
// (core/agent/tools/mcp.ts `visibleText`), so the text on screen is the text that runs.

/**
 * Not a tab, a newline, a carriage return before a newline, nor the variation selectors of emoji
 * (U+FE0E/F); the tag characters (U+E0000...) can carry invisible text.
 */
const RANGES: [number, number][] = [
  [0x00, 0x08],
  [0x0b, 0x0c],
  [0x0e, 0x1f],
  [0x7f, 0x9f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2028, 0x2029],
  [0x2066, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0d],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];
const hex = (n: number): string => `\\u{${n.toString(16)}}`;
// Built from the table: a literal class of combining marks reads as something else in an editor. Then,
// as the host's class does, every other format and default-ignorable character (a soft hyphen, U+034F,
// musical and shorthand format controls draw nothing) but the emoji variation selectors.
const HIDDEN = new RegExp(
  `[${RANGES.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('')}]|\\r(?!\\n)|(?![\\ufe0e\\ufe0f])[\\p{Cf}\\p{Default_Ignorable_Code_Point}]`,
  'gu',
);

export interface Revealed {
  text: string;
  /** How many characters are shown as `\u{…}` (made visible here or by the host before). */
  hidden: number;
}

const SHOWN = /\\u\{[0-9a-f]{1,6}\}/g;

export function revealInvisible(text: string): Revealed {
  const out = text.replace(HIDDEN, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  return { text: out, hidden: out.match(SHOWN)?.length ?? 0 };
}
