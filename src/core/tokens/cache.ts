// Token counts keyed by content, so history is never tokenized twice. Bounded by the total characters of
// its keys (least recently used out first): a long session cannot grow it without end.

export class CountCache {
  private readonly map = new Map<string, number>();
  private chars = 0;

  constructor(readonly maxChars: number) {
    if (!(maxChars > 0)) throw new Error(`cache size must be positive, got ${maxChars}`);
  }

  get size(): number {
    return this.map.size;
  }

  get totalChars(): number {
    return this.chars;
  }

  get(text: string): number | undefined {
    const n = this.map.get(text);
    if (n !== undefined) {
      // Map keeps insertion order: re-inserting marks the entry most recently used.
      this.map.delete(text);
      this.map.set(text, n);
    }
    return n;
  }

  set(text: string, count: number): void {
    if (text.length > this.maxChars) return; // larger than the whole cache: counting again is cheaper than thrashing
    const old = this.map.get(text);
    if (old !== undefined) this.map.delete(text);
    else this.chars += text.length;
    this.map.set(text, count);
    if (this.chars > this.maxChars) {
      for (const key of this.map.keys()) {
        if (this.chars <= this.maxChars) break;
        this.map.delete(key);
        this.chars -= key.length;
      }
    }
  }

  clear(): void {
    this.map.clear();
    this.chars = 0;
  }
}
