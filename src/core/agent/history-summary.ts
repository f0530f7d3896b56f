// What the History list shows of a past session, read from its history file: the first instruction (the
// title), how many turns it had, and its calls and cost from the call records. The file is streamed line
// by line, so a long session costs no more memory than its longest line (at most MAX_SUMMARY_LINE); mask
// records (a repeated index) are not counted twice.
import { cappedLines } from '../store/capped-lines';
import { parseJsonLine } from '../store/durable';
import { isCallLine, isMessageRecord, isSetAsideLine } from '../store/history';
import { callTotals, parseCallRecord, parseSummaryCallRecord } from './call-log';
import type { ModelUnits } from './model-units';
import type { CallRecord, SummaryCallRecord } from './session-state';

export interface HistorySummary {
  /** The first line of the first instruction a person gave, shortened; undefined when there is none. */
  title?: string;
  /** Assistant messages (one per model call that was answered). */
  turns: number;
  /** Time of the first record (ISO), when readable. */
  firstAt?: string;
  /** Model calls recorded in the file (absent when it has no call records: files from before they existed). */
  calls?: number;
  costUnits?: number;
  /** Money, when every billed call had a known price. */
  costUsd?: number;
  /** A separate summary model's units, not in `costUnits` (see CallTotals.summaryUnits). */
  summaryUnits?: ModelUnits[];
  /** Units of calls of models other than the last call's, not in `costUnits` (see CallTotals.otherModelUnits). */
  otherModelUnits?: ModelUnits[];
}

export const TITLE_CHARS = 80;

/** One line, at most `TITLE_CHARS` characters (cut at a word when it can), control characters removed. */
export function titleFrom(text: string): string | undefined {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.replace(/[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ').trim())
    .find((l) => l !== '');
  if (!line) return undefined;
  const flat = line.replace(/\s+/g, ' ');
  if (flat.length <= TITLE_CHARS) return flat;
  const cut = flat.slice(0, TITLE_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > TITLE_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/** Summarizes records already in memory (the same rules as the file reader). */
export function summarizeRecords(records: Iterable<unknown>): HistorySummary {
  const acc = new Accumulator();
  for (const r of records) acc.add(r);
  return acc.summary();
}

class Accumulator {
  private readonly s: HistorySummary = { turns: 0 };
  private readonly seen = new Set<number>();
  private readonly calls: CallRecord[] = [];
  private readonly summaryCalls: SummaryCallRecord[] = [];
  /** The index of the message the title came from: a message set aside (never sent) is no title. */
  private titleIndex: number | undefined;

  add(r: unknown): void {
    if (isSetAsideLine(r)) {
      if (r.index === this.titleIndex) this.s.title = this.titleIndex = undefined;
      return;
    }
    if (isCallLine(r)) {
      const c = r.kind === 'call' ? parseCallRecord(r.call) : undefined;
      const sc = r.kind === 'summary-call' ? parseSummaryCallRecord(r.call) : undefined;
      if (c) this.calls.push(c);
      if (sc) this.summaryCalls.push(sc);
      return;
    }
    const titled = this.s.title !== undefined;
    addMessage(this.s, r, this.seen);
    if (!titled && this.s.title !== undefined && isMessageRecord(r)) this.titleIndex = r.index;
  }

  summary(): HistorySummary {
    if (this.calls.length === 0 && this.summaryCalls.length === 0) return this.s;
    const t = callTotals({ calls: this.calls, summaryCalls: this.summaryCalls });
    return {
      ...this.s,
      calls: t.calls,
      costUnits: t.costUnits,
      ...(t.costUsd !== undefined ? { costUsd: t.costUsd } : {}),
      ...(t.summaryUnits !== undefined ? { summaryUnits: t.summaryUnits } : {}),
      ...(t.otherModelUnits !== undefined ? { otherModelUnits: t.otherModelUnits } : {}),
    };
  }
}

function addMessage(s: HistorySummary, r: unknown, seen: Set<number>): void {
  if (!isMessageRecord(r) || seen.has(r.index)) return;
  seen.add(r.index);
  s.firstAt ??= typeof r.at === 'string' ? r.at : undefined;
  const m = r.message;
  if (m.role === 'assistant') s.turns++;
  else if (s.title === undefined && m.role === 'user' && m.origin !== 'environment' && m.origin !== 'agent')
    s.title = titleFrom(String(m.content ?? ''));
}

/**
 * A line longer than this is not read for the list (its message is left out of the turns and the
 * title): a repository can ship a history file of one huge line that packs small in git.
 */
export const MAX_SUMMARY_LINE = 8 * 1024 * 1024;

/** Streams a history JSONL file; unreadable lines are skipped. A missing file summarizes as empty. */
export async function summarizeHistoryFile(file: string): Promise<HistorySummary> {
  const acc = new Accumulator();
  try {
    for await (const line of cappedLines(file, MAX_SUMMARY_LINE).lines) {
      if (line.trim() === '') continue;
      // A damaged, torn or too deeply nested line is skipped, as the resume reader does.
      const record = parseJsonLine(line);
      if (record === undefined) continue;
      try {
        acc.add(record);
      } catch {
        /* a record of an unexpected shape: skipped too */
      }
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  return acc.summary();
}
