// What the store's tools answer a calling model (VS Code's language-model tools use them; loaded with
// the features bundle, like the store they read). Every argument is checked: a model can send anything.
// Refusals (a path outside the store, a missing file, a bad pattern) come back as text the calling
// model can read and act on.
import type { ContextStore } from '../../store/context-store';
import { StoreReferenceError } from '../../store/errors';
import { GREP_SCOPES, grepStore, type GrepScope } from '../../search/store-grep';
import { hardLinkNote } from '../../search/single-name';
import { secretSafeCut } from '../../store/sanitize/secrets';
import type { LocateOptions } from '../../search/locate';
import { formatLineRange, MAX_LINE_CHARS, MAX_READ_LINES, readLineRange, type LineRange } from './line-range';
import { recentExecutions } from '../../store/terminal-log-reader';
import { openChecked, ReadRefusedError } from '../../read-text';
import { deadline } from './deadline';
import { unreadableNote } from '../../search/unreadable';
import { firstMatchAt, GREP_LINE_CHARS, GREP_TIMEOUT_MS, matchWindow } from './match-window';
import { formatCount } from '../../numbers';

/** Whether a terminal is captured, as the terminal list tells a calling model. */
export type TerminalState = 'captured' | 'task' | 'waiting-for-shell-integration' | 'off';

/**
 * Most characters a read answers with (about 64,000 tokens): 2000 lines of ordinary length fit, 2000
 * lines cut at 2000 characters (4 MB) do not.
 */
export const READ_CHARS = 256_000;
/** The read tool's name, as a long line's cut tells the calling model to read on with it. */
const READ_TOOL = 'contextDesk_readStoredFile';
export { GREP_LINE_CHARS, GREP_TIMEOUT_MS } from './match-window';
/** Most characters grep answers with (about 12,000 tokens); past it the answer says how to narrow or read on. */
export const GREP_CHARS = 50_000;
/** Longest last command the terminal list shows whole. */
export const COMMAND_CHARS = 300;
export const DEFAULT_MATCHES = 100;
export const MAX_MATCHES = 1000;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const asObject = (input: unknown): Record<string, unknown> =>
  typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
// A line number or count from the caller: a whole number >= 1, or absent.
const badCount = (v: unknown): boolean => v !== undefined && !(Number.isInteger(v) && (v as number) >= 1);

const STATE_TEXT: Record<TerminalState, string> = {
  captured: 'captured',
  task: 'task terminal: commands and exit codes only (VS Code gives extensions no task output)',
  'waiting-for-shell-integration': 'not captured: no shell integration (yet)',
  off: 'not captured: contextDesk.terminals.capture is off',
};

/**
 * The tool's answer, or its failure as an answer (the store cannot be opened, a folder cannot be read):
 * the calling model gets a sentence it can act on instead of an exception. A cancelled call still throws.
 */
export async function answerOrFailure(
  tool: string,
  run: () => Promise<string>,
  cancelled: () => boolean,
): Promise<string> {
  try {
    return await run();
  } catch (e) {
    if (cancelled()) throw e;
    return `${tool} failed: ${message(e)}`;
  }
}

/** Reads `path` (a store reference) by line range, with read_file's caps; never the whole file. */
export async function readStored(store: ContextStore, raw: unknown): Promise<string> {
  const input = asObject(raw);
  if (typeof input.path !== 'string') return 'Refused: "path" must be a string.';
  // Checked, not ignored: a quoted "500" read from line 1 while the caller believed it read from 500.
  if (badCount(input.offset)) return 'Refused: "offset" must be a whole number from 1 (the first line).';
  if (badCount(input.limit))
    return `Refused: "limit" must be a whole number from 1 (at most ${MAX_READ_LINES} lines are read).`;
  if (badCount(input.column))
    return 'Refused: "column" must be a whole number from 1 (the first character of the line at offset).';
  let resolved;
  try {
    resolved = await store.resolveReference(input.path);
  } catch (e) {
    if (e instanceof StoreReferenceError) return e.message;
    throw e;
  }
  // Opened once, without waiting, as the file resolved (not a FIFO or a link swapped in since), and read
  // through that handle only.
  let fh;
  try {
    ({ fh } = await openChecked(resolved.absolute, { singleName: true }));
  } catch (e) {
    return `Refused to open '${input.path}': ${message(e)}`;
  }
  let range;
  try {
    const head = Buffer.alloc(8192);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    if (head.subarray(0, bytesRead).includes(0))
      return `${resolved.display} is a binary file; it cannot be read as text.`;
    range = await readLineRange(fh, {
      ...(typeof input.offset === 'number' ? { offset: input.offset } : {}),
      ...(typeof input.limit === 'number' ? { limit: input.limit } : {}),
      ...(typeof input.column === 'number' ? { column: input.column } : {}),
      tool: READ_TOOL,
    });
  } finally {
    await fh.close();
  }
  return formatLineRange(resolved.display, fitChars(range, READ_CHARS));
}

/**
 * The range shortened to the lines that fit in `max` characters (at least one), so a page of 2000 long
 * lines (4 MB) does not flood the caller; `more` then says where to read on.
 */
export function fitChars(range: LineRange, max: number): LineRange {
  let chars = 0;
  let n = 0;
  for (const line of range.lines) {
    chars += `${range.offset + n}\t`.length + line.length + 1;
    if (n > 0 && chars > max) break;
    n++;
  }
  return n === range.lines.length ? range : { ...range, lines: range.lines.slice(0, n), more: true };
}

/** The grep tool's input checked (a calling model can send anything), or why it is refused. */
function grepInput(input: unknown): { pattern: string; scope: GrepScope; fixed: boolean; maxMatches: number } | string {
  const { pattern, scope = 'all', fixed = false, maxMatches = DEFAULT_MATCHES } = asObject(input);
  if (typeof pattern !== 'string' || pattern === '') return 'Refused: "pattern" must be a non-empty string.';
  if (typeof scope !== 'string' || !GREP_SCOPES.includes(scope as GrepScope))
    return `Refused: "scope" must be one of ${GREP_SCOPES.join(', ')}.`;
  if (typeof fixed !== 'boolean') return 'Refused: "fixed" must be true or false.';
  if (typeof maxMatches !== 'number' || !Number.isInteger(maxMatches) || maxMatches < 1 || maxMatches > MAX_MATCHES)
    return `Refused: "maxMatches" must be a whole number from 1 to ${MAX_MATCHES}.`;
  return { pattern, scope: scope as GrepScope, fixed, maxMatches };
}

/**
 * `path:line: text` per match, or why the search failed or was refused. Long lines are cut around their
 * first match, the answer stops at GREP_CHARS, and the search after `timeoutMs`; the answer then says so
 * and how to read on.
 */
export async function grepText(
  store: ContextStore,
  input: unknown,
  signal: AbortSignal,
  locate: LocateOptions,
  timeoutMs = GREP_TIMEOUT_MS,
): Promise<string> {
  const checked = grepInput(input);
  if (typeof checked === 'string') return checked;
  const { pattern, scope, fixed, maxMatches } = checked;
  const lines: string[] = [];
  let chars = 0;
  let found = 0;
  let cutLines = false;
  let full = false;
  const timer = deadline(timeoutMs);
  let timedOut = false;
  let unreadable: string[] = [];
  const linked: string[] = [];
  try {
    // One match past the cap tells whether there are more.
    for await (const m of grepStore({
      root: store.root,
      pattern,
      scope,
      fixed,
      maxMatches: maxMatches + 1,
      signal: AbortSignal.any([signal, timer.signal]),
      // Where each match starts, so a long line is shown around it.
      ranges: true,
      locate,
      // A file or folder it may not read does not void what was found in the rest.
      onUnreadable: (paths) => (unreadable = paths),
      onHardLink: (file) => void linked.push(file),
    })) {
      if (++found > maxMatches) break;
      const shown = matchWindow(m.text, firstMatchAt(m.ranges), GREP_LINE_CHARS);
      cutLines ||= shown.cut;
      const line = `${store.displayPath(m.file)}:${m.line}: ${shown.text}${shown.cut ? ' (line cut)' : ''}`;
      if (lines.length > 0 && chars + line.length + 1 > GREP_CHARS) {
        full = true;
        break;
      }
      lines.push(line);
      chars += line.length + 1;
    }
  } catch (e) {
    if (signal.aborted) throw e;
    if (!timer.expired) return `grep failed: ${message(e)}`;
    timedOut = true;
  } finally {
    timer.clear();
  }
  const faster = 'narrow the scope, or use a simpler or literal (fixed) pattern';
  if (timedOut && lines.length === 0)
    return `grep stopped after ${timeoutMs / 1000} s without a match in ${scope}: ${faster}.`;
  const skipped = (
    unreadableNote(unreadable, store.root, store.displayPath(store.root) + '/') + hardLinkNote(linked, store.root)
  ).slice(1);
  if (lines.length === 0) {
    const none = `No matches for ${JSON.stringify(pattern)} in ${scope}.`;
    return skipped ? `${none}\n${skipped}` : none;
  }
  const notes: string[] = [];
  if (timedOut)
    notes.push(
      `(grep stopped after ${timeoutMs / 1000} s; these ${lines.length} matches were found by then, there may be more: ${faster})`,
    );
  else if (full)
    notes.push(
      `(${lines.length} matches shown: the answer stops at ${formatCount(GREP_CHARS)} characters; narrow the pattern or the scope, or read a file around a line with contextDesk_readStoredFile)`,
    );
  else if (found > maxMatches)
    notes.push(
      `(more than ${maxMatches} matches; narrow the pattern or the scope, or raise maxMatches up to ${MAX_MATCHES})`,
    );
  if (cutLines)
    notes.push(
      `(lines longer than ${GREP_LINE_CHARS} characters are cut around their first match; ${READ_TOOL} at its line with column reads ${formatCount(MAX_LINE_CHARS)} characters from there)`,
    );
  if (skipped) notes.push(skipped);
  return [...lines, ...notes].join('\n');
}

/** A command line as JSON, cut when long (a pasted heredoc is a command line of many kilobytes). */
function shownCommand(command: string): string {
  if (command.length <= COMMAND_CHARS) return JSON.stringify(command);
  const cut = command.slice(0, secretSafeCut(command, COMMAND_CHARS));
  return `${JSON.stringify(cut)}… (${formatCount(command.length)} characters; the log has all of it)`;
}

/** One line per terminal: its state, its log and its last command. */
export async function terminalsText(
  store: ContextStore,
  terminals: readonly { name: string; state: TerminalState; log?: string }[],
): Promise<string> {
  const rows = await Promise.all(
    terminals.map(async ({ name, state, log }) => {
      const where = log ? ` - log: ${store.displayPath(log)}` : '';
      let last;
      try {
        last = log ? (await recentExecutions(log, 1))[0] : undefined;
      } catch (e) {
        if (!(e instanceof ReadRefusedError)) throw e;
        return `${name || '(unnamed)'}: ${STATE_TEXT[state]}${where} - its index is not read: ${e.message}`;
      }
      const status = last?.exitCode === undefined ? 'running' : `exit ${last.exitCode ?? 'unknown'}`;
      const lastText = last ? ` - last command: ${shownCommand(last.command)} (${status})` : '';
      return `${name || '(unnamed)'}: ${STATE_TEXT[state]}${where}${lastText}`;
    }),
  );
  return rows.length ? rows.join('\n') : 'No terminals are open.';
}
