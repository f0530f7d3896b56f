// edit_file writes through a file handle pinned to the path the guard checked. Saving by path (VS Code's
// `doc.save()`, `fs.writeFile`) follows whatever the path is at that moment: a command or a build running
// meanwhile could swap in a symbolic link or a hard link to a file outside the workspace (or into
// .context-desk/) after the last check, and the save would write through it. Here the file is opened
// without following a last link (O_NOFOLLOW), and the opened file itself is checked before a byte is
// written: a regular file with one name, whose name (Linux: /proc/self/fd) is the checked path.
// A new file is created inside its checked folder through that folder's handle (O_EXCL: never through
// a link, never over a file that appeared meanwhile). Without /proc (macOS, Windows) the handle's
// device and inode are compared with an lstat of the path, no folder on the way a link (handle-path.ts),
// and a new file is created by path only while its folder is still the opened one.
import { constants, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { nameOfHandle, pathNamesOpened, procFdUsable, type HandleLookup } from '../../handle-path';

export type PinnedFile = { ok: true; handle: FileHandle } | { ok: false; why: string };

/** Runs once the target is opened and before it is checked (a test swaps a link in here). */
export type PinHook = () => Promise<void> | void;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0; // a FIFO swapped in must not hang the open
const DIRECTORY = constants.O_DIRECTORY ?? 0;

const changed = (shown: string, what: string): string =>
  `${shown} changed just before writing (${what}); nothing was written.`;

/**
 * Opens the existing file `absolute` (a real path the guard resolved) to rewrite it, or says why not:
 * it is no longer that regular file with one name. `shown` names it in the refusal.
 */
export async function openPinnedExisting(
  absolute: string,
  shown: string,
  hook?: PinHook,
  lookup: HandleLookup = {},
): Promise<PinnedFile> {
  let handle: FileHandle;
  try {
    handle = await fsp.open(absolute, constants.O_RDWR | NOFOLLOW | NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') return { ok: false, why: changed(shown, 'it is a symbolic link now') };
    return { ok: false, why: `${shown} could not be opened to write: ${(e as Error).message}` };
  }
  const refused = await checkOpened(handle, absolute, shown, lookup, hook);
  if (!refused) return { ok: true, handle };
  await handle.close();
  return { ok: false, why: refused };
}

/** Creates `absolute` (and its missing folders) inside the checked folders, never through a link. */
export async function createPinned(
  absolute: string,
  shown: string,
  hook?: PinHook,
  lookup: HandleLookup = {},
): Promise<PinnedFile> {
  const parent = await pinnedFolder(path.dirname(absolute), shown, lookup);
  if (!parent.ok) return parent;
  let handle: FileHandle;
  try {
    const proc = await procFdUsable(lookup);
    // By path only while the path still leads to the opened folder (checked again on the new file).
    if (!proc && !(await pathNamesOpened(path.dirname(absolute), await parent.handle.stat())))
      return { ok: false, why: changed(shown, 'its folder is another folder now') };
    const at = proc ? `/proc/self/fd/${parent.handle.fd}/${path.basename(absolute)}` : absolute;
    handle = await fsp.open(at, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | NOFOLLOW | NONBLOCK, 0o666);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      ok: false,
      why:
        code === 'EEXIST'
          ? changed(shown, 'something exists at that name now')
          : `${shown} could not be created: ${(e as Error).message}`,
    };
  } finally {
    await parent.handle.close();
  }
  const refused = await checkOpened(handle, absolute, shown, lookup, hook);
  if (!refused) return { ok: true, handle };
  await handle.close();
  return { ok: false, why: refused };
}

/** Why the opened file is not the checked one, or ''. */
async function checkOpened(
  handle: FileHandle,
  absolute: string,
  shown: string,
  lookup: HandleLookup,
  hook?: PinHook,
): Promise<string> {
  await hook?.();
  const st = await handle.stat();
  if (!st.isFile()) return changed(shown, 'it is not a regular file now');
  if (st.nlink !== 1) return changed(shown, 'it has other names now (a hard link), which may lie outside');
  const name = await nameOfHandle(handle.fd, lookup);
  if (name !== undefined) return name === absolute ? '' : changed(shown, 'it is reached through another folder now');
  // Without /proc: the path must still be this file, reached without links.
  return (await pathNamesOpened(absolute, st)) ? '' : changed(shown, 'it is another file now');
}

/** A handle on the folder `dir`, made where missing, each step inside the last (Linux) and checked. */
async function pinnedFolder(dir: string, shown: string, lookup: HandleLookup): Promise<PinnedFile> {
  const missing: string[] = [];
  let base = dir;
  while (
    !(await fsp.lstat(base).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    const up = path.dirname(base);
    if (up === base) return { ok: false, why: `${shown}: no folder of it exists.` };
    missing.unshift(path.basename(base));
    base = up;
  }
  let handle: FileHandle;
  try {
    handle = await fsp.open(base, constants.O_RDONLY | DIRECTORY | NOFOLLOW);
  } catch (e) {
    return { ok: false, why: changed(shown, `its folder could not be opened: ${(e as Error).message}`) };
  }
  const proc = await procFdUsable(lookup);
  for (const name of missing) {
    const at = proc ? `/proc/self/fd/${handle.fd}/${name}` : path.join(base, name);
    try {
      // By path only while it leads to the folder opened last.
      if (!proc && !(await pathNamesOpened(base, await handle.stat()))) throw new Error('it is another folder now');
      await fsp.mkdir(at).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e;
      });
      const next = await fsp.open(at, constants.O_RDONLY | DIRECTORY | NOFOLLOW);
      await handle.close();
      handle = next;
      base = path.join(base, name);
    } catch (e) {
      await handle.close();
      return { ok: false, why: changed(shown, `its folder could not be made: ${(e as Error).message}`) };
    }
  }
  // Named by the kernel, or else the path leads to this very folder with no link on the way.
  const name = await nameOfHandle(handle.fd, lookup);
  if (name !== undefined ? name === dir : await pathNamesOpened(dir, await handle.stat())) return { ok: true, handle };
  await handle.close();
  return { ok: false, why: changed(shown, 'its folder is reached through another folder now') };
}

/**
 * Rewrites the pinned file with `bytes` in place (same file, same name, its mode kept), after `current`
 * approves what it holds now (false: nothing is written, the answer is false).
 */
export async function rewritePinned(
  handle: FileHandle,
  bytes: Uint8Array,
  current?: (held: Uint8Array) => Promise<boolean> | boolean,
): Promise<boolean> {
  if (current) {
    const held = await handle.readFile();
    if (!(await current(held))) return false;
  }
  await handle.write(bytes, 0, bytes.length, 0);
  await handle.truncate(bytes.length);
  return true;
}
