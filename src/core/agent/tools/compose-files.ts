// `docker compose up` reads as starting the project's services, but the compose file the repository
// ships can bind-mount the host's `/` or `~/.ssh` into a container, or run one privileged or in the
// host's process namespace: a container then reads and writes outside the workspace. The approval names
// those settings of the compose files the line reads.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { inside } from './inside';
import { readFileHead } from '../../read-text';
import { programIndex, simpleCommands } from './shell-words';

/** The most bytes of one compose file read, compose files of a line, and paths named per file. */
const COMPOSE_READ = 256 * 1024;
const MAX_FILES = 4;
const MAX_PATHS = 8;
/** The files compose reads in a folder without `-f`, in its order of preference. */
const DEFAULTS = ['compose.yaml', 'compose.yml', 'docker-compose.yaml', 'docker-compose.yml'];
/** Compose verbs that start containers (or build them) from the file. */
const STARTS = /^(?:up|run|create|start|restart|build|watch|exec)$/;

/** Each compose command of a line: how it is named and its `-f` files as written (empty: the defaults). */
export function composeCommands(command: string): { label: string; files: string[] }[] {
  const out: { label: string; files: string[] }[] = [];
  for (const c of simpleCommands(command)) {
    const words = c.words.slice(programIndex(c.words)).map((w) => w.text);
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
    const files: string[] = [];
    let verb: string | undefined;
    for (let i = 0; i < args.length && verb === undefined; i++) {
      const [option, value] = args[i]!.split(/=(.*)/s);
      if (option === '-f' || option === '--file') {
        const file = value ?? args[++i];
        if (file !== undefined && files.length < MAX_FILES) files.push(file);
      } else if (/^(?:-p|--project-name|--project-directory|--env-file|--profile|--ansi|--parallel)$/.test(args[i]!))
        i++;
      else if (!args[i]!.startsWith('-')) verb = args[i];
    }
    if (verb !== undefined && STARTS.test(verb)) out.push({ label, files });
    if (out.length >= MAX_FILES) break;
  }
  return out;
}

/** The host path of a compose line: `- ./src:/app`, `- "/:/host"`, `source: ~/.ssh`, `file: ~/.ssh/id_rsa`. */
function hostPath(line: string): string | undefined {
  // Long-syntax mounts and local volumes; secrets' and configs' files; env files; build contexts.
  const source = /^(?:-\s+)?(?:source|device|file|env_file|context):\s*(.*)$/.exec(line);
  const short = source ? undefined : /^-\s+(.*)$/.exec(line);
  let value = (source?.[1] ?? short?.[1] ?? '').trim();
  if (value.startsWith('"') || value.startsWith("'")) value = value.slice(1).replace(/["']$/, '');
  if (short) {
    const colon = value.indexOf(':', 1);
    if (colon === -1) return undefined;
    value = value.slice(0, colon);
  }
  // A path (or a variable that is one), not a named volume, a port or an environment setting.
  return /^(?:[./~]|\$)/.test(value) && !value.includes('=') ? value : undefined;
}

/** A service in the host's process, network, IPC or user namespace (block or flow style). */
const HOST_NAMESPACE = /(?:^|[{,\s])["']?(pid|network_mode|ipc|userns_mode)["']?\s*:\s*["']?host\b/i;

/** What a compose file's text sets that reaches outside the container: host paths it mounts, privileged. */
export function composeSettings(text: string): { mounts: string[]; settings: string[] } {
  const mounts: string[] = [];
  const settings = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    // Anywhere in the line: flow style (`{privileged: true, pid: host}`) says the same as block style.
    if (/(?:^|[{,\s])["']?privileged["']?\s*:\s*["']?true\b/i.test(line)) settings.add('privileged: true');
    if (/^ssh:/.test(line)) settings.add("build ssh (the host's SSH agent is lent to the build)");
    const namespace = HOST_NAMESPACE.exec(line);
    if (namespace) settings.add(`${namespace[1]}: host`);
    if (mounts.length >= 4 * MAX_PATHS) continue;
    // A flow sequence (`volumes: ["/:/host", ./src:/app]`) is read item by item.
    const flow = /(?:^|[{,\s])(volumes|env_file)\s*:\s*\[([^\]]*)/.exec(line);
    // A volume item is `host:container`; an env_file item is a path alone.
    const item = flow?.[1] === 'env_file' ? 'env_file: ' : '- ';
    const items = flow ? flow[2]!.split(',').map((i) => `${item}${i.trim()}`) : [line];
    for (const item of items.slice(0, 4 * MAX_PATHS)) {
      const host = hostPath(item);
      if (host !== undefined && !mounts.includes(host)) mounts.push(host);
    }
  }
  return { mounts, settings: [...settings] };
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

/**
 * The compose files `command`, run in `folder`, starts containers from, and what they set that reaches
 * outside the workspace: `docker compose reads compose.yaml uses host paths outside the workspace: /;
 * sets privileged: true`; undefined when none.
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
  for (const { label, files } of commands) {
    const chosen = files.length > 0 ? files : await defaultFile(folder);
    for (const file of chosen) {
      const abs = path.resolve(folder, file);
      const real = await fsp.realpath(abs).catch(() => undefined);
      if (real === undefined || !inside(root, real)) continue;
      const head = await readFileHead(real, COMPOSE_READ);
      if (head === undefined) continue;
      const { mounts, settings } = composeSettings(head.text);
      const hosts = await outside(root, path.dirname(abs), mounts);
      const parts = [
        hosts.length > 0 ? `uses host paths outside the workspace: ${hosts.join(', ')}` : '',
        settings.length > 0 ? `sets ${settings.join(', ')}` : '',
      ].filter(Boolean);
      const shown = path.relative(root, real).split(path.sep).join('/');
      const line = `${label} reads ${shown} ${parts.join('; ')}`;
      if (parts.length > 0 && !said.includes(line)) said.push(line);
    }
  }
  return said.length === 0 ? undefined : said.join('; ');
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
