// read_file, tail and list_dir: plain file access inside the workspace and the store.
import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { AgentTool, ToolOutput } from '../tool-registry';
import type { PathGuard } from './paths';
import {
  DEFAULT_READ_LINES,
  formatLineRange,
  LEGACY_NAME,
  MAX_LINE_CHARS,
  MAX_READ_LINES,
  readLineRange,
} from './line-range';
import { decodeLegacy, Utf8Census } from '../../legacy-encoding';
import { secretSafeCut } from '../../store/sanitize/secrets';
import { openChecked, ReadRefusedError } from '../../read-text';
import { BOM_BYTES, decodeUtf16, isNewlineUnit, utf16Order, type Utf16 } from './utf16';
import { compareText } from '../../numbers';

const MAX_DIR_ENTRIES = 500;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const clipLine = (s: string): string =>
  s.length > MAX_LINE_CHARS ? `${s.slice(0, secretSafeCut(s, MAX_LINE_CHARS))}… (line cut)` : s;
const fail = (text: string): ToolOutput => ({ ok: false, text });

interface OpenText {
  /** Open on the file that was checked; the caller closes it. */
  fh: fsp.FileHandle;
  display: string;
  size: number;
  /** UTF-16 with a byte order mark; UTF-8 otherwise. */
  encoding?: Utf16;
}

/** Opens a regular, non-binary file or explains why not. */
async function openText(guard: PathGuard, input: unknown): Promise<OpenText | ToolOutput> {
  const r = await guard.resolve(input);
  if (!r.ok) return fail(r.message);
  let st;
  try {
    st = await fsp.stat(r.absolute);
  } catch {
    return fail(`No such file: ${r.display}`);
  }
  if (st.isDirectory()) return fail(`${r.display} is a directory; use list_dir.`);
  if (!st.isFile()) return fail(`${r.display} is not a regular file.`);
  // Opened once, without waiting, as the very file checked (a FIFO or a link swapped in since is refused),
  // and read through that handle only.
  let opened;
  try {
    opened = await openChecked(r.absolute, { singleName: r.inStore === true });
  } catch (e) {
    if (e instanceof ReadRefusedError && e.reason === 'hard-link') return fail(`Refused: ${e.message}.`);
    if (e instanceof ReadRefusedError)
      return fail(`${r.display} ${e.reason === 'moved' ? 'changed while it was opened' : 'is not a regular file'}.`);
    return fail(`No such file: ${r.display}`);
  }
  const { fh } = opened;
  const size = opened.st.size;
  const head = await fileHead(fh);
  // UTF-16 holds NULs (every ASCII character has one) but is text.
  const encoding = utf16Order(head);
  if (encoding) return { fh, display: r.display, size, encoding };
  if (head.includes(0)) {
    await fh.close();
    return fail(`${r.display} is a binary file (${size} bytes); it cannot be shown as text.`);
  }
  return { fh, display: r.display, size };
}

/**
 * The file's first bytes. Only the bytes the read returned count: a file shortened since it was
 * measured leaves the rest of the buffer zeros, which are not the file's.
 */
async function fileHead(fh: fsp.FileHandle): Promise<Buffer> {
  const head = Buffer.alloc(8192);
  const { bytesRead } = await fh.read(head, 0, head.length, 0);
  return head.subarray(0, bytesRead);
}

/** Whether the file's first bytes hold a NUL. */
export async function startsBinary(fh: fsp.FileHandle): Promise<boolean> {
  return (await fileHead(fh)).includes(0);
}

/** The header's name for a file: a UTF-16 one says so (an edit must keep that encoding). */
const shownAs = (o: OpenText): string => (o.encoding ? `${o.display} (${o.encoding.toUpperCase()})` : o.display);

const isOutput = (x: unknown): x is ToolOutput => typeof x === 'object' && x !== null && 'ok' in x;

export function readFileTool(guard: PathGuard): AgentTool {
  return {
    name: 'read_file',
    description: `Reads lines of a text file in the workspace or the Context Desk store (e.g. a stored tool output). Lines are numbered from 1; a line longer than ${MAX_LINE_CHARS} characters is cut there, and its cut says how to read on with column.`,
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Workspace-relative path.' },
        offset: { type: 'integer', minimum: 1, description: 'First line (1-based). Default 1.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_READ_LINES,
          description: `Lines to read. Default ${DEFAULT_READ_LINES}.`,
        },
        column: {
          type: 'integer',
          minimum: 1,
          description: `For a long line (a minified file, a one-line JSON log): the character of the first line (offset) to start from, 1-based; up to ${MAX_LINE_CHARS} characters of it are shown. Default 1.`,
        },
      },
      required: ['path'],
      additionalProperties: false,
    },
    async run(args): Promise<ToolOutput> {
      const opened = await openText(guard, args.path);
      if (isOutput(opened)) return opened;
      try {
        // Any size: only the range is read into memory.
        const range = await readLineRange(opened.fh, {
          ...(typeof args.offset === 'number' ? { offset: args.offset } : {}),
          ...(typeof args.limit === 'number' ? { limit: args.limit } : {}),
          ...(typeof args.column === 'number' ? { column: args.column } : {}),
          ...(opened.encoding ? { encoding: opened.encoding } : {}),
        });
        const text = formatLineRange(shownAs(opened), range);
        return { ok: range.lines.length > 0 || range.total === 0, text };
      } finally {
        await opened.fh.close();
      }
    },
  };
}

/** Bytes read of one line: enough for MAX_LINE_CHARS characters of any width, so a cut line says so. */
const LINE_BYTES = MAX_LINE_CHARS * 4 + 4;

/**
 * The last `n` lines. Reads backwards in chunks keeping only where lines end, then at most LINE_BYTES of
 * each line: a huge log, or a file that is one line of hundreds of megabytes, costs time linear in what
 * lies after the lines' starts and memory bounded by `n` (each line beyond MAX_LINE_CHARS is cut anyway).
 */
export async function lastLines(
  file: string | fsp.FileHandle,
  size: number,
  n: number,
  encoding?: Utf16,
): Promise<string[]> {
  return (await readLastLines(file, size, n, encoding)).lines;
}

/**
 * `lastLines`, and whether they were decoded as Windows-1252: a UTF-8 file's last lines that are not
 * UTF-8 and hold no UTF-8 character (see legacy-encoding.ts) are read as such.
 */
export async function readLastLines(
  file: string | fsp.FileHandle,
  size: number,
  n: number,
  encoding?: Utf16,
): Promise<{ lines: string[]; legacy: boolean }> {
  // Never waits: a path swapped for a FIFO after it was checked fails instead.
  const fh = typeof file === 'string' ? await fsp.open(file, constants.O_RDONLY | constants.O_NONBLOCK) : file;
  // UTF-16 is read in whole code units after its mark: chunks start at even offsets, newlines are units.
  const unit = encoding ? 2 : 1;
  const first = encoding ? BOM_BYTES : 0;
  const isNewline = (b: Buffer, i: number): boolean => (encoding ? isNewlineUnit(b, i, encoding) : b[i] === 10);
  try {
    const ends: number[] = []; // newline positions, from the last backwards
    const part = Buffer.alloc(64 * 1024);
    size = Math.max(first, size - ((size - first) % unit));
    let pos = size;
    while (pos > first && ends.length <= n) {
      const len = Math.min(part.length, pos - first);
      pos -= len;
      const { bytesRead } = await fh.read(part, 0, len, pos);
      if (bytesRead < len) {
        // Shortened since it was measured: its end is where the read stopped; what was found past it goes.
        size = Math.max(first, pos + bytesRead - (bytesRead % unit));
        pos = size;
        ends.length = 0;
        continue;
      }
      for (let i = len - unit; i >= 0 && ends.length <= n; i -= unit) if (isNewline(part, i)) ends.push(pos + i);
    }
    // Past n newlines the line before the last one counted is not shown (it would be partial).
    let start = ends.length > n ? ends.pop()! + unit : first;
    // [from, to, ended by a newline]: a `\r` before that newline is the line ending's, not the line's.
    const spans: [number, number, boolean][] = [];
    for (const end of ends.reverse()) {
      spans.push([start, end, true]);
      start = end + unit;
    }
    if (start < size) spans.push([start, size, false]);
    const read: { bytes: Buffer; whole: boolean }[] = [];
    const census = { invalid: false, multibyte: false };
    for (const [from, to, ended] of spans.slice(-n)) {
      const len = Math.min(to - from, LINE_BYTES);
      const buf = Buffer.alloc(len);
      // Fewer bytes than asked: the file was shortened meanwhile; the rest of `buf` is not the file's.
      const { bytesRead } = await fh.read(buf, 0, len, from);
      // A UTF-8 byte order mark is not text (read_file and grep leave it out too).
      const bom = !encoding && from === 0 && buf.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0;
      const bytes = buf.subarray(bom, bytesRead);
      const whole = ended && bytesRead === to - from;
      read.push({ bytes, whole });
      if (encoding) continue;
      const c = new Utf8Census().push(bytes);
      if (bytesRead === to - from) c.end();
      census.invalid ||= c.invalid;
      census.multibyte ||= c.multibyte;
    }
    const legacy = census.invalid && !census.multibyte;
    const decode = (b: Buffer): string =>
      encoding ? decodeUtf16(b, encoding) : legacy ? decodeLegacy(b) : b.toString('utf8');
    const lines = read.map(({ bytes, whole }) => {
      const text = decode(bytes);
      return whole && text.endsWith('\r') ? text.slice(0, -1) : text;
    });
    return { lines, legacy };
  } finally {
    if (fh !== file) await fh.close();
  }
}

export function tailTool(guard: PathGuard): AgentTool {
  return {
    name: 'tail',
    description: `Shows the last lines of a text file (a log, a stored command output) without reading all of it; a line longer than ${MAX_LINE_CHARS} characters is cut there.`,
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Workspace-relative path.' },
        lines: { type: 'integer', minimum: 1, maximum: 2000, description: 'Default 50.' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    async run(args): Promise<ToolOutput> {
      const opened = await openText(guard, args.path);
      if (isOutput(opened)) return opened;
      const n = typeof args.lines === 'number' ? args.lines : 50;
      const { lines, legacy } = await readLastLines(opened.fh, opened.size, n, opened.encoding).finally(() =>
        opened.fh.close(),
      );
      if (lines.length === 0) return { ok: true, text: `${opened.display} is empty.` };
      const name = legacy ? `${opened.display} (${LEGACY_NAME}, not UTF-8)` : shownAs(opened);
      return { ok: true, text: `Last ${lines.length} lines of ${name}:\n${lines.map(clipLine).join('\n')}` };
    },
  };
}

export function listDirTool(guard: PathGuard): AgentTool {
  return {
    name: 'list_dir',
    description: 'Lists a folder of the workspace or the store: folders end with "/", symbolic links with "@".',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', description: 'Workspace-relative folder. Default ".".' } },
      additionalProperties: false,
    },
    async run(args): Promise<ToolOutput> {
      const r = await guard.resolve(args.path ?? '.');
      if (!r.ok) return fail(r.message);
      let entries;
      try {
        entries = await fsp.readdir(r.absolute, { withFileTypes: true });
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return fail(code === 'ENOTDIR' ? `${r.display} is a file; use read_file.` : `No such folder: ${r.display}`);
      }
      const names = entries
        .map((e) => (e.isDirectory() ? `${e.name}/` : e.isSymbolicLink() ? `${e.name}@` : e.name))
        .sort((a, b) => Number(b.endsWith('/')) - Number(a.endsWith('/')) || compareText(a, b));
      const shown = names.slice(0, MAX_DIR_ENTRIES);
      const more = names.length > shown.length ? `\n… ${names.length - shown.length} more entries` : '';
      const header = `${r.display}${r.display.endsWith(path.sep) ? '' : '/'} (${names.length} entries):`;
      return {
        ok: true,
        text: names.length === 0 ? `${r.display} is empty.` : `${header}\n${shown.join('\n')}${more}`,
      };
    },
  };
}
