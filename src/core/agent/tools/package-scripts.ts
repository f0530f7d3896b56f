// `npm test` runs whatever the repository's package.json names as its test script (and pretest,
// posttest); `npm install` runs its preinstall, install, postinstall and prepare scripts. The approval
// shows `npm test`, which reads as "run the tests"; it also names the scripts that line runs, as the
// package.json nearest the command's folder has them, and settings beside it that make the package
// manager run another program (`.yarnrc.yml`'s yarnPath, `.npmrc`'s script-shell).
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { readFileHead, type FileHead } from '../../read-text';
import { folderChanges } from './folder-changes';
import { gitHooksRun } from './git-hooks';
import { buildFilesRun } from './build-files';
import { composeFilesRun } from './compose-files';
import { makeRecipesRun } from './make-recipes';
import { pythonBuildsRun } from './python-build';
import { repositoryCodeRun } from './repository-code';
import { MANAGER_OWN, repositoryBinsRun } from './repository-bins';
import { programIndex, simpleCommands } from './shell-words';

/** Lifecycle scripts an install runs in the project itself, in order. */
const INSTALL = ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare'];
/** npm's aliases of its script commands. */
const NPM: Record<string, string> = {
  t: 'test',
  tst: 'test',
  test: 'test',
  start: 'start',
  stop: 'stop',
  restart: 'restart',
};
/** The most characters of one script shown. */
const SHOWN = 160;

/** The script names a package-manager command line runs, or undefined when it runs none we can tell. */
function scriptsRun(words: string[]): string[] | undefined {
  const [tool, ...rest] = words;
  // Options that pick other packages (`-w api`, `--filter`, `-r`) leave it unknown.
  if (rest.some((w) => /^(?:-w|--workspace|--workspaces|--filter|-F|-r|--recursive)(?:=|$)/.test(w))) return undefined;
  const args = rest.filter((w) => !w.startsWith('-'));
  const [verb, name] = args;
  if (tool === 'npm' || tool === 'pnpm' || tool === 'yarn' || tool === 'bun') {
    if (verb === undefined) return tool === 'yarn' ? INSTALL : undefined;
    if (['install', 'i', 'ci', 'add'].includes(verb) && (tool !== 'bun' || verb !== 'add') && args.length === 1)
      return INSTALL;
    if (['run', 'run-script', 'rum', 'urn'].includes(verb))
      return name === undefined ? undefined : [`pre${name}`, name, `post${name}`];
    if (tool !== 'bun' && NPM[verb]) return [`pre${NPM[verb]}`, NPM[verb], `post${NPM[verb]}`];
    // `yarn build`, `pnpm lint`: a word that is not their own command runs the script of that name.
    if ((tool === 'yarn' || tool === 'pnpm') && !MANAGER_OWN.test(verb)) return [`pre${verb}`, verb, `post${verb}`];
  }
  return undefined;
}

/** Options that run a package manager in another folder: `npm --prefix x`, `pnpm -C x`, `yarn --cwd x`. */
const IN_FOLDER = /^(?:--prefix|-C|--cwd|--dir)$/;

/**
 * Each npm-like command of a line, from its program word on (quotes removed), without the option that
 * names another folder; `folder` is that folder (`npm --prefix api test` runs api/package.json's test).
 */
function managerCommands(command: string): { words: string[]; folder: string }[] {
  return simpleCommands(command)
    .map((c) => c.words.slice(programIndex(c.words)).map((w) => w.text))
    .filter((words) => /^(?:npm|pnpm|yarn|bun)$/.test(words[0] ?? ''))
    .map((all) => {
      let folder = '.';
      const words = all.filter((w, i) => {
        const [option, value] = w.split(/=(.*)/s);
        if (IN_FOLDER.test(option!) && value !== undefined) folder = value;
        else if (IN_FOLDER.test(w) && i + 1 < all.length) folder = all[i + 1]!;
        else return !(i > 0 && IN_FOLDER.test(all[i - 1]!));
        return false;
      });
      return { words, folder };
    });
}

/** The most bytes of a package.json (or a manager's settings file) read: real ones are a few KB. */
const PACKAGE_READ = 4 * 1024 * 1024;

/** The start of `file` when it (or where a link there leads) is in the workspace `root`, else undefined. */
async function readInside(root: string, file: string): Promise<FileHead | undefined> {
  const real = await fsp.realpath(file).catch(() => undefined);
  const rel = real === undefined ? '..' : path.relative(root, real);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return readFileHead(real!, PACKAGE_READ);
}

/**
 * Settings next to a package.json that make its package manager run another program than it seems: npm's
 * `script-shell` (the shell every script runs in), `node-options`, `git` and `shell`, yarn's `yarnPath`
 * (the file every yarn command runs) and `plugins` (files it loads on every command), a pnpmfile (run on install), bun's `preload`.
 */
const MANAGER_SETTINGS: [file: string, setting: RegExp][] = [
  ['.npmrc', /^[ \t]*(script-shell|node-options|onload-script|git|shell)[ \t]*=/im],
  ['.yarnrc.yml', /^[ \t]*(yarnPath|plugins)[ \t]*:/m],
  ['.yarnrc', /^[ \t]*(yarn-path)[ \t]/m],
  ['.pnpmfile.cjs', /^/],
  ['.pnpmfile.mjs', /^/],
  ['bunfig.toml', /^[ \t]*(preload)[ \t]*=/m],
];

/** Which of MANAGER_SETTINGS the folder `dir` (workspace-relative `shown`) holds: `.npmrc sets script-shell`. */
async function managerSettings(root: string, dir: string, shown: string): Promise<string[]> {
  const found: string[] = [];
  for (const [file, setting] of MANAGER_SETTINGS) {
    const text = (await readInside(root, path.join(dir, file)))?.text;
    const m = text === undefined ? null : setting.exec(text);
    if (m) found.push(`${shown}${file}${m[1] ? ` sets ${m[1]}` : ''}`);
  }
  return found;
}

/** The nearest package.json at or above `folder`, up to the workspace root: its scripts and path. */
async function nearestScripts(
  root: string,
  folder: string,
): Promise<{ file: string; scripts: Record<string, unknown>; tooLarge?: true } | undefined> {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    const head = await readInside(root, file);
    if (head !== undefined) {
      const shown = path.relative(root, file).split(path.sep).join('/');
      // Not read whole, its scripts are not known: said so, not taken for a package.json without them.
      if (head.cut) return { file: shown, scripts: {}, tooLarge: true };
      try {
        const json = JSON.parse(head.text) as { scripts?: unknown };
        const scripts =
          json.scripts && typeof json.scripts === 'object' ? (json.scripts as Record<string, unknown>) : {};
        return { file: shown, scripts };
      } catch {
        return undefined;
      }
    }
    const rel = path.relative(root, dir);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  }
}

/**
 * The package.json scripts `command`, run in `folder` (checked, inside the workspace), runs through npm,
 * pnpm, yarn or bun: `package.json scripts it may run: pretest: "node x.js"; test: "jest"` (pnpm and
 * yarn 2+ skip pre/post scripts unless told to, so they are named as "may"), with what else its tools
 * run from the repository; undefined when it runs none. When the line changes folder first, which
 * package.json then runs is not known here: only the other files are named (repositoryFilesRun).
 */
export async function packageScriptsRun(
  workspaceRoot: string,
  folder: string,
  command: string,
): Promise<string | undefined> {
  const changes = folderChanges(command);
  if (changes.known.length > 0 || changes.unknown.length > 0) return repositoryFilesRun(workspaceRoot, folder, command);
  // The Makefile recipes a make in the line runs are named beside them (make-recipes.ts).
  const named = [
    await managerScripts(workspaceRoot, folder, command),
    await makeRecipesRun(workspaceRoot, folder, command),
    await repositoryFilesIn(workspaceRoot, folder, command),
  ];
  return named.filter(Boolean).join('; ') || undefined;
}

/** The repository files the tools of `command` run in `folder`: build files, .bin programs, builds, hooks. */
async function repositoryFilesIn(workspaceRoot: string, folder: string, command: string): Promise<string | undefined> {
  const named = [
    await buildFilesRun(workspaceRoot, folder, command),
    await repositoryCodeRun(workspaceRoot, folder, command),
    await repositoryBinsRun(workspaceRoot, folder, command),
    await pythonBuildsRun(workspaceRoot, folder, command),
    await composeFilesRun(workspaceRoot, folder, command),
    await gitHooksRun(workspaceRoot, folder, command),
  ];
  return named.filter(Boolean).join('; ') || undefined;
}

/**
 * For a line that changes folder (`cd lib && git commit`): what its tools run from the repository, read
 * in the start folder and in each known folder it enters (a few) in the workspace, since which command
 * runs where is not followed here. The package.json scripts are not named: which one runs is not known.
 */
async function repositoryFilesRun(workspaceRoot: string, folder: string, command: string): Promise<string | undefined> {
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const folders = [...new Set([folder, ...folderChanges(command).known.map((k) => path.resolve(folder, k))])];
  const said: string[] = [];
  for (const f of folders.slice(0, 4)) {
    const place = await placeOf(root, f);
    if (place.outside || !(await fsp.stat(place.real).catch(() => undefined))?.isDirectory()) continue;
    const named = await repositoryFilesIn(workspaceRoot, place.real, command);
    for (const n of named?.split('; ') ?? []) if (!said.includes(n)) said.push(n);
  }
  return said.join('; ') || undefined;
}

/** The real folder `folder` leads to, and whether it is outside the workspace `root`. */
async function placeOf(root: string, folder: string): Promise<{ real: string; outside: boolean }> {
  const real = await fsp.realpath(folder).catch(() => path.resolve(folder));
  const rel = path.relative(root, real);
  return { real, outside: rel.startsWith('..') || path.isAbsolute(rel) };
}

async function managerScripts(workspaceRoot: string, folder: string, command: string): Promise<string | undefined> {
  const commands = managerCommands(command);
  if (commands.length === 0) return undefined;
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const tool = commands[0]!.words[0]!;
  // One folder's package.json is shown: a line running managers in two folders is not read here, but
  // each folder of them outside the workspace is named (a few: a hostile line may name thousands).
  const folders = new Set(commands.map((c) => c.folder));
  if (folders.size > 1) {
    const places = await Promise.all([...folders].slice(0, 8).map((f) => placeOf(root, path.resolve(folder, f))));
    const outside = [...new Set(places.filter((p) => p.outside).map((p) => p.real))];
    return outside.length === 0 ? undefined : `${tool} runs in ${outside.join(', ')}, outside the workspace`;
  }
  const names = [...new Set(commands.flatMap((c) => scriptsRun(c.words) ?? []))];
  // `npm --prefix ../other test` runs that folder's package.json: named with the folder, read there.
  const place = await placeOf(root, path.resolve(folder, [...folders][0]!));
  const base = place.outside ? place.real : root;
  const found = await nearestScripts(base, place.outside ? place.real : path.resolve(folder, [...folders][0]!));
  const where = place.outside ? `${tool} runs in ${place.real}, outside the workspace` : '';
  if (!found) return where || undefined;
  const dir = path.posix.dirname(found.file);
  const prefix = place.outside ? 'its ' : dir === '.' ? '' : `${dir}/`;
  const settings = await managerSettings(base, path.join(base, dir), prefix);
  const swapped = settings.length === 0 ? '' : `${settings.join(', ')}: the package manager runs another program`;
  const shown = names
    .filter((n) => typeof found.scripts[n] === 'string')
    .map((n) => {
      const script = found.scripts[n] as string;
      return `${n}: ${JSON.stringify(script.length > SHOWN ? `${script.slice(0, SHOWN)}…` : script)}`;
    });
  const file = place.outside ? 'its package.json' : found.file;
  const scripts = found.tooLarge
    ? `${file} is too large to read here (over ${PACKAGE_READ / 1024 / 1024} MB): the scripts it may run are not shown`
    : shown.length === 0
      ? ''
      : `${file} scripts it may run: ${shown.join('; ')}`;
  const named = [scripts, swapped].filter(Boolean).join('; ');
  return where && named ? `${where}: ${named}` : where || named || undefined;
}
