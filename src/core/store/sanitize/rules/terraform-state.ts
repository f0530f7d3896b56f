// Terraform's state keeps every resource attribute in clear, and says which are sensitive beside them,
// whatever they are called: `random_password`'s `result`, a `kubernetes_secret`'s `data`. In a state file
// (`cat terraform.tfstate`, `terraform state pull`) an instance lists `"attributes"` and then
// `"sensitive_attributes"` (paths of steps, the first `{"type": "get_attr", "value": "result"}`); in
// `terraform show -json` a resource has `"values"` and `"sensitive_values"` (`{"result": true}`), and a
// plan's change `"after"` / `"after_sensitive"` (and `before`). Every string of such an attribute goes.
import { jsonInString } from './kubernetes-json';
import { isPlaceholder, type SecretRule } from './types';
import { isKeyAt, stringStop } from './json-tokens';

/** A JSON string that is a value (not followed by `:`, which makes it a key). */
const STRING_VALUE = /"(?<=[:[,{]\s*")(?<secret>(?:[^"\\\n]|\\.)+)"(?!\s*:)/g;

/** The members holding attributes, each with the member that names its sensitive ones. */
export const PAIRS: Record<string, string> = {
  attributes: 'sensitive_attributes',
  values: 'sensitive_values',
  after: 'after_sensitive',
  before: 'before_sensitive',
};
const MARKS = new Set(Object.values(PAIRS));

interface Frame {
  array: boolean;
  /** The member of the parent this frame is the value of (objects' members only). */
  under: string | undefined;
  parent: Frame | undefined;
  /** The member key whose value comes next (objects only). */
  key: string | undefined;
  /** Where the current member's value starts. */
  valueAt: number;
  /** Arrays: elements begun so far. */
  index: number;
  /** An attributes object: each member's value as `[start, end)`. */
  members?: Map<string, [number, number]>;
  /** The object holding attributes objects: each by its member's name (`attributes`, `values`, …). */
  attrs?: Map<string, Map<string, [number, number]>>;
  /** The object holding both members: attribute names marked sensitive, per marking member. */
  marked?: Map<string, Set<string>>;
  /** Objects: a `true` somewhere inside (a sensitive map's member that marks something). */
  hasTrue: boolean;
  /** Objects: the `type` and `value` strings (a path's step). */
  type?: string;
  value?: string;
}

/** Adds `name` to the names that `mark` of `owner` marks sensitive. */
function mark(owner: Frame | undefined, markKey: string, name: string): void {
  if (!owner) return;
  owner.marked ??= new Map();
  const names = owner.marked.get(markKey) ?? new Set<string>();
  names.add(name);
  owner.marked.set(markKey, names);
}

/** A frame closed at `end`: passes what it found up to the frames it belongs to. */
function closed(f: Frame, out: Array<[number, number]>): void {
  const p = f.parent;
  // A member of a sensitive map (`"result": true`, `"data": {"KEY": true}`): its attribute is marked.
  if (p && !p.array && MARKS.has(p.under ?? '') && p.key !== undefined && f.hasTrue) mark(p.parent, p.under!, p.key);
  if (p && f.hasTrue) p.hasTrue = true;
  // The first step of a path in `sensitive_attributes`: `{"type": "get_attr", "value": "result"}`.
  const path = p?.array ? p : undefined;
  if (!f.array && path && path.index === 1 && path.parent?.array && path.parent.under === 'sensitive_attributes')
    if (f.type === 'get_attr' && f.value !== undefined) mark(path.parent.parent, 'sensitive_attributes', f.value);
  if (!f.marked) return;
  for (const [attrs, markKey] of Object.entries(PAIRS)) {
    const names = f.marked.get(markKey);
    const members = f.attrs?.get(attrs);
    if (!names || !members) continue;
    for (const name of names) {
      const range = members.get(name);
      if (range) out.push(range);
    }
  }
}

/**
 * The values of attributes Terraform marks sensitive beside them (see the file's comment), as
 * `[start, end)`. One pass over the text's brackets and strings; text around the JSON is skipped.
 */
export function stateSensitiveValues(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const stack: Frame[] = [];
  const top = (): Frame | undefined => stack[stack.length - 1];
  /** A member's value (or an element) ended at `end`. */
  const ended = (end: number, scalar?: string): void => {
    const f = top();
    if (!f) return;
    if (!f.array && f.key !== undefined) {
      if (f.members && f.valueAt !== -1) f.members.set(f.key, [f.valueAt, end]);
      if (scalar !== undefined && f.key === 'type') f.type = scalar;
      if (scalar !== undefined && f.key === 'value') f.value = scalar;
      f.key = undefined;
    }
  };
  const starting = (at: number): void => {
    const f = top();
    if (f?.array) f.index++;
    else if (f) f.valueAt = at;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    // JSON held in a string, as the decoded view shows it (`"{"attributes": …}"`): read as JSON.
    if (c === '"' && jsonInString(text, i)) continue;
    if (c === '"') {
      const j = stringStop(text, i);
      if (text[j] !== '"') {
        i = j; // an unclosed quote (prose): read on after it
        continue;
      }
      const f = top();
      if (f && !f.array && isKeyAt(text, j)) {
        f.key = text.slice(i + 1, j);
        f.valueAt = -1;
      } else {
        starting(i);
        ended(j + 1, text.slice(i + 1, j));
      }
      i = j;
    } else if (c === '{' || c === '[') {
      starting(i);
      const parent = top();
      const under = parent && !parent.array ? parent.key : undefined;
      const frame: Frame = { array: c === '[', under, parent, key: undefined, valueAt: -1, index: 0, hasTrue: false };
      if (!frame.array && under !== undefined && under in PAIRS && parent) {
        frame.members = new Map();
        parent.attrs ??= new Map();
        parent.attrs.set(under, frame.members);
      }
      stack.push(frame);
    } else if (c === '}' || c === ']') {
      const f = stack.pop();
      if (f) closed(f, out);
      ended(i + 1);
    } else if (c === ',') {
      const f = top();
      if (f && !f.array) f.key = undefined; // a number, `false` or `null` ended the member
    } else if (c === 't' && text.startsWith('true', i)) {
      const f = top();
      // `"result": true` in a sensitive map marks its member now; deeper, it marks the map's member on close.
      if (f && !f.array && MARKS.has(f.under ?? '') && f.key !== undefined) mark(f.parent, f.under!, f.key);
      else if (f) f.hasTrue = true;
      starting(i);
      ended(i + 4);
      i += 3;
    }
  }
  // Text cut off inside an object (`head` of a state file, a stream's held part): what it marks counts.
  while (stack.length > 0) closed(stack.pop()!, out);
  return out.sort((a, b) => a[0] - b[0]);
}

export const TERRAFORM_STATE_RULES: readonly SecretRule[] = [
  {
    id: 'terraform-sensitive',
    title:
      'Terraform state and show -json: attributes marked sensitive beside them (sensitive_attributes, sensitive_values, after_sensitive): every string',
    keywords: ['"sensitive_attributes"', '"sensitive_values"', '"after_sensitive"', '"before_sensitive"'],
    multiline: true,
    within: stateSensitiveValues,
    pattern: STRING_VALUE,
    accept: (v) => !isPlaceholder(v),
  },
];
