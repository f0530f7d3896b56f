// Deleting inside a store folder through a handle on that folder. The writer checks every folder from
// the root down (no links), but a command running meanwhile can swap a checked folder for a link
// (`mv .context-desk/mcp/x /tmp; ln -s ~ .context-desk/mcp/x`): an unlink or readdir by path after the
// check then acts on the link's target. Here the folder is opened without following a last link, its
// real name is checked on the open handle (Linux: /proc/self/fd), and its entries are reached through
// that handle (/proc/self/fd/N/name), so a swap after the open changes nothing. Without /proc (macOS,
// Windows) an entry can only be reached by path: the folder at that path is compared with the handle
// (device, inode) after the open and again right before each entry is used, and refused when it differs.
import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { nameOfHandle, stillTheFolder, type HandleLookup } from '../handle-path';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;

/** Thrown when the folder is not (any more) the checked one; nothing in it was touched. */
export class FolderMovedError extends Error {}

/**
 * Runs `use` with `entry`, which names an entry of the folder `dir` as the opened folder holds it, and
 * closes `handle`. `handle` is `dir` opened with O_DIRECTORY | O_NOFOLLOW (`open` below, by the store
 * writer); `isExpected` judges the folder's real path.
 */
export async function inPinnedFolder<T>(
  dir: string,
  open: (flags: number) => Promise<fsp.FileHandle>,
  isExpected: (real: string) => boolean,
  use: (entry: (name: string) => string) => Promise<T>,
  lookup: HandleLookup = {},
): Promise<T> {
  let handle: fsp.FileHandle;
  try {
    handle = await open(constants.O_RDONLY | DIRECTORY | NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') throw new FolderMovedError(`${dir} is not a folder (a link?) now`);
    throw e;
  }
  try {
    // Both: the path resolves as expected, and (Linux) the opened folder is named so by the kernel.
    const proc = await nameOfHandle(handle.fd, lookup);
    const real = await fsp.realpath(dir).catch(() => '');
    for (const name of proc === undefined ? [real] : [real, proc])
      if (!isExpected(name)) throw new FolderMovedError(`${dir} leads to ${name || 'somewhere else'} now`);
    if (proc !== undefined) return await use((name) => `/proc/self/fd/${handle.fd}/${name}`);
    // No name for the handle: the path must lead to the opened folder, now and at each entry's use.
    const st = await handle.stat();
    const moved = (): FolderMovedError => new FolderMovedError(`${dir} is another folder (or a link) now`);
    if (!stillTheFolder(dir, st)) throw moved();
    return await use((name) => {
      if (!stillTheFolder(dir, st)) throw moved();
      return path.join(dir, name);
    });
  } finally {
    await handle.close();
  }
}
