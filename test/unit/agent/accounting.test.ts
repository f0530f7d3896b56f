import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CallAccountant } from '../../../src/core/agent/accounting';
import type { ToolSpec } from '../../../src/core/agent/provider';
import type { Message } from '../../../src/core/messages';
import { createTokenizer } from '../../../src/core/tokens';

const prices = { cachedPrice: 0.1, cacheWritePrice: 1.25, outputPrice: 5 };
const tool = (name: string): ToolSpec => ({
  name,
  description: `The ${name} tool`,
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
});

test('the shared prefix is cached while the tool definitions stay the same, and nothing is once they change', () => {
  const a = new CallAccountant(createTokenizer('o200k'), prices);
  const first: Message[] = [
    { role: 'system', content: 'You are a coding agent. '.repeat(200) },
    { role: 'user', content: 'Fix the build.' },
  ];
  const second: Message[] = [...first, { role: 'assistant', content: 'Looking.' }, { role: 'user', content: 'Go on.' }];
  a.bill(first, first, [tool('read_file')]);
  a.commit(first);
  const same = a.bill(second, second, [tool('read_file')]);
  assert.ok(same.cachedTokens > 1000, String(same.cachedTokens));
  // A server's tools arrive: they come before every message, so the provider has nothing cached.
  const changed = a.bill(second, second, [tool('read_file'), tool('mcp_call')]);
  assert.equal(changed.cachedTokens, 0);
  assert.equal(changed.inputCost, changed.tokensSent * prices.cacheWritePrice);
});
