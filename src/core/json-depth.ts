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

/**
 * Counts the brackets of JSON text outside strings as it arrives in pieces (no parse): a streamed
 * document is refused at the first piece that nests too deeply, before a parser spends seconds on it.
 */
export class JsonDepthMeter {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly limit = MAX_JSON_DEPTH) {}

  /** Reads the next piece; true once the text so far nests more than the limit. */
  feed(text: string): boolean {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.escaped) this.escaped = false;
      else if (this.inString) {
        if (c === 0x5c)
          this.escaped = true; // backslash: the next character is escaped
        else if (c === 0x22) this.inString = false;
      } else if (c === 0x22) this.inString = true;
      else if (c === 0x5b || c === 0x7b) {
        if (++this.depth > this.limit) return true;
      } else if (c === 0x5d || c === 0x7d) this.depth--;
    }
    return false;
  }
}

/** The same for JSON text, by counting brackets outside strings (no parse). */
export function textNestedDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  return new JsonDepthMeter(limit).feed(text);
}

/**
 * JSON.parse of text from a file that may have come with a cloned repository (or another agent's log),
 * or undefined when it is not JSON or nests deeper than `limit`: checked first, since JSON.parse takes
 * seconds on megabytes of `[[[[` (8 s for an 8 MB line that packs to 8 KB in git).
 */
export function parseShallowJson(text: string, limit = MAX_JSON_DEPTH): unknown {
  if (textNestedDeeperThan(text, limit)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** JSON text of a value, or a one-line note when it nests too deeply to serialise. */
export function jsonOrNote(value: unknown, indent?: number): string {
  if (nestedDeeperThan(value)) return `[not shown: JSON nested more than ${MAX_JSON_DEPTH} levels deep]`;
  return JSON.stringify(value, null, indent) ?? String(value);
}
