// One regex that finds every rule keyword in a single pass. A flat alternation of ~200 literals is
// slow in V8 (each position tries every alternative); the same literals as a trie (`a(?:kia|sia)|…`)
// run as fast as a 30-literal list. Case-insensitive keywords become `[aA]` classes so exact ones
// (`AKIA`) can share the regex.

export interface Keyword<T> {
  text: string;
  exact: boolean;
  target: T;
}

interface Node {
  children: Map<string, Node>;
  end: boolean;
}

const escape = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

function atom(ch: string, exact: boolean): string {
  const lower = ch.toLowerCase();
  const upper = ch.toUpperCase();
  return exact || lower === upper ? escape(ch) : `[${escape(lower)}${escape(upper)}]`;
}

function source(node: Node): string {
  // A keyword that ends here is enough for the scan: longer ones only add rules (see `KeywordIndex`).
  if (node.end) return '';
  const alts = [...node.children].map(([a, child]) => a + source(child));
  return alts.length === 1 ? alts[0]! : `(?:${alts.join('|')})`;
}

/** Finds keywords in text and says which targets (rules) the keywords at a position ask for. */
export class KeywordIndex<T> {
  /** Matches at least the shortest keyword at every position where some keyword starts. */
  readonly regex: RegExp;
  private readonly byFirst = new Map<string, Keyword<T>[]>();

  constructor(keywords: readonly Keyword<T>[]) {
    const root: Node = { children: new Map(), end: false };
    for (const k of keywords) {
      if (k.text === '') throw new Error('empty keyword');
      let n = root;
      for (const ch of k.text) {
        const a = atom(ch, k.exact);
        let next = n.children.get(a);
        if (!next) n.children.set(a, (next = { children: new Map(), end: false }));
        n = next;
      }
      n.end = true;
      const first = k.text[0]!.toLowerCase();
      const list = this.byFirst.get(first) ?? [];
      list.push(k.exact ? k : { ...k, text: k.text.toLowerCase() });
      this.byFirst.set(first, list);
    }
    this.regex = new RegExp(source(root) || '(?!)', 'g');
  }

  /**
   * The targets of every keyword that starts at `pos` (the regex reports one alternative per
   * position: `sk-` hides `sk-ant-`, an exact `SK` hides a folded `sk-`, so all are checked here).
   */
  targetsAt(text: string, pos: number, out: Set<T>): void {
    for (const k of this.byFirst.get(text[pos]!.toLowerCase()) ?? []) {
      const here = text.slice(pos, pos + k.text.length);
      if (k.exact ? here === k.text : here.toLowerCase() === k.text) out.add(k.target);
    }
  }
}
