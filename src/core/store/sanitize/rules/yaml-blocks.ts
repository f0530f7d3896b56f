// YAML blocks, which a regex cannot follow in linear time (a lookbehind over a block's lines is
// quadratic): the lines nested under a key, found line by line. A Kubernetes Secret's `data:` is one;
// a block scalar under a key named for a secret (`password: |`, `client_secret: >-`) is another, and
// so is a plain scalar on the lines after its key (`password:` / `  hunter2`).
import { ENV_KEY, KEY, lineValue } from './config-lines';
import { isPlaceholder, SECRET_NAME_KEYWORDS, type SecretRule } from './types';

export type Regions = Array<[number, number]>;

/**
 * The lines nested under each key line that `key` (global, multiline) matches, its groups 1 and 2 being
 * the key's indentation and a list item's `- `: from the line after the key to the first line indented
 * no deeper than it.
 */
export function yamlBlocks(text: string, key: RegExp): Regions {
  const regions: Regions = [];
  key.lastIndex = 0;
  for (let m = key.exec(text); m !== null; m = key.exec(text)) {
    const column = m[1]!.length + (m[2]?.length ?? 0);
    const start = text.indexOf('\n', m.index) + 1;
    if (start === 0) break;
    let pos = start;
    while (pos < text.length) {
      const nl = text.indexOf('\n', pos);
      const end = nl === -1 ? text.length : nl + 1;
      let indent = 0;
      while (text.charCodeAt(pos + indent) === 32) indent++;
      // Blank lines and comments do not end a block, whatever their indentation.
      const rest = text.slice(pos + indent, end).trim();
      if (rest !== '' && !rest.startsWith('#') && indent <= column) break;
      pos = end;
    }
    // A key right after the backtick that opens a template literal: the block ends with the literal.
    const keyAt = m.indices?.[1]?.[0] ?? m.index;
    if (keyAt > m.index && text[keyAt - 1] === '\x60') {
      const tick = text.indexOf('\x60', start);
      if (tick !== -1 && tick < pos) pos = tick;
    }
    // An empty block at the text's end is one still to come (see `secretBlockStart`).
    regions.push([start, pos]);
    key.lastIndex = Math.max(key.lastIndex, pos);
  }
  key.lastIndex = 0;
  return regions;
}

/**
 * A key named for a secret whose value is a block scalar (`password: |`, `client_secret: >-`,
 * `apiKey: !!binary |`): the value is the block's lines. The key may open a template literal
 * (``const cfg = `password: |``), whose lines the block then is, up to its closing backtick.
 */
export const SECRET_BLOCK_KEY =
  /^(?:[^\n\x60]*\x60)?( *)(-[ \t]+)?["']?[\w.-]*?(?:password|passwd|passphrase|secret|token|credentials?|api[_-]?key|(?:private|secret|ssh|signing|access|encryption|master|client)[_-]?key)["']?[ \t]*:[ \t]*(?:!!(?:str|binary)[ \t]+)?[|>][-+1-9]{0,2}[ \t]*(?:#[^\n]*)?\r?$/dgim;

/** A key named for a secret alone on its line (`password:`, `- apiKey:  # comment`): its value comes next. */
const SECRET_PLAIN_KEY = new RegExp(
  String.raw`^( *)(-[ \t]+)?(["']?)(?:${ENV_KEY}|${KEY})\3[ \t]*:[ \t]*(?:#[^\n]*)?\r?$`,
  'gm',
);

/**
 * A line that makes the nested lines a structure, not a scalar: a mapping's entry (`min_length: 8`,
 * `$ref: …`), a list's item, a flow collection, an anchor, alias, tag or block indicator; or code
 * (`options.apiKey ?? 'x',`, `cond ? a : b,`), which an object literal laid out by a formatter shows.
 */
const NOT_A_SCALAR_LINE = /^[ \t]*(?:[-?](?:[ \t]|$)|[[{&*!|>%@`]|[^\n]*?(?::[ \t]|:\r?$|[,;({[]\r?$|\?\?|\|\||&&|=>))/;

/**
 * Words of prose (`user login password`, `The account's password, hashed.`): a docstring's description
 * under `password:` (Google-style Args, an OpenAPI field's text), not a value. Prose names what it
 * describes or ends as a sentence; a diceware passphrase (`correct horse battery staple`) does neither
 * and is still redacted.
 */
// \u2019: the typographic apostrophe, escaped to keep the bundles ASCII (esbuild.mjs).
const WORDS_LINE = /^[A-Za-z][a-z'\u2019-]*[,;:]?(?:[ \t]+[a-z][a-z'\u2019-]*[,;:]?)+[.!?]?$/;
const DESCRIBES =
  /(?:^|[ \t])(?:passwords?|passphrases?|tokens?|secrets?|keys?|credentials?|strings?|hash(?:ed)?|values?)[,;:.!?]?(?:[ \t]|$)|[.!?]$/i;
const isProseLine = (v: string): boolean => WORDS_LINE.test(v) && DESCRIBES.test(v);

/**
 * The lines after each key named for a secret whose value is a plain (or quoted) scalar on them: every
 * nested line is one. A nested map (`password:` / `  min_length: 8`) or list is no value.
 */
function plainScalarBlocks(text: string): Regions {
  return yamlBlocks(text, SECRET_PLAIN_KEY).filter(([start, end]) => {
    const lines = text.slice(start, end).split('\n');
    const content = lines.filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
    return content.length > 0 && content.every((l) => !NOT_A_SCALAR_LINE.test(l));
  });
}

export const YAML_BLOCK_RULES: readonly SecretRule[] = [
  {
    id: 'code-secret',
    title: 'Block scalars under secret-named YAML keys (password: |, client_secret: >-: every line of the block)',
    keywords: ['password', 'passwd', 'passphrase', 'secret', 'token', 'credential', 'key'],
    multiline: true,
    within: (text) => yamlBlocks(text, SECRET_BLOCK_KEY),
    pattern: /^[ \t]*(?<secret>\S(?:[^\n]*\S)?)/gm,
    accept: (v) => !isPlaceholder(v),
  },
  {
    id: 'code-secret',
    title: 'Plain scalars on the lines after a secret-named YAML key (password: / hunter2)',
    keywords: SECRET_NAME_KEYWORDS,
    multiline: true,
    within: plainScalarBlocks,
    // The line to its end, a comment aside (a `#` after a blank starts one).
    pattern: /^[ \t]*(?<secret>[^\s#](?:(?:[ \t]+(?![#\s]))?\S)*)/gm,
    accept: (v) => lineValue(v) && !isProseLine(v),
  },
];
