// Parses terminal logs back into command executions (for the glue's quick picks and for tests).
import { MARKER } from './terminal-log';

export interface LoggedExecution {
  exec: string;
  command: string;
  cwd: string | null;
  startedAt: string;
  /** Output lines as stored (after the `$ command` line). */
  output: string[];
  /** Present once the footer was written; `null` exit code = unknown. */
  end?: { exitCode: number | null; durationMs: number; endedAt: string };
}

export interface ParsedTerminalLog {
  executions: LoggedExecution[];
  /** A last line without newline (a write in flight when the process died). */
  tornTail?: string;
  /** Marker lines that did not parse (1-based line numbers). */
  badMarkers: number[];
  /** Output lines outside any execution (another window writing the same log between our markers). */
  outside: string[];
}

/** Tolerant parser: never throws on a torn or damaged log; reports what it skipped. */
export function parseTerminalLog(text: string): ParsedTerminalLog {
  const result: ParsedTerminalLog = { executions: [], badMarkers: [], outside: [] };
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  if (tail !== '') result.tornTail = tail;
  let current: LoggedExecution | undefined;
  let skipCommandLines = 0;
  lines.forEach((line, i) => {
    if (line.startsWith(`${MARKER} `)) {
      let rec: Record<string, unknown>;
      try {
        rec = JSON.parse(line.slice(2)) as Record<string, unknown>;
      } catch {
        result.badMarkers.push(i + 1);
        return;
      }
      if (rec.event === 'begin') {
        current = {
          exec: String(rec.exec),
          command: String(rec.command),
          cwd: (rec.cwd as string | null) ?? null,
          startedAt: String(rec.startedAt),
          output: [],
        };
        result.executions.push(current);
        // The `$ command` line, plus one `> ` line per newline of a multi-line command.
        skipCommandLines = 1 + (current.command.match(/\n/g)?.length ?? 0);
      } else if (rec.event === 'end') {
        const target = result.executions.find((e) => e.exec === rec.exec);
        if (target)
          target.end = {
            exitCode: (rec.exitCode as number | null) ?? null,
            durationMs: Number(rec.durationMs),
            endedAt: String(rec.endedAt),
          };
        if (current === target) current = undefined;
      }
      return;
    }
    if (skipCommandLines > 0) {
      skipCommandLines--;
      return;
    }
    const text = line.startsWith(` ${MARKER}`) ? line.slice(1) : line;
    if (current) current.output.push(text);
    else result.outside.push(text);
  });
  return result;
}
