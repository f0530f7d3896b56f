// The setup form's host side in a real VS Code: Test connection against a real loopback server, a closed
// port and a wrong path; the demo model run through the panel's controller, and a resumed demo session
// that keeps its masked markers and open links.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import * as vscode from 'vscode';
import { startScriptedModelServer, type ScriptedServer } from '../support/scripted-model-server';
import { listModels, testConnection } from '../../src/extension/agent/connection';
import { setupRefusal, validateSetup } from '../../src/extension/agent/setupService';
import type { ContextDeskApi } from '../../src/extension/extension';
import type { ChatToolCall, SessionSummary } from '../../src/protocol/chat';
import { api, waitFor } from './helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('contextDesk');

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('Setting up a model', function () {
  this.timeout(90_000);
  let server: ScriptedServer;
  let a: ContextDeskApi;

  before(async () => {
    a = await api();
    server = await startScriptedModelServer([]);
  });

  after(async () => {
    await server.close();
    for (const key of ['agent.provider', 'agent.model', 'agent.baseUrl', 'agent.approveCommands'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  it('Test connection lists the endpoint’s models and checks the chosen one', async () => {
    const ok = await testConnection({ provider: 'openai-compatible', baseUrl: server.baseURL, model: 'scripted' });
    assert.deepEqual(
      { ok: ok.ok, url: ok.url, models: ok.models },
      { ok: true, url: `${server.baseURL}/models`, models: ['scripted'] },
    );
    assert.equal(ok.message, `Connected to ${server.baseURL}/models: 1 model listed. "scripted" is one of them.`);
    const other = await testConnection({ provider: 'openai-compatible', baseUrl: server.baseURL, model: 'gpt-9' });
    assert.equal(other.ok, false);
    assert.match(other.message, /"gpt-9" is not one of them: choose a listed model\./);
    const seen = server.requests.filter((r) => r.path === '/v1/models').length;
    assert.equal(seen, 2, 'each test asked the endpoint');
  });

  it('a closed port, a wrong path and a non-URL each give one sentence naming the URL', async () => {
    const port = await closedPort();
    const refused = await listModels({ provider: 'openai-compatible', baseUrl: `http://127.0.0.1:${port}/v1` });
    assert.equal(refused.ok, false);
    assert.equal(
      refused.message,
      `Could not connect to http://127.0.0.1:${port}/v1/models: connection refused: nothing is listening there. Start the server, or correct the base URL.`,
    );
    const wrongPath = await listModels({ provider: 'openai-compatible', baseUrl: server.url });
    assert.match(wrongPath.message, new RegExp(`^${server.url}/models answered HTTP 404: .*end in /v1\\.$`));
    const notUrl = await listModels({ provider: 'openai-compatible', baseUrl: 'localhost:11434' });
    assert.equal(notUrl.message, '"localhost:11434" is not an http(s) URL.');
  });

  it('the form refuses what would not work, with the reason', () => {
    assert.match(validateSetup({ provider: 'openai-compatible', baseUrl: '', model: 'm' }) ?? '', /base URL/);
    assert.match(validateSetup({ provider: 'openai-compatible', baseUrl: 'ftp://x/v1', model: 'm' }) ?? '', /http/);
    assert.match(validateSetup({ provider: 'anthropic', baseUrl: '', model: ' ' }) ?? '', /Choose a model/);
    assert.match(
      validateSetup({ provider: 'openai-compatible', baseUrl: 'http://h/v1', model: 'm', contextWindow: 10 }) ?? '',
      /context window/,
    );
    assert.equal(validateSetup({ provider: 'demo', baseUrl: '', model: '' }), undefined);
    assert.equal(validateSetup({ provider: 'vscode-lm', baseUrl: '', model: '' }), undefined);
  });

  it('the form refuses a base URL that holds a key or password: settings are written to disk as they are', () => {
    const ghp = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
    for (const baseUrl of [
      'https://user:hunter2pass@llm.example.com/v1',
      `https://llm.example.com/v1?api_key=${ghp}`,
      `https://${ghp}@llm.example.com/v1`,
      'ftp://user:hunter2pass@llm.example.com/v1',
    ]) {
      const refused = validateSetup({ provider: 'openai-compatible', baseUrl, model: 'm' }) ?? '';
      assert.match(refused, /API key field/, baseUrl);
      assert.ok(!refused.includes('hunter2') && !refused.includes(ghp), `the message repeats the secret: ${refused}`);
    }
    assert.equal(
      validateSetup({ provider: 'openai-compatible', baseUrl: 'https://llm.example.com/v1', model: 'm' }),
      undefined,
    );
    assert.equal(
      setupRefusal({ provider: 'openai-compatible', baseUrl: 'https://u:p@llm.example.com/v1', model: 'm' })?.field,
      'baseUrl',
    );
  });

  it('a refusal names the field it is about, so the form can focus it', () => {
    const field = (input: Parameters<typeof setupRefusal>[0]): string | undefined => setupRefusal(input)?.field;
    assert.equal(field({ provider: 'openai-compatible', baseUrl: '', model: 'm' }), 'baseUrl');
    assert.equal(field({ provider: 'openai-compatible', baseUrl: 'ftp://x/v1', model: 'm' }), 'baseUrl');
    assert.equal(field({ provider: 'anthropic', baseUrl: '', model: ' ' }), 'model');
    assert.equal(
      field({ provider: 'openai-compatible', baseUrl: 'http://h/v1', model: 'm', contextWindow: 10 }),
      'contextWindow',
    );
    assert.equal(setupRefusal({ provider: 'demo', baseUrl: '', model: '' }), undefined);
  });

  it('Configure Agent opens the form in the panel; the focus command brings the chat back', async () => {
    await vscode.commands.executeCommand('contextDesk.configureAgent');
    await waitFor(async () => (await a.agentView.snapshot()).view === 'setup', 10_000, 'the setup view');
    await vscode.commands.executeCommand('contextDesk.showHistory');
    await waitFor(async () => (await a.agentView.snapshot()).view === 'history', 10_000, 'the History view');
    await vscode.commands.executeCommand('contextDesk.focusAgent');
    await waitFor(async () => (await a.agentView.snapshot()).view === 'chat', 10_000, 'the chat view');
  });

  it('the demo model runs the tour; its resumed session keeps masked markers and open links', async () => {
    await config().update('agent.provider', 'demo', vscode.ConfigurationTarget.Global);
    await waitFor(() => a.chat().snapshot.setup.provider === 'demo', 5_000, 'the provider change');
    a.chat().newChat();
    assert.equal(a.chat().snapshot.setup.ready, true, 'the demo needs nothing else');
    assert.ok(a.chat().send('Show me the demo').accepted);
    await waitFor(() => a.chat().snapshot.status !== 'running', 60_000, 'the tour ends');
    assert.equal(a.chat().snapshot.status, 'completed');
    const id = a.chat().snapshot.sessionId;
    const tools = (): ChatToolCall[] => a.chat().snapshot.items.flatMap((i) => (i.kind === 'assistant' ? i.tools : []));
    const build = tools().find((t) => t.tool === 'demo_build');
    assert.ok(build?.masked && build.storedAt, 'the build log is masked and stored');
    assert.equal(build.outputLines, 1500, 'the card knows the full size, not the preview’s');
    const maskedBefore = tools()
      .filter((t) => t.masked)
      .map((t) => [t.callId, t.storedAt ?? null]);
    assert.ok(maskedBefore.length >= 3);
    assert.ok(a.chat().snapshot.meter.maskedStored! >= 1);

    a.chat().newChat();
    assert.equal(await a.chat().resumeSession(id), true);
    const maskedAfter = tools()
      .filter((t) => t.masked)
      .map((t) => [t.callId, t.storedAt ?? null]);
    assert.deepEqual(maskedAfter, maskedBefore, 'the same observations are masked, with the same files');
    const resumedBuild = tools().find((t) => t.tool === 'demo_build')!;
    assert.match(resumedBuild.placeholder ?? '', /^Old environment output: \(\d+ lines omitted; full text: /);
    assert.equal(await vscode.commands.executeCommand('contextDesk.openStored', resumedBuild.storedAt), true);
    // The run's last bookkeeping (history, then calls and cost) may still be under way: New Chat came
    // right after the run ended, and must not lose them.
    const past = async (): Promise<SessionSummary | undefined> => {
      await a.chat().refreshPastSessions();
      return a.chat().snapshot.pastSessions.find((s) => s.id === id);
    };
    await waitFor(async () => ((await past())?.calls ?? 0) > 0, 10_000, 'the session lists its calls and cost');
    const listed = await past();
    assert.equal(listed?.title, 'Show me the demo');
    assert.ok((listed?.calls ?? 0) >= 10 && (listed?.costUnits ?? 0) > 0, JSON.stringify(listed));
  });
});
