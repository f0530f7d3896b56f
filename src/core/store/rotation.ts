// What the store may delete: size-cap rotation (oldest files first) of files whose paths match the
// layouts the store itself names, never a file a live process has open for writing; and crash leftovers
// (`*.partial`, `.*.tmp`, stale lock records) whose writer is gone. Links are never followed or counted.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { filesInUse, isAlive, LOCKS_DIR, readLocks, tempOwner } from './owners';
import type { StoreWriter } from './store-writer';
import { compareText } from '../numbers';

/** The folders of the store that hold rotated files. */
export type StoreFolder = 'tool-outputs' | 'terminals' | 'history' | 'mcp';

const SEG = '[A-Za-z0-9_][A-Za-z0-9._~-]*';
/** Paths (relative to the store root, `/`-separated) that the store writes, per folder. */
const LAYOUTS: Record<StoreFolder, RegExp> = {
  'tool-outputs': new RegExp(`^tool-outputs/${SEG}/(?:\\d{4,}-${SEG}\\.txt|index\\.jsonl?)$`),
  terminals: new RegExp(`^terminals/${SEG}\\.log$`),
  history: new RegExp(`^history/${SEG}\\.(?:jsonl|md)$`),
  mcp: new RegExp(`^mcp/(?:INDEX\\.md|${SEG}/(?:SERVER\\.md|${SEG}\\.json))$`),
};

/** Whether a store-relative path is one the store writes in `folder` (crash leftovers never are). */
export function isStoreFile(folder: StoreFolder, rel: string): boolean {
  return LAYOUTS[folder].test(rel) && !rel.endsWith('.partial') && !/(^|\/)\.[^/]*\.tmp$/.test(rel);
}

interface FileEntry {
  path: string;
  rel: string;
  size: number;
  mtimeMs: number;
}

/** Regular files under `dir` (links are neither followed nor listed). */
async function listFiles(root: string, dir: string, depth = 0): Promise<FileEntry[]> {
  const out: FileEntry[] = [];
  if (depth > 4) return out;
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) for (const f of await listFiles(root, p, depth + 1)) out.push(f);
    else if (e.isFile()) {
      const st = await fsp.lstat(p).catch(() => undefined);
      if (st?.isFile())
        out.push({
          path: p,
          rel: path.relative(root, p).split(path.sep).join('/'),
          size: st.size,
          mtimeMs: st.mtimeMs,
        });
    }
  }
  return out;
}

/** What one rotation pass did. */
export interface RotationResult {
  /** Bytes of the store's own files in the folder before the pass. */
  bytesBefore: number;
  /** Bytes after deleting. */
  bytesAfter: number;
  /** Absolute paths of deleted files, oldest first. */
  deleted: string[];
}

/**
 * Deletes the least recently modified store files of `folder` until their total is at most `maxBytes`.
 * Files some live process has open (lock records) are never deleted, so the folder can stay above its
 * cap; files that do not match the store's layouts are neither counted nor touched.
 */
export async function rotateFolder(
  writer: StoreWriter,
  folder: StoreFolder,
  maxBytes: number,
): Promise<RotationResult> {
  const dir = path.join(writer.root, folder);
  const files = (await listFiles(writer.root, dir)).filter((f) => isStoreFile(folder, f.rel));
  const bytesBefore = files.reduce((n, f) => n + f.size, 0);
  let total = bytesBefore;
  const deleted: string[] = [];
  if (total <= maxBytes) return { bytesBefore, bytesAfter: total, deleted };
  const inUse = await filesInUse(writer.root);
  files.sort((a, b) => a.mtimeMs - b.mtimeMs || compareText(a.path, b.path));
  for (const f of files) {
    if (total <= maxBytes) break;
    if (inUse.has(path.resolve(f.path))) continue;
    if (await writer.remove(f.path)) deleted.push(f.path);
    total -= f.size;
  }
  for (const d of new Set(deleted.map((p) => path.dirname(p))))
    if (path.resolve(d) !== path.resolve(dir)) await writer.removeEmptyDir(d);
  return { bytesBefore, bytesAfter: total, deleted };
}

/** A temp file of a writer on another machine (shared drive) is young; never take one younger than this. */
const TEMP_GRACE_MS = 60_000;

/** Deletes crash leftovers whose writer is gone, and stale lock records. Returns the deleted paths. */
export async function cleanLeftovers(writer: StoreWriter, folders: readonly string[]): Promise<string[]> {
  const deleted: string[] = [];
  const locks = await readLocks(writer.root);
  for (const { name, record, ageMs } of locks)
    if (!record || !isAlive(record, ageMs)) {
      const p = path.join(writer.root, LOCKS_DIR, name);
      if (await writer.remove(p).catch(() => false)) deleted.push(p);
    }
  const inUse = await filesInUse(writer.root);
  const now = Date.now();
  for (const folder of folders)
    for (const f of await listFiles(writer.root, path.join(writer.root, folder))) {
      const base = path.basename(f.path);
      let gone = false;
      if (base.endsWith('.partial')) gone = !inUse.has(path.resolve(f.path));
      else if (base.startsWith('.') && base.endsWith('.tmp')) {
        const owner = tempOwner(base);
        gone = now - f.mtimeMs > TEMP_GRACE_MS && (!owner || !isAlive(owner));
      }
      if (gone && (await writer.remove(f.path).catch(() => false))) deleted.push(f.path);
    }
  return deleted;
}
