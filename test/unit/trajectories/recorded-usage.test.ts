// Recorded usage is read from files anyone can write: a figure that is not a token count (negative,
// fractional, beyond 2^53, a string) must never become a wrong prompt size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadTrajectoryFile } from '../../../src/core/trajectories';
import { usageFrom } from '../../../src/core/trajectories/usage';
import { fixture } from './helpers';

const BAD = [-500, 3.7, 1e300, 2 ** 53, '12', true, [1], { n: 1 }, Number.NaN];

test('usage with a figure that is not a token count gives no token figures (its money stays)', () => {
  for (const bad of BAD)
    for (const key of ['input_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'output_tokens']) {
      const usage = {
        input_tokens: 4,
        cache_read_input_tokens: 1000,
        cache_creation_input_tokens: 200,
        output_tokens: 9,
        cost: 0.01,
        [key]: bad,
      };
      assert.deepEqual(usageFrom(usage), { unreadableTokens: true, cost: 0.01 }, `${key}: ${String(bad)}`);
    }
  assert.deepEqual(usageFrom({ prompt_tokens: 100, prompt_tokens_details: { cached_tokens: -1 } }), {
    unreadableTokens: true,
  });
  assert.deepEqual(usageFrom({ input_tokens: 100, input_tokens_details: { cached_tokens: 0.5 } }), {
    unreadableTokens: true,
  });
  // null is how some writers say "not recorded": absent, not wrong
  assert.deepEqual(
    usageFrom({ input_tokens: 4, cache_read_input_tokens: null, cache_creation_input_tokens: 6, output_tokens: 1 }),
    {
      inputTokens: 10,
      cacheWriteTokens: 6,
      outputTokens: 1,
    },
  );
});

test('property: every prompt size read is a safe integer, and the sum of the parts it was read from', () => {
  const figure = fc.oneof(fc.nat(), fc.constantFrom(...BAD), fc.constant(undefined), fc.constant(null));
  fc.assert(
    fc.property(figure, figure, figure, figure, (input, read, write, output) => {
      const u = usageFrom({
        input_tokens: input,
        cache_read_input_tokens: read,
        cache_creation_input_tokens: write,
        output_tokens: output,
      });
      if (u?.inputTokens === undefined) return;
      assert.ok(Number.isSafeInteger(u.inputTokens) && u.inputTokens >= 0);
      const parts = [input, read, write];
      assert.ok(parts.every((p) => p === undefined || p === null || (Number.isSafeInteger(p) && (p as number) >= 0)));
      assert.equal(
        u.inputTokens,
        parts.reduce<number>((s, p) => s + (typeof p === 'number' ? p : 0), 0),
      );
    }),
  );
});

function withUsage(file: string, edit: (line: Record<string, unknown>) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'cd-usage-'));
  const lines = readFileSync(fixture(file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      let v: Record<string, unknown>;
      try {
        v = JSON.parse(l) as Record<string, unknown>;
      } catch {
        return l; // a line the fixture cuts off on purpose
      }
      edit(v);
      return JSON.stringify(v);
    });
  const out = join(dir, file);
  writeFileSync(out, lines.join('\n') + '\n');
  return out;
}

test('Claude Code and Gemini CLI: calls whose usage is not token counts are not counted, and a warning says so', async () => {
  const claude = withUsage('claude-code-session.jsonl', (v) => {
    const usage = (v.message as { usage?: Record<string, unknown> } | undefined)?.usage;
    if (usage) usage.cache_read_input_tokens = -1;
  });
  const [main] = await loadTrajectoryFile(claude);
  assert.ok(main!.calls!.length > 0);
  assert.ok(main!.calls!.every((c) => c.recorded?.inputTokens === undefined && c.recorded?.outputTokens === undefined));
  assert.ok(
    main!.warnings!.some((w) => /3 calls recorded token figures that are not counts/.test(w)),
    String(main!.warnings),
  );

  const gemini = withUsage('gemini-cli-session.jsonl', (v) => {
    const tokens = v.tokens as Record<string, unknown> | undefined;
    if (tokens) tokens.thoughts = 12.5;
  });
  const [g] = await loadTrajectoryFile(gemini);
  assert.ok(g!.calls!.every((c) => c.recorded?.inputTokens === undefined));
  assert.ok(
    g!.warnings!.some((w) => /recorded token figures that are not counts/.test(w)),
    String(g!.warnings),
  );
});

test('OpenHands SDK: a usage record with a figure that is not a token count is not attributed to its call', async () => {
  const file = withUsage('openhands-sdk-output.jsonl', (v) => {
    const usages = (v.metrics as { token_usages?: Record<string, unknown>[] } | null)?.token_usages;
    if (usages?.[0]) usages[0].completion_tokens = -90;
  });
  const [t] = await loadTrajectoryFile(file);
  assert.equal(t!.calls![0]!.recorded?.inputTokens, undefined);
  assert.ok(
    t!.calls!.slice(1).some((c) => c.recorded?.inputTokens !== undefined),
    'the other records are kept',
  );
  assert.ok(
    t!.warnings!.some((w) => /1 usage record not attributed to a call/.test(w)),
    String(t!.warnings),
  );
});

test("LiteLLM's prompt_tokens beside Anthropic cache figures: whole when it holds them, rebuilt when it certainly left them out, refused when not known", () => {
  // Current LiteLLM (1.80, BerriAI/litellm#11364): reads and writes inside prompt_tokens.
  assert.deepEqual(
    usageFrom({
      prompt_tokens: 98_805,
      completion_tokens: 5,
      cache_read_input_tokens: 66_360,
      cache_creation_input_tokens: 32_435,
    }),
    { inputTokens: 98_805, cachedTokens: 66_360, cacheWriteTokens: 32_435, outputTokens: 5 },
  );
  // Older LiteLLM: prompt_tokens is Anthropic's uncached input alone (under the cache reads).
  assert.equal(
    usageFrom({ prompt_tokens: 12, cache_read_input_tokens: 2_495, cache_creation_input_tokens: 300 })!.inputTokens,
    12 + 2_495 + 300,
  );
  // No cache reads: whether they were left out or not, the writes were.
  assert.equal(
    usageFrom({ prompt_tokens: 88, cache_read_input_tokens: 0, cache_creation_input_tokens: 21_002 })!.inputTokens,
    88 + 21_002,
  );
  // LiteLLM 1.74 (BerriAI/litellm#13207): reads inside, writes left out; an older one reading 120,357
  // uncached tokens would give the same figures. The prompt size is not given; the rest is.
  assert.deepEqual(
    usageFrom({
      prompt_tokens: 120_357,
      completion_tokens: 4_156,
      cache_read_input_tokens: 120_269,
      cache_creation_input_tokens: 21_002,
    }),
    { promptSizeUnknown: true, cachedTokens: 120_269, cacheWriteTokens: 21_002, outputTokens: 4_156 },
  );
});

test('a call whose LiteLLM prompt size is not known is replayed without it, and a warning says why', async () => {
  const doc = JSON.parse(readFileSync(fixture('mini-swe-agent.traj.json'), 'utf8')) as {
    messages: { role: string; extra?: { response: { usage: Record<string, number> } } }[];
  };
  const first = doc.messages.find((m) => m.role === 'assistant')!;
  first.extra!.response.usage = {
    prompt_tokens: 1_200,
    completion_tokens: 31,
    cache_read_input_tokens: 1_000,
    cache_creation_input_tokens: 500,
  };
  const file = join(mkdtempSync(join(tmpdir(), 'cd-litellm-')), 'run.traj.json');
  writeFileSync(file, JSON.stringify(doc));
  const [t] = await loadTrajectoryFile(file);
  assert.deepEqual(t!.calls![0]!.recorded, {
    promptSizeUnknown: true,
    cachedTokens: 1_000,
    cacheWriteTokens: 500,
    outputTokens: 31,
  });
  assert.match(
    t!.warnings!.join('\n'),
    /1 call recorded by LiteLLM with a `prompt_tokens` that leaves out some of its Anthropic cache tokens/,
  );
});
