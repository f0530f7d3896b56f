// The lines of a file a repository can supply (a store's JSONL), read in chunks: a line longer than
// `maxLine` bytes is skipped without being held (a single 400 MB line packs into a few hundred KB of git
// and would otherwise be held whole, several times over), and what is not a regular file is refused.
import { ReadRefusedError, kindOf, openForReading } from '../read-text';

const CHUNK = 64 * 1024;

export interface CappedLines {
  lines: AsyncGenerator<string>;
  /** Lines skipped for their length so far. */
  skipped(): number;
}

export function cappedLines(file: string, maxLine: number): CappedLines {
  let skipped = 0;
  async function* read(): AsyncGenerator<string> {
    const { fh, st } = await openForReading(file);
    try {
      if (!st.isFile())
        throw new ReadRefusedError(file, 'not-a-file', `${file} is not a regular file (${kindOf(st)}); it is not read`);
      let parts: Buffer[] = [];
      let held = 0;
      let tooLong = false;
      const buf = Buffer.allocUnsafe(CHUNK);
      for (;;) {
        const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
        if (bytesRead === 0) break;
        let start = 0;
        for (let nl = buf.indexOf(10, 0); nl !== -1 && nl < bytesRead; nl = buf.indexOf(10, start)) {
          if (!tooLong && held + nl - start <= maxLine) {
            parts.push(Buffer.from(buf.subarray(start, nl)));
            yield Buffer.concat(parts).toString('utf8');
          } else skipped++;
          parts = [];
          held = 0;
          tooLong = false;
          start = nl + 1;
        }
        if (start < bytesRead && !tooLong) {
          held += bytesRead - start;
          if (held > maxLine) {
            tooLong = true;
            parts = [];
          } else parts.push(Buffer.from(buf.subarray(start, bytesRead)));
        }
      }
      if (tooLong) skipped++;
      else if (held > 0) yield Buffer.concat(parts).toString('utf8');
    } finally {
      await fh.close();
    }
  }
  return { lines: read(), skipped: () => skipped };
}
