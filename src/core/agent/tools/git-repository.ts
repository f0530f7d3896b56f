// A cloned repository can ship a repository of its own: a bare one (`vendor/evil.git`, which git finds
// as it would any) or a folder with its own `.git`. git run in or below it takes that repository's
// config, whose core.fsmonitor, core.hooksPath, aliases or pager run programs, though the line reads as
// `git status`. The approval names that config and what it sets (the workspace's own repository is not
// looked at: a clone's .git/config is written by git, not by the repository).
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { inside } from './inside';
import { readFileHead } from '../../read-text';
import { folderChanges } from './folder-changes';
import { GIT_RUNS } from './loaded-code';
import { programIndex, simpleCommands } from './shell-words';

/** The most folders of one line looked from, and bytes of one config read. */
const MAX_FOLDERS = 8;
const CONFIG_READ = 64 * 1024;

/** The `-C` folder of each git command of `command`, relative to where it runs ('.' without one). */
function gitFolders(command: string): string[] {
  const out = new Set<string>();
  for (const c of simpleCommands(command)) {
    const [program = '', ...args] = c.words.slice(programIndex(c.words)).map((w) => w.text);
    if (path.basename(program) !== 'git') continue;
    const dirs: string[] = [];
    for (let i = 0; i < args.length && args[i]!.startsWith('-'); i++)
      if (args[i] === '-C') dirs.push(args[++i] ?? '');
      else if (/^(?:-c|--namespace|--config-env|--git-dir|--work-tree)$/.test(args[i]!)) i++;
    const from = dirs.map((d) => path.isAbsolute(d)).lastIndexOf(true);
    out.add(path.normalize((from === -1 ? ['.', ...dirs] : dirs.slice(from)).join('/')));
    if (out.size >= MAX_FOLDERS) break;
  }
  return [...out];
}

const isFile = async (p: string): Promise<boolean> => (await fsp.stat(p).catch(() => undefined))?.isFile() ?? false;
const isDir = async (p: string): Promise<boolean> => (await fsp.stat(p).catch(() => undefined))?.isDirectory() ?? false;

/** The config of the repository git finds from `dir`, when that is one the workspace `root` ships. */
async function shippedConfig(root: string, dir: string): Promise<string | undefined> {
  for (let d = dir; inside(root, d) && d !== root; d = path.dirname(d)) {
    if (await isFile(path.join(d, '.git', 'config'))) return path.join(d, '.git', 'config');
    // A bare repository: git takes a folder with HEAD, objects/ and refs/ as one.
    if (
      (await isFile(path.join(d, 'HEAD'))) &&
      (await isDir(path.join(d, 'objects'))) &&
      (await isFile(path.join(d, 'config')))
    )
      return path.join(d, 'config');
  }
  return undefined;
}

/** The settings in a git config's text that run a program (GIT_RUNS), as `section.key` or `section.sub.key`. */
export function settingsThatRun(text: string): string[] {
  const found = new Set<string>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[\s*([\w.-]+)(?:\s+"([^"]*)")?\s*\]/.exec(line);
    if (header) section = header[2] === undefined ? header[1]! : `${header[1]!}.${header[2]}`;
    else {
      const key = /^([A-Za-z][\w-]*)\s*(?:=|$)/.exec(line)?.[1];
      if (key !== undefined && section !== '' && GIT_RUNS.test(`${section}.${key}`)) found.add(`${section}.${key}`);
    }
    if (found.size >= 8) break;
  }
  return [...found];
}

/**
 * Repositories the workspace ships that git in `command`, run in `folder`, would use, with the settings of
 * their config that run programs: `vendor/evil.git/config sets core.fsmonitor: git runs what it names`.
 */
export async function shippedRepositories(workspaceRoot: string, folder: string, command: string): Promise<string[]> {
  const gits = gitFolders(command);
  if (gits.length === 0) return [];
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const starts = [folder, ...folderChanges(command).known.map((f) => path.resolve(folder, f))].slice(0, MAX_FOLDERS);
  const configs = new Set<string>();
  for (const start of starts)
    for (const g of gits) {
      const dir = await fsp.realpath(path.resolve(start, g)).catch(() => path.resolve(start, g));
      const config = await shippedConfig(root, dir);
      if (config !== undefined) configs.add(config);
    }
  const out: string[] = [];
  for (const config of configs) {
    const head = await readFileHead(config, CONFIG_READ);
    if (head === undefined) continue;
    const settings = settingsThatRun(head.text);
    const shown = path.relative(root, config).split(path.sep).join('/');
    if (settings.length > 0) out.push(`${shown} sets ${settings.join(', ')}: git runs what it names`);
  }
  return out;
}
