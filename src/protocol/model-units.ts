// Other models' units (earlier agent models, separate summary models) as the panel, History and the status
// bar name them: each model with its own units (never added up), at most a few named, and a name (read from
// a history file that may come with a cloned repository) shown as plain, short, visible text.
import type { ModelUnits } from './chat';
import { formatCount } from '../core/numbers';

/** Earlier models named one by one; the rest are counted. */
export const NAMED_MODELS = 3;
const NAME_CHARS = 60;

/** A model's name as one short line of visible text: control and direction characters shown as `?`. */
export function shownModelName(name: string): string {
  const head = name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS - 1)}…` : name;
  return head.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, '?');
}

/** The models with units to show (none spent are left out), the first few by name. */
export function modelsShown(list: readonly ModelUnits[] | undefined): { named: ModelUnits[]; more: number } {
  const spent = (list ?? []).filter((m) => m.units > 0);
  return {
    named: spent.slice(0, NAMED_MODELS).map((m) => ({ model: shownModelName(m.model), units: m.units })),
    more: Math.max(0, spent.length - NAMED_MODELS),
  };
}

/** "and 2 more models" (empty for none). */
export function moreModels(n: number): string {
  return n === 0 ? '' : `and ${formatCount(n)} more model${n === 1 ? '' : 's'}`;
}
