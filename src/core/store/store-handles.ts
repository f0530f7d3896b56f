// The handles the store writer gives out for long-lived writes. They only use the descriptor the writer
// opened (after its checks); every path operation stays in the writer (store-writer.ts and its writer-*.ts parts).
import type { promises as fsp } from 'node:fs';
import { StoreWriteError } from './errors';
import type { RedactedText } from './redacted-text';

/** An open file the store appends to: each `append` is one write(2) on an O_APPEND descriptor. */
export interface StoreAppendFile {
  readonly path: string;
  /** Appends whole lines (one or more records) in a single write; plain strings are redacted first. */
  append(text: string | RedactedText): Promise<void>;
  size(): Promise<number>;
  close(): Promise<void>;
}

/** A new file being streamed (a long tool output): created exclusively, registered as in use. */
export interface StoreStreamFile {
  readonly path: string;
  write(text: RedactedText): Promise<void>;
  /** Closes the file and renames it to `to` (still registered as in use until renamed). */
  commit(to: string): Promise<void>;
  /** Closes and deletes it (a failed or cancelled output). Safe after a failed commit. */
  discard(): Promise<void>;
}

export class AppendHandle implements StoreAppendFile {
  constructor(
    readonly path: string,
    private readonly handle: fsp.FileHandle,
    /** The file ended with a torn record (a crash): the next append starts on a fresh line. */
    private repairTail: boolean,
    private readonly clean: (t: string | RedactedText) => Promise<string>,
    private readonly release: () => Promise<void>,
  ) {}

  async append(text: string | RedactedText): Promise<void> {
    const clean = await this.clean(text);
    let buf = Buffer.from(clean, 'utf8');
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

  async size(): Promise<number> {
    return (await this.handle.stat()).size;
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await this.release();
  }
}

export class StreamHandle implements StoreStreamFile {
  constructor(
    readonly path: string,
    private readonly handle: fsp.FileHandle,
    private readonly release: () => Promise<void>,
    private readonly move: (to: string) => Promise<void>,
    private readonly unlink: () => Promise<boolean>,
  ) {}

  async write(text: RedactedText): Promise<void> {
    const buf = Buffer.from(text.value, 'utf8');
    try {
      for (let done = 0; done < buf.length;) done += (await this.handle.write(buf, done)).bytesWritten;
    } catch (e) {
      throw new StoreWriteError(this.path, `Could not write ${this.path}: ${(e as Error).message}`, { cause: e });
    }
  }

  async commit(to: string): Promise<void> {
    await this.handle.close();
    await this.move(to);
    await this.release();
  }

  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await this.unlink().catch(() => undefined);
    await this.release();
  }
}
