// The one sanitizing pipeline every writer uses before anything reaches disk:
// bytes -> binary check -> UTF-8 decode (invalid bytes replaced) -> ANSI rendered or stripped ->
// secrets redacted -> sink. Streaming: memory stays bounded whatever the size of the output.
import { AnsiStripper, sevenBitControls } from './ansi';
import { BINARY_SNIFF_BYTES, binaryNote, looksBinary } from './binary';
import { openCsvHeader } from './rules/csv-columns';
import { OpenAttributes } from './rules/terraform-state-open';
import { keyLinesEndBefore, openKey } from './open-keys';
import { addCounts, redactSecrets, type RedactionCounts, type RedactionResult } from './secrets';
import {
  HELD_LINES,
  MAX_HELD_KEY,
  MAX_HELD_LINES_CHARS,
  MAX_HELD_SECRET_BLOCK,
  MAX_HELD_STATE,
  holdBack,
  lastLines,
  LONG_LINE_WINDOW,
} from './held-back';
import { OverwrittenSecrets } from './overwritten';
import { TerminalRenderer, type TerminalRendererOptions } from './terminal-renderer';

/** How terminal sequences are treated: rendered like a terminal shows them, or stripped. */
export type AnsiMode = 'render' | 'strip';

export interface SanitizeOptions {
  ansi: AnsiMode;
  /** Size of the batches that go through secret redaction (whole lines). Default 256 KB. */
  batchChars?: number;
  /** Terminal size for `render` mode. */
  terminal?: TerminalRendererOptions;
  /**
   * A line longer than this (characters, no newline yet) is written in parts: all but the last
   * `LONG_LINE_WINDOW` characters, cut where no secret straddles the cut. Default 1 MiB.
   */
  longLineChars?: number;
  /** The redaction step (default `redactSecrets`); benchmarks compare engines through it. */
  redact?: (text: string) => Promise<RedactionResult>;
}

/** What the pipeline did to one output. */
export interface SanitizeStats {
  bytesIn: number;
  /** Stored as `[binary output: N bytes, not stored]` instead of text. */
  binary: boolean;
  /** Number of U+FFFD replacement characters in the decoded text (invalid UTF-8, or ones already there). */
  replacementChars: number;
  /** Secrets redacted, by kind. */
  redactions: RedactionCounts;
  /** Characters handed to the sink. */
  charsOut: number;
  /** Characters read to decide what to hold back (held text read again counts again): linear in the input. */
  charsRead: number;
  /** Newlines handed to the sink. */
  linesOut: number;
  /** Full-screen sessions (less, vim, a pager) that ended: nothing they drew is in the text (render mode). */
  fullScreenSessions: number;
}

/**
 * Text held back at least this long (a key, a state's instance, a Secret's block, a long line) is read
 * again only once it has grown by a quarter, on a quiet flush or at the end: read again at every flush,
 * a stream in small pieces would cost the square of its size (measured: 247 KB in 100-byte pieces, 5 s).
 */
const RESCAN_HELD_FROM = 32 * 1024;

/**
 * Streaming sanitizer. `push` raw chunks (bytes or text) as they arrive, `flush` to force what is
 * complete out to the sink (e.g. at the end of a command), `end` once. The sink receives only
 * sanitized text, in order; it is awaited, so a slow disk slows the producer instead of filling memory.
 */
export class SanitizingStream {
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private readonly renderer: {
    write(t: string): string | Promise<string>;
    flush?(): Promise<string>;
    end(): string | Promise<string>;
  };
  private readonly batchChars: number;
  private readonly longLineChars: number;
  private readonly redact: (text: string) => Promise<RedactionResult>;
  /** Rendering only: secrets whose start later text covered after a movement of the cursor back (CR, BS, CSI G / D, a restore). */
  private readonly overwritten: OverwrittenSecrets | undefined;
  /** The header of a table with a secret column whose rows may go on in the next batch. */
  private tableHeader = '';
  /** The last whole lines sent (before redaction), which the next batch is read below. */
  private recent = '';
  private sniff: Uint8Array[] | undefined = [];
  private sniffed = 0;
  private batch = '';
  private held = '';
  /** Length of `held` when it was last read (see RESCAN_HELD_FROM). */
  private heldRead = 0;
  private readonly openAttributes = new OpenAttributes();
  /** Text arrived since the last `flush`: a quiet stream's held lines go out on the next one. */
  private arrived = false;
  private lastYield = performance.now();
  readonly stats: SanitizeStats = {
    bytesIn: 0,
    binary: false,
    replacementChars: 0,
    fullScreenSessions: 0,
    redactions: {},
    charsOut: 0,
    charsRead: 0,
    linesOut: 0,
  };

  constructor(
    private readonly sink: (text: string) => Promise<void>,
    options: SanitizeOptions,
  ) {
    this.renderer = options.ansi === 'render' ? new TerminalRenderer(options.terminal) : new AnsiStripper();
    this.overwritten = options.ansi === 'render' ? new OverwrittenSecrets() : undefined;
    this.batchChars = options.batchChars ?? 256 * 1024;
    this.longLineChars = Math.max(LONG_LINE_WINDOW * 2, options.longLineChars ?? 1 << 20);
    this.redact = options.redact ?? redactSecrets;
  }

  async push(chunk: Uint8Array | string): Promise<void> {
    // A producer that is always ready (a backlog, a synchronous generator) would otherwise keep the
    // whole chain in microtasks: give the event loop a turn at least every 10 ms.
    if (performance.now() - this.lastYield > 10) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.lastYield = performance.now();
    }
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.stats.bytesIn += bytes.length;
    if (this.stats.binary) return;
    if (this.sniff) {
      // Decide text or binary on the first 8 KB before passing anything on.
      this.sniff.push(bytes);
      this.sniffed += bytes.length;
      if (this.sniffed < BINARY_SNIFF_BYTES) return;
      await this.decide();
      return;
    }
    await this.text(this.decoder.decode(bytes, { stream: true }));
  }

  /**
   * Sends the complete, redacted lines to the sink now, but for the last few while output is still
   * arriving (see `holdBack`); on a flush with nothing new since the last, all of them. A held private
   * key stays held.
   */
  async flush(): Promise<void> {
    if (this.sniff && this.sniffed > 0) await this.decide();
    if (this.renderer.flush) this.batch += await this.renderer.flush();
    const quiet = !this.arrived;
    this.arrived = false;
    await this.drain(false, quiet);
  }

  /** Finishes the stream: the last partial line, the binary note if it was binary. Returns the stats. */
  async end(): Promise<SanitizeStats> {
    if (this.sniff) await this.decide();
    if (this.stats.binary) {
      await this.emit(binaryNote(this.stats.bytesIn) + '\n');
      return this.stats;
    }
    await this.text(this.decoder.decode());
    this.batch += await this.renderer.end();
    await this.drain(true);
    if (this.renderer instanceof TerminalRenderer) this.stats.fullScreenSessions = this.renderer.fullScreen.ended;
    return this.stats;
  }

  private async decide(): Promise<void> {
    const all = Buffer.concat(this.sniff ?? []);
    this.sniff = undefined;
    if (looksBinary(all)) {
      this.stats.binary = true;
      return;
    }
    await this.text(this.decoder.decode(all, { stream: true }));
  }

  private async text(utf8: string): Promise<void> {
    if (utf8 === '') return;
    const decoded = sevenBitControls(utf8);
    this.arrived = true;
    for (let i = decoded.indexOf('\uFFFD'); i !== -1; i = decoded.indexOf('\uFFFD', i + 1))
      this.stats.replacementChars++;
    this.overwritten?.note(decoded);
    this.batch += await this.renderer.write(decoded);
    if (this.batch.length >= this.batchChars) await this.drain(false);
  }

  private async drain(final: boolean, quiet = false): Promise<void> {
    if (!final && !quiet && this.readHeldLater()) {
      this.held += this.batch;
      this.batch = '';
      return;
    }
    let text = this.held + this.batch;
    this.held = '';
    this.batch = '';
    if (text === '') return;
    this.stats.charsRead += text.length;
    let unterminated = '';
    if (!final) {
      const kept = holdBack(text, openKey(text), quiet ? 0 : HELD_LINES, this.recent, this.longLineChars);
      this.held = kept.held;
      text = kept.out;
      // A cut through a block (its END among the lines held back) leaves it open in what goes out.
      const cut = openKey(text);
      if (cut !== -1 && this.held !== '' && text.length - cut <= MAX_HELD_KEY) {
        this.held = text.slice(cut) + this.held;
        text = text.slice(0, cut);
      } else if (cut !== -1 && !keyLinesEndBefore(text, cut)) {
        // Held as long as a key may be and its lines still run to the end: redact from BEGIN on.
        text = text.slice(0, cut);
        unterminated = '[REDACTED:private-key]\n';
        addCounts(this.stats.redactions, { 'private-key': 1 });
      }
      this.heldRead = this.held.length;
      if (text === '' && unterminated === '') return;
    }
    // A Terraform attributes object going out before what marks its secrets: its strings are redacted.
    const attributes = this.openAttributes.redact(text, final);
    if (attributes.count > 0) addCounts(this.stats.redactions, { 'terraform-sensitive': attributes.count });
    text = attributes.text;
    // A key that never got its END is cut short: the rules redact its BEGIN line and key lines only.
    if (text !== '' && this.overwritten) {
      const s = this.overwritten.scrub(text);
      addCounts(this.stats.redactions, s.counts);
      text = s.text;
    }
    if (text !== '') {
      // Read below what was sent just before (a name released with its value still held, when more
      // lines name secrets than are held back) and below an open table's header (rows of a secret
      // column in an earlier batch).
      const header = this.tableHeader;
      const above = header === '' || this.recent.includes(header) ? this.recent : `${header}\n${this.recent}`;
      const r = await this.redactBelow(above, text);
      addCounts(this.stats.redactions, r.counts);
      this.tableHeader = final ? '' : openCsvHeader(above + text);
      this.recent = final ? '' : lastLines(this.recent + text, HELD_LINES, MAX_HELD_LINES_CHARS);
      text = r.text;
    }
    await this.emit(text + unterminated);
  }

  /**
   * Whether held text is left unread this time: long, grown by less than a quarter since last read, and
   * past none of the bounds on what is held (each bound applies at the length it says).
   */
  private readHeldLater(): boolean {
    const read = this.heldRead;
    const grown = this.held.length + this.batch.length;
    if (read < RESCAN_HELD_FROM || grown >= read + read / 4) return false;
    const bounds = [MAX_HELD_KEY, MAX_HELD_STATE, MAX_HELD_SECRET_BLOCK, this.longLineChars];
    return !bounds.some((b) => read <= b && b < grown);
  }

  /**
   * `text` redacted as it reads below `above` (already sent): what the rules find in `text` with
   * `above` as its context. A secret straddling the two (never expected: whole lines go out) falls back
   * to `text` alone.
   */
  private async redactBelow(above: string, text: string): Promise<RedactionResult> {
    if (above === '') return this.redact(text);
    const alone = await this.redact(above);
    const both = await this.redact(above + text);
    if (!both.text.startsWith(alone.text)) return this.redact(text);
    const counts = { ...both.counts };
    for (const [k, n] of Object.entries(alone.counts)) counts[k] = Math.max(0, (counts[k] ?? 0) - n);
    for (const k of Object.keys(counts)) if (counts[k] === 0) delete counts[k];
    return { text: both.text.slice(alone.text.length), counts };
  }

  private async emit(text: string): Promise<void> {
    if (text === '') return;
    this.stats.charsOut += text.length;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.stats.linesOut++;
    await this.sink(text);
  }
}

/** One-shot sanitizing of a complete output (small tool outputs, history messages). */
export async function sanitizeText(
  input: Uint8Array | string,
  options: SanitizeOptions,
): Promise<{ text: string; stats: SanitizeStats }> {
  let text = '';
  const s = new SanitizingStream(async (t) => {
    text += t;
  }, options);
  await s.push(input);
  const stats = await s.end();
  return { text, stats };
}
