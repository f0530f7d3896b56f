// A stream may cut Terraform's state between an instance's `"attributes"` and the `"sensitive_attributes"`
// that say which of them are secrets (a pretty-printed `cat terraform.tfstate` has one line per
// attribute, far more than the lines a stream holds back). These find such an open object, so the stream
// can hold it until it closes, and redact its attributes' strings whole when it is too long to hold.
import { PAIRS } from './terraform-state';
import { isPlaceholder } from './types';
import { isKeyAt, stringStop } from './json-tokens';

/** Members Terraform writes before the attributes: a state instance's, a resource's, a plan change's. */
const OWNER_KEYS = new Set(['schema_version', 'actions']);
const OWNER_KEY = /"schema_version"\s*:|"actions"\s*:\s*\[/;

export const ATTRIBUTES_MARKER = '[REDACTED:terraform-sensitive]';

interface Frame {
  start: number;
  array: boolean;
  /** An object with a member of OWNER_KEYS: its attributes' sensitivity is said beside them. */
  owner: boolean;
  /** Where its first attributes object (a member named in PAIRS) starts, or -1. */
  attrs: number;
}

/**
 * The outermost object of `text` with a member of OWNER_KEYS that has not closed by the end of `text`
 * (its attributes and what marks them may come next): where it starts and where its attributes start
 * (-1 when they have not yet). One pass.
 */
export function openStateObject(text: string): { start: number; attrs: number } | undefined {
  if (!OWNER_KEY.test(text)) return undefined;
  const stack: Frame[] = [];
  let key: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const j = stringStop(text, i);
      if (text[j] === '"') {
        key = isKeyAt(text, j) ? text.slice(i + 1, j) : undefined;
        const top = stack[stack.length - 1];
        if (top && !top.array && key !== undefined && OWNER_KEYS.has(key)) top.owner = true;
      }
      i = j;
    } else if (c === '{' || c === '[') {
      const top = stack[stack.length - 1];
      if (c === '{' && top?.owner && top.attrs === -1 && key !== undefined && key in PAIRS) top.attrs = i;
      stack.push({ start: i, array: c === '[', owner: false, attrs: -1 });
      key = undefined;
    } else if (c === '}' || c === ']') {
      stack.pop();
      key = undefined;
    } else if (c === ',') key = undefined;
  }
  const open = stack.find((f) => f.owner);
  return open && { start: open.start, attrs: open.attrs };
}

/**
 * Every string value of `text` inside an attributes object replaced by the marker: from `from`, at
 * `depth` brackets inside one (0: the one opening at `from`), until it closes. Returns the text, the
 * strings replaced, and the depth at the end (0 once it closed).
 */
export function redactOpenAttributes(
  text: string,
  from: number,
  depth: number,
): { text: string; count: number; depth: number } {
  let out = '';
  let last = 0;
  let count = 0;
  let i = from;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const j = stringStop(text, i);
      if (text[j] === '"' && depth > 0 && !isKeyAt(text, j) && !isPlaceholder(text.slice(i + 1, j))) {
        out += text.slice(last, i + 1) + ATTRIBUTES_MARKER;
        last = j;
        count++;
      }
      i = j;
    } else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth <= 0) {
      depth = 0;
      break;
    }
  }
  return { text: out + text.slice(last), count, depth };
}

/**
 * Where in `text` an open state instance starts (its line), or -1. Its `{` may have gone out already in
 * `sent`, the lines sent just before (a quiet stream sends whole lines at once): then all of `text` is in it.
 */
export function openInstanceStart(sent: string, text: string): number {
  const state = openStateObject(sent + text);
  if (!state) return -1;
  const start = state.start - sent.length;
  return start <= 0 ? 0 : text.lastIndexOf('\n', start) + 1;
}

/**
 * An attributes object going out before what marks its secrets (held past the stream's bound, or the
 * output ended inside it): every string of it is redacted, in this batch and the ones that follow until
 * it closes.
 */
export class OpenAttributes {
  /** Brackets deep inside an attributes object released before it closed. */
  private depth = 0;

  redact(text: string, final: boolean): { text: string; count: number } {
    let from = 0;
    if (this.depth === 0) {
      const open = openStateObject(text);
      if (open?.attrs === undefined || open.attrs === -1) return { text, count: 0 };
      from = open.attrs;
    }
    const r = redactOpenAttributes(text, from, this.depth);
    this.depth = final ? 0 : r.depth;
    return { text: r.text, count: r.count };
  }
}
