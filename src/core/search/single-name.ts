// Searches under the store leave out a file with other names: a hard link a command made (`ln
// ~/.ssh/id_rsa .context-desk/tool-outputs/x.txt`) may be any file of the user's, and what a search
// prints goes to the model or a log as if Context Desk had stored it. The store's readers refuse it too.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
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
