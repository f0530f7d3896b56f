// `make test` runs the recipe lines the repository's Makefile gives `test` and what it depends on, and
// the `$(shell …)` of the Makefile as make reads it, whatever the goal. The approval shows `make test`;
// it also names those lines (package-scripts.ts does the same for package.json), following `-C dir`,
// `--directory`, `-f file` and naming the code of `--eval`.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { readFileHead } from '../../read-text';
import { programIndex, simpleCommands } from './shell-words';

/** The make programs read. */
const MAKES = /^(?:make|gmake|bmake)$/;
/** The most bytes of a Makefile read. */
export const MAKEFILE_READ = 256 * 1024;
/** The most recipe lines and targets named. */
const SHOWN_LINES = 8;
const MAX_TARGETS = 256;
const MAX_OUT = 1000;
/** The most characters of one line shown. */
const SHOWN = 160;

/** One make command: the folder it runs in (from -C), the makefiles it names (-f), its goals, --eval code. */
export interface MakeCommand {
  folder: string;
  files: string[];
  goals: string[];
  evals: string[];
}

/** make's options that take the next word (or their attached rest) as their value. */
const VALUE =
  /^(?:-[CfIjloWE]|--(?:directory|file|makefile|include-dir|jobs|load-average|old-file|what-if|new-file|assume-old|assume-new|eval))$/;

/** The make commands of `command`, or [] when it runs none. */
export function makeCommands(command: string): MakeCommand[] {
  const out: MakeCommand[] = [];
  for (const c of simpleCommands(command)) {
    const [program = '', ...args] = c.words.slice(programIndex(c.words)).map((w) => w.text);
    if (!MAKES.test(path.basename(program))) continue;
    const dirs: string[] = [];
    const m: MakeCommand = { folder: '.', files: [], goals: [], evals: [] };
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      let option = a;
      let value: string | undefined;
      if (a.startsWith('--') && a.includes('='))
        [option, value] = [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)];
      else if (/^-[CfIjloWE]./.test(a)) [option, value] = [a.slice(0, 2), a.slice(2)];
      else if (VALUE.test(a) && !/^(?:-j|--jobs|-l|--load-average)$/.test(a)) value = args[++i];
      if (value === undefined && a.startsWith('-')) continue;
      if (option === '-C' || option === '--directory') dirs.push(value ?? '');
      else if (option === '-f' || option === '--file' || option === '--makefile') m.files.push(value ?? '');
      else if (option === '-E' || option === '--eval') m.evals.push(value ?? '');
      else if (!a.startsWith('-') && !a.includes('=') && !/^\d+$/.test(a)) m.goals.push(a);
    }
    // Each -C is taken from the one before (joined once: joining each time is quadratic).
    const from = dirs.map((d) => path.isAbsolute(d)).lastIndexOf(true);
    m.folder = path.normalize((from === -1 ? ['.', ...dirs] : dirs.slice(from)).join('/'));
    out.push(m);
  }
  return out;
}

/** A Makefile read as rules: each target's prerequisites and recipe lines, the default goal, parse-time code. */
interface Rules {
  /** Each target's rules: one rule line's prerequisites and recipe, shared by all of its targets. */
  rules: Map<string, Rule[]>;
  first?: string;
  /** Lines outside recipes with `$(shell …)` or a `!=` assignment: run whenever make reads the file. */
  parsed: string[];
  /** The files it includes (`include`, `-include`, `sinclude`): their recipes are not read here. */
  includes: string[];
}

/** One rule (`a b: c d`): shared by its targets, so 1,000 targets of 1,000 prerequisites are 2,000 words. */
interface Rule {
  prereqs: string[];
  recipe: string[];
}

/** The lines of `text`, a backslash at a line's end joining it to the next with one space. */
function joinedLines(text: string): string[] {
  const out: string[] = [];
  // The parts of a line being continued, joined once at its end (joining at each part is quadratic).
  let parts: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const part = parts.length === 0 ? raw : raw.trimStart();
    if (part.endsWith('\\')) parts.push(part.slice(0, -1).trimEnd());
    else {
      parts.push(part);
      out.push(parts.join(' '));
      parts = [];
    }
  }
  if (parts.length > 0) out.push(parts.join(' '));
  return out;
}

/** Reads `text` as make does, closely enough to name what a goal runs; one pass over its lines. */
export function readRules(text: string): Rules {
  const rules: Rules = { rules: new Map(), parsed: [], includes: [] };
  const lines = joinedLines(text);
  let current: Rule | undefined;
  let inDefine = false;
  for (const line of lines) {
    if (inDefine) {
      if (/^\s*endef\b/.test(line)) inDefine = false;
      continue;
    }
    if (line.startsWith('\t')) {
      if (current !== undefined && line.trim() !== '') current.recipe.push(line.trim());
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (/\$\(shell[\s)]|!=/.test(trimmed)) rules.parsed.push(trimmed);
    const include = /^(?:-|s)?include\s/.exec(trimmed);
    if (include) {
      current = undefined;
      for (const f of trimmed.slice(include[0].length).split(/\s+/))
        if (f !== '' && rules.includes.length < MAX_TARGETS) rules.includes.push(f);
      continue;
    }
    if (/^(?:override\s+|export\s+)?define\b/.test(trimmed)) {
      inDefine = true;
      current = undefined;
      continue;
    }
    // `X = 1`, `X := $(y)`, `X ::= 1`: an assignment; `a b: c d ; recipe`: a rule.
    const colon = trimmed.indexOf(':');
    const eq = trimmed.indexOf('=');
    if (colon === -1 || (eq !== -1 && eq < colon) || /^:{1,3}=/.test(trimmed.slice(colon, colon + 4))) {
      current = undefined;
      continue;
    }
    const targets = trimmed.slice(0, colon).split(/\s+/).filter(Boolean);
    const rest = trimmed.slice(colon + 1).replace(/^:/, '');
    const semi = rest.indexOf(';');
    const named = semi === -1 ? rest : rest.slice(0, semi);
    // `test: X = 1` sets a variable for the target: it names no prerequisites.
    const prereqs = named.includes('=') ? [] : named.replace(/\|/g, ' ').split(/\s+/).filter(Boolean);
    const rule: Rule = { prereqs, recipe: [] };
    for (const t of targets) {
      const list = rules.rules.get(t);
      if (list === undefined) rules.rules.set(t, [rule]);
      else list.push(rule);
    }
    rules.first ??= targets.find((t) => !t.startsWith('.') && !t.includes('%'));
    current = rule;
    if (semi !== -1 && rest.slice(semi + 1).trim() !== '') rule.recipe.push(rest.slice(semi + 1).trim());
  }
  return rules;
}

/** The recipe lines `goals` run, prerequisites first (as make runs them), each as `target: "line"`. */
export function recipesRun(rules: Rules, goals: string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  // Depth first without recursion: a hostile Makefile's chain of 100,000 targets must not overflow.
  // At most MAX_TARGETS targets are visited and MAX_OUT lines kept: enough to name, bounded to read.
  const stack: [string, boolean][] = [...(goals.length > 0 ? goals : rules.first ? [rules.first] : [])]
    .reverse()
    .map((g): [string, boolean] => [g, false]);
  while (stack.length > 0 && out.length < MAX_OUT) {
    const [target, done] = stack.pop()!;
    const own = rules.rules.get(target) ?? [];
    if (done) {
      for (const rule of own)
        for (const line of rule.recipe.slice(0, MAX_OUT))
          out.push(`${target}: ${JSON.stringify(line.length > SHOWN ? `${line.slice(0, SHOWN)}…` : line)}`);
      continue;
    }
    if (seen.has(target) || seen.size >= MAX_TARGETS) continue;
    seen.add(target);
    stack.push([target, true]);
    const prereqs = own.flatMap((r) => r.prereqs.slice(0, MAX_TARGETS));
    for (let i = prereqs.length - 1; i >= 0; i--) if (!seen.has(prereqs[i]!)) stack.push([prereqs[i]!, false]);
  }
  return out;
}

/** Lines shown, at most SHOWN_LINES, with how many more there are. */
export function shownLines(lines: string[], separator = '; '): string {
  const more = lines.length > SHOWN_LINES ? ` and ${lines.length - SHOWN_LINES} more` : '';
  return lines.slice(0, SHOWN_LINES).join(separator) + more;
}

/** The first MAKEFILE_READ bytes of `file` when it (or where a link there leads) is in `root`, else undefined. */
async function readInside(root: string, file: string): Promise<string | undefined> {
  const real = await fsp.realpath(file).catch(() => undefined);
  const rel = real === undefined ? '..' : path.relative(root, real);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return (await readFileHead(real!, MAKEFILE_READ))?.text;
}

/** The makefiles make reads in a folder when given no -f, in its order (bmake's first). */
const DEFAULT_FILES = ['GNUmakefile', 'BSDmakefile', 'makefile', 'Makefile'];

/**
 * What the make commands of `command`, run in `folder` (checked, inside the workspace), run from the
 * Makefile they read: `Makefile recipes it may run: deps: "curl … | sh"; build: "go build"; Makefile runs
 * when read: "V := $(shell git describe)"`; make's --eval code; a folder outside the workspace, named
 * (with what its Makefile runs). Undefined when the line runs no make.
 */
export async function makeRecipesRun(
  workspaceRoot: string,
  folder: string,
  command: string,
): Promise<string | undefined> {
  const commands = makeCommands(command);
  if (commands.length === 0) return undefined;
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const parts: string[] = [];
  // A few make commands per line are read; the rest are left (a line of 10,000 `make`s is one warning).
  for (const m of commands.slice(0, 4)) {
    const dir = path.resolve(folder, m.folder);
    const realDir = await fsp.realpath(dir).catch(() => dir);
    // A folder outside the workspace is named, and its Makefile read there: the line runs it.
    const rel = path.relative(root, realDir);
    const outside = rel.startsWith('..') || path.isAbsolute(rel);
    if (outside) parts.push(`make runs in ${realDir}, outside the workspace`);
    const base = outside ? realDir : root;
    const shown = (file: string): string =>
      outside ? 'its Makefile' : path.relative(root, file).split(path.sep).join('/');
    for (const code of m.evals)
      parts.push(`make --eval: ${JSON.stringify(code.length > SHOWN ? `${code.slice(0, SHOWN)}…` : code)}`);
    const candidates =
      m.files.length > 0 ? m.files.map((f) => path.resolve(dir, f)) : DEFAULT_FILES.map((f) => path.join(dir, f));
    for (const file of candidates) {
      const text = await readInside(base, file);
      if (text === undefined) continue;
      const rules = readRules(text);
      const lines = recipesRun(rules, m.goals);
      // A few of its parse-time lines: a hostile Makefile may hold thousands.
      const quoted = rules.parsed.map((l) => JSON.stringify(l.length > SHOWN ? `${l.slice(0, SHOWN)}…` : l));
      const parsed = quoted.length === 0 ? [] : [`${shown(file)} runs when read: ${shownLines(quoted, ', ')}`];
      const includes =
        rules.includes.length === 0 ? [] : [`${shown(file)} includes ${shownLines(rules.includes, ', ')} (not read)`];
      parsed.push(...includes);
      if (lines.length > 0 || parsed.length > 0)
        parts.push(
          [...(lines.length > 0 ? [`${shown(file)} recipes it may run: ${shownLines(lines)}`] : []), ...parsed].join(
            '; ',
          ),
        );
      if (m.files.length === 0) break;
    }
  }
  return parts.length === 0 ? undefined : [...new Set(parts)].join('; ');
}
