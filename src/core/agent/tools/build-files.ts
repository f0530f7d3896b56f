// Build and test tools run code the repository holds, not only what the line shows: `cargo test` runs
// build.rs (and what .cargo/config.toml names), `./gradlew` the wrapper jar and build scripts, `pytest`
// conftest.py, `just`/`rake`/`task` their task files. The approval names those that the command's
// folder holds, as it names package scripts (package-scripts.ts) and Makefile recipes (make-recipes.ts).
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { programIndex, simpleCommands } from './shell-words';

/** A JavaScript config file's names: `jest.config` in each of its extensions (and an older name's). */
function configs(...names: string[]): string[] {
  return names.flatMap((n) => ['js', 'mjs', 'cjs', 'ts', 'mts', 'cts'].map((ext) => `${n}.${ext}`));
}

/** Each tool (its program name) and the files of a folder it runs or that tell it what to run. */
const TOOLS: Record<string, string[]> = {
  cargo: ['build.rs', '.cargo/config.toml', '.cargo/config'],
  gradlew: [
    'gradle/wrapper/gradle-wrapper.jar',
    'build.gradle',
    'build.gradle.kts',
    'settings.gradle',
    'settings.gradle.kts',
  ],
  gradle: ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'],
  // jvm.config's `-javaagent:` and maven.config's options start what they name with every build.
  mvnw: ['.mvn/wrapper/maven-wrapper.jar', '.mvn/extensions.xml', '.mvn/jvm.config', '.mvn/maven.config'],
  mvn: ['.mvn/extensions.xml', '.mvn/jvm.config', '.mvn/maven.config'],
  pytest: ['conftest.py'],
  'py.test': ['conftest.py'],
  just: ['justfile', 'Justfile', '.justfile'],
  rake: ['Rakefile', 'rakefile', 'Rakefile.rb'],
  task: ['Taskfile.yml', 'Taskfile.yaml', 'Taskfile.dist.yml'],
  tox: ['tox.ini'],
  nox: ['noxfile.py'],
  invoke: ['tasks.py'],
  'pre-commit': ['.pre-commit-config.yaml'],
  // Build files that are code, or name commands, in other ecosystems.
  bundle: ['Gemfile', 'gems.rb'],
  composer: ['composer.json'],
  mix: ['mix.exs'],
  sbt: ['build.sbt', 'project/plugins.sbt'],
  dotnet: ['Directory.Build.props', 'Directory.Build.targets', 'Directory.Build.rsp'],
  msbuild: ['Directory.Build.props', 'Directory.Build.targets', 'Directory.Build.rsp'],
  swift: ['Package.swift'],
  cmake: ['CMakeLists.txt'],
  meson: ['meson.build'],
  deno: ['deno.json', 'deno.jsonc'],
  bazel: ['MODULE.bazel', 'WORKSPACE', 'WORKSPACE.bazel', '.bazelrc'],
  // Linters, test runners and bundlers load their config files, which are code (`npx eslint .`).
  eslint: configs('eslint.config', '.eslintrc'),
  jest: [...configs('jest.config'), ...configs('babel.config')],
  vitest: [...configs('vitest.config'), ...configs('vite.config')],
  vite: configs('vite.config'),
  webpack: configs('webpack.config'),
  rollup: configs('rollup.config'),
  playwright: configs('playwright.config'),
  mocha: ['.mocharc.js', '.mocharc.cjs'],
  prettier: [...configs('prettier.config'), '.prettierrc.js', '.prettierrc.cjs', '.prettierrc.mjs'],
  next: configs('next.config'),
  astro: configs('astro.config'),
  nuxt: configs('nuxt.config'),
  tsup: configs('tsup.config'),
};
/** Words that run the program after them: `bundle exec rake`, `poetry run pytest`, `python -m pytest`. */
const RUNNERS = /^(?:bundle exec|poetry run|uv run|pipenv run|hatch run|pdm run|python[\d.]* -m)$/;

/** The tools of TOOLS a line runs, as written (`./gradlew`), with their names; a few per line. */
function toolsRun(command: string): { word: string; name: string }[] {
  const out: { word: string; name: string }[] = [];
  for (const c of simpleCommands(command)) {
    let words = c.words.slice(programIndex(c.words)).map((w) => w.text);
    while (words.length > 2 && RUNNERS.test(`${path.basename(words[0]!)} ${words[1]!}`)) words = words.slice(2);
    const word = words[0] ?? '';
    const name = path.basename(word);
    if (Object.hasOwn(TOOLS, name) && !out.some((t) => t.name === name)) out.push({ word, name });
    if (out.length >= 4) break;
  }
  return out;
}

/** Whether `file` exists where it (or a link there) stays in the workspace `root`. */
async function inWorkspace(root: string, file: string): Promise<boolean> {
  const real = await fsp.realpath(file).catch(() => undefined);
  const rel = real === undefined ? '..' : path.relative(root, real);
  return !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * What the build and test tools of `command`, run in `folder`, run from the repository: `cargo runs code
 * the repository holds: build.rs, .cargo/config.toml`; undefined when none. Only the command's own folder
 * is looked in.
 */
export async function buildFilesRun(
  workspaceRoot: string,
  folder: string,
  command: string,
): Promise<string | undefined> {
  const tools = toolsRun(command);
  if (tools.length === 0) return undefined;
  const root = await fsp.realpath(workspaceRoot).catch(() => path.resolve(workspaceRoot));
  const said: string[] = [];
  for (const { word, name } of tools) {
    const files: string[] = [];
    for (const file of TOOLS[name]!) if (await inWorkspace(root, path.join(folder, file))) files.push(file);
    if (files.length > 0) said.push(`${word} runs code the repository holds: ${files.join(', ')}`);
  }
  return said.length === 0 ? undefined : said.join('; ');
}
