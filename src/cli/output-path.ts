// Where the CLI writes what the user asked for (a plot, a dump of contexts): never through a link that
// sits in the folder the command runs in, or in one a `../` path comes back down into. A cloned
// repository can ship `plot.svg -> ~/.profile` or `out -> ~`, and a plain write follows it. Links above
// (`/tmp` on macOS, an absolute path's folders) are the user's own setup and are followed.
import { lstat, open, rename, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageError } from './command';
import { redactSecrets } from '../core/store/sanitize/secrets';

const climbs = (rel: string): boolean => rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);

/**
 * The first link among the existing parts of `target` at or below `cwd` (the leaf included), if any. A
 * relative target that climbs out (`../out/plot.svg` run in `repo/src`) comes back down into the same
 * repository, so its parts are checked from the folder where the two paths part (`repo`).
 */
export async function linkOnTheWay(target: string, cwd = process.cwd()): Promise<string | undefined> {
  const full = resolve(cwd, target);
  let base = cwd;
  if (!isAbsolute(target)) while (climbs(relative(base, full)) && dirname(base) !== base) base = dirname(base);
  const rel = relative(base, full);
  const parts = climbs(rel) ? [] : rel.split(sep).filter((p) => p !== '');
  let at = base;
  const steps = parts.length > 0 ? parts.map((p) => (at = join(at, p))) : [full];
  for (const step of steps) {
    const st = await lstat(step).catch(() => undefined);
    if (!st) return undefined;
    if (st.isSymbolicLink()) return step;
  }
  return undefined;
}

/** Refuses `target` (named by `flag`) when a link is on its way; see `linkOnTheWay`. */
export async function refuseLinks(flag: string, target: string): Promise<void> {
  const link = await linkOnTheWay(target);
  if (link !== undefined)
    throw new UsageError(`${flag} ${target}: ${link} is a link; name the real path (a repository can plant links)`);
}

/**
 * Writes `text` to `target` through a new file renamed into place: a link put there meanwhile is replaced,
 * not followed. Redacted first, like everything Context Desk writes (a plot names its trajectory's file).
 */
export async function writeOutputFile(flag: string, target: string, raw: string): Promise<void> {
  await refuseLinks(flag, target);
  const { text } = await redactSecrets(raw);
  const tmp = join(dirname(resolve(target)), `.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx');
  try {
    await fh.writeFile(text);
    await fh.close();
    await rename(tmp, target);
  } catch (e) {
    await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw e;
  }
}
