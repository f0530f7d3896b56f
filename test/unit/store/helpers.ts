// Shared helpers for the store tests: temp folders, child processes running TypeScript, streamed text.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import assert from 'node:assert/strict';
import { SanitizingStream, type SanitizeStats } from '../../../src/core/store/sanitize/pipeline';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';

export async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-store-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Starts `node --import tsx <script> ...args`; resolves once the child printed `ready`. */
export function startChild(script: string, args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'children', script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.on('data', (b: Buffer) => {
      if (b.toString().includes('ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
  });
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * What a sink receives when `text` goes through a SanitizingStream in pieces of `size` characters,
 * flushed after each piece (what a terminal capture's timer may do) unless `flush` is false.
 */
export async function streamInPieces(
  text: string,
  size: number,
  options: { batchChars?: number; flush?: boolean; stats?: (stats: SanitizeStats) => void } = {},
): Promise<string> {
  let out = '';
  const s = new SanitizingStream(async (t) => void (out += t), {
    ansi: 'strip',
    ...(options.batchChars ? { batchChars: options.batchChars } : {}),
  });
  for (let i = 0; i < text.length; i += size) {
    await s.push(text.slice(i, i + size));
    if (options.flush !== false) await s.flush();
  }
  const stats = await s.end();
  options.stats?.(stats);
  return out;
}

/**
 * Asserts that `text` holds a secret and that streaming it in pieces of each of `sizes` (a flush after
 * each, as a terminal's timer may do) redacts exactly what redacting it whole does: a batch's end between a
 * secret's name or prompt and its value must not hide the pair.
 */
export async function assertStreamedAsWhole(text: string, sizes: readonly number[], batchChars: number): Promise<void> {
  const want = redactSecretsSync(text).text;
  assert.notEqual(want, text, 'the text holds a secret');
  for (const size of sizes) assert.equal(await streamInPieces(text, size, { batchChars }), want, `pieces of ${size}`);
}
