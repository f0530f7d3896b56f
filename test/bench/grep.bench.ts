// Grep over 200 MB of logs: our streaming wrapper (spawn rg --json, parse, yield matches) against two
// baselines measured in the same run: the very same rg command line run directly (output drained,
// not parsed), and rg with its plain `path:line:text` output. Goal: within 1.2x.
// Then the whole command: `context-desk grep` (dist/cli.js) against rg plus a bare node start, and
// against the CLI bundled as one file (as it was before the per-command bundles). Goal: within 1.2x.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { locateRipgrep } from '../../src/core/search/locate';
import { grepStore, grepStoreBatches } from '../../src/core/search/store-grep';
import { ripgrepArgs } from '../../src/core/search/ripgrep';
import { wholeCommand } from './lib/cli-start';

const MB = 1024 * 1024;
const FILES = 20;
const FILE_BYTES = 10 * MB;
const RUNS = 9;

/** Deterministic log lines: mostly INFO, 1% timeouts, 0.1% connection resets, 20 planted FATALs. */
async function generate(dir: string): Promise<void> {
  let seed = 42;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let f = 0; f < FILES; f++) {
    const out = createWriteStream(path.join(dir, `bash-${f}.log`));
    let written = 0;
    let n = 0;
    while (written < FILE_BYTES) {
      let chunk = '';
      for (let k = 0; k < 2000; k++, n++) {
        const r = rand();
        if (n === 5000 && f % 1 === 0) chunk += `2026-11-22T02:33:02Z FATAL disk quota exceeded on /dev/sda${f}\n`;
        else if (r < 0.01)
          chunk += `2026-11-22T02:33:02Z error: request ${n} failed: upstream timeout ${Math.floor(r * 1e5)}ms\n`;
        else if (r < 0.011) chunk += `2026-11-22T02:33:02Z WARN Connection Reset by peer (worker ${n % 16})\n`;
        else
          chunk += `2026-11-22T02:33:02Z INFO worker-${n % 16} handled GET /api/items/${n} in ${Math.floor(r * 100)} ms\n`;
      }
      written += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
  }
}

interface Query {
  name: string;
  pattern: string;
  fixed?: boolean;
  ignoreCase?: boolean;
}

const QUERIES: Query[] = [
  { name: 'rare literal (20 matches)', pattern: 'FATAL disk quota', fixed: true },
  { name: 'regex, ~1% of lines', pattern: 'error: .*timeout \\d+ms' },
  { name: 'ignore-case literal, ~0.1%', pattern: 'connection reset', fixed: true, ignoreCase: true },
];

/** Runs rg and drains its output; returns the number of matches it reported. */
async function direct(rg: string, dir: string, q: Query, json: boolean): Promise<number> {
  const args = ripgrepArgs({
    pattern: q.pattern,
    paths: [dir],
    fixed: q.fixed,
    caseMode: q.ignoreCase ? 'ignore' : 'sensitive',
    ranges: json,
  });
  const child = spawn(rg, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let lines = 0;
  child.stdout.on('data', (b: Buffer) => {
    for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
  });
  await once(child, 'close');
  return lines; // plain: one line per match (JSON output also has begin/end/summary records)
}

async function wrapped(rg: string, root: string, q: Query, mode: 'batches' | 'per-match' | 'ranges'): Promise<number> {
  const o = {
    root,
    pattern: q.pattern,
    scope: 'terminals' as const,
    fixed: q.fixed,
    caseMode: q.ignoreCase ? ('ignore' as const) : ('sensitive' as const),
    rgPath: rg,
    ranges: mode === 'ranges',
  };
  let n = 0;
  if (mode === 'per-match') for await (const _m of grepStore(o)) n++;
  else for await (const b of grepStoreBatches(o)) n += b.length;
  return n;
}

async function median(fn: () => Promise<number>): Promise<{ ms: number; count: number }> {
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    count = await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(RUNS / 2)]!, count };
}

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'cd-bench-grep-'));
  try {
    const dir = path.join(root, 'terminals');
    await mkdir(dir, { recursive: true });
    await generate(dir);
    const rg = (await locateRipgrep())!;
    console.log(
      `${FILES * (FILE_BYTES / MB)} MB of logs in ${FILES} files; rg ${rg.path} (${rg.source}); median of ${RUNS} runs`,
    );
    console.log('rg direct = the same rg command line the wrapper spawns, output drained but not parsed.');
    console.log(
      'batches = grepStoreBatches (quick pick, CLI --json); per match = grepStore; ranges = --json with match ranges.',
    );
    console.log(
      'query                          | matches | rg direct | batches  | ratio | per match | ratio | rg --json | ranges   | ratio',
    );
    let worst = 0;
    for (const q of QUERIES) {
      await direct(rg.path, dir, q, false); // warm the page cache
      const dp = await median(() => direct(rg.path, dir, q, false));
      const dj = await median(() => direct(rg.path, dir, q, true));
      const b = await median(() => wrapped(rg.path, root, q, 'batches'));
      const one = await median(() => wrapped(rg.path, root, q, 'per-match'));
      const r = await median(() => wrapped(rg.path, root, q, 'ranges'));
      for (const x of [b, one, r])
        if (dp.count !== x.count)
          throw new Error(`${q.name}: rg printed ${dp.count} lines, the wrapper yielded ${x.count}`);
      worst = Math.max(worst, b.ms / dp.ms);
      const ms = (x: number): string => `${x.toFixed(0).padStart(5)} ms`;
      const ratio = (x: number, y: number): string => `${(x / y).toFixed(2)}x`;
      console.log(
        `${q.name.padEnd(30)} | ${String(b.count).padStart(7)} | ${ms(dp.ms)}  | ${ms(b.ms)} | ${ratio(b.ms, dp.ms)} | ${ms(one.ms)}  | ${ratio(one.ms, dp.ms)} | ${ms(dj.ms)}  | ${ms(r.ms)} | ${ratio(r.ms, dj.ms)}`,
      );
    }
    console.log(
      `worst ratio of grepStoreBatches (plain output) vs rg direct: ${worst.toFixed(2)}x (goal <= 1.2x: ${worst <= 1.2 ? 'met' : 'NOT met'})`,
    );
    await wholeCommand(rg.path, root, QUERIES);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

void main();
