// In real VS Code: the approval of a command shows what its tools run from the repository, though the
// line does not say it (`docker compose up` with a compose file that mounts the host's /).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AgentDriver } from './driver';
import { api, workspaceRoot } from './helpers';

describe('Command approvals name what a command runs from the repository', function () {
  this.timeout(120_000);
  let d: AgentDriver;
  const folder = (): string => path.join(workspaceRoot(), 'rf-compose');

  before(async () => {
    d = new AgentDriver(await api());
    fs.mkdirSync(folder(), { recursive: true });
    fs.writeFileSync(
      path.join(folder(), 'compose.yaml'),
      'services:\n  x:\n    image: alpine\n    privileged: true\n    volumes:\n      - /:/host\n',
    );
  });
  after(async () => {
    await d.dispose();
    fs.rmSync(folder(), { recursive: true, force: true });
  });

  it('names the host mounts and privileged setting of the compose file docker compose up reads', async () => {
    const call = { name: 'run_command', arguments: { command: 'docker compose up -d', cwd: 'rf-compose' } };
    await d.script([{ reply: { toolCalls: [call] } }, { reply: { text: 'done' } }]);
    await d.send('start the services');
    const request = await d.approval('command');
    assert.match(
      request.detail,
      /\(docker compose reads rf-compose\/compose\.yaml uses host paths outside the workspace: \/; sets privileged: true\)/,
    );
    d.answer(request, false);
    assert.equal(await d.finished(), 'completed');
  });
});
