// `context-desk grep`: search the store's terminals, tool outputs and history with ripgrep.
import { parseArgs } from 'node:util';
import * as path from 'node:path';
import { UsageError, type Command } from '../command';
import {
  GREP_SCOPES,
  grepStoreBatches,
  grepStorePrintedLines,
  grepStoreToFd,
  type GrepScope,
} from '../../core/search/store-grep';
import { RipgrepError } from '../../core/search/ripgrep';
import { stripControls } from '../../core/terminal-controls';
import { unreadableNote } from '../../core/search/unreadable';
import { hardLinkNote } from '../../core/search/single-name';

const usage = `Usage: context-desk grep PATTERN [options]

Search the Context Desk folder (terminal logs, stored tool outputs, chat history) with ripgrep.

Options:
  --in SCOPE         terminals | tool-outputs | history | all (default: all)
  --dir DIR          the Context Desk folder (default: ./.context-desk)
  --json             one JSON object per match: {"file","line","text"}
  -F, --fixed        PATTERN is a literal string, not a regex
  -i, --ignore-case  case-insensitive
  --max N            stop after N matches

A file or folder that cannot be read is named on standard error; the matches found in the
rest are printed, and the exit code is 2 (as rg's and grep's). A file with other names (a
hard link, which may be any file of yours) is not searched and is named on standard error.

Exit code: 0 matches found, 1 none, 2 error (or something could not be read).`;

const command: Command = {
  summary: 'search terminal logs, tool outputs and history in the Context Desk folder',
  usage,
  async run(argv, io) {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          in: { type: 'string', default: 'all' },
          dir: { type: 'string', default: '.context-desk' },
          json: { type: 'boolean', default: false },
          fixed: { type: 'boolean', short: 'F', default: false },
          'ignore-case': { type: 'boolean', short: 'i', default: false },
          max: { type: 'string' },
        },
      });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const { values, positionals } = parsed;
    if (positionals.length !== 1)
      throw new UsageError(
        positionals.length === 0
          ? 'PATTERN is missing'
          : `expected one PATTERN, got ${positionals.length} (quote it, or put it after --)`,
      );
    const scope = values.in as GrepScope;
    if (!GREP_SCOPES.includes(scope))
      throw new UsageError(`--in must be one of ${GREP_SCOPES.join(', ')}, not '${values.in}'`);
    let max: number | undefined;
    if (values.max !== undefined) {
      max = Number(values.max);
      if (!Number.isInteger(max) || max < 1)
        throw new UsageError(`--max must be a positive integer, not '${values.max}'`);
    }
    const root = path.resolve(values.dir);
    let unreadable: string[] = [];
    const linked: string[] = [];
    const search = {
      root,
      pattern: positionals[0]!,
      scope,
      fixed: values.fixed,
      caseMode: values['ignore-case'] ? ('ignore' as const) : ('sensitive' as const),
      maxMatches: max,
      signal: io.signal,
      // A path rg cannot read (a file another user wrote, a folder without permission) does not void
      // the matches found in the rest; it is named on stderr and the exit code says so.
      onUnreadable: (paths: string[]) => (unreadable = paths),
      // A file with other names (a hard link a command made) is left out, and named on stderr.
      onHardLink: (file: string) => void linked.push(file),
    };
    // One write per chunk of rg's output; wait when the reader (a pipe into `head`, a terminal) is slower.
    const write = async (out: string | Buffer): Promise<void> => {
      if (!io.stdout.write(out)) await new Promise((resolve) => io.stdout.once('drain', resolve));
    };
    let found = 0;
    try {
      if (values.json) {
        // Paths relative to the cwd, worked out once per file (a file often has thousands of matches).
        const cwd = process.cwd();
        const relative = new Map<string, string>();
        const shown = (file: string): string => {
          let r = relative.get(file);
          if (r === undefined) relative.set(file, (r = path.relative(cwd, file) || file));
          return r;
        };
        for await (const batch of grepStoreBatches(search)) {
          found += batch.length;
          let out = '';
          for (const m of batch) out += JSON.stringify({ file: shown(m.file), line: m.line, text: m.text }) + '\n';
          await write(out);
        }
      } else {
        // Plain lines are rg's own (files relative to the cwd). Straight from rg to a file or pipe when
        // nothing has to be counted; through this process to a test's stream or for --max, and to a
        // terminal, which would run the escape sequences a file holds (a cloned repository's store:
        // OSC 52 writes the clipboard): there they are stripped.
        const cwd = process.cwd();
        const tty = io.stdoutIsTTY === true;
        const direct =
          io.stdoutFd !== undefined && max === undefined && !tty
            ? await grepStoreToFd({ ...search, cwd, fd: io.stdoutFd })
            : undefined;
        if (direct !== undefined) found = direct ? 1 : 0;
        else
          for await (const lines of grepStorePrintedLines({ ...search, cwd })) {
            found += lines.count;
            await write(tty ? stripControls(lines.bytes.toString('utf8')) : lines.bytes);
          }
      }
    } catch (e) {
      if (io.signal.aborted) return 130;
      if (e instanceof RipgrepError) {
        io.stderr.write(`context-desk grep: ${e.message}\n`);
        return 2;
      }
      throw e;
    }
    if (linked.length > 0) io.stderr.write(`context-desk grep: ${hardLinkNote(linked, root).slice(2, -1)}\n`);
    if (unreadable.length > 0) {
      io.stderr.write(`context-desk grep: ${unreadableNote(unreadable, process.cwd(), '').slice(2, -1)}\n`);
      return 2;
    }
    return found > 0 ? 0 : 1;
  },
};

export default command;
