// Stripping terminal sequences from plain tool output (terminal logs are rendered with xterm instead).
// Streaming-safe: a sequence cut by a chunk boundary is held back until the next chunk completes it.

// CSI, OSC (BEL or ST terminated), DCS/SOS/PM/APC strings, charset selections, other two-byte escapes.
const SEQUENCE =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[()*+#%][ -~]|\x1b[ -~]|\x9b[0-?]*[ -/]*[@-~]/g;
// C0 controls a person never sees as text (tab, newline and carriage return are handled separately).
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;
// An escape sequence that has started but not ended at the end of the chunk.
const INCOMPLETE_TAIL = /\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|[PX^_][^\x1b]*|[()*+#%])?$/;

const C1 = /[\x80-\x9f]/g;

/**
 * C1 controls (U+0080-U+009F) as their 7-bit escapes (`U+009D` is `ESC ]`, OSC; `U+009B` is `ESC [`,
 * CSI; NEL a newline). A terminal reading UTF-8 (xterm.js, so VS Code's) acts on them as on the escapes: without this
 * they were stored as they came, an OSC 52 that writes the clipboard included, and a colour code in
 * the middle of a token kept the secret from being recognised. Position for position, so streaming-safe.
 */
export function sevenBitControls(text: string): string {
  C1.lastIndex = 0;
  if (!C1.test(text)) return text;
  // NEL (U+0085) ends a line, as a terminal shows it.
  return text.replace(C1, (c) => (c === '\x85' ? '\n' : `\x1b${String.fromCharCode(c.charCodeAt(0) - 0x40)}`));
}

/** Removes every escape sequence and invisible control character from complete text. */
export function stripAnsi(text: string): string {
  return text.replace(SEQUENCE, '').replace(CONTROL, '');
}

/** What a line shows after carriage returns: each `\r` (not part of `\r\n`) restarts the line. */
export function collapseCarriageReturns(line: string): string {
  const body = line.endsWith('\r') ? line.slice(0, -1) : line;
  const i = body.lastIndexOf('\r');
  return i === -1 ? body : body.slice(i + 1);
}

/**
 * Streaming stripper for plain tool output: feed decoded text, get back complete lines with escape
 * sequences removed and carriage-return progress collapsed to its last state. Holds at most one
 * partial line (capped: a line longer than `maxLine` is passed through as it grows).
 */
export class AnsiStripper {
  private pending = '';
  constructor(private readonly maxLine = 1 << 20) {}

  /** Returns the complete lines (each ending with `\n`) that this text finished. */
  write(text: string): string {
    let s = this.pending + text;
    this.pending = '';
    const tail = INCOMPLETE_TAIL.exec(s);
    if (tail && tail[0].length < 4096) {
      this.pending = tail[0];
      s = s.slice(0, tail.index);
    }
    const lastNl = s.lastIndexOf('\n');
    if (lastNl === -1 && s.length < this.maxLine) {
      // A progress bar that never prints a newline: only the state after the last `\r` matters.
      const cr = s.lastIndexOf('\r', s.length - 2);
      this.pending = (cr === -1 ? s : s.slice(cr + 1)) + this.pending;
      return '';
    }
    const cut = lastNl === -1 ? s.length : lastNl + 1;
    this.pending = s.slice(cut) + this.pending;
    return this.render(s.slice(0, cut));
  }

  /** Returns whatever is left (a last line without newline), rendered. */
  end(): string {
    const s = this.pending;
    this.pending = '';
    return s === '' ? '' : this.render(s);
  }

  private render(s: string): string {
    const stripped = stripAnsi(s);
    if (!stripped.includes('\r')) return stripped;
    return stripped
      .split('\n')
      .map((l) => collapseCarriageReturns(l))
      .join('\n');
  }
}
