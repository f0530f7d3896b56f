// OpenHands SDK (V1): a terminal observation reaches the model framed by TerminalObservation.to_llm_content
// (openhands-tools/openhands/tools/terminal/definition.py): prefix, output, suffix, then the working
// directory, the interpreter and the exit code its metadata records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrajectoryFile, type Trajectory } from '../../../src/core/trajectories';
import { fixture } from './helpers';

function events(): Record<string, unknown>[] {
  const dir = join(fixture('openhands-sdk-conversation'), 'events');
  return readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>);
}

test('a terminal observation is sent with the metadata lines the SDK adds, and the error header when it failed', async () => {
  const list = events();
  const terminal = list.filter(
    (e) => e.kind === 'ObservationEvent' && (e.observation as { kind?: string }).kind === 'TerminalObservation',
  );
  assert.ok(terminal.length >= 2, 'the fixture has terminal observations');
  // The metadata as SDK 1.x writes it (shape taken from a recorded run's TerminalObservation).
  const metadata = {
    exit_code: 0,
    pid: -1,
    username: 'user',
    hostname: 'e2b',
    working_dir: '/code/project',
    py_interpreter_path: '/usr/local/bin/python',
    prefix: '',
    suffix: '\n[The command completed with exit code 0.]',
  };
  const first = terminal[0]!.observation as Record<string, unknown>;
  first.metadata = metadata;
  // The failed test run (on the active branch; an earlier terminal call sits on the branch the user left).
  const second = terminal
    .map((e) => e.observation as Record<string, unknown>)
    .find((o) => JSON.stringify(o).includes('FAILED'))!;
  second.is_error = true;
  second.metadata = { ...metadata, exit_code: -1, working_dir: null, py_interpreter_path: null, suffix: '' };
  const file = join(mkdtempSync(join(tmpdir(), 'cd-sdk-term-')), 'events.jsonl');
  writeFileSync(file, list.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const [t] = (await loadTrajectoryFile(file)) as [Trajectory];
  const texts = t.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  const output = (o: Record<string, unknown>) => (o.content as { text: string }[]).map((c) => c.text).join('');
  assert.ok(
    texts.includes(
      output(first) +
        '\n[The command completed with exit code 0.]\n[Current working directory: /code/project]' +
        '\n[Python interpreter: /usr/local/bin/python]\n[Command finished with exit code 0]',
    ),
    JSON.stringify(texts),
  );
  assert.ok(texts.includes('[An error occurred during execution.]\n' + output(second)), JSON.stringify(texts));
});
