// Finds every rule keyword in one pass over the text. A regex alternation of ~270 literals runs at
// ~90 MB/s in V8 (each position tries many alternatives), below the speed of the terminal capture it
// guards. This scan looks up each position's three-character window (case-folded) in a table of the
// keywords' first three characters (~170 MB/s), and only on a hit walks a trie to see which keywords,
// exact (`AKIA`) or case-insensitive (`password`), really start there.

export interface Keyword<T> {
  text: string;
  exact: boolean;
  target: T;
}

interface WalkNode<T> {
  next: Map<number, WalkNode<T>>;
  targets: T[];
}

const fold = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

const f7 = (code: number): number => fold(code) & 127;

const hasBit = (bits: Uint32Array, bit: number): boolean => ((bits[bit >>> 5]! >>> (bit & 31)) & 1) === 1;

/** Finds keywords in text and says which targets (rules) they ask for. */
export class KeywordIndex<T> {
  /**
   * First three characters (folded, 7 bits each) of keywords of length >= 3, one bit each: 256 KB held
   * for the extension host's life, where a byte each took 2 MB.
   */
  private readonly starts3 = new Uint32Array(1 << 16);
  /**
   * Their first two characters: checked first, since this table stays in the CPU's fastest cache and
   * the one above does not (most positions end here).
   */
  private readonly starts3Prefix = new Uint8Array(1 << 14);
  /** Keywords of two characters (`SK`, `Q~`). */
  private readonly starts2 = new Uint8Array(1 << 14);
  private readonly exactRoot: WalkNode<T> = { next: new Map(), targets: [] };
  private readonly foldedRoot: WalkNode<T> = { next: new Map(), targets: [] };

  constructor(keywords: readonly Keyword<T>[]) {
    for (const k of keywords) {
      if (k.text.length < 2) throw new Error(`keyword ${JSON.stringify(k.text)} is shorter than 2 characters`);
      const [c0, c1, c2] = [0, 1, 2].map((i) => f7(k.text.charCodeAt(i))) as [number, number, number];
      if (k.text.length === 2) this.starts2[(c0 << 7) | c1] = 1;
      else {
        const bit = (c0 << 14) | (c1 << 7) | c2;
        this.starts3[bit >>> 5]! |= 1 << (bit & 31);
        this.starts3Prefix[(c0 << 7) | c1] = 1;
      }
      let w = k.exact ? this.exactRoot : this.foldedRoot;
      for (let i = 0; i < k.text.length; i++) {
        const code = k.exact ? k.text.charCodeAt(i) : fold(k.text.charCodeAt(i));
        let next = w.next.get(code);
        if (!next) w.next.set(code, (next = { next: new Map(), targets: [] }));
        w = next;
      }
      w.targets.push(k.target);
    }
  }

  /**
   * Calls `found(pos)` for every position where a keyword starts, after adding its keywords' targets
   * to `out`. Positions come in increasing order (a position can come twice).
   */
  scan(text: string, out: Set<T>, found: (pos: number) => void): void {
    const { starts2, starts3, starts3Prefix } = this;
    const n = text.length;
    let a = 0;
    let b = 0;
    for (let i = 0; i < n; i++) {
      const c = f7(text.charCodeAt(i));
      if (starts2[(b << 7) | c] === 1 && i >= 1 && this.targetsAt(text, i - 1, out)) found(i - 1);
      if (
        starts3Prefix[(a << 7) | b] === 1 &&
        hasBit(starts3, (a << 14) | (b << 7) | c) &&
        i >= 2 &&
        this.targetsAt(text, i - 2, out)
      )
        found(i - 2);
      a = b;
      b = c;
    }
  }

  /**
   * Adds the targets of every keyword that starts at `pos` (`sk-` and `sk-ant-`, exact `SK` and folded
   * `sk-` alike); true if there was one.
   */
  targetsAt(text: string, pos: number, out: Set<T>): boolean {
    const exact = walk(this.exactRoot, text, pos, false, out);
    return walk(this.foldedRoot, text, pos, true, out) || exact;
  }
}

/** Adds the targets of the keywords of one trie that start at `pos`; true if there were any. */
function walk<T>(root: WalkNode<T>, text: string, pos: number, folded: boolean, out: Set<T>): boolean {
  let n: WalkNode<T> | undefined = root;
  let any = false;
  for (let i = pos; i < text.length; i++) {
    const code = text.charCodeAt(i);
    n = n.next.get(folded ? fold(code) : code);
    if (!n) return any;
    for (const t of n.targets) {
      out.add(t);
      any = true;
    }
  }
  return any;
}
