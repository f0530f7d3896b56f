// The agent panel's loop in a real VS Code, driven by a scripted OpenAI-compatible server on loopback.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startScriptedModelServer, type ScriptStep, type ScriptedServer } from '../support/scripted-model-server';
import type { ContextDeskApi } from '../../src/extension/extension';
import { readSettings } from '../../src/extension/settings';
import { openTurnLimitSetting } from '../../src/extension/agent/turnLimitSetting';
import { api, extensionPath, syncAllowingWorkspaceServers, waitFor, workspaceRoot } from './helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('contextDesk');
const SETTINGS = ['agent.baseUrl', 'agent.model', 'agent.approveCommands', 'agent.budgetTokens', 'agent.budgetMode'];

/** Roles of the complete lines of a history file (one being written, or created but still empty, is read too). */
function historyRoles(file: string): string[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines.pop(); // the text after the last newline: empty, or a line still being appended
  return lines.flatMap((l) => (JSON.parse(l) as { message?: { role: string } }).message?.role ?? []);
}

describe('Agent loop in the panel', function () {
  this.timeout(60_000);
  let a: ContextDeskApi;
  let server: ScriptedServer | undefined;

  async function useScript(script: ScriptStep[], settings: Record<string, unknown> = {}): Promise<ScriptedServer> {
    await server?.close();
    server = await startScriptedModelServer(script);
    const all: Record<string, unknown> = {
      'agent.baseUrl': server.baseURL,
      'agent.model': 'scripted',
      'agent.approveCommands': false,
      ...settings,
    };
    for (const key of SETTINGS) await config().update(key, all[key], vscode.ConfigurationTarget.Global);
    a.chat().newChat();
    return server;
  }

  async function sendAndWait(
    text: string,
    until: (status: string) => boolean = (s) => s !== 'running',
  ): Promise<string> {
    const r = a.chat().send(text);
    assert.ok(r.accepted, r.reason);
    await waitFor(() => until(a.chat().snapshot.status), 30_000, `status after "${text}"`);
    return a.chat().snapshot.status;
  }

  before(async () => {
    a = await api();
  });

  after(async () => {
    await server?.close();
    for (const key of SETTINGS) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  it('asks to configure a model when none is set', async () => {
    await config().update('agent.model', undefined, vscode.ConfigurationTarget.Global);
    a.chat().newChat();
    assert.equal(a.chat().snapshot.setup.ready, false);
    assert.match(a.chat().snapshot.setup.hint ?? '', /No model is set up/);
    const refused = a.chat().send('hello');
    assert.equal(refused.accepted, false);
    assert.equal(refused.setup, true, 'the panel keeps the text and offers the setup');
    assert.equal(a.chat().snapshot.items.length, 0, 'no notice piles up in the conversation');
  });

  it('runs tool calls, applies an edit, and reports the context it sent', async () => {
    const s = await useScript([
      {
        reply: {
          text: 'Creating the file.',
          toolCalls: [{ name: 'edit_file', arguments: { path: 'notes/hello.txt', new_text: 'hi\n' } }],
        },
      },
      { reply: { text: 'Done: notes/hello.txt exists.' } },
    ]);
    assert.equal(await sendAndWait('create notes/hello.txt'), 'completed');
    assert.equal(fs.readFileSync(path.join(workspaceRoot(), 'notes', 'hello.txt'), 'utf8'), 'hi\n');
    assert.equal(s.chatRequests().length, 2);
    const second = s.chatRequests()[1]!;
    assert.ok(second.messages.some((m) => m.role === 'tool' && /Created notes\/hello.txt/.test(m.content ?? '')));
    const snap = a.chat().snapshot;
    assert.equal(snap.meter.calls, 2);
    assert.ok(snap.meter.tokensInWindow > 0);
    assert.equal(snap.series.length, 2);
    const assistant = snap.items.find((i) => i.kind === 'assistant' && i.tools.length > 0);
    assert.ok(assistant?.kind === 'assistant' && assistant.tools[0]!.state === 'ok');
    const historyDir = path.join(a.contextFolder(), 'history');
    await waitFor(() => fs.existsSync(path.join(historyDir, `${snap.sessionId}.jsonl`)), 5_000, 'the history file');
    // Message records (call records carry the accounting, without a message).
    const readRecords = (): { message: { role: string } }[] =>
      fs
        .readFileSync(path.join(historyDir, `${snap.sessionId}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { message?: { role: string } })
        .filter((r): r is { message: { role: string } } => r.message !== undefined);
    // The history is appended as the run goes; the last records may land just after the status changes.
    await waitFor(() => readRecords().length >= 5, 5_000, 'every message in the history');
    const records = readRecords();
    assert.deepEqual(
      records.map((r) => r.message.role),
      ['system', 'user', 'assistant', 'tool', 'assistant'],
    );
    assert.match(fs.readFileSync(path.join(historyDir, `${snap.sessionId}.md`), 'utf8'), /create notes\/hello.txt/);
    fs.rmSync(path.join(workspaceRoot(), 'notes'), { recursive: true, force: true });
  });

  it('sees MCP tool names only, and reads a description and calls a tool on demand', async () => {
    const everything = path.join(
      extensionPath(),
      'node_modules',
      '@modelcontextprotocol',
      'server-everything',
      'dist',
      'index.js',
    );
    const configFile = path.join(workspaceRoot(), '.vscode', 'mcp.json');
    fs.mkdirSync(path.dirname(configFile), { recursive: true });
    fs.writeFileSync(
      configFile,
      JSON.stringify({ servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }),
    );
    try {
      await syncAllowingWorkspaceServers(a);
      const s = await useScript([
        { reply: { toolCalls: [{ name: 'mcp_describe', arguments: { server: 'everything', tool: 'echo' } }] } },
        {
          reply: {
            toolCalls: [
              {
                name: 'mcp_call',
                arguments: { server: 'everything', tool: 'echo', arguments: { message: 'hi from the agent' } },
              },
            ],
          },
        },
        { reply: { text: 'Echoed.' } },
      ]);
      assert.equal(await sendAndWait('echo something'), 'completed');
      const [first, second, third] = s.chatRequests();
      const system = first!.messages[0]!.content ?? '';
      assert.match(system, /MCP tools/);
      assert.match(system, /everything \[connected\]: .*echo/);
      assert.doesNotMatch(system, /"inputSchema"|"properties"/, 'no schema in the static prompt');
      assert.ok(first!.tools?.some((t) => t.function.name === 'mcp_call'));
      assert.match(second!.messages.at(-1)!.content ?? '', /"message"/, 'the description carries the schema');
      assert.match(third!.messages.at(-1)!.content ?? '', /hi from the agent/, 'the tool was called');
    } finally {
      fs.rmSync(configFile, { force: true });
    }
  });

  it('a hard budget stops the run before the model is called', async () => {
    const s = await useScript([{ reply: { text: 'never sent' } }], {
      'agent.budgetTokens': 10,
      'agent.budgetMode': 'hard',
    });
    assert.equal(await sendAndWait('do something big'), 'budget');
    assert.equal(s.chatRequests().length, 0, 'no request passed the budget');
    assert.ok(a.chat().snapshot.items.some((i) => i.kind === 'notice'));
  });

  it('approval mode pauses until the user answers in the panel', async () => {
    const s = await useScript([{ reply: { text: 'approved and answered' } }], {
      'agent.budgetTokens': 10,
      'agent.budgetMode': 'approval',
    });
    const r = a.chat().send('needs approval');
    assert.ok(r.accepted);
    await waitFor(() => a.chat().snapshot.approval !== undefined, 10_000, 'an approval prompt');
    assert.equal(s.chatRequests().length, 0, 'paused before the call');
    assert.equal(a.chat().snapshot.approval!.kind, 'budget');
    a.chat().approvals.answer(a.chat().snapshot.approval!.id, true);
    await waitFor(() => a.chat().snapshot.status !== 'running', 20_000, 'the run ends');
    assert.equal(a.chat().snapshot.status, 'completed');
    assert.equal(s.chatRequests().length, 1);
  });

  it('switching the model and the strategy continues the conversation with the new ones', async () => {
    const s = await useScript([
      { reply: { text: 'First answer.' } },
      { reply: { text: 'Second answer.' } },
      { reply: { text: 'Third answer.' } },
    ]);
    assert.equal(await sendAndWait('remember the word kumquat'), 'completed');
    assert.equal(await a.chat().setModel('scripted-large'), 'scripted-large');
    assert.equal(a.chat().snapshot.model, 'openai-compatible/scripted-large');
    await a.chat().setStrategy('masking');
    assert.equal(await sendAndWait('what was the word?'), 'completed');
    const [first, second] = s.chatRequests();
    assert.equal(first!.model, 'scripted');
    assert.equal(second!.model, 'scripted-large');
    assert.deepEqual(
      second!.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]),
      [
        ['user', 'remember the word kumquat'],
        ['assistant', 'First answer.'],
        ['user', 'what was the word?'],
      ],
    );
    // The history file got each message once.
    const file = path.join(a.contextFolder(), 'history', `${a.chat().snapshot.sessionId}.jsonl`);
    const roles = (): string[] => historyRoles(file);
    await waitFor(() => roles().length >= 5, 5_000, 'every message in the history');
    assert.deepEqual(roles(), ['system', 'user', 'assistant', 'user', 'assistant']);

    // A model set in the settings (not the picker) applies to the next message too.
    await config().update('agent.model', 'scripted-settings', vscode.ConfigurationTarget.Global);
    await waitFor(
      () => a.chat().snapshot.model === 'openai-compatible/scripted-settings',
      5_000,
      'the label follows the setting',
    );
    assert.equal(await sendAndWait('and again?'), 'completed');
    const third = s.chatRequests()[2]!;
    assert.equal(third.model, 'scripted-settings');
    assert.equal(third.messages.filter((m) => m.role === 'user').length, 3);
    await config().update('strategy', undefined, vscode.ConfigurationTarget.Global);
  });

  it('New Chat lets the tokenizer go once the stopped run has written its last messages', async () => {
    // The history is written behind the run: a stopped run appends (and counts) its last messages after
    // New Chat. Released at New Chat itself, those counts loaded o200k again and held it for minutes.
    const s = await useScript([
      { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } },
      { fault: 'hang', text: 'Still thinking' },
    ]);
    const r = a.chat().send('read the readme');
    assert.ok(r.accepted, r.reason);
    await waitFor(() => s.stepsUsed === 2, 30_000, 'the second model call');
    assert.deepEqual(a.loadedEncodings(), ['o200k'], 'counted with o200k during the run');
    a.chat().newChat();
    await a.chat().whenSettled();
    assert.deepEqual(a.loadedEncodings(), [], 'no encoding held with no chat open');
  });

  it('a message sent after Stop, before the run has ended, is sent once it has', async () => {
    const s = await useScript([
      { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } },
      { fault: 'hang', text: 'Still thinking' },
      { reply: { text: 'Doing that instead.' } },
    ]);
    assert.ok(a.chat().send('read the readme').accepted);
    await waitFor(() => s.stepsUsed === 2, 30_000, 'the second model call');
    assert.equal(a.chat().send('too early').reason, 'The agent is still working; stop it first.');
    assert.equal(a.chat().stop(), true);
    const r = a.chat().send('do this instead');
    assert.ok(r.accepted, r.reason);
    await waitFor(() => s.stepsUsed === 3 && a.chat().snapshot.status === 'completed', 30_000, 'the waiting message');
    const users = a.chat().snapshot.items.flatMap((i) => (i.kind === 'user' ? [i.text] : []));
    assert.deepEqual(users.slice(-2), ['read the readme', 'do this instead']);
  });

  it('New Chat while a message waits for the stopped run: it stays unsent in the new chat view, never sent', async () => {
    const s = await useScript([
      { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } },
      { fault: 'hang', text: 'Still thinking' },
      { reply: { text: 'Answered.' } },
    ]);
    assert.ok(a.chat().send('read the readme').accepted);
    await waitFor(() => s.stepsUsed === 2, 30_000, 'the second model call');
    const typedIn = a.chat().snapshot.sessionId;
    assert.equal(a.chat().stop(), true);
    assert.ok(a.chat().send('do this instead').accepted, 'taken to send once the run has stopped');
    const fresh = a.chat().newChat();
    assert.notEqual(fresh, typedIn);
    await a.chat().whenSettled();
    const snap = a.chat().snapshot;
    assert.equal(snap.sessionId, fresh);
    assert.equal(snap.status, 'idle', 'the new chat never ran');
    // Only the unsent message and why: none of the stopped run's last events (its empty turn, "stopped").
    assert.deepEqual(
      snap.items.map((i) => [i.kind, i.kind === 'user' ? i.notSent === true : undefined]),
      [
        ['user', true],
        ['notice', undefined],
      ],
      JSON.stringify(snap.items),
    );
    assert.equal(snap.items[0]?.kind === 'user' && snap.items[0].text, 'do this instead');
    assert.match(snap.items[1]?.kind === 'notice' ? snap.items[1].text : '', /typed in the chat you left/);
    // The new chat's first request is its own message alone: had the waiting one been sent, it would
    // have taken this step of the script first, and be in this request.
    assert.equal(await sendAndWait('next'), 'completed');
    const third = s.chatRequests()[2]!;
    assert.deepEqual(
      third.messages.filter((m) => m.role === 'user').map((m) => m.content),
      ['next'],
    );
  });

  it('resumes a past session from its history file and goes on from it', async () => {
    const s = await useScript([{ reply: { text: 'Noted.' } }, { reply: { text: 'It was kumquat.' } }]);
    assert.equal(await sendAndWait('remember kumquat'), 'completed');
    const id = a.chat().snapshot.sessionId;
    const file = path.join(a.contextFolder(), 'history', `${id}.jsonl`);
    const roles = (): string[] => historyRoles(file);
    await waitFor(() => fs.existsSync(file) && roles().length >= 3, 5_000, 'the first answer in the history');
    a.chat().newChat();
    assert.notEqual(a.chat().snapshot.sessionId, id);

    assert.equal(await a.chat().resumeSession(id), true);
    const snap = a.chat().snapshot;
    assert.equal(snap.sessionId, id);
    assert.deepEqual(
      snap.items.flatMap((i) => (i.kind === 'notice' ? [] : [i.text])),
      ['remember kumquat', 'Noted.'],
    );
    assert.ok(snap.items.some((i) => i.kind === 'notice' && /^Resumed from .*history/.test(i.text)));

    assert.equal(await sendAndWait('what was it?'), 'completed');
    const second = s.chatRequests()[1]!;
    assert.deepEqual(
      second.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]),
      [
        ['user', 'remember kumquat'],
        ['assistant', 'Noted.'],
        ['user', 'what was it?'],
      ],
    );
    await waitFor(() => roles().length >= 5, 5_000, 'the new messages in the same history file');
    assert.deepEqual(roles(), ['system', 'user', 'assistant', 'user', 'assistant']);
  });

  it('a message sent while a past session opens is refused (the composer keeps it), not lost to the opening', async () => {
    const s = await useScript([{ reply: { text: 'Noted.' } }, { reply: { text: 'It was kumquat.' } }]);
    assert.equal(await sendAndWait('remember kumquat'), 'completed');
    const id = a.chat().snapshot.sessionId;
    await a.chat().whenSettled();
    a.chat().newChat();
    const opening = a.chat().resumeSession(id);
    // Sent into the chat the opening replaces: its run would be stopped, the message gone from view.
    const early = a.chat().send('sent while it opens');
    assert.equal(await opening, true);
    assert.equal(early.accepted, false, 'refused, so the panel keeps the text in the message box');
    assert.match(early.reason ?? '', /is opening/);
    assert.equal(await sendAndWait('what was it?'), 'completed');
    assert.deepEqual(
      s
        .chatRequests()[1]!
        .messages.filter((m) => m.role === 'user')
        .map((m) => m.content),
      ['remember kumquat', 'what was it?'],
    );
  });

  it('a budget set while the agent starts up (MCP servers starting) stops that run, not only the next', async () => {
    const everything = path.join(
      extensionPath(),
      'node_modules',
      '@modelcontextprotocol',
      'server-everything',
      'dist',
      'index.js',
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gated-mcp-'));
    const gate = path.join(dir, 'open');
    const script = path.join(dir, 'server.mjs');
    // An MCP server that answers only once the test opens its gate: the session is being built until then.
    fs.writeFileSync(
      script,
      `import * as fs from 'node:fs';\nimport { pathToFileURL } from 'node:url';\n` +
        `const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(gate)})) { clearInterval(t); ` +
        `void import(pathToFileURL(${JSON.stringify(everything)}).href); } }, 20);\n`,
    );
    const s = await useScript([{ reply: { text: 'never sent' } }]);
    await config().update(
      'mcp.servers',
      { gated: { command: process.execPath, args: [script] } },
      vscode.ConfigurationTarget.Global,
    );
    try {
      const r = a.chat().send('do something big');
      assert.ok(r.accepted, r.reason);
      await config().update('agent.budgetMode', 'hard', vscode.ConfigurationTarget.Global);
      await config().update('agent.budgetTokens', 10, vscode.ConfigurationTarget.Global);
      fs.writeFileSync(gate, '');
      await waitFor(() => a.chat().snapshot.status !== 'running', 50_000, 'the run ends');
      assert.equal(a.chat().snapshot.status, 'budget');
      assert.equal(s.chatRequests().length, 0, 'no request passed the budget set during start-up');
    } finally {
      fs.writeFileSync(gate, '');
      await config().update('mcp.servers', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Open Transcript refuses a transcript that is a link (a repository can ship one) and says why', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'transcript-outside-'));
    const credentials = path.join(outside, 'credentials');
    fs.writeFileSync(credentials, '[default]\n');
    await a.chat().refreshPastSessions(); // opens the store, which makes its folders
    const link = path.join(a.contextFolder(), 'history', 'shipped.md');
    fs.symlinkSync(credentials, link);
    try {
      assert.equal(await a.chat().openTranscript('shipped'), false);
      assert.ok(
        !vscode.workspace.textDocuments.some((d) => [link, credentials].includes(d.uri.fsPath)),
        'nothing was opened',
      );
      assert.ok(a.chat().snapshot.items.some((i) => i.kind === 'notice' && /shipped\.md is a link/.test(i.text)));
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(link);
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a malformed tool call is retried with retry filtering', async () => {
    const s = await useScript([
      { reply: { toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt', new_text: 'a' } }] } },
      { fault: 'malformed-tool-call', name: 'edit_file' },
      { reply: { text: 'finished' } },
    ]);
    assert.equal(await sendAndWait('go'), 'completed');
    const requests = s.chatRequests();
    assert.equal(requests.length, 3);
    const retry = requests[2]!;
    assert.ok(!retry.messages.some((m) => m.role === 'tool'), 'tool results are dropped on the retry');
    assert.ok(
      retry.messages.some((m) => /edit_file/.test(m.content ?? '')),
      'one line names the tool already used',
    );
    fs.rmSync(path.join(workspaceRoot(), 'a.txt'), { force: true });
  });

  it('the turn limit a workspace lowered is named as such, and Open Setting opens the workspace settings at it', async () => {
    await config().update('agent.maxTurns', 30, vscode.ConfigurationTarget.Global);
    await config().update('agent.maxTurns', 1, vscode.ConfigurationTarget.Workspace);
    try {
      await useScript([
        { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } },
        { reply: { text: 'never asked' } },
      ]);
      assert.equal(await sendAndWait('read the readme'), 'max-turns');
      const notice = a.chat().snapshot.items.find((i) => i.kind === 'notice');
      assert.ok(notice?.kind === 'notice');
      assert.match(notice.text, /after 1 model call\b/);
      assert.match(notice.text, /is 1 in the workspace settings/, notice.text);
      assert.equal(await openTurnLimitSetting(readSettings(config())), 'workspace');
      const editor = vscode.window.activeTextEditor;
      assert.equal(editor?.document.uri.fsPath, path.join(workspaceRoot(), '.vscode', 'settings.json'));
      assert.equal(editor.document.getText(editor.selection), '"contextDesk.agent.maxTurns"');

      // Where the user's own value applies, the notice and the button stay with the user settings.
      await config().update('agent.maxTurns', undefined, vscode.ConfigurationTarget.Workspace);
      await config().update('agent.maxTurns', 1, vscode.ConfigurationTarget.Global);
      await useScript([
        { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } },
      ]);
      assert.equal(await sendAndWait('read the readme'), 'max-turns');
      const own = a.chat().snapshot.items.find((i) => i.kind === 'notice');
      assert.ok(own?.kind === 'notice');
      assert.doesNotMatch(own.text, /workspace/);
      assert.equal(await openTurnLimitSetting(readSettings(config())), 'global');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await config().update('agent.maxTurns', undefined, vscode.ConfigurationTarget.Workspace);
      await config().update('agent.maxTurns', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('closing the window mid-answer still writes the stopped answer to the history file', async () => {
    const s = await useScript([
      { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } },
      { fault: 'hang', text: 'Still thinking' },
    ]);
    assert.ok(a.chat().send('read the readme').accepted);
    const shown = (): boolean =>
      a.chat().snapshot.items.some((i) => i.kind === 'assistant' && i.text === 'Still thinking');
    await waitFor(() => s.stepsUsed === 2 && shown(), 30_000, 'the answer streaming');
    const file = path.join(a.contextFolder(), 'history', `${a.chat().snapshot.sessionId}.jsonl`);
    a.chat().dispose(); // as the window closing does: it stops the run
    try {
      await a.chat().whenSettled();
      // What the panel showed is what a resume gives the model: the stopped answer as far as it streamed.
      const answers = (): string[] =>
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .flatMap((l) => {
            const m = (JSON.parse(l) as { message?: { role: string; content: string } }).message;
            return m?.role === 'assistant' ? [m.content] : [];
          });
      assert.deepEqual(answers(), ['Reading.', 'Still thinking']);
    } finally {
      a.chat().newChat();
    }
  });

  // Last: it disposes the chat as a closing window does (New Chat then gives the later suites a new one).
  it('closing the window while a message waits for the stopped run keeps it as the draft, never sent', async () => {
    const s = await useScript([
      { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } },
      { fault: 'hang', text: 'Still thinking' },
      { reply: { text: 'Answered.' } },
    ]);
    assert.ok(a.chat().send('read the readme').accepted);
    await waitFor(() => s.stepsUsed === 2, 30_000, 'the second model call');
    assert.equal(a.chat().stop(), true);
    assert.ok(a.chat().send('do this instead, kept').accepted, 'taken to send once the run has stopped');
    // An earlier test may have left text in the message box: the kept message goes before it.
    const typed = a.composerDraft();
    a.chat().dispose();
    try {
      const kept = typed.trim() === '' ? 'do this instead, kept' : `do this instead, kept\n\n${typed}`;
      assert.equal(a.composerDraft(), kept, 'the panel opens with it in the message box');
      await a.chat().whenSettled();
      // A message sent when the run ended would have started a run before this one settled.
      assert.equal(a.chat().isRunning, false, 'nothing started after the stopped run');
      assert.equal(s.stepsUsed, 2, 'the waiting message never reached the model');
      assert.ok(
        !s.chatRequests().some((r) => r.messages.some((m) => /do this instead/.test(m.content ?? ''))),
        'no request carries it',
      );
    } finally {
      a.chat().newChat();
    }
  });
});
