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
      return held.encoding.encode_ordinary(text).length;
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

/** Encodings loaded right now, and whether a WASM generation is alive (for tests and the memory bench). */
export function loadedEncodings(): { names: EncodingName[]; wasm: boolean } {
  return { names: [...slots.keys()], wasm: generation !== undefined };
}
