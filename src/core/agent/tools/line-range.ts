// Reads a range of lines from a text file of any size without holding the file in memory: the agent's
// read_file and the `contextDesk_readStoredFile` language-model tool share it, with the same caps.
import { constants, promises as fsp } from 'node:fs';
import { LineWindowReader, type Window } from './line-window';
import { decodedAsUtf8, type Utf16 } from './utf16';
import { LEGACY_ENCODING, Utf8Census } from '../../legacy-encoding';

/** How a file's bytes are read: UTF-16 with a byte order mark, Windows-1252 (not UTF-8), or UTF-8 (undefined). */
export type FileEncoding = Utf16 | typeof LEGACY_ENCODING;

/** At most this many lines per read. */
export const MAX_READ_LINES = 2000;
export const DEFAULT_READ_LINES = 400;
/** Longer lines are cut (a minified file or a progress bar must not fill the context); `column` reads on. */
export const MAX_LINE_CHARS = 2000;
/** Lines are counted to the end only in files up to this size; larger ones say "more lines follow". */
export const MAX_COUNT_BYTES = 50 * 1024 * 1024;

export interface LineRange {
  /** 1-based number of the first line returned. */
  offset: number;
  lines: string[];
  /** Lines in the file, when counted (files up to MAX_COUNT_BYTES). */
  total?: number;
  /** True when lines follow the range (known even when the total is not). */
  more: boolean;
  size: number;
  /** Bytes read from the file to answer (a range near the start of a huge file reads little). */
  bytesRead: number;
  /** Set when the file was read as Windows-1252: what was read of it is not UTF-8. */
  encoding?: typeof LEGACY_ENCODING;
}

const NEWLINE = 0x0a;

/** A body line of a private key block read alone (a later page of a key file), as the range shows it. */
export const KEY_LINE_MARKER = '[REDACTED:private-key]';
// Bytes of each line looked at to follow private key blocks (a PEM line holds 64 base64 characters).
const HEAD_BYTES = 200;
const DASHES = Buffer.from('-----');
// A key's BEGIN or END alone on its line (a PEM file, a heredoc, a YAML block); a BEGIN inside a string
// in code (`START = "-----BEGIN RSA PRIVATE KEY-----"`) starts nothing.
const KEY_BEGIN_LINE = /^\s*-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----\s*$/;
const KEY_END_LINE = /^\s*-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/;
// What a key's body holds: base64 lines, encrypted PEM's headers (`Proc-Type: …`), a blank line.
const KEY_BODY_LINE = /^\s*(?:[A-Za-z0-9+/=]+|[A-Za-z-]+:.*)?\s*$/;

export interface ReadLineOptions {
  offset?: number;
  limit?: number;
  /** 1-based character of the first line (`offset`) to start from: a long line is read on from there. */
  column?: number;
  /** The tool a cut line's marker tells the reader to call to read on. */
  tool?: string;
  maxLineChars?: number;
  maxCountBytes?: number;
  /**
   * The file is UTF-16 with a byte order mark (see utf16.ts) or Windows-1252. Otherwise it is read as
   * UTF-8, and read again as Windows-1252 when what was read is not UTF-8 and holds no UTF-8 character.
   */
  encoding?: FileEncoding;
  chunkBytes?: number;
}

/** A line's window as shown: `…` where text was left out, and where to read on when the line goes on. */
function shownWindow(w: Window, line: number, column: number, tool: string): string {
  if (column > 1 && column > w.length)
    return `(line ${line} has ${w.length} characters; column ${column} is past its end)`;
  const more = w.length - w.end;
  const tail =
    more > 0 ? `… (line continues: ${more} more characters; ${tool} with offset=${line}, column=${w.end + 1})` : '';
  return `${w.start > 0 ? '…' : ''}${w.text}${tail}`;
}

/**
 * Lines `offset .. offset+limit-1` (1-based), each cut at `maxLineChars` characters (the first from
 * `column`), never through a secret; CRLF and LF both end a line.
 * `file` is a path or a handle the caller opened (and closes). A private key's body lines become
 * KEY_LINE_MARKER: the file is followed from its start, so a page that holds only key lines (lines 11-20
 * of a key file, without its BEGIN and END) is known as a key's all the same; redaction of the page
 * alone cannot tell them from any base64.
 */
export async function readLineRange(file: string | fsp.FileHandle, options: ReadLineOptions = {}): Promise<LineRange> {
  const offset = Math.max(1, Math.floor(options.offset ?? 1));
  const limit = Math.min(MAX_READ_LINES, Math.max(1, Math.floor(options.limit ?? DEFAULT_READ_LINES)));
  const maxChars = options.maxLineChars ?? MAX_LINE_CHARS;
  const column = Math.max(1, Math.floor(options.column ?? 1));
  const tool = options.tool ?? 'read_file';
  const size = (typeof file === 'string' ? await fsp.stat(file) : await file.stat()).size;
  const countAll = size <= (options.maxCountBytes ?? MAX_COUNT_BYTES);
  const last = offset + limit - 1;
  const lines: string[] = [];
  // The current line's window, when it is in the range (only the first line starts at `column`).
  const reader = (n: number): LineWindowReader | undefined =>
    n >= offset && n <= last ? new LineWindowReader(n === offset ? column - 1 : 0, maxChars) : undefined;
  let line = 1;
  let window = reader(line); // number of the line being read
  let pendingBytes = false; // the current line has at least one byte
  let more = false;
  // The start of the current line, and whether it lies inside a private key block.
  let head: Buffer[] = [];
  let headBytes = 0;
  let inKey = false;

  const keep = (chunk: Buffer): void => {
    pendingBytes ||= chunk.length > 0;
    if (headBytes < HEAD_BYTES && chunk.length > 0) {
      const part = chunk.subarray(0, HEAD_BYTES - headBytes);
      head.push(part);
      headBytes += part.length;
    }
    window?.push(chunk);
  };
  // Whether the line just read is a key's body line, following the blocks from the file's start.
  const keyLine = (): boolean => {
    const start = head.length === 1 ? head[0]! : Buffer.concat(head);
    if (!inKey && !start.includes(DASHES)) return false;
    const text = start.toString('latin1');
    if (KEY_BEGIN_LINE.test(text)) inKey = true;
    else if (inKey && (KEY_END_LINE.test(text) || !KEY_BODY_LINE.test(text))) inKey = false;
    else return inKey;
    return false;
  };
  const finishLine = (newline: boolean): void => {
    const isKey = keyLine();
    if (window) {
      const w = window.finish(newline);
      const text = shownWindow(w, line, line === offset ? column : 1, tool);
      lines.push(isKey && text.trim() !== '' ? KEY_LINE_MARKER : text);
    }
    head = [];
    headBytes = 0;
    pendingBytes = false;
    window = reader(++line);
  };

  // Non-blocking: a file swapped for a FIFO after it was checked fails instead of waiting for a writer.
  const own = typeof file === 'string';
  const fh = own ? await fsp.open(file, constants.O_RDONLY | constants.O_NONBLOCK) : file;
  // A UTF-8 byte order mark is not text: ripgrep and VS Code leave it out too (`^` matches after it).
  const skip = options.encoding ? 0 : await utf8BomBytes(fh);
  const stream = { bytesRead: 0 };
  const bytes = chunksOf(fh, skip, options.chunkBytes ?? 256 * 1024, stream);
  const census = options.encoding ? undefined : new Utf8Census();
  try {
    for await (const chunk of options.encoding ? decodedAsUtf8(bytes, options.encoding) : bytes) {
      census?.push(chunk);
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        keep(chunk.subarray(start, nl));
        finishLine(true);
        start = nl + 1;
      }
      keep(chunk.subarray(start));
      // Past the range, a large file is not read on: whether anything follows is all that is needed.
      if (line > last && !countAll) {
        more = start < chunk.length || skip + stream.bytesRead < size;
        break;
      }
    }
  } finally {
    if (own) await fh.close();
  }
  // Read to its end, the file's last character must be whole; read in part, it may be cut.
  if (census && (more ? census : census.end()).legacy) {
    const again = await readLineRange(own ? file : fh, { ...options, encoding: LEGACY_ENCODING });
    return { ...again, encoding: LEGACY_ENCODING };
  }
  if (pendingBytes) finishLine(false); // a last line without a newline
  const bytesRead = skip + stream.bytesRead;
  if (!countAll) return { offset, lines, more, size, bytesRead };
  const total = line - 1;
  return { offset, lines, total, more: total > last, size, bytesRead };
}

/**
 * The file's bytes from `start`, a chunk at a time, read by position through the handle (a stream would
 * close the caller's handle at its end, and the file may be read twice: again as Windows-1252).
 */
async function* chunksOf(
  fh: fsp.FileHandle,
  start: number,
  chunkBytes: number,
  count: { bytesRead: number },
): AsyncGenerator<Buffer> {
  for (;;) {
    const buf = Buffer.allocUnsafe(chunkBytes);
    const { bytesRead } = await fh.read(buf, 0, chunkBytes, start + count.bytesRead);
    if (bytesRead === 0) return;
    count.bytesRead += bytesRead;
    yield buf.subarray(0, bytesRead);
  }
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** 3 when the file starts with a UTF-8 byte order mark, else 0. */
async function utf8BomBytes(fh: fsp.FileHandle): Promise<number> {
  const head = Buffer.alloc(3);
  const { bytesRead } = await fh.read(head, 0, 3, 0);
  return bytesRead === 3 && head.equals(UTF8_BOM) ? 3 : 0;
}

const MB = 1024 * 1024;
/** How a header names the encoding a file that is not UTF-8 was read as. */
export const LEGACY_NAME = 'read as Windows-1252';

/**
 * A note when shown lines hold a carriage return not before a newline (old Mac line ends, a progress bar
 * redrawn with \r): lines are counted at newlines only, as grep counts them, so its line numbers match;
 * an editor may show such a line as several.
 */
function loneCrNote(r: LineRange): string {
  const at = r.lines.findIndex((l) => l.includes('\r'));
  if (at === -1) return '';
  return `\n(line ${r.offset + at} holds carriage returns (\\r) that do not end a line here: lines are counted at \\n, as grep counts them, while an editor may show each \\r as a line break)`;
}

/** The text both tools return: a header, numbered lines, and how to read on. */
export function formatLineRange(file: string, r: LineRange): string {
  // Said in the header: an edit of the file must keep its encoding, and a search for é finds its UTF-8 bytes.
  const display = r.encoding ? `${file} (${LEGACY_NAME}, not UTF-8)` : file;
  if (r.total === 0) return `${display} is empty.`;
  if (r.lines.length === 0) {
    const known = r.total !== undefined ? `${r.total} lines` : `fewer than ${r.offset} lines`;
    return `${display} has ${known}; offset ${r.offset} is past the end.`;
  }
  const end = r.offset + r.lines.length - 1;
  const of = r.total !== undefined ? ` of ${r.total}` : '';
  const body = r.lines.map((l, i) => `${r.offset + i}\t${l}`).join('\n');
  let more = '';
  if (r.more && r.total !== undefined) {
    const n = r.total - end;
    more = `\n(${n} more line${n === 1 ? '' : 's'}; read on with offset ${end + 1})`;
  } else if (r.more)
    more = `\n(more lines follow in this ${(r.size / MB).toFixed(0)} MB file; read on with offset ${end + 1}, or tail or grep it)`;
  return `${display} lines ${r.offset}-${end}${of}:\n${body}${more}${loneCrNote(r)}`;
}
