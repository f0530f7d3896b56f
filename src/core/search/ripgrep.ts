// Streaming ripgrep: spawned without a shell, arguments as an array, `--json` parsed line by line.
import { spawn } from 'node:child_process';
import * as readline from 'node:readline';

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
}

export interface GrepMatch {
  /** The file as rg printed it (absolute when the search paths are absolute). */
  file: string;
  /** 1-based line number. */
  line: number;
  /** The matching line without its line terminator. */
  text: string;
  /** Match ranges in `text` (UTF-16 offsets). */
  ranges: { start: number; end: number }[];
}

/** rg failed (bad regex, unreadable path): the message is rg's own. */
export class RipgrepError extends Error {
  override readonly name = 'RipgrepError';
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

interface RgText {
  text?: string;
  bytes?: string;
}
interface RgMatch {
  type: string;
  data: { path: RgText; line_number: number; lines: RgText; submatches: { start: number; end: number }[] };
}

const decode = (t: RgText): string => t.text ?? Buffer.from(t.bytes ?? '', 'base64').toString('utf8');

/** The argument list (exposed for tests and for the benchmark's direct baseline). */
export function ripgrepArgs(o: Omit<RipgrepOptions, 'rgPath' | 'signal' | 'cwd' | 'maxMatches'>): string[] {
  // --no-ignore: the store's own .gitignore is `*`; --no-config: a user's RIPGREP_CONFIG_PATH must not change results.
  const args = ['--json', '--no-config', '--no-ignore', '--hidden'];
  if (o.fixed) args.push('--fixed-strings');
  if (o.caseMode === 'ignore') args.push('--ignore-case');
  else if (o.caseMode === 'smart') args.push('--smart-case');
  else args.push('--case-sensitive');
  for (const g of o.globs ?? []) args.push('--glob', g);
  args.push('-e', o.pattern, '--', ...o.paths);
  return args;
}

// Byte offsets from rg to UTF-16 offsets in the decoded line.
function toRanges(lineText: string, subs: { start: number; end: number }[]): { start: number; end: number }[] {
  if (!/[^\x00-\x7f]/.test(lineText)) return subs.map((s) => ({ start: s.start, end: s.end }));
  const buf = Buffer.from(lineText, 'utf8');
  return subs.map((s) => ({
    start: buf.subarray(0, s.start).toString('utf8').length,
    end: buf.subarray(0, s.end).toString('utf8').length,
  }));
}

/**
 * Streams matches as rg finds them. Breaking out of the loop, `maxMatches` or the signal kill rg at
 * once. Throws `RipgrepError` when rg reports an error (exit code 2, e.g. an invalid regex), and the
 * signal's reason when aborted.
 */
export async function* ripgrep(o: RipgrepOptions): AsyncGenerator<GrepMatch> {
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
    if (stderr.length < 8192) stderr += s;
  });
  const exit = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  exit.catch(() => undefined);
  const onAbort = (): void => void child.kill();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  let count = 0;
  let stopped = false;
  try {
    const rl = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
    for await (const line of rl) {
      if (o.signal?.aborted) break;
      if (!line.startsWith('{"type":"match"')) continue;
      const m = JSON.parse(line) as RgMatch;
      const text = decode(m.data.lines).replace(/\r?\n$/, '');
      yield { file: decode(m.data.path), line: m.data.line_number, text, ranges: toRanges(text, m.data.submatches) };
      if (o.maxMatches !== undefined && ++count >= o.maxMatches) {
        stopped = true;
        break;
      }
    }
    o.signal?.throwIfAborted();
    if (stopped) return;
    const code = await exit.catch((e: Error) => {
      throw new RipgrepError(`could not run ripgrep at ${o.rgPath}: ${e.message}`, null);
    });
    if (code === 2) throw new RipgrepError(stderr.trim() || 'ripgrep failed', code);
    if (code !== 0 && code !== 1) throw new RipgrepError(stderr.trim() || `ripgrep exited with ${code}`, code);
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}
