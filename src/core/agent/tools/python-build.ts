// `pip install -e .`, `poetry install`, `uv sync` read as installing dependencies, but build the project
// in the folder: pip runs its setup.py, or the build backend its pyproject.toml [build-system] names,
// which `backend-path` can load from the repository itself. The approval names those files.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { inside } from './inside';
import { readFileHead } from '../../read-text';
import { programIndex, simpleCommands } from './shell-words';

/** The most bytes of a pyproject.toml read, and project folders of one line looked at. */
const PYPROJECT_READ = 256 * 1024;
const MAX = 4;
/** pip options whose value is the next word (and not a project). */
const PIP_VALUE =
  /^(?:-[rcitfe]|--(?:requirement|constraint|index-url|extra-index-url|target|prefix|root|find-links|editable|src|upgrade-strategy|python-version|platform|implementation|abi|progress-bar|report|config-settings|global-option|no-binary|only-binary|cache-dir|log|proxy|retries|timeout|cert|client-cert|trusted-host))$/;
/** A pip argument that names a local folder rather than a package: `.`, `./lib`, `/src/x`. */
const LOCAL = /^(?:\.{1,2}(?:\/|$)|\/|~\/)|^[^:=@<>!~]*\/[^:]*$/;

/** Each project build of a line: what runs it (`pip install`) and the folder, as written. */
export function pythonBuilds(command: string): { label: string; dir: string }[] {
  const out: { label: string; dir: string }[] = [];
  for (const c of simpleCommands(command)) {
    let words = c.words.slice(programIndex(c.words)).map((w) => w.text);
    const program = path.basename(words[0] ?? '');
    if (/^python[\d.]*$/.test(program) && words[1] === '-m' && words[2] === 'pip') words = words.slice(2);
    else if (program === 'uv' && words[1] === 'pip') words = words.slice(1);
    const name = path.basename(words[0] ?? '');
    const args = words.slice(1);
    if (/^python[\d.]*$/.test(program) && words[1] === '-m' && words[2] === 'build')
      out.push({ label: 'python -m build', dir: words.slice(3).find((w) => !w.startsWith('-')) ?? '.' });
    else if (/^pip[\d.]*$/.test(name) && (args[0] === 'install' || args[0] === 'wheel')) {
      const label = `pip ${args[0]}`;
      for (let i = 1; i < args.length && out.length < MAX; i++) {
        const [option, value] = args[i]!.split(/=(.*)/s);
        if (/^(?:-e|--editable)$/.test(option!)) out.push({ label, dir: value ?? args[++i] ?? '.' });
        else if (PIP_VALUE.test(args[i]!)) i++;
        else if (!args[i]!.startsWith('-') && LOCAL.test(args[i]!)) out.push({ label, dir: args[i]! });
      }
    } else if (/^python[\d.]*$/.test(program) && path.basename(words[1] ?? '') === 'setup.py')
      out.push({ label: 'python setup.py', dir: path.dirname(words[1]!) });
    // uv run and hatch run install the project into their environment before running the program.
    else if (
      /^(?:poetry|pdm) install$|^pdm sync$|^uv (?:sync|run)$|^hatch (?:run|shell)$/.test(`${name} ${args[0] ?? ''}`)
    )
      out.push({ label: `${name} ${args[0]!}`, dir: '.' });
    if (out.length >= MAX) break;
  }
  return out;
}

/** A setting's value in a TOML table's text: `"x"`, `'x'` or `["x"]` as one string. */
function tomlValue(line: string): string {
  // Trimmed, not matched with `\s*\]$`: that is quadratic over a line of spaces.
  let value = line.slice(line.indexOf('=') + 1).trim();
  if (value.startsWith('[')) value = value.slice(1);
  if (value.endsWith(']')) value = value.slice(0, -1);
  return value.trim().replace(/^["']|["']$/g, '');
}

/** The build backend a pyproject.toml's [build-system] names, and its backend-path. */
export function buildSystem(text: string): { backend?: string; backendPath?: string } {
  const found: { backend?: string; backendPath?: string } = {};
  let inTable = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) inTable = /^\[\s*build-system\s*\]/.test(line);
    else if (inTable && /^build-backend\s*=/.test(line)) found.backend = tomlValue(line);
    else if (inTable && /^backend-path\s*=/.test(line)) found.backendPath = tomlValue(line);
  }
  return found;
}

/** The real path of `file` when it is a file in the workspace `root`, else undefined. */
async function inWorkspace(root: string, file: string): Promise<string | undefined> {
  const real = await fsp.realpath(file).catch(() => undefined);
  return real !== undefined && inside(root, real) ? real : undefined;
}

/** What the build of the project in `dir` runs: `setup.py, pyproject.toml build-backend "x"`. */
async function buildFiles(root: string, dir: string): Promise<string[]> {
  const prefix = path.relative(root, dir).split(path.sep).join('/');
  const shown = (f: string): string => (prefix === '' ? f : `${prefix}/${f}`);
  const files: string[] = [];
  if ((await inWorkspace(root, path.join(dir, 'setup.py'))) !== undefined) files.push(shown('setup.py'));
  const pyproject = await inWorkspace(root, path.join(dir, 'pyproject.toml'));
  const head = pyproject === undefined ? undefined : await readFileHead(pyproject, PYPROJECT_READ);
  const { backend, backendPath } = buildSystem(head?.text ?? '');
  if (backend !== undefined) {
    const from = backendPath === undefined ? '' : ` from backend-path "${backendPath}" (code the repository holds)`;
    files.push(`${shown('pyproject.toml')} build-backend "${backend}"${from}`);
  }
  return files;
}

/**
 * The project builds `command`, run in `folder`, starts and the files of the workspace they run:
 * `pip install runs the project build: setup.py`; undefined when none.
 */
export async function pythonBuildsRun(
  workspaceRoot: string,
  folder: string,
  command: string,
): Promise<string | undefined> {
  const found = pythonBuilds(command);
  if (found.length === 0) return undefined;
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const said: string[] = [];
  for (const { label, dir } of found) {
    const real = await fsp.realpath(path.resolve(folder, dir)).catch(() => undefined);
    if (real === undefined || !inside(root, real)) continue;
    const files = await buildFiles(root, real);
    const line = `${label} runs the project build: ${files.join(', ')}`;
    if (files.length > 0 && !said.includes(line)) said.push(line);
  }
  return said.length === 0 ? undefined : said.join('; ');
}
