import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Disclosures, disclosureKey, MAX_DISCLOSURES } from '../../../src/webview/lib/disclosures';
import { disclosuresFor, hasUnhashedDisclosures, readSavedState } from '../../../src/webview/lib/savedState';
import { readPanelMemory } from '../../../src/protocol/panelMemory';

test('a disclosure keeps what the user chose; one never touched keeps its default', () => {
  const saved: [string, boolean][][] = [];
  const d = new Disclosures([[disclosureKey('c1:args'), true]], (all) => saved.push(all));
  assert.equal(d.isOpen('c1:args', false), true);
  assert.equal(d.isOpen('c2:output', true), true);
  d.set('c2:output', true, true); // drawn open by default: nothing to save
  assert.equal(saved.length, 0);
  d.set('c2:output', false, true);
  assert.equal(d.isOpen('c2:output', true), false);
  assert.deepEqual(saved.at(-1), [
    [disclosureKey('c1:args'), true],
    [disclosureKey('c2:output'), false],
  ]);
});

test('only the newest choices are kept, and what comes back from the state is what was saved', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(400), fc.boolean()), { maxLength: 600 }), (choices) => {
      let last: [string, boolean][] = [];
      const d = new Disclosures([], (all) => (last = all));
      for (const [n, open] of choices) {
        d.set(`c${n}:args`, open, false);
        if (d.isOpen(`c${n}:args`, false) !== open) return false;
      }
      assert.ok(last.length <= MAX_DISCLOSURES);
      const back = readSavedState({ disclosures: { session: 's', chosen: last } });
      assert.deepEqual(disclosuresFor(back, 's'), last);
      assert.deepEqual(disclosuresFor(back, 'other'), []);
      return true;
    }),
  );
});

test('damaged disclosures in the state are dropped one by one', () => {
  const back = readSavedState({
    disclosures: {
      session: 's',
      chosen: [[disclosureKey('c1:args'), true], ['c2', 'yes'], [3, true], 'x', [disclosureKey('c4:output'), false]],
    },
  });
  assert.deepEqual(disclosuresFor(back, 's'), [
    [disclosureKey('c1:args'), true],
    [disclosureKey('c4:output'), false],
  ]);
  assert.equal(readSavedState({ disclosures: { chosen: [] } }).disclosures, undefined);
});

test('a disclosure key is kept hashed: no piece of the call id, one short word of [0-9a-z]', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 300 }), (id) => {
      const key = disclosureKey(`${id}:args`);
      assert.match(key, /^h[0-9a-z]{1,12}$/);
      if (id.length >= 6) assert.ok(!key.includes(id), key);
    }),
  );
  assert.notEqual(disclosureKey('c1:args'), disclosureKey('c1:output'));
});

test('call ids an earlier panel kept in the state are dropped, and the state is known to need writing over', () => {
  const old = { disclosures: { session: 's', chosen: [['call_ghp_abcdef:args', true]] } };
  assert.deepEqual(disclosuresFor(readSavedState(old), 's'), []);
  assert.equal(hasUnhashedDisclosures(old), true);
  assert.equal(
    hasUnhashedDisclosures({ disclosures: { session: 's', chosen: [[disclosureKey('x:args'), true]] } }),
    false,
  );
  assert.equal(hasUnhashedDisclosures({ view: 'chat' }), false);
});

test('the panel memory the host keeps is read field by field', () => {
  const setup = {
    provider: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    apiKey: 'sk-ant-typed',
    removeKey: false,
    model: 'claude',
    contextWindow: '200000',
  };
  assert.deepEqual(readPanelMemory({ setup, error: 'Boom' }), { setup, error: 'Boom' });
  assert.deepEqual(readPanelMemory({ setup: { ...setup, provider: 'evil' }, error: 42 }), {});
  assert.deepEqual(readPanelMemory({ setup: { ...setup, model: 'm'.repeat(20_000) }, error: '' }), {});
  assert.deepEqual(readPanelMemory('nope'), {});
});
