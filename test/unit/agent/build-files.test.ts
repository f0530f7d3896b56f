// `cargo test`, `./gradlew build`, `pytest`, `just`, `rake` read as "build" or "test" but run code the
// repository holds (build.rs, the Gradle wrapper, conftest.py, a justfile): the approval names those files.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { packageScriptsRun } from '../../../src/core/agent/tools/package-scripts';

let ws: string;
before(async () => {
  ws = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-build-')));
  for (const file of [
    'build.rs',
    '.cargo/config.toml',
    'gradle/wrapper/gradle-wrapper.jar',
    'build.gradle.kts',
    'tests/conftest.py',
    'conftest.py',
    'justfile',
    'Rakefile',
    'Taskfile.yml',
  ])
    await mkdir(path.dirname(path.join(ws, file)), { recursive: true }).then(() => writeFile(path.join(ws, file), 'x'));
  await mkdir(path.join(ws, 'empty'));
});
after(() => rm(ws, { recursive: true, force: true }));

test('build and test tools name the files of the repository they run', async () => {
  for (const [line, said] of <[string, string][]>[
    ['cargo test', 'cargo runs code the repository holds: build.rs, .cargo/config.toml'],
    [
      './gradlew build',
      './gradlew runs code the repository holds: gradle/wrapper/gradle-wrapper.jar, build.gradle.kts',
    ],
    ['pytest -q', 'pytest runs code the repository holds: conftest.py'],
    ['python -m pytest', 'pytest runs code the repository holds: conftest.py'],
    ['just test', 'just runs code the repository holds: justfile'],
    ['bundle exec rake', 'rake runs code the repository holds: Rakefile'],
    ['task build', 'task runs code the repository holds: Taskfile.yml'],
  ])
    assert.equal(await packageScriptsRun(ws, ws, line), said, line);
  // cargo reads the .cargo/config.toml of every folder above too (repository-code.ts names those).
  assert.equal(
    await packageScriptsRun(ws, path.join(ws, 'empty'), 'cargo test'),
    'cargo test reads .cargo/config.toml',
  );
  assert.equal(await packageScriptsRun(ws, path.join(ws, 'empty'), 'just x'), undefined);
  assert.equal(await packageScriptsRun(ws, ws, 'echo "cargo test"'), undefined);
});
