import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { matchWindow } from '../../../src/core/agent/tools/match-window';
import { redactSecretsSync, secretSafeSlice } from '../../../src/core/store/sanitize/secrets';

const filler = fc.stringMatching(/^[a-z =:,]{0,400}$/);

test('a long line is shown around its match: the match is in the window, the window is bounded', () => {
  fc.assert(
    fc.property(filler, filler, fc.integer({ min: 20, max: 300 }), (before, after, max) => {
      const line = `${before}NEEDLE${after}`;
      const { text, cut } = matchWindow(line, before.length, max);
      assert.equal(cut, line.length > max);
      assert.ok(text.includes('NEEDLE'), text);
      assert.ok(text.length <= max + 2, `${text.length} > ${max} + 2`);
      const body = text.replace(/^…/, '').replace(/…$/, '');
      assert.ok(line.includes(body));
      assert.equal(text.startsWith('…'), !line.startsWith(body));
      assert.equal(text.endsWith('…'), !line.endsWith(body));
    }),
    { numRuns: 500 },
  );
});

test('a window never cuts through a secret: each one is left out or shown whole', () => {
  const token = 'ghp_' + 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6';
  assert.notEqual(redactSecretsSync(` ${token} `).text, ` ${token} `, 'the token is a secret');
  fc.assert(
    fc.property(filler, filler, fc.nat(), fc.nat(), fc.nat(), (before, after, x, y, z) => {
      const line = `${before} ${token} ${after}`;
      const [ts, te] = [before.length + 1, before.length + 1 + token.length];
      const [from, keep, to] = [x, y, z].map((n) => n % (line.length + 1)).sort((p, q) => p - q) as [
        number,
        number,
        number,
      ];
      const [a, b] = secretSafeSlice(line, from, to, keep);
      assert.ok(!(a > ts && a < te) && !(b > ts && b < te), `[${a}, ${b}) cuts the token at [${ts}, ${te})`);
      assert.ok(a <= keep && keep <= b, `[${a}, ${b}) leaves out ${keep}`);
      assert.ok(a <= b);
    }),
    { numRuns: 500 },
  );
});

test("a window never ends where a rule needs what it leaves out: a URL's password cut after its '@' stays redacted", () => {
  const url = 'postgres://app:Hunter2-k8s9@db/app';
  // Every distance between the match and the URL, so that one window ends right after the `@`.
  for (let k = 0; k < 120; k++) {
    const line = `${'x'.repeat(300)} NEEDLE ${'z'.repeat(k)} ${url} ${'y'.repeat(700)}`;
    const { text } = matchWindow(line, 301, 100);
    assert.ok(text.includes('NEEDLE'), text);
    assert.ok(!redactSecretsSync(text).text.includes('Hunter2'), `k=${k}: ${text}`);
  }
  fc.assert(
    fc.property(filler, filler, fc.integer({ min: 40, max: 300 }), (before, after, max) => {
      const line = `${before} NEEDLE ${after} ${url} ${before}`;
      const { text } = matchWindow(line, before.length + 1, max);
      assert.ok(!redactSecretsSync(text).text.includes('Hunter2'), text);
    }),
    { numRuns: 300 },
  );
});
