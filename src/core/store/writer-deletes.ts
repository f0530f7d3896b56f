// The store writer's deletions (one of its parts: only store-writer.ts uses them): a file, an empty
// folder, a folder tree. Never a link and never through one: entries are reached through a handle on
// their checked folder (pinned-dir.ts), so a folder swapped for a link after the check is refused.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { StoreWriteError } from './errors';
import { errnoOf, wrap, type StoreFolders } from './writer-folders';

/** Deletes a file (never a link, never through one). Returns false when it was already gone. */
export async function removeFile(folders: StoreFolders, file: string): Promise<boolean> {
  let target: string;
  try {
    target = await folders.prepare(file, 'delete', false);
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return false;
    throw e;
  }
  return folders.inFolder(path.dirname(target), async (entry) => {
    const at = entry(path.basename(target));
    const st = await fsp.lstat(at).catch(() => undefined);
    if (!st) return false;
    if (!st.isFile()) throw new StoreWriteError(target, `Refused to delete ${target}: it is not a file.`);
    await fsp.unlink(at).catch((e: unknown) => {
      if (errnoOf(e) !== 'ENOENT') throw wrap(e, target, 'delete');
    });
    return true;
  });
}

/** Removes a folder if it is empty (a real folder, not a link). Returns whether it was removed. */
export async function removeEmptyFolder(folders: StoreFolders, dir: string): Promise<boolean> {
  const segs = folders.segments(dir);
  const target = await folders.walk(segs, 'delete', false).catch(() => undefined);
  if (!target) return false;
  return removeFolderIn(folders, target).then(
    () => true,
    () => false,
  );
}

/** rmdir() of the checked folder `dir` through a handle on the folder holding it (see removeFile). */
function removeFolderIn(folders: StoreFolders, dir: string): Promise<void> {
  return folders.inFolder(path.dirname(dir), (entry) => fsp.rmdir(entry(path.basename(dir))));
}

/**
 * Deletes a folder and everything in it, never following a link: a link inside is reported and kept
 * (so is the folder holding it). Returns the links that were kept.
 */
export async function removeFolderTree(folders: StoreFolders, dir: string): Promise<string[]> {
  const target = await folders.walk(folders.segments(dir), 'delete', false);
  const kept: string[] = [];
  // Listed and emptied through a handle on the checked folder.
  await folders.inFolder(target, async (entry) => {
    for (const e of await fsp.readdir(entry('.'), { withFileTypes: true })) {
      const p = path.join(target, e.name);
      if (e.isSymbolicLink()) kept.push(folders.refuse(p, 'delete').link);
      else if (e.isDirectory()) for (const k of await removeFolderTree(folders, p)) kept.push(k);
      else await fsp.unlink(entry(e.name)).catch(() => undefined);
    }
  });
  if (kept.length === 0) await removeFolderIn(folders, target).catch(() => undefined);
  return kept;
}
