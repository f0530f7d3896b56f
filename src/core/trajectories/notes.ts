// What an importer read differently or left out, counted per kind and said once per file:
// "3 image blocks counted as a one-word marker (its tokens are not known: totals are lower bounds)".

import { MAX_JSON_DEPTH } from '../json-depth';
import { formatCount } from '../numbers';

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

  /** Media parts (images, audio, files) counted as a marker: their tokens are not in any total. */
  get media(): number {
    let n = 0;
    for (const [kind, e] of this.counts) if (kind.startsWith('media:')) n += e.n;
    return n;
  }

  get size(): number {
    return this.counts.size;
  }

  list(): string[] {
    return [...this.counts.values()].map((e) => e.text(e.n));
  }
}

/**
 * Reads one run of a file and records the media parts its own content held: a run without any is not
 * made a lower bound by another run's image (a sub-agent's, another instance's in an output.jsonl).
 */
export function runMedia<R extends { uncountedMedia?: number }>(notes: Notes, read: () => R): R {
  const before = notes.media;
  const run = read();
  return { ...run, uncountedMedia: notes.media - before };
}

/** `1 line` / `3 lines`. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : many}`;
}

/** A message whose role the format does not know: dropped, and said. */
export function noteUnknownRole(notes: Notes, role: unknown): void {
  notes.add(
    `role:${String(role)}`,
    (n) => `${plural(n, 'message')} with unknown role ${JSON.stringify(role ?? null)} dropped`,
  );
}

/** JSON lines that did not parse: a cut-off last line (a log still being written) or invalid lines. */
export function noteBadLines(notes: Notes, bad: readonly { line: number; last: boolean; deep?: true }[]): void {
  for (const b of bad)
    if (b.deep)
      notes.add('deep-line', (n) => `${plural(n, 'line')} nested more than ${MAX_JSON_DEPTH} levels deep skipped`);
    else if (b.last) notes.say(`line ${b.line} is cut off (the session was still being written?): skipped`);
    else notes.add('bad-line', (n) => `${plural(n, 'line')} that ${n === 1 ? 'is' : 'are'} not valid JSON skipped`);
}
