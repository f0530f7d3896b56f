// The panel's host side with a real session against the scripted model server: what happens to a message
// sent after Stop, and to the stopped run's last events, when New Chat comes before that run has ended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controllerRig } from '../../support/chat-controller-harness';
import { LEFT_UNSENT } from '../../../src/extension/agent/afterRun';
import { waitFor } from '../../support/wait';

test('New Chat while a message waits for the stopped run: it stays unsent, back in the box, never sent in the new chat', async () => {
  const rig = await controllerRig([
    { reply: { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] } },
    { fault: 'hang', text: 'Still thinking' },
    { reply: { text: 'sent where it does not belong' } },
  ]);
  try {
    const { chat, server } = rig;
    assert.ok(chat.send('read the readme').accepted);
    await waitFor(() => server.stepsUsed === 2, 30_000, 'the second model call');
    const typedIn = chat.snapshot.sessionId;
    assert.equal(chat.stop(), true);
    assert.ok(chat.send('do this instead').accepted, 'taken to send once the run has stopped');
    const fresh = chat.newChat();
    assert.notEqual(fresh, typedIn);
    await chat.whenSettled();
    await new Promise((r) => setTimeout(r, 200)); // a run started at the end would call the model now
    await chat.whenSettled();
    assert.equal(server.stepsUsed, 2, 'the waiting message was sent to the model');
    const items = chat.snapshot.items;
    assert.equal(chat.snapshot.sessionId, fresh);
    assert.equal(chat.snapshot.status, 'idle', 'the new chat never ran');
    assert.deepEqual(
      items.map((i) => i.kind),
      ['user', 'notice'],
      `the new chat shows only the unsent message and why: ${JSON.stringify(items)}`,
    );
    assert.deepEqual(items[0], { ...items[0], kind: 'user', text: 'do this instead', notSent: true });
    assert.equal(items[1]?.kind === 'notice' && items[1].text, LEFT_UNSENT);
    // The panel puts a not-sent message's text back in an empty message box (webview/app.ts).
    assert.ok(rig.posted.some((p) => p.op === 'notSent' && p.id === items[0]?.id));
  } finally {
    await rig.close();
  }
});
