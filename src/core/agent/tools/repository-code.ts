// Toolchain commands that read as building or testing but run the repository's own code: `go generate`
// runs the commands of its `//go:generate` comments, `go run`/`go test` its Go code; `cargo build`,
// `check`, `test` build and run the build scripts and procedural macros of every crate of the workspace
// (build-files.ts sees only the folder's build.rs); `mvn` runs the build its pom.xml describes, `gradle`
// the one whose settings file it finds in the folders above; a Gradle or Maven wrapper downloads and
// runs the distribution its properties file names. The approval names these.
import { promises as fsp, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { inside } from './inside';
import { readFileHead } from '../../read-text';
import { programIndex, simpleCommands } from './shell-words';

/** The most folders walked and files read for one command, how deep, and items named. */
const MAX_DIRS = 400;
const MAX_DEPTH = 6;
const MAX_NAMED = 6;
const FILE_READ = 64 * 1024;
/** Folders a walk does not enter (besides hidden ones): those `./...` leaves out for go, and cargo's output and dependencies. */
const GO_SKIP = /^(?:_.*|testdata|vendor|node_modules)$/;
const CARGO_SKIP = /^(?:target|node_modules|vendor)$/;
const CARGO_BUILDS = /^(?:build|b|check|c|test|t|run|r|bench|clippy|doc|d|install|rustc|fix)$/;

/** Each command of a line: its program's base name as written, and its words after it. */
export function toolchainCommands(command: string): { word: string; name: string; args: string[] }[] {
  const out: { word: string; name: string; args: string[] }[] = [];
  for (const c of simpleCommands(command)) {
    const [word = '', ...args] = c.words.slice(programIndex(c.words)).map((w) => w.text);
    const name = path.basename(word);
    if (/^(?:go|cargo|mvn|mvnw|gradle|gradlew)$/.test(name) && !out.some((o) => o.word === word))
      out.push({ word, name, args });
    if (out.length >= 4) break;
  }
  return out;
}

/** The files below `start` (in the workspace `root`) that `want` picks, walked breadth first, bounded. */
async function walk(
  root: string,
  start: string,
  recursive: boolean,
  skip: RegExp,
  want: (name: string) => boolean,
): Promise<string[]> {
  const found: string[] = [];
  let level = [start];
  let dirs = 0;
  for (let depth = 0; level.length > 0 && depth <= (recursive ? MAX_DEPTH : 0); depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (++dirs > MAX_DIRS) return found;
      const entries: Dirent[] = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        const full = path.join(dir, e.name);
        // Links are not followed: what they lead to may be outside the workspace.
        if (e.isDirectory() && !skip.test(e.name) && !e.name.startsWith('.')) next.push(full);
        else if (e.isFile() && want(e.name) && inside(root, full)) found.push(full);
      }
    }
    level = next;
  }
  return found;
}

/** The `//go:generate` commands of a Go file's text (a directive starts its line). */
export function generateLines(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n'))
    if (line.startsWith('//go:generate ') && out.length < MAX_NAMED) out.push(line.slice(14).trim());
  return out;
}

const shownIn = (root: string, p: string): string => path.relative(root, p).split(path.sep).join('/');
const clip = (s: string): string => (s.length > 120 ? `${s.slice(0, 120)}…` : s);

async function goRun(root: string, folder: string, verb: string, args: string[]): Promise<string | undefined> {
  // A module's own packages: `go run pkg@version` outside one runs downloaded code, not the repository's.
  if ((verb === 'run' || verb === 'test') && (await upward(root, folder, ['go.mod', 'go.work'])) !== undefined)
    return `go ${verb} runs the repository's Go code (its packages and their init functions)`;
  if (verb !== 'generate') return undefined;
  const recursive = args.some((a) => a.endsWith('...'));
  const said: string[] = [];
  for (const file of await walk(root, folder, recursive, GO_SKIP, (n) => n.endsWith('.go'))) {
    const text = (await readFileHead(file, FILE_READ))?.text ?? '';
    for (const g of generateLines(text))
      if (said.length < MAX_NAMED) said.push(`${JSON.stringify(clip(g))} (${shownIn(folder, file)})`);
  }
  return said.length === 0 ? undefined : `go generate runs the repository's //go:generate commands: ${said.join(', ')}`;
}

/** The build scripts (`build = "x"` or a build.rs) and proc-macro crates of a Cargo workspace. */
async function cargoRun(root: string, folder: string, verb: string): Promise<string | undefined> {
  const above = await cargoSettings(root, folder, verb);
  if (!CARGO_BUILDS.test(verb)) return above;
  const top = await upward(root, folder, ['Cargo.toml']);
  if (top === undefined) return above;
  const base = path.dirname(top);
  const scripts: string[] = [];
  const macros: string[] = [];
  for (const manifest of await walk(root, base, true, CARGO_SKIP, (n) => n === 'Cargo.toml')) {
    const text = (await readFileHead(manifest, FILE_READ))?.text ?? '';
    const dir = path.dirname(manifest);
    const build = /^[ \t]*build[ \t]*=[ \t]*["']([^"'\n]+)["']/m.exec(text)?.[1];
    const script = build !== undefined ? path.resolve(dir, build) : path.join(dir, 'build.rs');
    const noBuild = /^[ \t]*build[ \t]*=[ \t]*false/m.test(text);
    if (!noBuild && (await fsp.stat(script).catch(() => undefined))?.isFile() && inside(root, script))
      scripts.push(shownIn(base, script));
    if (/^[ \t]*proc-macro[ \t]*=[ \t]*true/m.test(text)) macros.push(shownIn(base, dir) || '.');
  }
  const parts = [
    scripts.length > 0 ? `build script ${scripts.slice(0, MAX_NAMED).join(', ')}` : '',
    macros.length > 0 ? `procedural macros of ${macros.slice(0, MAX_NAMED).join(', ')}` : '',
  ].filter(Boolean);
  const built = parts.length === 0 ? '' : `cargo ${verb} builds and runs code of the repository: ${parts.join('; ')}`;
  return [built, above].filter(Boolean).join('; ') || undefined;
}

/**
 * What cargo reads above the folder (build-files.ts names the folder's own): the `.cargo/config.toml`
 * of every folder up to the workspace root (a `rustc-wrapper`, a `runner`, `[alias]`es), and a
 * rust-toolchain.toml whose `path` makes rustup run a toolchain the repository holds.
 */
async function cargoSettings(root: string, folder: string, verb: string): Promise<string | undefined> {
  const configs: string[] = [];
  let toolchain: string | undefined;
  for (let dir = folder; inside(root, dir); dir = path.dirname(dir)) {
    for (const n of ['.cargo/config.toml', '.cargo/config'])
      if (dir !== folder && (await fsp.stat(path.join(dir, n)).catch(() => undefined))?.isFile())
        configs.push(shownIn(root, path.join(dir, n)));
    for (const n of ['rust-toolchain.toml', 'rust-toolchain']) {
      if (toolchain !== undefined) break;
      const text = (await readFileHead(path.join(dir, n), FILE_READ))?.text;
      const own = text === undefined ? undefined : /^[ \t]*path[ \t]*=[ \t]*["']([^"'\n]*)["']/m.exec(text)?.[1];
      if (own !== undefined)
        toolchain = `${shownIn(root, path.join(dir, n))} names a toolchain of its own: ${clip(own)}`;
    }
    if (dir === root) break;
  }
  const reads = configs.length === 0 ? '' : `cargo ${verb} reads ${configs.slice(0, MAX_NAMED).join(', ')}`;
  return [reads, toolchain ?? ''].filter(Boolean).join('; ') || undefined;
}

/** The first of `names` in `folder` or a folder above it in the workspace `root`. */
async function upward(root: string, folder: string, names: string[]): Promise<string | undefined> {
  for (let dir = folder; inside(root, dir); dir = path.dirname(dir)) {
    for (const n of names)
      if ((await fsp.stat(path.join(dir, n)).catch(() => undefined))?.isFile()) return path.join(dir, n);
    if (dir === root) break;
  }
  return undefined;
}

/** Where a wrapper's properties file says its distribution comes from, when not the project's own site. */
async function wrapperDownload(root: string, dir: string, file: string, home: RegExp): Promise<string | undefined> {
  const text = (await readFileHead(path.join(dir, file), FILE_READ))?.text ?? '';
  const raw = /^[ \t]*(?:distributionUrl|wrapperUrl)[ \t]*[=:][ \t]*(.*)$/m.exec(text)?.[1];
  const url = raw?.replace(/\\(.)/g, '$1').trim();
  return url === undefined || home.test(url) ? undefined : `${url} (${shownIn(root, path.join(dir, file))})`;
}

async function jvmRun(root: string, folder: string, word: string, name: string): Promise<string | undefined> {
  const said: string[] = [];
  const gradle = name.startsWith('gradle');
  if (name === 'mvn' && (await fsp.stat(path.join(folder, 'pom.xml')).catch(() => undefined))?.isFile())
    said.push(`mvn runs the build ${shownIn(root, path.join(folder, 'pom.xml'))} describes (its plugins run code)`);
  if (gradle) {
    const names = ['settings.gradle', 'settings.gradle.kts', 'build.gradle', 'build.gradle.kts'];
    const settings = await upward(root, folder, names);
    if (settings !== undefined && path.dirname(settings) !== folder)
      said.push(`${word} runs the build ${shownIn(root, settings)} describes (its scripts are code)`);
  }
  if (gradle) {
    // The JVM options and the Java the Gradle daemon starts with: `-javaagent:` runs a jar before the build.
    const props = path.join(folder, 'gradle.properties');
    const text = (await readFileHead(props, FILE_READ))?.text ?? '';
    const m = /^[ \t]*(org\.gradle\.jvmargs|org\.gradle\.java\.home)[ \t]*[=:][ \t]*(.*)$/m.exec(text);
    if (m && (m[1] === 'org.gradle.java.home' || /-(?:javaagent|agentpath|agentlib)/.test(m[2]!)))
      said.push(`${word} starts as ${shownIn(root, props)} sets ${m[1]}: ${clip(m[2]!.trim())}`);
  }
  if (name === 'gradlew' || name === 'mvnw') {
    const [file, home, what] = gradle
      ? ['gradle/wrapper/gradle-wrapper.properties', /^https:\/\/services\.gradle\.org\//, 'Gradle']
      : ['.mvn/wrapper/maven-wrapper.properties', /^https:\/\/repo(?:1)?\.maven\.(?:apache\.)?org\//, 'Maven'];
    const dir = path.dirname(path.resolve(folder, word));
    const from = await wrapperDownload(root, dir, file, home as RegExp);
    if (from !== undefined) said.push(`${word} downloads and runs the ${what as string} of ${from}`);
  }
  return said.length === 0 ? undefined : said.join('; ');
}

/** What the toolchain commands of `command`, run in `folder`, run of the repository; undefined when none. */
export async function repositoryCodeRun(
  workspaceRoot: string,
  folder: string,
  command: string,
): Promise<string | undefined> {
  const commands = toolchainCommands(command);
  if (commands.length === 0) return undefined;
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const real = await fsp.realpath(folder).catch(() => undefined);
  if (real === undefined || !inside(root, real)) return undefined;
  const said: string[] = [];
  for (const { word, name, args } of commands) {
    const verb = args.find((a) => !a.startsWith('-') && !a.startsWith('+')) ?? '';
    const one =
      name === 'go'
        ? await goRun(root, real, verb, args)
        : name === 'cargo'
          ? await cargoRun(root, real, verb)
          : await jvmRun(root, real, word, name);
    if (one !== undefined && !said.includes(one)) said.push(one);
  }
  return said.length === 0 ? undefined : said.join('; ');
}
