// Whether an open file or folder is the one a checked path names. On Linux the kernel says which path
// a descriptor is open on (/proc/self/fd/N), and entries of an opened folder are reached through it.
// Elsewhere (macOS, Windows) nothing says: the handle's identity (device, inode from fstat) is compared
// with an lstat of the path taken after the open, with no folder on the way a link, so a link swapped
// in before the open (or still there) is refused. A swap and a swap back timed between those calls is
// not seen; the kernel's name has no such window.
import { lstatSync, promises as fsp, type Stats } from 'node:fs';
import * as path from 'node:path';

export interface HandleLookup {
  /** false: never ask /proc, as on a system without it (tests run the fallback this way). Default: use it where it answers. */
  proc?: boolean;
}

let procAnswers: Promise<boolean> | undefined;

/** Whether /proc/self/fd names what a descriptor is open on here (Linux), unless `lookup` turns it off. */
export function procFdUsable(lookup: HandleLookup = {}): Promise<boolean> {
  if (lookup.proc === false) return Promise.resolve(false);
  procAnswers ??= fsp.readlink('/proc/self/fd/0').then(
    () => true,
    () => false,
  );
  return procAnswers;
}

/** The path descriptor `fd` is open on as the kernel has it; undefined where /proc cannot say (or is turned off). */
export async function nameOfHandle(fd: number, lookup: HandleLookup = {}): Promise<string | undefined> {
  if (!(await procFdUsable(lookup))) return undefined;
  return fsp.readlink(`/proc/self/fd/${fd}`).catch(() => undefined);
}

const same = (a: Stats, b: Stats): boolean => a.dev === b.dev && a.ino === b.ino;

/** `p` and every folder above it up to its root, from the root down. */
function chain(p: string): string[] {
  const out: string[] = [];
  for (let at = path.resolve(p); ; at = path.dirname(at)) {
    out.unshift(at);
    if (path.dirname(at) === at) return out;
  }
}

/**
 * Whether `real` (an absolute path with no links in it) names the opened file or folder whose fstat is
 * `st`, by path: no folder on the way is a link now, and the last name is no link and has its
 * device and inode (checked before and after the folders, so a swap during the walk is seen too).
 */
export async function pathNamesOpened(real: string, st: Stats): Promise<boolean> {
  const at = async (): Promise<boolean> => {
    const now = await fsp.lstat(real).catch(() => undefined);
    return !!now && !now.isSymbolicLink() && same(now, st);
  };
  if (!(await at())) return false;
  for (const folder of chain(real).slice(0, -1)) {
    const s = await fsp.lstat(folder).catch(() => undefined);
    if (!s || s.isSymbolicLink() || !s.isDirectory()) return false;
  }
  return at();
}

/**
 * Synchronously: whether `dir` (as given, links above the checked folder allowed) still leads to the
 * opened folder whose fstat is `st`, its last name no link: checked right before each use of an entry
 * reached by path, where no handle can reach it.
 */
export function stillTheFolder(dir: string, st: Stats): boolean {
  try {
    const now = lstatSync(dir);
    return !now.isSymbolicLink() && now.isDirectory() && same(now, st);
  } catch {
    return false;
  }
}
