// Trailing runs cut with a loop. A regex such as /[,;]+$/ is tried from every position of a run that
// does not reach the end, so it is quadratic in the run: `password=a` then 100 KB of commas and a letter
// took 19 s in the redaction of one line.

/** `s` without the characters of `chars` at its end. */
export function trimTrailing(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1]!)) end--;
  return end === s.length ? s : s.slice(0, end);
}
