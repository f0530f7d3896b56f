// Characters that change how text is drawn without being seen: bidirectional embeddings, overrides and
// isolates ("Trojan Source", CVE-2021-42574), direction marks, zero-width characters, and control
// characters a browser does not draw. Where the user reads what will run (an approval, a call's
// arguments) they are shown as `<U+202E>`, so the text on screen is the text that runs.

/**
 * Not a tab, a newline, a carriage return before a newline, nor the variation selectors of emoji
 * (U+FE0E/F); the tag characters (U+E0000...) can carry invisible text.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const HIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0D\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]|\r(?!\n)/gu;

export interface Revealed {
  text: string;
  /** How many characters were made visible. */
  hidden: number;
}

export function revealInvisible(text: string): Revealed {
  let hidden = 0;
  const out = text.replace(HIDDEN, (c) => {
    hidden++;
    return `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;
  });
  return { text: out, hidden };
}
