// A cloned repository can ship a store (its marker too) whose history folder is a link to another
// project's history: its sessions are not this store's. History does not list them, resume refuses
// them, and nothing of the other folder's files is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContextStore } from '../../../src/core/store/context-store';
import { listSessions, loadSession } from '../../../src/core/store/history';
import { STORE_MARKER } from '../../../src/core/store/ownership';
import { tempDir } from './helpers';

const record = JSON.stringify({ v: 1, kind: 'message', index: 0, message: { role: 'user', content: 'FOREIGN' } });

async function shipped(t: Parameters<typeof tempDir>[0], link: (other: string) => string): Promise<ContextStore> {
  const top = fs.realpathSync(await tempDir(t));
  const other = path.join(top, 'other-project', '.context-desk', 'history');
  fs.mkdirSync(other, { recursive: true });
  fs.writeFileSync(path.join(other, 's1.jsonl'), `${record}\n`);
  const root = path.join(top, 'ws', '.context-desk');
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, STORE_MARKER), '');
  fs.writeFileSync(path.join(root, '.gitignore'), '*\n');
  fs.symlinkSync(link(other), path.join(root, 'history'));
  return ContextStore.open({ root, workspaceRoot: path.join(top, 'ws') });
}

for (const [kind, link] of [
  ['absolute', (other: string) => other],
  ['relative', () => '../../other-project/.context-desk/history'],
] as const)
  test(`a history folder that is a ${kind} link lists no session and resumes none`, async (t) => {
    const store = await shipped(t, link);
    assert.deepEqual(await listSessions(store), []);
    await assert.rejects(loadSession(store, 's1'), /link/);
  });
