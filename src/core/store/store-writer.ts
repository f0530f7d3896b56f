// THE store writer: the only code under src/ that creates, writes, appends, renames or deletes anything
// under a store root (a unit test fails on any other write call; its parts, writer-*.ts, are used by this
// file only). Every operation:
//   - resolves the target inside the store root (lexically) and checks that the root is still the
//     real folder whose realpath was recorded at open;
//   - lstat()s every folder between the root and the target: a symbolic link is refused with a
//     StoreSymlinkError naming it, and nothing is written or deleted through it (writer-folders.ts);
//   - opens the final file with O_NOFOLLOW (O_CREAT|O_EXCL where a new file is meant), then checks
//     that the folder it landed in is still the one inside the store;
//   - passes every text through the redaction engine, unless it comes from the engine already
//     (`RedactedText`, made only by the helpers of redacted-text.ts).
import { constants as fsc, type promises as fsp } from 'node:fs';
import { StoreHardLinkError, type StoreWriteError } from './errors';
import { RedactedText, redactForStore, redactJsonForStore } from './redacted-text';
import { AppendHandle, StreamHandle, type StoreAppendFile, type StoreStreamFile } from './store-handles';
import { removeEmptyFolder, removeFile, removeFolderTree } from './writer-deletes';
import { renameInStore, touchFile, writeChecked } from './writer-files';
import { StoreFolders, wrap } from './writer-folders';
import { LockRecords } from './writer-locks';

export type { StoreAppendFile, StoreStreamFile } from './store-handles';
export {
  RedactedText,
  redactForStore,
  redactJson,
  redactJsonForStore,
  sanitizeForStore,
  sanitizingStream,
} from './redacted-text';

export interface StoreWriterOptions {
  /** Told about every refused link (the extension shows one notification per path). */
  onProblem?: (e: StoreWriteError) => void;
}

export class StoreWriter {
  /** The store root as given (absolute). */
  readonly root: string;
  /** Its realpath when opened: every operation checks the root still resolves here. */
  readonly realRoot: string;
  private readonly locks: LockRecords;

  private constructor(private readonly folders: StoreFolders) {
    this.root = folders.root;
    this.realRoot = folders.realRoot;
    this.locks = new LockRecords({
      root: this.root,
      writeFile: (file, data, options) => this.writeFile(file, data, options),
      touch: (file, now) => touchFile(folders, file, now),
      remove: (file) => this.remove(file),
    });
  }

  /** Creates the root folder if needed (its ancestors are the user's) and records its realpath. */
  static async open(root: string, options: StoreWriterOptions = {}): Promise<StoreWriter> {
    return new StoreWriter(await StoreFolders.open(root, options.onProblem));
  }

  private async text(data: string | RedactedText): Promise<string> {
    return data instanceof RedactedText ? data.value : (await redactForStore(data)).value;
  }

  /** Makes a folder (and the ones above it, up to the root). */
  async mkdir(dir: string): Promise<void> {
    await this.folders.walk(this.folders.segments(dir), 'create a folder', true);
  }

  /**
   * Replaces `file` atomically (temp file in the same folder, fsync, rename): readers see the old text or
   * the new one. `ifChanged`: returns false without writing when the content is the same. `exclusive`:
   * creates the file only if it does not exist (returns false when it does), no temp file.
   */
  async writeFile(
    file: string,
    data: string | RedactedText,
    options: { ifChanged?: boolean; exclusive?: boolean } = {},
  ): Promise<boolean> {
    const target = await this.folders.prepare(file, 'write');
    return writeChecked(this.folders, target, await this.text(data), options);
  }

  /** Writes a JSON value redacted as `redactJsonForStore` does. */
  async writeJson(
    file: string,
    value: unknown,
    options: { ifChanged?: boolean; indent?: number } = {},
  ): Promise<boolean> {
    const text = await redactJsonForStore(value, options.indent ?? 2);
    return this.writeFile(file, text, options.ifChanged ? { ifChanged: true } : {});
  }

  /**
   * Opens `file` for appending (creating it), registered as in use until closed. An existing file with
   * another name (a hard link, which O_NOFOLLOW does not see) is refused: the appends would land in it.
   */
  async openAppend(file: string): Promise<StoreAppendFile> {
    const target = await this.folders.prepare(file, 'append');
    let handle: fsp.FileHandle;
    try {
      handle = await this.folders.openFile(target, fsc.O_RDWR | fsc.O_APPEND | fsc.O_CREAT, 'append');
    } catch (e) {
      throw wrap(e, target, 'append');
    }
    // Checked on the open descriptor: the file the appends would go to, whatever its name is now.
    const { nlink } = await handle.stat();
    if (nlink > 1) {
      await handle.close().catch(() => undefined);
      throw this.folders.report(new StoreHardLinkError(target, nlink));
    }
    const release = await this.lock(target).catch(async (e: unknown) => {
      await handle.close();
      throw e;
    });
    const { size } = await handle.stat();
    let torn = false;
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      torn = last[0] !== 0x0a;
    }
    return new AppendHandle(target, handle, torn, (t) => this.text(t), release);
  }

  /** Creates `file` exclusively for streaming into it; registered as in use until closed or discarded. */
  async createStream(file: string): Promise<StoreStreamFile> {
    const target = await this.folders.prepare(file, 'write');
    const release = await this.lock(target);
    let handle: fsp.FileHandle;
    try {
      handle = await this.folders.openFile(target, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 'write');
    } catch (e) {
      await release();
      throw wrap(e, target, 'write');
    }
    return new StreamHandle(
      target,
      handle,
      release,
      (to) => this.rename(target, to),
      () => this.remove(target),
    );
  }

  /** Renames a file inside the store; neither side may be (or lie under) a link. */
  async rename(from: string, to: string): Promise<void> {
    await renameInStore(this.folders, from, to);
  }

  /** Deletes a file (never a link, never through one). Returns false when it was already gone. */
  async remove(file: string): Promise<boolean> {
    return removeFile(this.folders, file);
  }

  /** Removes a folder if it is empty (a real folder, not a link). Returns whether it was removed. */
  async removeEmptyDir(dir: string): Promise<boolean> {
    return removeEmptyFolder(this.folders, dir);
  }

  /**
   * Deletes a folder and everything in it, never following a link: a link inside is reported and kept
   * (so is the folder holding it). Returns the links that were kept.
   */
  async removeTree(dir: string): Promise<string[]> {
    return removeFolderTree(this.folders, dir);
  }

  /** Registers `file` as open for writing by this process; the returned function releases it. */
  async lock(file: string): Promise<() => Promise<void>> {
    return this.locks.lock(file);
  }

  /**
   * Marks this writer's lock records as fresh (their modification time), so that a writer whose process
   * cannot be checked from where the record is read (another host on a shared drive) keeps its files.
   */
  async refreshLocks(now = new Date()): Promise<void> {
    await this.locks.refresh(now);
  }
}
