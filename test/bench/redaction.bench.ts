// Redaction cost on the two hot write paths, full rule set against the engine before the rule table
// (secretlint preset + 3 own rules, taken from git at BASELINE_REF), in the same run, interleaved.
// Goal: terminal capture and tool-output storing within 10 % of the baseline's throughput.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SanitizingStream, type AnsiMode } from '../../src/core/store/sanitize/pipeline';
import { redactSecrets, type RedactionResult } from '../../src/core/store/sanitize/secrets';

type Redact = (text: string) => Promise<RedactionResult>;
const MB = 1024 * 1024;
const CHUNK = 16 * 1024;
/** The last commit whose secrets module is "today's engine" for this comparison. */
const BASELINE_REF = process.env.BASELINE_REF ?? 'b1a28a01547c3562e5ce1449cf48f02d0f0a8f43';

/** Imports the baseline's secrets.ts (and its prefilter.ts) from git, next to node_modules so imports resolve. */
async function baselineRedact(): Promise<Redact | undefined> {
  const dir = path.resolve('node_modules/.cache/context-desk-bench-baseline');
  try {
    mkdirSync(dir, { recursive: true });
    for (const f of ['secrets.ts', 'prefilter.ts'])
      writeFileSync(
        path.join(dir, f),
        execFileSync('git', ['show', `${BASELINE_REF}:src/core/store/sanitize/${f}`], { encoding: 'utf8' }),
      );
    const mod = (await import(path.join(dir, 'secrets.ts'))) as { redactSecrets: Redact };
    return (text) => mod.redactSecrets(text);
  } catch (e) {
    console.log(`baseline engine unavailable (${(e as Error).message.split('\n')[0]}): no ratios`);
    return undefined;
  }
}

/** Log text; `mixed` puts a URL, a key=value and an Authorization header on ~3 % of lines (no real secret). */
function corpus(kind: 'plain' | 'colour' | 'mixed', bytes: number): Buffer[] {
  let text = '';
  for (let i = 0; text.length < 4 * MB; i++) {
    if (kind === 'colour')
      text += `\x1b[32m PASS \x1b[0m src/module${i % 97}/file${i}.test.ts \x1b[2m(${i % 13} ms)\x1b[22m ✓ renders the thing\r\n`;
    else if (kind === 'mixed' && i % 100 === 7)
      text += `GET https://api.example.com/v1/items/${i}?page=${i % 9}&sort=name 200 in ${i % 50} ms\r\n`;
    else if (kind === 'mixed' && i % 100 === 42) text += `config key=cache_size value=${i} token_count=${i % 4096}\r\n`;
    else if (kind === 'mixed' && i % 100 === 77)
      text += `request headers: Accept: */*; Authorization: <redacted by server>\r\n`;
    else
      text += `2026-11-22T02:33:02.${String(i % 1000).padStart(3, '0')}Z INFO worker-${i % 8} handled request ${i} in ${i % 50} ms\r\n`;
  }
  const block = Buffer.from(text);
  const chunks: Buffer[] = [];
  // A continuous stream (the block repeated; it ends with a whole line), cut at arbitrary points.
  for (let n = 0; n < bytes; n += CHUNK) {
    const at = n % block.length;
    chunks.push(
      at + CHUNK <= block.length
        ? block.subarray(at, at + CHUNK)
        : Buffer.concat([block.subarray(at), block.subarray(0, at + CHUNK - block.length)]),
    );
  }
  return chunks;
}

/** MB per CPU second of the pipeline (decode, ANSI, redaction) writing to a file, as the writers do. */
async function run(chunks: Buffer[], ansi: AnsiMode, redact: Redact, file: string): Promise<number> {
  const fh = await open(file, 'w');
  const stream = new SanitizingStream(
    async (t) => {
      await fh.write(t);
    },
    { ansi, redact },
  );
  global.gc?.();
  const c0 = process.cpuUsage();
  for (const c of chunks) await stream.push(c);
  await stream.end();
  const cpu = process.cpuUsage(c0);
  await fh.close();
  return chunks.reduce((n, c) => n + c.length, 0) / MB / ((cpu.user + cpu.system) / 1e6);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-bench-redact-'));
  const baseline = await baselineRedact();
  console.log(`load average at start: ${(await import('node:os')).loadavg()[0]!.toFixed(2)} (2 cores)`);
  console.log('path             | text   | rules        | MB/cpu-s (median of 3) | vs baseline');
  try {
    for (const [pathName, ansi] of [
      ['terminal capture', 'render'],
      ['tool output', 'strip'],
    ] as const) {
      for (const kind of ['plain', 'colour', 'mixed'] as const) {
        const chunks = corpus(kind, 48 * MB);
        const file = path.join(dir, `${kind}.log`);
        const ours: number[] = [];
        const theirs: number[] = [];
        for (let round = 0; round < 3; round++) {
          if (baseline) theirs.push(await run(chunks, ansi, baseline, file));
          ours.push(await run(chunks, ansi, redactSecrets, file));
        }
        const row = (rules: string, v: number, ratio: string): string =>
          `${pathName.padEnd(16)} | ${kind.padEnd(6)} | ${rules.padEnd(12)} | ${v.toFixed(1).padStart(22)} | ${ratio}`;
        if (baseline) console.log(row('baseline', median(theirs), '1.00x'));
        const ratio = baseline ? median(ours) / median(theirs) : NaN;
        console.log(row('full table', median(ours), baseline ? `${ratio.toFixed(2)}x` : 'n/a'));
        if (baseline) console.log(`${' '.repeat(19)}goal (>= 0.90x): ${ratio >= 0.9 ? 'met' : 'NOT met'}`);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

void main();
