// Streaming ripgrep: spawned without a shell, arguments as an array, `--json` parsed line by line.
import { spawn } from 'node:child_process';
import { MAX_STDERR, RipgrepError, describeRipgrepError, unreadablePaths } from './ripgrep-errors';
import { lineNumberEnd, parseJsonLine, parsePlainBytes, parsePlainLine, type GrepMatch } from './ripgrep-lines';

export { RipgrepError, describeRipgrepError, unreadablePaths } from './ripgrep-errors';
export type { GrepMatch } from './ripgrep-lines';

export type CaseMode = 'sensitive' | 'ignore' | 'smart';

export interface RipgrepOptions {
  /** The rg binary (see `locateRipgrep`). */
  rgPath: string;
  /** A regex (Rust syntax), or a literal with `fixed`. May start with `-`. */
  pattern: string;
  /** Files or folders to search (never empty: rg would read stdin). */
  paths: string[];
  fixed?: boolean;
  caseMode?: CaseMode;
  /** Stop after this many matches (the process is killed then). */
  maxMatches?: number;
  signal?: AbortSignal;
  cwd?: string;
  /** Extra `--glob` filters. */
  globs?: string[];
  /**
   * Report match ranges (for highlighting): rg runs with `--json`. Without it rg prints plain
   * `path NUL line:text` lines, about a third of the bytes, which keeps searches with many matches
   * close to rg's own speed (test/bench/grep.bench.ts).
   */
  ranges?: boolean;
  /**
   * Paths rg could not read (a folder without permission, a file gone meanwhile), each as rg names it
   * with its reason. Given this, a search that found such paths ends normally, with what it found in the
   * rest, instead of throwing: rg reports them with the same exit code as a fatal error.
   */
  onUnreadable?: (paths: string[]) => void;
}

/**
 * The argument list (exposed for tests and for the benchmark's direct baseline). Plain output puts a NUL
 * after the file name (a name can hold ':'), or with `afterFile: ':'` prints `file:line:text` for a reader.
 */
export function ripgrepArgs(
  o: Omit<RipgrepOptions, 'rgPath' | 'signal' | 'cwd' | 'maxMatches'>,
  afterFile: 'NUL' | ':' = 'NUL',
): string[] {
  // --no-ignore: the store's own .gitignore is `*`; --no-config: a user's RIPGREP_CONFIG_PATH must not change results.
  const args = ['--no-config', '--no-ignore', '--hidden'];
  if (endsLinesBeforeCrlf(o)) args.push('--crlf');
  if (o.ranges) args.push('--json');
  else {
    args.push('--line-number', '--with-filename', '--no-heading', '--color', 'never', '--no-column');
    if (afterFile === 'NUL') args.push('--null');
  }
  if (o.fixed) args.push('--fixed-strings');
  if (o.caseMode === 'ignore') args.push('--ignore-case');
  else if (o.caseMode === 'smart') args.push('--smart-case');
  else args.push('--case-sensitive');
  for (const g of o.globs ?? []) args.push('--glob', g);
  args.push('-e', o.pattern, '--', ...o.paths);
  return args;
}

/**
 * Whether `$` in the pattern should also match before a CRLF line end: without `--crlf`, `;$` finds
 * nothing in a file with Windows line ends. Only for a regex with `$` (nothing else changes), and not one
 * that names a CR itself (rg refuses `\r` with `--crlf`).
 */
function endsLinesBeforeCrlf(o: { pattern: string; fixed?: boolean }): boolean {
  return !o.fixed && o.pattern.includes('$') && !/\r|\\r|\\[xuU]\{?0*[dD]\b|\\015/.test(o.pattern);
}

/**
 * Runs rg and yields its output in complete lines, a chunk at a time (a line cut between chunks waits
 * for its end). The consumer breaking out, or the signal, kills rg at once. Throws `RipgrepError` when
 * rg reports an error (exit code 2, e.g. an invalid regex), and the signal's reason when aborted.
 */
async function* ripgrepLineChunks(o: RipgrepOptions): AsyncGenerator<Buffer> {
  if (o.paths.length === 0) throw new RipgrepError('nothing to search: no paths given', null);
  o.signal?.throwIfAborted();
  const child = spawn(o.rgPath, ripgrepArgs(o), {
    cwd: o.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: false,
    windowsHide: true,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => {
    if (stderr.length < MAX_STDERR) stderr += s;
  });
  const exit = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  exit.catch(() => undefined);
  const onAbort = (): void => void child.kill();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let pending: Buffer[] = [];
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      if (o.signal?.aborted) break;
      const last = chunk.lastIndexOf(10);
      if (last === -1) {
        pending.push(chunk);
        continue;
      }
      const head = chunk.subarray(0, last + 1);
      yield pending.length === 0 ? head : Buffer.concat([...pending, head]);
      pending = last + 1 < chunk.length ? [chunk.subarray(last + 1)] : [];
    }
    o.signal?.throwIfAborted();
    const code = await exit.catch((e: Error) => {
      throw new RipgrepError(`could not run ripgrep at ${o.rgPath}: ${e.message}`, null);
    });
    const unreadable = code === 2 && o.onUnreadable ? unreadablePaths(stderr) : undefined;
    if (unreadable) o.onUnreadable!(unreadable);
    else if (code === 2) throw new RipgrepError(describeRipgrepError(stderr, o.pattern), code);
    if (code !== 0 && code !== 1 && code !== 2)
      throw new RipgrepError(stderr.trim() || `ripgrep exited with ${code}`, code);
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

/**
 * Streams matches as rg finds them, in batches (all matches of one chunk of rg's output): one await
 * per batch instead of per match, which is what keeps a search with 100,000 matches close to rg's own
 * speed. Breaking out of the loop, `maxMatches` or the signal kill rg at once. Throws `RipgrepError`
 * when rg reports an error (exit code 2, e.g. an invalid regex), and the signal's reason when aborted.
 */
export async function* ripgrepBatches(o: RipgrepOptions): AsyncGenerator<GrepMatch[]> {
  let count = 0;
  for await (const chunk of ripgrepLineChunks(o)) {
    // Split by hand (cheaper than readline); in --json output only `match` records are parsed.
    const text = chunk.toString('utf8');
    // A line that is not UTF-8 (U+FFFD in its text) is read again from its bytes, as --json's are.
    const bytesToo = !o.ranges && text.includes('\ufffd');
    const batch: GrepMatch[] = [];
    let start = 0;
    let byteStart = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const line = text.slice(start, nl);
      start = nl + 1;
      let match: GrepMatch | undefined;
      if (bytesToo) {
        const byteEnd = chunk.indexOf(10, byteStart);
        match = parsePlainBytes(chunk.subarray(byteStart, byteEnd));
        byteStart = byteEnd + 1;
      } else match = o.ranges ? parseJsonLine(line) : parsePlainLine(line);
      if (!match) continue;
      batch.push(match);
      if (o.maxMatches !== undefined && ++count >= o.maxMatches) break;
    }
    if (batch.length > 0) yield batch;
    if (o.maxMatches !== undefined && count >= o.maxMatches) return;
  }
}

/** Plain output lines, ready to print: `file:line:text\n` each, and how many there are. */
export interface PrintedLines {
  bytes: Buffer;
  count: number;
}

/**
 * Matches as `rg` prints them for a reader (`file:line:text`, files as given in `paths`, the line's bytes
 * as they are in the file, a CR before its end included), for printing: no decoding, no objects, which
 * keeps `context-desk grep` with many matches near rg's own speed. Lines that are not matches (a "binary
 * file matches" notice) are dropped. `ranges` does not apply.
 */
export async function* ripgrepPrintedLines(
  o: Omit<RipgrepOptions, 'ranges'> & {
    /** Drop the `./` rg puts before files found under the path `.` (relative paths then read the same). */
    dropDotSlash?: boolean;
    /** Whether to print a file's lines (asked once per run of lines of one file; the name as rg prints it). */
    keepFile?: (file: string) => Promise<boolean>;
  },
): AsyncGenerator<PrintedLines> {
  let count = 0;
  let lastFile: Buffer | undefined;
  let keepLast = true;
  for await (const chunk of ripgrepLineChunks({ ...o, ranges: false })) {
    // In place: each NUL becomes ':'; bytes move left only after a dropped line or `./`.
    let written = 0;
    let lines = 0;
    let nul = chunk.indexOf(0);
    for (let start = 0; start < chunk.length;) {
      const nl = chunk.indexOf(10, start);
      if (nul !== -1 && nul < start) nul = chunk.indexOf(0, start); // the next line's separator
      let colon = nul === -1 || nul > nl ? -1 : lineNumberEnd(chunk, nul + 1, nl);
      if (colon !== -1 && o.keepFile) {
        // rg prints a file's lines together: the name is compared with the last one, not looked up each line.
        const file = chunk.subarray(start, nul);
        if (!lastFile?.equals(file)) {
          lastFile = Buffer.from(file);
          keepLast = await o.keepFile(file.toString('utf8'));
        }
        if (!keepLast) colon = -1;
      }
      if (colon !== -1) {
        const dotSlash = o.dropDotSlash && chunk[start] === 46 && (chunk[start + 1] === 47 || chunk[start + 1] === 92);
        const from = dotSlash ? start + 2 : start;
        chunk[nul] = 58;
        if (written !== from) chunk.copyWithin(written, from, nl + 1);
        written += nl + 1 - from;
        lines++;
        if (o.maxMatches !== undefined && ++count >= o.maxMatches) break;
      }
      start = nl + 1;
    }
    if (lines > 0) yield { bytes: chunk.subarray(0, written), count: lines };
    if (o.maxMatches !== undefined && count >= o.maxMatches) return;
  }
}

/**
 * The same lines written by rg itself straight to `fd` (a terminal, a file, a pipe the process owns):
 * nothing passes through node, so a search with many matches costs what rg costs. Every line rg prints
 * is a match here, since a binary file is only reported when named in `paths` and store searches name
 * folders. True if anything matched (false, not known, after `onUnreadable` was called); throws
 * `RipgrepError` as `ripgrepBatches` does.
 */
export async function ripgrepToFd(o: Omit<RipgrepOptions, 'ranges' | 'maxMatches'>, fd: number): Promise<boolean> {
  if (o.paths.length === 0) throw new RipgrepError('nothing to search: no paths given', null);
  o.signal?.throwIfAborted();
  const child = spawn(o.rgPath, ripgrepArgs(o, ':'), {
    cwd: o.cwd,
    stdio: ['ignore', fd, 'pipe'],
    shell: false,
    windowsHide: true,
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (s: string) => {
    if (stderr.length < MAX_STDERR) stderr += s;
  });
  const onAbort = (): void => void child.kill();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (c) => resolve(c));
    }).catch((e: Error) => {
      throw new RipgrepError(`could not run ripgrep at ${o.rgPath}: ${e.message}`, null);
    });
    o.signal?.throwIfAborted();
    const unreadable = code === 2 && o.onUnreadable ? unreadablePaths(stderr) : undefined;
    if (unreadable) {
      // rg exits 2 after a path it could not read whether or not it printed matches: which is not known.
      o.onUnreadable!(unreadable);
      return false;
    }
    if (code === 2) throw new RipgrepError(describeRipgrepError(stderr, o.pattern), code);
    if (code !== 0 && code !== 1) throw new RipgrepError(stderr.trim() || `ripgrep exited with ${code}`, code);
    return code === 0;
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

/** The same stream one match at a time (see `ripgrepBatches`; the signal is checked between matches). */
export async function* ripgrep(o: RipgrepOptions): AsyncGenerator<GrepMatch> {
  for await (const batch of ripgrepBatches(o))
    for (const m of batch) {
      o.signal?.throwIfAborted();
      yield m;
    }
}
