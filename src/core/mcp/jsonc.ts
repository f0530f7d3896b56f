// JSON with comments and trailing commas, as `.vscode/mcp.json` often has. Comments and trailing commas
// are blanked out with spaces (newlines kept), so JSON.parse's error position maps to the original text.

export class JsoncError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`${file}:${line}:${column}: malformed JSON: ${detail}`);
  }
}

/** Replaces comments and trailing commas by spaces; string contents are left alone. Same length as the input. */
export function blankJsonc(text: string): string {
  const out = text.split('');
  let i = 0;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  let lastComma = -1;
  // The last significant character before a comma: `{,` and `[,` and `,,` stay errors.
  let prev = '';
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      lastComma = -1;
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      prev = '"';
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const to = end === -1 ? text.length : end;
      blank(i, to);
      i = to;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const to = end === -1 ? text.length : end + 2;
      blank(i, to);
      i = to;
    } else if (c === ',') {
      lastComma = prev === '{' || prev === '[' || prev === ',' ? -1 : i;
      prev = c;
      i++;
    } else if ((c === '}' || c === ']') && lastComma !== -1) {
      out[lastComma] = ' ';
      lastComma = -1;
      prev = c;
      i++;
    } else {
      if (c !== undefined && !/\s/.test(c)) {
        lastComma = -1;
        prev = c;
      }
      i++;
    }
  }
  return out.join('');
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text[k] === '\n') {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Parses JSONC. Throws a JsoncError naming the file, line and column on malformed input. */
export function parseJsonc(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
  const blanked = blankJsonc(body);
  if (blanked.trim() === '') throw new JsoncError(file, 1, 1, 'the file is empty');
  try {
    return JSON.parse(blanked) as unknown;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const m = /at position (\d+)/.exec(message);
    const offset = m ? Number(m[1]) : blanked.trimEnd().length;
    const { line, column } = lineColumn(body, offset);
    const detail = message.replace(/ in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '');
    throw new JsoncError(file, line, column, detail);
  }
}
