// Parses terminal logs back into command executions: the current readable format (with its index
// for exact values) and the older `␞ {"event":...}` JSON-marker format.
import { ReadRefusedError, readTextFile } from '../read-text';
import { MAX_JSONL_BYTES, parseJsonl } from './durable';
import {
  MARKER,
  parseMarkerLine,
  terminalIndexPath,
  type ExecutionSource,
  type IndexBegin,
  type IndexEnd,
  type IndexRecord,
} from './terminal-log-format';

export interface LoggedExecution {
  /** Unique id (from the index or an old-format marker); `#<seq>` when only the readable header is there. */
  exec: string;
  /** Number of the command in its log (current format). */
  seq?: number;
  command: string;
  cwd: string | null;
  /** ISO time; null when the start was not seen. */
  startedAt: string | null;
  source?: ExecutionSource;
  /** Output lines as stored. */
  output: string[];
  /** What could not be captured, and why. */
  notes: string[];
  /** Present once the footer was written; `null` exit code = unknown. */
  end?: { exitCode: number | null; durationMs: number | null; endedAt?: string; reason?: string };
}

export interface ParsedTerminalLog {
  executions: LoggedExecution[];
  /** Notes outside any execution (e.g. the terminal was open before capture began). */
  notes: string[];
  /** A last line without newline (a write in flight when the process died). */
  tornTail?: string;
  /** Marker lines that did not parse (1-based line numbers). */
  badMarkers: number[];
  /** Output lines outside any execution (another window writing the same log between our markers). */
  outside: string[];
}

/** Index records by number, in order (a number can repeat if two writers shared a log). */
function indexBySeq(indexText: string | undefined): Map<number, { begin?: IndexBegin; end?: IndexEnd }[]> {
  const out = new Map<number, { begin?: IndexBegin; end?: IndexEnd }[]>();
  if (!indexText) return out;
  for (const r of parseJsonl<Partial<IndexRecord>>(indexText).records) {
    if (typeof r.seq !== 'number' || (r.event !== 'begin' && r.event !== 'end')) continue;
    const list = out.get(r.seq) ?? [];
    if (r.event === 'begin') list.push({ begin: r as IndexBegin });
    else {
      const open = list.find((x) => x.begin?.exec === r.exec && !x.end);
      if (open) open.end = r as IndexEnd;
      else list.push({ end: r as IndexEnd });
    }
    out.set(r.seq, list);
  }
  return out;
}

/** Tolerant parser: never throws on a torn or damaged log; reports what it skipped. */
export function parseTerminalLog(text: string, indexText?: string): ParsedTerminalLog {
  const result: ParsedTerminalLog = { executions: [], notes: [], badMarkers: [], outside: [] };
  const index = indexBySeq(indexText);
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  if (tail !== '') result.tornTail = tail;
  let current: LoggedExecution | undefined;
  let commandLines = 0; // current format: `␞ $`/`␞ >` lines still belong to the header
  let oldCommandLines = 0; // old format: plain `$ cmd` / `> ` lines after a begin record

  const exact = (e: LoggedExecution): void => {
    // The index has the exact command, cwd, times and reasons; the readable lines are the fallback.
    const candidates = e.seq === undefined ? undefined : index.get(e.seq);
    const at = candidates?.findIndex((c) => c.begin?.command.split(/\r?\n/)[0] === e.command.split('\n')[0]) ?? -1;
    if (!candidates || at === -1) return;
    const [hit] = candidates.splice(at, 1);
    const b = hit!.begin!;
    Object.assign(e, { exec: b.exec, command: b.command, cwd: b.cwd, startedAt: b.startedAt, source: b.source });
    if (hit!.end && e.end)
      e.end = {
        exitCode: hit!.end.exitCode,
        durationMs: hit!.end.durationMs,
        endedAt: hit!.end.endedAt,
        ...(hit!.end.reason ? { reason: hit!.end.reason } : {}),
      };
  };
  const finishCurrent = (): void => {
    if (current && current.seq !== undefined) exact(current);
    current = undefined;
  };

  lines.forEach((line, i) => {
    if (line.startsWith(`${MARKER} `)) {
      const m = parseMarkerLine(line);
      if (m.kind === 'bad') return void result.badMarkers.push(i + 1);
      if (m.kind === 'json') {
        const rec = m.record;
        if (rec.event === 'begin') {
          finishCurrent();
          current = {
            exec: String(rec.exec),
            command: String(rec.command),
            cwd: typeof rec.cwd === 'string' ? rec.cwd : null,
            startedAt: String(rec.startedAt),
            output: [],
            notes: [],
          };
          result.executions.push(current);
          oldCommandLines = 1 + (current.command.match(/\n/g)?.length ?? 0);
        } else if (rec.event === 'end') {
          const target = result.executions.find((e) => e.exec === rec.exec);
          if (target)
            target.end = {
              exitCode: typeof rec.exitCode === 'number' ? rec.exitCode : null,
              durationMs: Number(rec.durationMs),
              endedAt: String(rec.endedAt),
            };
          if (current === target) current = undefined;
        } else result.badMarkers.push(i + 1);
        return;
      }
      oldCommandLines = 0;
      if (m.kind === 'info') {
        finishCurrent();
        current = {
          exec: `#${m.seq}`,
          seq: m.seq,
          command: '',
          cwd: m.cwd,
          startedAt: m.startedAt ?? null,
          output: [],
          notes: [],
        };
        result.executions.push(current);
        commandLines = 0;
      } else if (m.kind === 'command' || m.kind === 'continuation') {
        if (!current || current.output.length > 0 || (m.kind === 'command' && commandLines > 0))
          return void result.badMarkers.push(i + 1);
        current.command = commandLines === 0 ? m.text : `${current.command}\n${m.text}`;
        commandLines++;
      } else if (m.kind === 'note') {
        (current ?? result).notes.push(m.text);
      } else if (m.kind === 'exit') {
        if (!current) return void result.badMarkers.push(i + 1);
        current.end = {
          exitCode: m.exitCode,
          durationMs: m.durationMs,
          ...(m.reason ? { reason: m.reason } : {}),
        };
        if (current.startedAt && m.durationMs !== null)
          current.end.endedAt = new Date(Date.parse(current.startedAt) + m.durationMs).toISOString();
        finishCurrent();
      }
      return;
    }
    if (oldCommandLines > 0) {
      oldCommandLines--;
      return;
    }
    const out = line.startsWith(` ${MARKER}`) ? line.slice(1) : line;
    if (current) current.output.push(out);
    else if (out !== '') result.outside.push(out);
  });
  finishCurrent();
  return result;
}

// A log or index with other names (`ln ~/.bash_history .context-desk/terminals/…`) may be any file of
// the user's: it is refused (ReadRefusedError 'hard-link'), as the store's other readers refuse it.
const ONE_NAME = { singleName: true } as const;

/** An index that is not there, or not readable, reads as none; one with other names is refused. */
const noIndex =
  <T>(fallback: T) =>
  (e: unknown): T => {
    if (e instanceof ReadRefusedError && e.reason === 'hard-link') throw e;
    return fallback;
  };

/** Reads a log and its index (when there is one). Throws ReadRefusedError for a file with other names. */
export async function readTerminalLog(logPath: string): Promise<ParsedTerminalLog> {
  const [text, indexText] = await Promise.all([
    readTextFile(logPath, MAX_JSONL_BYTES, ONE_NAME),
    readTextFile(terminalIndexPath(logPath), MAX_JSONL_BYTES, ONE_NAME).catch(noIndex(undefined)),
  ]);
  return parseTerminalLog(text, indexText);
}

/**
 * The last executions of a log from its index alone (cheap for any log size): for listings. Throws
 * ReadRefusedError for an index with other names.
 */
export async function recentExecutions(
  logPath: string,
  count: number,
): Promise<{ command: string; exitCode: number | null | undefined; startedAt: string | null }[]> {
  const text = await readTextFile(terminalIndexPath(logPath), MAX_JSONL_BYTES, ONE_NAME).catch(noIndex(''));
  const byExec = new Map<string, { command: string; exitCode: number | null | undefined; startedAt: string | null }>();
  for (const r of parseJsonl<Partial<IndexRecord>>(text).records) {
    if (r.event === 'begin' && typeof r.exec === 'string')
      byExec.set(r.exec, { command: String(r.command), exitCode: undefined, startedAt: r.startedAt ?? null });
    else if (r.event === 'end' && typeof r.exec === 'string') {
      const e = byExec.get(r.exec);
      if (e) e.exitCode = r.exitCode ?? null;
    }
  }
  return [...byExec.values()].slice(-count);
}
