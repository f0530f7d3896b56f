// New Chat in a real VS Code while the agent is still starting up (MCP servers starting).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startScriptedModelServer, type ScriptedServer } from '../support/scripted-model-server';
import type { ContextDeskApi } from '../../src/extension/extension';
import { api, extensionPath, waitFor } from './helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('contextDesk');
const SETTINGS = ['agent.baseUrl', 'agent.model', 'agent.approveCommands', 'mcp.servers'];

describe('New Chat while the agent starts', function () {
  this.timeout(90_000);
  let a: ContextDeskApi;
  let server: ScriptedServer | undefined;
  let dir: string | undefined;

  before(async () => {
    a = await api();
  });

  after(async () => {
    await server?.close();
    for (const key of SETTINGS) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the new chat never goes on with the session built for the chat left, nor its message', async () => {
    const everything = path.join(
      extensionPath(),
      'node_modules',
      '@modelcontextprotocol',
      'server-everything',
      'dist',
      'index.js',
    );
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gated-mcp-'));
    const gate = path.join(dir, 'open');
    const script = path.join(dir, 'server.mjs');
    // An MCP server that answers only once the test opens its gate: the session is being built until then.
    fs.writeFileSync(
      script,
      `import * as fs from 'node:fs';\nimport { pathToFileURL } from 'node:url';\n` +
        `const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(gate)})) { clearInterval(t); ` +
        `void import(pathToFileURL(${JSON.stringify(everything)}).href); } }, 20);\n`,
    );
    server = await startScriptedModelServer([{ reply: { text: 'Answered in the new chat.' } }]);
    const values: Record<string, unknown> = {
      'agent.baseUrl': server.baseURL,
      'agent.model': 'scripted',
      'agent.approveCommands': false,
      'mcp.servers': { gated: { command: process.execPath, args: [script] } },
    };
    for (const key of SETTINGS) await config().update(key, values[key], vscode.ConfigurationTarget.Global);
    a.chat().newChat();
    assert.ok(a.chat().send('typed in the chat left').accepted);
    const fresh = a.chat().newChat();
    fs.writeFileSync(gate, '');
    await a.chat().whenSettled();
    assert.ok(a.chat().send('first words of the new chat').accepted);
    await waitFor(() => a.chat().snapshot.status !== 'running', 30_000, 'the new chat answers');
    assert.equal(a.chat().snapshot.status, 'completed');
    assert.equal(a.chat().snapshot.sessionId, fresh);
    const [request] = server.chatRequests();
    assert.deepEqual(
      request!.messages.filter((m) => m.role === 'user').map((m) => m.content),
      ['first words of the new chat'],
      'only its own message',
    );
    const file = path.join(a.contextFolder(), 'history', `${fresh}.jsonl`);
    await waitFor(
      () => fs.existsSync(file) && /Answered in the new chat/.test(fs.readFileSync(file, 'utf8')),
      5_000,
      'its history file',
    );
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /typed in the chat left/, 'its own history file, alone');
  });
});
