// After a checkpoint comes a line the strategy writes itself (never the summary model, whose budget could
// cut it): the history file and where the folded turns' stored outputs are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Message } from '../../../src/core/messages';
import { createStrategy } from '../../../src/core/strategies/registry';
import { DEFAULT_STRATEGY_OPTIONS, type StrategyName } from '../../../src/core/strategies/types';
import { conversation, wordTokenizer } from './helpers';

const tokenizer = wordTokenizer();
const POINTER = 'Full history: .context-desk/history/s1.md (JSONL: .context-desk/history/s1.jsonl) - grep it';
// A summarizer that keeps nothing: whatever reaches the model about stored outputs is the strategy's doing.
const forgetful = { estimated: false, summarize: () => Promise.resolve('USER_CONTEXT: -') };

/** `turns` tool turns; the outputs of the turns in `stored` were stored (as the long-output store names them). */
function history(turns: number, stored: (turn: number) => boolean): Message[] {
  const messages = conversation(Array.from({ length: turns }, () => ({ action: 2, observations: [30], tool: true })));
  let turn = -1;
  return messages.map((m) => {
    if (m.role === 'assistant') turn++;
    if (m.role !== 'tool' || !stored(turn)) return m;
    return { ...m, storedAt: `.context-desk/tool-outputs/s1/${String(turn + 1).padStart(4, '0')}-bash.txt` };
  });
}

async function checkpointOf(name: StrategyName, h: Message[], historyPointer?: string): Promise<string> {
  const deps = { tokenizer, summarizer: forgetful, ...(historyPointer ? { historyPointer } : {}) };
  const s = createStrategy(name, deps, DEFAULT_STRATEGY_OPTIONS);
  const r = await s.build(h);
  assert.ok(r.summarizedTurns > 0, `${name} folded`);
  const cp = r.messages.find((m) => m.content.startsWith('Checkpoint'));
  assert.ok(cp, `${name} sent a checkpoint`);
  // The same line on the next call: the cached prefix stays.
  const again = (await s.build(h)).messages.find((m) => m.content.startsWith('Checkpoint'));
  assert.equal(again?.content, cp.content);
  return cp.content;
}

test('hybrid: every folded stored output is found through the line after the checkpoint, with the history file', async () => {
  const h = history(53, () => true);
  const text = await checkpointOf('hybrid', h, POINTER);
  assert.ok(text.includes(POINTER), text);
  assert.match(text, /Full outputs of the summarized turns \(43 files\): under \.context-desk\/tool-outputs\/s1\//);
});

test('summary: a few folded stored outputs are named one by one; outputs of turns still shown are not', async () => {
  const stored = new Set([2, 7, 30]);
  const text = await checkpointOf(
    'summary',
    history(31, (t) => stored.has(t)),
  );
  assert.match(
    text,
    /Full outputs of the summarized turns: \.context-desk\/tool-outputs\/s1\/0003-bash\.txt, \.context-desk\/tool-outputs\/s1\/0008-bash\.txt - read or grep them/,
  );
  assert.ok(!text.includes('0031-bash.txt'), 'turn 31 is not folded');
  assert.ok(!text.includes('Full history'), 'no history file was given');
});
