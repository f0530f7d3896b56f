// Counting time against the length of one pre-tokenizer piece, in one run, interleaved:
//   - ours: the encoding lease as the agent uses it (tiktoken whole, or bpe.ts for text with long runs);
//   - cut: the lease before (taken from git at BASELINE_REF): long runs cut in parts of 2000 characters;
//   - whole: tiktoken's encode_ordinary on the whole text (quadratic in a piece; small sizes only).
// Prints ms (median of 3), ours/cut, and whether each count equals tiktoken's on the whole text.
// Goal: ours linear (4x the input within 8x the time) and exact; faster than cut on long runs.
// SIZES=16000,64000,... sets the sizes; the largest is 1 MB by default.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { get_encoding } from 'tiktoken';
import { acquireEncoding } from '../../src/core/tokens/encodings';

type Count = (text: string) => number;
/** The commit before the exact long-run counter: its encodings.ts cut long runs into parts. */
const BASELINE_REF = process.env.BASELINE_REF ?? '123aec5';
const SIZES = (process.env.SIZES ?? '16000,64000,256000,1048576').split(',').map(Number);
/** tiktoken on one whole piece this long already takes seconds; larger are not run. */
const WHOLE_MAX = 64_000;

async function baselineCount(): Promise<{ count: Count; release(): void } | undefined> {
  const dir = path.resolve('node_modules/.cache/context-desk-bench-tokens-baseline');
  try {
    mkdirSync(dir, { recursive: true });
    for (const f of ['encodings.ts', 'wasm.ts'])
      writeFileSync(
        path.join(dir, f),
        execFileSync('git', ['show', `${BASELINE_REF}:src/core/tokens/${f}`], { encoding: 'utf8' }),
      );
    const mod = (await import(path.join(dir, 'encodings.ts'))) as typeof import('../../src/core/tokens/encodings');
    const lease = mod.acquireEncoding('o200k');
    return { count: (t) => lease.count(t), release: () => lease.release() };
  } catch (e) {
    console.log(`baseline unavailable (${(e as Error).message.split('\n')[0]}): no ratios`);
    return undefined;
  }
}

let seed = 1;
function random(alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    s += alphabet[(seed >>> 16) % alphabet.length];
  }
  return s;
}
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const INPUTS: Record<string, (n: number) => string> = {
  'one letter': (n) => 'a'.repeat(n),
  'random letters': (n) => random(LOWER, n),
  digits: (n) => random('0123456789', n),
  base64: (n) =>
    Buffer.from(random(LOWER + LOWER.toUpperCase(), Math.ceil((n * 3) / 4)))
      .toString('base64')
      .slice(0, n),
  'minified js': (n) =>
    'function(a,b){return a.map(function(c){return c+b})};var x=y&&z||{};'.repeat(Math.ceil(n / 69)).slice(0, n),
  signs: (n) => random('=-+*/<>|', n),
  newlines: (n) => '\n'.repeat(n),
};

function timed(count: Count, text: string): { ms: number; n: number } {
  const started = performance.now();
  const n = count(text);
  return { ms: performance.now() - started, n };
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const baseline = await baselineCount();
  const lease = acquireEncoding('o200k');
  const whole = get_encoding('o200k_base');
  console.log(`load average at start: ${(await import('node:os')).loadavg()[0]!.toFixed(2)} (2 cores)`);
  console.log('input          |    chars | ours ms | cut ms | whole ms | ours/cut | ours exact | cut exact | growth');
  try {
    for (const [name, input] of Object.entries(INPUTS)) {
      let previous: number | undefined;
      for (const size of SIZES) {
        const text = input(size);
        const ours: number[] = [];
        const cut: number[] = [];
        const wholes: number[] = [];
        let counts: { ours?: number; cut?: number; whole?: number } = {};
        for (let round = 0; round < 3; round++) {
          if (baseline) {
            const c = timed(baseline.count, text);
            cut.push(c.ms);
            counts.cut = c.n;
          }
          const o = timed((t) => lease.count(t), text);
          ours.push(o.ms);
          counts.ours = o.n;
          if (size <= WHOLE_MAX) {
            const w = timed((t) => whole.encode_ordinary(t).length, text);
            wholes.push(w.ms);
            counts.whole = w.n;
          }
        }
        // Beyond WHOLE_MAX ours is the reference: the unit tests hold it equal to tiktoken.
        const truth = counts.whole ?? counts.ours!;
        const o = median(ours);
        const growth =
          previous === undefined
            ? ''
            : `${(o / previous).toFixed(1)}x for ${(size / SIZES[SIZES.indexOf(size) - 1]!).toFixed(0)}x`;
        previous = Math.max(o, 1);
        const cell = (xs: number[]): string => (xs.length ? median(xs).toFixed(0) : '-').padStart(6);
        console.log(
          `${name.padEnd(14)} | ${String(size).padStart(8)} | ${cell(ours).padStart(7)} | ${cell(cut)} | ${cell(wholes).padStart(8)} | ${
            baseline ? `${(o / Math.max(median(cut), 0.01)).toFixed(2)}x`.padStart(8) : '     n/a'
          } | ${String(counts.ours === truth).padStart(10)} | ${String(counts.cut === undefined ? 'n/a' : counts.cut === truth).padStart(9)} | ${growth}`,
        );
        counts = {};
      }
    }
  } finally {
    whole.free();
    lease.release();
    baseline?.release();
  }
}

void main();
