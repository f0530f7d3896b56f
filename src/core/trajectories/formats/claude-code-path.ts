// Which records of a Claude Code session were the conversation the model saw. A session file is a tree:
// every record names its parent (`parentUuid`); rewinding or editing a message starts a new branch in the
// same file, and compaction starts a new root (a `compact_boundary` record, then the summary). Within
// each compacted segment the conversation is the path from the segment's last message back to its
// start, with the records of the same responses Claude Code 2.1 writes beside it (parallel tool calls,
// claude-code-parallel.ts); records on other branches were abandoned and are not replayed.
import { isObject, type JsonObject } from '../json';
import { rejoinParallelRecords } from './claude-code-parallel';

export const CONTINUATION = 'This session is being continued from a previous conversation';

/** The prompt Claude Code sends to have the conversation so far summarised (its compaction call). */
export const COMPACTION_PROMPT = 'Your task is to create a detailed summary of the conversation so far';

/** The text a user record starts with: its string content, or its first block's text. */
function firstText(r: JsonObject): string {
  const m = isObject(r.message) ? r.message : undefined;
  return typeof m?.content === 'string'
    ? m.content
    : Array.isArray(m?.content) && isObject(m.content[0]) && typeof m.content[0].text === 'string'
      ? m.content[0].text
      : '';
}

/** A record that starts a new context: the compaction boundary, or the summary that opens it. */
export function isCompactionStart(r: JsonObject): boolean {
  if (r.type === 'system' && r.subtype === 'compact_boundary') return true;
  if (r.type !== 'user') return false;
  if (r.isCompactSummary === true) return true;
  return r.parentUuid === null && firstText(r).startsWith(CONTINUATION);
}

/**
 * The records of the call that wrote a compaction summary (Claude Code 2.1 keeps it as a sub-agent,
 * `subagents/agent-acompact-<id>.jsonl`): its id says so, or its prompt asks for the summary.
 */
export function isCompactionAgent(records: readonly JsonObject[]): boolean {
  return records.some(
    (r) =>
      (typeof r.agentId === 'string' && r.agentId.startsWith('acompact-')) ||
      (r.type === 'user' && r.isMeta !== true && firstText(r).startsWith(COMPACTION_PROMPT)),
  );
}

const isTurn = (r: JsonObject) => r.type === 'user' || r.type === 'assistant';

/**
 * The records to replay, in order, and how many conversational records were left on abandoned branches.
 * Records without uuids (hand-made or very old files) are taken in file order.
 */
export function activePath(records: JsonObject[]): { path: JsonObject[]; abandoned: number } {
  if (!records.filter(isTurn).every((r) => typeof r.uuid === 'string')) return { path: records, abandoned: 0 };
  // Segments split at compaction; the summary belongs to the segment it opens.
  const segments: JsonObject[][] = [[]];
  for (const r of records) {
    const current = segments[segments.length - 1]!;
    const boundaryBefore = current.length === 1 && current[0]!.type === 'system';
    if (isCompactionStart(r) && !(boundaryBefore && r.type === 'user')) segments.push([r]);
    else current.push(r);
  }
  const path: JsonObject[] = [];
  let abandoned = 0;
  for (const segment of segments) {
    const byUuid = new Map<string, JsonObject>();
    for (const r of segment) if (typeof r.uuid === 'string') byUuid.set(r.uuid, r);
    const turns = segment.filter(isTurn);
    // More than one root among the turns: the file's tree is not usable (hand-made); keep file order.
    if (turns.filter((r) => typeof r.parentUuid !== 'string').length > 1) {
      for (const r of segment) path.push(r);
      continue;
    }
    const leaf = turns.at(-1);
    const keep = new Set<JsonObject>();
    let end: JsonObject | undefined;
    for (
      let r = leaf;
      r !== undefined && !keep.has(r);
      r = typeof r.parentUuid === 'string' ? byUuid.get(r.parentUuid) : undefined
    ) {
      keep.add(r);
      end = r;
    }
    // A walk that ends on a parent this file does not hold (a resumed session): keep the file's order.
    const dangling =
      end !== undefined && typeof end.parentUuid === 'string' && !byUuid.has(end.parentUuid) && end !== segment[0];
    if (dangling) {
      for (const r of segment) path.push(r);
      continue;
    }
    rejoinParallelRecords(segment, keep, byUuid);
    // Records without a place in the tree (boundaries, attachments, meta lines) keep their file
    // position, unless they hang below an abandoned message, directly or through other such records
    // (an attachment or a microcompaction on a rewound branch was not sent on the one kept).
    const left = new Set<JsonObject>();
    for (const r of segment) {
      const parent = typeof r.parentUuid === 'string' ? byUuid.get(r.parentUuid) : undefined;
      const gone = isTurn(r) ? !keep.has(r) : !keep.has(r) && parent !== undefined && left.has(parent);
      if (!gone) path.push(r);
      else {
        left.add(r);
        if (isTurn(r)) abandoned++;
      }
    }
  }
  return { path, abandoned };
}
