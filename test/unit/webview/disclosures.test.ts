import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Disclosures, MAX_DISCLOSURES } from '../../../src/webview/lib/disclosures';
import { disclosuresFor, readSavedState } from '../../../src/webview/lib/savedState';
import { readPanelMemory } from '../../../src/protocol/panelMemory';

test('a disclosure keeps what the user chose; one never touched keeps its default', () => {
  const saved: [string, boolean][][] = [];
  const d = new Disclosures([['c1:args', true]], (all) => saved.push(all));
  assert.equal(d.isOpen('c1:args', false), true);
  assert.equal(d.isOpen('c2:output', true), true);
  d.set('c2:output', true, true); // drawn open by default: nothing to save
  assert.equal(saved.length, 0);
  d.set('c2:output', false, true);
  assert.equal(d.isOpen('c2:output', true), false);
  assert.deepEqual(saved.at(-1), [
    ['c1:args', true],
    ['c2:output', false],
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
    disclosures: { session: 's', chosen: [['c1:args', true], ['c2', 'yes'], [3, true], 'x', ['c4:output', false]] },
  });
  assert.deepEqual(disclosuresFor(back, 's'), [
    ['c1:args', true],
    ['c4:output', false],
  ]);
  assert.equal(readSavedState({ disclosures: { chosen: [] } }).disclosures, undefined);
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
