import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { Progress } from '../../src/cli/replay/progress';
import { niceStep } from '../../src/cli/replay/plot';

function stream(isTTY: boolean) {
  const s = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  s.on('data', (c: Buffer) => (text += c.toString()));
  return { s, text: () => text };
}

test('no progress during the first second; a bar afterwards', () => {
  let t = 0;
  const out = stream(true);
  const p = new Progress({ stream: out.s, now: () => t, width: 10 });
  p.update(1, 10);
  t = 900;
  p.update(2, 10);
  assert.equal(out.text(), '');
  t = 1200;
  p.update(5, 10, 'replaying');
  assert.equal(out.text(), '\r\x1b[2K[#####.....] 5/10 replaying');
  p.finish();
  assert.ok(out.text().endsWith('\r\x1b[2K'));
});

test('without a terminal, one line per 10 % instead of redraws', () => {
  let t = 5000;
  const out = stream(false);
  const p = new Progress({ stream: out.s, now: () => t, width: 4 });
  t = 7000;
  for (let i = 1; i <= 100; i++) p.update(i, 100);
  const lines = out.text().trim().split('\n');
  assert.equal(lines.length, 11); // 0 %, 10 %, ..., 100 %
  assert.equal(lines.at(-1), '[####] 100/100');
  assert.ok(!out.text().includes('\r'));
  p.finish();
  assert.ok(!out.text().includes('\x1b'));
});

test('plot axis steps are 1, 2 or 5 times a power of ten', () => {
  assert.equal(niceStep(40_000), 10_000);
  assert.equal(niceStep(9), 2);
  assert.equal(niceStep(0), 1);
  assert.equal(niceStep(123, 8), 20);
});
