// Look-alike letters in a command the agent asks to run: `nрm test` with a Cyrillic р runs another
// program than the `npm test` the approval seems to show, and `curl https://gіthub.com/…` (Cyrillic і)
// fetches from another host. A word that mixes scripts (Latin with Cyrillic or Greek, …) and a program
// name that is not plain ASCII are named in the approval's title. A word written in one script
// (`git commit -m "исправлен тест"`) is ordinary text and is not.
import { programIndex, simpleCommands } from './shell-words';

/**
 * Scripts a letter is named by, tried in order (JS regex script properties, so the Unicode tables are
 * the engine's). A letter of none of them counts as "another script".
 */
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Cherokee',
  'Coptic',
  'Georgian',
  'Lisu',
  'Vai',
  'Tifinagh',
  'Canadian_Aboriginal',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Mongolian',
  'Ethiopic',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Bopomofo',
].map((name) => ({ name: name.replace('_', ' '), test: new RegExp(`^\\p{Script=${name}}$`, 'u') }));

/** Scripts written together in one word (Unicode TS #39's "highly restrictive" sets): not a disguise. */
const TOGETHER = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** Letters of no one script (the Japanese long-vowel mark ー, modifier letters) mix with any. */
const SHARED = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

function scriptOf(letter: string): string {
  return SCRIPTS.find((s) => s.test.test(letter))?.name ?? 'another script';
}

const codePoint = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** What is odd about one word, or undefined when it is written in one script (or a usual mix). */
function mixedScripts(word: string): string | undefined {
  const letters = [...word].filter((c) => /\p{L}/u.test(c) && !SHARED.test(c));
  const byScript = new Map<string, string[]>();
  for (const c of letters) byScript.set(scriptOf(c), [...(byScript.get(scriptOf(c)) ?? []), c]);
  const scripts = [...byScript.keys()];
  if (scripts.length < 2 || TOGETHER.some((set) => scripts.every((s) => set.has(s)))) return undefined;
  // The letters that stand out: those not of the script the word poses as (Latin, when it has any; else
  // the one most of the word is in).
  const main = byScript.has('Latin')
    ? 'Latin'
    : scripts.reduce((a, b) => (byScript.get(b)!.length > byScript.get(a)!.length ? b : a));
  const odd = scripts
    .filter((s) => s !== main)
    .flatMap((s) => [...new Set(byScript.get(s))].map((c) => `${c} ${codePoint(c)} is ${s}`));
  const order = [main, ...scripts.filter((s) => s !== main)];
  const named = `${order.slice(0, -1).join(', ')} and ${order[order.length - 1]!}`;
  return `${word} mixes ${named} letters (${odd.slice(0, 3).join(', ')})`;
}

/**
 * The program words of a command line: the first word of each of its simple commands (shell-words.ts:
 * after `;`, `&&`, `|`, `(`, `$(`, a backtick or a newline, and in the code of `bash -c`), past
 * variable assignments and words like `sudo`. A word's quotes stay in it.
 */
export function programWords(command: string): string[] {
  return simpleCommands(command).flatMap((c) => {
    const word = c.words[programIndex(c.words)];
    return word === undefined ? [] : [word.raw];
  });
}

/** A program word that is not plain ASCII: what it holds that is not, or undefined. */
function unusualProgram(word: string): string | undefined {
  const name = word.replace(/["']/g, '').split('/').pop() ?? '';
  const odd = [...new Set([...name].filter((c) => c > '\u007f'))];
  if (odd.length === 0) return undefined;
  const shown = odd.slice(0, 3).map((c) => `${c} ${codePoint(c)}${/\p{L}/u.test(c) ? ` is ${scriptOf(c)}` : ''}`);
  return `the program name ${name} is not plain ASCII (${shown.join(', ')})`;
}

/**
 * Letters of a word drawn like plain ASCII ones though they are other characters: fullwidth `ｃ`,
 * mathematical `𝐜`, the `ﬁ` ligature (their compatibility form, NFKC, is ASCII). A word of them alone
 * counts too: `ｃｏｎｆｉｇ` is not `config`.
 */
function asciiLookAlikes(word: string): string | undefined {
  const odd = [
    ...new Set([...word].filter((c) => c > '\u007f' && /\p{L}/u.test(c) && /^[A-Za-z]+$/.test(c.normalize('NFKC')))),
  ];
  if (odd.length === 0) return undefined;
  const shown = odd.slice(0, 3).map((c) => `${c} ${codePoint(c)} is read as ${c.normalize('NFKC')}`);
  return `${word} has letters drawn like plain ones (${shown.join(', ')})`;
}

/** Letters of the scripts Chinese, Japanese and Korean are written in. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u;

/**
 * A word of fullwidth letters only (`ＡＢＣ`, no plain ASCII letter with them) on a line with CJK
 * letters: how such text is typed (`資料ＡＢＣ.txt`, `ＡＢＣ株式会社`), not a disguise. A word mixing them
 * with ASCII letters (`ｃonfig`) or with mathematical ones is still one.
 */
function fullwidthInCjk(word: string, line: () => string): boolean {
  const letters = [...word].filter((c) => /\p{L}/u.test(c) && !CJK.test(c));
  return letters.length > 0 && letters.every((c) => c >= '\uff21' && c <= '\uff5a') && CJK.test(line());
}

/** The line of `text` around `index`. */
function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? undefined : end);
}

const WORDS = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Look-alike words in `text`, each said once, leaving out the words of the program names `known` already
 * names. Linear in the text (sets, and a word's line read only for fullwidth letters): the text may be a
 * hostile model's 400 KB command line.
 */
function oddWords(text: string, known: { reasons: string[]; words: string[] } = { reasons: [], words: [] }): string[] {
  const found = [...known.reasons];
  const seen = new Set<string>();
  for (const w of known.words) for (const { 0: part } of w.matchAll(WORDS)) seen.add(part);
  for (const { 0: word, index } of text.matchAll(WORDS)) {
    if (seen.has(word)) continue;
    seen.add(word);
    const why =
      mixedScripts(word) ?? (fullwidthInCjk(word, () => lineAt(text, index)) ? undefined : asciiLookAlikes(word));
    if (why !== undefined) found.push(why);
  }
  return found;
}

/** At most three reasons, for a title, with how many more there were. */
function warning(found: string[]): string | undefined {
  if (found.length === 0) return undefined;
  const more = found.length > 3 ? `, and ${found.length - 3} more` : '';
  return `${found.slice(0, 3).join('; ')}${more}; it may not be what it looks like`;
}

/**
 * Why a command may not be what it looks like, for its approval's title: mixed-script words and program
 * names with letters outside ASCII, at most three named; undefined when it has none.
 */
export function lookAlikeWarning(command: string): string | undefined {
  const reasons: string[] = [];
  const words: string[] = [];
  for (const word of programWords(command)) {
    const why = unusualProgram(word);
    if (why === undefined) continue;
    reasons.push(why);
    words.push(word);
  }
  return warning(oddWords(command, { reasons, words }));
}

/**
 * The same for text that names no program (an edited file's path, an MCP call's tool and arguments):
 * `src/cоnfig.ts` with a Cyrillic о is another file than the `src/config.ts` it reads as.
 */
export function lookAlikeText(text: string): string | undefined {
  return warning(oddWords(text));
}
