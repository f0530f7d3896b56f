// One tiktoken encoding per name for the whole process, shared by every tokenizer that uses it and
// freed as soon as none holds it. Measured (README, Performance): each `get_encoding('o200k_base')`
// adds ~22 MB more to the WASM memory, and a WASM memory never shrinks; so sessions must share one
// encoding, and once no encoding is held, the whole WASM generation (memory included) is dropped.
import { PieceCounter } from './bpe';
import { loadTiktokenGeneration, type TiktokenBindings } from './wasm';

export type EncodingName = 'o200k' | 'cl100k';

type Encoding = ReturnType<TiktokenBindings['get_encoding']>;

/** A hold on an encoding: count with it, release it once (further releases do nothing). */
export interface EncodingLease {
  readonly name: EncodingName;
  /** Tokens of `text`, special tokens such as <|endoftext|> counted as plain text. */
  count(text: string): number;
  release(): void;
}

interface Slot {
  encoding: Encoding;
  leases: number;
  /** The exact counter for text with long runs (bpe.ts), loaded on the first such text. */
  pieces?: PieceCounter;
}

let generation: TiktokenBindings | undefined;
const slots = new Map<EncodingName, Slot>();

const TIKTOKEN_NAMES: Record<EncodingName, 'o200k_base' | 'cl100k_base'> = {
  o200k: 'o200k_base',
  cl100k: 'cl100k_base',
};

export function acquireEncoding(name: EncodingName): EncodingLease {
  let slot = slots.get(name);
  if (!slot) {
    generation ??= loadTiktokenGeneration();
    slot = { encoding: generation.get_encoding(TIKTOKEN_NAMES[name]), leases: 0 };
    slots.set(name, slot);
  }
  slot.leases++;
  const held = slot;
  let released = false;
  return {
    name,
    // encode_ordinary: special tokens in tool output are plain text, never honoured.
    count: (text) => {
      if (released) throw new Error(`the ${name} encoding was released`);
      if (splitLongRuns(text).length === 1) return held.encoding.encode_ordinary(text).length;
      held.pieces ??= new PieceCounter(name);
      return held.pieces.count(text);
    },
    release: () => {
      if (released) return;
      released = true;
      if (--held.leases > 0) return;
      held.encoding.free();
      slots.delete(name);
      if (slots.size === 0) generation = undefined;
    },
  };
}

/**
 * Longest run of blanks, of letters or of signs left to tiktoken. tiktoken's byte-pair merge is
 * quadratic in a piece, and such a run is one piece: 80 KB of `=` or of newlines took 6 s, 200 KB 36 s,
 * on the extension host's thread, and cutting runs into parts of 2000 still cost 7-10 s a MB and changed
 * the count. Text with a longer run is counted by bpe.ts, exactly and in O(n log n); a run of this
 * length costs tiktoken well under a millisecond.
 */
export const MAX_RUN = 256;

const MAYBE_LONG_RUN = new RegExp(String.raw`(?<!\S)\S{${MAX_RUN + 1}}|(?<!\s)\s{${MAX_RUN + 1}}`);

/** What a character counts as for runs: blank, letter (or mark), sign, or none (digits: never a run). */
const enum Kind {
  None,
  Blank,
  Letter,
  Sign,
}
const BLANK = /^\s$/u;
const LETTER = /^[\p{L}\p{M}]$/u;
const DIGIT = /^\p{N}$/u;

function kindOf(char: string): Kind {
  if (BLANK.test(char)) return Kind.Blank;
  if (LETTER.test(char)) return Kind.Letter;
  return DIGIT.test(char) ? Kind.None : Kind.Sign;
}

const ASCII_KINDS = Array.from({ length: 128 }, (_, c) => kindOf(String.fromCharCode(c)));

/**
 * The text cut inside its runs longer than MAX_RUN, every MAX_RUN characters; whole when it has none.
 * A plain scan, not a regular expression: a regex over a run of a few MB of letters overflows the stack.
 */
export function splitLongRuns(text: string): string[] {
  // Most text has no run of even one kind of blank or non-blank that long: a quick test spares it the
  // slower scan by Unicode class.
  if (text.length <= MAX_RUN || !MAYBE_LONG_RUN.test(text)) return [text];
  const parts: string[] = [];
  let from = 0;
  const cutRun = (start: number, end: number): void => {
    for (let cut = start + MAX_RUN; cut < end; cut += MAX_RUN) {
      // Not between the halves of a surrogate pair (a letter outside the BMP).
      const at = (text.charCodeAt(cut) & 0xfc00) === 0xdc00 ? cut + 1 : cut;
      parts.push(text.slice(from, at));
      from = at;
    }
  };
  // A run is long by its characters (a letter outside the BMP is one), and cut by UTF-16 offsets.
  let runStart = 0;
  let runChars = 0;
  let runKind = Kind.None;
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    let width = 1;
    let kind: Kind;
    if (code < 128) kind = ASCII_KINDS[code]!;
    else {
      width = (code & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
      kind = kindOf(text.slice(i, i + width));
    }
    if (kind !== runKind) {
      if (runKind !== Kind.None && runChars > MAX_RUN) cutRun(runStart, i);
      runStart = i;
      runChars = 0;
      runKind = kind;
    }
    runChars++;
    i += width;
  }
  if (runKind !== Kind.None && runChars > MAX_RUN) cutRun(runStart, text.length);
  parts.push(text.slice(from));
  return parts;
}

/** Encodings loaded right now, and whether a WASM generation is alive (for tests and the memory bench). */
export function loadedEncodings(): { names: EncodingName[]; wasm: boolean } {
  return { names: [...slots.keys()], wasm: generation !== undefined };
}
