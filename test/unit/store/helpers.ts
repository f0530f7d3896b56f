// Shared helpers for the store tests: temp folders and child processes running TypeScript.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';

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
