// Renders raw terminal output into the text a person saw, with bounded memory. Three paths, fastest
// first; each hands over to the next with the screen state, never losing or duplicating a line:
// 1. Lines that only carry colours (SGR), OSC markers and carriage-return progress (one-cell
//    characters, no wrap):
//    sequences stripped, `\r` segments overlaid, no emulation.
// 2. The line emulator (line-emulator.ts): cursor moves and positions, erase in line and display,
//    text-neutral private modes: the redraws of docker, npm, pip and of `watch`/`top -b`-style
//    screens, proven equal to xterm by a property test, at 4-11x xterm's speed (terminal-capture bench).
// 3. @xterm/headless for everything else (wide characters, wrapping, the alternate screen, scroll
//    regions, other sequences). Rows are emitted once they scroll off the emulated screen (nothing
//    can change them any more); the scrollback is small and, once full, xterm reuses its oldest row
//    for each new one (a marker tells how many it dropped), so huge outputs never grow memory and
//    rows are not allocated one by one.
//    Closed alternate-screen sessions that leave no trace are not drawn cell by cell (alt-screen.ts).
import type * as Xterm from '@xterm/headless';
import { AltScreenSegments } from './alt-screen';
import { CELL_WIDTH } from './cell-width';
import { LineEmulator, fitsOneRow } from './line-emulator';

const SGR_OR_OSC = /\x1b\[[0-9;:]*m|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)/g;
const NOT_SIMPLE = /[\x00-\x08\x0b-\x1f\x7f]/;
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
/** Text queued in emulator mode before it is rendered (also rendered on `flush`). */
const QUEUE = 1 << 20;
/**
 * Scrollback rows: once full, xterm reuses the oldest row for each new one instead of allocating it.
 * Must exceed ROW_BUDGET, so that no row is dropped before it is emitted.
 */
const SCROLLBACK = 2 * ROW_BUDGET;
/** Shown where rows scrolled out of the emulator before they could be read (see followTrim). */
export const LOST_ROWS = '[terminal rows not stored: they scrolled past the emulator before they were read]\n';
/** A fast-path line longer than this without a newline goes to the emulator (it streams rows). */
const MAX_PENDING = 64 * 1024;

export interface TerminalRendererOptions {
  cols?: number;
  rows?: number;
}

/** Streaming renderer: `write` raw decoded text, get back finished text; `end` returns the rest. */
export class TerminalRenderer {
  private readonly cols: number;
  private readonly rows: number;
  private term: Xterm.Terminal | undefined;
  private mini: LineEmulator | undefined;
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
  private partial = '';
  /** The last screenful of fast-path lines (each ending with `\n`), kept for a switch to emulation. */
  private window = '';
  private queued = '';
  private readonly alt = new AltScreenSegments();

  constructor(options: TerminalRendererOptions = {}) {
    this.cols = Math.max(20, options.cols ?? 200);
    this.rows = Math.max(2, options.rows ?? 50);
  }

  /** Which path renders now: plain lines, the small line emulator, or xterm. */
  get mode(): 'lines' | 'line-emulator' | 'xterm' {
    return this.term ? 'xterm' : this.mini ? 'line-emulator' : 'lines';
  }

  async write(text: string): Promise<string> {
    if (this.term) {
      this.queued += this.alt.filter(text);
      return this.queued.length >= QUEUE ? this.flush() : '';
    }
    if (this.mini) return this.throughMini(text);
    const s = this.partial + text;
    const lastNl = s.lastIndexOf('\n');
    if (lastNl === -1) {
      this.partial = collapsePartial(s, this.cols);
      return this.partial.length > MAX_PENDING ? this.switchToMini('') : '';
    }
    this.partial = collapsePartial(s.slice(lastNl + 1), this.cols);
    // Common case, checked on the whole block at once: only colours and markers.
    // Line ends made `\n` first: a single character class then finds any control left (a lone `\r`
    // included), a fifth faster than an alternation with a lookahead.
    const block = s.slice(0, lastNl + 1).replace(SGR_OR_OSC, '');
    const lf = block.includes('\r') ? block.replace(/\r\n/g, '\n') : block;
    if (!NOT_SIMPLE.test(lf)) {
      this.window += lf;
      return this.trimWindow();
    }
    // Find the first line that needs the emulator; the lines before it are simple.
    let start = 0;
    while (start <= lastNl) {
      const nl = s.indexOf('\n', start);
      const raw = s.slice(start, nl);
      let body = (raw.endsWith('\r') ? raw.slice(0, -1) : raw).replace(SGR_OR_OSC, '');
      if (NOT_SIMPLE.test(body)) body = overlayLine(body, this.cols) ?? '\x1b';
      if (body.includes('\x1b')) {
        const out = this.trimWindow();
        const rest = s.slice(start); // includes the partial last line
        this.partial = '';
        return out + (await this.switchToMini(rest));
      }
      this.window += body + '\n';
      start = nl + 1;
    }
    return this.trimWindow();
  }

  /** Emits all but the last `rows` lines of the window. */
  private trimWindow(): string {
    let cut = this.window.length;
    for (let n = 0; n <= this.rows; n++) {
      // (lastIndexOf would read a negative start as 0 and find an empty first line twice)
      if (cut === 0) return '';
      cut = this.window.lastIndexOf('\n', cut - 1);
      if (cut === -1) return '';
    }
    const out = this.window.slice(0, cut + 1);
    this.window = this.window.slice(cut + 1);
    return out;
  }

  /** Renders what is queued and returns the rows that are final. Cheap to call on a timer. */
  async flush(): Promise<string> {
    if (!this.term || this.queued === '') return '';
    const text = this.queued;
    this.queued = '';
    return this.feed(text);
  }

  /** Emits everything still held (call at the end of a command). */
  async end(): Promise<string> {
    let flushed = await this.flush();
    if (this.mini) {
      const out = this.mini.end();
      this.mini = undefined;
      return out;
    }
    if (!this.term) {
      let last = this.partial.replace(SGR_OR_OSC, '');
      if (last.endsWith('\r')) last = last.slice(0, -1);
      const shown = NOT_SIMPLE.test(last) ? overlayLine(last, this.cols) : last;
      if (shown !== undefined) {
        const rest = this.window + (this.partial === '' ? '' : shown + '\n');
        this.window = '';
        this.partial = '';
        return rest;
      }
      // The last line needs an emulator after all.
      flushed = await this.switchToMini('');
      if (this.mini) return flushed + (await this.end());
      flushed += await this.flush();
    }
    const held = this.alt.end();
    if (held !== '') flushed += await this.feed(held);
    const term = this.term!;
    const out = flushed + this.readShown();
    term.dispose();
    this.term = undefined;
    this.mark = undefined;
    this.emitted = 0;
    return out;
  }

  /** Hands the window and the rest to the line emulator (or on to xterm when it cannot cope). */
  private async switchToMini(rest: string): Promise<string> {
    const lines = this.window === '' ? [] : this.window.slice(0, -1).split('\n');
    const keep = Math.max(0, lines.length - (this.rows - 1));
    // The line emulator holds each line on screen as one row: one that wraps (a long log line before a
    // redraw) or holds characters of unknown width goes to xterm with the rest.
    if (!lines.slice(keep).every((l) => fitsOneRow(l, this.cols))) {
      const out = this.trimWindow();
      return out + (await this.switchToEmulator(rest));
    }
    const out = lines
      .slice(0, keep)
      .map((l) => l + '\n')
      .join('');
    this.mini = new LineEmulator(this.cols, this.rows, lines.slice(keep));
    const text = this.partial + rest;
    this.window = '';
    this.partial = '';
    return out + (await this.throughMini(text));
  }

  private async throughMini(text: string): Promise<string> {
    const r = this.mini!.write(text);
    if (r.handOver === undefined) return r.out;
    this.mini = undefined;
    return r.out + (await this.switchToEmulator(r.handOver));
  }

  private async switchToEmulator(rest: string): Promise<string> {
    this.term = new (xterm().Terminal)({
      cols: this.cols,
      rows: this.rows,
      scrollback: SCROLLBACK,
      allowProposedApi: true,
      convertEol: true,
    });
    // Erasing the scrollback (`ESC[3J`, sent by `clear`; `ESC[?3J`) changes nothing on screen; ignored,
    // so the rows scrolled off before it are still read, and the mark stays where it was.
    this.term.parser.registerCsiHandler({ final: 'J' }, (params) => params[0] === 3);
    this.term.parser.registerCsiHandler({ prefix: '?', final: 'J' }, (params) => params[0] === 3);
    // Rows that scrolled off are read before the switch to the alternate screen, so the mark is never
    // left behind (xterm only marks the active screen).
    this.term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => {
      if (params.some((p) => p === 47 || p === 1047 || p === 1049) && this.term!.buffer.active.type === 'normal')
        this.readEarly += this.readScrolled();
      return false;
    });
    // A reset (`ESC c`) empties the screen and the scrollback: what was shown until then is read
    // first, as at the end of an output, then reading starts over on the empty screen.
    this.term.parser.registerEscHandler({ final: 'c' }, () => {
      this.readEarly += this.followTrim() + this.readShown();
      this.mark?.dispose();
      this.mark = undefined;
      this.emitted = 0;
      return false;
    });
    const replay = this.window.replace(/\n/g, '\r\n') + this.partial;
    this.window = '';
    this.partial = '';
    return this.feed(replay + this.alt.filter(rest));
  }

  private async feed(text: string): Promise<string> {
    const term = this.term!;
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

  /** Emits every row not read yet that shows something, as at the end of an output. */
  private readShown(): string {
    const term = this.term!;
    const out = this.harvest(lastShownRow(term.buffer.normal, this.emitted - 1) + 1, true);
    // On the alternate screen (a pager or editor still open): what it shows was seen last.
    const alt = term.buffer.active;
    return alt.type === 'alternate' ? out + rowsText(alt, 0, lastShownRow(alt, -1) + 1, true) : out;
  }

  /** Emits the normal screen's rows that scrolled off since the last read, and marks the last one. */
  private readScrolled(): string {
    const out = this.followTrim() + this.harvest(this.term!.buffer.normal.baseY, false);
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
      const b = this.term!.buffer.normal;
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
    const term = this.term!;
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
    const out = rowsText(this.term!.buffer.normal, this.emitted, upTo, final);
    this.emitted = Math.max(this.emitted, upTo);
    return out;
  }
}

/** Rows [from, upTo) as text: a row followed by a wrapped continuation gets no newline. */
function rowsText(b: Xterm.IBuffer, from: number, upTo: number, final: boolean): string {
  // Joined once: appending row by row built a rope of thousands of pieces that the redaction's first
  // search then had to flatten (a fifth of the time and most of the garbage on plain output in xterm).
  const rows: string[] = [];
  for (let i = from; i < upTo; i++) {
    const line = b.getLine(i);
    const next = b.getLine(i + 1);
    const continued = next?.isWrapped === true && (i + 1 < upTo || !final);
    rows.push(line?.translateToString(!continued) ?? '', continued ? '' : '\n');
  }
  return rows.join('');
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
 * What a terminal shows for one line of one-cell characters (cell-width.ts) with carriage returns:
 * each `\r` goes back to column 0 and the next text overwrites. Exact as long as no segment wraps
 * (each fits in `cols`); undefined when the line needs the emulator (other controls, two-cell
 * characters, wrapping).
 */
export function overlayLine(body: string, cols: number): string | undefined {
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c !== 13 && CELL_WIDTH[c] !== 1) return undefined;
  }
  let shown = '';
  for (const seg of body.split('\r')) {
    if (seg.length > cols) return undefined;
    shown = seg + shown.slice(seg.length);
  }
  return shown;
}

/**
 * Keeps an unfinished progress line small: `a\rb\rc` becomes `overlay(a, b)\rc`, which renders the
 * same and leaves the cursor where `c` ends. Lines with other content are returned unchanged.
 */
function collapsePartial(partial: string, cols: number): string {
  const cr = partial.lastIndexOf('\r');
  if (cr <= 0 || partial.indexOf('\r') === cr) return partial;
  const base = overlayLine(partial.slice(0, cr), cols);
  return base === undefined ? partial : `${base}\r${partial.slice(cr + 1)}`;
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
