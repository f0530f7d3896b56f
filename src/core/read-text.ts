// Reads a whole text file that a repository can supply (a config, an env file, a file under the store),
// refusing what would hold the extension host: a link to /dev/zero or /dev/urandom is read until memory
// runs out (git stores links), a FIFO blocks the read forever, and a huge file is held whole.
import { constants, promises as fsp, type Stats } from 'node:fs';
import { nameOfHandle, pathNamesOpened, type HandleLookup } from './handle-path';

export class ReadRefusedError extends Error {
  constructor(
    readonly file: string,
    readonly reason: 'not-a-file' | 'too-large' | 'moved' | 'hard-link',
    message: string,
  ) {
    super(message);
  }
}

/** What a path that is not a regular file is, in words: `a FIFO (named pipe)`, `a character device`. */
export function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

export interface ReadOptions extends HandleLookup {
  /**
   * Refuse a file with more than one name (a hard link). For files under the store: a command can put
   * any file of the user's there (`ln ~/.ssh/id_rsa .context-desk/outputs/x.txt`), and what is read
   * back goes to the model as if Context Desk had stored it.
   */
  singleName?: boolean;
}

/** The refusal of a file with other names, when `options` asks for one name; checked on the open file. */
function hardLinkRefusal(file: string, st: Stats, options: ReadOptions): ReadRefusedError | undefined {
  if (!options.singleName || !st.isFile() || st.nlink <= 1) return undefined;
  return new ReadRefusedError(
    file,
    'hard-link',
    `${file} has ${st.nlink} names (a hard link): a file in the Context Desk folder with another name may be any file linked in by a command, so it is not read. Delete it (the other names keep their content)`,
  );
}

/**
 * Opens `file` for reading without waiting: O_NONBLOCK, since opening a FIFO waits for a writer otherwise
 * (regular files ignore it). The caller checks `st.isFile()` and closes the handle.
 */
export async function openForReading(file: string): Promise<{ fh: fsp.FileHandle; st: Stats }> {
  const fh = await fsp.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    return { fh, st: await fh.stat() };
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw e;
  }
}

/**
 * Opens `real` (a path already resolved and checked, with no links in it) for reading, as the file
 * that was checked: a folder on the way swapped for a link between the check and the open would
 * otherwise carry the open outside. On Linux the kernel names the opened file; elsewhere (or with
 * `options.proc` false) the path, no folder on the way a link, must name the same device and inode
 * (handle-path.ts). Throws ReadRefusedError when it is not that regular file.
 */
export async function openChecked(real: string, options: ReadOptions = {}): Promise<{ fh: fsp.FileHandle; st: Stats }> {
  const { fh, st } = await openForReading(real);
  try {
    if (!st.isFile())
      throw new ReadRefusedError(real, 'not-a-file', `${real} is not a regular file (${kindOf(st)}); it is not read`);
    const linked = hardLinkRefusal(real, st, options);
    if (linked) throw linked;
    const opened = await nameOfHandle(fh.fd, options);
    const same = opened !== undefined ? opened === real : await pathNamesOpened(real, st);
    if (!same) throw new ReadRefusedError(real, 'moved', `${real} changed while it was opened; it is not read`);
    return { fh, st };
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw e;
  }
}

function describe(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The file's text, decoded as UTF-8. Throws a ReadRefusedError for something that is not a regular file
 * (through a link too) or holds more than `maxBytes`; errors of the file system (ENOENT) pass through.
 */
export async function readTextFile(file: string, maxBytes: number, options: ReadOptions = {}): Promise<string> {
  const { fh, st } = await openForReading(file);
  try {
    if (!st.isFile())
      throw new ReadRefusedError(file, 'not-a-file', `${file} is not a regular file (${kindOf(st)}); it is not read`);
    const linked = hardLinkRefusal(file, st, options);
    if (linked) throw linked;
    const tooLarge = (): never => {
      throw new ReadRefusedError(
        file,
        'too-large',
        `${file} is larger than ${describe(maxBytes)}, more than such a file holds; it is not read`,
      );
    };
    if (st.size > maxBytes) tooLarge();
    // A file that grew since the stat is read whole or refused, never cut.
    const { bytes, over } = await readUpTo(fh, maxBytes, st.size);
    if (over) tooLarge();
    return bytes.toString('utf8');
  } finally {
    await fh.close();
  }
}

/**
 * The bytes of an open file from its start, read to its end as it is now (it may have grown since a stat
 * gave `sizeHint`) but never past one byte over `maxBytes`: the first `maxBytes` and whether it holds more.
 */
export async function readUpTo(
  fh: fsp.FileHandle,
  maxBytes: number,
  sizeHint = 0,
): Promise<{ bytes: Buffer; over: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(Math.min(Math.max(sizeHint + 1 - total, 64 * 1024), maxBytes + 1 - total));
    const { bytesRead } = await fh.read(buf, 0, buf.length, total);
    if (bytesRead === 0) break;
    chunks.push(buf.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) return { bytes: Buffer.concat(chunks, total).subarray(0, maxBytes), over: true };
  }
  return { bytes: Buffer.concat(chunks, total), over: false };
}

/** The start of a file, and whether it holds more. */
export interface FileHead {
  text: string;
  /** The file holds more than was read. */
  cut: boolean;
}

/**
 * The first `max` bytes of the regular file `file` as UTF-8, or undefined (missing, not a regular file,
 * unreadable): for a repository file read only for what it names (a Makefile, package.json, `.envrc`),
 * where its start is enough or a `cut` one is said to be too large.
 */
export async function readFileHead(file: string, max: number): Promise<FileHead | undefined> {
  const opened = await openForReading(file).catch(() => undefined);
  if (opened === undefined) return undefined;
  const { fh, st } = opened;
  try {
    if (!st.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(max, st.size));
    const { bytesRead } = await fh.read(buffer, 0, buffer.length, 0);
    return { text: buffer.toString('utf8', 0, bytesRead), cut: st.size > max };
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}
