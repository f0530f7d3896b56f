import { join } from 'node:path';
import assert from 'node:assert/strict';
import { loadTrajectoryFile, type Trajectory } from '../../../src/core/trajectories';

export const fixtures = join(__dirname, '../../fixtures/trajectories');
export const fixture = (name: string) => join(fixtures, name);

/** The only trajectory a fixture holds. */
export async function one(name: string): Promise<Trajectory> {
  const all = await loadTrajectoryFile(fixture(name));
  assert.equal(all.length, 1, `${name} holds one trajectory`);
  return all[0]!;
}

/** Roles and origins in order, e.g. `user/person`. */
export const shape = (t: Trajectory) => t.messages.map((m) => `${m.role}/${m.origin ?? '?'}`);

/** Each call as [context ranges, output index]. */
export const callShape = (t: Trajectory) => (t.calls ?? []).map((c) => [c.context, c.output ?? null]);
