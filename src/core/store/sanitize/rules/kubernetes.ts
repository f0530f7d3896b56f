// A Kubernetes Secret holds secrets under any key names (`DATABASE_URL`, `config.json`, `tls.crt`):
// every value of its `data` (base64) and `stringData` (plain) is one. `kubectl get secret -o yaml` or
// `-o json` and a manifest read from the repository print them; the key names stay readable. The
// blocks are found line by line (`within`): a regex lookbehind over a block's lines is quadratic.
import { isSecretObject, scanJsonSecrets } from './kubernetes-json';
import { isPlaceholder, type SecretRule } from './types';
import { SECRET_BLOCK_KEY, yamlBlocks, type Regions } from './yaml-blocks';

/** The key of a Secret's `data:` or `stringData:` block (`- data:` in kubectl's `items`). */
const fieldKey = (field: string): RegExp => new RegExp(String.raw`^( *)(-[ \t]+)?${field}:[ \t]*\r?$`, 'gm');
const DATA_KEY = fieldKey('data');
const STRING_DATA_KEY = fieldKey('stringData');

/**
 * The text's JSON maps, read once for the rules and the stream's hold-back that ask in one go (they
 * run synchronously); let go after it, not to keep a large text alive.
 */
let lastScan: ({ text: string } & ReturnType<typeof scanJsonSecrets>) | undefined;
function jsonScan(text: string): ReturnType<typeof scanJsonSecrets> {
  if (lastScan?.text !== text) {
    if (lastScan === undefined) queueMicrotask(() => (lastScan = undefined));
    lastScan = { text, ...scanJsonSecrets(text) };
  }
  return lastScan;
}

/** The inside of each JSON map of a Secret (`data`), or of any object (`stringData`: only Secrets have it). */
function jsonMaps(text: string, data: boolean): Regions {
  return jsonScan(text)
    .maps.filter((m) => (m.field === 'data') === data && (!data || isSecretObject(m.owner)))
    .map((m) => [m.start, m.end]);
}

/**
 * The end of a value: the line's end (a comment or a JSON line's comma aside), or the closing quote of
 * the JSON string the YAML was printed in (`"content": "…\n  key: value"}`), which stays.
 */
const VALUE_END = String.raw`(?=,?[ \t]*(?:[ \t]#[^\n]*)?\r?$|"[ \t]*(?:[,}\]:]|$))`;
/** A value's character that is not blank, nor that closing quote. */
const CHAR = String.raw`(?:[^\s"]|"(?![ \t]*(?:[,}\]:]|$)))`;
/** A value's first character: also not a comment, nor a block's `|` or `>`. */
const FIRST = String.raw`(?![#|>])${CHAR}`;
/**
 * The rest of a value, greedy: each step ends on a character, and blanks before a `#` end it. A lazy
 * run tested against VALUE_END at every blank was quadratic on a line padded with blanks.
 */
const PLAIN_VALUE = String.raw`(?:(?:[ \t]+(?![#\s]))?${CHAR})*`;

/** An entry of a YAML mapping: `key: value` to the line's end. */
const YAML_ENTRY = String.raw`^[ \t]*(?:-[ \t]+)?["']?[\w.-]+["']?:[ \t]+(?<secret>"[^"\n]*"|'[^'\n]*'|${FIRST}${PLAIN_VALUE})${VALUE_END}`;

/** A line of a block value (`config.yaml: |`): not an entry, goes whole. */
const YAML_BLOCK_LINE = String.raw`^[ \t]*(?!["']?[\w.-]+["']?:(?:[ \t]|\r?$))(?<secret>${FIRST}${PLAIN_VALUE})${VALUE_END}`;

/** An entry of a `data` block: a base64 value, quoted or not (what follows it on the line is not its). */
const YAML_DATA_ENTRY = String.raw`^[ \t]*(?:-[ \t]+)?["']?[\w.-]+["']?:[ \t]+(?<secret>"[A-Za-z0-9+/]+={0,2}"|'[A-Za-z0-9+/]+={0,2}'|[A-Za-z0-9+/]+={0,2}(?![\w+/=]))`;

/** A JSON entry with a string value. */
const JSON_ENTRY = String.raw`(["'])[\w.-]+\1\s*:\s*\1(?<secret>(?:(?!\1)[^\\\n]|\\.)+)\1`;

/** Base64 as `data` holds it (`MWYyZDFlMmU2N2Rm`, `YWRtaW4=`): padded to a multiple of four. */
const base64 = (v: string): boolean => v.length >= 4 && v.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(v);
const given = (v: string): boolean => v.length > 0 && !isPlaceholder(v);
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A Secret's value: base64 of text (a password, a URL, a config file) or of a blob (a certificate, a
 * keystore: long). Words and ids that only look like base64 (`frontend`, `8080`, a hex hash, a
 * ConfigMap's values) decode to neither.
 */
function secretData(v: string): boolean {
  if (!base64(v)) return false;
  if (v.length >= 64) return true;
  try {
    return /^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]+$/.test(UTF8.decode(Buffer.from(v, 'base64')));
  } catch {
    return false;
  }
}

export const KUBERNETES_RULES: readonly SecretRule[] = [
  {
    id: 'kubernetes-secret',
    title: "A Kubernetes Secret's data in YAML (data: / KEY: base64 of text or a blob, any key name)",
    keywords: ['data:'],
    exactKeywords: true,
    multiline: true,
    within: (text) => yamlBlocks(text, DATA_KEY),
    pattern: new RegExp(YAML_DATA_ENTRY, 'gm'),
    accept: secretData,
  },
  {
    id: 'kubernetes-secret',
    title: "A Kubernetes Secret's stringData in YAML (stringData: / KEY: value, any key name)",
    keywords: ['stringData:'],
    exactKeywords: true,
    multiline: true,
    within: (text) => yamlBlocks(text, STRING_DATA_KEY),
    pattern: new RegExp(YAML_ENTRY, 'gm'),
    accept: given,
  },
  {
    // `config.yaml: |` and the lines of the file it holds: a line that is not an entry goes whole.
    id: 'kubernetes-secret',
    title: "A Kubernetes Secret's stringData in YAML: the lines of a block value (KEY: | / …)",
    keywords: ['stringData:'],
    exactKeywords: true,
    multiline: true,
    within: (text) => yamlBlocks(text, STRING_DATA_KEY),
    pattern: new RegExp(YAML_BLOCK_LINE, 'gm'),
  },
  {
    id: 'kubernetes-secret',
    title: `A Kubernetes Secret's data in JSON or a Python dict ("data": {"KEY": "base64", …} in an object of "kind": "Secret", before or after, or of a Secret's "type")`,
    keywords: ['"Secret"', "'Secret'", '"Opaque"', "'Opaque'", 'kubernetes.io/', 'helm.sh/release'],
    exactKeywords: true,
    multiline: true,
    within: (text) => jsonMaps(text, true),
    pattern: new RegExp(JSON_ENTRY, 'g'),
    accept: secretData,
  },
  {
    id: 'kubernetes-secret',
    title: `A Kubernetes Secret's stringData in JSON or a Python dict ("stringData": {"KEY": "value", …})`,
    keywords: ['"stringData"', "'stringData'", "'string_data'"],
    exactKeywords: true,
    multiline: true,
    within: (text) => jsonMaps(text, false),
    pattern: new RegExp(JSON_ENTRY, 'g'),
    accept: given,
  },
];

/** A map closed this close to the text's end may still be followed by its object's `"kind"` or `"type"`. */
const JSON_TAIL = 64;

/**
 * Where the Secret's `data` or `stringData` block that holds `offset` starts (its key's line), or -1.
 * At the text's end, a block that may go on past it counts (a stream cut inside it, a JSON object
 * whose `"kind"` is still to come): a stream holds such a block back and never cuts one, since its
 * entries are found only with the block's key before them. A JSON object whose `"kind": "Secret"`
 * came first is held from its start while it is open: its maps count only with the kind before them.
 */
export function secretBlockStart(text: string, offset: number): number {
  // `data:`, `stringData:`, or a block scalar's `|` or `>` (under a key named for a secret).
  const yaml = /[dD]ata:|:[ \t]*(?:!!\w+[ \t]+)?[|>]/.test(text);
  const json = /[dD]ata["']\s*:|["']Secret["']/.test(text);
  if (!yaml && !json) return -1;
  const atEnd = offset >= text.length;
  let start = -1;
  const found = (at: number): void => void (start = start === -1 ? at : Math.min(start, at));
  if (yaml)
    for (const key of [DATA_KEY, STRING_DATA_KEY, SECRET_BLOCK_KEY])
      for (const [s, e] of yamlBlocks(text, key))
        if (s <= offset && (offset < e || (atEnd && e >= text.length))) found(text.lastIndexOf('\n', s - 2) + 1);
  if (!json) return start;
  const { maps, secrets } = jsonScan(text);
  for (const o of secrets) if (o.start < offset && (o.end === -1 || offset <= o.end)) found(o.start);
  for (const m of maps) {
    if (m.key >= offset) continue;
    // Just past a map whose object has no kind yet, its kind or type may be what follows; a map whose
    // object is a Secret by a kind or type after the offset is one only with that text.
    const undecided = m.owner.kind === undefined && (m.owner.end === -1 || offset <= m.owner.end);
    const decidedAfter = m.owner.decidedAt !== undefined && m.owner.decidedAt >= offset;
    if (!m.closed || offset <= m.end || decidedAfter || (undecided && offset - m.end <= JSON_TAIL)) found(m.key);
  }
  return start;
}
