// The store writer's folder checks (one of its parts: only store-writer.ts uses them). A target is
// resolved inside the store root (lexically); the root must still be the real folder whose realpath was
// recorded at open; every folder between the root and the target is lstat()ed (a link is refused with a
// StoreSymlinkError naming it); a file is opened with O_NOFOLLOW through a handle on its checked folder
// (pinned-dir.ts), so a folder swapped for a link after the check is refused before anything is made in it.
import { promises as fsp, constants as fsc } from 'node:fs';
import * as path from 'node:path';
import { FolderMovedError, inPinnedFolder } from './pinned-dir';
import { StoreBoundaryError, StoreSymlinkError, StoreWriteError } from './errors';

const NOFOLLOW = fsc.O_NOFOLLOW ?? 0;
const isSymlinkErrno = (e: unknown): boolean => {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ELOOP' || code === 'EMLINK';
};
export const errnoOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;

/** A failure of `operation` on `file` as a StoreWriteError (one already is kept as it is). */
export function wrap(e: unknown, file: string, operation: string): Error {
  if (e instanceof StoreWriteError) return e;
  return new StoreWriteError(file, `Could not ${operation} ${file}: ${(e as Error).message}`, { cause: e });
}

export class StoreFolders {
  private constructor(
    /** The store root as given (absolute). */
    readonly root: string,
    /** Its realpath when opened: every operation checks the root still resolves here. */
    readonly realRoot: string,
    /** Told about every refused link. */
    private readonly onProblem: ((e: StoreWriteError) => void) | undefined,
  ) {}

  /** Creates the root folder if needed (its ancestors are the user's) and records its realpath. */
  static async open(root: string, onProblem?: (e: StoreWriteError) => void): Promise<StoreFolders> {
    const abs = path.resolve(root);
    try {
      await fsp.mkdir(abs, { recursive: true, mode: 0o700 });
    } catch (e) {
      if (errnoOf(e) !== 'EEXIST') throw new StoreWriteError(abs, `Cannot create ${abs}: ${(e as Error).message}`);
    }
    const st = await fsp.lstat(abs);
    if (st.isSymbolicLink()) throw new StoreSymlinkError(abs, 'use');
    if (!st.isDirectory()) throw new StoreWriteError(abs, `${abs} is not a folder.`);
    return new StoreFolders(abs, await fsp.realpath(abs), onProblem);
  }

  /** Reports a refused file to the listener, then returns the error for throwing. */
  report<E extends StoreWriteError>(e: E): E {
    this.onProblem?.(e);
    return e;
  }

  /** Reports a refused link to the listener, then returns the error for throwing. */
  refuse(link: string, operation: string): StoreSymlinkError {
    return this.report(new StoreSymlinkError(link, operation));
  }

  /** The path's segments below the root; throws when it is not strictly inside. */
  segments(target: string): string[] {
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
  async walk(segments: string[], operation: string, create: boolean, target?: string): Promise<string> {
    await this.checkRoot(operation);
    let current = this.root;
    for (const s of segments) {
      current = path.join(current, s);
      let st = await fsp.lstat(current).catch((e: unknown) => {
        if (errnoOf(e) === 'ENOENT' && create) return undefined;
        throw e;
      });
      if (!st) {
        // Made through a handle on the folder above (checked just before): one swapped for a link since
        // is refused instead of having a folder made wherever the link leads.
        await this.inFolder(path.dirname(current), (entry) => fsp.mkdir(entry(s), { mode: 0o700 }), operation).catch(
          (e: unknown) => {
            if (errnoOf(e) !== 'EEXIST') throw e;
          },
        );
        st = await fsp.lstat(current);
      }
      if (st.isSymbolicLink()) throw this.refuse(current, operation);
      if (!st.isDirectory())
        throw new StoreWriteError(current, `Could not ${operation} ${target ?? current}: ${current} is not a folder.`);
    }
    return current;
  }

  /** Checks the folders leading to `target` (creating them) and that `target` itself is not a link. */
  async prepare(target: string, operation: string, create = true): Promise<string> {
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
  async openFile(file: string, flags: number, operation: string): Promise<fsp.FileHandle> {
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

  /** Runs `use` on the checked store folder `dir` through a handle on it; refused if it moved. */
  inFolder<T>(dir: string, use: (entry: (name: string) => string) => Promise<T>, operation = 'delete'): Promise<T> {
    return inPinnedFolder(
      dir,
      (flags) => fsp.open(dir, flags),
      (real) => this.resolvesAs(dir, real),
      use,
    ).catch((e: unknown) => {
      throw e instanceof FolderMovedError ? this.refuse(dir, operation) : e;
    });
  }
}
