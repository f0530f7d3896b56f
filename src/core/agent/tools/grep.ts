// grep over the workspace with ripgrep (src/core/search), behind a small port so hosts can swap it.
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { kindOf } from '../../read-text';
import { locateRipgrep, NO_RIPGREP_MESSAGE } from '../../search/locate';
import { ripgrep, RipgrepError, type GrepMatch, type RipgrepOptions } from '../../search/ripgrep';
import type { AgentTool, ToolOutput } from '../tool-registry';
import type { PathGuard } from './paths';
import { deadline } from './deadline';
import { shownName, unreadableNote } from '../../search/unreadable';
import { hardLinkNote, singleNameFilter } from '../../search/single-name';
import { firstMatchAt, GREP_LINE_CHARS, GREP_TIMEOUT_MS, matchWindow } from './match-window';

export type GrepPort = (o: Omit<RipgrepOptions, 'rgPath'>) => AsyncIterable<GrepMatch>;

/** The default port: the first ripgrep `locateRipgrep` finds (VS Code's when `appRoot` is given). */
export function ripgrepPort(locate: Parameters<typeof locateRipgrep>[0] = {}): GrepPort {
  let found: Promise<string | undefined> | undefined;
  return async function* (o) {
    found ??= locateRipgrep(locate).then((l) => l?.path);
    const rgPath = await found;
    if (!rgPath) throw new RipgrepError(NO_RIPGREP_MESSAGE, null);
    yield* ripgrep({ ...o, rgPath });
  };
}

// Terminal logs' indexes repeat every command line as JSON: grep finds the readable log lines instead.
const DEFAULT_EXCLUDES = ['!**/.git/**', '!**/node_modules/**', '!**/terminals/*.index.jsonl'];

export function grepTool(
  guard: PathGuard,
  port: GrepPort = ripgrepPort(),
  options: { timeoutMs?: number } = {},
): AgentTool {
  const timeoutMs = options.timeoutMs ?? GREP_TIMEOUT_MS;
  return {
    name: 'grep',
    description: `Searches file contents with ripgrep (Rust regex). Returns "path:line: text"; a line longer than ${GREP_LINE_CHARS} characters is cut around its first match. Works on stored outputs and terminal logs too. "$" is the end of a line's text, before a Windows line end too (so "\\s$" finds trailing spaces); "\\r$" finds Windows line ends. Binary files are searched only when named by path; a search stops after ${GREP_TIMEOUT_MS / 1000} s.`,
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, description: 'Regex, or a literal with fixed=true.' },
        path: { type: 'string', description: 'File or folder. Default: the workspace.' },
        glob: { type: 'string', description: 'Only files matching this glob, e.g. "*.ts".' },
        ignore_case: { type: 'boolean' },
        fixed: { type: 'boolean', description: 'Treat the pattern as a literal string.' },
        max_results: { type: 'integer', minimum: 1, maximum: 1000, description: 'Default 100.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    async run(args, ctx): Promise<ToolOutput> {
      const r = await guard.resolve(args.path ?? '.');
      if (!r.ok) return { ok: false, text: r.message };
      // ripgrep opens a FIFO it is named and waits for a writer (a folder's FIFOs it skips).
      const st = await stat(r.absolute).catch(() => undefined);
      if (!st) return { ok: false, text: `No such file or folder: ${r.display}` };
      if (!st.isFile() && !st.isDirectory())
        return { ok: false, text: `${r.display} is not a regular file (${kindOf(st)}); it is not searched.` };
      const max = typeof args.max_results === 'number' ? args.max_results : 100;
      // A workspace search skips the store (its logs and history would echo every earlier search);
      // searching inside the store itself is explicit.
      const store = guard.storeRoot;
      const inStore = r.inStore === true || (store !== undefined && !path.relative(store, r.absolute).startsWith('..'));
      if (inStore && st.isFile() && st.nlink > 1)
        return {
          ok: false,
          text: `${r.display} has ${st.nlink} names (a hard link): a file in the Context Desk folder with another name may be any file linked in by a command, so it is not searched. Delete it (the other names keep their content).`,
        };
      const storeExclude = store && !inStore ? [`!**/${path.basename(store)}/**`] : [];
      const lines: string[] = [];
      let unreadable: string[] = [];
      // In the store, a file with other names (`ln ~/.ssh/id_rsa .context-desk/…`) is left out, as
      // read_file and the store's readers refuse it. Workspace files with other names are searched (pnpm).
      const single = inStore ? singleNameFilter() : undefined;
      let legacy = 0;
      const timer = deadline(timeoutMs);
      try {
        for await (const m of port({
          pattern: String(args.pattern),
          paths: [r.absolute],
          fixed: args.fixed === true,
          caseMode: args.ignore_case === true ? 'ignore' : 'sensitive',
          maxMatches: max + 1,
          globs: [...DEFAULT_EXCLUDES, ...storeExclude, ...(typeof args.glob === 'string' ? [args.glob] : [])],
          signal: AbortSignal.any([ctx.signal, timer.signal]),
          // Where each match starts, so a long line is shown around it (and rg's JSON keeps odd names whole).
          ranges: true,
          // A folder it may not read does not void what was found elsewhere.
          onUnreadable: (paths) => (unreadable = paths),
        })) {
          if (single && !(await single.keep(m.file))) continue;
          const rel = path.relative(guard.workspaceRoot, m.file).split(path.sep).join('/');
          const shown = matchWindow(m.text, firstMatchAt(m.ranges), GREP_LINE_CHARS).text;
          if (m.legacy && lines.length < max) legacy++;
          lines.push(`${shownName(rel.startsWith('..') ? m.file : rel)}:${m.line}: ${shown}`);
        }
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        if (timer.expired) return timedOut(lines.slice(0, max), timeoutMs, r.display);
        return { ok: false, text: `grep failed: ${e instanceof Error ? e.message : String(e)}` };
      } finally {
        timer.clear();
      }
      const skipped =
        unreadableNote(unreadable, guard.workspaceRoot) +
        hardLinkNote(single?.leftOut ?? [], guard.workspaceRoot) +
        legacyNote(legacy);
      if (lines.length === 0) {
        // Nothing found and nothing readable (a file named by path that cannot be read): a failure.
        const none = `No matches for ${JSON.stringify(args.pattern)} in ${r.display}`;
        const whole = unreadable.length === 0 && (single?.leftOut.length ?? 0) === 0;
        return { ok: whole || st.isDirectory(), text: `${none}.${skipped}` };
      }
      const more = lines.length > max ? `\n(more than ${max} matches; narrow the pattern or the path)` : '';
      return { ok: true, text: lines.slice(0, max).join('\n') + more + skipped };
    },
  };
}

/** A note on matched lines shown as Windows-1252, or ''. */
function legacyNote(n: number): string {
  if (n === 0) return '';
  const which = n === 1 ? '1 matched line is' : `${n} matched lines are`;
  return `\n(${which} not UTF-8 and shown read as Windows-1252: ripgrep searches such a file as bytes, where a non-ASCII letter or "." in a pattern does not match its accented letters)`;
}

/** What a search that ran out of time answers: the matches found until then, and how to search faster. */
function timedOut(lines: string[], timeoutMs: number, where: string): ToolOutput {
  const how = 'search a smaller path, add a glob, or use a simpler or literal (fixed) pattern';
  const s = timeoutMs / 1000;
  if (lines.length === 0) return { ok: false, text: `grep stopped after ${s} s without a match in ${where}: ${how}.` };
  return {
    ok: true,
    text: `${lines.join('\n')}\n(grep stopped after ${s} s; these ${lines.length} matches were found by then, there may be more: ${how})`,
  };
}
