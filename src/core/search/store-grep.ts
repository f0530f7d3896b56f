// Grep over the Context Desk store: the same code for the CLI, the commands and the language-model tools.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { locateRipgrep, NO_RIPGREP_MESSAGE, type LocateOptions } from './locate';
import {
  ripgrepBatches,
  ripgrepPrintedLines,
  ripgrepToFd,
  RipgrepError,
  type CaseMode,
  type GrepMatch,
  type PrintedLines,
  type RipgrepOptions,
} from './ripgrep';
import { singleNameFilter } from './single-name';

/** Which part of the store to search. */
export type GrepScope = 'terminals' | 'tool-outputs' | 'history' | 'all';
export const GREP_SCOPES: readonly GrepScope[] = ['terminals', 'tool-outputs', 'history', 'all'];

export interface StoreGrepOptions {
  /** The store folder (e.g. `<workspace>/.context-desk`). */
  root: string;
  pattern: string;
  scope?: GrepScope;
  fixed?: boolean;
  caseMode?: CaseMode;
  maxMatches?: number;
  signal?: AbortSignal;
  /** Report match ranges (rg `--json`; slower when there are many matches). */
  ranges?: boolean;
  /** How to find rg (VS Code passes its appRoot); or `rgPath` to skip the search. */
  locate?: LocateOptions;
  rgPath?: string;
  /**
   * Paths rg could not read (see `RipgrepOptions.onUnreadable`): given this, the search keeps what it
   * found in the rest instead of failing as a whole.
   */
  onUnreadable?: (paths: string[]) => void;
  /** Told once per file left out for having other names (a hard link; see `single-name.ts`). */
  onHardLink?: (file: string) => void;
}

/**
 * Folders searched for a scope. In history the readable Markdown transcripts are searched (line by line),
 * not the JSONL. Throws RipgrepError for any other scope: a scope comes from a model too, and joined to
 * the root `../..` would search outside the store.
 */
export function scopeFolders(root: string, scope: GrepScope): string[] {
  if (!GREP_SCOPES.includes(scope))
    throw new RipgrepError(`unknown scope ${JSON.stringify(scope)}: use one of ${GREP_SCOPES.join(', ')}`, null);
  const all: GrepScope[] = ['terminals', 'tool-outputs', 'history'];
  return (scope === 'all' ? all : [scope]).map((s) => path.join(root, s));
}

/** Streams matches from the store one at a time (see `grepStoreBatches`). */
export async function* grepStore(o: StoreGrepOptions): AsyncGenerator<GrepMatch> {
  for await (const batch of grepStoreBatches(o))
    for (const m of batch) {
      o.signal?.throwIfAborted();
      yield m;
    }
}

/**
 * Streams matches from the store in batches (a quick pick adds one batch per update). Throws
 * `RipgrepError` with a message the UI can show when there is no store at `root`, no ripgrep, or rg
 * rejects the pattern.
 */
export async function* grepStoreBatches(o: StoreGrepOptions): AsyncGenerator<GrepMatch[]> {
  const search = await storeSearch(o);
  if (!search) return;
  const single = singleNameFilter(o.onHardLink);
  for await (const batch of ripgrepBatches({
    ...search,
    maxMatches: o.maxMatches,
    signal: o.signal,
    ranges: o.ranges,
    onUnreadable: o.onUnreadable,
  })) {
    const kept = (await Promise.all(batch.map(async (m) => ((await single.keep(m.file)) ? m : undefined)))).filter(
      (m): m is GrepMatch => m !== undefined,
    );
    if (kept.length > 0) yield kept;
  }
}

/**
 * The same search as printed lines, `file:line:text` with files relative to `cwd` (how
 * `context-desk grep` shows them), streamed as rg's bytes (see `ripgrepPrintedLines`).
 */
export async function* grepStorePrintedLines(
  o: Omit<StoreGrepOptions, 'ranges'> & { cwd: string },
): AsyncGenerator<PrintedLines> {
  const search = await storeSearch(o);
  if (!search) return;
  // rg prints a file as its search path joined with the name: relative paths in, relative paths out.
  const single = singleNameFilter(o.onHardLink);
  const paths = search.paths.map((p) => path.relative(o.cwd, p) || '.');
  yield* ripgrepPrintedLines({
    ...search,
    paths,
    cwd: o.cwd,
    maxMatches: o.maxMatches,
    signal: o.signal,
    onUnreadable: o.onUnreadable,
    dropDotSlash: paths.includes('.'),
    keepFile: (file) => single.keep(path.resolve(o.cwd, file)),
  });
}

/**
 * The same printed lines written by rg itself to `fd` (see `ripgrepToFd`). Undefined, with nothing
 * done, when rg's own output would differ from `grepStorePrintedLines` (the cwd is a scope folder, where
 * rg prints `./file`; a file has other names and must be left out): search through that instead.
 * Otherwise true if anything matched.
 */
export async function grepStoreToFd(
  o: Omit<StoreGrepOptions, 'ranges' | 'maxMatches'> & { cwd: string; fd: number },
): Promise<boolean | undefined> {
  const search = await storeSearch(o);
  if (!search) return false;
  const paths = search.paths.map((p) => path.relative(o.cwd, p));
  if (paths.includes('')) return undefined;
  // rg's bytes go straight out, so a file with other names is looked for first; when there is one the
  // filtered search is used. (One linked while rg runs is not seen: the window is the search itself.)
  if (await anyHardLink(search.paths)) return undefined;
  return ripgrepToFd({ ...search, paths, cwd: o.cwd, signal: o.signal, onUnreadable: o.onUnreadable }, o.fd);
}

/** rg, pattern and folders for a store search; undefined when no folder of the scope exists yet. */
async function storeSearch(
  o: StoreGrepOptions,
): Promise<Pick<RipgrepOptions, 'rgPath' | 'pattern' | 'paths' | 'fixed' | 'caseMode' | 'globs'> | undefined> {
  // lstat: rg follows a link it is given, and a cloned repository can ship `.context-desk` or one of
  // its folders as a link to anywhere (~/.ssh); such a search is refused, not quietly narrowed.
  const st = await fsp.lstat(o.root).catch(() => undefined);
  if (st?.isSymbolicLink()) throw linkRefused(o.root);
  if (!st?.isDirectory()) throw new RipgrepError(`no Context Desk folder at ${o.root}`, null);
  const folders: string[] = [];
  for (const f of scopeFolders(o.root, o.scope ?? 'all')) {
    const fst = await fsp.lstat(f).catch(() => undefined);
    if (fst?.isSymbolicLink()) throw linkRefused(f);
    if (fst?.isDirectory()) folders.push(f);
  }
  if (folders.length === 0) return undefined;
  const rgPath = o.rgPath ?? (await locateRipgrep(o.locate))?.path;
  if (!rgPath) throw new RipgrepError(NO_RIPGREP_MESSAGE, null);
  return {
    rgPath,
    pattern: o.pattern,
    paths: folders,
    fixed: o.fixed,
    caseMode: o.caseMode,
    globs: ['!*.partial', '!*.jsonl', '!.*.tmp', '!index.json'],
  };
}

/** Whether a regular file under `folders` (links not followed) has other names. */
async function anyHardLink(folders: readonly string[]): Promise<boolean> {
  for (const folder of folders) {
    const entries = await fsp.readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!e.isFile()) continue;
      const st = await fsp.lstat(path.join(e.parentPath, e.name)).catch(() => undefined);
      if (st?.isFile() && st.nlink > 1) return true;
    }
  }
  return false;
}

function linkRefused(p: string): RipgrepError {
  return new RipgrepError(
    `${p} is a symbolic link: not searched (a link in the Context Desk folder can point outside the workspace; remove it, or search its target yourself)`,
    null,
  );
}
