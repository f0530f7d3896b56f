// An exact count of tiktoken's tokens in linear-logarithmic time, for text whose pieces are long.
//
// tiktoken (encodings.ts) splits text into pieces with its pattern and byte-pair merges each piece by
// scanning every pair after every merge: quadratic in a piece, and a run of letters, signs or blanks
// is one piece (4 MB of letters took ~40 s). Cutting such a run into parts changes the count, so this
// does the same work the same way, only faster: the same pattern (translated to a JS regular
// expression), the same ranks (tiktoken's own files), the same merge order (the lowest rank first, the
// leftmost among equal ranks), kept in a heap instead of found by a scan. Property tests hold it equal
// to tiktoken (test/unit/tokens/bpe.test.ts).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { tiktokenDir } from './wasm';

export type BpeName = 'o200k' | 'cl100k';

/** tiktoken's patterns with `(?i:...)`, which JS lacks, spelled out; `\s` is Unicode White_Space as in Rust. */
const CONTRACTION = `'[sS\u017F]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD]`;
const S = String.raw`\p{White_Space}`;
const NS = String.raw`\P{White_Space}`;
const PATTERNS: Record<BpeName, string> = {
  o200k: [
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:${CONTRACTION})?`,
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:${CONTRACTION})?`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^${S}\p{L}\p{N}]+[\r\n/]*`,
    String.raw`${S}*[\r\n]+`,
    String.raw`${S}+(?!${NS})`,
    String.raw`${S}+`,
  ].join('|'),
  cl100k: [
    `(?:${CONTRACTION})`,
    String.raw`[^\r\n\p{L}\p{N}]?\p{L}+`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^${S}\p{L}\p{N}]+[\r\n]*`,
    String.raw`${S}*[\r\n]+`,
    String.raw`${S}+(?!${NS})`,
    String.raw`${S}+`,
  ].join('|'),
};

const FILES: Record<BpeName, string> = { o200k: 'o200k_base.json', cl100k: 'cl100k_base.json' };

/** Ranks keyed by the token's bytes as a Latin-1 string (one character per byte). */
export interface Ranks {
  /** Tokens longer than SHORT bytes. */
  readonly map: Map<string, number>;
  /** Tokens of up to SHORT bytes by shortKey: most lookups, and no string to make for them. */
  readonly short: Map<number, number>;
  readonly maxLength: number;
  /** Ranks of the two-byte tokens by (first byte << 8 | second), -1 for none: the first round of pairs needs no string. */
  readonly pairs: Int32Array;
}

function ranksFile(name: BpeName): string {
  try {
    return require.resolve(`tiktoken/encoders/${FILES[name]}`);
  } catch {
    // In the bundle: the build copies the files next to tiktoken_bg.wasm.
    return path.join(tiktokenDir(), FILES[name]);
  }
}

/** Tokens this short are keyed by a number; 6 bytes and the length marker fit a double exactly. */
const SHORT = 6;

/** bytes[from..to) (at most SHORT) as one number: the bytes in base 256 above a leading 1. */
function shortKey(bytes: string, from: number, to: number): number {
  let key = 1;
  for (let i = from; i < to; i++) key = key * 256 + bytes.charCodeAt(i);
  return key;
}

/** tiktoken's ranks file: lines of `<ignored> <first rank> <token in base64>...`. */
export function loadRanks(name: BpeName): Ranks {
  const { bpe_ranks: text } = JSON.parse(readFileSync(ranksFile(name), 'utf8')) as { bpe_ranks: string };
  const map = new Map<string, number>();
  const short = new Map<number, number>();
  const pairs = new Int32Array(1 << 16).fill(-1);
  let maxLength = 0;
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const first = Number(fields[1]);
    for (let i = 2; i < fields.length; i++) {
      const key = Buffer.from(fields[i]!, 'base64').toString('latin1');
      if (key.length <= SHORT) short.set(shortKey(key, 0, key.length), first + i - 2);
      else map.set(key, first + i - 2);
      if (key.length === 2) pairs[(key.charCodeAt(0) << 8) | key.charCodeAt(1)] = first + i - 2;
      if (key.length > maxLength) maxLength = key.length;
    }
  }
  return { map, short, maxLength, pairs };
}

/**
 * A binary heap of pairs ordered by (rank, start), the order tiktoken's scan picks them in, each kept as
 * one number rank * 2^32 + start (ranks < 2^21, exact in a double).
 */
class PairHeap {
  private keys = new Float64Array(64);
  size = 0;

  push(key: number): void {
    if (this.size === this.keys.length) {
      const grown = new Float64Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    const keys = this.keys;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      i = parent;
    }
    keys[i] = key;
  }

  /** Removes and returns the least key. */
  pop(): number {
    const keys = this.keys;
    const top = keys[0]!;
    const last = keys[--this.size]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= last) break;
      keys[i] = keys[child]!;
      i = child;
    }
    keys[i] = last;
    return top;
  }
}

const PAIR = 2 ** 32;
const NONE = Number.MAX_SAFE_INTEGER;

/**
 * Tokens in one piece (its UTF-8 bytes as a Latin-1 string): tiktoken's `byte_pair_encode`. Parts are
 * a linked list over byte offsets; the rank of a part is that of its bytes joined with the next part's.
 */
export function countPiece(bytes: string, ranks: Ranks): number {
  const n = bytes.length;
  if (n <= 1 || (n <= SHORT ? ranks.short.has(shortKey(bytes, 0, n)) : ranks.map.has(bytes))) return 1;
  const next = new Int32Array(n + 1); // next part's start; n ends the list
  const prev = new Int32Array(n + 1);
  const pairRank = new Float64Array(n + 1); // current rank of the pair starting here (NONE: no pair)
  const alive = new Uint8Array(n + 1);
  const rankOf = (from: number, to: number): number => {
    const length = to - from;
    if (length <= SHORT) return ranks.short.get(shortKey(bytes, from, to)) ?? NONE;
    return length > ranks.maxLength ? NONE : (ranks.map.get(bytes.slice(from, to)) ?? NONE);
  };
  const heap = new PairHeap();
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    alive[i] = 1;
    const pair = i + 2 <= n ? ranks.pairs[(bytes.charCodeAt(i) << 8) | bytes.charCodeAt(i + 1)]! : -1;
    pairRank[i] = pair < 0 ? NONE : pair;
    if (pairRank[i] !== NONE) heap.push(pairRank[i]! * PAIR + i);
  }
  let parts = n;
  const refresh = (i: number): void => {
    const after = next[i]!;
    pairRank[i] = after < n ? rankOf(i, next[after]!) : NONE;
    if (pairRank[i] !== NONE) heap.push(pairRank[i]! * PAIR + i);
  };
  while (heap.size > 0) {
    const key = heap.pop();
    const start = key % PAIR;
    const rank = (key - start) / PAIR;
    if (!alive[start] || pairRank[start] !== rank) continue; // stale: merged away or re-ranked since
    const gone = next[start]!;
    alive[gone] = 0;
    next[start] = next[gone]!;
    if (next[gone]! < n) prev[next[gone]!] = start;
    parts--;
    refresh(start);
    if (prev[start]! >= 0) refresh(prev[start]!);
  }
  return parts;
}

/** Counts text exactly as tiktoken's `encode_ordinary(text).length`, in O(n log n). */
export class PieceCounter {
  private readonly pattern: RegExp;
  /** Short pieces recur (words, indentation): their counts are kept for the counter's life. */
  private readonly known = new Map<string, number>();

  constructor(
    name: BpeName,
    private readonly ranks: Ranks = loadRanks(name),
  ) {
    this.pattern = new RegExp(PATTERNS[name], 'gu');
  }

  count(text: string): number {
    let total = 0;
    const pattern = this.pattern;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const piece = m[0];
      let n = this.known.get(piece);
      if (n === undefined) {
        n = countPiece(Buffer.from(piece, 'utf8').toString('latin1'), this.ranks);
        if (piece.length <= 64 && this.known.size < 100_000) this.known.set(piece, n);
      }
      total += n;
    }
    return total;
  }
}
