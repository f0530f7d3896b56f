// A conversation that switched models: each model's cost unit is its own uncached input token, so the
// session's `cost` holds only the current model's units and every earlier model's are kept apart, one
// entry per model (units of two models are never added), grouped exactly as History and a resumed meter
// group the records (callTotals), so all three agree.
import { callTotals } from './call-log';
import type { SessionState } from './session-state';

/** One model's units, in its own uncached-input-token units. */
export interface ModelUnits {
  model: string;
  units: number;
}

/** Adds units to `model`'s entry (a Map: a model's name is any string, "__proto__" included). */
export function addModelUnits(byModel: Map<string, number>, model: string, units: number): void {
  byModel.set(model, (byModel.get(model) ?? 0) + units);
}

/** The entries in the order the models were first used; undefined when there are none. */
export function modelUnitsList(byModel: ReadonlyMap<string, number>): ModelUnits[] | undefined {
  return byModel.size === 0 ? undefined : [...byModel].map(([model, units]) => ({ model, units }));
}

/** The earlier models' units for an event, when there are any (a copy: the state goes on changing). */
export function otherUnits(s: Pick<SessionState, 'otherModelUnits'>): { otherModelUnits?: ModelUnits[] } {
  return s.otherModelUnits !== undefined ? { otherModelUnits: s.otherModelUnits.map((m) => ({ ...m })) } : {};
}

/**
 * A saved conversation going on with `model`: its records regrouped so `cost` is that model's units and
 * the others' are `otherModelUnits`. One model throughout leaves the saved cost as it was.
 */
export function unitsUnderModel(state: SessionState, model: string): void {
  const t = callTotals(state, model);
  delete state.otherModelUnits;
  if (t.otherModelUnits === undefined) return;
  state.cost = t.costUnits;
  state.otherModelUnits = t.otherModelUnits;
}
