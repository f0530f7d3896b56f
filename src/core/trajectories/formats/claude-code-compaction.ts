// The call that wrote a Claude Code compaction summary. Claude Code 2.1 keeps it as a sub-agent of its
// own (`<session>/subagents/agent-acompact-<id>.jsonl`) holding only a few hook reminders, the summary
// prompt and the reply, but the call sent the whole main conversation before them: the first records'
// `parentUuid` point into the main session. Counted from its own records it looked 60 times smaller than
// it was, so it is replayed only over the main conversation's context at that point, or not at all.
import type { ImportedRun } from '../importer';
import { isObject, type JsonObject } from '../json';
import { Notes } from '../notes';
import { activePath } from './claude-code-path';
import { readRun } from './claude-code';

/** True when some record hangs below a record this list does not hold (the main conversation). */
export function continuesElsewhere(own: readonly JsonObject[]): boolean {
  const uuids = new Set(own.map((r) => r.uuid).filter((u) => typeof u === 'string'));
  return own.some((r) => typeof r.parentUuid === 'string' && !uuids.has(r.parentUuid));
}

/** The text of a hook's context attachment (`hook_additional_context`); undefined for other records. */
function hookContext(r: JsonObject): string | undefined {
  const a = r.type === 'attachment' && isObject(r.attachment) ? r.attachment : undefined;
  if (a?.type !== 'hook_additional_context') return undefined;
  const text = Array.isArray(a.content) ? a.content.filter((t) => typeof t === 'string').join('\n') : a.content;
  return typeof text === 'string' && text !== '' ? text : undefined;
}

/**
 * The compaction's own reminders that repeat a hook context the main conversation already holds as an
 * attachment (sessions that record hook output write it there; the compaction's file writes the same
 * context again as a reminder below the same tool result): the call sent it once.
 */
function repeatedHookReminders(prefix: readonly JsonObject[], own: readonly JsonObject[]): Set<JsonObject> {
  const hooks = prefix.filter((r) => hookContext(r) !== undefined);
  const used = new Set<JsonObject>();
  const out = new Set<JsonObject>();
  for (const o of own) {
    const text = o.isMeta === true && isObject(o.message) ? o.message.content : undefined;
    if (typeof text !== 'string' || !text.includes('hook additional context')) continue;
    // The attachment hangs below the same record as the reminder, or is the reminder's parent.
    const same = hooks.find(
      (h) =>
        !used.has(h) && (h.parentUuid === o.parentUuid || h.uuid === o.parentUuid) && text.includes(hookContext(h)!),
    );
    if (same) {
      used.add(same);
      out.add(o);
    }
  }
  return out;
}

/**
 * The compaction call over the main conversation it was sent with: the main session's active path up
 * to the last record the compaction's records hang below, with those records placed after their
 * parents. Only the compaction's own calls are kept. Undefined when none of its parents is in `main`.
 */
export function compactionRun(main: readonly JsonObject[], own: readonly JsonObject[]): ImportedRun | undefined {
  const { path } = activePath(main.filter((r) => r.isSidechain !== true));
  const at = new Map<string, number>();
  path.forEach((r, i) => {
    if (typeof r.uuid === 'string') at.set(r.uuid, i);
  });
  let last = -1;
  for (const r of own) if (typeof r.parentUuid === 'string') last = Math.max(last, at.get(r.parentUuid) ?? -1);
  if (last < 0) return undefined;
  const prefix = path.slice(0, last + 1);
  const placed = repeatedHookReminders(prefix, own); // left out: already in the prefix
  const combined: JsonObject[] = [];
  // The summary prompt is Claude Code's, not the person's: read as the harness's (meta) text.
  const mark = (o: JsonObject): JsonObject => (o.type === 'user' ? { ...o, isMeta: true } : o);
  for (const r of prefix) {
    combined.push(r);
    for (const o of own)
      if (o.parentUuid === r.uuid && typeof r.uuid === 'string' && !placed.has(o)) {
        combined.push(mark(o));
        placed.add(o);
      }
  }
  for (const o of own) if (!placed.has(o)) combined.push(mark(o));
  // The main conversation's own notes were said with its file.
  const before = readRun(prefix, new Notes(), false).calls.length;
  // Its prompt held the main conversation's images too: those it could not count are its own.
  const notes = new Notes();
  const run = readRun(combined, notes, false);
  return { ...run, calls: run.calls.slice(before), uncountedMedia: notes.media };
}
