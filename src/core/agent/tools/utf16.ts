// UTF-16 text files (marked by a byte order mark), as Windows tools write them: Windows PowerShell's `>`
// and Out-File, regedit exports, some .NET and Visual Studio files. Their NUL bytes made read_file and
// tail call them binary, while grep (ripgrep reads the mark) searched them as text.

import { decodeLegacy, LEGACY_ENCODING } from '../../legacy-encoding';

export type Utf16 = 'utf-16le' | 'utf-16be';

/** Bytes of the byte order mark. */
export const BOM_BYTES = 2;

/** The UTF-16 byte order a file's first bytes announce, or undefined. */
export function utf16Order(head: Buffer): Utf16 | undefined {
  if (head.length < BOM_BYTES) return undefined;
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * The chunks of a UTF-16 file (its mark first) or of a Windows-1252 one as UTF-8, for readers that split
 * lines at byte 10.
 */
export async function* decodedAsUtf8(chunks: AsyncIterable<Buffer>, encoding: string): AsyncGenerator<Buffer> {
  if (encoding === LEGACY_ENCODING) {
    // One byte, one character: nothing is cut between chunks.
    for await (const chunk of chunks) yield Buffer.from(decodeLegacy(chunk), 'utf8');
    return;
  }
  // Drops the mark; keeps a code unit or surrogate pair cut between chunks for the next one.
  const decoder = new TextDecoder(encoding);
  for await (const chunk of chunks) yield Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8');
  const rest = decoder.decode();
  if (rest !== '') yield Buffer.from(rest, 'utf8');
}

/** Whether the code unit at `i` of `b` is a newline. */
export function isNewlineUnit(b: Buffer, i: number, order: Utf16): boolean {
  return order === 'utf-16le' ? b[i] === 10 && b[i + 1] === 0 : b[i] === 0 && b[i + 1] === 10;
}

/** Text of whole code units (an odd last byte, from a file cut meanwhile, is dropped). */
export function decodeUtf16(b: Buffer, order: Utf16): string {
  return new TextDecoder(order, { ignoreBOM: true }).decode(b.subarray(0, b.length - (b.length % 2)));
}
