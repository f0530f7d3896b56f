// `docker compose up` reads as starting the project's services, but its compose file can mount the
// host's / or ~/.ssh into a container, or run one privileged: the approval names those settings.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { packageScriptsRun } from '../../../src/core/agent/tools/package-scripts';
import { composeSettings } from '../../../src/core/agent/tools/compose-files';

let ws: string;
before(async () => {
  ws = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-compose-')));
  await writeFile(
    path.join(ws, 'compose.yaml'),
    [
      'services:',
      '  app:',
      '    image: node',
      '    privileged: true',
      '    ports:',
      '      - "8080:80"',
      '    volumes:',
      '      - ./src:/app/src',
      '      - "/:/host"',
      '      - ~/.ssh:/root/.ssh:ro',
      '      - data:/var/lib/data',
      '      - type: bind',
      '        source: ../secrets',
      '        target: /s',
      '    pid: host',
      'volumes:',
      '  data:',
      '',
    ].join('\n'),
  );
  await mkdir(path.join(ws, 'ops'));
  await writeFile(path.join(ws, 'ops/dev.yml'), 'services:\n  x:\n    volumes:\n      - ${HOME}:/home\n');
  // Secrets, env files and build contexts read host files too.
  await writeFile(
    path.join(ws, 'ops/secrets.yml'),
    'services:\n  x:\n    build:\n      context: /\n    env_file: ~/.aws/credentials\nsecrets:\n  key:\n    file: ~/.ssh/id_rsa\n',
  );
  // A build given the host's SSH agent: the Dockerfile's `RUN --mount=type=ssh` can use the user's keys.
  await writeFile(
    path.join(ws, 'ops/build.yml'),
    'services:\n  x:\n    build:\n      context: .\n      ssh:\n        - default\n',
  );
  await mkdir(path.join(ws, 'safe'));
  await writeFile(path.join(ws, 'safe/docker-compose.yml'), 'services:\n  x:\n    volumes:\n      - .:/app\n');
});
after(() => rm(ws, { recursive: true, force: true }));

test('docker compose names the host paths outside the workspace its compose file mounts, and privileged', async () => {
  const root = `compose.yaml uses host paths outside the workspace: /, ~/.ssh, ${path.dirname(ws)}/secrets; sets privileged: true, pid: host`;
  for (const [line, said] of <[string, string][]>[
    ['docker compose up -d', `docker compose reads ${root}`],
    ['docker-compose run app sh', `docker-compose reads ${root}`],
    ['podman compose up', `podman compose reads ${root}`],
    [
      'docker compose -f ops/dev.yml up',
      'docker compose reads ops/dev.yml uses host paths outside the workspace: ${HOME}',
    ],
    [
      'docker compose --file=ops/dev.yml up',
      'docker compose reads ops/dev.yml uses host paths outside the workspace: ${HOME}',
    ],
  ])
    assert.equal(await packageScriptsRun(ws, ws, line), said, line);
  assert.equal(
    await packageScriptsRun(ws, ws, 'docker compose -f ops/secrets.yml build'),
    'docker compose reads ops/secrets.yml uses host paths outside the workspace: /, ~/.aws/credentials, ~/.ssh/id_rsa',
  );
  assert.equal(
    await packageScriptsRun(ws, ws, 'docker compose -f ops/build.yml build'),
    "docker compose reads ops/build.yml sets build ssh (the host's SSH agent is lent to the build)",
  );
  assert.equal(await packageScriptsRun(ws, path.join(ws, 'safe'), 'docker compose up'), undefined);
  assert.equal(await packageScriptsRun(ws, ws, 'docker ps'), undefined);
  assert.equal(await packageScriptsRun(ws, ws, 'echo "docker compose up"'), undefined);
});

test('a compose file in flow style says the same as in block style: privileged, host namespaces, mounts', () => {
  const flow = [
    'services:',
    '  app: {image: x, privileged: True, pid: "host", volumes: ["/:/host", ./src:/app, ~/.ssh:/root/.ssh]}',
    '  db:',
    '    volumes: [/etc:/etc]',
    '    env_file: [~/.aws/credentials]',
  ].join('\n');
  const { mounts, settings } = composeSettings(flow);
  assert.deepEqual(settings.sort(), ['pid: host', 'privileged: true']);
  for (const m of ['/', '~/.ssh', '/etc', '~/.aws/credentials'])
    assert.ok(mounts.includes(m), `${m} in ${mounts.join(', ')}`);
  // A key that only ends in the word is not the setting.
  assert.deepEqual(composeSettings('x_privileged: true\nnot_pid: host').settings, []);
});
