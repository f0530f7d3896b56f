// The start of a small repository file an approval reads (a Makefile, package.json, .envrc, git config).
// Such a file may be anything a command or a clone put there: a FIFO (an open for reading would wait for
// a writer forever, and the approval with it), a device, or gigabytes. It is opened without waiting,
// read only if it is a regular file, and at most `max` bytes of it.
import { constants, promises as fsp } from 'node:fs';

export interface FileHead {
  text: string;
  /** The file holds more than was read. */
  cut: boolean;
}

/** The first `max` bytes of the regular file `file` as UTF-8, or undefined (missing, not a file, unreadable). */
export async function readFileHead(file: string, max: number): Promise<FileHead | undefined> {
  const handle = await fsp.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const st = await handle.stat();
    if (!st.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(max, st.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { text: buffer.toString('utf8', 0, bytesRead), cut: st.size > max };
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
