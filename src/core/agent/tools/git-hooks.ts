// `git commit`, `git push`, `git checkout` read as recording, sending or switching work, but run the
// repository's hooks: husky's `.husky/` (core.hooksPath `.husky/_`, whose scripts run `.husky/<hook>`),
// or the hooks folder a shipped repository's config names (git-repository.ts names that setting). The
// approval names the hook files the line will run.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readFileHead } from '../../read-text';
import { configuredHooksPath, userConfigFiles } from './git-hooks-config';
import { isAssignment, programIndex, simpleCommands } from './shell-words';

export { hooksPathOf } from './git-hooks-config';

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

/** A git command of a line that runs hooks: its `-C` folder (relative), verb, hooks, `-c core.hooksPath`, git folder. */
interface HookCommand {
  dir: string;
  verb: string;
  hooks: string[];
  hooksPath?: string;
  gitDir?: string;
}

/** Each git command of a line that runs hooks. */
export function hookCommands(command: string): HookCommand[] {
  const out: HookCommand[] = [];
  let exported: string | undefined;
  for (const c of simpleCommands(command)) {
    const all = c.words.map((w) => w.text);
    const at = programIndex(c.words);
    const [program = '', ...args] = all.slice(at);
    // `GIT_DIR=x git commit`, `export GIT_DIR=x; git commit`: the git folder whose hooks and config are used.
    let gitDir = exported;
    const setting = /^(?:export|declare|typeset)$/.test(program) || at === all.length;
    for (const w of setting ? all : all.slice(0, at)) if (w.startsWith('GIT_DIR=')) gitDir = w.slice(8);
    if (setting) exported = gitDir;
    if (path.basename(program) !== 'git') continue;
    const dirs: string[] = [];
    let hooksPath: string | undefined;
    let i = 0;
    for (; i < args.length && args[i]!.startsWith('-'); i++)
      if (args[i] === '-C') dirs.push(args[++i] ?? '');
      else if (args[i] === '--git-dir') gitDir = args[++i];
      else if (args[i]!.startsWith('--git-dir=')) gitDir = args[i]!.slice(10);
      else if (args[i] === '-c') {
        const m = /^core\.hookspath=(.*)$/is.exec(args[++i] ?? '');
        if (m) hooksPath = m[1];
      } else if (/^(?:--namespace|--config-env|--work-tree)$/.test(args[i]!)) i++;
    const verb = args[i] ?? '';
    if (!Object.hasOwn(HOOKS, verb)) continue;
    const rest = args.slice(i + 1);
    const noVerify =
      rest.includes('--no-verify') ||
      (verb === 'commit' && rest.some((w) => /^-[a-zA-Z]*n/.test(w) && !w.startsWith('--')));
    const hooks = HOOKS[verb]!.filter((h) => !(noVerify && h.startsWith('!'))).map((h) => h.replace('!', ''));
    const from = dirs.map((d) => path.isAbsolute(d)).lastIndexOf(true);
    const dir = path.normalize((from === -1 ? ['.', ...dirs] : dirs.slice(from)).join('/'));
    out.push({
      dir,
      verb,
      hooks,
      ...(hooksPath === undefined ? {} : { hooksPath }),
      ...(gitDir === undefined ? {} : { gitDir }),
    });
    if (out.length >= MAX) break;
  }
  return out;
}

/** Every hook name git runs (of HOOKS). */
const HOOK_NAMES = new Set(Object.values(HOOKS).flatMap((hs) => hs.map((h) => h.replace('!', ''))));
/** The most hooks folders a line sets that are looked in (its last ones). */
const MAX_SET = 8;

/**
 * What a line does to the hooks its git commands then run: the hooks folders it sets (`git config
 * core.hooksPath x`, `GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=x`), and the words that may be
 * hook files it writes (`cp x .git/hooks/pre-commit`, `> h/pre-push`) or hooks folders it copies into.
 */
export function lineHooks(command: string): { paths: string[]; written: string[] } {
  const paths = new Set<string>();
  const written = new Set<string>();
  const keys = new Map<string, string>();
  for (const c of simpleCommands(command)) {
    const texts = c.words.map((w) => w.text);
    const at = programIndex(c.words);
    const [program = '', ...args] = texts.slice(at);
    if (path.basename(program) === 'git') {
      const k = args.findIndex((a) => /^core\.hookspath$/i.test(a));
      if (k !== -1 && args.slice(0, k).includes('config') && !args.some((a) => a.startsWith('--unset')))
        if (args[k + 1] !== undefined) paths.add(args[k + 1]!);
    }
    // Settings given to git through the environment, on this command or exported for the next ones.
    for (const t of texts) {
      if (!isAssignment(t)) continue;
      const m = /^GIT_CONFIG_(KEY|VALUE)_(\d+)=(.*)$/s.exec(t);
      if (m?.[1] === 'KEY' && /^core\.hookspath$/i.test(m[3]!)) keys.set(m[2]!, '');
      else if (m?.[1] === 'VALUE' && keys.has(m[2]!)) paths.add(m[3]!);
    }
    for (const w of [...texts.slice(at + 1), ...c.redirects.map((r) => r.target.text)]) {
      const base = path.basename(w);
      if (HOOK_NAMES.has(base) || /(?:^|\/)(?:hooks|\.husky|_)\/?$/.test(w) || w.endsWith('/')) written.add(w);
    }
  }
  // Every word is kept (a cap would let padding push the real one out); they are looked up, not scanned.
  return { paths: [...paths].slice(-MAX_SET), written: [...written] };
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

/** The repository of a git folder named on the line (`--git-dir`, GIT_DIR), from the folder git runs in. */
async function gitDirOf(from: string, gitDir: string): Promise<{ top: string; common: string } | undefined> {
  const own = await fsp.realpath(path.resolve(from, home(gitDir))).catch(() => undefined);
  if (own === undefined) return undefined;
  const common = (await readFileHead(path.join(own, 'commondir'), CONFIG_READ))?.text.trim();
  return { top: from, common: common ? path.resolve(own, common) : own };
}

/** Hook frameworks whose installed hook runs what a config file of the working tree names. */
const FRAMEWORKS: [RegExp, string[]][] = [
  [/File generated by pre-commit|pre-commit\.com/, ['.pre-commit-config.yaml', '.pre-commit-config.yml']],
  [/lefthook/, ['lefthook.yml', 'lefthook.yaml', '.lefthook.yml', '.lefthook.yaml', 'lefthook-local.yml']],
];
/** The most bytes of a hook read for the framework that installed it. */
const HOOK_READ = 4 * 1024;

/** The config files (in the working tree `top`) that the framework which installed `hook` runs. */
async function frameworkConfigs(hook: string, top: string): Promise<string[]> {
  const text = (await readFileHead(hook, HOOK_READ))?.text ?? '';
  const out: string[] = [];
  for (const [marker, names] of FRAMEWORKS)
    if (marker.test(text))
      for (const name of names) if (await isFile(path.join(top, name), false)) out.push(path.join(top, name));
  return out;
}

const isFile = async (p: string, executable: boolean): Promise<boolean> => {
  const st = await fsp.stat(p).catch(() => undefined);
  return st !== undefined && st.isFile() && (!executable || (st.mode & 0o111) !== 0);
};

/**
 * The hook files the git commands of `command`, run in `folder`, run: `git commit runs git hooks:
 * .husky/_/pre-commit (with .husky/pre-commit)`, with hooks the line itself writes or points git at
 * first; undefined when none.
 */
export async function gitHooksRun(workspaceRoot: string, folder: string, command: string): Promise<string | undefined> {
  const commands = hookCommands(command);
  if (commands.length === 0) return undefined;
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const shown = (p: string): string => {
    const rel = path.relative(root, p);
    return rel.startsWith('..') || path.isAbsolute(rel) ? p : rel.split(path.sep).join('/');
  };
  const line = lineHooks(command);
  const start = await fsp.realpath(folder).catch(() => path.resolve(folder));
  // What the line writes, by where it lands: files by path, and the names copied into a folder.
  const writes = new Set(line.written.map((w) => path.resolve(start, home(w))));
  const names = new Set(line.written.map((w) => path.basename(w)));
  const said: string[] = [];
  for (const { dir, verb, hooks, hooksPath, gitDir } of commands) {
    const from = await fsp.realpath(path.resolve(folder, dir)).catch(() => undefined);
    const named = from === undefined || gitDir === undefined ? undefined : await gitDirOf(from, gitDir);
    const repo = named ?? (from === undefined || gitDir !== undefined ? undefined : await repositoryOf(from));
    if (repo === undefined) continue;
    const set =
      hooksPath ?? (await configuredHooksPath([...userConfigFiles(), path.join(repo.common, 'config')]))?.value;
    const folders = [
      set === undefined || set === '' ? path.join(repo.common, 'hooks') : path.resolve(repo.top, home(set)),
    ];
    for (const p of line.paths)
      if (!folders.includes(path.resolve(repo.top, home(p)))) folders.push(path.resolve(repo.top, home(p)));
    const found: string[] = [];
    for (const hooksDir of folders)
      for (const hook of hooks) {
        const file = path.join(hooksDir, hook);
        const named = await hookFile(file, hooksDir, hook, repo.top, shown);
        if (named !== undefined) found.push(named);
        else if (writes.has(file) || (writes.has(hooksDir) && names.has(hook)))
          found.push(`${shown(file)} (written by this line)`);
      }
    const text = `git ${verb} runs git hooks: ${[...new Set(found)].join(', ')}`;
    if (found.length > 0 && !said.includes(text)) said.push(text);
  }
  return said.length === 0 ? undefined : said.join('; ');
}

/** How the hook `file` (of `hooksDir`) is named when it is there to run, with what it runs in turn. */
async function hookFile(
  file: string,
  hooksDir: string,
  hook: string,
  top: string,
  shown: (p: string) => string,
): Promise<string | undefined> {
  if (!(await isFile(file, true))) return undefined;
  // husky's `.husky/_/<hook>` runs `.husky/<hook>` (as a shell script: it needs no mode).
  const husky = path.join(path.dirname(hooksDir), hook);
  const also = path.basename(hooksDir) === '_' && (await isFile(husky, false)) ? [husky] : [];
  for (const config of await frameworkConfigs(file, top)) also.push(config);
  return `${shown(file)}${also.length > 0 ? ` (with ${also.map(shown).join(', ')})` : ''}`;
}

/** `~/x` as the shell and git read it: in the home folder. */
const home = (p: string): string => (p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p);
