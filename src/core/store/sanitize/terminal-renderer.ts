// Renders raw terminal output into the text a person saw, with bounded memory.
//
// Two paths: lines that only carry colours (SGR) and OSC markers take a fast path (sequences stripped,
// no emulation). The first cursor movement, bare carriage return or other control sequence switches the
// rest of the command to a real terminal emulator (@xterm/headless), which first replays the last
// screenful of fast-path lines so cursor-up redraws can still reach them. Rows are emitted once they
// scroll off the emulated screen (nothing can change them any more) and the scrollback is cleared
// regularly, so a stream of `\r` progress updates or a huge output never grows memory.
import { Terminal } from '@xterm/headless';

const SGR_OR_OSC = /\x1b\[[0-9;:]*m|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
const NOT_SIMPLE = /[\x00-\x08\x0b-\x1f\x7f]/;
/** Rows one write to the emulator may scroll at most (bounds the scrollback it needs). */
const ROW_BUDGET = 4096;
/** Largest piece handed to the emulator at once. */
const MAX_PIECE = 1 << 20;
/** Text queued in emulator mode before it is written (each emulator write costs a timer tick). */
const QUEUE = 64 * 1024;
/** Scrollback rows kept before they are emitted and cleared (must exceed CLEAR_AT + ROW_BUDGET + rows). */
const SCROLLBACK = 16384;
const CLEAR_AT = 8192;
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
  private term: Terminal | undefined;
  private emitted = 0;
  private partial = '';
  /** The last screenful of fast-path lines, kept for a switch to emulation. */
  private window: string[] = [];
  private queued = '';

  constructor(options: TerminalRendererOptions = {}) {
    this.cols = Math.max(20, options.cols ?? 200);
    this.rows = Math.max(2, options.rows ?? 50);
  }

  /** True once this command needed the emulator. */
  get emulating(): boolean {
    return this.term !== undefined;
  }

  async write(text: string): Promise<string> {
    if (this.term) {
      this.queued += text;
      return this.queued.length >= QUEUE ? this.flush() : '';
    }
    const s = this.partial + text;
    const lastNl = s.lastIndexOf('\n');
    if (lastNl === -1) {
      this.partial = s;
      return this.partial.length > MAX_PENDING ? this.switchToEmulator('') : '';
    }
    let out = '';
    let start = 0;
    while (start <= lastNl) {
      const nl = s.indexOf('\n', start);
      const raw = s.slice(start, nl);
      const body = (raw.endsWith('\r') ? raw.slice(0, -1) : raw).replace(SGR_OR_OSC, '');
      if (NOT_SIMPLE.test(body)) {
        this.partial = '';
        return out + (await this.switchToEmulator(s.slice(start)));
      }
      this.window.push(body + '\n');
      if (this.window.length > this.rows) out += this.window.shift();
      start = nl + 1;
    }
    this.partial = s.slice(lastNl + 1);
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
    const flushed = await this.flush();
    if (!this.term) {
      const rest = this.window.join('') + (this.partial === '' ? '' : this.partial.replace(SGR_OR_OSC, '') + '\n');
      this.window = [];
      this.partial = '';
      return rest;
    }
    const term = this.term;
    const b = term.buffer.active;
    let last = b.baseY + b.cursorY;
    if (b.cursorX === 0 && (b.getLine(last)?.translateToString(true) ?? '') === '') last--;
    const out = flushed + this.harvest(last + 1, true);
    term.dispose();
    this.term = undefined;
    this.emitted = 0;
    return out;
  }

  private async switchToEmulator(rest: string): Promise<string> {
    this.term = new Terminal({
      cols: this.cols,
      rows: this.rows,
      scrollback: SCROLLBACK,
      allowProposedApi: true,
      convertEol: true,
    });
    const replay = this.window.map((l) => l.slice(0, -1) + '\r\n').join('') + this.partial;
    this.window = [];
    this.partial = '';
    return this.feed(replay + rest);
  }

  private async feed(text: string): Promise<string> {
    const term = this.term!;
    let out = '';
    for (let i = 0; i < text.length;) {
      const end = this.pieceEnd(text, i);
      await new Promise<void>((resolve) => term.write(text.slice(i, end), resolve));
      i = end;
      const b = term.buffer.active;
      out += this.harvest(b.baseY, false);
      if (b.baseY > CLEAR_AT) {
        // Emit the visible rows above the cursor, then drop everything but the cursor row.
        out += this.harvest(b.baseY + b.cursorY, false);
        term.clear();
        await new Promise<void>((resolve) => term.write('', resolve));
        this.emitted = 0;
      }
    }
    return out;
  }

  /**
   * End of the next piece starting at `start`: at most ROW_BUDGET rows can scroll while it is parsed
   * (every LF, VT, FF or escape may scroll one row, and wrapping one per `cols` characters).
   */
  private pieceEnd(text: string, start: number): number {
    let rows = 0;
    const limit = Math.min(text.length, start + MAX_PIECE);
    for (let i = start; i < limit; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 11 || c === 12 || c === 27) rows++;
      if ((i - start) % this.cols === 0) rows++;
      if (rows >= ROW_BUDGET) return i + 1;
    }
    return limit;
  }

  /** Emits rows [emitted, upTo): a row followed by a wrapped continuation gets no newline. */
  private harvest(upTo: number, final: boolean): string {
    const b = this.term!.buffer.active;
    let out = '';
    for (let i = this.emitted; i < upTo; i++) {
      const line = b.getLine(i);
      const next = b.getLine(i + 1);
      const continued = next?.isWrapped === true && (i + 1 < upTo || !final);
      out += (line?.translateToString(!continued) ?? '') + (continued ? '' : '\n');
    }
    this.emitted = Math.max(this.emitted, upTo);
    return out;
  }
}
