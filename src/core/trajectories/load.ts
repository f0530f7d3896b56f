// Loads trajectories from files and folders (recursively). One bad file never stops a batch: it is
// reported in `skipped` with the reason, and the rest load.
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Trajectory } from '../messages';
import { parseTrajectory } from './detect';
import { TrajectoryError } from './errors';

export interface Skipped {
  file: string;
  error: string;
}

export interface LoadResult {
  trajectories: Trajectory[];
  skipped: Skipped[];
}

/** Files inside folders that look like trajectories; explicitly named files are always tried. */
const TRAJECTORY_FILE = /\.(json|jsonl|traj)$/i;

async function expand(path: string, out: string[], skipped: Skipped[]): Promise<void> {
  let info;
  try {
    info = await stat(path);
  } catch (e) {
    skipped.push({ file: path, error: `cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}` });
    return;
  }
  if (!info.isDirectory()) {
    out.push(path);
    return;
  }
  const entries = await readdir(path, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const child = join(path, e.name);
    if (e.isDirectory()) await expand(child, out, skipped);
    else if (e.isFile() && TRAJECTORY_FILE.test(e.name)) out.push(child);
  }
}

export async function loadTrajectoryFile(file: string): Promise<Trajectory> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new TrajectoryError(file, `cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { cause: e });
  }
  return parseTrajectory(text, file);
}

export async function loadTrajectories(
  paths: readonly string[],
  onFile?: (file: string, index: number, total: number) => void,
): Promise<LoadResult> {
  const files: string[] = [];
  const skipped: Skipped[] = [];
  for (const p of paths) await expand(p, files, skipped);
  const trajectories: Trajectory[] = [];
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    onFile?.(file, i, files.length);
    try {
      trajectories.push(await loadTrajectoryFile(file));
    } catch (e) {
      skipped.push({
        file,
        error: e instanceof TrajectoryError ? e.reason : e instanceof Error ? e.message : String(e),
      });
    }
  }
  return { trajectories, skipped };
}
