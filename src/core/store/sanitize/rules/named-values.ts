// Secrets whose name sits beside them rather than before an `=`: a name/value pair (a Kubernetes or ECS
// container's env list, Postman variables, SSM and CloudFormation parameters, Vercel env records), a
// secret-named key whose value is an object holding `value` (Terraform outputs, ARM parameters), a
// Terraform variable's `default`, and a HAR file's session cookies (headers and cookie lists).
import { tokenCookie, tokenLike } from './context';
import { isPlaceholder, literalValue, SECRET_NAME_END, SECRET_NAME_KEYWORDS, unquote, type SecretRule } from './types';

/** A key named for what it does with secrets: its value is one (`secret_key`, `encryption_key`). */
const KEY_NAME_END = String.raw`(?:secret[_-]?key(?:[_-]?base)?|(?:signing|encryption|master|ssh|client)[_-]?key)`;

/**
 * A name that ends in a secret word, paths and dotted names included (`/prod/db/password`, `DB_PASS`),
 * or in a key's name that says secret (`STRIPE_SECRET_KEY`, `SECRET_KEY_BASE`, `JWT_SIGNING_KEY`).
 */
export const SECRET_KEY_NAME = String.raw`(?:[\w.:/-]*?(?:${SECRET_NAME_END}|${KEY_NAME_END})|[\w.:/-]*[_.-](?:pass|pwd))`;

/** A JSON string, as written (escapes kept). */
const STR = String.raw`"(?:[^"\\\n]|\\.)*"`;

/** A JSON scalar, or a list of them (`"target": ["production", "preview"]`). */
const SCALAR = String.raw`(?:${STR}|true|false|null|-?\d[\d.eE+-]*)`;
const FIELD_VALUE = String.raw`(?:${SCALAR}|\[\s*(?:${SCALAR}\s*(?:,\s*${SCALAR}\s*){0,8})?\])`;

/**
 * Up to eight other fields of the same object, between the name and the value (an API's record: ids,
 * times, `"type": "encrypted"`, `"target": [...]`).
 */
const OTHER_FIELDS = String.raw`(?:\s*,\s*"[\w-]+"\s*:\s*${FIELD_VALUE})${'{0,8}'}`;

/** The field that names the pair, and the one that holds its value. */
const NAME_FIELD = String.raw`"(?:name|key|parameterKey|parameterName|variable)"\s*:\s*"${SECRET_KEY_NAME}"`;
const VALUE_FIELD = String.raw`"(?:value|parameterValue)"\s*:\s*"(?<secret>(?:[^"\\\n]|\\.)+)"`;

/**
 * A YAML scalar to its line's end (a comment aside). An unquoted one is greedy and ends on a character:
 * a lazy one was quadratic on a padded line.
 */
const YAML_VALUE = String.raw`"(?:[^"\\\n]|\\.)+"|'[^'\n]+'|[^\s#'"|>](?:(?:[ \t]+(?![#\s]))?\S)*(?=[ \t]*(?:\r?\n|$|[ \t]#))`;

/** A `"key"` naming a secret and, among the fields after it, its `"values"` list (Netlify). */
const NETLIFY_KEY = new RegExp(
  String.raw`"key"\s*:\s*"${SECRET_KEY_NAME}"${OTHER_FIELDS}\s*,\s*"values"\s*:\s*\[`,
  'gi',
);

/** The inside of each `"values": [...]` list after a key naming a secret: up to its `]` outside strings. */
function netlifyValueLists(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  NETLIFY_KEY.lastIndex = 0;
  for (let m = NETLIFY_KEY.exec(text); m !== null; m = NETLIFY_KEY.exec(text)) {
    const start = m.index + m[0].length;
    let end = start;
    for (let inString = false; end < text.length; end++) {
      const c = text[end];
      if (inString) {
        if (c === '\\') end++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === ']') break;
    }
    out.push([start, end]);
    NETLIFY_KEY.lastIndex = end;
  }
  return out;
}

/**
 * A Doppler secret as its CLI and API print one (`doppler secrets --json`, `--raw`): an object with its
 * `"raw"` and `"computed"` value (and their visibility, a note) under the secret's name, whatever that
 * name is: everything Doppler keeps is a secret.
 */
const DOPPLER_FIELD = String.raw`"(?:raw|computed)(?:Visibility|ValueType)?"\s*:\s*${FIELD_VALUE}`;
const DOPPLER_OBJECT = new RegExp(
  String.raw`\{\s*(?:"[\w-]+"\s*:\s*${FIELD_VALUE}\s*,\s*){0,4}?${DOPPLER_FIELD}(?:\s*,\s*"[\w-]+"\s*:\s*${FIELD_VALUE}){0,4}?\s*,\s*${DOPPLER_FIELD}(?:\s*,\s*"[\w-]+"\s*:\s*${FIELD_VALUE}){0,6}\s*\}`,
  'g',
);

/** Each such object, from its `{` to its `}`. */
function dopplerObjects(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  DOPPLER_OBJECT.lastIndex = 0;
  for (let m = DOPPLER_OBJECT.exec(text); m !== null; m = DOPPLER_OBJECT.exec(text))
    out.push([m.index, m.index + m[0].length]);
  return out;
}

/** The value itself, not a reference, a stand-in, a path to a file holding it or a sentence. */
export function pairValue(v: string): boolean {
  const s = unquote(v).trim();
  return (
    s.length >= 4 &&
    !isPlaceholder(s) &&
    !/^\$\(/.test(s) &&
    !/^(?:~?\/|\.{1,2}\/|[A-Za-z]:\\)\S*[/\\]/.test(s) &&
    literalValue(s, true)
  );
}

export const NAMED_VALUE_RULES: readonly SecretRule[] = [
  {
    id: 'named-secret',
    title: 'JSON name/value pairs naming a secret ({"name": "DB_PASSWORD", "value": "…"}: ECS, Postman, SSM, HAR)',
    keywords: SECRET_NAME_KEYWORDS,
    multiline: true,
    pattern: new RegExp(String.raw`${NAME_FIELD}${OTHER_FIELDS}\s*,\s*${VALUE_FIELD}`, 'gi'),
    accept: pairValue,
  },
  {
    id: 'named-secret',
    title: 'The same with the value first ({"value": "…", "name": "api_token"})',
    keywords: SECRET_NAME_KEYWORDS,
    multiline: true,
    pattern: new RegExp(String.raw`${VALUE_FIELD}${OTHER_FIELDS}\s*,\s*${NAME_FIELD}`, 'gi'),
    accept: pairValue,
  },
  {
    id: 'named-secret',
    // `const`: a JSON Schema's fixed value (an MCP tool's input schema, written to the MCP folder).
    title: 'A secret-named key whose object holds its value ("db_password": {"sensitive": true, "value": "…"})',
    keywords: SECRET_NAME_KEYWORDS,
    multiline: true,
    pattern: new RegExp(
      String.raw`"${SECRET_KEY_NAME}"\s*:\s*\{(?:\s*"[\w-]+"\s*:\s*${FIELD_VALUE}\s*,){0,4}\s*"(?:value|default|defaultValue|const)"\s*:\s*"(?<secret>(?:[^"\\\n]|\\.)+)"`,
      'gi',
    ),
    accept: pairValue,
  },
  {
    // A container's env list: `- name: DB_PASSWORD` and, a few lines on in the same item, `value: …`. An
    // unquoted value is greedy and ends on a character: a lazy one was quadratic on a padded line.
    id: 'named-secret',
    title: 'YAML env lists naming a secret (- name: DB_PASSWORD / value: …: Kubernetes, Compose, CI)',
    keywords: SECRET_NAME_KEYWORDS,
    multiline: true,
    pattern: new RegExp(
      String.raw`(?:^|[ \t])-[ \t]+name:[ \t]*(?<q>["']?)${SECRET_KEY_NAME}\k<q>[ \t]*\r?\n(?:[ \t]+[\w-]+:[^\n]*\r?\n){0,3}?[ \t]+value:[ \t]*(?<secret>${YAML_VALUE})`,
      'gim',
    ),
    accept: pairValue,
  },
  {
    // … and with `value:` first (`- value: …` / `name: DB_PASSWORD`), as some generators write them.
    id: 'named-secret',
    title: 'YAML env lists naming a secret, value first (- value: … / name: DB_PASSWORD)',
    keywords: SECRET_NAME_KEYWORDS,
    multiline: true,
    pattern: new RegExp(
      String.raw`(?:^|[ \t])-[ \t]+value:[ \t]*(?<secret>${YAML_VALUE})[ \t]*(?:[ \t]#[^\n]*)?\r?\n(?:[ \t]+[\w-]+:[^\n]*\r?\n){0,3}?[ \t]+name:[ \t]*(?<q>["']?)${SECRET_KEY_NAME}\k<q>(?![\w.:/-])`,
      'gim',
    ),
    accept: pairValue,
  },
  {
    // The same list written in YAML's flow style: `- {name: DB_PASSWORD, value: hunter2}`.
    id: 'named-secret',
    title: 'YAML flow mappings naming a secret ({name: DB_PASSWORD, value: …})',
    keywords: SECRET_NAME_KEYWORDS,
    pattern: new RegExp(
      String.raw`\{[ \t]*name:[ \t]*(?<q>["']?)${SECRET_KEY_NAME}\k<q>[ \t]*,[ \t]*value:[ \t]*(?<secret>"(?:[^"\\\n]|\\.)+"|'[^'\n]+'|[^\s,{}\[\]"'](?:[^,{}\n]*[^\s,{}])?)[ \t]*\}`,
      'gi',
    ),
    accept: pairValue,
  },
  {
    // Netlify's env API keeps a variable's values per deploy context, in a list after its key.
    id: 'named-secret',
    title:
      'Netlify env variables naming a secret: every value of their list ({"key": "API_KEY", "values": [{"value": "…"}]})',
    keywords: SECRET_NAME_KEYWORDS,
    multiline: true,
    within: netlifyValueLists,
    pattern: new RegExp(VALUE_FIELD, 'gi'),
    accept: pairValue,
  },
  {
    id: 'named-secret',
    title: 'Doppler secrets as its CLI prints them ({"DB_URL": {"raw": "…", "computed": "…"}}), whatever their name',
    keywords: ['"raw"', '"computed"'],
    multiline: true,
    within: dopplerObjects,
    pattern: /"(?:raw|computed)"\s*:\s*"(?<secret>(?:[^"\\\n]|\\.)+)"/g,
    accept: (v) => !isPlaceholder(unquote(v)),
  },
  {
    id: 'named-secret',
    title: 'Terraform variables naming a secret: their default (variable "db_password" { default = "…" })',
    keywords: SECRET_NAME_KEYWORDS,
    multiline: true,
    pattern: new RegExp(
      String.raw`\bvariable\s+"${SECRET_KEY_NAME}"\s*\{(?:[^{}"]|${STR})*?\bdefault\s*=\s*"(?<secret>(?:[^"\\\n]|\\.)+)"`,
      'gi',
    ),
    accept: pairValue,
  },
  {
    // A HAR file (the browser's network export) lists headers as name/value pairs.
    id: 'cookie',
    title: 'Session cookies in HAR headers ({"name": "Cookie", "value": "…"}, Set-Cookie)',
    keywords: ['cookie'],
    multiline: true,
    pattern: new RegExp(
      String.raw`"name"\s*:\s*"(?:set-)?cookie"${OTHER_FIELDS}\s*,\s*"value"\s*:\s*"(?<secret>(?:[^"\\\n]|\\.)+)"`,
      'gi',
    ),
    accept: (v) => v.split(';').some(tokenCookie),
  },
  {
    // … and cookies as objects of their own: a session's is a login.
    id: 'cookie',
    title: 'Session cookies in HAR cookie lists ({"name": "sessionid", "value": "…"})',
    keywords: ['cookies'],
    multiline: true,
    pattern: new RegExp(
      String.raw`"name"\s*:\s*"[^"\\\n]*(?:sess|sid|auth|token|jwt|remember|login)[^"\\\n]*"${OTHER_FIELDS}\s*,\s*"value"\s*:\s*"(?<secret>(?:[^"\\\n]|\\.)+)"`,
      'gi',
    ),
    accept: (v) => v.length >= 12 && tokenLike(v),
  },
];
