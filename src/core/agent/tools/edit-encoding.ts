// edit_file on a file that is not UTF-8: VS Code opens it as UTF-8 unless told otherwise (files.encoding,
// Reopen with Encoding), showing each byte that is not UTF-8 as U+FFFD, and saving the edited document
// writes U+FFFD's bytes for every one of them: an edit of one line would destroy every accented letter of
// a Latin-1 file. Such an edit is refused while the document is open as UTF-8.
import { openForReading } from '../../read-text';
import { LEGACY_NAME } from './line-range';

/** VS Code's names of the encodings that decode bytes as UTF-8 (TextDocument.encoding). */
const UTF8_NAMES = new Set(['utf8', 'utf8bom']);

/**
 * Why an edit of a file with these bytes is refused while VS Code has it open in `documentEncoding`, or
 * undefined when it may go ahead: the file is UTF-8 (or UTF-16 with a byte order mark, which VS Code
 * detects), or the document is open in another encoding, which it saves in.
 */
export function nonUtf8EditRefusal(name: string, documentEncoding: string, bytes: Uint8Array): string | undefined {
  if (!UTF8_NAMES.has(documentEncoding)) return undefined;
  const census = new ReplacedCensus();
  census.add(bytes);
  return refusal(name, census.end());
}

/**
 * nonUtf8EditRefusal for a file read in chunks (a Node stream): a file of any size is checked without
 * holding its bytes. Before, a file over 16 MB went unchecked, so an edit of a large Windows-1252 file
 * (whose first screens may be ASCII) replaced every accented letter in it on saving.
 */
export async function nonUtf8EditRefusalOf(
  name: string,
  documentEncoding: string,
  chunks: AsyncIterable<Uint8Array>,
): Promise<string | undefined> {
  if (!UTF8_NAMES.has(documentEncoding)) return undefined;
  const census = new ReplacedCensus();
  for await (const chunk of chunks) census.add(chunk);
  return refusal(name, census.end());
}

/**
 * nonUtf8EditRefusalOf for the file at `file`, opened once without waiting and read through that handle:
 * a FIFO or a device swapped in for it (`ln -sf /dev/zero notes.txt` while the approval waits) is refused,
 * not read forever. Undefined also when the file is gone (the edit's own checks say so).
 */
export async function nonUtf8EditRefusalOfFile(
  name: string,
  documentEncoding: string,
  file: string,
): Promise<string | undefined> {
  if (!UTF8_NAMES.has(documentEncoding)) return undefined;
  const opened = await openForReading(file).catch(() => undefined);
  if (!opened) return undefined;
  try {
    if (!opened.st.isFile()) return `Refused: ${name} is not a regular file now; nothing was changed.`;
    return await nonUtf8EditRefusalOf(
      name,
      documentEncoding,
      opened.fh.createReadStream({ highWaterMark: 1 << 20, autoClose: false }),
    );
  } finally {
    await opened.fh.close();
  }
}

/** The refusal for a file with `lost` bytes that UTF-8 decoding replaces (none: undefined). */
function refusal(name: string, lost: number): string | undefined {
  if (lost <= 0) return undefined;
  return (
    `Refused: ${name} is not UTF-8 (read_file shows it ${LEGACY_NAME}), but VS Code has it open as UTF-8: ` +
    `saving an edit would replace its ${lost} character${lost === 1 ? '' : 's'} that are not UTF-8 ` +
    'with U+FFFD for good. Ask the user to reopen it in its encoding (Reopen with Encoding, e.g. Western ' +
    '(Windows 1252)) or to set files.encoding for it; nothing was changed.'
  );
}

/**
 * Counts what decoding as UTF-8 turns into U+FFFD, minus the U+FFFD the file holds as such (its text),
 * chunk by chunk: the decoder keeps a sequence split across chunks, `carry` a split EF BF BD.
 * A file starting with a UTF-16 byte order mark counts 0.
 */
class ReplacedCensus {
  private readonly decoder = new TextDecoder('utf-8');
  private head: number[] = [];
  private carry = Buffer.alloc(0);
  private bad = 0;
  private real = 0;

  add(bytes: Uint8Array): void {
    if (this.head.length < 2) this.head.push(...bytes.subarray(0, 2 - this.head.length));
    const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.bad += count(this.decoder.decode(b, { stream: true }), '\ufffd');
    // A match needs 3 bytes, so none lies wholly in the 2 carried: none is counted twice.
    const edge = Buffer.concat([this.carry, b.subarray(0, 2)]);
    this.real += count(edge, FFFD) + count(b, FFFD);
    this.carry = Buffer.from((b.length >= 2 ? b : Buffer.concat([this.carry, b])).subarray(-2));
  }

  end(): number {
    const [a, b] = this.head;
    if ((a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff)) return 0;
    return this.bad + count(this.decoder.decode(), '\ufffd') - this.real;
  }
}

const FFFD = Buffer.from([0xef, 0xbf, 0xbd]);

/** How many times `what` occurs in `where` (it cannot overlap itself). */
function count<T extends string | Buffer>(where: T, what: T): number {
  const find = (from: number): number => (where as string).indexOf(what as string, from);
  let n = 0;
  for (let i = find(0); i !== -1; i = find(i + what.length)) n++;
  return n;
}
