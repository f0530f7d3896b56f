// YAML blocks, which a regex cannot follow in linear time (a lookbehind over a block's lines is
// quadratic): the lines nested under a key, found line by line. A Kubernetes Secret's `data:` is one;
// a block scalar under a key named for a secret (`password: |`, `client_secret: >-`) is another.
import { isPlaceholder, type SecretRule } from './types';

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
    // An empty block at the text's end is one still to come (see `secretBlockStart`).
    regions.push([start, pos]);
    key.lastIndex = Math.max(key.lastIndex, pos);
  }
  key.lastIndex = 0;
  return regions;
}

/**
 * A key named for a secret whose value is a block scalar (`password: |`, `client_secret: >-`,
 * `apiKey: !!binary |`): the value is the block's lines.
 */
export const SECRET_BLOCK_KEY =
  /^( *)(-[ \t]+)?["']?[\w.-]*?(?:password|passwd|passphrase|secret|token|credentials?|api[_-]?key|(?:private|secret|ssh|signing|access|encryption|master|client)[_-]?key)["']?[ \t]*:[ \t]*(?:!!(?:str|binary)[ \t]+)?[|>][-+1-9]{0,2}[ \t]*(?:#[^\n]*)?\r?$/gim;

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
];
