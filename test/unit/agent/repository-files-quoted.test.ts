// The readers that name what a command runs from the repository (node_modules/.bin, project builds,
// compose files, git hooks, build files) read the line as the shell does: a tool line that names files
// when run names nothing when it is only text in quotes (`echo 'npx jest'`), whatever is around it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { packageScriptsRun } from '../../../src/core/agent/tools/package-scripts';

let ws: string;
before(async () => {
  ws = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-quoted-')));
  await mkdir(path.join(ws, 'node_modules/.bin'), { recursive: true });
  await writeFile(path.join(ws, 'node_modules/.bin/jest'), 'x');
  await writeFile(path.join(ws, 'setup.py'), 'x');
  await writeFile(path.join(ws, 'compose.yaml'), 'services:\n  x:\n    privileged: true\n');
  await mkdir(path.join(ws, '.git/hooks'), { recursive: true });
  await writeFile(path.join(ws, '.git/hooks/pre-commit'), '#!/bin/sh\n');
  await chmod(path.join(ws, '.git/hooks/pre-commit'), 0o755);
  await writeFile(path.join(ws, 'eslint.config.js'), 'x');
});
after(() => rm(ws, { recursive: true, force: true }));

const LINES = ['npx jest', 'pip install -e .', 'docker compose up', 'git commit -m x', 'npx eslint .'];

test('each tool line names files when run', async () => {
  for (const line of LINES) assert.notEqual(await packageScriptsRun(ws, ws, line), undefined, line);
});

test('a tool line in quotes names nothing, whatever text is around it', async () => {
  const text = fc.string({ maxLength: 20 }).map((s) => s.replace(/'/g, ''));
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...LINES), text, text, async (line, before, after) => {
      assert.equal(await packageScriptsRun(ws, ws, `echo '${before}${line}${after}'`), undefined);
    }),
    { numRuns: 60 },
  );
});
