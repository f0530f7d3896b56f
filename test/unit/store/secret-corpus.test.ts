// The fake-secret corpus (test/fixtures/secrets/, every format twice) through every write path of the store, in every
// context (plain, ANSI around and inside the token, JSON-escaped after \n, \t and \", inside a URL),
// cut at chunk boundaries and at the long-line cut: no 12-character piece of any secret on disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  allFiles,
  CONTEXTS,
  CORPUS,
  leakedFormats,
  openStore,
  windowsOf,
  WRITE_PATHS,
  type CorpusEntry,
  type Cuts,
  type WritePath,
} from '../../support/secret-corpus';
import { tempDir } from './helpers';

test('the corpus has at least 80 secrets over at least 40 formats', () => {
  assert.ok(CORPUS.length >= 80, `${CORPUS.length} secrets`);
  assert.ok(new Set(CORPUS.map((e) => e.format)).size >= 40);
});

/** Writes each of `writes` through `write` into one fresh store; returns "format in file" for every leak. */
async function leaksOf(
  root: string,
  write: WritePath,
  entries: CorpusEntry[],
  writes: { texts: string[]; cuts?: Cuts }[],
): Promise<string[]> {
  const store = await openStore(root);
  for (const w of writes) await write(store, w.texts, w.cuts);
  const windows = windowsOf(entries);
  const leaks: string[] = [];
  for (const f of await allFiles(store.root))
    for (const format of leakedFormats(f.text, windows))
      leaks.push(`${format} in ${path.relative(store.root, f.file)}`);
  return leaks;
}

/** Byte offset of the first needle of `e` in `output` (searching from `from`). */
function secretAt(output: string, e: CorpusEntry, from: number): { byte: number; length: number; next: number } {
  const needle = (e.needles ?? [e.secret])[0]!;
  const i = output.indexOf(needle, from);
  assert.ok(i >= 0, `${e.format} is in the output`);
  return { byte: Buffer.byteLength(output.slice(0, i)), length: Buffer.byteLength(needle), next: i + needle.length };
}

for (const [pathName, write] of Object.entries(WRITE_PATHS)) {
  test(`corpus in every context through ${pathName}: nothing reaches disk`, async (t) => {
    const root = await tempDir(t);
    const failures: string[] = [];
    let written = 0;
    for (const [context, make] of Object.entries(CONTEXTS)) {
      const entries = CORPUS.filter((e) => make(e) !== undefined);
      written += entries.length;
      const leaks = await leaksOf(path.join(root, context), write, entries, [{ texts: entries.map((e) => make(e)!) }]);
      failures.push(...leaks.map((l) => `${context}: ${l}`));
    }
    t.diagnostic(`${written} secret writes, ${failures.length} on disk`);
    assert.deepEqual(failures, []);
  });
}

const STREAMING = ['tool output (+ masked-observation index)', 'terminal log'] as const;

for (const pathName of STREAMING) {
  const write = WRITE_PATHS[pathName]!;

  test(`${pathName}: secrets cut by a chunk boundary at 1/5 .. 4/5 of their length and next to them`, async (t) => {
    const root = await tempDir(t);
    const texts = CORPUS.map((e) => e.line);
    const writes = [0, 0.2, 0.4, 0.6, 0.8, 1].map((at) => ({
      texts,
      cuts: ((output) => {
        let from = 0;
        return CORPUS.map((e) => {
          const s = secretAt(output, e, from);
          from = s.next;
          return s.byte + Math.round(s.length * at);
        });
      }) as Cuts,
    }));
    assert.deepEqual(await leaksOf(root, write, CORPUS, writes), []);
  });

  test(`${pathName}: one token split at every byte boundary, in two and in three chunks`, async (t) => {
    const root = await tempDir(t);
    const entry = CORPUS.find((e) => e.format === 'github-pat')!;
    const text = `$ git push\n${entry.line}\nEverything up-to-date\n`;
    const n = Buffer.byteLength(text);
    const writes = Array.from({ length: n - 1 }, (_, i) => i + 1).map((cut) => ({
      texts: [text],
      cuts: (() => (cut % 7 === 0 ? [cut, Math.min(n - 1, cut + 5)] : [cut])) as Cuts,
    }));
    assert.deepEqual(await leaksOf(root, write, [entry], writes), []);
  });

  test(`${pathName}: secrets at the cuts of a very long line (minified JSON past 1 MiB)`, async (t) => {
    const root = await tempDir(t);
    // One line made only of secret-bearing values, longer than the 1 MiB a line may grow before it is
    // written in parts: wherever the stream cuts it, the cut lands in or next to a secret or its key.
    const entries = CORPUS.filter((e) => !e.needles);
    const unit = entries.map((e, i) => `"f${i}":${JSON.stringify(e.line)}`).join(',');
    let line = '{';
    const size = pathName === 'terminal log' ? 1.25 * 1024 * 1024 : 2.5 * 1024 * 1024;
    while (line.length < size) line += unit + ',';
    line += '"end":1}';
    const cuts: Cuts = (output) => {
      const out: number[] = [];
      for (let b = 64 * 1024; b < Buffer.byteLength(output); b += 64 * 1024) out.push(b);
      return out;
    };
    assert.deepEqual(await leaksOf(root, write, entries, [{ texts: [line], cuts }]), []);
  });
}
