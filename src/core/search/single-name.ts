// Searches under the store leave out a file with other names: a hard link a command made (`ln
// ~/.ssh/id_rsa .context-desk/tool-outputs/x.txt`) may be any file of the user's, and what a search
// prints goes to the model or a log as if Context Desk had stored it. The store's readers refuse it too.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { openChecked, readUpTo, ReadRefusedError } from '../read-text';
import { shownName } from './unreadable';

/** Left-out files named at most in a note. */
const MAX_SHOWN = 5;

export interface SingleNameFilter {
  /** Whether `file` has one name (checked once per file; a file gone meanwhile is left out). */
  keep(file: string): Promise<boolean>;
  /** The files left out so far, in the order met. */
  readonly leftOut: readonly string[];
}

/** A per-search filter; `onLeftOut` is told each left-out file once. */
export function singleNameFilter(onLeftOut?: (file: string) => void): SingleNameFilter {
  const known = new Map<string, Promise<boolean>>();
  const leftOut: string[] = [];
  return {
    leftOut,
    keep(file) {
      let one = known.get(file);
      if (!one) {
        one = fsp.lstat(path.resolve(file)).then(
          (st) => {
            if (st.isFile() && st.nlink <= 1) return true;
            leftOut.push(file);
            onLeftOut?.(file);
            return false;
          },
          () => false, // gone since rg read it: what it held is not known to be the store's
        );
        known.set(file, one);
      }
      return one;
    },
  };
}

/** `file` as a note shows it: relative to `root` when under it. */
function shown(file: string, root: string): string {
  const rel = path.relative(root, path.resolve(file));
  return shownName(rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/'));
}

/** A note naming the files left out for their other names, or '' when none was. */
export function hardLinkNote(files: readonly string[], root: string): string {
  if (files.length === 0) return '';
  const names = files.slice(0, MAX_SHOWN).map((f) => shown(f, root));
  const rest = files.length - names.length;
  const n = files.length === 1 ? '1 file has' : `${files.length} files have`;
  return `\n(${n} other names (a hard link) and ${files.length === 1 ? 'was' : 'were'} not searched: a file in the Context Desk folder with another name may be any file linked in by a command. Delete it (the other names keep their content): ${names.join('; ')}${rest > 0 ? `; and ${rest} more` : ''})`;
}

/** What the editor is given of a store file: the text read from the checked file, or why it is refused. */
export type StoreFileShown = { ok: true; real: string; text: string; cut: boolean } | { ok: false; why: string };

/** A store file larger than this is shown as its first part (a terminal log may reach its folder's cap). */
export const MAX_SHOWN_BYTES = 64 * 1024 * 1024;

/**
 * The text of `file` as a file of the store at `root` may be shown in the editor, read from the handle
 * that was checked (never opened again by path: a link a command swaps in meanwhile would show a
 * foreign file as the store's). Refused when its real path (links followed) leads outside the store,
 * it is not a regular file, or it has other names (a hard link a command made: `ln ~/.ssh/id_rsa
 * .context-desk/terminals/x.log` would show that key as the terminal's log). Files over `maxBytes`
 * are cut at the last line that fits (`cut`).
 */
export async function readStoreFileToShow(
  root: string,
  file: string,
  maxBytes = MAX_SHOWN_BYTES,
): Promise<StoreFileShown> {
  const real = await fsp.realpath(file).catch(() => undefined);
  if (real === undefined) return { ok: false, why: `${file} does not exist (it may have been rotated away).` };
  const realRoot = await fsp.realpath(root).catch(() => path.resolve(root));
  const rel = path.relative(realRoot, real);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel))
    return { ok: false, why: `${file} is a link that leads outside the Context Desk folder; it is not opened.` };
  let opened: Awaited<ReturnType<typeof openChecked>>;
  try {
    opened = await openChecked(real, { singleName: true });
  } catch (e) {
    if (e instanceof ReadRefusedError)
      return { ok: false, why: `${e.message.replace('is not read', 'is not opened')}.` };
    return { ok: false, why: `${file} cannot be opened: ${(e as Error).message}` };
  }
  const { fh, st } = opened;
  try {
    // From the handle, as the file is now (a log grows): over the limit, cut at the last whole line.
    const { bytes: read, over: cut } = await readUpTo(fh, maxBytes, st.size);
    let bytes = read;
    if (cut) {
      const lastLine = bytes.lastIndexOf(0x0a);
      if (lastLine >= 0) bytes = bytes.subarray(0, lastLine + 1);
    }
    return { ok: true, real, text: bytes.toString('utf8'), cut };
  } catch (e) {
    return { ok: false, why: `${file} cannot be read: ${(e as Error).message}` };
  } finally {
    await fh.close().catch(() => undefined);
  }
}
