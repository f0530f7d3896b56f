import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillRefresher, type DiscoveredSkills } from '../../../src/core/skills';

/** A promise the test opens when it has made every call it wants made while a discovery runs. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

test('refreshes during a discovery share one more run; runs never overlap and the newest result wins', async () => {
  // A checkout adding 300 SKILL.md files fired 300 refreshes, each a full discovery, all at once.
  let runs = 0;
  let active = 0;
  let most = 0;
  let state = 0;
  const running = gate();
  const discover = async (): Promise<DiscoveredSkills> => {
    runs++;
    active++;
    most = Math.max(most, active);
    const seen = state;
    await running.wait;
    active--;
    return { skills: [], diagnostics: [{ file: String(seen), line: 0, column: 0, severity: 'warning', message: '' }] };
  };
  const refresher = new SkillRefresher(() => ({}), discover);
  const first = refresher.refresh();
  state = 1; // a change after the first run listed the folders
  const burst = Array.from({ length: 300 }, () => refresher.refresh());
  running.open();
  const results = await Promise.all([first, ...burst]);
  assert.equal(runs, 2);
  assert.equal(most, 1);
  assert.equal(results[0]!.diagnostics[0]!.file, '0');
  for (const r of results.slice(1)) assert.equal(r.diagnostics[0]!.file, '1', 'a later call sees the change');
  // Idle again: the next call starts a run of its own.
  await refresher.refresh();
  assert.equal(runs, 3);
});

test('a failed discovery fails its callers only; the queued run still happens', async () => {
  let runs = 0;
  const running = gate();
  const refresher = new SkillRefresher(
    () => ({}),
    async () => {
      runs++;
      await running.wait;
      if (runs === 1) throw new Error('boom');
      return { skills: [], diagnostics: [] };
    },
  );
  const first = refresher.refresh();
  const second = refresher.refresh();
  running.open();
  await assert.rejects(first, /boom/);
  assert.deepEqual(await second, { skills: [], diagnostics: [] });
  assert.equal(runs, 2);
});
