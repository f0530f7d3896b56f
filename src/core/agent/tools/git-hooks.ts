// `git commit`, `git push`, `git checkout` read as recording, sending or switching work, but run the
// repository's hooks: husky's `.husky/` (core.hooksPath `.husky/_`, whose scripts run `.husky/<hook>`),
// or the hooks folder a shipped repository's config names (git-repository.ts names that setting). The
// approval names the hook files the line will run.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readFileHead } from './file-head';
import { programIndex, simpleCommands } from './shell-words';

/** The hooks each git command runs; those `--no-verify` skips are marked with `!`. */
const HOOKS: Record<string, string[]> = {
  commit: ['!pre-commit', 'prepare-commit-msg', '!commit-msg', 'post-commit', 'post-rewrite'],
  merge: ['!pre-merge-commit', 'prepare-commit-msg', '!commit-msg', 'post-merge'],
  pull: ['!pre-merge-commit', 'prepare-commit-msg', '!commit-msg', 'post-merge', 'post-checkout', 'pre-rebase'],
  push: ['!pre-push', 'reference-transaction'],
  checkout: ['post-checkout'],
  switch: ['post-checkout'],
  rebase: ['pre-rebase', 'post-checkout', 'post-rewrite'],
  am: ['!applypatch-msg', '!pre-applypatch', 'post-applypatch', 'post-rewrite'],
  'cherry-pick': ['prepare-commit-msg', 'post-commit'],
  revert: ['prepare-commit-msg', 'post-commit'],
  worktree: ['post-checkout'],
  gc: ['pre-auto-gc'],
};
/** The most git commands of one line looked at, and bytes of a config or `.git` file read. */
const MAX = 4;
const CONFIG_READ = 64 * 1024;
/** How many folders up a repository is looked for. */
const MAX_UP = 64;

/** Each git command of a line that runs hooks: its `-C` folder (relative), verb and hooks. */
export function hookCommands(command: string): { dir: string; verb: string; hooks: string[] }[] {
  const out: { dir: string; verb: string; hooks: string[] }[] = [];
  for (const c of simpleCommands(command)) {
    const [program = '', ...args] = c.words.slice(programIndex(c.words)).map((w) => w.text);
    if (path.basename(program) !== 'git') continue;
    const dirs: string[] = [];
    let i = 0;
    for (; i < args.length && args[i]!.startsWith('-'); i++)
      if (args[i] === '-C') dirs.push(args[++i] ?? '');
      else if (/^(?:-c|--namespace|--config-env|--git-dir|--work-tree)$/.test(args[i]!)) i++;
    const verb = args[i] ?? '';
    if (!Object.hasOwn(HOOKS, verb)) continue;
    const rest = args.slice(i + 1);
    const noVerify =
      rest.includes('--no-verify') ||
      (verb === 'commit' && rest.some((w) => /^-[a-zA-Z]*n/.test(w) && !w.startsWith('--')));
    const hooks = HOOKS[verb]!.filter((h) => !(noVerify && h.startsWith('!'))).map((h) => h.replace('!', ''));
    const from = dirs.map((d) => path.isAbsolute(d)).lastIndexOf(true);
    out.push({ dir: path.normalize((from === -1 ? ['.', ...dirs] : dirs.slice(from)).join('/')), verb, hooks });
    if (out.length >= MAX) break;
  }
  return out;
}

/** core.hooksPath as a git config's text sets it (the last one), or undefined. */
export function hooksPathOf(text: string): string | undefined {
  let section = '';
  let found: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('['))
      section = line
        .slice(1, line.indexOf(']') === -1 ? undefined : line.indexOf(']'))
        .trim()
        .toLowerCase();
    else if (section === 'core' && /^hookspath\s*=/i.test(line)) {
      const value = line.slice(line.indexOf('=') + 1).trim();
      found = value.startsWith('"') && value.endsWith('"') && value.length > 1 ? value.slice(1, -1) : value;
    }
  }
  return found;
}

/** The repository git finds from `start`: its working tree's top and the folder holding its config and hooks. */
async function repositoryOf(start: string): Promise<{ top: string; common: string } | undefined> {
  let dir = start;
  for (let up = 0; up < MAX_UP; up++, dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const st = await fsp.stat(dotGit).catch(() => undefined);
    if (st?.isDirectory()) return { top: dir, common: dotGit };
    if (st?.isFile()) {
      // A worktree or submodule: `gitdir: …`, whose commondir (if any) holds the config and hooks.
      const gitdir = /^gitdir:[ \t]*(.+)$/m.exec((await readFileHead(dotGit, CONFIG_READ))?.text ?? '')?.[1]?.trim();
      if (gitdir === undefined) return undefined;
      const own = path.resolve(dir, gitdir);
      const common = (await readFileHead(path.join(own, 'commondir'), CONFIG_READ))?.text.trim();
      return { top: dir, common: common ? path.resolve(own, common) : own };
    }
    if (path.dirname(dir) === dir) break;
  }
  return undefined;
}

const isFile = async (p: string, executable: boolean): Promise<boolean> => {
  const st = await fsp.stat(p).catch(() => undefined);
  return st !== undefined && st.isFile() && (!executable || (st.mode & 0o111) !== 0);
};

/**
 * The hook files the git commands of `command`, run in `folder`, run: `git commit runs git hooks:
 * .husky/_/pre-commit (with .husky/pre-commit)`; undefined when none.
 */
export async function gitHooksRun(workspaceRoot: string, folder: string, command: string): Promise<string | undefined> {
  const commands = hookCommands(command);
  if (commands.length === 0) return undefined;
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const shown = (p: string): string => {
    const rel = path.relative(root, p);
    return rel.startsWith('..') || path.isAbsolute(rel) ? p : rel.split(path.sep).join('/');
  };
  const said: string[] = [];
  for (const { dir, verb, hooks } of commands) {
    const start = await fsp.realpath(path.resolve(folder, dir)).catch(() => undefined);
    const repo = start === undefined ? undefined : await repositoryOf(start);
    if (repo === undefined) continue;
    const config = await readFileHead(path.join(repo.common, 'config'), CONFIG_READ);
    const set = hooksPathOf(config?.text ?? '');
    const hooksDir =
      set === undefined || set === ''
        ? path.join(repo.common, 'hooks')
        : path.resolve(repo.top, set.startsWith('~/') ? path.join(os.homedir(), set.slice(2)) : set);
    const found: string[] = [];
    for (const hook of hooks) {
      if (!(await isFile(path.join(hooksDir, hook), true))) continue;
      // husky's `.husky/_/<hook>` runs `.husky/<hook>` (as a shell script: it needs no mode).
      const husky = path.join(path.dirname(hooksDir), hook);
      const also = path.basename(hooksDir) === '_' && (await isFile(husky, false)) ? ` (with ${shown(husky)})` : '';
      found.push(`${shown(path.join(hooksDir, hook))}${also}`);
    }
    const line = `git ${verb} runs git hooks: ${found.join(', ')}`;
    if (found.length > 0 && !said.includes(line)) said.push(line);
  }
  return said.length === 0 ? undefined : said.join('; ');
}
