import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TokenBudget, type BudgetMode } from '../../../src/core/budget';
import { virtualTime } from './helpers';

const mode = fc.constantFrom<BudgetMode>('hard', 'soft', 'approval');
const rule = fc.option(fc.record({ limit: fc.integer({ min: 0, max: 5000 }), mode }), { nil: undefined });
const spend = fc.record({
  tokens: fc.integer({ min: 0, max: 2000 }),
  taskId: fc.option(fc.constantFrom('t1', 't2', 't3'), { nil: undefined }),
  agentId: fc.option(fc.constantFrom('a1', 'a2'), { nil: undefined }),
});

test('a hard limit is never exceeded, whatever the sequence of spends (sequential and concurrent)', async () => {
  await fc.assert(
    fc.asyncProperty(
      rule,
      rule,
      rule,
      fc.array(spend, { maxLength: 60 }),
      fc.boolean(),
      fc.boolean(),
      async (session, task, agent, spends, concurrent, approve) => {
        const time = virtualTime();
        const b = new TokenBudget({
          session,
          task,
          agent,
          sleep: time.sleep,
          clock: time,
          approval: { requestApproval: async () => approve },
        });
        if (concurrent) await Promise.all(spends.map((s) => b.request(s)));
        else for (const s of spends) await b.request(s);
        for (const u of b.usage()) {
          if (u.mode === 'hard') assert.ok(u.used <= u.limit!, `${u.level} ${u.id ?? ''}: ${u.used} > ${u.limit}`);
          if (u.mode === 'approval' && !approve) assert.ok(u.used <= u.limit!);
        }
        const total = b.usage()[0]!.used;
        assert.ok(total <= spends.reduce((s, x) => s + x.tokens, 0));
      },
    ),
    { numRuns: 300 },
  );
});
