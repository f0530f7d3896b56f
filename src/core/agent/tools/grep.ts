// grep over the workspace with ripgrep (src/core/search), behind a small port so hosts can swap it.
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { kindOf } from '../../read-text';
import { locateRipgrep, NO_RIPGREP_MESSAGE } from '../../search/locate';
import { ripgrep, RipgrepError, type GrepMatch, type RipgrepOptions } from '../../search/ripgrep';
import type { AgentTool, ToolOutput } from '../tool-registry';
import type { PathGuard } from './paths';
import { secretSafeCut } from '../../store/sanitize/secrets';

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

export function grepTool(guard: PathGuard, port: GrepPort = ripgrepPort()): AgentTool {
  return {
    name: 'grep',
    description:
      'Searches file contents with ripgrep (Rust regex). Returns "path:line: text". Works on stored outputs and terminal logs too.',
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
      if (st && !st.isFile() && !st.isDirectory())
        return { ok: false, text: `${r.display} is not a regular file (${kindOf(st)}); it is not searched.` };
      const max = typeof args.max_results === 'number' ? args.max_results : 100;
      // A workspace search skips the store (its logs and history would echo every earlier search);
      // searching inside the store itself is explicit.
      const store = guard.storeRoot;
      const inStore = store !== undefined && !path.relative(store, r.absolute).startsWith('..');
      const storeExclude = store && !inStore ? [`!**/${path.basename(store)}/**`] : [];
      const lines: string[] = [];
      try {
        for await (const m of port({
          pattern: String(args.pattern),
          paths: [r.absolute],
          fixed: args.fixed === true,
          caseMode: args.ignore_case === true ? 'ignore' : 'sensitive',
          maxMatches: max + 1,
          globs: [...DEFAULT_EXCLUDES, ...storeExclude, ...(typeof args.glob === 'string' ? [args.glob] : [])],
          signal: ctx.signal,
        })) {
          const rel = path.relative(guard.workspaceRoot, m.file).split(path.sep).join('/');
          lines.push(
            `${rel.startsWith('..') ? m.file : rel}:${m.line}: ${m.text.length > 500 ? `${m.text.slice(0, secretSafeCut(m.text, 500))}…` : m.text}`,
          );
        }
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        return { ok: false, text: `grep failed: ${e instanceof Error ? e.message : String(e)}` };
      }
      if (lines.length === 0)
        return { ok: true, text: `No matches for ${JSON.stringify(args.pattern)} in ${r.display}.` };
      const more = lines.length > max ? `\n(more than ${max} matches; narrow the pattern or the path)` : '';
      return { ok: true, text: lines.slice(0, max).join('\n') + more };
    },
  };
}
