// MCP calls are side effects: approved in the panel like commands, with the server, the tool and the
// arguments shown; "always allow" per server and tool for the workspace, and a command to reset it;
// read-only tools unasked only when the user trusts the annotation; VS Code internal tools never offered.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextDeskApi } from '../../src/extension/extension';
import { AgentDriver } from './driver';
import { api, extensionPath, syncAllowingWorkspaceServers, workspaceRoot } from './helpers';

const call = (tool: string, args: object) => ({
  reply: { toolCalls: [{ name: 'mcp_call', arguments: { server: 'filesystem', tool, arguments: args } }] },
});

describe('MCP calls need approval', function () {
  this.timeout(120_000);
  let a: ContextDeskApi;
  let d: AgentDriver;
  const root = (): string => path.join(workspaceRoot(), 'mcp-root');
  const configFile = (): string => path.join(workspaceRoot(), '.vscode', 'mcp.json');

  before(async () => {
    a = await api();
    d = new AgentDriver(a);
    fs.mkdirSync(root(), { recursive: true });
    const server = path.join(extensionPath(), 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist');
    fs.mkdirSync(path.dirname(configFile()), { recursive: true });
    fs.writeFileSync(
      configFile(),
      JSON.stringify({
        servers: { filesystem: { command: process.execPath, args: [path.join(server, 'index.js'), root()] } },
      }),
    );
    const states = await syncAllowingWorkspaceServers(a);
    assert.equal(states.find((s) => s.name === 'filesystem')?.status, 'connected');
    await vscode.commands.executeCommand('contextDesk.resetMcpApprovals');
  });
  after(async () => {
    await d.dispose();
    fs.rmSync(configFile(), { force: true });
    fs.rmSync(root(), { recursive: true, force: true });
    await vscode.commands.executeCommand('contextDesk.resetMcpApprovals');
    await vscode.commands.executeCommand('contextDesk.mcp.forgetAllowedServers');
  });

  it('asks before write_file, naming server, tool and arguments; declined, nothing is written', async () => {
    const target = path.join(root(), 'a.txt');
    await d.script([call('write_file', { path: target, content: 'first' }), { reply: { text: 'ok' } }]);
    await d.send('write a.txt');
    const request = await d.approval('mcp');
    assert.equal(request.mcp?.server, 'filesystem');
    assert.equal(request.mcp?.tool, 'write_file');
    assert.equal(request.mcp?.readOnlyHint, false);
    assert.equal(request.mcp?.arguments, JSON.stringify({ path: target, content: 'first' }, null, 2));
    assert.match(request.alwaysLabel ?? '', /^Always allow filesystem › write_file/);
    const card = a
      .chat()
      .snapshot.items.flatMap((i) => (i.kind === 'assistant' ? i.tools : []))
      .find((t) => t.tool === 'mcp_call');
    assert.equal(card?.title, 'filesystem › write_file', 'the tool card names the server and the tool');
    d.answer(request, false);
    assert.equal(await d.finished(), 'completed');
    assert.match(d.toolResults(1)[0] ?? '', /declined the call of filesystem\/write_file/);
    assert.equal(fs.existsSync(target), false);
  });

  it('"always allow" is remembered per tool for the workspace, until reset', async () => {
    const target = path.join(root(), 'b.txt');
    await d.script([
      call('write_file', { path: target, content: 'one' }),
      call('write_file', { path: target, content: 'two' }),
      { reply: { text: 'ok' } },
    ]);
    await d.send('write b.txt twice');
    d.answer(await d.approval('mcp'), true, true);
    assert.equal(await d.finished(), 'completed', 'the second call was not asked about');
    assert.equal(fs.readFileSync(target, 'utf8'), 'two');

    assert.equal(await vscode.commands.executeCommand('contextDesk.resetMcpApprovals'), 1);
    await d.script([call('write_file', { path: target, content: 'three' }), { reply: { text: 'ok' } }]);
    await d.send('write b.txt again');
    d.answer(await d.approval('mcp'), false);
    assert.equal(await d.finished(), 'completed');
    assert.equal(fs.readFileSync(target, 'utf8'), 'two', 'asked again after the reset');
  });

  it('runs read-only tools unasked only when the user trusts readOnlyHint', async () => {
    await d.script([call('list_allowed_directories', {}), { reply: { text: 'ok' } }], {
      'agent.autoApproveReadOnlyMcpTools': true,
    });
    await d.send('where may you write?');
    assert.equal(await d.finished(), 'completed');
    assert.match(d.toolResults(1)[0] ?? '', /mcp-root/);

    await d.script([call('list_allowed_directories', {}), { reply: { text: 'ok' } }], {
      'agent.autoApproveReadOnlyMcpTools': false,
    });
    await d.send('and now?');
    const request = await d.approval('mcp');
    assert.equal(request.mcp?.readOnlyHint, true);
    d.answer(request, true);
    assert.equal(await d.finished(), 'completed');
  });

  it('never offers VS Code internal tools (or Context Desk own) through the vscode server', () => {
    const vscodeServer = a.tools().mcp.manager.servers.find((s) => s.name === 'vscode');
    assert.ok(vscodeServer, 'VS Code tools are offered as the server "vscode"');
    const names = vscodeServer.tools.map((t) => t.name);
    assert.ok(
      vscode.lm.tools.some((t) => t.name.endsWith('_internal')),
      'this VS Code has internal tools to leave out',
    );
    assert.deepEqual(
      names.filter((n) => n.endsWith('_internal') || n.startsWith('contextDesk_')),
      [],
    );
  });
});
