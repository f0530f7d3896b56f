// Writes test/fixtures/secrets/corpus.json: two fake secrets of every format in
// scripts/secret-corpus/formats.ts, from a fixed seed (the same file on every run; no real credential).
// Usage: npx tsx scripts/gen-secret-corpus.ts [--check]  (--check: fail if the committed file differs)
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { FORMATS, type CorpusEntry } from './secret-corpus/formats';
import { Rng } from './secret-corpus/random';

export const SEED = 0x5ec2e75;
const SAMPLES = 2;
const OUT = path.join(__dirname, '../test/fixtures/secrets/corpus.json');

export function generate(): { seed: number; note: string; entries: CorpusEntry[] } {
  const rng = new Rng(SEED);
  const entries: CorpusEntry[] = [];
  for (const f of FORMATS)
    for (let i = 0; i < SAMPLES; i++) {
      const made = f.make(rng);
      entries.push({ format: f.format, rule: f.rule, ...made, standalone: f.standalone });
    }
  return {
    seed: SEED,
    note: 'FAKE secrets, random from a fixed seed by scripts/gen-secret-corpus.ts. None is a real credential.',
    entries,
  };
}

if (require.main === module) {
  const text = JSON.stringify(generate(), null, 1) + '\n';
  if (process.argv.includes('--check')) {
    if (readFileSync(OUT, 'utf8') !== text) {
      console.error(`${OUT} is not what scripts/gen-secret-corpus.ts generates; run it without --check`);
      process.exit(1);
    }
  } else {
    writeFileSync(OUT, text);
    const formats = new Set(JSON.parse(text).entries.map((e: CorpusEntry) => e.format)).size;
    console.log(`wrote ${OUT}: ${JSON.parse(text).entries.length} secrets, ${formats} formats`);
  }
}
