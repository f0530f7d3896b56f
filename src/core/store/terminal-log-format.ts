// The lines of a terminal log and of its index. A log is for people (and grep); the index beside it
// (`<log>.index.jsonl`, skipped by the store's grep) holds the exact machine-readable record.
//
//   ␞ #3 · 2026-11-23 10:04:12 +01:00 · /work/app      which command of this log, when, where
//   ␞ $ npm run build                                  the command line (`␞ > ` for further lines)
//   ...the output as a person saw it (rendered, secrets redacted)...
//   ␞ exit 0 · 3.2 s                                   exit code (or "unknown") and duration
//   ␞ note: ...                                        what could not be captured, and why
//
// Every line Context Desk writes starts with U+241E "␞ "; an output line that starts with "␞" is
// stored with a leading space, so output can never forge one. Logs written before this format have
// `␞ {"event":...}` JSON lines instead; the reader understands both.
import { parseShallowJson } from '../json-depth';
import type { RedactionCounts } from './sanitize/secrets';

export const MARKER = '\u241E';

/** Where an execution came from: a shell-integration execution, a task, or one seen only when it ended. */
export type ExecutionSource = 'shell' | 'task' | 'unwatched';

/** Index record written when an execution's header is written. */
export interface IndexBegin {
  v: 2;
  event: 'begin';
  seq: number;
  exec: string;
  command: string;
  cwd: string | null;
  /** ISO time; null when the start was not seen (the execution began before capture did). */
  startedAt: string | null;
  source: ExecutionSource;
  redactions: RedactionCounts;
}

/** Index record written with the execution's footer. */
export interface IndexEnd {
  v: 2;
  event: 'end';
  seq: number;
  exec: string;
  exitCode: number | null;
  durationMs: number | null;
  endedAt: string;
  /** Why the exit code is unknown or the end was forced (e.g. no end event came). */
  reason?: string;
  redactions: RedactionCounts;
}

export type IndexRecord = IndexBegin | IndexEnd;

/** `terminals/bash-….log` -> `terminals/bash-….index.jsonl` (a `.jsonl`, so store grep skips it). */
export function terminalIndexPath(logPath: string): string {
  return logPath.replace(/\.log$/, '') + '.index.jsonl';
}

/** Output text with every line that starts with the marker shifted by one space. */
export function escapeMarkers(text: string): string {
  return text.includes(MARKER) ? text.replace(/^\u241E/gm, ` ${MARKER}`) : text;
}

/** Control characters (a newline in a cwd, an escape) shown visibly instead of breaking the line. */
function oneLine(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const pad = (n: number, width = 2): string => String(Math.trunc(Math.abs(n))).padStart(width, '0');

/** `2026-11-23 10:04:12 +01:00`: local time with its offset, so it is readable and still exact to the second. */
export function formatLocalTime(epochMs: number): string {
  const d = new Date(epochMs);
  const offset = -d.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ` +
    `${sign}${pad(offset / 60)}:${pad(offset % 60)}`
  );
}

const LOCAL_TIME = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) ([+-])(\d\d):(\d\d)$/;

/** Parses `formatLocalTime` back into an ISO string (UTC), or undefined. */
export function parseLocalTime(text: string): string | undefined {
  const m = LOCAL_TIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, sign, oh, om] = m;
  const utc = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!);
  const offsetMs = (sign === '-' ? -1 : 1) * (+oh! * 60 + +om!) * 60_000;
  return new Date(utc - offsetMs).toISOString();
}

/** `45 ms`, `3.2 s`, `2 min 5 s`, `1 h 3 min`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** Inverse of `formatDuration` (to its precision), or undefined. */
export function parseDuration(text: string): number | undefined {
  let m = /^(\d+) ms$/.exec(text);
  if (m) return +m[1]!;
  m = /^(\d+(?:\.\d+)?) s$/.exec(text);
  if (m) return Math.round(+m[1]! * 1000);
  m = /^(\d+) min (\d+) s$/.exec(text);
  if (m) return (+m[1]! * 60 + +m[2]!) * 1000;
  m = /^(\d+) h (\d+) min$/.exec(text);
  if (m) return (+m[1]! * 3600 + +m[2]! * 60) * 1000;
  return undefined;
}

/** The header: `␞ #seq · time · cwd`, then `␞ $ ` and `␞ > ` lines for the (redacted) command. */
export function headerLines(h: { seq: number; at: number; cwd: string | null; command: string }): string {
  const where = h.cwd ? ` · ${oneLine(h.cwd)}` : '';
  const [first = '', ...rest] = h.command.split(/\r?\n/);
  const command = [`${MARKER} $ ${oneLine(first)}`, ...rest.map((l) => `${MARKER} > ${oneLine(l)}`)];
  return `${MARKER} #${h.seq} · ${formatLocalTime(h.at)}${where}\n${command.join('\n')}\n`;
}

/** The footer and a blank line that separates blocks: `␞ exit 0 · 3.2 s[ · reason]`. */
export function footerLine(f: { exitCode: number | null; durationMs: number | null; reason?: string }): string {
  const parts = [`exit ${f.exitCode ?? 'unknown'}`];
  parts.push(f.durationMs === null ? 'duration unknown' : formatDuration(f.durationMs));
  if (f.reason) parts.push(oneLine(f.reason));
  return `${MARKER} ${parts.join(' · ')}\n\n`;
}

export function noteLine(text: string): string {
  return `${MARKER} note: ${oneLine(text)}\n`;
}

/** What one marker line of the current format says. */
export type MarkerLine =
  | { kind: 'info'; seq: number; startedAt: string | undefined; cwd: string | null }
  | { kind: 'command'; text: string }
  | { kind: 'continuation'; text: string }
  | { kind: 'exit'; exitCode: number | null; durationMs: number | null; reason?: string }
  | { kind: 'note'; text: string }
  | { kind: 'json'; record: Record<string, unknown> }
  | { kind: 'bad' };

/** Classifies a line that starts with `␞ ` (the caller checks that). */
export function parseMarkerLine(line: string): MarkerLine {
  const body = line.slice(2);
  if (body.startsWith('{')) {
    // A log can come with a cloned repository: a record nested thousands deep is damaged, not read.
    const record = parseShallowJson(body);
    if (typeof record === 'object' && record !== null)
      return { kind: 'json', record: record as Record<string, unknown> };
    return { kind: 'bad' };
  }
  if (body.startsWith('$ ')) return { kind: 'command', text: body.slice(2) };
  if (body.startsWith('> ')) return { kind: 'continuation', text: body.slice(2) };
  if (body.startsWith('note: ')) return { kind: 'note', text: body.slice(6) };
  // \u00b7 is the ` · ` separator (escaped: node bundles stay ASCII, esbuild.mjs).
  const info = /^#(\d+) \u00b7 (.+?)(?: \u00b7 (.*))?$/.exec(body);
  if (info) {
    const startedAt = parseLocalTime(info[2]!);
    if (startedAt) return { kind: 'info', seq: +info[1]!, startedAt, cwd: info[3] ?? null };
  }
  const exit = /^exit (-?\d+|unknown) \u00b7 (duration unknown|[^\u00b7]+?)(?: \u00b7 (.*))?$/.exec(body);
  if (exit) {
    const durationMs = exit[2] === 'duration unknown' ? null : parseDuration(exit[2]!);
    if (durationMs !== undefined)
      return {
        kind: 'exit',
        exitCode: exit[1] === 'unknown' ? null : +exit[1]!,
        durationMs,
        ...(exit[3] ? { reason: exit[3] } : {}),
      };
  }
  return { kind: 'bad' };
}
