// One tiktoken encoding per name for the whole process, shared by every tokenizer that uses it and
// freed as soon as none holds it. Measured (README, Performance): each `get_encoding('o200k_base')`
// adds ~22 MB more to the WASM memory, and a WASM memory never shrinks; so sessions must share one
// encoding, and once no encoding is held, the whole WASM generation (memory included) is dropped.
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
      let n = 0;
      for (const part of splitLongRuns(text)) n += held.encoding.encode_ordinary(part).length;
      return n;
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
 * Longest run of blanks, of letters or of signs counted in one piece. tiktoken's byte-pair merge is
 * quadratic in a piece, and such a run is one piece: 80 KB of `=` or of newlines took 6 s, 200 KB 36 s,
 * on the extension host's thread. Longer runs are counted in parts of this length, which can differ
 * from the whole by about a token per part; text without such runs is counted whole, exactly.
 */
export const MAX_RUN = 2000;

// Each run is found from its start only (the lookbehinds), so the scan stays linear.
const LONG_RUN = new RegExp(
  String.raw`(?<!\s)\s{${MAX_RUN + 1},}|(?<![\p{L}\p{M}])[\p{L}\p{M}]{${MAX_RUN + 1},}|(?<![^\s\p{L}\p{M}\p{N}])[^\s\p{L}\p{M}\p{N}]{${MAX_RUN + 1},}`,
  'gu',
);

const MAYBE_LONG_RUN = new RegExp(String.raw`(?<!\S)\S{${MAX_RUN + 1}}|(?<!\s)\s{${MAX_RUN + 1}}`);

/** The text cut inside its runs longer than MAX_RUN, every MAX_RUN characters; whole when it has none. */
export function splitLongRuns(text: string): string[] {
  // Most text has no run of even one kind of blank or non-blank that long: a quick test spares it the
  // slower scan by Unicode class.
  if (text.length <= MAX_RUN || !MAYBE_LONG_RUN.test(text)) return [text];
  const parts: string[] = [];
  let from = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    for (let cut = m.index + MAX_RUN; cut < m.index + m[0].length; cut += MAX_RUN) {
      // Not between the halves of a surrogate pair (a letter outside the BMP).
      const at = (text.charCodeAt(cut) & 0xfc00) === 0xdc00 ? cut + 1 : cut;
      parts.push(text.slice(from, at));
      from = at;
    }
  }
  parts.push(text.slice(from));
  return parts;
}

/** Encodings loaded right now, and whether a WASM generation is alive (for tests and the memory bench). */
export function loadedEncodings(): { names: EncodingName[]; wasm: boolean } {
  return { names: [...slots.keys()], wasm: generation !== undefined };
}
