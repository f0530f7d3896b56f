// THE store writer: the only code under src/ that creates, writes, appends, renames or deletes anything
// under a store root (a unit test fails on any other write call). Every operation:
//   - resolves the target inside the store root (lexically) and checks that the root is still the
//     real folder whose realpath was recorded at open;
//   - lstat()s every folder between the root and the target: a symbolic link is refused with a
//     StoreSymlinkError naming it, and nothing is written or deleted through it;
//   - opens the final file with O_NOFOLLOW (O_CREAT|O_EXCL where a new file is meant), then checks
//     that the folder it landed in is still the one inside the store;
//   - passes every text through the redaction engine, unless it comes from the engine already
//     (`RedactedText`, made only by the helpers at the end of this file).
import { promises as fsp, constants as fsc } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { readTextFile } from '../read-text';
import { FolderMovedError, inPinnedFolder } from './pinned-dir';
import { StoreBoundaryError, StoreHardLinkError, StoreSymlinkError, StoreWriteError } from './errors';
import { LOCK_REFRESH_MS, LOCKS_DIR, selfIdentity, tempName, type LockRecord } from './owners';
import { sameJsonShape, setOwn } from './sanitize/json-values';
import { redactSecrets } from './sanitize/secrets';
import { SanitizingStream, sanitizeText, type SanitizeOptions, type SanitizeStats } from './sanitize/pipeline';
import { AppendHandle, StreamHandle, type StoreAppendFile, type StoreStreamFile } from './store-handles';

export type { StoreAppendFile, StoreStreamFile } from './store-handles';

const MINT = Symbol('redacted');
/** Text that went through the redaction engine. Only this module's helpers can make one. */
export class RedactedText {
  constructor(
    readonly value: string,
    key: symbol,
  ) {
    if (key !== MINT) throw new Error('RedactedText is made by the store writer only');
  }
  toString(): string {
    return this.value;
  }
}
const minted = (text: string): RedactedText => new RedactedText(text, MINT);

const NOFOLLOW = fsc.O_NOFOLLOW ?? 0;
const isSymlinkErrno = (e: unknown): boolean => {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ELOOP' || code === 'EMLINK';
};
const errnoOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;

export interface StoreWriterOptions {
  /** Told about every refused link (the extension shows one notification per path). */
  onProblem?: (e: StoreWriteError) => void;
}

export class StoreWriter {
  private constructor(
    /** The store root as given (absolute). */
    readonly root: string,
    /** Its realpath when opened: every operation checks the root still resolves here. */
    readonly realRoot: string,
    private readonly options: StoreWriterOptions,
  ) {}

  /** Creates the root folder if needed (its ancestors are the user's) and records its realpath. */
  static async open(root: string, options: StoreWriterOptions = {}): Promise<StoreWriter> {
    const abs = path.resolve(root);
    try {
      await fsp.mkdir(abs, { recursive: true, mode: 0o700 });
    } catch (e) {
      if (errnoOf(e) !== 'EEXIST') throw new StoreWriteError(abs, `Cannot create ${abs}: ${(e as Error).message}`);
    }
    const st = await fsp.lstat(abs);
    if (st.isSymbolicLink()) throw new StoreSymlinkError(abs, 'use');
    if (!st.isDirectory()) throw new StoreWriteError(abs, `${abs} is not a folder.`);
    return new StoreWriter(abs, await fsp.realpath(abs), options);
  }

  /** Reports a refused link to the listener, then returns the error for throwing. */
  private refuse(link: string, operation: string): StoreSymlinkError {
    const e = new StoreSymlinkError(link, operation);
    this.options.onProblem?.(e);
    return e;
  }

  /** The path's segments below the root; throws when it is not strictly inside. */
  private segments(target: string): string[] {
    const abs = path.resolve(target);
    const rel = path.relative(this.root, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel))
      throw new StoreBoundaryError(
        abs,
        `Refused to write ${abs}: it is not inside the Context Desk folder ${this.root}.`,
      );
    return rel.split(path.sep);
  }

  private async checkRoot(operation: string): Promise<void> {
    const st = await fsp.lstat(this.root).catch(() => undefined);
    if (st?.isSymbolicLink()) throw this.refuse(this.root, operation);
    if (!st?.isDirectory())
      throw new StoreBoundaryError(this.root, `The Context Desk folder ${this.root} is gone; nothing was written.`);
    const real = await fsp.realpath(this.root);
    if (real !== this.realRoot)
      throw new StoreBoundaryError(
        this.root,
        `The Context Desk folder ${this.root} now resolves to ${real}, not ${this.realRoot} as when it was opened; nothing was written.`,
      );
  }

  /**
   * Checks (and with `create`, makes) every folder from the root down to `segments`: each must be a
   * real folder, never a link. Returns the absolute path of the last one.
   */
  private async walk(segments: string[], operation: string, create: boolean, target?: string): Promise<string> {
    await this.checkRoot(operation);
    let current = this.root;
    for (const s of segments) {
      current = path.join(current, s);
      let st = await fsp.lstat(current).catch((e: unknown) => {
        if (errnoOf(e) === 'ENOENT' && create) return undefined;
        throw e;
      });
      if (!st) {
        await fsp.mkdir(current, { mode: 0o700 }).catch((e: unknown) => {
          if (errnoOf(e) !== 'EEXIST') throw e;
        });
        st = await fsp.lstat(current);
      }
      if (st.isSymbolicLink()) throw this.refuse(current, operation);
      if (!st.isDirectory())
        throw new StoreWriteError(current, `Could not ${operation} ${target ?? current}: ${current} is not a folder.`);
    }
    return current;
  }

  /** Checks the folders leading to `target` (creating them) and that `target` itself is not a link. */
  private async prepare(target: string, operation: string, create = true): Promise<string> {
    const segs = this.segments(target);
    const dir = await this.walk(segs.slice(0, -1), operation, create, path.resolve(target));
    const file = path.join(dir, segs[segs.length - 1]!);
    const st = await fsp.lstat(file).catch(() => undefined);
    if (st?.isSymbolicLink()) throw this.refuse(file, operation);
    return file;
  }

  /**
   * Below the root, names may differ in case only: macOS and Windows give realpath the case a name
   * has on disk, so `terminals/` there is a shipped `TERMINALS/` (or an MCP server renamed GitHub ->
   * github), the same folder; the root itself must match exactly.
   */
  private resolvesAs(dir: string, real: string): boolean {
    const expected = path.join(this.realRoot, path.relative(this.root, dir));
    const below = this.realRoot + path.sep;
    return (
      real === expected ||
      (real.startsWith(below) && expected.startsWith(below) && real.toLowerCase() === expected.toLowerCase())
    );
  }

  /**
   * Opens `file` inside its checked folder, through a handle on that folder (pinned-dir.ts): a folder
   * swapped for a link after the check (or at the open and back before a check by path) is refused
   * before anything is created in it.
   */
  private async openFile(file: string, flags: number, operation: string): Promise<fsp.FileHandle> {
    return this.inFolder(
      path.dirname(file),
      async (entry) => {
        try {
          return await fsp.open(entry(path.basename(file)), flags | NOFOLLOW, 0o600);
        } catch (e) {
          if (isSymlinkErrno(e)) throw this.refuse(file, operation);
          throw e;
        }
      },
      operation,
    );
  }

  private async text(data: string | RedactedText): Promise<string> {
    return data instanceof RedactedText ? data.value : (await redactForStore(data)).value;
  }

  /** Makes a folder (and the ones above it, up to the root). */
  async mkdir(dir: string): Promise<void> {
    await this.walk(this.segments(dir), 'create a folder', true);
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
    const target = await this.prepare(file, 'write');
    const text = await this.text(data);
    if (options.exclusive) {
      let h: fsp.FileHandle;
      try {
        h = await this.openFile(target, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 'write');
      } catch (e) {
        if (errnoOf(e) === 'EEXIST') return false;
        throw wrap(e, target, 'write');
      }
      try {
        await h.writeFile(text);
      } finally {
        await h.close();
      }
      return true;
    }
    if (options.ifChanged) {
      // Longer than the new text (or not a file, such as a link to /dev/zero): changed, without reading it all.
      const old = await readTextFile(target, Buffer.byteLength(text)).catch(() => undefined);
      if (old === text) return false;
    }
    const tmp = path.join(path.dirname(target), tempName(path.basename(target), randomBytes(4).toString('hex')));
    try {
      const h = await this.openFile(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 'write');
      try {
        await h.writeFile(text);
        await h.sync();
      } finally {
        await h.close();
      }
      // rename() replaces a link placed at the target meanwhile instead of following it; both names are
      // taken in the one checked folder, through its handle.
      await this.inFolder(
        path.dirname(target),
        (entry) => fsp.rename(entry(path.basename(tmp)), entry(path.basename(target))),
        'write',
      );
    } catch (e) {
      await fsp.unlink(tmp).catch(() => undefined);
      throw wrap(e, target, 'write');
    }
    return true;
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
    const target = await this.prepare(file, 'append');
    let handle: fsp.FileHandle;
    try {
      handle = await this.openFile(target, fsc.O_RDWR | fsc.O_APPEND | fsc.O_CREAT, 'append');
    } catch (e) {
      throw wrap(e, target, 'append');
    }
    // Checked on the open descriptor: the file the appends would go to, whatever its name is now.
    const { nlink } = await handle.stat();
    if (nlink > 1) {
      await handle.close().catch(() => undefined);
      const e = new StoreHardLinkError(target, nlink);
      this.options.onProblem?.(e);
      throw e;
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
    const target = await this.prepare(file, 'write');
    const release = await this.lock(target);
    let handle: fsp.FileHandle;
    try {
      handle = await this.openFile(target, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 'write');
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
    const source = await this.prepare(from, 'rename', false);
    const st = await fsp.lstat(source);
    if (!st.isFile()) throw new StoreWriteError(source, `Cannot rename ${source}: it is not a file.`);
    const target = await this.prepare(to, 'rename');
    try {
      await fsp.rename(source, target);
    } catch (e) {
      throw wrap(e, target, 'rename');
    }
  }

  /** Deletes a file (never a link, never through one). Returns false when it was already gone. */
  async remove(file: string): Promise<boolean> {
    let target: string;
    try {
      target = await this.prepare(file, 'delete', false);
    } catch (e) {
      if (errnoOf(e) === 'ENOENT') return false;
      throw e;
    }
    // Through a handle on the checked folder: one swapped for a link since the check is refused.
    return this.inFolder(path.dirname(target), async (entry) => {
      const at = entry(path.basename(target));
      const st = await fsp.lstat(at).catch(() => undefined);
      if (!st) return false;
      if (!st.isFile()) throw new StoreWriteError(target, `Refused to delete ${target}: it is not a file.`);
      await fsp.unlink(at).catch((e: unknown) => {
        if (errnoOf(e) !== 'ENOENT') throw wrap(e, target, 'delete');
      });
      return true;
    });
  }

  /** Removes a folder if it is empty (a real folder, not a link). Returns whether it was removed. */
  async removeEmptyDir(dir: string): Promise<boolean> {
    const segs = this.segments(dir);
    const target = await this.walk(segs, 'delete', false).catch(() => undefined);
    if (!target) return false;
    return fsp.rmdir(target).then(
      () => true,
      () => false,
    );
  }

  /**
   * Deletes a folder and everything in it, never following a link: a link inside is reported and kept
   * (so is the folder holding it). Returns the links that were kept.
   */
  async removeTree(dir: string): Promise<string[]> {
    const target = await this.walk(this.segments(dir), 'delete', false);
    const kept: string[] = [];
    // Listed and emptied through a handle on the checked folder (see pinned-dir.ts).
    await this.inFolder(target, async (entry) => {
      for (const e of await fsp.readdir(entry('.'), { withFileTypes: true })) {
        const p = path.join(target, e.name);
        if (e.isSymbolicLink()) kept.push(this.refuse(p, 'delete').link);
        else if (e.isDirectory()) for (const k of await this.removeTree(p)) kept.push(k);
        else await fsp.unlink(entry(e.name)).catch(() => undefined);
      }
    });
    if (kept.length === 0) await fsp.rmdir(target).catch(() => undefined);
    return kept;
  }

  /** Runs `use` on the checked store folder `dir` through a handle on it; refused if it moved. */
  private inFolder<T>(
    dir: string,
    use: (entry: (name: string) => string) => Promise<T>,
    operation = 'delete',
  ): Promise<T> {
    return inPinnedFolder(
      dir,
      (flags) => fsp.open(dir, flags),
      (real) => this.resolvesAs(dir, real),
      use,
    ).catch((e: unknown) => {
      throw e instanceof FolderMovedError ? this.refuse(dir, operation) : e;
    });
  }

  /** Lock records of this writer's open files. */
  private readonly held = new Set<string>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  /** Registers `file` as open for writing by this process; the returned function releases it. */
  async lock(file: string): Promise<() => Promise<void>> {
    const me = selfIdentity();
    const record: LockRecord = {
      v: 1,
      ...me,
      file: path.relative(this.root, path.resolve(file)).split(path.sep).join('/'),
    };
    const lockFile = path.join(this.root, LOCKS_DIR, `${me.pid}-${randomBytes(6).toString('hex')}.lock`);
    await this.writeFile(lockFile, JSON.stringify(record) + '\n', { exclusive: true });
    this.held.add(lockFile);
    this.heartbeat ??= setInterval(() => void this.refreshLocks(), LOCK_REFRESH_MS).unref();
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      this.held.delete(lockFile);
      if (this.held.size === 0) {
        clearInterval(this.heartbeat);
        this.heartbeat = undefined;
      }
      await this.remove(lockFile).catch(() => undefined);
    };
  }

  /**
   * Marks this writer's lock records as fresh (their modification time), so that a writer whose process
   * cannot be checked from where the record is read (another host on a shared drive) keeps its files.
   */
  async refreshLocks(now = new Date()): Promise<void> {
    for (const lockFile of this.held) {
      const target = await this.prepare(lockFile, 'write', false).catch(() => undefined);
      if (target) await fsp.lutimes(target, now, now).catch(() => undefined);
    }
  }
}

function wrap(e: unknown, file: string, operation: string): Error {
  if (e instanceof StoreWriteError) return e;
  return new StoreWriteError(file, `Could not ${operation} ${file}: ${(e as Error).message}`, { cause: e });
}

// ---- The only ways to make RedactedText: each runs the redaction engine (src/core/store/sanitize). ----

/** Redacts secrets in complete text (whole lines). */
export async function redactForStore(text: string): Promise<RedactedText> {
  if (text === '') return minted(text);
  return minted((await redactSecrets(text)).text);
}

/** Every string of a JSON value (keys included) redacted. */
export async function redactJson(value: unknown): Promise<unknown> {
  if (typeof value === 'string') return value === '' ? value : (await redactSecrets(value)).text;
  if (Array.isArray(value)) return Promise.all(value.map(redactJson));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, (await redactJson(k)) as string, await redactJson(v));
    return out;
  }
  return value;
}

/**
 * A JSON value as the store writes it: the serialized text redacted as the file it becomes (a string
 * alone loses the key that says it is a secret: a server's schema with `"examples": [{"password": "…"}]`
 * kept the password; the engine reads JSON strings decoded, so a string's `\n`-separated lines are found
 * too). Once: redacting every string first as well doubled the cost. Should a redaction have taken a
 * quote or a comma of the JSON with it (the file would no longer read, or lose a field), every string is
 * redacted alone first, as before, and the text again.
 */
export async function redactJsonForStore(value: unknown, indent = 2): Promise<RedactedText> {
  const text = JSON.stringify(value, null, indent) + '\n';
  const once = await redactForStore(text);
  if (once.value === text || sameJsonShape(text, once.value)) return once;
  return redactForStore(JSON.stringify(await redactJson(value), null, indent) + '\n');
}

/** One-shot sanitizing (binary check, terminal sequences, secrets) for the store. */
export async function sanitizeForStore(
  input: Uint8Array | string,
  options: SanitizeOptions,
): Promise<{ text: RedactedText; stats: SanitizeStats }> {
  const r = await sanitizeText(input, options);
  return { text: minted(r.text), stats: r.stats };
}

/**
 * A streaming sanitizer whose sink receives store-ready text. `after` may only escape or frame the
 * sanitized text (e.g. keep an output line from forging a log marker), never add content.
 */
export function sanitizingStream(
  sink: (text: RedactedText) => Promise<void>,
  options: SanitizeOptions,
  after: (text: string) => string = (t) => t,
): SanitizingStream {
  return new SanitizingStream((text) => sink(minted(after(text))), options);
}
