// Real OpenHands V0 trajectories (OpenHands' own replay tests, see the fixtures' README): each
// observation is replayed as the text OpenHands' conversation memory sent the model, not as the event's
// raw `content` (CmdOutputObservation.to_agent_observation, FileEditObservation.__str__, ErrorObservation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextOf, loadTrajectoryFile, type Trajectory } from '../../../src/core/trajectories';
import { DEFAULT_REPLAY_OPTIONS, replayTrajectory } from '../../../src/core/replay/replay';
import { wordTokenizer } from '../strategies/helpers';
import { fixture, one, shape } from './helpers';

const toolTexts = (t: Trajectory) => t.messages.filter((m) => m.role === 'tool').map((m) => m.content);

test('a command observation is its output with the metadata OpenHands appended (directory, interpreter, exit code)', async () => {
  const t = await one('openhands-real-rename.json');
  assert.equal(t.format, 'openhands');
  assert.equal(t.model, 'claude-3-5-sonnet-20241022');
  assert.deepEqual(shape(t), [
    'user/person',
    'assistant/agent',
    'tool/environment',
    'assistant/agent',
    'tool/environment',
    'assistant/agent',
    'tool/environment',
    'assistant/agent',
  ]);
  assert.equal(
    toolTexts(t)[1],
    '\n[The command completed with exit code 0.]' +
      '\n[Current working directory: /workspace]' +
      '\n[Python interpreter: /openhands/poetry/openhands-ai-5O4_aCHf-py3.12/bin/python]' +
      '\n[Command finished with exit code 0]',
  );
  // Four responses, each with the provider's usage (LiteLLM's prompt_tokens holds the cache tokens).
  assert.deepEqual(
    t.calls!.map((c) => [c.recorded?.inputTokens, c.recorded?.cachedTokens, c.recorded?.cacheWriteTokens]),
    [
      [3475, 0, 3471],
      [3616, 3471, 139],
      [3804, 3610, 188],
      [3933, 3798, 129],
    ],
  );
  // The last call sent every message before the reply, the mv's (otherwise empty) result included.
  assert.equal(contextOf(t, t.calls![3]!).length, 7);
  const r = await replayTrajectory(t, 'raw', DEFAULT_REPLAY_OPTIONS, wordTokenizer());
  assert.equal(r.cacheModel, 'anthropic');
  assert.equal(r.cacheModelBasis, 'model claude-3-5-sonnet-20241022');
});

test('an edit made through the ACI editor is replayed as the editor output the model got, not the diff', async () => {
  const t = await one('openhands-real-2048.json');
  assert.deepEqual(toolTexts(t), ['File created successfully at: /workspace/game_2048.py']);
  assert.equal(t.calls!.length, 2);
});

test('plain-text replies are calls; a run on GPT-4o is billed with the prefix cache', async () => {
  const t = await one('openhands-real-interactions.json');
  assert.deepEqual(shape(t), [
    'user/person',
    'assistant/agent',
    'user/person',
    'assistant/agent',
    'user/person',
    'assistant/agent',
  ]);
  assert.equal(t.calls!.length, 3);
  assert.deepEqual(t.calls![2]!.recorded, { inputTokens: 2473, cachedTokens: 2304, outputTokens: 10 });
  const r = await replayTrajectory(t, 'raw', DEFAULT_REPLAY_OPTIONS, wordTokenizer());
  assert.equal(r.cacheModel, 'prefix');
});

test('an error observation carries the note OpenHands added; a command the user ran says so', async () => {
  const events = JSON.parse(readFileSync(fixture('openhands-real-rename.json'), 'utf8')) as Record<string, unknown>[];
  const edited = events.map((e) => {
    if (e.id === 4) return { ...e, observation: 'error', content: 'Invalid path', extras: {} };
    if (e.id === 6) {
      const { tool_call_metadata: _, ...rest } = e;
      return rest;
    }
    return e;
  });
  const dir = mkdtempSync(join(tmpdir(), 'cd-oh-'));
  writeFileSync(join(dir, 'edited.json'), JSON.stringify(edited));
  const [t] = await loadTrajectoryFile(join(dir, 'edited.json'));
  const texts = t!.messages.filter((m) => m.origin === 'environment').map((m) => m.content);
  assert.equal(texts[0], 'Invalid path\n[Error occurred in processing last action]');
  assert.match(
    texts[1]!,
    /^\nObserved result of command executed by user:\n\n\[The command completed with exit code 0\.\]/,
  );
});

test('a command observation of late-2024 OpenHands (exit code beside the output, no metadata) ends with its exit code', async () => {
  const events = JSON.parse(readFileSync(fixture('openhands-real-rename.json'), 'utf8')) as Record<string, unknown>[];
  const old = events.map((e) =>
    e.id === 6
      ? {
          ...e,
          content: 'renamed',
          extras: { command_id: -1, command: 'mv a b', exit_code: 1, interpreter_details: '' },
        }
      : e,
  );
  const dir = mkdtempSync(join(tmpdir(), 'cd-oh-'));
  writeFileSync(join(dir, 'old.json'), JSON.stringify(old));
  const [t] = await loadTrajectoryFile(join(dir, 'old.json'));
  assert.equal(toolTexts(t!)[1], 'renamed\n[Command finished with exit code 1]');
});
