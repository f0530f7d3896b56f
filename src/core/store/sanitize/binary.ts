// Binary output is not text: it is stored as a one-line note instead of as mojibake.

/** Bytes looked at before deciding whether a stream is binary. */
export const BINARY_SNIFF_BYTES = 8192;

/**
 * True when the bytes look like binary data: any NUL byte, or more than 10% control bytes other than
 * the ones text uses (tab, newline, carriage return, form feed, backspace, escape for ANSI colours).
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  if (n === 0) return false;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0) return true;
    if ((b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 8 && b !== 27) || b === 127) control++;
  }
  return control / n > 0.1;
}

/** The note stored instead of binary output. */
export function binaryNote(bytes: number): string {
  return `[binary output: ${bytes} bytes, not stored]`;
}
