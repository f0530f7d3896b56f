// What a shell can run just by entering a command's folder. Every command first changes to its folder
// (in-folder.ts); direnv then runs the `.envrc` of that folder or of the nearest folder above it, and
// mise (when the shell activates it) the hooks and `[env]` scripts (`_.source`) of its config files
// there and in every folder above. A cloned repository can ship either (`services/api/.envrc`,
// `tools/.config/mise/config.toml`). The approval of a command names them, as the approval of an edit
// to one says it can run programs, and says when the line enters a folder that cannot be known.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { inside } from './inside';
import { readFileHead } from '../../read-text';
import { folderChanges } from './folder-changes';
import { shippedRepositories } from './git-repository';
import { loadedCodeWarning } from './loaded-code';
import { lookAlikeWarning } from './look-alike';
import { ON_ENTER } from './runs-code';
import { simpleCommands } from './shell-words';

export { foldersChangedTo } from './folder-changes';

/** The most folders of one command line looked at (its own and those it changes to). */
const MAX_FOLDERS = 32;

/** Sub-folders config files are looked for in (`.config/mise/conf.d`), compared without case. */
const CONFIG_FOLDERS = new Set(['.config', '.mise', 'mise', 'conf.d']);

/**
 * Paths below `dir` (with `/`, at most three folders deep) that may be config files: listed, not looked
 * up. A sub-folder that is a link is followed only where it stays in the workspace (`root`): nothing
 * outside it is read because of a repository.
 */
async function candidates(root: string, dir: string, prefix = '', depth = 0): Promise<string[]> {
  const names = await fsp.readdir(path.join(dir, prefix)).catch((): string[] => []);
  const out = names.map((n) => prefix + n);
  if (depth < 3)
    for (const n of names.filter((n) => CONFIG_FOLDERS.has(n.toLowerCase()))) {
      const real = await fsp.realpath(path.join(dir, prefix, n)).catch(() => undefined);
      if (real !== undefined && inside(root, real))
        out.push(...(await candidates(root, dir, `${prefix}${n}/`, depth + 1)));
    }
  return out;
}

/**
 * The files of `ON_ENTER` in `folder` and each folder above it up to the workspace root, nearest first,
 * as workspace-relative paths with `/`, each with why it runs. Names are compared without case: on
 * macOS and Windows `.ENVRC` is `.envrc`, and listing the folder (rather than looking the name up) finds
 * it on any disk.
 */
async function filesOnEnter(workspaceRoot: string, folder: string): Promise<[string, string][]> {
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const found: [string, string][] = [];
  // Where a link leads (`cd vendor/x` into a link out of the workspace reads nothing there); a folder
  // that does not exist yet (`mkdir x && cd x`) as written.
  const start = await fsp.realpath(folder).catch(() => path.resolve(folder));
  for (let dir = start; inside(root, dir); dir = path.dirname(dir)) {
    for (const name of (await candidates(root, dir)).sort()) {
      const why = ON_ENTER.find(([re]) => re.test(name))?.[1];
      if (why) found.push([path.relative(root, path.join(dir, name)).split(path.sep).join('/'), why]);
    }
    if (dir === root) break;
  }
  return found;
}

/** A mise config file's name in a folder (`mise.toml`, `.mise.toml`, `mise.dev.toml`, `.rtx.toml`). */
const MISE = ON_ENTER[1]!;
/** direnv's `.envrc`. */
const ENVRC = ON_ENTER[0]!;

/**
 * mise configs and the nearest `.envrc` in the folders above the workspace, as absolute paths (`~/` for
 * the home folder): mise reads every folder up to the root, so `~/code/mise.toml` runs its hooks in a
 * workspace cloned into `~/code`; direnv runs the nearest `.envrc` at or above the folder a shell enters,
 * so `~/code/.envrc` runs where the workspace has none of its own. Only each folder's own names are
 * listed (its sub-folders are not read: the home folder's `.config/mise` is the user's global config, not
 * a project's). The same folders for any repository.
 */
async function runsAbove(
  root: string,
): Promise<{ mise: [string, string][]; envrc?: [string, string]; envrcFile?: string }> {
  const mise: [string, string][] = [];
  let envrc: [string, string] | undefined;
  let envrcFile: string | undefined;
  const home = os.homedir();
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    for (const name of (await fsp.readdir(dir).catch((): string[] => [])).sort()) {
      const isMise = MISE[0].test(name);
      if (!isMise && (envrc !== undefined || !ENVRC[0].test(name))) continue;
      const file = path.join(dir, name);
      const shown = inside(home, file) ? `~/${path.relative(home, file).split(path.sep).join('/')}` : file;
      if (isMise) mise.push([`${shown} (above the workspace)`, MISE[1]]);
      else {
        envrc = [`${shown} (above the workspace)`, ENVRC[1]];
        envrcFile = file;
      }
    }
    if (path.dirname(dir) === dir) return envrc === undefined ? { mise } : { mise, envrc, envrcFile };
  }
}

/** The most bytes of a workspace `.envrc` read for what it loads. */
const ENVRC_READ = 64 * 1024;

/** direnv's calls in a `.envrc` that load another file: its `.envrc` for a folder; `dotenv` alone, `.env`. */
const LOADS = /^(?:source_env(?:_if_exists)?|source_url|dotenv(?:_if_exists)?)$/;

/**
 * What a workspace `.envrc` (its path from `root`) has direnv load besides itself: the `.envrc` above
 * its folder (`source_up`, `source_up_if_exists`: a parent folder's one runs though the workspace has
 * its own), and the files of `source_env`, `source_env_if_exists`, `source_url` and `dotenv` (as shown:
 * workspace-relative, else absolute; a URL as written). Read as the shell reads it (shell-words.ts), and
 * only where it really is in the workspace (a link out of it is not followed).
 */
async function envrcLoads(root: string, file: string): Promise<{ up: boolean; files: string[] }> {
  const real = await fsp.realpath(path.join(root, file)).catch(() => undefined);
  if (real === undefined || !inside(root, real)) return { up: false, files: [] };
  return loadsOf(root, real);
}

/** What the `.envrc` at the real path `real` loads (envrcLoads), its files shown from `root` when in it. */
async function loadsOf(root: string, real: string): Promise<{ up: boolean; files: string[] }> {
  const none = { up: false, files: [] };
  const text = (await readFileHead(real, ENVRC_READ))?.text;
  if (text === undefined) return none;
  let up = false;
  const files: string[] = [];
  for (const c of simpleCommands(text)) {
    const [call = '', arg] = c.words.map((w) => w.text);
    if (/^source_up(?:_if_exists)?$/.test(call)) up = true;
    if (!LOADS.test(call) || files.length >= MAX_FOLDERS) continue;
    if (call === 'source_url') {
      if (arg !== undefined) files.push(arg);
      continue;
    }
    const written = arg ?? '.env';
    let target = path.resolve(path.dirname(real), written.replace(/^~(?=\/|$)/, os.homedir()));
    if (call.startsWith('source_env') && (await fsp.stat(target).catch(() => undefined))?.isDirectory())
      target = path.join(target, '.envrc');
    files.push(inside(root, target) ? path.relative(root, target).split(path.sep).join('/') : target);
  }
  return { up, files };
}

/** What entering a command's folders can run, for its approval. */
export interface EnteredFolders {
  /** `services/api/.envrc: direnv runs it when a shell enters the folder`; absent when nothing does. */
  runsCode?: string;
  /** The line changes to a folder that cannot be known before it runs: which, and what was not checked. */
  unknownFolder?: string;
}

/** At most this many characters of a change shown in the approval's title. */
const SHOWN = 60;

/**
 * What entering `folder` (a checked, real path inside the workspace), or a folder `command` changes to
 * from there, can run that the workspace holds, naming the files; and the changes to folders that
 * cannot be known before the line runs (`cd "$(…)"`, `cd $DIR`, `cd -`, `popd`, `eval`).
 */
export async function runsOnEntering(workspaceRoot: string, folder: string, command = ''): Promise<EnteredFolders> {
  const changes = folderChanges(command);
  // A relative change is taken from the start folder and from every folder the line changes to: after
  // `cd services && cd api` the shell is in services/api, and a function's `cd api` (`f() { cd api; };
  // cd services && f`) runs wherever it is called. Rounds follow such chains until no folder is added;
  // at most MAX_FOLDERS different ones: a command line of 10,000 `cd`s must not list 10,000 folders.
  const set = new Set([folder]);
  for (let size = 0; size !== set.size && set.size < MAX_FOLDERS;) {
    size = set.size;
    for (const from of [...set])
      for (const p of changes.known) if (set.size < MAX_FOLDERS) set.add(path.resolve(from, p));
  }
  const folders = [...set];
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const inWorkspace = await Promise.all(folders.map((f) => filesOnEnter(workspaceRoot, f)));
  const above = await runsAbove(root);
  // The .envrc above the workspace runs where a folder entered has none of its own on the way up, or
  // where the workspace's one calls `source_up` (direnv then loads the parent's too).
  const envrcs = [...new Set(inWorkspace.flat().flatMap(([file, why]) => (why === ENVRC[1] ? [file] : [])))];
  const loads = await Promise.all(envrcs.map((f) => envrcLoads(root, f)));
  const envrcAbove =
    above.envrc && (inWorkspace.some((files) => !files.some(([, why]) => why === ENVRC[1])) || loads.some((l) => l.up));
  const loaded = envrcs.flatMap((f, i) => loads[i]!.files.map((l): [string, string] => [l, `${f} loads it (direnv)`]));
  // The one above runs its own loads too (`~/code/.envrc`'s `source_env shared`).
  if (envrcAbove && above.envrcFile !== undefined)
    for (const l of (await loadsOf(root, above.envrcFile)).files)
      loaded.push([l, `${above.envrc![0]} loads it (direnv)`]);
  const found = [...inWorkspace.flat(), ...above.mise, ...(envrcAbove ? [above.envrc!] : []), ...loaded];
  const byWhy = new Map<string, string[]>();
  for (const [file, why] of found)
    if (!byWhy.get(why)?.includes(file)) byWhy.set(why, [...(byWhy.get(why) ?? []), file]);
  // A repository the workspace ships, that git in the line would use (git-repository.ts).
  const repositories = await shippedRepositories(workspaceRoot, folder, command);
  const runs = [...[...byWhy].map(([why, files]) => `${files.join(', ')}: ${why}`), ...repositories].join('; ');
  const unknown = [...new Set(changes.unknown)].map((c) => (c.length > SHOWN ? `${c.slice(0, SHOWN)}…` : c));
  const more = unknown.length > 2 ? ` and ${unknown.length - 2} more` : '';
  const unknownFolder =
    unknown.length === 0
      ? undefined
      : `the line may enter a folder known only when it runs (${unknown.slice(0, 2).join(', ')}${more}): a .envrc or mise config there was not looked for`;
  return { ...(runs ? { runsCode: runs } : {}), ...(unknownFolder ? { unknownFolder } : {}) };
}

/**
 * A command's approval title: like an edit's, it warns when the folder can run a program on its own or
 * the line enters one that cannot be known, when the line makes its programs load other code
 * (`LD_PRELOAD=`, `git -c core.fsmonitor=`), when it writes into the store, and when it holds look-alike letters (`nрm test` with a
 * Cyrillic р).
 */
export function commandApprovalTitle(request: {
  command?: string;
  runsCode?: string;
  unknownFolder?: string;
  storeWrite?: string;
}): string {
  const command = request.command ?? '';
  const careful = [
    request.runsCode,
    request.unknownFolder,
    request.storeWrite,
    loadedCodeWarning(command),
    lookAlikeWarning(command),
  ]
    .filter(Boolean)
    .map((w) => ` Careful: ${w!}.`);
  return `Run this command?${careful.join('')}`;
}
