// SKILL.md front matter: YAML between `---` lines with `name` and `description`. Broken front matter
// yields diagnostics with the file and line; the caller skips the skill.
import type * as Yaml from 'yaml';

export interface SkillDiagnostic {
  file: string;
  /** 1-based line in SKILL.md. */
  line: number;
  column: number;
  severity: 'error' | 'warning';
  message: string;
}

export interface ParsedSkillFile {
  name?: string;
  description?: string;
  /** Other front-matter fields (license, allowed-tools, metadata, ...). */
  fields: Record<string, unknown>;
  /** Offset in the text where the body starts. */
  bodyStart: number;
  diagnostics: SkillDiagnostic[];
}

export const MAX_NAME = 64;
export const MAX_DESCRIPTION = 1024;
/**
 * The most front matter read (name, a description of at most 1,024 characters and a few fields take a
 * few KB). Checking YAML keys for repeats is quadratic: 200,000 keys in a cloned repository's SKILL.md
 * held the extension host for minutes; 64 KB of the worst shapes parse in well under a second.
 */
export const MAX_FRONT_MATTER = 16 * 1024;
/** YAML errors reported per file: the first few locate the problem; thousands only flood the Problems view. */
const MAX_YAML_ERRORS = 5;
const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Splits `---\n<yaml>\n---\n<body>`; returns undefined when there is no front matter block. */
function split(text: string): { yaml: string; yamlStart: number; bodyStart: number } | { error: string; line: number } {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const shift = text.length - t.length;
  const first = /^---[ \t]*\r?\n/.exec(t);
  if (!first)
    return {
      error: 'SKILL.md must start with YAML front matter: a line "---", the fields, and a closing "---"',
      line: 1,
    };
  const close = /^---[ \t]*$/m;
  const rest = t.slice(first[0].length);
  const m = close.exec(rest.slice(0, MAX_FRONT_MATTER + 8));
  if (!m || m.index > MAX_FRONT_MATTER)
    return {
      error:
        rest.length > MAX_FRONT_MATTER
          ? `the front matter is not closed by a "---" line within its first ${MAX_FRONT_MATTER / 1024} KB`
          : 'the front matter is not closed by a "---" line',
      line: 1,
    };
  const yamlEnd = first[0].length + m.index;
  let bodyStart = yamlEnd + m[0].length;
  if (t[bodyStart] === '\r') bodyStart++;
  if (t[bodyStart] === '\n') bodyStart++;
  return { yaml: t.slice(first[0].length, yamlEnd), yamlStart: shift + first[0].length, bodyStart: shift + bodyStart };
}

/** Parses and checks a SKILL.md. `dirName` is the skill's folder name (the spec wants `name` to match it). */
export function parseSkillFile(text: string, file: string, dirName?: string): ParsedSkillFile {
  const result: ParsedSkillFile = { fields: {}, bodyStart: 0, diagnostics: [] };
  const diag = (line: number, column: number, severity: SkillDiagnostic['severity'], message: string): void => {
    result.diagnostics.push({ file, line, column, severity, message });
  };
  const parts = split(text);
  if ('error' in parts) {
    diag(parts.line, 1, 'error', parts.error);
    return result;
  }
  result.bodyStart = parts.bodyStart;
  const { LineCounter, parseDocument, isMap, isScalar } = yaml();
  const lc = new LineCounter();
  let doc: Yaml.Document.Parsed;
  let data: Record<string, unknown>;
  try {
    doc = parseDocument(parts.yaml, { lineCounter: lc, prettyErrors: true, uniqueKeys: true });
    // Throws on an alias bomb (more aliases than the parser allows) instead of expanding it.
    data = doc.errors.length > 0 ? {} : (doc.toJS() as Record<string, unknown>);
  } catch (e) {
    diag(2, 1, 'error', `the front matter cannot be read: ${e instanceof Error ? e.message : String(e)}`);
    return result;
  }
  // Lines in the YAML are counted from the line after the opening `---`.
  // Errors at the very end (an unclosed bracket) point at the last line that has content, not at `---`.
  const lastLine = Math.max(1, parts.yaml.trimEnd().split('\n').length);
  const lineOf = (offset: number): { line: number; col: number } => {
    const p = lc.linePos(offset);
    return p.line > lastLine ? { line: lastLine + 1, col: 1 } : { line: p.line + 1, col: p.col };
  };
  if (doc.errors.length > 0) {
    for (const e of doc.errors.slice(0, MAX_YAML_ERRORS)) {
      const p = lineOf(e.pos[0]);
      diag(
        p.line,
        p.col,
        'error',
        `invalid YAML in the front matter: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
      );
    }
    const more = doc.errors.length - MAX_YAML_ERRORS;
    if (more > 0) diag(lineOf(doc.errors[MAX_YAML_ERRORS]!.pos[0]).line, 1, 'error', `and ${more} more YAML errors`);
    return result;
  }
  const contents = doc.contents;
  if (!isMap(contents)) {
    diag(2, 1, 'error', 'the front matter must be a mapping of fields (name: ..., description: ...)');
    return result;
  }
  const posOf = (key: string): { line: number; col: number } => {
    const pair = contents.items.find((it) => isScalar(it.key) && it.key.value === key);
    const node = (pair?.value ?? pair?.key) as Yaml.Node | undefined;
    return node?.range ? lineOf(node.range[0]) : { line: 2, col: 1 };
  };
  for (const [k, v] of Object.entries(data)) if (k !== 'name' && k !== 'description') result.fields[k] = v;
  const name = data.name;
  if (typeof name !== 'string' || name.trim() === '') {
    const p = posOf('name');
    diag(
      p.line,
      p.col,
      'error',
      name === undefined ? 'the front matter has no "name"' : '"name" must be a non-empty string',
    );
  } else if (/[\r\n]/.test(name)) {
    const p = posOf('name');
    diag(p.line, p.col, 'error', '"name" must be one line');
  } else {
    result.name = name.trim();
    const p = posOf('name');
    if (!NAME_PATTERN.test(result.name) || result.name.length > MAX_NAME) {
      diag(p.line, p.col, 'warning', `"name" should be at most ${MAX_NAME} lower-case letters, digits and hyphens`);
    }
    if (dirName !== undefined && result.name !== dirName)
      diag(p.line, p.col, 'warning', `"name" (${result.name}) differs from its folder name (${dirName})`);
  }
  const description = data.description;
  if (typeof description !== 'string' || description.trim() === '') {
    const p = posOf('description');
    diag(
      p.line,
      p.col,
      'error',
      description === undefined ? 'the front matter has no "description"' : '"description" must be a non-empty string',
    );
  } else {
    result.description = description.trim();
    if (result.description.length > MAX_DESCRIPTION) {
      const p = posOf('description');
      diag(
        p.line,
        p.col,
        'warning',
        `"description" is ${result.description.length} characters; only the first ${MAX_DESCRIPTION} go into the prompt`,
      );
    }
  }
  return result;
}

/**
 * The YAML parser (about 0.25 MB of the features bundle) is evaluated when the first SKILL.md is read: a
 * workspace without skills never pays for it (test/unit/bundle-laziness.test.ts).
 */
function yaml(): typeof Yaml {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated on first use, on purpose
  return require('yaml') as typeof Yaml;
}
