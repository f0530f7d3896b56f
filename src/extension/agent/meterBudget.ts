// The meter's budget line from the budget's events: its state (ok, warning, slowing down, over, refused,
// awaiting approval) and how much of it is used.
import type { BudgetEvent } from '../../core/budget/types';
import type { ContextMeter } from '../../protocol/chat';

type BudgetMeter = NonNullable<ContextMeter['budget']>;

/**
 * The meter's budget line. A hard refusal stops the run before the limit is passed (`refused`, not
 * `exceeded`); a denied or abandoned approval (Stop while asking) leaves the budget where it was.
 */
export function budgetState(e: BudgetEvent, previous: ContextMeter['budget']): BudgetMeter {
  const limit = e.limit;
  // Slowing down is decided on the use after the spend it delays (its ratio); `used` is from before it.
  const used = e.type === 'backpressure' && limit > 0 ? e.ratio * limit : e.used;
  // Unrounded: the panel shows it (99.6 % of a budget must not read as a full 100 %).
  const usedPercent = limit > 0 ? (used / limit) * 100 : (previous?.usedPercent ?? 0);
  const byUse: BudgetMeter['state'] = used > limit ? 'exceeded' : used >= 0.8 * limit ? 'warning' : 'ok';
  let state: BudgetMeter['state'];
  switch (e.type) {
    case 'warning':
      state = 'warning';
      break;
    case 'backpressure':
      // Over the limit says more than slowing down (a soft budget goes on past it).
      state = byUse === 'exceeded' ? 'exceeded' : 'backpressure';
      break;
    case 'approval-requested':
      state = 'awaiting-approval';
      break;
    case 'exceeded':
      state = e.refused ? 'refused' : e.mode === 'soft' ? 'exceeded' : byUse;
      break;
    default:
      state = byUse;
  }
  return { state, usedPercent, limit };
}
