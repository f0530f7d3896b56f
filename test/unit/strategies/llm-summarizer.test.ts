import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Message } from '../../../src/core/messages';
import { createLlmSummarizer } from '../../../src/core/strategies';
import { createSummaryStrategy } from '../../../src/core/strategies/summary';
import { conversation, wordTokenizer } from './helpers';

test('the model gets the summary prompt with the previous checkpoint; its answer becomes the checkpoint', async () => {
  const seen: Message[][] = [];
  const summarizer = createLlmSummarizer((messages) => {
    seen.push(messages);
    return Promise.resolve(`  USER_CONTEXT: fix bug ${seen.length}\nCOMPLETED: -\nPENDING: -\nCODE_STATE: -  `);
  }, 300);
  assert.equal(summarizer.estimated, false);
  const first = await summarizer.summarize([{ role: 'user', content: 'ran pytest' }], undefined);
  assert.equal(first, 'USER_CONTEXT: fix bug 1\nCOMPLETED: -\nPENDING: -\nCODE_STATE: -');
  await summarizer.summarize([{ role: 'user', content: 'edited a.py' }], first);
  assert.match(seen[0]![0]!.content, /USER_CONTEXT/);
  assert.match(seen[0]![1]!.content, /ran pytest/);
  assert.match(seen[1]![1]!.content, /PREVIOUS CHECKPOINT:\nUSER_CONTEXT: fix bug 1/);
  const s = createSummaryStrategy({ tokenizer: wordTokenizer(), summarizer }, { summaryTokens: 300 });
  const r = await s.build(conversation(Array.from({ length: 31 }, () => ({ action: 2, observations: [5] }))));
  assert.match(r.messages[2]!.content, /^Checkpoint for the last 21 turns:\nUSER_CONTEXT: fix bug 3/);
  assert.equal(r.summaries[0]!.estimated, false);
});

test('an empty answer is refused and the strategy keeps its state', async () => {
  let calls = 0;
  const summarizer = createLlmSummarizer(() => Promise.resolve(++calls === 1 ? '   ' : 'fine'), 300);
  const s = createSummaryStrategy({ tokenizer: wordTokenizer(), summarizer }, { summaryTokens: 300 });
  const history = conversation(Array.from({ length: 31 }, () => ({ action: 2, observations: [5] })));
  await assert.rejects(s.build(history), /empty checkpoint/);
  // Nothing was folded: the next call summarizes the same turns.
  const r = await s.build(history);
  assert.deepEqual([r.summaries[0]!.fromTurn, r.summaries[0]!.toTurn], [0, 21]);
  assert.equal(r.messages[2]!.content, 'Checkpoint for the last 21 turns:\nfine');
});
