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
