// Terminal capture in a real VS Code: back-to-back and pasted commands, tasks, terminals that were
// open before capture began, readable logs with unique names.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextDeskApi } from '../../src/extension/extension';
import { readTerminalLog } from '../../src/core/store/terminal-log-reader';
import { api, waitFor } from './helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('contextDesk');

/** Start and end events of one terminal's executions, as this test saw them. */
function watch(terminal: () => vscode.Terminal | undefined): {
  starts: string[];
  ends: Map<string, number | undefined>;
  dispose(): void;
} {
  const starts: string[] = [];
  const ends = new Map<string, number | undefined>();
  const subs = [
    vscode.window.onDidStartTerminalShellExecution((e) => {
      if (e.terminal === terminal()) starts.push(e.execution.commandLine.value);
    }),
    vscode.window.onDidEndTerminalShellExecution((e) => {
      if (e.terminal === terminal()) ends.set(e.execution.commandLine.value, e.exitCode);
    }),
  ];
  return { starts, ends, dispose: () => subs.forEach((s) => s.dispose()) };
}

async function bash(name: string): Promise<vscode.Terminal> {
  const terminal = vscode.window.createTerminal({ name, shellPath: '/bin/bash' });
  await waitFor(() => terminal.shellIntegration !== undefined, 30_000, `shell integration in ${name}`);
  return terminal;
}

async function logOf(a: ContextDeskApi, terminal: vscode.Terminal): Promise<string> {
  let log: string | undefined;
  await waitFor(async () => (log = await a.terminals().logPath(terminal)) !== undefined, 15_000, 'the log');
  return log!;
}

describe('Terminal capture', function () {
  this.timeout(120_000);
  let a: ContextDeskApi;
  const opened: vscode.Terminal[] = [];

  before(async () => {
    a = await api();
  });
  after(async () => {
    await config().update('terminals.capture', undefined, vscode.ConfigurationTarget.Global);
    for (const t of opened) t.dispose();
  });

  it('keeps every execution of back-to-back and pasted commands, with the exit codes VS Code reported', async () => {
    let terminal: vscode.Terminal | undefined;
    const seen = watch(() => terminal);
    try {
      terminal = await bash('paste');
      opened.push(terminal);
      terminal.show();
      const first = terminal.shellIntegration!.executeCommand('sleep 0.3; printf "a\\nb\\n"; (exit 2)');
      await new Promise<void>((resolve) => {
        const sub = vscode.window.onDidEndTerminalShellExecution((e) => {
          if (e.execution === first) {
            sub.dispose();
            resolve();
          }
        });
      });
      // Three lines at once, as a paste: VS Code starts the next command while the last one ends.
      terminal.sendText('echo pasted-one; sleep 0.2\necho pasted-two\n(exit 5)', true);
      await waitFor(() => seen.ends.size >= 4, 20_000, 'the end of the pasted commands');
      const file = await logOf(a, terminal);
      assert.match(path.basename(file), /^paste-\d{8}-\d{6}-[0-9a-f]{6}\.log$/, 'name + time + unique id');
      assert.doesNotMatch(file, /someValu/);
      // Every execution gets its footer (an end VS Code never sent is closed after a grace period).
      await waitFor(
        async () => {
          const log = await readTerminalLog(file);
          return log.executions.length === seen.starts.length && log.executions.every((e) => e.end);
        },
        20_000,
        'every execution with its footer',
      );
      const log = await readTerminalLog(file);
      assert.deepEqual(
        log.executions.map((e) => e.command),
        seen.starts,
        'no execution lost',
      );
      for (const e of log.executions)
        assert.equal(e.end?.exitCode, seen.ends.get(e.command) ?? null, `exit code of ${e.command} as reported`);
      assert.equal(log.executions[0]!.end?.exitCode, 2);
      assert.deepEqual(log.executions[0]!.output, ['a', 'b']);
      const text = fs.readFileSync(file, 'utf8');
      assert.match(
        text,
        /^␞ #1 · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d( · \/.*)?$/m,
        `a readable header:\n${text}`,
      );
      assert.match(text, /^␞ \$ echo pasted-two$/m);
      assert.match(text, /^␞ exit 2 · \d/m);
      assert.doesNotMatch(text, /"event"/, 'the machine record lives in the index, not the log');
      assert.ok(fs.existsSync(file.replace(/\.log$/, '.index.jsonl')));
    } finally {
      seen.dispose();
    }
  });

  it('keeps no line of what a command that prints a secret printed, and says why', async () => {
    // A bare value has no shape to find it by; the command line (echo of a secret-named variable) says it.
    const value = ['plain', 'value', String(Date.now())].join('-');
    const terminal = vscode.window.createTerminal({
      name: 'printed',
      shellPath: '/bin/bash',
      env: { CD_IT_API_KEY: value },
    });
    opened.push(terminal);
    await waitFor(() => terminal.shellIntegration !== undefined, 30_000, 'shell integration in printed');
    // The command prints once its header is in the log (capture reads from then on): a go file says when.
    const go = path.join(os.tmpdir(), `cd-it-go-${process.pid}-${Date.now()}`);
    terminal.shellIntegration!.executeCommand(
      `until [ -e ${go} ]; do sleep 0.05; done; echo "$CD_IT_API_KEY"; echo second`,
    );
    const file = await logOf(a, terminal);
    await waitFor(() => /^␞ \$ until /m.test(fs.readFileSync(file, 'utf8')), 15_000, 'the header');
    fs.writeFileSync(go, '');
    await waitFor(() => /^␞ exit 0 · /m.test(fs.readFileSync(file, 'utf8')), 15_000, 'the exit line');
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(!text.includes(value), text);
    assert.match(text, /^␞ note: the output is not kept: echo of \$CD_IT_API_KEY prints a secret/m);
    assert.match(text, /^\[REDACTED:printed-secret\]\n\[REDACTED:printed-secret\]\n␞ exit 0/m);
    fs.rmSync(go, { force: true });
  });

  it('logs a task with its command and exit code, and says why its output is missing', async () => {
    const name = `it-task-${Date.now()}`;
    const task = new vscode.Task(
      { type: 'shell' },
      vscode.TaskScope.Workspace,
      name,
      'it',
      new vscode.ShellExecution('sleep 0.3; echo hello-task; exit 4'),
    );
    const ended = new Promise<number | undefined>((resolve) => {
      const sub = vscode.tasks.onDidEndTaskProcess((e) => {
        if (e.execution.task.name === name) {
          sub.dispose();
          resolve(e.exitCode);
        }
      });
    });
    await vscode.tasks.executeTask(task);
    assert.equal(await ended, 4);
    const terminal = vscode.window.terminals.find((t) => t.name === name);
    assert.ok(terminal, 'the task terminal');
    opened.push(terminal);
    const file = await logOf(a, terminal);
    await waitFor(() => /^␞ exit 4 · /m.test(fs.readFileSync(file, 'utf8')), 15_000, 'the exit line');
    const [e] = (await readTerminalLog(file)).executions;
    assert.equal(e?.command, 'sleep 0.3; echo hello-task; exit 4');
    assert.equal(e?.source, 'task');
    assert.match(e?.notes.join(' ') ?? '', /not its output/);
  });

  it('the demo task terminal started at folder open has a log that says what was captured', async () => {
    const terminal = vscode.window.terminals.find((t) => t.name === 'demo: noisy build');
    assert.ok(terminal, 'the workspace runs its "demo: noisy build" task at folder open');
    const file = await logOf(a, terminal);
    const text = fs.readFileSync(file, 'utf8');
    // Either capture saw the task start (command and exit code) or the terminal was open before it.
    assert.match(text, /^␞ \$ \.\/build-log\.sh$|open before Context Desk started capturing/m);
    assert.match(text, /^␞ note: .*(task|VS Code gives extensions no way)/m);
  });

  it('a terminal open before capture began gets a note, and a command already running is kept at its end', async () => {
    await config().update('terminals.capture', false, vscode.ConfigurationTarget.Global);
    const terminal = await bash('before');
    opened.push(terminal);
    const execution = terminal.shellIntegration!.executeCommand('sleep 4; echo too-early');
    const started = new Promise<void>((resolve) => {
      const sub = vscode.window.onDidStartTerminalShellExecution((e) => {
        if (e.execution === execution) {
          sub.dispose();
          resolve();
        }
      });
    });
    const exit = new Promise<number | undefined>((resolve) => {
      const sub = vscode.window.onDidEndTerminalShellExecution((e) => {
        if (e.execution === execution) {
          sub.dispose();
          resolve(e.exitCode);
        }
      });
    });
    // The command is running before capture is on (a fixed wait was not enough on a loaded machine).
    await started;
    await config().update('terminals.capture', true, vscode.ConfigurationTarget.Global);
    a.terminals().adopt([terminal]); // what activation does with the terminals already open
    assert.equal(await exit, 0);
    const file = await logOf(a, terminal);
    await waitFor(() => /^␞ exit 0 · /m.test(fs.readFileSync(file, 'utf8')), 15_000, 'the recorded end');
    const log = await readTerminalLog(file);
    assert.match(log.notes.join(' '), /open before Context Desk started capturing/);
    assert.equal(log.executions[0]?.command, 'sleep 4; echo too-early');
    assert.equal(log.executions[0]?.end?.exitCode, 0);
    assert.match(log.executions[0]?.notes.join(' ') ?? '', /already running/);
  });
});
