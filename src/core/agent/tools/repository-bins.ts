// `npx jest`, `npm exec eslint`, `pnpm vite`, `yarn tsc` and `./node_modules/.bin/x` read as running a
// known tool, but run the program node_modules/.bin holds, and a cloned repository may commit its
// node_modules. The approval names the program the repository ships, and the file it leads to.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { inside } from './inside';
import { readFileHead } from '../../read-text';
import { programIndex, simpleCommands } from './shell-words';

/** Words before the program that run it from node_modules/.bin. */
const RUNNERS = new Set(['npx', 'bunx', 'pnpx']);
/** yarn and pnpm commands of their own: any other first word is a script or a program of .bin. */
export const MANAGER_OWN =
  /^(?:add|audit|autoclean|bin|cache|check|config|create|dedupe|dlx|env|exec|fetch|import|info|init|install|i|link|list|ls|licenses|login|logout|outdated|owner|pack|patch|patch-commit|prune|publish|rebuild|remove|rm|root|run|server|setup|store|tag|team|test|t|start|stop|restart|unlink|unplug|up|update|upgrade|upgrade-interactive|version|versions|why|workspace|workspaces|plugin|node|constraints|explain|help|sdk|set|search|deploy|fund|doctor|ci|install-test|view|uninstall)$/;
const BIN = /(?:^|\/)node_modules\/\.bin\/([^/]+)$/;
/** The most programs of one line looked for. */
const MAX = 4;

/** A program of node_modules/.bin a line names; `scriptFirst` when a package script of its name runs instead. */
interface Bin {
  name: string;
  written?: string;
  scriptFirst?: true;
  /** The folder an option runs the manager in (`pnpm -C sub`, `yarn --cwd sub`, `npm --prefix sub`). */
  in?: string;
}

/** Options that run a package manager in another folder, as package-scripts.ts reads them. */
const IN_FOLDER = /^(?:--prefix|-C|--cwd|--dir)$/;

/** The program a command runs from node_modules/.bin: its name, or its path as written when given one. */
function binOf(texts: string[], at: number): Bin | undefined {
  const [program = '', ...rest] = texts.slice(at);
  const direct = BIN.exec(program);
  if (direct) return { name: direct[1]!, written: program };
  if (texts.slice(0, at).some((w) => RUNNERS.has(w))) return program === '' ? undefined : { name: program };
  let folder: string | undefined;
  const args: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const [option, value] = rest[i]!.split(/=(.*)/s);
    if (IN_FOLDER.test(option!)) folder = value ?? rest[++i];
    else if (!rest[i]!.startsWith('-')) args.push(rest[i]!);
  }
  const found = binAfter(program, args);
  return found === undefined || folder === undefined ? found : { ...found, in: folder };
}

/** The program a package-manager command (its words without options) runs from node_modules/.bin. */
function binAfter(program: string, args: string[]): Bin | undefined {
  const [verb, next] = args;
  if (program === 'npm' && (verb === 'exec' || verb === 'x')) return next === undefined ? undefined : { name: next };
  if ((program === 'pnpm' || program === 'yarn') && verb !== undefined) {
    if (verb === 'exec') return next === undefined ? undefined : { name: next };
    // `yarn x`, `yarn run x`, `pnpm x`: a package script of that name runs instead, when there is one.
    if (verb === 'run') return next === undefined ? undefined : { name: next, scriptFirst: true };
    if (!MANAGER_OWN.test(verb)) return { name: verb, scriptFirst: true };
  }
  return undefined;
}

/** node_modules/.bin/`name` at or above `folder` in the workspace `root`, as npm finds it. */
async function findBin(root: string, folder: string, name: string): Promise<string | undefined> {
  for (let dir = folder; inside(root, dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'node_modules', '.bin', name);
    if ((await fsp.lstat(file).catch(() => undefined)) !== undefined) return file;
    if (dir === root) break;
  }
  return undefined;
}

/** The programs of node_modules/.bin a line runs (a few), by name or by the path written. */
export function repositoryBins(command: string): Bin[] {
  const bins: Bin[] = [];
  for (const c of simpleCommands(command)) {
    const texts = c.words.map((w) => w.text);
    const bin = binOf(texts, programIndex(c.words));
    if (bin !== undefined && !/^\.\.?$|\//.test(bin.name) && !bins.some((b) => b.name === bin.name && b.in === bin.in))
      bins.push(bin);
    if (bins.length >= MAX) break;
  }
  return bins;
}

/**
 * The programs of node_modules/.bin that `command`, run in `folder`, runs from the workspace:
 * `jest runs node_modules/.bin/jest of the repository (→ node_modules/jest/bin/jest.js)`; undefined when none.
 */
export async function repositoryBinsRun(
  workspaceRoot: string,
  folder: string,
  command: string,
): Promise<string | undefined> {
  const bins = repositoryBins(command);
  if (bins.length === 0) return undefined;
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const shown = (p: string): string => (inside(root, p) ? path.relative(root, p).split(path.sep).join('/') : p);
  const said: string[] = [];
  for (const { name, written, scriptFirst, in: sub } of bins) {
    const from = sub === undefined ? folder : path.resolve(folder, sub);
    if (scriptFirst && (await hasScript(root, from, name))) continue;
    const file = written === undefined ? await findBin(root, from, name) : path.resolve(folder, written);
    if (file === undefined || !inside(root, file)) continue;
    const real = await fsp.realpath(file).catch(() => undefined);
    if (real === undefined || !(await fsp.stat(real).catch(() => undefined))?.isFile()) continue;
    const leads = real === file ? '' : ` (→ ${shown(real)}${inside(root, real) ? '' : ', outside the workspace'})`;
    said.push(`${name} runs ${shown(file)} of the repository${leads}`);
  }
  return said.length === 0 ? undefined : said.join('; ');
}

/** The most bytes of a package.json read (as package-scripts.ts reads it). */
const PACKAGE_READ = 4 * 1024 * 1024;

/** Whether the package.json nearest `folder` (in the workspace `root`) has a script `name`. */
async function hasScript(root: string, folder: string, name: string): Promise<boolean> {
  for (let dir = folder; inside(root, dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    const real = await fsp.realpath(file).catch(() => undefined);
    const head = real === undefined || !inside(root, real) ? undefined : await readFileHead(real, PACKAGE_READ);
    if (head !== undefined) {
      try {
        const scripts = (JSON.parse(head.text) as { scripts?: Record<string, unknown> }).scripts;
        return typeof scripts === 'object' && scripts !== null && typeof scripts[name] === 'string';
      } catch {
        return false;
      }
    }
    if (dir === root) break;
  }
  return false;
}
