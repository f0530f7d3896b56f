// What a shell can run just by entering a command's folder. Every command first changes to its folder
// (in-folder.ts), and direnv then runs the `.envrc` of that folder or of the nearest folder above it,
// which a cloned repository can ship (`services/api/.envrc`). The approval of a command names them, as
// the approval of an edit to one says it can run programs.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runsCode } from './runs-code';

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

/**
 * Why entering `folder` (a checked, real path inside the workspace) can run a program the workspace
 * holds, naming the files: `services/api/.envrc: direnv runs it when a shell enters the folder`; or
 * undefined when nothing there does.
 */
export async function runsOnEntering(workspaceRoot: string, folder: string): Promise<string | undefined> {
  const files = await filesOnEnter(workspaceRoot, folder);
  if (files.length === 0) return undefined;
  return `${files.join(', ')}: ${runsCode(files[0]!) ?? 'it can run programs'}`;
}

/** A command's approval title: like an edit's, it warns when the folder can run a program on its own. */
export function commandApprovalTitle(request: { runsCode?: string }): string {
  return `Run this command?${request.runsCode ? ` Careful: ${request.runsCode}.` : ''}`;
}
