// A Markdown code block that shows any text verbatim: its fence is longer than every run of backticks
// inside. (The longest run is found in a loop: Math.max(...runs) overflows the stack past about 120,000
// runs, which one long Markdown document holds.)

/** `text` in a fenced block tagged `text`. */
export function fenced(text: string): string {
  let longest = 2;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}

/**
 * `text` as one inline code span on one line (a heading's tool name, a call id): line breaks become
 * spaces, and the span's backticks outnumber every run inside, so no link or HTML in it is active.
 */
export function inlineCode(text: string): string {
  const line = text.replace(/[\r\n\u2028\u2029]+/g, ' ');
  let longest = 0;
  for (const run of line.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const ticks = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${line}${pad}${ticks}`;
}
