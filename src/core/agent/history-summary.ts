// What the History list shows of a past session, read from its history file: the first instruction (the
// title) and how many turns it had. The file is streamed line by line, so a long session costs no more
// memory than its longest line; mask records (a repeated index) are not counted twice.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { HistoryRecord } from '../store/history';

export interface HistorySummary {
  /** The first line of the first instruction a person gave, shortened; undefined when there is none. */
  title?: string;
  /** Assistant messages (one per model call that was answered). */
  turns: number;
  /** Time of the first record (ISO), when readable. */
  firstAt?: string;
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
export function summarizeRecords(records: Iterable<HistoryRecord>): HistorySummary {
  const s: HistorySummary = { turns: 0 };
  const seen = new Set<number>();
  for (const r of records) add(s, r, seen);
  return s;
}

function add(s: HistorySummary, r: HistoryRecord, seen: Set<number>): void {
  if (typeof r?.index !== 'number' || seen.has(r.index) || typeof r.message !== 'object' || r.message === null) return;
  seen.add(r.index);
  s.firstAt ??= typeof r.at === 'string' ? r.at : undefined;
  const m = r.message;
  if (m.role === 'assistant') s.turns++;
  else if (s.title === undefined && m.role === 'user' && m.origin !== 'environment' && m.origin !== 'agent')
    s.title = titleFrom(String(m.content ?? ''));
}

/** Streams a history JSONL file; unreadable lines are skipped. A missing file summarizes as empty. */
export async function summarizeHistoryFile(file: string): Promise<HistorySummary> {
  const s: HistorySummary = { turns: 0 };
  const seen = new Set<number>();
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (line.trim() === '') continue;
      try {
        add(s, JSON.parse(line) as HistoryRecord, seen);
      } catch {
        /* a damaged or torn line: skip it, as the resume reader does */
      }
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  } finally {
    lines.close();
    input.destroy();
  }
  return s;
}
