// A Responses API object's usage belongs to the call that produced its `output`, never to the last
// reply of the history sent in its `input`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrajectoryFile, type Trajectory } from '../../../src/core/trajectories';

const dir = mkdtempSync(join(tmpdir(), 'responses-usage-'));

async function read(name: string, doc: unknown): Promise<Trajectory> {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(doc));
  const all = await loadTrajectoryFile(file);
  assert.equal(all.length, 1);
  return all[0]!;
}

const history = [
  { role: 'user', content: 'List the files.' },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Which folder?' }] },
];
const said = (text: string) => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });

test('a response with an empty output keeps its usage on its own call, not on the reply before it', async () => {
  const t = await read('empty.json', {
    object: 'response',
    input: history,
    output: [],
    usage: { input_tokens: 1200, output_tokens: 0 },
  });
  const calls = t.calls ?? [];
  assert.equal(calls.length, 2);
  assert.equal(calls[0]!.output, 1, "the history's reply is its own call");
  assert.equal(calls[0]!.recorded, undefined, "the history's reply was not billed by this response");
  assert.equal(calls[1]!.output, undefined, 'the response produced no reply');
  assert.deepEqual(calls[1]!.context, [[0, 2]], 'it sent the whole history');
  assert.equal(calls[1]!.recorded?.inputTokens, 1200);
  assert.match(t.warnings!.join('\n'), /no output items/);
});

test("a response's output is its own reply, not joined to the history's last reply", async () => {
  const t = await read('merged.json', {
    object: 'response',
    input: history,
    output: [said('I will look in src.')],
    usage: { input_tokens: 1300, output_tokens: 8 },
  });
  assert.deepEqual(
    t.messages.map((m) => m.content),
    ['List the files.', 'Which folder?', 'I will look in src.'],
  );
  const last = t.calls!.at(-1)!;
  assert.equal(last.output, 2);
  assert.deepEqual(last.context, [[0, 2]]);
  assert.equal(last.recorded?.inputTokens, 1300);
  assert.equal(t.calls!.filter((c) => c.recorded !== undefined).length, 1, 'the usage is counted once');
});

test('a string input is the user message the response was asked with', async () => {
  const t = await read('string-input.json', {
    object: 'response',
    input: 'List the files in src.',
    output: [said('Two files.')],
    usage: { input_tokens: 30, output_tokens: 3 },
  });
  assert.deepEqual(
    t.messages.map((m) => [m.role, m.origin, m.content]),
    [
      ['user', 'person', 'List the files in src.'],
      ['assistant', 'agent', 'Two files.'],
    ],
  );
  assert.deepEqual(t.calls![0]!.context, [[0, 1]]);
});

test('a response whose output holds only items replay does not read is still its own call, with its usage', async () => {
  const t = await read('web-search.json', {
    object: 'response',
    input: history,
    output: [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }],
    usage: { input_tokens: 900, output_tokens: 12 },
  });
  const last = t.calls!.at(-1)!;
  assert.equal(last.output, undefined);
  assert.equal(last.recorded?.inputTokens, 900);
  assert.equal(t.calls![0]!.recorded, undefined);
  assert.match(t.warnings!.join('\n'), /unknown type "web_search_call" dropped/);
});
