// OpenHands SDK (V1) event tree: each event names its parent (`parent_id`; `__root__` for a new root;
// none for events written before the tree, whose parent is the previous event). The conversation's
// `leaf_event_id` is the active branch's end; without it the last event that is a tree node is.
import { fail } from '../errors';
import type { JsonObject } from '../json';
import { plural, type Notes } from '../notes';

/** Not nodes of the event tree: a newer server can write them onto a legacy tail. */
export const NOT_IN_TREE = new Set(['ConversationStateUpdateEvent', 'ConversationErrorEvent']);
const ROOT_PARENT_ID = '__root__';

export interface SdkHead {
  /** `leaf_event_id` of the conversation state: the active branch's last event. */
  leaf?: string | null;
  /** `head_is_empty`: the user navigated to an empty branch. */
  empty?: boolean;
  /** Events without their conversation (JSON lines, a list): they may begin mid-way. */
  excerpt?: boolean;
}

/** The active branch, root first, as the SDK resolves it (`path_to_root` of the leaf). */
export function activeBranch(
  events: readonly JsonObject[],
  head: SdkHead,
  notes: Notes,
): { branch: JsonObject[]; left: number } {
  const index = new Map<string, number>();
  events.forEach((e, i) => {
    if (index.has(e.id as string))
      fail(`event id ${JSON.stringify(e.id)} appears twice`, 'OpenHands SDK event tree broken');
    index.set(e.id as string, i);
  });
  let leaf: string | undefined;
  if (typeof head.leaf === 'string') leaf = head.leaf;
  else if (!head.empty)
    for (let i = events.length - 1; i >= 0 && leaf === undefined; i--)
      if (!NOT_IN_TREE.has(events[i]!.kind as string)) leaf = events[i]!.id as string;
  const branch: JsonObject[] = [];
  const seen = new Set<number>();
  let at = leaf === undefined ? undefined : index.get(leaf);
  if (leaf !== undefined && at === undefined)
    fail(
      `the conversation's leaf event ${JSON.stringify(leaf)} is not among its events`,
      'OpenHands SDK event tree broken',
    );
  while (at !== undefined) {
    if (seen.has(at)) fail('the event tree has a cycle', 'OpenHands SDK event tree broken');
    seen.add(at);
    const e = events[at]!;
    branch.push(e);
    const parent = e.parent_id;
    if (parent === ROOT_PARENT_ID) break;
    if (typeof parent === 'string') {
      at = index.get(parent);
      // Events alone can be an excerpt (a capture that began later): its first event's parent is older.
      if (at === undefined && head.excerpt) {
        notes.say('the events begin in the middle of a conversation (their first parent is not among them)');
        break;
      }
      if (at === undefined)
        fail(
          `event ${JSON.stringify(e.id)} names a parent that is not among the events`,
          'OpenHands SDK event tree broken',
        );
    } else at = at === 0 ? undefined : at - 1;
  }
  branch.reverse();
  const left = events.filter((e, i) => !seen.has(i) && !NOT_IN_TREE.has(e.kind as string)).length;
  if (left > 0)
    notes.add(
      'sdk-branches',
      (n) => `${plural(n, 'event')} on branches the conversation left (navigation, forks) not replayed`,
      left,
    );
  return { branch, left };
}
