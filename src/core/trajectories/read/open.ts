// Opens a log file for reading without ever blocking or printing its bytes: anything but a regular
// file is refused (a FIFO would block forever), binary and non-UTF-8 content is refused with a reason,
// and a UTF-8 byte-order mark is dropped. Text comes out as decoded chunks, read a piece at a time.
import { kindOf, openForReading } from '../../read-text';
import { looksBinary } from '../../store/sanitize/binary';
import { fail } from '../errors';

const CHUNK = 1 << 16;

export interface TextSource {
  /** File size in bytes. */
  size: number;
  /** Decoded text, chunk by chunk; the byte-order mark is already gone. Closes the file when done. */
  chunks(): AsyncGenerator<string>;
  close(): Promise<void>;
}

/** Opens `file` for reading text. Throws a FormatError (not a regular file, empty, binary, not UTF-8). */
export async function openText(file: string): Promise<TextSource> {
  const { fh, st } = await openForReading(file);
  try {
    if (!st.isFile()) fail(`not a regular file: ${kindOf(st)}; only log files are read`, 'not a regular file');
    if (st.size === 0) fail('the file is empty', 'empty file');
    const head = Buffer.alloc(Math.min(CHUNK, st.size));
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    const first = head.subarray(0, bytesRead);
    if ((first[0] === 0xff && first[1] === 0xfe) || (first[0] === 0xfe && first[1] === 0xff))
      fail('UTF-16 text: save the log as UTF-8 to replay it', 'not UTF-8 text');
    if (looksBinary(first)) fail('a binary file (not text)', 'binary file');
    const bom = first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf ? 3 : 0;
    return {
      size: st.size,
      close: () => fh.close(),
      async *chunks() {
        const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
        const buf = Buffer.alloc(CHUNK);
        let position = bom;
        try {
          for (;;) {
            const { bytesRead: n } = await fh.read(buf, 0, CHUNK, position);
            let text: string;
            try {
              text = decoder.decode(buf.subarray(0, n), { stream: n > 0 });
            } catch {
              fail(`not UTF-8 text (an invalid byte sequence near byte ${position})`, 'not UTF-8 text');
            }
            if (text !== '') yield text;
            if (n === 0) return;
            position += n;
          }
        } finally {
          await fh.close().catch(() => undefined);
        }
      },
    };
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw e;
  }
}
