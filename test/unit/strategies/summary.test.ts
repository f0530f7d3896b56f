import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Message } from '../../../src/core/messages';
import { buildSummaryPrompt, CHECKPOINT_SECTIONS, checkpointHeader } from '../../../src/core/strategies/checkpoint';
import { createHybridStrategy } from '../../../src/core/strategies/hybrid';
import { createStandInSummarizer } from '../../../src/core/strategies/stand-in-summarizer';
import { createSummaryStrategy } from '../../../src/core/strategies/summary';
import type { Summarizer } from '../../../src/core/strategies/types';
import { conversation, turnsArb, wordTokenizer } from './helpers';

const tokenizer = wordTokenizer();

/** Records what it was asked; answers with a numbered summary. */
interface SummarizerCall {
  messages: readonly Message[];
  previous: string | undefined;
  asked: readonly Message[] | undefined;
}

function recordingSummarizer(): Summarizer & { calls: SummarizerCall[] } {
  const calls: SummarizerCall[] = [];
  return {
    estimated: false,
    calls,
    summarize(messages, previous, asked) {
      calls.push({ messages, previous, asked });
      return Promise.resolve(`summary ${calls.length}`);
    },
  };
}

function turns(n: number) {
  return Array.from({ length: n }, () => ({ action: 3, observations: [20], lines: 2 }));
}

test('the checkpoint header is exact', () => {
  assert.equal(checkpointHeader(21), 'Checkpoint for the last 21 turns:');
});

test('summary folds the oldest 21 turns once 31 are unsummarized, conditioned on the previous checkpoint', async () => {
  const summarizer = recordingSummarizer();
  const s = createSummaryStrategy({ tokenizer, summarizer }, { summaryTokens: 50 });
  const full = conversation(turns(52));
  const prefixEnd = 2;
  const actionAt = (k: number) => full.findIndex((m) => m.content.startsWith(`act${k} `));
  // Call by call, as the agent loop does: history before the k-th assistant message.
  for (let k = 0; k <= 30; k++) await s.build(full.slice(0, actionAt(k)));
  assert.equal(summarizer.calls.length, 0);
  const at31 = await s.build(full.slice(0, actionAt(31)));
  assert.equal(summarizer.calls.length, 1);
  assert.equal(summarizer.calls[0]!.previous, undefined);
  assert.equal(summarizer.calls[0]!.messages[0], full[actionAt(0)]);
  assert.equal(at31.summaries.length, 1);
  assert.deepEqual([at31.summaries[0]!.fromTurn, at31.summaries[0]!.toTurn], [0, 21]);
  assert.deepEqual(at31.messages.slice(0, prefixEnd), full.slice(0, prefixEnd));
  assert.equal(at31.messages[prefixEnd]!.content, 'Checkpoint for the last 21 turns:\nsummary 1');
  assert.equal(at31.messages[prefixEnd + 1], full[actionAt(21)]);
  assert.equal(at31.summarizedTurns, 21);
  for (let k = 32; k <= 51; k++) await s.build(full.slice(0, actionAt(k)));
  assert.equal(summarizer.calls.length, 1);
  await s.build(full);
  assert.equal(summarizer.calls.length, 2);
  assert.equal(summarizer.calls[1]!.previous, 'summary 1');
});

test('hybrid masks with W and summarizes the oldest 43 once 53 turns are unsummarized', async () => {
  const summarizer = recordingSummarizer();
  const s = createHybridStrategy({ tokenizer, summarizer }, { summaryTokens: 50, window: 10, polling: 1 });
  const full = conversation(turns(60));
  const actionAt = (k: number) => full.findIndex((m) => m.content.startsWith(`act${k} `));
  const at52 = await s.build(full.slice(0, actionAt(52)));
  assert.equal(summarizer.calls.length, 0);
  assert.equal(at52.masked.length, 42);
  const at53 = await s.build(full.slice(0, actionAt(53)));
  assert.equal(summarizer.calls.length, 1);
  assert.deepEqual([at53.summaries[0]!.fromTurn, at53.summaries[0]!.toTurn], [0, 43]);
  assert.match(at53.messages[2]!.content, /^Checkpoint for the last 43 turns:\n/);
  // The summarizer saw the turns as the agent did: masked.
  assert.ok(
    summarizer.calls[0]!.messages.some((m) => m.content.startsWith('Old environment output: (2 lines omitted)')),
  );
  // Remaining turns 43..52: the oldest (43) is masked, the last 10 verbatim.
  assert.equal(at53.masked.length, 0);
});

test('the summarizer prompt asks for the four sections and carries the previous checkpoint', () => {
  const prompt = buildSummaryPrompt([{ role: 'user', content: 'ran tests' }], 'old checkpoint', 400);
  const text = prompt.map((m) => m.content).join('\n');
  for (const section of CHECKPOINT_SECTIONS) assert.match(text, new RegExp(`${section}:`));
  assert.match(text, /old checkpoint/);
  assert.match(text, /ran tests/);
  assert.match(text, /Token budget: 400/);
});

test('the stand-in says it is a stand-in and has the requested size', async () => {
  const s = createStandInSummarizer(tokenizer, 120);
  const text = await s.summarize([{ role: 'user', content: 'x' }], undefined);
  assert.equal(s.estimated, true);
  assert.match(text, /stand-in/);
  assert.match(text, /no summarizer model was called/);
  assert.equal(tokenizer.count(text), 120);
  const small = await createStandInSummarizer(tokenizer, 5).summarize([], undefined);
  assert.equal(tokenizer.count(small), 5);
});

test('property: summary and hybrid contexts stay bounded as turns grow', async () => {
  await fc.assert(
    fc.asyncProperty(turnsArb(40, 140, 40), async (spec) => {
      const full = conversation(spec);
      const summaryTokens = 30;
      const maxTurn = Math.max(
        ...spec.map(
          (t) =>
            tokenizer.countMessage({ role: 'assistant', content: '' }) +
            2 +
            t.action +
            t.observations.reduce((n, o) => n + o + 5 * (t.lines ?? 1) + 3, 0),
        ),
      );
      for (const make of [
        () =>
          createSummaryStrategy(
            { tokenizer, summarizer: createStandInSummarizer(tokenizer, summaryTokens) },
            { summaryTokens },
          ),
        () =>
          createHybridStrategy(
            { tokenizer, summarizer: createStandInSummarizer(tokenizer, summaryTokens) },
            { summaryTokens, window: 10, polling: 1 },
          ),
      ]) {
        const s = make();
        const prefix = full.slice(0, 2).reduce((n, m) => n + tokenizer.countMessage(m), 0);
        const keep = s.name === 'summary' ? 21 + 10 : 43 + 10;
        const bound = prefix + summaryTokens + 20 + keep * maxTurn;
        for (let i = 0; i < full.length; i++) {
          if (full[i]!.role !== 'assistant') continue;
          const r = await s.build(full.slice(0, i));
          const size = r.messages.reduce((n, m) => n + tokenizer.countMessage(m), 0);
          assert.ok(size <= bound, `${s.name}: ${size} > ${bound}`);
        }
      }
    }),
    { numRuns: 30 },
  );
});

test('summarize: false (the summarizer just failed) folds nothing new and keeps the checkpoint it has', async () => {
  const summarizer = recordingSummarizer();
  const s = createSummaryStrategy({ tokenizer, summarizer }, { summaryTokens: 50 });
  const full = conversation(turns(52));
  const actionAt = (k: number) => full.findIndex((m) => m.content.startsWith(`act${k} `));
  const unsummarized = await s.build(full.slice(0, actionAt(31)), { summarize: false });
  assert.equal(summarizer.calls.length, 0);
  assert.deepEqual(unsummarized.messages, full.slice(0, actionAt(31)));
  assert.equal(unsummarized.summarizedTurns, 0);
  // Asked again on a later call, it folds as it would have.
  await s.build(full.slice(0, actionAt(32)));
  assert.equal(summarizer.calls.length, 1);
  const kept = await s.build(full, { summarize: false });
  assert.equal(summarizer.calls.length, 1);
  assert.equal(kept.messages[2]!.content, 'Checkpoint for the last 21 turns:\nsummary 1');
  assert.equal(kept.summarizedTurns, 21);
});

test('the summarizer is given what the person asked before the folded turns: the task, then earlier instructions', async () => {
  const summarizer = recordingSummarizer();
  const s = createSummaryStrategy({ tokenizer, summarizer }, { summaryTokens: 50 });
  const full = conversation(turns(52));
  const followUp: Message = { role: 'user', content: 'also keep module7', origin: 'person' };
  const at = (k: number) => full.findIndex((m) => m.content.startsWith(`act${k} `));
  full.splice(at(5), 0, followUp); // given after turn 4: folded by the first checkpoint
  await s.build(full.slice(0, at(31)));
  await s.build(full);
  assert.equal(summarizer.calls.length, 2);
  assert.deepEqual(summarizer.calls[0]!.asked, [full[1]]);
  assert.ok(summarizer.calls[0]!.messages.includes(followUp));
  assert.deepEqual(summarizer.calls[1]!.asked, [full[1], followUp]);
  const prompt = buildSummaryPrompt(summarizer.calls[1]!.messages, 'summary 1', 50, [full[1]!, followUp]);
  assert.match(
    prompt[1]!.content,
    /^WHAT THE USER ASKED:\n<user>\ntask t0 [^]*also keep module7[^]*PREVIOUS CHECKPOINT:\nsummary 1/,
  );
});
