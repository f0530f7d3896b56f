// `npx jest`, `npm exec eslint`, `yarn vite`, `./node_modules/.bin/tsc` read as running a known tool, but
// run what the repository's node_modules/.bin holds (a clone may commit node_modules): the approval names it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { packageScriptsRun } from '../../../src/core/agent/tools/package-scripts';

let ws: string;
before(async () => {
  ws = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-bins-')));
  await mkdir(path.join(ws, 'node_modules/.bin'), { recursive: true });
  await mkdir(path.join(ws, 'node_modules/jest/bin'), { recursive: true });
  await writeFile(path.join(ws, 'node_modules/jest/bin/jest.js'), 'x');
  await symlink('../jest/bin/jest.js', path.join(ws, 'node_modules/.bin/jest'));
  await writeFile(path.join(ws, 'node_modules/.bin/tsc'), 'x');
  await mkdir(path.join(ws, 'pkg/src'), { recursive: true });
});
after(() => rm(ws, { recursive: true, force: true }));

test('a program run from node_modules/.bin is named with the file it leads to', async () => {
  const jest = 'runs node_modules/.bin/jest of the repository (→ node_modules/jest/bin/jest.js)';
  for (const [line, said] of <[string, string][]>[
    ['npx jest --ci', `jest ${jest}`],
    ['npx -y jest', `jest ${jest}`],
    ['bunx jest', `jest ${jest}`],
    ['npm exec -- jest', `jest ${jest}`],
    ['npm x jest', `jest ${jest}`],
    ['pnpm exec jest', `jest ${jest}`],
    ['pnpm jest', `jest ${jest}`],
    ['yarn jest --watch', `jest ${jest}`],
    ['yarn run tsc', 'tsc runs node_modules/.bin/tsc of the repository'],
    ['./node_modules/.bin/tsc -p .', 'tsc runs node_modules/.bin/tsc of the repository'],
  ])
    assert.equal(await packageScriptsRun(ws, ws, line), said, line);
  // Looked for up the folders to the workspace root, as npm does.
  assert.equal(await packageScriptsRun(ws, path.join(ws, 'pkg/src'), 'npx jest'), `jest ${jest}`);
  assert.equal(await packageScriptsRun(ws, ws, 'npx vitest'), undefined);
  assert.equal(await packageScriptsRun(ws, ws, 'yarn install --frozen-lockfile'), undefined);
  assert.equal(await packageScriptsRun(ws, ws, 'jest'), undefined);
  assert.equal(await packageScriptsRun(ws, ws, 'echo "npx jest"'), undefined);
});

test('yarn and pnpm run a package script before a program of the same name: the script is named, not the program', async () => {
  await mkdir(path.join(ws, 'both/node_modules/.bin'), { recursive: true });
  await writeFile(path.join(ws, 'both/node_modules/.bin/jest'), 'x');
  await writeFile(path.join(ws, 'both/package.json'), JSON.stringify({ scripts: { jest: 'node evil.js' } }));
  const script = 'both/package.json scripts it may run: jest: "node evil.js"';
  for (const line of ['yarn jest', 'yarn run jest', 'pnpm jest'])
    assert.equal(await packageScriptsRun(ws, path.join(ws, 'both'), line), script, line);
  // npx and exec run the program whatever the scripts say.
  assert.equal(
    await packageScriptsRun(ws, path.join(ws, 'both'), 'npx jest'),
    'jest runs both/node_modules/.bin/jest of the repository',
  );
});

test('a package manager run in another folder (-C, --cwd, --prefix) runs that folder’s program', async () => {
  await mkdir(path.join(ws, 'sub/node_modules/.bin'), { recursive: true });
  await writeFile(path.join(ws, 'sub/node_modules/.bin/jest'), 'x');
  const sub = 'jest runs sub/node_modules/.bin/jest of the repository';
  for (const line of [
    'pnpm -C sub jest',
    'pnpm --dir=sub exec jest',
    'yarn --cwd sub jest',
    'npm --prefix sub exec jest',
  ])
    assert.equal(await packageScriptsRun(ws, ws, line), sub, line);
});
