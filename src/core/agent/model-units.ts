// A conversation that switched models: each model's cost unit is its own uncached input token, so the
// session's `cost` holds only the current model's units and the earlier models' are kept apart, grouped
// by model exactly as History and a resumed meter group the records (callTotals), so all three agree.
import { callTotals } from './call-log';
import type { SessionState } from './session-state';

/** The earlier models' units for an event, when there are any. */
export function otherUnits(s: Pick<SessionState, 'otherModelUnits'>): { otherModelUnits?: number } {
  return s.otherModelUnits !== undefined ? { otherModelUnits: s.otherModelUnits } : {};
}

/**
 * A saved conversation going on with `model`: its records regrouped so `cost` is that model's units and
 * the rest `otherModelUnits`. One model throughout leaves the saved cost as it was.
 */
export function unitsUnderModel(state: SessionState, model: string): void {
  const t = callTotals(state, model);
  delete state.otherModelUnits;
  if (t.otherModelUnits === undefined) return;
  state.cost = t.costUnits;
  state.otherModelUnits = t.otherModelUnits;
}
