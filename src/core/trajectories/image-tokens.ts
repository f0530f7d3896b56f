// Image tokens as Anthropic bills them, read from the image's own header: width × height / 750, the
// formula Anthropic documents. Images it scales down first (long edge over 1,568 px, or over 1.15
// megapixels) are resized by rules replay does not reproduce, so they stay uncounted (said, and the
// totals become lower bounds), as does any image whose size the header does not give.
import { Buffer } from 'node:buffer';

/** Enough of the file for the size: PNG, GIF and WebP say it in their first bytes, JPEG after its metadata. */
const HEADER_CHARS = 256 * 1024;
const MAX_LONG_EDGE = 1568;
const MAX_PIXELS = 1_150_000;

export interface ImageSize {
  width: number;
  height: number;
}

/** Width and height from a PNG, GIF, JPEG or WebP header; undefined for anything else or a cut header. */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const valid = (s: ImageSize | undefined) => (s && s.width > 0 && s.height > 0 ? s : undefined);
  try {
    if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('latin1', 12, 16) === 'IHDR')
      return valid({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });
    if (b.length >= 10 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6)))
      return valid({ width: b.readUInt16LE(6), height: b.readUInt16LE(8) });
    if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return valid(jpegSize(b));
    if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP')
      return valid(webpSize(b));
  } catch (e) {
    if (!(e instanceof RangeError)) throw e; // a header cut short: the size is unknown
  }
  return undefined;
}

function jpegSize(b: Buffer): ImageSize | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    // Start of frame (baseline, progressive, ...): not DHT (C4), JPG (C8) or DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + b.readUInt16BE(i + 2);
  }
  return undefined;
}

function webpSize(b: Buffer): ImageSize | undefined {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L')
    return {
      width: 1 + (((b[22]! & 0x3f) << 8) | b[21]!),
      height: 1 + (((b[24]! & 0x0f) << 10) | (b[23]! << 2) | ((b[22]! & 0xc0) >> 6)),
    };
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  return undefined;
}

/** Tokens Anthropic bills for a base64 image, or undefined when its size is unknown or it would be resized. */
export function anthropicImageTokens(base64: string): number | undefined {
  const head = base64.slice(0, HEADER_CHARS - (HEADER_CHARS % 4));
  const size = imageSize(Buffer.from(head, 'base64'));
  if (!size) return undefined;
  if (Math.max(size.width, size.height) > MAX_LONG_EDGE || size.width * size.height > MAX_PIXELS) return undefined;
  return Math.ceil((size.width * size.height) / 750);
}
