// Cline's SDK hosts (CLI 3, the desktop app, the VS Code extension's SDK build) keep a session as
// `~/.cline/data/sessions/<id>/<id>.messages.json` (a sub-agent's as `<agent>.messages.json`):
// `{version: 1, updated_at, agent, sessionId, messages, system_prompt?}`, the messages in Anthropic's
// block shape, an assistant message naming its model (`modelInfo.id`) and, at the end of a turn, its
// `metrics` (sdk/packages/core/docs/messages-contract-v1.md). Those metrics are not one call's usage:
// `inputTokens` is the whole prompt from the SDK's AI-SDK providers and the uncached part from its
// legacy handlers (sdk/packages/core/src/services/agent-events.ts), and a run without per-request
// metrics puts the run's total on its last message (session-data.ts). Their cost adds up either way.
import { fail, printable } from '../errors';
import type { ImportedRun, Importer } from '../importer';
import { isObject, optionalNumber, type Json, type JsonObject } from '../json';
import { firstModel } from '../model-name';
import { plural, type Notes } from '../notes';
import { readSource, type Input } from '../read/source';
import { TrajectoryBuilder } from '../builder';
import { readMessages } from './anthropic';

/** The file's shape, whatever its version: what tells it from other `{messages}` documents. */
function isMessagesFile(v: Json): v is JsonObject {
  return (
    isObject(v) &&
    typeof v.version === 'number' &&
    typeof v.sessionId === 'string' &&
    typeof v.agent === 'string' &&
    Array.isArray(v.messages) &&
    v.messages.every((m) => isObject(m) && (m.role === 'user' || m.role === 'assistant'))
  );
}

export const clineSdkSession: Importer = {
  name: 'Cline SDK session',
  detect: (input: Input) => input.kind === 'document' && isMessagesFile(input.value),
  read: (input, notes) => readClineSdk(input, notes),
};

/** A session's compaction state (`<id>.compaction.json`): what the model was sent instead of the transcript's start. */
export function isCompactionState(v: Json): v is JsonObject {
  return (
    isObject(v) &&
    typeof v.version === 'number' &&
    typeof v.source_message_count === 'number' &&
    Array.isArray(v.messages) &&
    !('sessionId' in v)
  );
}

/** A session's manifest (`<id>.json`: pid, provider, model, `messages_path`): its messages are beside it. */
export function isSessionManifest(v: Json): v is JsonObject {
  return isObject(v) && typeof v.session_id === 'string' && typeof v.pid === 'number' && 'messages_path' in v;
}

/** Reads the session; `compaction`, its compaction state, replaces the transcript's start for later calls. */
export function readClineSdk(input: Input, notes: Notes, compaction?: JsonObject): ImportedRun[] {
  const doc = input.kind === 'document' && isObject(input.value) ? input.value : {};
  if (doc.version !== 1)
    fail(
      `Cline messages.json version ${printable(String(doc.version), 20)}: replay reads version 1`,
      'Cline messages.json of another version',
    );
  const messages = Array.isArray(doc.messages) ? doc.messages : [];
  const b = new TrajectoryBuilder();
  const system = (text: Json | undefined) => {
    if (typeof text === 'string' && text !== '') b.push({ role: 'system', content: text, origin: 'agent' });
  };
  system(doc.system_prompt);
  if (typeof doc.system_prompt !== 'string' || doc.system_prompt === '')
    notes.say("Cline's system prompt and tool definitions are not in the file: raw counts are a lower bound");
  const cut = compactionCut(compaction, messages.length, notes);
  if (cut === undefined) readMessages(messages, b, notes, false);
  else {
    readMessages(messages.slice(0, cut), b, notes, false);
    b.reset();
    system(compaction!.system_prompt ?? doc.system_prompt);
    // The compacted history is what later calls sent, not calls of its own; it is the agent's memory.
    const calls = b.calls.length;
    const from = b.messages.length;
    readMessages(compaction!.messages as Json[], b, notes, false);
    b.calls.length = calls;
    for (let i = from; i < b.messages.length; i++) b.messages[i]!.origin = 'agent';
    readMessages(messages.slice(cut), b, notes, false);
  }
  let cost = 0;
  let withMetrics = 0;
  for (const m of messages) {
    if (!isObject(m) || !isObject(m.metrics)) continue;
    withMetrics++;
    cost += optionalNumber(m.metrics.cost) ?? 0;
  }
  if (withMetrics > 0)
    notes.say(
      `${withMetrics === 1 ? "1 assistant message's" : `${plural(withMetrics, 'assistant message')}'`} metrics not ` +
        "read as recorded usage: Cline's inputTokens is the whole prompt for some providers and its uncached part " +
        'for others, and a turn may hold the total of several calls (their cost is the recorded cost)',
    );
  const model = firstModel(messages, (m) => (isObject(m) && isObject(m.modelInfo) ? m.modelInfo.id : undefined));
  return [
    {
      format: 'cline',
      ...(model ? { model } : {}),
      messages: b.messages,
      calls: b.calls,
      // $0 beside billed tokens is a model without a price, not a free run.
      ...(cost > 0 ? { recordedCost: Math.round(cost * 1e9) / 1e9 } : {}),
    },
  ];
}

/** Where the compaction cuts the transcript, when its state fits it; said either way. */
function compactionCut(state: JsonObject | undefined, length: number, notes: Notes): number | undefined {
  if (!state) return undefined;
  const n = state.source_message_count;
  if (state.version !== 1 || typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n > length) {
    notes.say(
      "Cline's compaction state beside the session does not fit its transcript: calls are replayed on the whole " +
        'transcript, more than was sent after the compaction',
    );
    return undefined;
  }
  notes.say(
    `Cline compacted this session: calls after its compaction (${plural(n, 'message')} replaced) send the compacted ` +
      'history and what follows; only the last compaction is kept, so calls before it are replayed on the whole ' +
      'transcript (more than was sent if an earlier compaction happened)',
  );
  return n;
}

/** The compaction state kept beside `<id>.messages.json`, when there is one. */
export async function clineCompaction(file: string): Promise<JsonObject | undefined> {
  if (!file.endsWith('.messages.json')) return undefined;
  const input = await readSource(`${file.slice(0, -'.messages.json'.length)}.compaction.json`).catch(() => undefined);
  return input?.kind === 'document' && isCompactionState(input.value) ? input.value : undefined;
}
