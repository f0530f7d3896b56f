// Writes that survive crashes and concurrent writers: whole-line appends on O_APPEND descriptors,
// atomic replacement through a temp file + rename, and readers that tolerate a torn last line.
import { promises as fsp, constants as fsc } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { StoreWriteError } from './errors';

/**
 * An append-only file. Every `append` is ONE `write(2)` of whole lines on an `O_APPEND` descriptor,
 * so the kernel places it at the current end of file even when another process (a second VS Code
 * window) appends to the same file: records never interleave mid-line, and a crash loses at most the
 * record in flight (which then shows as a torn last line that readers skip).
 */
export class AppendOnlyFile {
  private constructor(
    readonly path: string,
    private readonly handle: fsp.FileHandle,
    /** The file ended with a torn record (a crash): the next append starts on a fresh line. */
    private repairTail: boolean,
  ) {}

  /** Opens (creating it and its folder if needed) for appending. */
  static async open(file: string): Promise<AppendOnlyFile> {
    let handle: fsp.FileHandle;
    try {
      await fsp.mkdir(path.dirname(file), { recursive: true });
      handle = await fsp.open(file, fsc.O_RDWR | fsc.O_APPEND | fsc.O_CREAT, 0o600);
    } catch (e) {
      throw new StoreWriteError(file, `Could not open ${file} for appending: ${(e as Error).message}`, { cause: e });
    }
    const { size } = await handle.stat();
    let torn = false;
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      torn = last[0] !== 0x0a;
    }
    return new AppendOnlyFile(file, handle, torn);
  }

  /** Appends `data` in a single write call. The data should end with a newline (one or more whole records). */
  async append(data: string | Buffer): Promise<void> {
    let buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (buf.length === 0) return;
    if (this.repairTail) {
      // Keep the torn record on its own (unparsable, reported) line instead of gluing ours to it.
      buf = Buffer.concat([Buffer.from('\n'), buf]);
      this.repairTail = false;
    }
    try {
      const { bytesWritten } = await this.handle.write(buf);
      // A short write only happens on a full disk or a signal; finish it rather than leave a torn record.
      if (bytesWritten < buf.length) await this.handle.write(buf.subarray(bytesWritten));
    } catch (e) {
      throw new StoreWriteError(this.path, `Could not append to ${this.path}: ${(e as Error).message}`, { cause: e });
    }
  }

  /** Current size on disk (including other writers' appends). */
  async size(): Promise<number> {
    return (await this.handle.stat()).size;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/** Appends one JSON record as one line with one write on a fresh O_APPEND descriptor. */
export async function appendJsonLine(file: string, record: unknown): Promise<void> {
  const f = await AppendOnlyFile.open(file);
  try {
    await f.append(JSON.stringify(record) + '\n');
  } finally {
    await f.close();
  }
}

/**
 * Replaces `file` atomically: readers see the old content or the new one, never a mix. The temp file
 * lives in the same folder (rename is only atomic within one file system) and is fsynced first.
 */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    const h = await fsp.open(tmp, 'w', 0o600);
    try {
      await h.writeFile(data);
      await h.sync();
    } finally {
      await h.close();
    }
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw new StoreWriteError(file, `Could not write ${file}: ${(e as Error).message}`, { cause: e });
  }
}

/** What a tolerant JSONL reader found. */
export interface JsonlReadResult<T> {
  records: T[];
  /** The last line had no newline (a write in flight when a process died): it was not parsed. */
  tornTail?: string;
  /** Complete lines that were not valid JSON (1-based line numbers); they are skipped, not fatal. */
  badLines: { line: number; text: string }[];
}

/** Parses JSONL text: complete lines only; a trailing partial line is reported, never thrown on. */
export function parseJsonl<T = unknown>(text: string): JsonlReadResult<T> {
  const result: JsonlReadResult<T> = { records: [], badLines: [] };
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  if (tail !== '') result.tornTail = tail;
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      result.records.push(JSON.parse(line) as T);
    } catch {
      result.badLines.push({ line: i + 1, text: line.slice(0, 200) });
    }
  });
  return result;
}

/** Reads and parses a JSONL file (see `parseJsonl`). A missing file reads as empty. */
export async function readJsonl<T = unknown>(file: string): Promise<JsonlReadResult<T>> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { records: [], badLines: [] };
    throw e;
  }
  return parseJsonl<T>(text);
}
