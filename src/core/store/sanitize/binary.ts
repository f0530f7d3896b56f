// Binary output is not text: it is stored as a one-line note instead of as mojibake.

/** Bytes looked at before deciding whether a stream is binary. */
export const BINARY_SNIFF_BYTES = 8192;

const ESC = 0x1b;
const BEL = 0x07;

/** Control bytes that text and terminals use: BEL, BS, TAB, LF, VT, FF, CR, SO, SI. */
function isTextControl(b: number): boolean {
  return b === BEL || (b >= 8 && b <= 15);
}

/**
 * Index just past the escape sequence starting at `i` (an ESC byte). Terminal output is full of them
 * (colours, titles, VS Code's own `ESC ] 633 ; C BEL` shell-integration marks), and their bytes say
 * nothing about whether the payload is text.
 */
function skipEscape(bytes: Uint8Array, i: number, n: number): number {
  const kind = bytes[i + 1];
  if (kind === 0x5b /* [ CSI */) {
    let j = i + 2;
    while (j < n && !(bytes[j]! >= 0x40 && bytes[j]! <= 0x7e)) j++;
    return j + 1;
  }
  if (kind === 0x5d /* ] OSC */ || kind === 0x50 /* P DCS */) {
    // Ends at BEL or ST (ESC \).
    let j = i + 2;
    while (j < n && bytes[j] !== BEL && !(bytes[j] === ESC && bytes[j + 1] === 0x5c)) j++;
    return bytes[j] === BEL ? j + 1 : j + 2;
  }
  return i + 2;
}

/**
 * True when the bytes look like binary data: any NUL byte, or more than 10% control bytes other than
 * the ones text and terminals use. Escape sequences are skipped, so a short terminal chunk that is
 * mostly sequences is not mistaken for binary.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  let counted = 0;
  let control = 0;
  for (let i = 0; i < n;) {
    const b = bytes[i]!;
    if (b === 0) return true;
    if (b === ESC) {
      i = skipEscape(bytes, i, n);
      continue;
    }
    counted++;
    if ((b < 32 && !isTextControl(b)) || b === 127) control++;
    i++;
  }
  return counted > 0 && control / counted > 0.1;
}

/** The note stored instead of binary output. */
export function binaryNote(bytes: number): string {
  return `[binary output: ${bytes} bytes, not stored]`;
}
