// Where git looks for hooks is core.hooksPath as the configs git reads set it, the last one winning:
// the system's (/etc/gitconfig), the user's ($XDG_CONFIG_HOME/git/config, ~/.gitconfig, or
// $GIT_CONFIG_GLOBAL), then the repository's; each with the files its `include.path` and
// `includeIf.<cond>.path` name (followed whatever the condition, a few deep: a hooks folder that may
// apply is named rather than missed).
import * as os from 'node:os';
import * as path from 'node:path';
import { readFileHead } from '../../read-text';

/** The most bytes of a config read, config files read for one repository, and how deep includes go. */
const CONFIG_READ = 64 * 1024;
const MAX_FILES = 12;
const MAX_INCLUDE_DEPTH = 4;

/** core.hooksPath settings and include paths of a git config's text, in order. */
export function configEntries(text: string): { hooksPath?: string; include?: string }[] {
  const out: { hooksPath?: string; include?: string }[] = [];
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      const close = line.indexOf(']');
      // `[includeIf "gitdir:~/x/"]` is the includeIf section: its subsection is the condition.
      section = (close === -1 ? line.slice(1) : line.slice(1, close)).trim().split(/[\s"]/)[0]!.toLowerCase();
      continue;
    }
    const eq = line.indexOf('=');
    if (eq === -1) continue;
    const key = line.slice(0, eq).trim().toLowerCase();
    let value = line.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length > 1) value = value.slice(1, -1);
    if (section === 'core' && key === 'hookspath') out.push({ hooksPath: value });
    else if ((section === 'include' || section === 'includeif') && key === 'path') out.push({ include: value });
  }
  return out;
}

/** core.hooksPath as a git config's text sets it (the last one), or undefined. */
export function hooksPathOf(text: string): string | undefined {
  let found: string | undefined;
  for (const e of configEntries(text)) if (e.hooksPath !== undefined) found = e.hooksPath;
  return found;
}

const home = (p: string): string => (p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p);

/** The config files git reads before a repository's own, in its order. */
export function userConfigFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  const system = env.GIT_CONFIG_NOSYSTEM ? [] : [env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig'];
  if (env.GIT_CONFIG_GLOBAL !== undefined) return [...system, home(env.GIT_CONFIG_GLOBAL)];
  const xdg = env.XDG_CONFIG_HOME ? path.join(env.XDG_CONFIG_HOME, 'git', 'config') : home('~/.config/git/config');
  return [...system, xdg, home('~/.gitconfig')];
}

/**
 * core.hooksPath as the `files` (read in order, with their includes) leave it, and the file that set
 * it (a relative hooks path is the repository's, a config's `~/` the home folder's).
 */
export async function configuredHooksPath(files: string[]): Promise<{ value: string; from: string } | undefined> {
  let found: { value: string; from: string } | undefined;
  let read = 0;
  const visit = async (file: string, depth: number): Promise<void> => {
    if (read >= MAX_FILES) return;
    read++;
    const text = (await readFileHead(file, CONFIG_READ).catch(() => undefined))?.text;
    if (text === undefined) return;
    for (const e of configEntries(text)) {
      if (e.hooksPath !== undefined) found = { value: home(e.hooksPath), from: file };
      else if (e.include !== undefined && depth < MAX_INCLUDE_DEPTH)
        await visit(path.resolve(path.dirname(file), home(e.include)), depth + 1);
    }
  };
  for (const file of files) await visit(file, 0);
  return found;
}
