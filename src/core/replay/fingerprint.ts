// What a trajectory holds, as one hash: two logs with the same messages, calls and recorded figures are
// the same run read twice (a file copied into two folders, a run exported twice), whatever their names.
// Formats that keep no response ids (SWE-agent, Aider, OpenAI chat) cannot be matched call by call
// (copies.ts); this catches the commonest case, a whole log given twice, so its calls are counted once.
import { createHash } from 'node:crypto';
import type { Message } from '../messages';
import { callsOf, type Trajectory } from '../trajectories/types';

/** Hashes every message field that is sent or counted, then every call (its context, output and usage). */
export function trajectoryFingerprint(t: Trajectory): string {
  const h = createHash('sha256');
  const add = (v: unknown) => h.update(`${JSON.stringify(v) ?? 'null'}\u0000`);
  add(t.format);
  add(t.messages.length);
  for (const m of t.messages) add(messageParts(m));
  for (const c of callsOf(t)) add([c.context, c.output ?? null, c.recorded ?? null, c.responseId ?? null]);
  add(t.recordedCost ?? null);
  add(t.recordedSummaries ?? null);
  return h.digest('hex');
}

function messageParts(m: Message): unknown[] {
  return [m.role, m.origin ?? null, m.content, m.name ?? null, m.toolCallId ?? null, m.toolCalls ?? null];
}
