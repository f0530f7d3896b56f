// An edit's text is followed to everywhere it is written: the user's file gets it exactly; the store
// (the history's tool-call arguments and results, its transcript, anything else under the Context Desk
// folder) gets it redacted, including a secret in the edited file's name and in JSON-escaped lines.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextDeskApi } from '../../src/extension/extension';
import { AgentDriver } from './driver';
import { api, waitFor, workspaceRoot } from './helpers';

// Fake credentials (test/fixtures/secrets/README.md): none was ever issued.
const TOKEN = 'ghp_' + 'Zr4Tq8Lm2Vx6Np0Bc5Hd9Jk3Ws7Ye1Ua4Gf';
const PASSWORD = 'Hx7vQ2mN9pL4wR8k';
const OLD_PASSWORD = 'Bq3zT6yU1oP5aS9d';

function filesUnder(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const stack = [dir];
  for (let d = stack.pop(); d !== undefined; d = stack.pop())
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) out.push({ file: p, text: fs.readFileSync(p, 'utf8') });
    }
  return out;
}

describe('Secrets in an edit', function () {
  this.timeout(120_000);
  let a: ContextDeskApi;
  let d: AgentDriver;
  const name = `es-${TOKEN}.env`;
  const file = (): string => path.join(workspaceRoot(), name);

  before(async () => {
    a = await api();
    d = new AgentDriver(a);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await d.dispose();
    fs.rmSync(file(), { force: true });
  });

  it('applies the exact text to the file, and the store keeps none of its secrets', async () => {
    fs.writeFileSync(file(), `A=1\nDB_PASSWORD=${OLD_PASSWORD}\n`);
    const newText = `DB_PASSWORD=${PASSWORD}\nGITHUB_TOKEN=${TOKEN}`;
    await d.script([
      {
        reply: {
          toolCalls: [
            {
              name: 'edit_file',
              arguments: { path: name, old_text: `DB_PASSWORD=${OLD_PASSWORD}`, new_text: newText },
            },
          ],
        },
      },
      { reply: { text: 'done' } },
    ]);
    await d.send('rotate the password');
    const request = await d.approval('edit');
    // The approval shows what is applied, exactly (it is never stored).
    assert.ok(request.detail.includes(PASSWORD), 'the approval shows the exact text');
    d.answer(request, true);
    assert.equal(await d.finished(), 'completed');
    assert.equal(fs.readFileSync(file(), 'utf8'), `A=1\n${newText}\n`, 'the file gets the exact text');

    const session = a.chat().snapshot.sessionId;
    const jsonl = path.join(a.contextFolder(), 'history', `${session}.jsonl`);
    // The history is appended as the run goes: wait for the final answer's record.
    await waitFor(
      () => fs.existsSync(jsonl) && /"content":"done"/.test(fs.readFileSync(jsonl, 'utf8')),
      5_000,
      'the history',
    );
    const all = filesUnder(a.contextFolder());
    assert.ok(all.some((f) => f.file === jsonl) && all.some((f) => f.file.endsWith(`${session}.md`)));
    for (const { file: f, text } of all)
      for (const secret of [TOKEN.slice(4, 20), PASSWORD, OLD_PASSWORD]) {
        assert.ok(!text.includes(secret), `${f} holds ${secret}`);
        assert.ok(!f.includes(secret), `${f} is named after ${secret}`);
      }
    // The edit is still recorded: its arguments are there, redacted where a secret was.
    assert.match(fs.readFileSync(jsonl, 'utf8'), /edit_file.*DB_PASSWORD=\[REDACTED:/);
  });
});
