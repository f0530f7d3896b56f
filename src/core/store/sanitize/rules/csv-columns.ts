// A CSV or TSV table whose header names a secret column (a browser's or password manager's export:
// `name,url,username,password`; AWS's credentials.csv: `User name,Password,Access key ID,Secret access
// key`): every value in that column is a secret, with no keyword beside it. Tables are read line by
// line, in linear time; a quoted field may hold separators and doubled quotes, not line breaks.
import { isPlaceholder, type SecretRule } from './types';

/** Column names that say their values are secrets. Not `token` or `key` alone (a word list's `token`). */
const SECRET_COLUMN =
  /^(?:(?:login|user|account|db|database|admin|root|master|console)[ _-]?)?(?:password|passwd|passphrase|pwd)$|^(?:(?:aws[ _-]?)?secret(?:[ _-]access)?[ _-]key|client[ _-]secret|api[ _-]?key|api[ _-]secret|private[ _-]key|access[ _-]token|refresh[ _-]token|auth[ _-]token|bearer[ _-]token|secret|(?:login[ _-])?totp|otp[ _-]?secret|credentials?)$/i;

/** A header's field: a name of at most three words, quoted or not (`Secret access key`, `login_password`). */
const NAME = /^"?[A-Za-z][\w.()/-]{0,39}(?: [\w.()/-]{1,20}){0,2}"?$/;
/** A header is a line of names: a longer line (a JSON log's record) is none. */
const MAX_HEADER = 4096;
/** A header has at least this many columns: two (`user, password`) is as often a sentence. */
const MIN_COLUMNS = 3;

export interface CsvBlock {
  /** The separator: a comma, a tab or a semicolon. */
  sep: string;
  /** The header line, from its start to its end (without the line break). */
  headerStart: number;
  headerEnd: number;
  /** The secret fields of the rows below it: [start, end) of each. */
  fields: Array<[number, number]>;
  /** The block runs to the end of the text: more rows may follow it. */
  open: boolean;
}

/** The fields of one line split by `sep`, with their ranges; undefined when a quote is not closed. */
function splitLine(text: string, from: number, to: number, sep: string): Array<[number, number]> | undefined {
  const out: Array<[number, number]> = [];
  let i = from;
  for (;;) {
    const start = i;
    if (text[i] === '"') {
      // A quoted field: to the quote not doubled.
      let q = text.indexOf('"', i + 1);
      while (q !== -1 && q < to && text[q + 1] === '"') q = text.indexOf('"', q + 2);
      if (q === -1 || q >= to) return undefined;
      i = q + 1;
      if (i < to && text[i] !== sep) return undefined;
    } else {
      const next = text.indexOf(sep, i);
      i = next === -1 || next > to ? to : next;
    }
    out.push([start, i]);
    if (i >= to) return out;
    i++;
  }
}

/** A word every secret column's name holds: only lines with one can be headers. */
const HEADER_WORD = /pass|pwd|secret|key|token|totp|credential/i;

/** The tables in `text` with a secret column, in order. */
export function csvSecretBlocks(text: string): CsvBlock[] {
  const blocks: CsvBlock[] = [];
  // Candidate headers are found by one search for their words, not by reading every line.
  const word = new RegExp(HEADER_WORD.source, 'gi');
  for (let hit = word.exec(text); hit !== null; hit = word.exec(text)) {
    const line = text.lastIndexOf('\n', hit.index) + 1;
    const nl = text.indexOf('\n', line);
    const end = nl === -1 ? text.length : nl;
    const next = nl === -1 ? text.length : nl + 1;
    word.lastIndex = next;
    if (end - line > MAX_HEADER) continue;
    const raw = text.slice(line, end).replace(/\r$/, '');
    const sep = raw.includes('\t') ? '\t' : raw.includes(',') ? ',' : raw.includes(';') ? ';' : '';
    const names = sep === '' ? [] : raw.split(sep).map((f) => f.trim());
    if (names.length < MIN_COLUMNS || !names.every((n) => NAME.test(n))) continue;
    const secret = names.flatMap((n, i) => (SECRET_COLUMN.test(n.replace(/^"|"$/g, '')) ? [i] : []));
    if (secret.length === 0) continue;
    const block: CsvBlock = { sep, headerStart: line, headerEnd: line + raw.length, fields: [], open: false };
    let row = next;
    while (row < text.length) {
      const rowNl = text.indexOf('\n', row);
      const rowEnd = rowNl === -1 ? text.length : rowNl;
      const to = text[rowEnd - 1] === '\r' ? rowEnd - 1 : rowEnd;
      const fields = to > row ? splitLine(text, row, to, sep) : undefined;
      if (!fields || fields.length !== names.length) break;
      for (const i of secret) if (fields[i]![1] > fields[i]![0]) block.fields.push(fields[i]!);
      row = rowNl === -1 ? text.length : rowNl + 1;
    }
    block.open = row >= text.length;
    if (block.fields.length > 0 || block.open) blocks.push(block);
    word.lastIndex = Math.max(row, next);
  }
  return blocks;
}

/** Longest header carried from one batch of a stream to the next. */
const MAX_CARRIED_HEADER = 8192;

/**
 * The header of a table with a secret column whose rows run to the end of `text` (a stream may send
 * more of them): the next batch is read below it. Empty when there is none.
 */
export function openCsvHeader(text: string): string {
  if (!HEADER_WORD.test(text)) return '';
  const last = csvSecretBlocks(text).at(-1);
  if (!last?.open || last.headerEnd - last.headerStart > MAX_CARRIED_HEADER) return '';
  return text.slice(last.headerStart, last.headerEnd);
}

/** The text's tables, read once for the three rules (one per separator) that ask in one go. */
let lastScan: { text: string; blocks: CsvBlock[] } | undefined;
function blocksOf(text: string): CsvBlock[] {
  if (lastScan?.text !== text) {
    if (lastScan === undefined) queueMicrotask(() => (lastScan = undefined));
    lastScan = { text, blocks: csvSecretBlocks(text) };
  }
  return lastScan.blocks;
}

const csvRule = (sep: string, name: string): SecretRule => ({
  id: 'csv-secret',
  title: `${name} columns named for a secret (password exports, AWS credentials.csv): every value`,
  keywords: [
    'password',
    'passwd',
    'passphrase',
    'pwd',
    'secret',
    'api key',
    'api_key',
    'apikey',
    'token',
    'totp',
    'credential',
  ],
  multiline: true,
  within: (text) => blocksOf(text).flatMap((b) => (b.sep === sep ? b.fields : [])),
  // A field: quoted (doubled quotes inside), or up to the next separator.
  pattern: new RegExp(String.raw`(?<=^|${sep})(?<secret>"(?:[^"\n]|"")*"(?=${sep}|\r?$)|[^${sep}\n]+)`, 'gm'),
  accept: (v) => v.trim().length >= 3 && !isPlaceholder(v),
});

export const CSV_RULES: readonly SecretRule[] = [
  csvRule(',', 'CSV'),
  csvRule('\t', 'TSV'),
  csvRule(';', 'Semicolon CSV'),
];
