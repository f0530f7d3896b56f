// False positives: the share of benign lines (hashes, ids, encoded data, code, logs) the engine
// changes. Goal under 0.1 %.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets } from '../../../src/core/store/sanitize/secrets';
import { benignCorpus } from '../../support/benign-corpus';

test('fewer than 0.1 % of benign lines are changed', async (t) => {
  let total = 0;
  const changed: string[] = [];
  for (const sample of benignCorpus()) {
    let n = 0;
    for (const line of sample.lines) {
      const out = (await redactSecrets(line)).text;
      if (out !== line) {
        n++;
        changed.push(`${sample.source}: ${out.slice(0, 160)}`);
      }
    }
    total += sample.lines.length;
    t.diagnostic(`${sample.source}: ${sample.lines.length} lines, ${n} changed`);
  }
  const share = changed.length / total;
  t.diagnostic(`total: ${total} lines, ${changed.length} changed (${(share * 100).toFixed(3)} %)`);
  assert.ok(total >= 20_000, `a corpus of ${total} lines`);
  assert.ok(share < 0.001, `${(share * 100).toFixed(3)} % changed:\n${changed.slice(0, 30).join('\n')}`);
});
