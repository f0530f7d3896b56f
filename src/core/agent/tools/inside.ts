import * as path from 'node:path';

/** Whether `child` is `parent` or lies below it (both absolute; a `..x` name counts as outside, the safe side). */
export function inside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
