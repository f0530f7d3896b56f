import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextOf, loadTrajectories, loadTrajectoryFile, type Trajectory } from '../../../src/core/trajectories';
import { assertQuick } from '../../support/linear-time';
import { fixture, shape } from './helpers';

const SESSION = fixture('cline-sdk-session/sess_4kq2.messages.json');

/** The fixture's session with `change` applied, written to a temporary file. */
async function variant(change: (doc: Record<string, unknown>) => void): Promise<Trajectory[]> {
  const doc = JSON.parse(readFileSync(SESSION, 'utf8')) as Record<string, unknown>;
  change(doc);
  const file = join(mkdtempSync(join(tmpdir(), 'cd-cline-sdk-')), 's.messages.json');
  writeFileSync(file, JSON.stringify(doc));
  return loadTrajectoryFile(file);
}

test('Cline SDK (CLI 3, VS Code 4): messages.json v1 is read as Cline, one call per assistant message', async () => {
  const [t] = await loadTrajectoryFile(SESSION);
  assert.equal(t!.format, 'cline');
  assert.equal(t!.model, 'claude-sonnet-4-6');
  assert.deepEqual(shape(t!), [
    'system/agent',
    'user/person',
    'assistant/agent',
    'tool/environment',
    'assistant/agent',
    'tool/environment',
    'assistant/agent',
  ]);
  assert.match(t!.messages[0]!.content, /^You are Cline/);
  assert.deepEqual(t!.messages[2]!.toolCalls, [
    { id: 'toolu_1', name: 'read_files', arguments: '{"path":"src/util.ts"}' },
  ]);
  assert.equal(t!.messages[3]!.toolCallId, 'toolu_1');
  assert.equal(t!.messages[3]!.content, 'export const foo = 1;\n');
  assert.equal((t!.calls ?? []).length, 3);
});

// `metrics.inputTokens` is the whole prompt where the SDK's AI-SDK providers reported it and the
// uncached part where a legacy ApiHandler did (sdk/packages/core/src/services/agent-events.ts), and a
// run without per-request metrics puts the run's total on its last message (session-data.ts):
// no figure can be taken as one call's prompt. The money adds up either way.
test("Cline SDK: metrics are not read as a call's usage (their meaning depends on the provider), their cost is the run's", async () => {
  const [t] = await loadTrajectoryFile(SESSION);
  assert.ok(
    t!.calls!.every((c) => c.recorded === undefined),
    'no call takes a figure whose meaning is not known',
  );
  assert.equal(t!.recordedCost, 0.0222);
  const warnings = t!.warnings!.join('\n');
  assert.match(warnings, /2 assistant messages' metrics not read as recorded usage/);
  assert.match(warnings, /thinking/);
  assert.doesNotMatch(warnings, /system prompt/);
});

test('Cline SDK: no system_prompt says raw counts are a lower bound; costs of $0 are no recorded cost', async () => {
  const [t] = await variant((doc) => {
    delete doc.system_prompt;
    for (const m of doc.messages as { metrics?: { cost: number } }[]) if (m.metrics) m.metrics.cost = 0;
  });
  assert.equal(t!.messages[0]!.role, 'user');
  assert.equal(t!.recordedCost, undefined);
  assert.match(t!.warnings!.join('\n'), /system prompt .*not in the file: raw counts are a lower bound/);
});

test('Cline SDK: another version of messages.json is refused with its version, not read as some other format', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-cline-sdk-'));
  const doc = JSON.parse(readFileSync(SESSION, 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 's.messages.json'), JSON.stringify({ ...doc, version: 2 }));
  const { trajectories, skipped } = await loadTrajectories([dir]);
  assert.equal(trajectories.length, 0);
  assert.equal(skipped.length, 1);
  assert.match(skipped[0]!.error, /Cline messages\.json version 2/);
});

// Cline 3.x's ClineStorageMessage (apps/vscode/src/shared/messages/content.ts) keeps `modelInfo:
// {modelId, providerId, mode}` on a message of api_conversation_history.json: the model picks the cache.
test("Cline task history: the model is read from a message's modelInfo", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'cd-cline-')), 'task-1');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'api_conversation_history.json'),
    JSON.stringify([
      { role: 'user', content: [{ type: 'text', text: '<task>\nfix it\n</task>' }], ts: 1 },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'a.ts' } }],
        modelInfo: { modelId: 'claude-sonnet-4-5-20250929', providerId: 'anthropic', mode: 'act' },
        ts: 2,
      },
    ]),
  );
  const [t] = await loadTrajectoryFile(join(dir, 'api_conversation_history.json'));
  assert.equal(t!.format, 'cline');
  assert.equal(t!.model, 'claude-sonnet-4-5-20250929');
});

// After a compaction Cline's SDK keeps the transcript whole in <id>.messages.json and what the model
// sees beside it, in <id>.compaction.json: `messages` stand for the transcript's first
// `source_message_count` (sdk/packages/core/src/session/models/session-compaction.ts,
// projectSessionCompactionState).
test('Cline SDK: after a compaction, calls send the compacted history and the transcript after it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-cline-sdk-'));
  const doc = JSON.parse(readFileSync(SESSION, 'utf8')) as { messages: object[] };
  writeFileSync(join(dir, 'sess_4kq2.messages.json'), JSON.stringify(doc));
  writeFileSync(
    join(dir, 'sess_4kq2.compaction.json'),
    JSON.stringify({
      version: 1,
      updated_at: '2026-11-20T10:04:00.000Z',
      source_message_count: 3,
      source_prefix_hash: 'h',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Summary: src/util.ts exports foo = 1; rename it to bar.' }] },
      ],
      system_prompt: 'You are Cline, a software engineer. Use the tools to read and edit files.',
    }),
  );
  // The manifest, as persistence-service.ts writes it.
  writeFileSync(
    join(dir, 'sess_4kq2.json'),
    JSON.stringify({
      version: 1,
      session_id: 'sess_4kq2',
      source: 'cli',
      pid: 4242,
      started_at: '2026-11-20T10:00:00.000Z',
      status: 'completed',
      interactive: true,
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      cwd: '/w',
      workspace_root: '/w',
      enable_tools: true,
      enable_spawn: false,
      enable_teams: false,
      messages_path: '/home/dev/.cline/data/sessions/sess_4kq2/sess_4kq2.messages.json',
    }),
  );
  const { trajectories, skipped } = await loadTrajectories([dir]);
  assert.deepEqual(
    skipped.map((s) => s.group),
    [
      'part of a Cline SDK session (read with its messages.json)',
      'part of a Cline SDK session (read with its messages.json)',
    ],
    'the compaction state and the manifest are parts of the session, not logs of their own',
  );
  const [t] = trajectories;
  const sent = t!.calls!.map((c) => contextOf(t!, c).map((m) => m.content.slice(0, 12)));
  assert.deepEqual(sent, [
    ['You are Clin', 'Rename foo t'],
    ['You are Clin', 'Summary: src'],
    ['You are Clin', 'Summary: src', '', 'Edited src/u'],
  ]);
  assert.match(t!.warnings!.join('\n'), /Cline compacted this session/);
});

test('Cline SDK: a session of 40,000 messages with a compaction near its end reads in linear time', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-cline-sdk-'));
  const messages: object[] = [];
  for (let i = 0; i < 20_000; i++) {
    messages.push({
      id: `a${i}`,
      role: 'assistant',
      modelInfo: { id: 'claude-sonnet-4-6', provider: 'anthropic' },
      metrics: { inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0.001 },
      content: [{ type: 'tool_use', id: `t${i}`, name: 'read_files', input: { path: `f${i}` } }],
    });
    messages.push({
      id: `u${i}`,
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `x${i}` }],
    });
  }
  const compacted = messages.slice(0, 15_000);
  writeFileSync(
    join(dir, 's.messages.json'),
    JSON.stringify({ version: 1, updated_at: '2026-11-20T10:00:00.000Z', agent: 'lead', sessionId: 's', messages }),
  );
  writeFileSync(
    join(dir, 's.compaction.json'),
    JSON.stringify({
      version: 1,
      updated_at: '2026-11-20T10:00:00.000Z',
      source_message_count: 39_000,
      messages: compacted,
    }),
  );
  const started = performance.now();
  const { trajectories } = await loadTrajectories([dir]);
  assertQuick(started);
  assert.equal(trajectories[0]!.calls!.length, 20_000);
});
