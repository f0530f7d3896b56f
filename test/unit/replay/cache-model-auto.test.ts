// --cache-model auto goes by the model a log names (a Claude model is cached the Anthropic way whatever
// tool logged it), by the log's format only where the log names no model of a known family.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadTrajectories, loadTrajectoryFile } from '../../../src/core/trajectories';
import { DEFAULT_REPLAY_OPTIONS, replayTrajectory } from '../../../src/core/replay/replay';
import { cacheModelFor, cacheModelOfName } from '../../../src/core/replay/cache-model';
import { wordTokenizer } from '../strategies/helpers';
import { fixture } from '../trajectories/helpers';

const tokenizer = wordTokenizer();
const dir = mkdtempSync(join(tmpdir(), 'cd-cache-model-'));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

async function replayOf(file: string) {
  const [t] = await loadTrajectoryFile(file);
  return replayTrajectory(t!, 'raw', DEFAULT_REPLAY_OPTIONS, tokenizer);
}

test('auto: a Claude model called through an OpenAI-compatible request is billed with the Anthropic cache', async () => {
  const file = write(
    'claude-via-openai.json',
    JSON.stringify({
      model: 'openrouter/anthropic/claude-sonnet-4.5',
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        { role: 'user', content: 'Fix the bug.' },
        { role: 'assistant', content: 'Done.' },
      ],
    }),
  );
  const r = await replayOf(file);
  assert.equal(r.format, 'openai-chat');
  assert.equal(r.cacheModel, 'anthropic');
  assert.equal(r.cacheModelBasis, 'model openrouter/anthropic/claude-sonnet-4.5');
});

test('auto: a GPT model in an Anthropic-shaped request is billed with the prefix cache', async () => {
  const file = write(
    'gpt-via-anthropic.json',
    JSON.stringify({
      model: 'gpt-4.1',
      max_tokens: 1024,
      system: 'You are a coding agent.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Fix the bug.' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      ],
    }),
  );
  const r = await replayOf(file);
  assert.equal(r.format, 'anthropic-request');
  assert.equal(r.cacheModel, 'prefix');
  assert.equal(r.cacheModelBasis, 'model gpt-4.1');
});

test('auto: a Claude Code session run on a GPT model through a proxy is billed with the prefix cache', async () => {
  const record = (type: 'user' | 'assistant', uuid: string, parentUuid: string | null, message: object) =>
    JSON.stringify({ type, uuid, parentUuid, sessionId: 's', timestamp: '2025-01-01T00:00:00Z', message });
  const file = write(
    'claude-code-gpt.jsonl',
    [
      record('user', 'u1', null, { role: 'user', content: 'Fix the bug.' }),
      record('assistant', 'a1', 'u1', {
        id: 'msg_1',
        role: 'assistant',
        model: 'gpt-5',
        content: [{ type: 'text', text: 'Done.' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, output_tokens: 2 },
      }),
    ].join('\n') + '\n',
  );
  const r = await replayOf(file);
  assert.equal(r.format, 'claude-code');
  assert.equal(r.cacheModel, 'prefix');
  assert.equal(r.cacheModelBasis, 'model gpt-5');
});

test('auto: logs that name no model, or one of no known family, go by their format and say so', async () => {
  const none = await replayOf(fixture('openai-bare.json'));
  assert.equal(none.cacheModel, 'prefix');
  assert.equal(none.cacheModelBasis, 'format openai-chat (the log names no model)');
  const file = write(
    'local-model.json',
    JSON.stringify({
      model: 'my-finetune-v2',
      max_tokens: 100,
      system: 'You are a coding agent.',
      messages: [
        { role: 'user', content: 'Fix the bug.' },
        { role: 'assistant', content: 'Done.' },
      ],
    }),
  );
  const local = await replayOf(file);
  assert.equal(local.cacheModel, 'anthropic');
  assert.equal(local.cacheModelBasis, 'format anthropic-request (model my-finetune-v2 is of no known family)');
});

test('an explicit --cache-model wins over the model the log names', async () => {
  const [t] = await loadTrajectoryFile(fixture('anthropic-request.json'));
  const r = await replayTrajectory(t!, 'raw', { ...DEFAULT_REPLAY_OPTIONS, cacheModel: 'prefix' }, tokenizer);
  assert.equal(r.cacheModel, 'prefix');
  assert.equal(r.cacheModelBasis, '--cache-model prefix');
});

test('importers read the model each format names', async () => {
  const expected: [string, string][] = [
    ['mini-swe-agent.traj.json', 'google/gemini-3-pro-preview'],
    ['mini-swe-agent-2-responses.traj.json', 'gpt-5-mini'],
    ['claude-code-session.jsonl', 'claude-sonnet-4-20250514'],
    ['anthropic-request.json', 'claude-sonnet-4-5'],
    ['openai-chat.json', 'gpt-4o'],
    ['responses-request.json', 'gpt-5'],
    ['codex-rollout.jsonl', 'gpt-5-codex'],
    ['gemini-cli-session.jsonl', 'gemini-2.5-pro'],
    ['gemini-cli-chat.json', 'gemini-2.5-pro'],
    ['qwen-code-session.jsonl', 'qwen3-coder-plus'],
    ['openhands-sdk-output.jsonl', 'litellm_proxy/claude-sonnet-4-5'],
    ['aider.chat.history.md', 'anthropic/claude-3-7-sonnet-20250219'],
    ['aider-reflections.chat.history.md', 'ollama_chat/qwen2.5-coder:7b'],
  ];
  for (const [name, model] of expected) {
    const runs = await loadTrajectoryFile(fixture(name));
    assert.equal(runs[0]!.model, model, name);
  }
  // An SDK conversation folder: the agent's LLM in base_state.json, not the condenser's.
  const { trajectories } = await loadTrajectories([fixture('openhands-sdk-conversation')]);
  assert.equal(trajectories[0]!.model, 'litellm_proxy/claude-sonnet-4-5');
});

test('OpenHands V0: the model its responses name, else its evaluation config; a Claude run is billed Anthropic-style', async () => {
  const events = JSON.parse(readFileSync(fixture('openhands-trajectory.json'), 'utf8')) as Record<string, unknown>[];
  const named = events.map((e) => {
    const meta = e.tool_call_metadata as { model_response?: Record<string, unknown> } | undefined;
    return meta?.model_response
      ? {
          ...e,
          tool_call_metadata: {
            ...meta,
            model_response: { ...meta.model_response, model: 'anthropic/claude-sonnet-4-20250514' },
          },
        }
      : e;
  });
  const fromResponses = await replayOf(write('openhands-named.json', JSON.stringify(named)));
  assert.equal(fromResponses.format, 'openhands');
  assert.equal(fromResponses.cacheModel, 'anthropic');
  assert.equal(fromResponses.cacheModelBasis, 'model anthropic/claude-sonnet-4-20250514');
  const line = JSON.stringify({
    instance_id: 'x',
    metadata: { llm_config: { model: 'litellm_proxy/claude-3-7-sonnet-20250219' } },
    history: events,
    metrics: {},
  });
  const fromConfig = await replayOf(write('openhands-output.jsonl', line + '\n'));
  assert.equal(fromConfig.cacheModelBasis, 'model litellm_proxy/claude-3-7-sonnet-20250219');
});

test('SWE-agent: a Claude run named in `replay_config` is billed Anthropic-style though its format is generic', async () => {
  const doc = JSON.parse(readFileSync(fixture('swe-agent-full.traj'), 'utf8')) as Record<string, unknown>;
  doc.replay_config = JSON.stringify({
    agent: { model: { name: 'claude-sonnet-4-20250514', per_instance_cost_limit: 3 } },
  });
  const r = await replayOf(write('claude.traj', JSON.stringify(doc)));
  assert.equal(r.format, 'swe-agent');
  assert.equal(r.cacheModel, 'anthropic');
  assert.equal(r.cacheModelBasis, 'model claude-sonnet-4-20250514');
});

test('the Anthropic cache is picked for every name that says Claude, and never for GPT or Gemini names', () => {
  const prefix = fc.constantFrom('', 'openai/', 'azure/', 'litellm_proxy/', 'openrouter/', 'vertex_ai/');
  fc.assert(
    fc.property(prefix, fc.constantFrom('claude-3-5-sonnet', 'anthropic.claude-sonnet-4', 'Claude-Opus-4'), (p, m) => {
      assert.equal(cacheModelOfName(p + m), 'anthropic');
      assert.equal(cacheModelFor('auto', 'openai-chat', p + m).cacheModel, 'anthropic');
    }),
  );
  fc.assert(
    fc.property(
      prefix,
      fc.constantFrom('gpt-4o', 'o3-mini', 'gemini-2.5-pro', 'qwen3-coder', 'deepseek-v3'),
      (p, m) => {
        assert.equal(cacheModelOfName(p + m), 'prefix');
        assert.equal(cacheModelFor('auto', 'claude-code', p + m).cacheModel, 'prefix');
      },
    ),
  );
});
