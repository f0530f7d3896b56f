// A small terminal emulator for the redraws most tools use (docker, npm, pip, cargo progress): ASCII
// text, CR, LF, tab, cursor up/down/left/right/column, erase in line, colours. It keeps only the
// screen (at most `rows` lines) and emits lines as they scroll off, like the full emulator, at several
// times its speed. Anything else (wide characters, wrapping, other sequences) makes it hand over: it
// returns a replay that puts a real emulator in the same state (lines + cursor position).

const PRINTABLE = /[\x20-\x7e]+/y;
const CSI = /\x1b\[([0-9]*)(?:;[0-9]*)*([A-Za-z])/y;
const CSI_PARAMS = /\x1b\[([0-9;]*)([A-Za-z])/y;
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/y;
const INCOMPLETE = /^\x1b(?:\[[0-9;]*|\][^\x07\x1b]*|\]?[^\x07\x1b]*\x1b)?$/;

/** What a `write` produced: finished lines, or a hand-over to the full emulator. */
export interface LineEmulatorResult {
  out: string;
  /** Set when the emulator gave up: feed this to a fresh full emulator (it replays the screen). */
  handOver?: string;
}

// Internally a never-written cell is NUL: like xterm, trailing blank cells are trimmed but trailing
// spaces that were printed are kept.
const BLANK = '\0';
const shown = (s: string): string => s.replace(/\0+$/, '').replace(/\0/g, ' ');

export class LineEmulator {
  private readonly lines: string[];
  private row: number;
  private col = 0;
  private pending = '';

  /** Starts below `seed` (complete lines already shown), like a terminal after printing them. */
  constructor(
    private readonly cols: number,
    private readonly rows: number,
    seed: string[] = [],
  ) {
    // The caller passes at most rows - 1 lines (it emits older ones itself).
    this.lines = [...seed.slice(-(rows - 1)), ''];
    this.row = this.lines.length - 1;
  }

  write(input: string): LineEmulatorResult {
    const text = this.pending + input;
    this.pending = '';
    let out = '';
    let i = 0;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c >= 0x20 && c <= 0x7e) {
        PRINTABLE.lastIndex = i;
        const run = PRINTABLE.exec(text)![0];
        // Never fill the last column: a terminal's pending-wrap state there is xterm's business.
        if (this.col + run.length >= this.cols) return this.handOver(out, text.slice(i));
        const line = this.lines[this.row]!.padEnd(this.col, BLANK);
        this.lines[this.row] = line.slice(0, this.col) + run + line.slice(this.col + run.length);
        this.col += run.length;
        i += run.length;
        continue;
      }
      if (c === 13) {
        this.col = 0;
      } else if (c === 10) {
        out += this.lineFeed();
      } else if (c === 9) {
        this.col = Math.min(this.cols - 1, (Math.floor(this.col / 8) + 1) * 8);
      } else if (c === 27) {
        const rest = text.slice(i);
        OSC.lastIndex = i;
        const osc = OSC.exec(text);
        if (osc) {
          i += osc[0].length;
          continue;
        }
        CSI_PARAMS.lastIndex = i;
        const full = CSI_PARAMS.exec(text);
        if (!full) {
          if (INCOMPLETE.test(rest) && rest.length < 4096) {
            this.pending = rest;
            return { out };
          }
          return this.handOver(out, rest);
        }
        CSI.lastIndex = i;
        const csi = CSI.exec(text);
        if (!csi || !this.csi(csi[2]!, csi[1] === '' ? undefined : Number(csi[1]), full[1]!))
          return this.handOver(out, rest);
        i += full[0].length;
        continue;
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

  /** Applies one CSI sequence; false when it is not one this emulator handles. */
  private csi(final: string, n: number | undefined, params: string): boolean {
    if (final === 'm') return true;
    if (params.includes(';')) return false;
    const count = Math.max(1, n ?? 1);
    switch (final) {
      case 'A':
        this.row = Math.max(0, this.row - count);
        return true;
      case 'B':
        this.row = Math.min(this.rows - 1, this.row + count);
        while (this.lines.length <= this.row) this.lines.push('');
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
      case 'K': {
        const line = this.lines[this.row]!;
        if (n === undefined || n === 0) this.lines[this.row] = line.slice(0, this.col);
        else if (n === 1) this.lines[this.row] = BLANK.repeat(this.col + 1) + line.slice(this.col + 1);
        else if (n === 2) this.lines[this.row] = '';
        else return false;
        return true;
      }
      default:
        return false;
    }
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
    const lines = this.lines.map((l) => l.replace(/\0+$/, '').replace(/\0+/g, (b) => `\x1b[${b.length}C`));
    const replay = lines.join('\r\n') + `\x1b[${this.row + 1};${this.col + 1}H`;
    return { out, handOver: replay + rest };
  }
}
