// Terraform prints every sensitive output in clear with `-json` (`terraform output -json`, `terraform show
// -json`): `{"sensitive": true, "type": …, "value": …}`. Its author marked the value secret, whatever the
// output's name (`admin`, `random_result`, an object of credentials), so every string in it is redacted.
import { isPlaceholder, type SecretRule } from './types';
import { isKeyAt, stringStop } from './json-tokens';

/** A JSON string that is a value (not followed by `:`, which makes it a key). */
const STRING_VALUE = /"(?<=[:[,{]\s*")(?<secret>(?:[^"\\\n]|\\.)+)"(?!\s*:)/g;

interface Frame {
  array: boolean;
  /** The member key whose value comes next (objects only). */
  key: string | undefined;
  sensitive: boolean;
  /** `[start, end)` of this object's `value` member, once read. */
  value?: [number, number];
  /** Where the `value` member's value starts while it is being read. */
  valueAt: number;
}

/**
 * The `value` members of objects that also say `"sensitive": true` (in either order), as `[start, end)`.
 * One pass over the text's brackets and strings; text around the JSON (a prompt, a log line) is skipped.
 */
export function sensitiveValues(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const stack: Frame[] = [];
  const top = (): Frame | undefined => stack[stack.length - 1];
  /** A scalar or nested value ended at `end` in the frame on top: record it when it was `value`'s. */
  const ended = (end: number): void => {
    const f = top();
    if (f && !f.array && f.key === 'value' && f.valueAt !== -1) f.value = [f.valueAt, end];
    if (f) f.key = undefined;
  };
  const starting = (at: number): void => {
    const f = top();
    if (f && !f.array && f.key === 'value') f.valueAt = at;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
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
        ended(j + 1);
      }
      i = j;
    } else if (c === '{' || c === '[') {
      starting(i);
      stack.push({ array: c === '[', key: undefined, sensitive: false, valueAt: -1 });
    } else if (c === '}' || c === ']') {
      const f = stack.pop();
      if (f?.sensitive && f.value) out.push(f.value);
      ended(i + 1);
    } else if (c === ',') {
      const f = top();
      if (f) f.key = undefined; // a number, `false` or `null` ended the member
    } else if (c === 't' && text.startsWith('true', i)) {
      const f = top();
      if (f && !f.array && f.key === 'sensitive') f.sensitive = true;
      starting(i);
      ended(i + 4);
      i += 3;
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

export const TERRAFORM_RULES: readonly SecretRule[] = [
  {
    id: 'terraform-sensitive',
    title: 'Terraform outputs marked sensitive, printed with -json ({"sensitive": true, "value": …}): every string',
    keywords: ['"sensitive"'],
    multiline: true,
    within: sensitiveValues,
    pattern: STRING_VALUE,
    accept: (v) => !isPlaceholder(v),
  },
];
