import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DraftKeeper, notSentText } from '../../../src/extension/agent/draft';
import type { ChatSnapshot } from '../../../src/protocol/chat';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { memento } from '../../support/memento';

const redact = (text: string): string => redactSecretsSync(text).text;
const KEY = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

test('a draft with a key is shown as typed in this window, and reaches workspaceState only redacted', async () => {
  const state = memento();
  const keeper = new DraftKeeper(state, redact);
  const saving = keeper.set(`use ${KEY} for the release`);
  assert.equal(keeper.get(), `use ${KEY} for the release`, 'the view hidden and shown again: as typed');
  await saving;
  const stored = [...state.disk.values()].join('\n');
  assert.ok(!stored.includes(KEY.slice(4)), `nothing of the key on disk: ${stored}`);
  assert.match(stored, /use .*REDACTED.* for the release/);
  // After a reload (a new extension host) the redacted draft comes back.
  assert.match(new DraftKeeper(state, redact).get(), /^use .*REDACTED.* for the release$/);
});

test('an emptied draft is removed; one too long to redact, or with a failing redactor, is not written at all', async () => {
  const state = memento();
  const keeper = new DraftKeeper(state, redact);
  await keeper.set('half a question');
  assert.equal(new DraftKeeper(state, redact).get(), 'half a question');
  await keeper.set('');
  assert.equal(state.disk.size, 0);
  await keeper.set(`${KEY} `.repeat(5000));
  assert.equal(state.disk.size, 0, 'a draft over 64 KB stays in memory');
  const failing = new DraftKeeper(state, () => {
    throw new Error('rules not loaded');
  });
  await failing.set(KEY);
  assert.equal(state.disk.size, 0);
  assert.equal(failing.get(), KEY);
});

// VS Code cancels storage writes once the window starts closing (microsoft/vscode#144118): a write left
// for a pause in typing, or for dispose, never landed.
test('every change is written to workspaceState at once, with no timer left to run', () => {
  const state = memento();
  const keeper = new DraftKeeper(state, redact);
  for (const typed of ['h', 'he', 'hello']) {
    void keeper.set(typed);
    assert.equal(new DraftKeeper(state, redact).get(), typed, 'the next window gets what was just typed');
  }
  void keeper.set('');
  assert.equal(keeper.stored(), undefined);
});

test('a message marked not sent comes back in an empty box, never over text typed since', async () => {
  const empty = new DraftKeeper(memento(), redact);
  await empty.takeBack('fix the build');
  assert.equal(empty.get(), 'fix the build');
  assert.equal(empty.stored(), 'fix the build', 'the next window gets it too');
  const typing = new DraftKeeper(memento(), redact);
  await typing.set('and then the tests');
  await typing.takeBack('fix the build');
  assert.equal(typing.get(), 'and then the tests');
  const blank = new DraftKeeper(memento(), redact);
  await blank.set('  \n');
  await blank.takeBack('fix the build');
  assert.equal(blank.get(), 'fix the build', 'white space alone is an empty box');
});

test('notSentText: the last message the patches mark as not sent, a user message only', () => {
  const chat = {
    items: [
      { kind: 'user', id: 'u-1', text: 'first', at: 1 },
      { kind: 'user', id: 'u-2', text: 'second', at: 2 },
      { kind: 'notice', id: 'n-1', level: 'info', text: 'a notice' },
    ],
  } as unknown as ChatSnapshot;
  assert.equal(
    notSentText(
      [
        { op: 'notSent', id: 'u-1' },
        { op: 'notSent', id: 'u-2' },
      ],
      chat,
    ),
    'second',
  );
  assert.equal(notSentText([{ op: 'notSent', id: 'n-1' }], chat), undefined);
  assert.equal(notSentText([{ op: 'notSent', id: 'gone' }], chat), undefined);
  assert.equal(notSentText([{ op: 'status', status: 'idle' }], chat), undefined);
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
  await typing.set('and then the tests');
  await typing.keepUnsent('fix the build');
  assert.equal(typing.get(), 'fix the build\n\nand then the tests');
});

// When the window closes, VS Code writes nothing more: the waiting message is stored while it waits.
test('a message waiting for a stopped run is stored before the draft until it has gone, redacted', async () => {
  const state = memento();
  await state.update('contextDesk.composerDraft', 'from the last window');
  const keeper = new DraftKeeper(state, redact);
  await keeper.keepWaiting(`deploy with ${KEY} now`);
  assert.match(keeper.stored() ?? '', /^deploy with .*REDACTED.* now\n\nfrom the last window$/);
  assert.equal(keeper.get(), 'from the last window', 'the box shows what it held');
  await keeper.set('typed');
  assert.match(keeper.stored() ?? '', /^deploy with .*REDACTED.* now\n\ntyped$/, 'typing keeps it stored');
  await keeper.keepWaiting(undefined);
  assert.equal(keeper.stored(), 'typed', 'sent: only the draft is left');
  await keeper.keepWaiting('fix the build');
  await keeper.keepUnsent('fix the build');
  assert.equal(keeper.get(), 'fix the build\n\ntyped');
  assert.equal(keeper.stored(), 'fix the build\n\ntyped', 'given back at closing: stored once, not twice');
});
