// `npx eslint .`, `npx jest`, `vitest`, `pre-commit run` read as linting or testing, but load the
// repository's config files, which are code (eslint.config.js, jest.config.ts, vite.config.ts) or name
// commands (.pre-commit-config.yaml's local hooks): the approval names them, as it names conftest.py.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { packageScriptsRun } from '../../../src/core/agent/tools/package-scripts';

let ws: string;
before(async () => {
  ws = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-toolconf-')));
  for (const file of [
    'eslint.config.mjs',
    'jest.config.ts',
    'vite.config.ts',
    'vitest.config.ts',
    'webpack.config.js',
    'playwright.config.ts',
    '.pre-commit-config.yaml',
    'babel.config.js',
  ])
    await writeFile(path.join(ws, file), 'x');
});
after(() => rm(ws, { recursive: true, force: true }));

test('linters, test runners and bundlers name the config code of the repository they load', async () => {
  for (const [line, said] of <[string, string][]>[
    ['npx eslint .', 'eslint runs code the repository holds: eslint.config.mjs'],
    ['npx jest --ci', 'jest runs code the repository holds: jest.config.ts, babel.config.js'],
    ['npx vitest run', 'vitest runs code the repository holds: vitest.config.ts, vite.config.ts'],
    ['npx vite build', 'vite runs code the repository holds: vite.config.ts'],
    ['npx webpack', 'webpack runs code the repository holds: webpack.config.js'],
    ['npx playwright test', 'playwright runs code the repository holds: playwright.config.ts'],
    ['pre-commit run --all-files', 'pre-commit runs code the repository holds: .pre-commit-config.yaml'],
  ])
    assert.equal(await packageScriptsRun(ws, ws, line), said, line);
  assert.equal(await packageScriptsRun(ws, ws, 'npx tsc'), undefined);
});

test('other ecosystems name the build files of the repository their commands run', async () => {
  const dir = path.join(ws, 'more');
  await mkdir(dir);
  for (const file of [
    'Gemfile',
    'composer.json',
    'mix.exs',
    'build.sbt',
    'Directory.Build.targets',
    'Package.swift',
    'CMakeLists.txt',
    'meson.build',
    'deno.json',
  ])
    await writeFile(path.join(dir, file), 'x');
  for (const [line, said] of <[string, string][]>[
    ['bundle install', 'bundle runs code the repository holds: Gemfile'],
    ['composer install', 'composer runs code the repository holds: composer.json'],
    ['mix test', 'mix runs code the repository holds: mix.exs'],
    ['sbt test', 'sbt runs code the repository holds: build.sbt'],
    ['dotnet build', 'dotnet runs code the repository holds: Directory.Build.targets'],
    ['swift build', 'swift runs code the repository holds: Package.swift'],
    ['cmake -B build', 'cmake runs code the repository holds: CMakeLists.txt'],
    ['meson setup build', 'meson runs code the repository holds: meson.build'],
    ['deno task dev', 'deno runs code the repository holds: deno.json'],
  ])
    assert.equal(await packageScriptsRun(ws, dir, line), said, line);
});
