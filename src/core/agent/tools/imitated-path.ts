// Which existing workspace file a look-alike path imitates. `src/cоnfig.ts` with a Cyrillic о beside a
// real `src/config.ts` is a new file the model would create (or a planted one it would edit) while the
// approval seems to name the real one: look-alike.ts says the letters are odd, this says which real
// file the path reads as, so the user can tell what is being imitated.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { inside } from './inside';

/**
 * Letters drawn like a plain ASCII letter, each with it (pairs: look-alike, ASCII), from Unicode's
 * confusables for the scripts most often mixed with Latin. Written as escapes: the letters themselves
 * cannot be told apart in review. Fullwidth and mathematical letters need no entry: NFKC makes them ASCII.
 */
const PAIRS =
  // Cyrillic lower: a c d e h i j l o p q s w x y
  '\u0430a\u0441c\u0501d\u0435e\u04bbh\u0456i\u0458j\u04cfl\u043eo\u0440p\u051bq\u0455s\u051dw\u0445x\u0443y' +
  // Cyrillic upper: A B C E H I J K M O P S T X Y
  '\u0410A\u0412B\u0421C\u0415E\u041dH\u0406I\u0408J\u041aK\u041cM\u041eO\u0420P\u0405S\u0422T\u0425X\u04aeY' +
  // Greek lower: i k n(eta) o p u(upsilon) v(nu)
  '\u03b9i\u03bak\u03b7n\u03bfo\u03c1p\u03c5u\u03bdv' +
  // Greek upper: A B E Z H I K M N O P T Y X
  '\u0391A\u0392B\u0395E\u0396Z\u0397H\u0399I\u039aK\u039cM\u039dN\u039fO\u03a1P\u03a4T\u03a5Y\u03a7X' +
  // Armenian o, u, h, q; Latin dotless i, script a, script g
  '\u0585o\u057du\u0570h\u0566q\u0131i\u0251a\u0261g';

const CONFUSABLE = new Map<string, string>();
for (let i = 0; i < PAIRS.length; i += 2) CONFUSABLE.set(PAIRS[i]!, PAIRS[i + 1]!);

/** A name as it reads: compatibility forms made plain (NFKC) and look-alike letters made ASCII. */
export function skeleton(name: string): string {
  return [...name.normalize('NFKC')].map((c) => CONFUSABLE.get(c) ?? c).join('');
}

/** The most entries of one folder compared (a folder of 100,000 files is not read for a title). */
const MAX_ENTRIES = 5000;

/** The first MAX_ENTRIES names of a folder (none when it cannot be read). */
async function firstNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of await fsp.opendir(dir)) {
      names.push(entry.name);
      if (names.length >= MAX_ENTRIES) break; // leaving the loop closes the folder
    }
  } catch {
    // unreadable: nothing to compare with
  }
  return names;
}

/**
 * The existing workspace path (`src/config.ts`) that `display` (workspace-relative with `/`) reads as
 * but is not, or undefined: each folder of the path is taken as it exists, or else as the one entry
 * whose name reads the same (preferred to an exact one when the name is not ASCII). Only folders inside
 * the workspace are listed (links out are not followed).
 */
export async function imitatedFile(workspaceRoot: string, display: string): Promise<string | undefined> {
  if (!/[^\u0000-\u007f]/.test(display)) return undefined;
  const parts = display.split('/').filter((p) => p !== '' && p !== '.');
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const found: string[] = [];
  let dir = root;
  for (const part of parts) {
    const real = await fsp.realpath(dir).catch(() => undefined);
    if (real === undefined || !inside(root, real) || part === '..') return undefined;
    const names = await firstNames(real);
    const shape = skeleton(part);
    // A look-alike name is compared even when it exists: a planted `cоnfig.ts` beside `config.ts`.
    const other = /[^\u0000-\u007f]/.test(part) ? names.find((n) => n !== part && skeleton(n) === shape) : undefined;
    const name = other ?? (names.includes(part) ? part : undefined);
    if (name === undefined) return undefined;
    found.push(name);
    dir = path.join(real, name);
  }
  const imitated = found.join('/');
  return imitated !== '' && imitated !== parts.join('/') ? imitated : undefined;
}

/** The most look-alike words of one text compared with the workspace. */
const MAX_WORDS = 8;

/**
 * For the paths in `text` (an MCP call's arguments) that read as an existing workspace file but are
 * not: `src/cоnfig.ts is not the existing file src/config.ts it reads as`. A path is a word with a letter outside
 * ASCII, relative or absolute inside the workspace; others are left out.
 */
export async function imitatedPaths(workspaceRoot: string, text: string): Promise<string[]> {
  const root = path.resolve(workspaceRoot);
  const words = [...new Set(text.split(/[\s"'`,;=<>()[\]{}|]+/u))]
    .filter((w) => /[^\u0000-\u007f]/.test(w))
    .slice(0, MAX_WORDS);
  const found: string[] = [];
  for (const word of words) {
    const abs = path.isAbsolute(word) ? path.resolve(word) : undefined;
    if (abs !== undefined && !inside(root, abs)) continue;
    const relative = (abs === undefined ? word : path.relative(root, abs)).split(path.sep).join('/');
    const imitated = await imitatedFile(root, relative);
    if (imitated !== undefined) found.push(`${word} is not the existing file ${imitated} it reads as`);
  }
  return found;
}
