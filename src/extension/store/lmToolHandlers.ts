// What the language-model tools answer (loaded with the features bundle, like the store they read).
// Refusals (a path outside the store, a missing file, a bad pattern) come back as text the calling
// model can read and act on.
import type { ContextStore } from '../../core/store/context-store';
import { StoreReferenceError } from '../../core/store/errors';
import { grepStore, type GrepScope } from '../../core/search/store-grep';
import type { LocateOptions } from '../../core/search/locate';
import { formatLineRange, readLineRange } from '../../core/agent/tools/line-range';
import { recentExecutions } from '../../core/store/terminal-log-reader';
import { openChecked } from '../../core/read-text';
import type { TerminalState } from './terminalCapture';

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const STATE_TEXT: Record<TerminalState, string> = {
  captured: 'captured',
  task: 'task terminal: commands and exit codes only (VS Code gives extensions no task output)',
  'waiting-for-shell-integration': 'not captured: no shell integration (yet)',
  off: 'not captured: contextDesk.terminals.capture is off',
};

/** Reads `path` (a store reference) by line range, with read_file's caps; never the whole file. */
export async function readStored(
  store: ContextStore,
  input: { path?: unknown; offset?: unknown; limit?: unknown },
): Promise<string> {
  if (typeof input.path !== 'string') return 'Refused: "path" must be a string.';
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
    ({ fh } = await openChecked(resolved.absolute));
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
    });
  } finally {
    await fh.close();
  }
  return formatLineRange(resolved.display, range);
}

/** `path:line: text` per match, or why the search failed. */
export async function grepText(
  store: ContextStore,
  input: { pattern: string; scope?: GrepScope; fixed?: boolean; maxMatches?: number },
  signal: AbortSignal,
  locate: LocateOptions,
): Promise<string> {
  const { pattern, scope = 'all', fixed = false, maxMatches = 100 } = input;
  const lines: string[] = [];
  try {
    for await (const m of grepStore({ root: store.root, pattern, scope, fixed, maxMatches, signal, locate }))
      lines.push(`${store.displayPath(m.file)}:${m.line}: ${m.text}`);
  } catch (e) {
    if (signal.aborted) throw e;
    return `grep failed: ${message(e)}`;
  }
  return lines.length ? lines.join('\n') : `No matches for ${pattern} in ${scope}.`;
}

/** One line per terminal: its state, its log and its last command. */
export async function terminalsText(
  store: ContextStore,
  terminals: readonly { name: string; state: TerminalState; log?: string }[],
): Promise<string> {
  const rows = await Promise.all(
    terminals.map(async ({ name, state, log }) => {
      const where = log ? ` - log: ${store.displayPath(log)}` : '';
      const last = log ? (await recentExecutions(log, 1))[0] : undefined;
      const status = last?.exitCode === undefined ? 'running' : `exit ${last.exitCode ?? 'unknown'}`;
      const lastText = last ? ` - last command: ${JSON.stringify(last.command)} (${status})` : '';
      return `${name || '(unnamed)'}: ${STATE_TEXT[state]}${where}${lastText}`;
    }),
  );
  return rows.length ? rows.join('\n') : 'No terminals are open.';
}
