// Installs and starts code-server (a real VS Code) offline, following ../shared/notes/real-vscode-offline.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync, copyFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';
/** rg tarball name that @vscode/ripgrep 1.15.x looks for before it tries to download. */
const RIPGREP_CACHE = 'vscode-ripgrep-cache-1.15.11';
const RIPGREP_TARBALL = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';

/** `~/.cache/context-desk` (or `$XDG_CACHE_HOME/context-desk`): the test VS Code and `npm start`'s user data. */
export function cacheBase(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'context-desk');
}

/** Where the test VS Code lives: outside the clone, so it is cached between runs on one machine. */
export function codeServerDir(): string {
  return resolve(process.env.CONTEXT_DESK_VSCODE_DIR ?? cacheBase(), `code-server-${CODE_SERVER_VERSION}`);
}

export function codeServerEntry(dir = codeServerDir()): string {
  return join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): void {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
}

/** Seeds the rg tarball that code-server's @vscode/ripgrep wants to download from GitHub. */
function seedRipgrepCache(): void {
  const rg = ['/usr/bin/rg', '/usr/local/bin/rg'].find((p) => existsSync(p));
  if (!rg) throw new Error('ripgrep is missing: install it first (apt-get install -y ripgrep)');
  const cacheDir = join(tmpdir(), RIPGREP_CACHE);
  const tarball = join(cacheDir, RIPGREP_TARBALL);
  if (existsSync(tarball)) return;
  mkdirSync(cacheDir, { recursive: true });
  const stage = mkdtempSync(join(tmpdir(), 'rg-stage-'));
  copyFileSync(rg, join(stage, 'rg'));
  run('tar', ['-czf', tarball, '-C', stage, 'rg']);
  rmSync(stage, { recursive: true, force: true });
}

/** Installs code-server into its cache folder unless a completed install is already there. */
export function installCodeServer(): string {
  const dir = codeServerDir();
  const marker = join(dir, '.installed');
  if (existsSync(marker) && existsSync(codeServerEntry(dir))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'context-desk-test-vscode', private: true }));
  seedRipgrepCache();
  console.log(`Installing code-server ${CODE_SERVER_VERSION} into ${dir} (about a minute, once per machine)`);
  const env = { ...process.env, npm_config_unsafe_perm: 'true', npm_config_yes: 'true' };
  run(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--foreground-scripts', `code-server@${CODE_SERVER_VERSION}`],
    { cwd: dir, env },
  );
  if (!existsSync(codeServerEntry(dir)))
    throw new Error(`code-server install finished but ${codeServerEntry(dir)} is missing`);
  writeFileSync(marker, new Date().toISOString());
  return dir;
}

export interface CodeServer {
  url: string;
  host: string;
  port: number;
  tempDir: string;
  extensionsDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Folder whose copy (or link) goes into the fresh extensions dir, so the workbench loads it as installed. */
  installExtensionFrom?: string;
  bindAddr?: string;
  settings?: Record<string, unknown>;
  /** Keep VS Code's workspace trust on (the folder opens in Restricted Mode until trusted). */
  workspaceTrust?: boolean;
  log?: (line: string) => void;
  /**
   * Keep user data (settings, secrets, state) and extensions here between runs instead of a fresh temp
   * folder; `settings` then only seeds keys the user's settings.json does not have yet.
   */
  persistentDir?: string;
  /** Install the extension from a VSIX with `--install-extension` instead of linking the folder. */
  installVsix?: string;
}

/** Starts code-server on loopback with a fresh user-data and extensions dir; resolves once it listens. */
export async function startCodeServer(opts: StartOptions = {}): Promise<CodeServer> {
  const dir = installCodeServer();
  const tempDir = mkdtempSync(join(tmpdir(), 'context-desk-vscode-'));
  const home = opts.persistentDir ?? tempDir;
  const userData = join(home, opts.persistentDir ? 'user-data' : 'ud');
  const extensionsDir = join(home, opts.persistentDir ? 'extensions' : 'ext');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const settings = {
    'telemetry.telemetryLevel': 'off',
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'update.mode': 'none',
    'security.workspace.trust.enabled': opts.workspaceTrust === true,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.emptyWindow': false,
    'chat.disableAIFeatures': true,
    ...opts.settings,
  };
  writeSettings(join(userData, 'User', 'settings.json'), settings, opts.persistentDir !== undefined);
  if (opts.installExtensionFrom) installExtensionCopy(opts.installExtensionFrom, extensionsDir);
  if (opts.installVsix) installVsix(dir, opts.installVsix, userData, extensionsDir, tempDir);

  const args = [
    codeServerEntry(dir),
    '--config',
    '/dev/null',
    '--auth',
    'none',
    '--bind-addr',
    opts.bindAddr ?? '127.0.0.1:0',
    '--disable-telemetry',
    '--disable-update-check',
    ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--user-data-dir',
    userData,
    '--extensions-dir',
    extensionsDir,
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, EXTENSIONS_GALLERY: '{}', TMPDIR: tempDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((res) => child.once('exit', () => res()));
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 3000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(tempDir, { recursive: true, force: true });
  };
  const listening = await new Promise<{ host: string; port: number }>((res, rej) => {
    let buffered = '';
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString();
      for (const line of text.split('\n')) if (line.trim()) opts.log?.(line);
      buffered += text;
      const m = /HTTP server listening on http:\/\/([^:\s]+):(\d+)/.exec(buffered);
      if (m) res({ host: m[1]!, port: Number(m[2]) });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) =>
      rej(new Error(`code-server exited (${code}) before listening:\n${buffered.slice(-2000)}`)),
    );
    setTimeout(
      () => rej(new Error(`code-server did not listen within 60 s:\n${buffered.slice(-2000)}`)),
      60_000,
    ).unref();
  }).catch(async (e: unknown) => {
    await stop();
    throw e;
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    ...listening,
    url: `http://${listening.host}:${listening.port}`,
    tempDir,
    extensionsDir,
    process: child,
    stop,
  };
}

/** A fresh user-data folder gets the settings; a kept one only the keys it lacks (the user's win). */
function writeSettings(file: string, settings: Record<string, unknown>, keep: boolean): void {
  let current: Record<string, unknown> = {};
  if (keep && existsSync(file)) {
    try {
      current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      console.warn(`${file} is not plain JSON (comments?); leaving it as it is.`);
      return;
    }
  }
  writeFileSync(file, JSON.stringify({ ...settings, ...current }, null, 2));
}

/** Makes the built extension look installed: a symlink named publisher.name-version in the extensions dir. */
function installExtensionCopy(extensionRoot: string, extensionsDir: string): void {
  const pkg = JSON.parse(readFileSync(join(extensionRoot, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const link = join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  rmSync(link, { recursive: true, force: true }); // a kept extensions folder may link an older checkout
  run('ln', ['-s', resolve(extensionRoot), link]);
}

/** `code-server --install-extension x.vsix`, the way a user installs it (offline: no gallery). */
function installVsix(dir: string, vsix: string, userData: string, extensionsDir: string, tempDir: string): void {
  run(
    process.execPath,
    [
      codeServerEntry(dir),
      '--config',
      '/dev/null',
      '--user-data-dir',
      userData,
      '--extensions-dir',
      extensionsDir,
      '--install-extension',
      resolve(vsix),
    ],
    { env: { ...process.env, EXTENSIONS_GALLERY: '{}', TMPDIR: tempDir } },
  );
}

/** The URL that opens a folder with the extension under development and, optionally, its test runner. */
export function workbenchUrl(
  server: CodeServer,
  folder: string,
  dev?: { extensionPath: string; testsPath?: string },
): string {
  const params = new URLSearchParams({ folder: resolve(folder) });
  if (dev) {
    const remote = (p: string): string => `vscode-remote://${server.host}:${server.port}${resolve(p)}`;
    const payload: [string, string][] = [['extensionDevelopmentPath', remote(dev.extensionPath)]];
    if (dev.testsPath) payload.push(['extensionTestsPath', remote(dev.testsPath)]);
    params.set('payload', JSON.stringify(payload));
  }
  return `${server.url}/?${params.toString()}`;
}
