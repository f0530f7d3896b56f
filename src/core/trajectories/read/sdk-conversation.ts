// An OpenHands SDK (V1) conversation folder: `base_state.json` (the agent, its usage, the active leaf)
// and `events/event-NNNNN-<id>.json`, one event per file, in the order of the number. Read as one log.
import { modelName } from '../model-name';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fail, FormatError } from '../errors';
import { isObject, type Json } from '../json';
import { isSdkConversationState, readSdkEvents, refuseAcp } from '../formats/openhands-sdk';
import { usageFromState } from '../formats/openhands-sdk-usage';
import type { ImportedRun } from '../importer';
import type { Notes } from '../notes';
import { readSource } from './source';

export const STATE_FILE = 'base_state.json';
export const EVENTS_DIR = 'events';
/** The SDK's own name pattern: an index of at least five digits, then the event id. */
const EVENT_FILE = /^event-(\d{5,})-([0-9a-fA-F-]{8,})\.json$/;

/** True when `names` (a folder's entries) hold a conversation's state file and events folder. */
export async function isSdkConversationFolder(dir: string, names: readonly string[]): Promise<boolean> {
  if (!names.includes(STATE_FILE) || !names.includes(EVENTS_DIR)) return false;
  const [state, events] = await Promise.all([
    lstat(join(dir, STATE_FILE)).catch(() => undefined),
    lstat(join(dir, EVENTS_DIR)).catch(() => undefined),
  ]);
  return !!state?.isFile() && !!events?.isDirectory();
}

async function readJson(file: string, what: string): Promise<Json> {
  let input;
  try {
    input = await readSource(file);
  } catch (e) {
    // The reason names the part of the conversation that is wrong; the group stays the reader's.
    if (e instanceof FormatError) throw new FormatError(`${what}: ${e.message}`, e.group ?? e.message);
    throw e;
  }
  if (input.kind !== 'document') fail(`${what} is not one JSON document`, 'OpenHands SDK conversation unreadable');
  return input.value;
}

/** Reads the conversation in `dir` into one run. Throws a FormatError that names the part that is wrong. */
export async function readSdkConversation(dir: string, notes: Notes): Promise<ImportedRun> {
  const state = await readJson(join(dir, STATE_FILE), STATE_FILE);
  if (!isSdkConversationState(state))
    fail(`${STATE_FILE} is not an OpenHands SDK conversation state`, 'OpenHands SDK conversation unreadable');
  if (isObject(state.agent) && typeof state.agent.kind === 'string' && /^ACP/.test(state.agent.kind)) refuseAcp();
  const entries = await readdir(join(dir, EVENTS_DIR), { withFileTypes: true });
  const files: { index: bigint; name: string }[] = [];
  let others = 0;
  for (const e of entries) {
    const m = EVENT_FILE.exec(e.name);
    // Links are not followed: an event is a file the SDK wrote here.
    if (m && e.isFile()) files.push({ index: BigInt(m[1]!), name: e.name });
    else if (e.name !== '.eventlog.lock') others++;
  }
  files.sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : 0));
  // The SDK numbers events from 0 without gaps: a gap is a lost event, and the context would be wrong.
  for (let i = 0; i < files.length; i++)
    if (files[i]!.index !== BigInt(i))
      fail(
        i > 0 && files[i]!.index === files[i - 1]!.index
          ? `two event files have the number ${files[i]!.index}`
          : `event number ${i} is missing from events/: the conversation is incomplete`,
        'OpenHands SDK conversation unreadable',
      );
  if (others > 0)
    notes.add(
      'sdk-other-files',
      (n) => `${n} ${n === 1 ? 'entry' : 'entries'} under events/ that are not event files skipped`,
      others,
    );
  const events: Json[] = [];
  for (const f of files) {
    const v = await readJson(join(dir, EVENTS_DIR, f.name), `events/${f.name}`);
    // The action is the tool call parsed again; the call's arguments are what the model wrote.
    if (isObject(v) && v.kind === 'ActionEvent' && isObject(v.tool_call)) delete v.action;
    events.push(v);
  }
  const leaf = state.leaf_event_id;
  const run = readSdkEvents(
    events,
    usageFromState(state),
    {
      leaf: typeof leaf === 'string' ? leaf : null,
      empty: state.head_is_empty === true,
    },
    notes,
  );
  // The agent's LLM makes the calls replayed (the condenser's has its own).
  const llm = isObject(state.agent) && isObject(state.agent.llm) ? state.agent.llm : undefined;
  const model = modelName(llm?.model);
  return model !== undefined ? { ...run, model } : run;
}
