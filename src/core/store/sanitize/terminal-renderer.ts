// Renders raw terminal output into the text a person saw, with bounded memory. Three paths, fastest
// first; each hands over to the next with the screen state, never losing or duplicating a line:
// 1. Lines that only carry colours (SGR), OSC markers and carriage-return progress (one-cell
//    characters, no wrap):
//    sequences stripped, `\r` segments overlaid, no emulation.
// 2. The line emulator (line-emulator.ts): cursor moves and positions, erase in line and display,
//    text-neutral private modes: the redraws of docker, npm, pip and of `watch`/`top -b`-style
//    screens, proven equal to xterm by a property test, at 4-11x xterm's speed (terminal-capture bench).
// 3. @xterm/headless for everything else (xterm-screen.ts): wide characters, wrapping, the alternate
//    screen, scroll regions, other sequences. Closed alternate-screen sessions that leave no trace are
//    not drawn cell by cell (alt-screen.ts).
import { AltScreenSegments, FullScreenSessions } from './alt-screen';
import { CELL_WIDTH } from './cell-width';
import { LineEmulator, fitsOneRow } from './line-emulator';
import { XtermScreen } from './xterm-screen';
import type { UnicodeVersion } from './unicode-v11';

const SGR_OR_OSC = /\x1b\[[0-9;:]*m|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)/g;
const NOT_SIMPLE = /[\x00-\x08\x0b-\x1f\x7f]/;
/** Text queued in emulator mode before it is rendered (also rendered on `flush`). */
const QUEUE = 1 << 20;
/** A fast-path line longer than this without a newline goes to the emulator (it streams rows). */
const MAX_PENDING = 64 * 1024;

export interface TerminalRendererOptions {
  cols?: number;
  rows?: number;
  /** The widths the terminal gives characters (emoji take 2 cells in "11", the default; 1 in "6"). */
  unicodeVersion?: UnicodeVersion;
}

/** Streaming renderer: `write` raw decoded text, get back finished text; `end` returns the rest. */
export class TerminalRenderer {
  private readonly cols: number;
  private readonly rows: number;
  private readonly unicodeVersion: UnicodeVersion;
  private term: XtermScreen | undefined;
  private mini: LineEmulator | undefined;
  private partial = '';
  /** The last screenful of fast-path lines (each ending with `\n`), kept for a switch to emulation. */
  private window = '';
  private queued = '';
  private readonly alt = new AltScreenSegments();
  /** Full-screen sessions that ended: their screens leave nothing in the text (see FullScreenSessions). */
  readonly fullScreen = new FullScreenSessions();

  constructor(options: TerminalRendererOptions = {}) {
    this.cols = Math.max(20, options.cols ?? 200);
    this.rows = Math.max(2, options.rows ?? 50);
    this.unicodeVersion = options.unicodeVersion ?? '11';
  }

  /** Which path renders now: plain lines, the small line emulator, or xterm. */
  get mode(): 'lines' | 'line-emulator' | 'xterm' {
    return this.term ? 'xterm' : this.mini ? 'line-emulator' : 'lines';
  }

  async write(text: string): Promise<string> {
    this.fullScreen.see(text);
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
    return this.term.feed(text);
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
        // A last line of sequences only (a colour reset, a shell's end-of-command marker) shows nothing:
        // the cursor waits on an empty row, which the emulators do not emit either.
        const rest = this.window + (shown === '' ? '' : shown + '\n');
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
    const term = this.term!;
    if (held !== '') flushed += await term.feed(held);
    const out = flushed + term.end();
    this.term = undefined;
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
    this.term = new XtermScreen(this.cols, this.rows, this.unicodeVersion);
    const replay = this.window.replace(/\n/g, '\r\n') + this.partial;
    this.window = '';
    this.partial = '';
    return this.term.feed(replay + this.alt.filter(rest));
  }
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
