// Searches under the store leave out a file with other names: a hard link a command made (`ln
// ~/.ssh/id_rsa .context-desk/tool-outputs/x.txt`) may be any file of the user's, and what a search
// prints goes to the model or a log as if Context Desk had stored it. The store's readers refuse it too.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { openChecked, ReadRefusedError } from '../read-text';
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

/**
 * Whether `file` may be opened in the editor as a file of the store at `root`: its real path (links
 * followed) and a refusal otherwise: it leads outside the store, is not a regular file, or has other
 * names (a hard link a command made: `ln ~/.ssh/id_rsa .context-desk/terminals/x.log` would show that
 * key as the terminal's log). Checked on the opened file, as the readers check it.
 */
export async function storeFileToShow(
  root: string,
  file: string,
): Promise<{ ok: true; real: string } | { ok: false; why: string }> {
  const real = await fsp.realpath(file).catch(() => undefined);
  if (real === undefined) return { ok: false, why: `${file} does not exist (it may have been rotated away).` };
  const realRoot = await fsp.realpath(root).catch(() => path.resolve(root));
  const rel = path.relative(realRoot, real);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel))
    return { ok: false, why: `${file} is a link that leads outside the Context Desk folder; it is not opened.` };
  try {
    const { fh } = await openChecked(real, { singleName: true });
    await fh.close();
  } catch (e) {
    if (e instanceof ReadRefusedError)
      return { ok: false, why: `${e.message.replace('is not read', 'is not opened')}.` };
    return { ok: false, why: `${file} cannot be opened: ${(e as Error).message}` };
  }
  return { ok: true, real };
}
