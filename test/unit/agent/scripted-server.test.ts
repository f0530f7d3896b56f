// The scripted server as the integration and e2e tests use it: a standalone process, and the long-task
// script driving the real loop with the real workspace tools over 16+ turns.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import { createWorkspaceTools } from '../../../src/core/agent/tools';
import { LONG_TASK_ANSWER, longTaskScript } from '../../support/long-task-script';
import { loadScript } from '../../support/scripted-model-server';
import { harness } from './helpers';

const root = path.resolve(__dirname, '../../..');

test('standalone: tsx scripted-model-server.ts --script FILE prints its URL and serves the script', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cd-script-'));
  const file = path.join(dir, 'script.json');
  writeFileSync(file, JSON.stringify({ steps: [{ reply: { text: 'hello from the script' } }] }));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'test/support/scripted-model-server.ts'), '--script', file, '--port', '0'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 15_000);
    });
    const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: { id: string }[] };
    assert.equal(models.data[0]!.id, 'scripted');
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    assert.equal(body.choices[0]!.message.content, 'hello from the script');
    const exhausted = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ messages: [] }),
    });
    assert.equal(exhausted.status, 500);
    assert.match(await exhausted.text(), /only 1 steps/);
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad scripts and bad requests get clear errors', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cd-script-'));
  try {
    writeFileSync(path.join(dir, 'a.json'), '{"steps": [{"nope": 1}]}');
    assert.throws(() => loadScript(path.join(dir, 'a.json')), /Step 1 .* needs "reply" or "fault"/);
    writeFileSync(path.join(dir, 'b.json'), '{not json');
    assert.throws(() => loadScript(path.join(dir, 'b.json')), /Cannot read the script/);
    assert.throws(() => longTaskScript({ turns: 3 }), /turns must be an integer >= 16/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const h = await harness([]);
  try {
    const r = await fetch(`${h.server.baseURL}/chat/completions`, { method: 'POST', body: '{oops' });
    assert.equal(r.status, 400);
    const r2 = await fetch(`${h.server.baseURL}/chat/completions`, { method: 'POST', body: '{}' });
    assert.equal(r2.status, 400);
    assert.equal(h.server.stepsUsed, 0);
  } finally {
    await h.close();
  }
});

test('the long-task script drives the real tools in a real workspace over 18 turns, masking early output', async () => {
  const ws = mkdtempSync(path.join(tmpdir(), 'cd-ws-'));
  cpSync(path.join(root, 'test/fixtures/workspace'), ws, { recursive: true });
  const ran: string[] = [];
  const tools = createWorkspaceTools({
    workspaceRoot: ws,
    command: {
      run: (r) => {
        ran.push(r.command);
        const lines = Array.from({ length: 300 }, (_, i) => `CC src/module_${i + 1}.c -> build/module_${i + 1}.o`);
        return Promise.resolve({ ok: true, text: `${lines.join('\n')}\nexit code 0` });
      },
    },
  });
  const h = await harness(longTaskScript(), {
    tools: new ToolRegistry(tools),
    strategy: 'masking',
    strategyOptions: { window: 10 },
  });
  try {
    assert.equal(await h.agent.send('Find the build warning'), 'completed');
    const state = h.agent.state();
    assert.equal(state.turns, 19);
    assert.equal(state.messages.at(-1)!.content, LONG_TASK_ANSWER);
    const results = h.events.flatMap((e) => (e.type === 'tool-call-finished' ? [e] : []));
    assert.equal(results.length, 18);
    assert.ok(
      results.every((r) => r.status === 'ok'),
      JSON.stringify(results.filter((r) => r.status !== 'ok')),
    );
    assert.deepEqual(
      new Set(results.map((r) => r.tool)),
      new Set(['list_dir', 'read_file', 'grep', 'run_command', 'tail']),
    );
    assert.ok(ran.length >= 3);
    const last = h.server.chatRequests().at(-1)!;
    const first = last.messages.find((m) => m.role === 'tool')!;
    assert.match(first.content!, /^Old environment output: \(\d+ lines omitted\)$/);
  } finally {
    await h.close();
    rmSync(ws, { recursive: true, force: true });
  }
});

test('a step can be a function of the request, and replies stream in several chunks', async () => {
  const deltas: string[] = [];
  const h = await harness([
    {
      reply: {
        text: 'A fairly long sentence that arrives in pieces.',
        toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }],
      },
      chunkDelayMs: 5,
    },
    (req, index) => ({
      reply: {
        text: `request ${index + 1} had ${req.messages.length} messages, last from ${req.messages.at(-1)!.role}`,
      },
    }),
  ]);
  try {
    h.agent.on((e) => {
      if (e.type === 'text-delta' && e.turn === 1) deltas.push(e.text);
    });
    await h.agent.send('Go');
    assert.ok(deltas.length >= 3, `${deltas.length} deltas`);
    assert.equal(deltas.join(''), 'A fairly long sentence that arrives in pieces.');
    assert.equal(h.agent.state().messages.at(-1)!.content, 'request 2 had 4 messages, last from tool');
    assert.equal(h.server.requests[0]!.method, 'POST');
  } finally {
    await h.close();
  }
});
