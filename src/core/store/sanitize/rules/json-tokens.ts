// The two steps the Terraform scanners (whole and streamed) share when they read JSON that may sit in prose: where a quoted
// string ends on its line, and whether it is a key (a colon follows).

const blank = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * Where the string opening at `i` stops: at its closing quote, or (prose, `text[stop]` is no quote) at
 * the end of its line or of the text.
 */
export function stringStop(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text[j] !== '"' && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
  return j;
}

/** Whether the string closed at `j` is an object's key: a colon follows, past blanks. */
export function isKeyAt(text: string, j: number): boolean {
  let k = j + 1;
  while (k < text.length && blank(text[k]!)) k++;
  return text[k] === ':';
}
