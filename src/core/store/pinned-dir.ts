// Deleting inside a store folder through a handle on that folder. The writer checks every folder from
// the root down (no links), but a command running meanwhile can swap a checked folder for a link
// (`mv .context-desk/mcp/x /tmp; ln -s ~ .context-desk/mcp/x`): an unlink or readdir by path after the
// check then acts on the link's target. Here the folder is opened without following a last link, its
// real name is checked on the open handle (Linux: /proc/self/fd), and its entries are reached through
// that handle (/proc/self/fd/N/name), so a swap after the open changes nothing.
import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';

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
    const proc = await fsp.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    const real = await fsp.realpath(dir).catch(() => '');
    for (const name of proc === undefined ? [real] : [real, proc])
      if (!isExpected(name)) throw new FolderMovedError(`${dir} leads to ${name || 'somewhere else'} now`);
    const entry =
      proc !== undefined
        ? (name: string) => `/proc/self/fd/${handle.fd}/${name}`
        : (name: string) => path.join(dir, name);
    return await use(entry);
  } finally {
    await handle.close();
  }
}
