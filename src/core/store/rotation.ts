// Size caps per store folder: when a folder grows past its cap, the oldest files go first.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

interface FileEntry {
  path: string;
  size: number;
  mtimeMs: number;
}

async function listFiles(dir: string): Promise<FileEntry[]> {
  const out: FileEntry[] = [];
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw e;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p)));
    else if (e.isFile()) {
      try {
        const st = await fsp.stat(p);
        out.push({ path: p, size: st.size, mtimeMs: st.mtimeMs });
      } catch {
        // Deleted meanwhile (another window rotating): nothing to count.
      }
    }
  }
  return out;
}

/** What one rotation pass did. */
export interface RotationResult {
  /** Bytes in the folder before the pass. */
  bytesBefore: number;
  /** Bytes after deleting. */
  bytesAfter: number;
  /** Absolute paths of deleted files, oldest first. */
  deleted: string[];
}

/**
 * Deletes the least recently modified files under `dir` (recursively) until the total is at most
 * `maxBytes`. Files in `keep` (open logs, the file just written) are never deleted, so the folder can
 * stay above its cap when those alone exceed it. Empty sub-folders left behind are removed.
 */
export async function rotateFolder(
  dir: string,
  maxBytes: number,
  keep: ReadonlySet<string> = new Set(),
): Promise<RotationResult> {
  const files = await listFiles(dir);
  const bytesBefore = files.reduce((n, f) => n + f.size, 0);
  let total = bytesBefore;
  const deleted: string[] = [];
  files.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
  for (const f of files) {
    if (total <= maxBytes) break;
    if (keep.has(path.resolve(f.path))) continue;
    await fsp.rm(f.path, { force: true });
    total -= f.size;
    deleted.push(f.path);
  }
  for (const d of new Set(deleted.map((p) => path.dirname(p)))) {
    if (path.resolve(d) !== path.resolve(dir)) await fsp.rmdir(d).catch(() => undefined);
  }
  return { bytesBefore, bytesAfter: total, deleted };
}
