import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { DraftKeeper } from '../../../src/extension/agent/draft';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { memento } from '../../support/memento';

const redact = (text: string): string => redactSecretsSync(text).text;
const KEY = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
/** Lets the memento's update (a promise) settle. */
const settled = (): Promise<void> => new Promise((r) => setImmediate(r));

test('a draft with a key is shown as typed in this window, and reaches workspaceState only redacted', async () => {
  const state = memento();
  const keeper = new DraftKeeper(state, redact);
  keeper.set(`use ${KEY} for the release`);
  assert.equal(keeper.get(), `use ${KEY} for the release`, 'the view hidden and shown again: as typed');
  await keeper.persist();
  const stored = [...state.disk.values()].join('\n');
  assert.ok(!stored.includes(KEY.slice(4)), `nothing of the key on disk: ${stored}`);
  assert.match(stored, /use .*REDACTED.* for the release/);
  // After a reload (a new extension host) the redacted draft comes back.
  assert.match(new DraftKeeper(state, redact).get(), /^use .*REDACTED.* for the release$/);
});

test('an emptied draft is removed; one too long to redact, or with a failing redactor, is not written at all', async () => {
  const state = memento();
  const keeper = new DraftKeeper(state, redact);
  keeper.set('half a question');
  await keeper.persist();
  assert.equal(new DraftKeeper(state, redact).get(), 'half a question');
  keeper.set('');
  await keeper.persist();
  assert.equal(state.disk.size, 0);
  keeper.set(`${KEY} `.repeat(5000));
  await keeper.persist();
  assert.equal(state.disk.size, 0, 'a draft over 64 KB stays in memory');
  const failing = new DraftKeeper(state, () => {
    throw new Error('rules not loaded');
  });
  failing.set(KEY);
  await failing.persist();
  assert.equal(state.disk.size, 0);
  assert.equal(failing.get(), KEY);
});

test('typing is written once it pauses for 500 ms, and a pending draft is written when the extension stops', async (t) => {
  mock.timers.enable({ apis: ['setTimeout'] });
  t.after(() => mock.timers.reset());
  const state = memento();
  const keeper = new DraftKeeper(state, redact);
  keeper.set('h');
  mock.timers.tick(400);
  keeper.set('he');
  mock.timers.tick(400);
  keeper.set('hello');
  mock.timers.tick(499);
  await settled();
  assert.equal(state.disk.size, 0, 'not on every keystroke, nor while typing goes on');
  mock.timers.tick(1);
  await settled();
  assert.equal(new DraftKeeper(state, redact).get(), 'hello');
  keeper.set('hello again');
  keeper.dispose();
  await settled();
  assert.equal(new DraftKeeper(state, redact).get(), 'hello again');
});

test('a message that waited for a stopped run when the window closed is back in the box next time, redacted', async () => {
  const state = memento();
  const keeper = new DraftKeeper(state, redact);
  await keeper.keepUnsent(`deploy with ${KEY} now`);
  const next = new DraftKeeper(state, redact).get();
  assert.match(next, /^deploy with .*REDACTED.* now$/, 'written at once, not after a pause the closing window lacks');
  assert.ok(!next.includes(KEY.slice(4)));
  // Text typed after it was sent is kept too, after the message.
  const typing = new DraftKeeper(memento(), redact);
  typing.set('and then the tests');
  await typing.keepUnsent('fix the build');
  assert.equal(typing.get(), 'fix the build\n\nand then the tests');
});
