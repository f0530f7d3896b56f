// The store writer's whole-file writes (one of its parts: only store-writer.ts uses them): a file replaced
// atomically or created exclusively, a file renamed, a file's time set, each in folders checked by
// writer-folders.ts.
import { promises as fsp, constants as fsc } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { readTextFile } from '../read-text';
import { StoreWriteError } from './errors';
import { tempName } from './owners';
import { errnoOf, wrap, type StoreFolders } from './writer-folders';

/**
 * Writes `text` to the checked `target`: replaced atomically (temp file in the same folder, fsync,
 * rename), so readers see the old text or the new one. `ifChanged`: returns false without writing when
 * the content is the same. `exclusive`: creates the file only if it does not exist (returns false when
 * it does), no temp file.
 */
export async function writeChecked(
  folders: StoreFolders,
  target: string,
  text: string,
  options: { ifChanged?: boolean; exclusive?: boolean },
): Promise<boolean> {
  if (options.exclusive) {
    let h: fsp.FileHandle;
    try {
      h = await folders.openFile(target, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 'write');
    } catch (e) {
      if (errnoOf(e) === 'EEXIST') return false;
      throw wrap(e, target, 'write');
    }
    try {
      await h.writeFile(text);
    } finally {
      await h.close();
    }
    return true;
  }
  if (options.ifChanged) {
    // Longer than the new text (or not a file, such as a link to /dev/zero): changed, without reading it all.
    const old = await readTextFile(target, Buffer.byteLength(text)).catch(() => undefined);
    if (old === text) return false;
  }
  const tmp = path.join(path.dirname(target), tempName(path.basename(target), randomBytes(4).toString('hex')));
  try {
    const h = await folders.openFile(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 'write');
    try {
      await h.writeFile(text);
      await h.sync();
    } finally {
      await h.close();
    }
    // rename() replaces a link placed at the target meanwhile instead of following it; both names are
    // taken in the one checked folder, through its handle.
    await folders.inFolder(
      path.dirname(target),
      (entry) => fsp.rename(entry(path.basename(tmp)), entry(path.basename(target))),
      'write',
    );
  } catch (e) {
    await fsp.unlink(tmp).catch(() => undefined);
    throw wrap(e, target, 'write');
  }
  return true;
}

/** Renames a file inside the store; neither side may be (or lie under) a link. */
export async function renameInStore(folders: StoreFolders, from: string, to: string): Promise<void> {
  const source = await folders.prepare(from, 'rename', false);
  const st = await fsp.lstat(source);
  if (!st.isFile()) throw new StoreWriteError(source, `Cannot rename ${source}: it is not a file.`);
  const target = await folders.prepare(to, 'rename');
  try {
    // Both names taken through handles on their checked folders: one swapped for a link since its check
    // is refused, not renamed through (a file moved out of the store, or an outside one taken in).
    await folders.inFolder(
      path.dirname(source),
      (inSource) =>
        folders.inFolder(
          path.dirname(target),
          (inTarget) => fsp.rename(inSource(path.basename(source)), inTarget(path.basename(target))),
          'rename',
        ),
      'rename',
    );
  } catch (e) {
    throw wrap(e, target, 'rename');
  }
}

/** Sets the modification time of the store file `file` (never through a link) to `now`. */
export async function touchFile(folders: StoreFolders, file: string, now: Date): Promise<void> {
  const target = await folders.prepare(file, 'write', false);
  await fsp.lutimes(target, now, now);
}
