// `pip install -e .`, `poetry install`, `uv sync` read as installing dependencies, but build the project
// itself: they run its setup.py, or the build backend its pyproject.toml names (which `backend-path` can
// put in the repository). The approval names those files.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { packageScriptsRun } from '../../../src/core/agent/tools/package-scripts';

let ws: string;
before(async () => {
  ws = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-pybuild-')));
  await writeFile(path.join(ws, 'setup.py'), 'import os');
  await writeFile(
    path.join(ws, 'pyproject.toml'),
    '[project]\nname = "x"\n\n[build-system]\nrequires = ["setuptools"]\nbuild-backend = "backend"\nbackend-path = ["_build"]\n',
  );
  await mkdir(path.join(ws, 'lib'));
  await writeFile(
    path.join(ws, 'lib/pyproject.toml'),
    "[build-system]\nrequires = ['hatchling']\nbuild-backend = 'hatchling.build'\n",
  );
  await mkdir(path.join(ws, 'empty'));
});
after(() => rm(ws, { recursive: true, force: true }));

test('installing or building a Python project names the build code it runs', async () => {
  const root =
    'runs the project build: setup.py, pyproject.toml build-backend "backend" from backend-path "_build" (code the repository holds)';
  for (const [line, said] of <[string, string][]>[
    ['pip install -e .', `pip install ${root}`],
    ['pip3 install --editable .', `pip install ${root}`],
    ['python -m pip install .', `pip install ${root}`],
    ['uv pip install -e .', `pip install ${root}`],
    ['pip install ./lib', 'pip install runs the project build: lib/pyproject.toml build-backend "hatchling.build"'],
    ['pip install -e lib', 'pip install runs the project build: lib/pyproject.toml build-backend "hatchling.build"'],
    ['python setup.py develop', `python setup.py ${root}`],
    ['poetry install', `poetry install ${root}`],
    ['uv sync', `uv sync ${root}`],
    ['pdm install', `pdm install ${root}`],
    // uv run and hatch run install the project (its build) before the program they run.
    ['uv run pytest', `uv run ${root}`],
    ['hatch run test', `hatch run ${root}`],
    ['python -m build', `python -m build ${root}`],
    ['pip wheel .', `pip wheel ${root}`],
  ])
    assert.equal(await packageScriptsRun(ws, ws, line), said, line);
  assert.equal(await packageScriptsRun(ws, ws, 'pip install requests'), undefined);
  assert.equal(await packageScriptsRun(ws, ws, 'pip install -r requirements.txt'), undefined);
  assert.equal(await packageScriptsRun(ws, path.join(ws, 'empty'), 'pip install -e .'), undefined);
  assert.equal(await packageScriptsRun(ws, ws, 'echo "pip install ."'), undefined);
});
