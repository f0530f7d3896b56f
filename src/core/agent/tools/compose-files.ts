// `docker compose up` reads as starting the project's services, but the compose file the repository
// ships can bind-mount the host's `/` or `~/.ssh` into a container, or run one privileged or in the
// host's process namespace: a container then reads and writes outside the workspace. The approval names
// those settings of the compose files the line reads.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { inside } from './inside';
import { readFileHead } from '../../read-text';
import { programIndex, simpleCommands } from './shell-words';
import { composeSettings } from './compose-yaml';

export { composeSettings } from './compose-yaml';

/** The most bytes of one compose file read, compose files of a line, and paths named per file. */
const COMPOSE_READ = 256 * 1024;
const MAX_FILES = 4;
const MAX_PATHS = 8;
/** The most compose files read for one (with those it includes and extends), and how deep. */
const MAX_READS = 16;
const MAX_DEPTH = 4;
/** The most bytes of a `.env` read for COMPOSE_FILE. */
const ENV_READ = 64 * 1024;
/** The files compose reads in a folder without `-f`, in its order of preference. */
const DEFAULTS = ['compose.yaml', 'compose.yml', 'docker-compose.yaml', 'docker-compose.yml'];
/** Compose verbs that start containers (or build them) from the file. */
const STARTS = /^(?:up|run|create|start|restart|build|watch|exec)$/;

/** A compose command of a line: how it is named, its `-f` files as written, and what picks them otherwise. */
export interface ComposeCommand {
  label: string;
  /** Its `-f` files as written (empty: COMPOSE_FILE's, or the defaults). */
  files: string[];
  /** COMPOSE_FILE as the line sets it (on the command or exported before it). */
  composeFile?: string;
  projectDir?: string;
  envFile?: string;
}

/** Each compose command of a line that starts containers from its files. */
export function composeCommands(command: string): ComposeCommand[] {
  const out: ComposeCommand[] = [];
  let exported: string | undefined;
  for (const c of simpleCommands(command)) {
    const all = c.words.map((w) => w.text);
    const at = programIndex(c.words);
    const words = all.slice(at);
    // `COMPOSE_FILE=x docker compose up`, `export COMPOSE_FILE=x; …`: the last setting before the command.
    let composeFile = exported;
    const setting = /^(?:export|declare|typeset)$/.test(words[0] ?? '') || words.length === 0;
    for (const w of setting ? all : all.slice(0, at)) {
      const m = /^COMPOSE_FILE=(.*)$/s.exec(w);
      if (m) composeFile = m[1];
    }
    if (setting) exported = composeFile;
    const program = path.basename(words[0] ?? '');
    let label: string;
    let args: string[];
    if ((program === 'docker' || program === 'podman') && words[1] === 'compose') {
      label = `${program} compose`;
      args = words.slice(2);
    } else if (program === 'docker-compose' || program === 'podman-compose') {
      label = program;
      args = words.slice(1);
    } else continue;
    const found: ComposeCommand = { label, files: [], ...(composeFile === undefined ? {} : { composeFile }) };
    let verb: string | undefined;
    for (let i = 0; i < args.length && verb === undefined; i++) {
      const [option, value] = args[i]!.split(/=(.*)/s);
      const next = (): string | undefined => value ?? args[++i];
      if (option === '-f' || option === '--file') {
        const file = next();
        if (file !== undefined && found.files.length < MAX_FILES) found.files.push(file);
      } else if (option === '--project-directory') found.projectDir = next();
      else if (option === '--env-file') found.envFile = next();
      else if (/^(?:-p|--project-name|--profile|--ansi|--parallel)$/.test(args[i]!)) i++;
      else if (!args[i]!.startsWith('-')) verb = args[i];
    }
    if (verb !== undefined && STARTS.test(verb)) out.push(found);
    if (out.length >= MAX_FILES) break;
  }
  return out;
}

/** The host paths of `mounts` (of a compose file in `dir`) outside the workspace `root`, as shown. */
async function outside(root: string, dir: string, mounts: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const m of mounts) {
    // `~` and variables are the user's home or what the environment holds: not the workspace.
    if (m.startsWith('~') || m.startsWith('$')) out.push(m);
    else {
      const abs = path.resolve(dir, m);
      const real = await fsp.realpath(abs).catch(() => abs);
      if (!inside(root, real)) out.push(m.startsWith('/') ? m : real);
    }
    if (out.length >= MAX_PATHS) break;
  }
  return out;
}

/** What the compose files of one command draw on: files read beyond the first, host paths, settings. */
interface Found {
  also: string[];
  hosts: string[];
  settings: Set<string>;
  outsideFiles: string[];
  notYaml: string[];
  seen: Set<string>;
}

/**
 * Reads the compose file `abs` (with `only`, that service of it, as `extends:` draws on it) into
 * `found`, and the files it includes or extends from, a few levels deep; a file outside the workspace
 * is named, not read.
 */
async function readInto(
  root: string,
  abs: string,
  only: string | undefined,
  depth: number,
  found: Found,
): Promise<void> {
  const real = await fsp.realpath(abs).catch(() => undefined);
  if (real === undefined) return;
  if (!inside(root, real)) {
    if (found.outsideFiles.length < MAX_PATHS && !found.outsideFiles.includes(real)) found.outsideFiles.push(real);
    return;
  }
  const key = `${real}\n${only ?? ''}`;
  if (found.seen.has(key) || found.seen.size >= MAX_READS) return;
  const first = found.seen.size === 0;
  found.seen.add(key);
  const head = await readFileHead(real, COMPOSE_READ);
  if (head === undefined) return;
  const shown = path.relative(root, real).split(path.sep).join('/');
  if (!first && !found.also.includes(shown)) found.also.push(shown);
  const reading = composeSettings(head.text, only);
  if (reading.notYaml !== undefined) found.notYaml.push(`${shown} ${reading.notYaml}`);
  for (const h of await outside(root, path.dirname(abs), reading.mounts))
    if (found.hosts.length < MAX_PATHS && !found.hosts.includes(h)) found.hosts.push(h);
  for (const s of reading.settings) if (found.settings.size < 4 * MAX_PATHS) found.settings.add(s);
  if (depth >= MAX_DEPTH) return;
  const dir = path.dirname(abs);
  for (const inc of reading.includes) await readInto(root, path.resolve(dir, inc), undefined, depth + 1, found);
  for (const ext of reading.extends) await readInto(root, path.resolve(dir, ext.file), ext.service, depth + 1, found);
}

/**
 * The compose files `command`, run in `folder`, starts containers from, and what they (with the files
 * they include and extend) set that reaches outside the workspace: `docker compose reads compose.yaml
 * uses host paths outside the workspace: /; sets privileged: true`; undefined when none.
 */
export async function composeFilesRun(
  workspaceRoot: string,
  folder: string,
  command: string,
): Promise<string | undefined> {
  const commands = composeCommands(command);
  if (commands.length === 0) return undefined;
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const said: string[] = [];
  for (const cmd of commands) {
    const { label } = cmd;
    const { dir, files: chosen } = await chosenFiles(root, folder, cmd);
    for (const file of chosen) {
      if (file === '-') {
        const line = `${label} reads its compose file from its input: what it sets is not shown`;
        if (!said.includes(line)) said.push(line);
        continue;
      }
      const abs = path.resolve(dir, file);
      const real = await fsp.realpath(abs).catch(() => undefined);
      if (real === undefined) continue;
      if (!inside(root, real)) {
        const line = `${label} reads ${real}, outside the workspace`;
        if (!said.includes(line)) said.push(line);
        continue;
      }
      const found: Found = { also: [], hosts: [], settings: new Set(), outsideFiles: [], notYaml: [], seen: new Set() };
      await readInto(root, abs, undefined, 0, found);
      const parts = [
        found.hosts.length > 0 ? `uses host paths outside the workspace: ${found.hosts.join(', ')}` : '',
        found.settings.size > 0 ? `sets ${[...found.settings].join(', ')}` : '',
        found.outsideFiles.length > 0
          ? `reads compose files outside the workspace: ${found.outsideFiles.join(', ')}`
          : '',
      ].filter(Boolean);
      if (parts.length > 0 && found.notYaml.length > 0) parts.push(`${found.notYaml.join(', ')} (read line by line)`);
      const shown = path.relative(root, real).split(path.sep).join('/');
      const also = found.also.length > 0 ? ` (with ${found.also.join(', ')})` : '';
      const line = `${label} reads ${shown}${also} ${parts.join('; ')}`;
      if (parts.length > 0 && !said.includes(line)) said.push(line);
    }
  }
  return said.length === 0 ? undefined : said.join('; ');
}

/**
 * The compose files a command reads, and the folder they are named from: its `-f` files; else those
 * COMPOSE_FILE names (on the line, or in the project folder's `.env` or its `--env-file`); else the
 * default file of the project folder or, without one, of the nearest folder above it in the workspace.
 */
async function chosenFiles(
  root: string,
  folder: string,
  cmd: ComposeCommand,
): Promise<{ dir: string; files: string[] }> {
  if (cmd.files.length > 0) return { dir: folder, files: cmd.files };
  const project = path.resolve(folder, cmd.projectDir ?? '.');
  const named = (value: string): string[] => value.split(/[:;]/).filter(Boolean).slice(0, MAX_FILES);
  if (cmd.composeFile !== undefined) return { dir: folder, files: named(cmd.composeFile) };
  const dirs = [project];
  for (
    let dir = path.dirname(project);
    cmd.projectDir === undefined && inside(root, dir) && dirs.length < 16;
    dir = path.dirname(dir)
  ) {
    dirs.push(dir);
    if (dir === root) break;
  }
  for (const dir of dirs) {
    const env =
      cmd.envFile !== undefined && dir === project ? path.resolve(folder, cmd.envFile) : path.join(dir, '.env');
    const text = (await readFileHead(env, ENV_READ))?.text ?? '';
    const value = /^[ \t]*(?:export[ \t]+)?COMPOSE_FILE[ \t]*=[ \t]*(.*)$/m
      .exec(text)?.[1]
      ?.trim()
      .replace(/^(["'])(.*)\1$/, '$2');
    if (value) return { dir, files: named(value) };
    const files = await defaultFile(dir);
    if (files.length > 0) return { dir, files };
  }
  return { dir: project, files: [] };
}

/** The compose file compose reads in `folder` without `-f` (with its override file), if any. */
async function defaultFile(folder: string): Promise<string[]> {
  for (const name of DEFAULTS) {
    if ((await fsp.stat(path.join(folder, name)).catch(() => undefined)) === undefined) continue;
    const override = name.replace(/\.(ya?ml)$/, '.override.$1');
    const hasOverride = (await fsp.stat(path.join(folder, override)).catch(() => undefined)) !== undefined;
    return hasOverride ? [name, override] : [name];
  }
  return [];
}
