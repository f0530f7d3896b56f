// What an importer read differently or left out, counted per kind and said once per file:
// "3 image blocks counted as a one-word marker (replay counts text only)".

export class Notes {
  private readonly counts = new Map<string, { n: number; text: (n: number) => string }>();

  /** Counts one occurrence of a kind; `text(n)` words the warning for n occurrences. */
  add(kind: string, text: (n: number) => string, n = 1): void {
    const entry = this.counts.get(kind);
    if (entry) entry.n += n;
    else this.counts.set(kind, { n, text });
  }

  /** A warning said as is (once). */
  say(text: string): void {
    this.add(text, () => text, 0);
  }

  get size(): number {
    return this.counts.size;
  }

  list(): string[] {
    return [...this.counts.values()].map((e) => e.text(e.n));
  }
}

/** `1 line` / `3 lines`. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? word : many}`;
}
