// Claude Code's headless output (`claude -p --output-format stream-json --verbose`, and the Claude Agent
// SDK's message stream saved as JSON lines) carries the session file's `user` and `assistant` messages
// without `isSidechain` or `parentUuid`: a sub-agent's messages are marked by `parent_tool_use_id`, the
// id of the Task (Agent) tool call that started it. Read without it, a sub-agent's calls were counted in
// the main conversation, sent its whole context, and its tool results were sent by every later main call.
import type { JsonObject } from '../json';
import { plural, type Notes } from '../notes';

/** The Task tool call a stream-json record's sub-agent answers, or undefined for the main conversation. */
export function parentToolUse(r: JsonObject): string | undefined {
  return typeof r.parent_tool_use_id === 'string' && r.parent_tool_use_id !== '' ? r.parent_tool_use_id : undefined;
}

/** A record of a sub-agent: a sidechain of a session file, or a sub-agent's message in stream-json output. */
export function isSubagentRecord(r: JsonObject): boolean {
  return r.isSidechain === true || parentToolUse(r) !== undefined;
}

/** Says what stream-json output leaves out: the prompt given on the command line, unless it was replayed. */
export function noteStreamJson(records: readonly JsonObject[], notes: Notes): void {
  if (!records.some((r) => 'parent_tool_use_id' in r)) return;
  const main = records.filter((r) => (r.type === 'user' || r.type === 'assistant') && !isSubagentRecord(r));
  const subagents = new Set(records.map(parentToolUse).filter((id) => id !== undefined)).size;
  notes.say(
    "Claude Code's stream-json output" +
      (subagents > 0
        ? ` (${plural(subagents, 'sub-agent')} replayed as ${subagents === 1 ? 'a run of its own' : 'runs of their own'}, found by \`parent_tool_use_id\`)`
        : '') +
      (main[0]?.type === 'assistant'
        ? ': the prompt it was started with is not in it (`--replay-user-messages` keeps it), so the first calls are counted without it'
        : ''),
  );
}
