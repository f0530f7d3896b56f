// A small terminal emulator for the redraws most tools use (docker, npm, pip, cargo progress, and
// screen redraws like `watch` or `top -b`): text of characters of known width (cell-width.ts: ASCII,
// spinners, bars, box drawing, accented letters in one cell; CJK in two), CR, LF, tab, cursor
// up/down/left/right/column, cursor position, erase in line and in display, colours, and the private
// modes and keypad switches that change no text (cursor visibility, bracketed paste, mouse and focus
// reporting). It keeps only the screen (at most `rows` lines) and emits lines as they scroll off, like
// the full emulator, at several times its speed. Anything else (combining marks, other characters,
// wrapping, the alternate screen, scroll regions, other sequences) makes it hand over: it returns a
// replay that puts a real emulator in the same state (lines + cursor position). A property test proves
// it renders what xterm renders.

import { CELL_WIDTH } from './cell-width';
import { trimTrailing } from '../../trim';

const PRIVATE_MODES = /\x1b\[\?([0-9;]*)([hl])/y;
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/y;
const INCOMPLETE = /^\x1b(?:\[\??[0-9;]*|\][^\x07\x1b]*|\]?[^\x07\x1b]*\x1b)?$/;
/**
 * DEC private modes that only change input, reporting or the cursor's look, never the text on screen:
 * application cursor keys, cursor blink and visibility, mouse tracking and its encodings, focus
 * events, bracketed paste.
 */
export const TEXT_NEUTRAL_MODES = new Set([1, 12, 25, 1000, 1002, 1003, 1004, 1005, 1006, 1015, 2004]);

/** What a `write` produced: finished lines, or a hand-over to the full emulator. */
export interface LineEmulatorResult {
  out: string;
  /** Set when the emulator gave up: feed this to a fresh full emulator (it replays the screen). */
  handOver?: string;
}

// Internally a line is a string with one element per cell. A never-written cell is NUL: like xterm,
// trailing blank cells are trimmed but trailing spaces that were printed are kept. A two-cell
// character is followed by TAIL, its right half, which shows as nothing.
const BLANK = '\0';
const TAIL = '\x01';
const shown = (s: string): string => trimTrailing(s, BLANK).replace(/\0/g, ' ').replace(/\x01/g, '');

export class LineEmulator {
  private readonly lines: string[];
  private row: number;
  private col = 0;
  private pending = '';
  /**
   * True right after text was printed: xterm then joins a zero-width character (a combining mark) to
   * the cell before the cursor; after any control or sequence it does not.
   */
  private joinable = false;

  /** Starts below `seed` (complete lines already shown), like a terminal after printing them. */
  constructor(
    private readonly cols: number,
    private readonly rows: number,
    seed: string[] = [],
  ) {
    // The caller passes at most rows - 1 lines (it emits older ones itself), each `fitsOneRow`.
    this.lines = [...seed.slice(-(rows - 1)).map((l) => withTails(l)), ''];
    this.row = this.lines.length - 1;
  }

  write(input: string): LineEmulatorResult {
    const text = this.pending + input;
    this.pending = '';
    let out = '';
    let i = 0;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (CELL_WIDTH[c] !== 0) {
        // A run of characters of known width, measured in cells.
        const j = runEnd(text, i);
        const width = runCells;
        const twoCell = width !== j - i;
        // Never fill the last column: a terminal's pending-wrap state there is xterm's business.
        if (this.col + width >= this.cols) return this.handOver(out, text.slice(i));
        this.print(twoCell ? withTails(text, i, j) : text.slice(i, j));
        i = j;
        this.joinable = true;
        continue;
      }
      if (c === 27 || c === 13 || c === 10 || c === 9) this.joinable = false;
      if (c === 13) {
        this.col = 0;
      } else if (c === 10) {
        out += this.lineFeed();
      } else if (c === 9) {
        this.col = Math.min(this.cols - 1, (Math.floor(this.col / 8) + 1) * 8);
      } else if (c === 27) {
        // Dispatched on the next character; matched in place (no copies of the rest on the common path).
        const next = text.charCodeAt(i + 1);
        if (next === 0x5b && text.charCodeAt(i + 2) !== 0x3f) {
          // CSI: parameters (digits and `;`), then a letter
          let j = i + 2;
          for (let d = text.charCodeAt(j); (d >= 0x30 && d <= 0x39) || d === 0x3b; d = text.charCodeAt(++j));
          const final = text.charCodeAt(j);
          if ((final >= 0x41 && final <= 0x5a) || (final >= 0x61 && final <= 0x7a)) {
            if (!this.csi(text[j]!, text, i + 2, j)) return this.handOver(out, text.slice(i));
            i = j + 1;
            continue;
          }
        } else if (next === 0x5b) {
          PRIVATE_MODES.lastIndex = i;
          const modes = PRIVATE_MODES.exec(text);
          if (modes) {
            if (!modes[1]!.split(';').every((m) => TEXT_NEUTRAL_MODES.has(Number(m))))
              return this.handOver(out, text.slice(i));
            i += modes[0].length;
            continue;
          }
        } else if (next === 0x5d) {
          OSC.lastIndex = i;
          const osc = OSC.exec(text);
          if (osc) {
            i += osc[0].length;
            continue;
          }
        } else if (next === 0x3d || next === 0x3e) {
          i += 2; // ESC = / ESC >: keypad mode, input only
          continue;
        }
        const rest = text.slice(i);
        if (INCOMPLETE.test(rest) && rest.length < 4096) {
          this.pending = rest;
          return { out };
        }
        return this.handOver(out, rest);
      } else {
        return this.handOver(out, text.slice(i));
      }
      i++;
    }
    return { out };
  }

  /** Emits the screen down to the last line with content (or the cursor line, when the cursor is not at its start). */
  end(): string {
    let last = this.col > 0 ? this.row : -1;
    for (let r = this.lines.length - 1; r > last; r--) if (shown(this.lines[r]!) !== '') last = r;
    return this.lines
      .slice(0, last + 1)
      .map((l) => shown(l) + '\n')
      .join('');
  }

  /**
   * Writes cells at the cursor. Like xterm, a two-cell character partly overwritten loses its other
   * half: the left half before the text, the right half after it, become blank.
   */
  private print(cells: string): void {
    let line = this.lines[this.row]!.padEnd(this.col, BLANK);
    const start = this.col;
    const end = start + cells.length;
    if (line[start] === TAIL) line = line.slice(0, start - 1) + BLANK + line.slice(start);
    const after = line[end] === TAIL ? BLANK + line.slice(end + 1) : line.slice(end);
    this.lines[this.row] = line.slice(0, start) + cells + after;
    this.col = end;
  }

  /** Erases from the cursor to the end of its line (a two-cell character cut in half goes whole). */
  private eraseToEnd(): void {
    const line = this.lines[this.row]!;
    const from = this.col;
    this.lines[this.row] = line[from] === TAIL ? line.slice(0, from - 1) + BLANK : line.slice(0, from);
  }

  /** Erases from the start of the cursor's line to the cursor, inclusive (same rule). */
  private eraseToCursor(): void {
    const line = this.lines[this.row]!;
    const next = this.col + 1;
    this.lines[this.row] = BLANK.repeat(next) + (line[next] === TAIL ? BLANK + line.slice(next + 1) : line.slice(next));
  }

  /**
   * Applies one CSI sequence, its parameters (digits and `;`) at text[from, to), read in place: a
   * split per sequence took a third of the time on screen redraws. False when it is not one this
   * emulator handles.
   */
  private csi(final: string, text: string, from: number, to: number): boolean {
    if (final === 'm') return true;
    let semi = -1;
    let semis = 0;
    for (let k = from; k < to; k++) if (text.charCodeAt(k) === 0x3b && semis++ === 0) semi = k;
    if (final === 'H' || final === 'f') {
      if (semis > 1) return false;
      const row = semi === -1 ? param(text, from, to) : param(text, from, semi);
      const col = semi === -1 ? undefined : param(text, semi + 1, to);
      this.moveTo((row ?? 1) - 1, (col ?? 1) - 1);
      return true;
    }
    if (semi !== -1) return false;
    const n = param(text, from, to);
    const count = Math.max(1, n ?? 1);
    switch (final) {
      case 'A':
        this.row = Math.max(0, this.row - count);
        return true;
      case 'B':
        this.moveTo(this.row + count, this.col);
        return true;
      case 'C':
        this.col = Math.min(this.cols - 1, this.col + count);
        return true;
      case 'D':
        this.col = Math.max(0, this.col - count);
        return true;
      case 'G':
        this.col = Math.min(this.cols - 1, count - 1);
        return true;
      case 'd':
        this.moveTo(count - 1, this.col);
        return true;
      case 'K': {
        if (n === undefined || n === 0) this.eraseToEnd();
        else if (n === 1) this.eraseToCursor();
        else if (n === 2) this.lines[this.row] = '';
        else return false;
        return true;
      }
      case 'J': {
        // Erase in display: below (0), above (1) or the whole screen (2), the cursor staying put.
        if (n === undefined || n === 0) {
          this.eraseToEnd();
          for (let r = this.row + 1; r < this.lines.length; r++) this.lines[r] = '';
        } else if (n === 1) {
          for (let r = 0; r < this.row; r++) this.lines[r] = '';
          this.eraseToCursor();
        } else if (n === 2) this.lines.fill('');
        else return false;
        return true;
      }
      default:
        return false;
    }
  }

  /** Cursor to a screen position (0-based), clamped to the screen like a terminal does. */
  private moveTo(row: number, col: number): void {
    this.row = Math.max(0, Math.min(this.rows - 1, row));
    this.col = Math.max(0, Math.min(this.cols - 1, col));
    while (this.lines.length <= this.row) this.lines.push('');
  }

  private lineFeed(): string {
    this.col = 0;
    if (this.row < this.rows - 1) {
      this.row++;
      if (this.lines.length <= this.row) this.lines.push('');
      return '';
    }
    const top = this.lines.shift()!;
    this.lines.push('');
    return shown(top) + '\n';
  }

  private handOver(out: string, rest: string): LineEmulatorResult {
    // Blank cells are skipped with cursor-forward so they stay blank in the full emulator too.
    const lines = this.lines.map((l) =>
      trimTrailing(l, BLANK)
        .replace(/\x01/g, '')
        .replace(/\0+/g, (b) => `\x1b[${b.length}C`),
    );
    let replay = lines.join('\r\n');
    // Right after text, the last character is printed again so that a combining mark still joins it.
    const line = this.lines[this.row]!;
    const last = line[this.col - 1] === TAIL ? this.col - 2 : this.col - 1;
    if (this.joinable && last >= 0) replay += `\x1b[${this.row + 1};${last + 1}H${line[last]}`;
    else replay += `\x1b[${this.row + 1};${this.col + 1}H`;
    return { out, handOver: replay + rest };
  }
}

/** The width in cells of the run `runEnd` measured last (a second result without an allocation). */
let runCells = 0;
/**
 * Where the run of characters of known width at `from` ends. A function of its own on purpose: inlined
 * in `write`, the loop ran 3x slower on two-byte text (CJK) once it had been optimized on one-byte
 * text, and the bounds check keeps `CELL_WIDTH[NaN]` (reading past the end) from making every lookup a
 * slow one (2.6x on cursor redraws).
 */
function runEnd(text: string, from: number): number {
  let cells = 0;
  let j = from;
  for (; j < text.length; j++) {
    const w = CELL_WIDTH[text.charCodeAt(j)]!;
    if (w === 0) break;
    cells += w;
  }
  runCells = cells;
  return j;
}

/** The number written in text[from, to) (digits only), undefined when empty, like `Number` of it. */
function param(text: string, from: number, to: number): number | undefined {
  if (from === to) return undefined;
  let n = 0;
  for (let k = from; k < to; k++) n = n * 10 + text.charCodeAt(k) - 0x30;
  return n;
}

/** True when `line` is one row here: characters of known width, in fewer cells than `cols`. */
export function fitsOneRow(line: string, cols: number): boolean {
  let cells = 0;
  for (let i = 0; i < line.length; i++) {
    const w = CELL_WIDTH[line.charCodeAt(i)];
    if (!w) return false;
    cells += w;
  }
  return cells < cols;
}

/**
 * text[start, end) with TAIL after each two-cell character: one string element per cell. Read in
 * place: slicing first made each lookup go through the slice (a tenth of the time on CJK output).
 */
function withTails(text: string, start = 0, end = text.length): string {
  let cells = '';
  let from = start;
  for (let k = start; k < end; k++)
    if (CELL_WIDTH[text.charCodeAt(k)] === 2) {
      cells += text.slice(from, k + 1) + TAIL;
      from = k + 1;
    }
  return cells + text.slice(from, end);
}
