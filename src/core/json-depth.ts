// JSON from a model, an MCP server or another agent's log can nest deeper than the stack allows:
// JSON.parse reads 100,000 levels, but JSON.stringify and every recursive walk fail after a few
// thousand with "Maximum call stack size exceeded". Such values are refused with a clear reason
// before anything walks them. Real arguments, schemas and logs nest a few dozen levels at most.
export const MAX_JSON_DEPTH = 200;

/** Whether a value nests objects and arrays more than `limit` levels deep (iterative: never overflows). */
export function nestedDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, depth: depth + 1 });
  }
  return false;
}

/** The same for JSON text, by counting brackets outside strings (no parse). */
export function textNestedDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** JSON text of a value, or a one-line note when it nests too deeply to serialise. */
export function jsonOrNote(value: unknown, indent?: number): string {
  if (nestedDeeperThan(value)) return `[not shown: JSON nested more than ${MAX_JSON_DEPTH} levels deep]`;
  return JSON.stringify(value, null, indent) ?? String(value);
}
