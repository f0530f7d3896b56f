// Text files that are not UTF-8: a Latin-1 / Windows-1252 file (an old config, a CSV from Excel, a
// source file from a Windows editor) decoded as UTF-8 turns every accented letter into U+FFFD, and a
// model reading that may write the damage back. Such bytes are decoded as Windows-1252 instead (a
// superset of Latin-1's printable characters; every byte is one character), and the reader says so.
import { isAscii, isUtf8 } from 'node:buffer';

/** The single-byte encoding a file that is not UTF-8 is read as. */
export const LEGACY_ENCODING = 'windows-1252';

/**
 * What a look at a stream of bytes found: whether some are not UTF-8, and whether some are valid
 * multi-byte UTF-8 (then the text is UTF-8 with some damage, not Windows-1252).
 */
export class Utf8Census {
  invalid = false;
  multibyte = false;
  // The start of a character cut at the end of the last push, put before the next.
  private carry: Buffer = Buffer.alloc(0);

  /** Adds the next bytes of the stream. */
  push(bytes: Buffer): this {
    if (this.invalid && this.multibyte) return this;
    const all = this.carry.length > 0 ? Buffer.concat([this.carry, bytes]) : bytes;
    const cut = all.length - unfinishedTail(all);
    this.carry = Buffer.from(all.subarray(cut));
    this.look(all.subarray(0, cut));
    return this;
  }

  /** Adds the last bytes of the stream: a character still unfinished then is not UTF-8. */
  end(bytes?: Buffer): this {
    if (bytes) this.push(bytes);
    if (this.carry.length > 0) this.invalid = true;
    this.carry = Buffer.alloc(0);
    return this;
  }

  /** The text reads better as Windows-1252: bytes that are not UTF-8, and no UTF-8 character. */
  get legacy(): boolean {
    return this.invalid && !this.multibyte;
  }

  private look(whole: Buffer): void {
    if (isUtf8(whole)) {
      if (!this.multibyte && !isAscii(whole)) this.multibyte = true;
      return;
    }
    this.invalid = true;
    if (!this.multibyte) this.multibyte = DECODED_MULTIBYTE.test(whole.toString('utf8'));
  }
}

// Non-ASCII characters other than U+FFFD: what a valid multi-byte sequence decodes to.
const DECODED_MULTIBYTE = /[^\x00-\x7f\ufffd]/;

/** Bytes at the end of `b` that start a UTF-8 sequence not finished in `b` (0 to 3). */
function unfinishedTail(b: Buffer): number {
  for (let back = 1; back <= Math.min(3, b.length); back++) {
    const byte = b[b.length - back]!;
    if (byte < 0x80) return 0;
    if (byte >= 0xc0) {
      const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return needs > back ? back : 0;
    }
  }
  return 0;
}

// Windows-1252's characters for bytes 0x80-0x9F, where it differs from Latin-1 (WHATWG's table; the five
// bytes it leaves undefined keep their C1 code point). Node 20's TextDecoder('windows-1252') decodes
// these bytes as Latin-1's C1 controls: ’ became U+0092.
const HIGH = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ';

/** Bytes as Windows-1252 text (one character per byte). */
export function decodeLegacy(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/[\x80-\x9f]/g, (c) => HIGH[c.charCodeAt(0) - 0x80]!);
}

/**
 * A line's bytes as text: UTF-8, or Windows-1252 when they are not UTF-8 and hold no UTF-8 character.
 * `cut`: the bytes end inside the line (a character may be cut there).
 */
export function decodeLine(bytes: Buffer, cut = false): { text: string; legacy: boolean } {
  const census = new Utf8Census().push(bytes);
  const legacy = (cut ? census : census.end()).legacy;
  return { text: legacy ? decodeLegacy(bytes) : bytes.toString('utf8'), legacy };
}
