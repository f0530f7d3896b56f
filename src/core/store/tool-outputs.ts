// Long tool outputs go to files; the agent gets a head and tail preview plus one line naming the file.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { Tokenizer } from '../messages';
import { systemClock, type Clock } from '../ports';
import type { LongOutputMeta, LongOutputPort } from '../agent/long-output';
import type { ContextStore } from './context-store';
import { StoreWriteError } from './errors';
import { addToIndex } from './output-index';
import type { SanitizeStats } from './sanitize/pipeline';
import { wholeOutputRedactor } from './sanitize/printed-secrets';
import { sanitizingStream, type RedactedText, type StoreStreamFile } from './store-writer';

export interface ToolOutputOptions {
  /** Outputs longer than this (characters after sanitizing) are stored in a file. Default 8 KB. */
  thresholdChars?: number;
  /** Preview: at most this many lines / characters from the start and from the end. */
  headLines?: number;
  tailLines?: number;
  previewChars?: number;
  /** Tokens are counted exactly on the first this-many characters, then extrapolated. Default 4 M. */
  exactTokenChars?: number;
  /** Time source for the index entries. */
  clock?: Clock;
}

export interface ToolOutputInput {
  session: string;
  turn: number;
  tool: string;
  /** The raw output: text, bytes, or a stream of chunks (never held in memory as a whole). */
  output: string | Uint8Array | AsyncIterable<string | Uint8Array>;
  signal?: AbortSignal;
  /** The output is a secret as a whole (a command that prints one): every line is redacted. */
  secretOutput?: boolean;
  /** A short output gets a file too (its content stays whole): masking it later names where it is. */
  keep?: boolean;
}

export interface ToolOutputResult {
  /** What the agent gets: the whole sanitized output, or head + tail + the `Full output` line. */
  content: string;
  /** Absolute path of the stored file (when the output was over the threshold, or kept). */
  storedAt?: string;
  /** Workspace-relative path (the one in the `Full output` line and in `Message.storedAt`). */
  display?: string;
  lines: number;
  tokens: number;
  /** False when tokens past `exactTokenChars` were extrapolated (shown as `~T`). */
  tokensExact: boolean;
  stats: SanitizeStats;
}

const DEFAULTS: Required<ToolOutputOptions> = {
  clock: systemClock,
  thresholdChars: 8 * 1024,
  headLines: 40,
  tailLines: 40,
  previewChars: 3000,
  exactTokenChars: 4 * 1024 * 1024,
};

/** The one line that tells the agent where the full output is. */
export function fullOutputLine(lines: number, tokens: string | number, display: string): string {
  return `Full output (${lines} lines, ${tokens} tokens): ${display} - read, tail or grep it`;
}

/**
 * Reads the `Full output` line back from a preview, e.g. for a label of the full size. Only a preview's
 * own last line counts: the same words inside the output itself are not ours.
 */
export function parseFullOutputLine(text: string): { lines: number; tokens: string; display: string } | undefined {
  const m = /(?:^|\n)Full output \((\d+) lines, (~?\d+) tokens\): ([^\n]+) - read, tail or grep it$/.exec(text);
  return m ? { lines: Number(m[1]), tokens: m[2]!, display: m[3]! } : undefined;
}

async function* chunksOf(output: ToolOutputInput['output']): AsyncIterable<string | Uint8Array> {
  if (typeof output === 'string' || output instanceof Uint8Array) yield output;
  else yield* output;
}

/**
 * Writes tool outputs through the sanitizing pipeline; long ones into `tool-outputs/<session>/`.
 * Implements the agent's `LongOutputPort`, so the agent session can use it directly.
 */
export class ToolOutputStore implements LongOutputPort {
  private readonly o: Required<ToolOutputOptions>;
  constructor(
    private readonly contextStore: ContextStore,
    private readonly tokenizer: Tokenizer,
    options: ToolOutputOptions = {},
  ) {
    this.o = { ...DEFAULTS, ...options };
  }

  /** `LongOutputPort`: the text the model sees and, when stored, the workspace-relative path. */
  async store(output: string, meta: LongOutputMeta): Promise<{ text: string; storedAt?: string }> {
    const r = await this.save({ ...meta, output });
    return r.display === undefined ? { text: r.content } : { text: r.content, storedAt: r.display };
  }

  /** `LongOutputPort`: the same for output streamed in chunks (a running command). */
  async storeStream(
    chunks: AsyncIterable<string | Uint8Array>,
    meta: LongOutputMeta,
  ): Promise<{ text: string; storedAt?: string }> {
    const r = await this.save({ ...meta, output: chunks });
    return r.display === undefined ? { text: r.content } : { text: r.content, storedAt: r.display };
  }

  /** Sanitizes and (when long) stores one tool output. Memory stays bounded for any output size. */
  async save(input: ToolOutputInput): Promise<ToolOutputResult> {
    const o = this.o;
    let inline = '';
    /** The sanitized chunks that make up `inline`, written as they are once the output goes to a file. */
    let held: RedactedText[] = [];
    let file: StoreStreamFile | undefined;
    let partialPath = '';
    let head = '';
    let headLines = 0;
    let tail = '';
    let lines = 0;
    let chars = 0;
    let lastChar = '';
    let counted = 0;
    /** The first exactTokenChars characters (at most 4 M by default), counted in one go at the end. */
    let toCount = '';

    const sink = async (clean: RedactedText): Promise<void> => {
      const text = clean.value;
      chars += text.length;
      lastChar = text[text.length - 1] ?? lastChar;
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
      // Counted whole at the end: a count per batch is off where a batch ends inside a run of
      // newlines or a word (tiktoken would join them), and this count is shown as exact.
      if (counted < o.exactTokenChars) {
        const part = text.slice(0, o.exactTokenChars - counted);
        toCount += part;
        counted += part.length;
      }
      if (headLines < o.headLines && head.length < o.previewChars) {
        head += text.slice(0, o.previewChars - head.length);
        headLines = head.split('\n').length - 1;
      }
      tail = (tail + text).slice(-o.previewChars);
      if (!file) {
        inline += text;
        held.push(clean);
        if (inline.length <= o.thresholdChars) return;
        const final = await this.freePath(input);
        partialPath = `${final}.partial`;
        file = await this.contextStore.writer.createStream(partialPath);
        const chunks = held;
        inline = '';
        held = [];
        for (const c of chunks) await file.write(c);
        return;
      }
      await file.write(clean);
    };

    const stream = sanitizingStream(
      sink,
      { ansi: 'strip', batchChars: 256 * 1024 },
      input.secretOutput ? wholeOutputRedactor() : undefined,
    );
    try {
      for await (const chunk of chunksOf(input.output)) {
        input.signal?.throwIfAborted();
        await stream.push(chunk);
      }
      await stream.end();
    } catch (e) {
      await file?.discard();
      throw e;
    }
    if (lastChar !== '' && lastChar !== '\n') lines++;
    let tokens = this.tokenizer.count(toCount);
    toCount = '';
    const tokensExact = counted >= chars;
    if (!tokensExact && counted > 0) tokens = Math.round((tokens / counted) * chars);
    const base = { lines, tokens, tokensExact, stats: stream.stats };
    // A short output the model sees whole; kept, it is also written, so a mask of it stays reversible.
    const whole = !file;
    if (whole && (!input.keep || chars === 0)) return { ...base, content: inline };
    if (!file) {
      partialPath = `${await this.freePath(input)}.partial`;
      file = await this.contextStore.writer.createStream(partialPath);
      try {
        for (const c of held) await file.write(c);
      } catch (e) {
        await file.discard();
        throw e;
      }
    }

    const final = partialPath.slice(0, -'.partial'.length);
    try {
      await file.commit(final);
    } catch (e) {
      await file.discard();
      throw new StoreWriteError(final, `Could not store the tool output at ${final}: ${(e as Error).message}`, {
        cause: e,
      });
    }
    const display = this.contextStore.displayPath(final);
    const firstLine = (head.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 200);
    await addToIndex(this.contextStore, input.session, {
      turn: input.turn,
      tool: input.tool,
      display,
      file: path.basename(final),
      bytes: (await fsp.stat(final)).size,
      lines,
      tokens,
      tokensExact,
      firstLine,
      storedAt: new Date(this.o.clock.now()).toISOString(),
    });
    return {
      ...base,
      storedAt: final,
      display,
      content: whole ? inline : this.preview(head, tail, lines, tokensExact ? tokens : `~${tokens}`, display),
    };
  }

  private preview(head: string, tail: string, lines: number, tokens: string | number, display: string): string {
    const o = this.o;
    const headPart = head.split('\n').slice(0, o.headLines);
    if (headPart.length > 1) headPart.pop(); // the last piece may be a cut line
    const tailPart = tail.replace(/\n$/, '').split('\n').slice(-o.tailLines);
    if (tailPart.length > 1 && tail.length >= o.previewChars) tailPart.shift(); // may start mid-line
    const omitted = Math.max(0, lines - headPart.length - tailPart.length);
    return [
      ...headPart,
      `[... ${omitted} lines omitted ...]`,
      ...tailPart,
      fullOutputLine(lines, tokens, display),
    ].join('\n');
  }

  /** `<turn>-<tool>.txt`, or `-2`, `-3`... when that turn already stored an output of that tool. */
  private async freePath(input: ToolOutputInput): Promise<string> {
    const first = this.contextStore.toolOutputPath(input.session, input.turn, input.tool);
    for (let n = 1; ; n++) {
      const p = n === 1 ? first : first.replace(/\.txt$/, `-${n}.txt`);
      const taken = await Promise.all(
        [fsp.access(p), fsp.access(`${p}.partial`)].map((x) =>
          x.then(
            () => true,
            () => false,
          ),
        ),
      );
      if (!taken.some(Boolean)) return p;
    }
  }
}
