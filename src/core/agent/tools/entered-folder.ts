// What a shell can run just by entering a command's folder. Every command first changes to its folder
// (in-folder.ts), and direnv then runs the `.envrc` of that folder or of the nearest folder above it,
// which a cloned repository can ship (`services/api/.envrc`). The approval of a command names them, as
// the approval of an edit to one says it can run programs.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { lookAlikeWarning } from './look-alike';
import { runsCode } from './runs-code';

/** The most folders of one command line looked at (its own and those it changes to). */
const MAX_FOLDERS = 32;

/** Files a shell runs on entering their folder (or one below it). */
const ON_ENTER = new Set(['.envrc']);

function inside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The files of `ON_ENTER` in `folder` and each folder above it up to the workspace root, nearest first,
 * as workspace-relative paths with `/`. Names are compared without case: on macOS and Windows `.ENVRC`
 * is `.envrc`, and listing the folder (rather than looking the name up) finds it on any disk.
 */
async function filesOnEnter(workspaceRoot: string, folder: string): Promise<string[]> {
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const found: string[] = [];
  for (let dir = path.resolve(folder); inside(root, dir); dir = path.dirname(dir)) {
    const names = await fsp.readdir(dir).catch((): string[] => []);
    for (const name of names.filter((n) => ON_ENTER.has(n.toLowerCase())).sort())
      found.push(path.relative(root, path.join(dir, name)).split(path.sep).join('/'));
    if (dir === root) break;
  }
  return found;
}

// `cd x` / `pushd x` at the start of the line or after `;`, `&&`, `||`, `|`, `(`, a newline, `then`, `do`:
// the shell enters `x` too (zsh's direnv hook runs on the change itself, bash's at the next prompt).
const CHANGE = /(?:^|[;&|(\n]|\bthen\b|\bdo\b)\s*(?:cd|pushd)\s+(?:--\s+)?("[^"\n]*"|'[^'\n]*'|[^\s;&|()]+)/g;

/**
 * The folders a command line changes to, as written (quotes removed). Ones a shell would expand (`$`,
 * a backtick, `~`, which leads home: the user's own) or `-` cannot be known here and are left out.
 */
export function foldersChangedTo(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(CHANGE)) {
    const word = m[1]!.replace(/^(["'])(.*)\1$/s, '$2');
    if (word !== '-' && !/[$`]|^~/.test(word)) out.push(word);
  }
  return out;
}

/**
 * Why entering `folder` (a checked, real path inside the workspace), or a folder `command` changes to
 * from there, can run a program the workspace holds, naming the files: `services/api/.envrc: direnv
 * runs it when a shell enters the folder`; or undefined when nothing there does.
 */
export async function runsOnEntering(workspaceRoot: string, folder: string, command = ''): Promise<string | undefined> {
  // At most MAX_FOLDERS different ones: a command line of 10,000 `cd`s must not list 10,000 folders.
  const changed = foldersChangedTo(command).map((p) => path.resolve(folder, p));
  const folders = [...new Set([folder, ...changed])].slice(0, MAX_FOLDERS);
  const files = [...new Set((await Promise.all(folders.map((f) => filesOnEnter(workspaceRoot, f)))).flat())];
  if (files.length === 0) return undefined;
  return `${files.join(', ')}: ${runsCode(files[0]!) ?? 'it can run programs'}`;
}

/**
 * A command's approval title: like an edit's, it warns when the folder can run a program on its own, and
 * when the command holds look-alike letters (`nрm test` with a Cyrillic р).
 */
export function commandApprovalTitle(request: { command?: string; runsCode?: string }): string {
  const lookAlike = request.command === undefined ? undefined : lookAlikeWarning(request.command);
  return `Run this command?${request.runsCode ? ` Careful: ${request.runsCode}.` : ''}${lookAlike ? ` Careful: ${lookAlike}.` : ''}`;
}
