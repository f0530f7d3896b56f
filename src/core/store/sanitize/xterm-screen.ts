// The third path of the terminal renderer (terminal-renderer.ts): @xterm/headless for what the faster
// paths cannot render (wide characters, wrapping, the alternate screen, scroll regions, other
// sequences). Rows are emitted once they scroll off the emulated screen (nothing can change them any
// more). The scrollback is small and never cleared: once full, xterm reuses its oldest row for each
// new one (a marker tells how many it dropped), so huge outputs never grow memory and rows are not
// allocated one by one.
import type * as Xterm from '@xterm/headless';
import { UNICODE_11, type UnicodeVersion } from './unicode-v11';

/** Rows that may scroll between two harvests (bounds the scrollback the emulator needs). */
const ROW_BUDGET = 4096;
/**
 * One write to the emulator: the emulator yields to the event loop between writes, not inside one.
 * 16 KB of a full-screen program (alternate screen, scroll regions) blocked it for up to 60 ms; 4 KB
 * stays under 40 ms at the same throughput (terminal-capture bench, kind xterm).
 */
const PIECE = 4 * 1024;
/** Writes queued before awaiting the emulator (each await costs a timer tick). */
const GROUP = 1 << 20;
/**
 * Scrollback rows: once full, xterm reuses the oldest row for each new one instead of allocating it.
 * Must exceed ROW_BUDGET, so that no row is dropped before it is emitted.
 */
const SCROLLBACK = 2 * ROW_BUDGET;
/** Shown where rows scrolled out of the emulator before they could be read (see followTrim). */
export const LOST_ROWS = '[terminal rows not stored: they scrolled past the emulator before they were read]\n';

/** An xterm screen fed in pieces: `feed` returns the rows that became final, `end` the rest. */
export class XtermScreen {
  private readonly term: Xterm.Terminal;
  /** Rows of the normal screen emitted so far, counted from its first row still in the scrollback. */
  private emitted = 0;
  /**
   * A marker on row `markedAt` of the normal screen's scrollback (the last row emitted): how far it
   * moved up is how many rows xterm dropped from the top. Rows on screen can lose their markers (an
   * erase does that); scrollback rows only move.
   */
  private mark: Xterm.IMarker | undefined;
  private markedAt = 0;
  /** Rows read while xterm parses (just before a reset or a switch to the alternate screen). */
  private readEarly = '';

  constructor(
    private readonly cols: number,
    private readonly rows: number,
    unicodeVersion: UnicodeVersion = '11',
  ) {
    const term = new (xterm().Terminal)({
      cols,
      rows,
      scrollback: SCROLLBACK,
      allowProposedApi: true,
      convertEol: true,
    });
    this.term = term;
    // The widths VS Code's terminal uses (Unicode 11 unless the user chose 6): with the other an emoji
    // took the wrong number of cells, and what was written after it and a cursor move landed one off.
    if (unicodeVersion === '11') {
      term.unicode.register(UNICODE_11);
      term.unicode.activeVersion = '11';
    }
    // Erasing the scrollback (`ESC[3J`, sent by `clear`; `ESC[?3J`) changes nothing on screen; ignored,
    // so the rows scrolled off before it are still read, and the mark stays where it was.
    term.parser.registerCsiHandler({ final: 'J' }, (params) => params[0] === 3);
    term.parser.registerCsiHandler({ prefix: '?', final: 'J' }, (params) => params[0] === 3);
    // Rows that scrolled off are read before the switch to the alternate screen, so the mark is never
    // left behind (xterm only marks the active screen).
    term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => {
      if (params.some((p) => p === 47 || p === 1047 || p === 1049) && term.buffer.active.type === 'normal')
        this.readEarly += this.readScrolled();
      return false;
    });
    // A reset (`ESC c`) empties the screen and the scrollback: what was shown until then is read
    // first, as at the end of an output, then reading starts over on the empty screen.
    term.parser.registerEscHandler({ final: 'c' }, () => {
      this.readEarly += this.followTrim() + this.readShown();
      this.mark?.dispose();
      this.mark = undefined;
      this.emitted = 0;
      return false;
    });
  }

  /** Renders `text` and returns the rows that scrolled off (final). */
  async feed(text: string): Promise<string> {
    const term = this.term;
    let out = '';
    for (let i = 0; i < text.length;) {
      // Queue pieces until the row budget or the group size is reached, then wait for the last one.
      let rows = 0;
      let size = 0;
      let done: Promise<void> = Promise.resolve();
      while (i < text.length && rows < ROW_BUDGET && size < GROUP) {
        const piece = this.piece(text, i, ROW_BUDGET - rows);
        const data = text.slice(i, piece.end);
        done = new Promise<void>((resolve) => term.write(data, resolve));
        rows += piece.rows;
        size += data.length;
        i = piece.end;
      }
      await done;
      out += this.readEarly;
      this.readEarly = '';
      // Rows scroll off the normal screen only while it is active (the alternate one has no
      // scrollback, and what scrolled before it was read on the switch).
      if (term.buffer.active.type === 'normal') out += this.readScrolled();
    }
    return out;
  }

  /** Everything not read yet that shows something; the screen is disposed. */
  end(): string {
    const out = this.readShown();
    this.term.dispose();
    return out;
  }

  /** Emits every row not read yet that shows something, as at the end of an output. */
  private readShown(): string {
    const term = this.term;
    const out = this.harvest(lastShownRow(term.buffer.normal, this.emitted - 1) + 1, true);
    // On the alternate screen (a pager or editor still open): what it shows was seen last.
    const alt = term.buffer.active;
    return alt.type === 'alternate' ? out + rowsText(alt, 0, lastShownRow(alt, -1) + 1, true) : out;
  }

  /** Emits the normal screen's rows that scrolled off since the last read, and marks the last one. */
  private readScrolled(): string {
    const out = this.followTrim() + this.harvest(this.term.buffer.normal.baseY, false);
    this.remark();
    return out;
  }

  /**
   * Shifts `emitted` by the rows xterm dropped from the top of a full scrollback since the last mark.
   * Returns a note when rows were dropped before they were emitted: the row budget of a piece counts
   * every sequence as one row, but a repeat (`CSI n b`) of millions of characters wraps into more rows
   * than the scrollback holds.
   */
  private followTrim(): string {
    const mark = this.mark;
    if (!mark) {
      // Nothing emitted yet: a full buffer means more rows scrolled than a piece may scroll.
      const b = this.term.buffer.normal;
      return b.length >= this.rows + SCROLLBACK ? LOST_ROWS : '';
    }
    if (mark.isDisposed) {
      this.mark = undefined;
      this.emitted = 0;
      return LOST_ROWS;
    }
    this.emitted -= this.markedAt - mark.line;
    this.markedAt = mark.line;
    return '';
  }

  /** Marks the last row emitted, if any; the normal screen must be the active one (xterm marks that one). */
  private remark(): void {
    const term = this.term;
    const b = term.buffer.normal;
    this.mark?.dispose();
    this.mark = this.emitted > 0 ? term.registerMarker(this.emitted - 1 - (b.baseY + b.cursorY)) : undefined;
    this.markedAt = this.emitted - 1;
  }

  /**
   * The next piece starting at `start` and how many rows it may scroll at most: every LF, VT, FF or
   * escape may scroll one row, and wrapping one per `cols` characters. Stops at `budget` rows.
   */
  private piece(text: string, start: number, budget: number): { end: number; rows: number } {
    let end = Math.min(text.length, start + PIECE);
    for (;;) {
      const seg = text.slice(start, end);
      const rows =
        1 +
        Math.ceil(seg.length / this.cols) +
        countOf(seg, '\n') +
        countOf(seg, '\x1b') +
        countOf(seg, '\v') +
        countOf(seg, '\f');
      if (rows <= budget || end - start <= 1) return { end, rows };
      end = start + Math.max(1, (end - start) >> 1);
    }
  }

  /** Emits rows [emitted, upTo) of the normal screen (the alternate one has no rows to emit). */
  private harvest(upTo: number, final: boolean): string {
    const out = rowsText(this.term.buffer.normal, this.emitted, upTo, final);
    this.emitted = Math.max(this.emitted, upTo);
    return out;
  }
}

/** Rows [from, upTo) as text: a row followed by a wrapped continuation gets no newline. */
export function rowsText(b: Xterm.IBuffer, from: number, upTo: number, final: boolean): string {
  // Built in one buffer of UTF-16 code units and turned into a string once: xterm's translateToString
  // builds each row one cell at a time, and joining row strings made most of the garbage (together half
  // the time on output only xterm renders).
  const text = new TextBuilder();
  let line = b.getLine(from);
  for (let i = from; i < upTo; i++) {
    const next = b.getLine(i + 1);
    const continued = next?.isWrapped === true && (i + 1 < upTo || !final);
    if (line !== undefined) text.row(line, !continued, continued && padBeforeWideWrap(line, next));
    if (!continued) text.unit(10);
    line = next;
  }
  return text.done();
}

/**
 * xterm pads the last column with a blank when a two-cell character does not fit there, and wraps the
 * character to the next row. The blank is the screen's, not the program's (the plain-lines path never
 * sees it), so a row continued by such a character is read without it.
 */
export function padBeforeWideWrap(line: Xterm.IBufferLine, next: Xterm.IBufferLine | undefined): boolean {
  if (next?.isWrapped !== true || line.length === 0) return false;
  const last = line.getCell(line.length - 1);
  return last !== undefined && last.getChars() === '' && last.getWidth() === 1 && next.getCell(0)?.getWidth() === 2;
}

/** xterm's own row data (its BufferLine), read directly when it has the shape this version has. */
export interface RawLine {
  _data: Uint32Array;
  _combined: Record<number, string>;
  getTrimmedLength(): number;
}
const CODEPOINT = 0x1fffff;
const COMBINED = 0x200000;
const WIDTH_SHIFT = 22;
/** xterm's cells behind a row of its public API, when they are laid out as this code reads them. */
export function cellsOf(line: Xterm.IBufferLine): RawLine | undefined {
  const raw = (line as unknown as { _line?: Partial<RawLine> })._line;
  return raw?._data instanceof Uint32Array &&
    typeof raw._combined === 'object' &&
    typeof raw.getTrimmedLength === 'function' &&
    raw._data.length >= line.length * 3
    ? (raw as RawLine)
    : undefined;
}

/** Code units per string made (String.fromCharCode takes them as arguments: far under any stack limit). */
const CHUNK = 8192;
/** Buffer decodes UTF-16 code units (lone surrogates kept) 12x faster than String.fromCharCode. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Text made of rows read from xterm's cells: the same as translateToString, without a string per cell. */
class TextBuilder {
  private units = new Uint16Array(CHUNK);
  private n = 0;
  private readonly parts: string[] = [];

  unit(u: number): void {
    if (this.n === this.units.length) this.spill();
    this.units[this.n++] = u;
  }

  /**
   * `line.translateToString(trimRight)` (without its last cell with `dropLast`); xterm's own call when
   * its internals are not as expected.
   */
  row(line: Xterm.IBufferLine, trimRight: boolean, dropLast = false): void {
    const raw = cellsOf(line);
    if (raw === undefined) {
      const s = line.translateToString(trimRight);
      this.string(dropLast && s.endsWith(' ') ? s.slice(0, -1) : s);
      return;
    }
    const { _data: data, _combined: combined } = raw;
    const end = trimRight ? raw.getTrimmedLength() : line.length - (dropLast ? 1 : 0);
    // Room for every cell as a surrogate pair; combined cells go through string().
    if (this.n + 2 * end > this.units.length) this.spill();
    if (2 * end > this.units.length) this.units = new Uint16Array(2 * end);
    const units = this.units;
    let n = this.n;
    for (let col = 0; col < end;) {
      const content = data[col * 3]!;
      const cp = content & CODEPOINT;
      if (content & COMBINED) {
        this.n = n;
        this.string(combined[col] ?? '');
        // A combined cell can hold more than two code units: keep room for the rest of the row.
        if (this.n + 2 * (end - col) > units.length) this.spill();
        n = this.n;
      } else if (cp === 0) units[n++] = 32;
      else if (cp < 0x10000) units[n++] = cp;
      else {
        units[n++] = 0xd800 + ((cp - 0x10000) >> 10);
        units[n++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      }
      col += content >> WIDTH_SHIFT || 1;
    }
    this.n = n;
  }

  done(): string {
    this.spill();
    return this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
  }

  private string(s: string): void {
    for (let i = 0; i < s.length; i++) this.unit(s.charCodeAt(i));
  }

  private spill(): void {
    if (this.n === 0) return;
    const units = this.units.subarray(0, this.n);
    this.parts.push(
      LITTLE_ENDIAN
        ? Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString('utf16le')
        : String.fromCharCode.apply(null, units as unknown as number[]),
    );
    this.n = 0;
  }
}

/**
 * The last row to show at the end: the last with content, or the cursor row when the cursor is not at
 * its start; at least `atLeast`.
 */
function lastShownRow(b: Xterm.IBuffer, atLeast: number): number {
  let last = b.cursorX > 0 ? Math.max(atLeast, b.baseY + b.cursorY) : atLeast;
  for (let r = b.length - 1; r > last; r--) if ((b.getLine(r)?.translateToString(true) ?? '') !== '') last = r;
  return last;
}

function countOf(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

/**
 * xterm (about 0.3 MB of the features bundle) is evaluated the first time an output needs it, not when
 * capture starts: most terminals never leave the first two paths. esbuild bundles a require()d module as
 * an initializer run on the first call (test/unit/bundle-laziness.test.ts).
 */
function xterm(): typeof Xterm {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated on first use, on purpose
  return require('@xterm/headless') as typeof Xterm;
}
