// Gemini CLI chats (`~/.gemini/tmp/<project>/chats/session-*.json`, and `.jsonl` since 2026). The JSON
// file is the whole conversation `{sessionId, projectHash, messages}`. The JSONL file starts with that
// metadata, then one record per line: a message (a later record with the same id replaces it: usage and
// tool results arrive after the text), `{$rewindTo: id}` (that message and all after it are taken back)
// or `{$set: {...}}`, where `messages` replaces the conversation (compression, output masking): later
// calls send that list and what follows, like a compaction.
// A `gemini` message is one model reply: its text, its tool calls with their results (sent back as the
// next turn) and the provider's usage (`tokens`: promptTokenCount with cached tokens inside,
// toolUsePromptTokenCount beside it, thoughts billed as output). `user` messages hold what was sent for
// the person's turn; `info`, `error` and `warning` are the CLI's own lines, never sent to the model.
import { firstModel } from '../model-name';
import type { Message, ToolCall } from '../../messages';
import { jsonOrNote } from '../../json-depth';
import { TrajectoryBuilder } from '../builder';
import { BAD_COUNT, isObject, optionalCount, type Json, type JsonObject } from '../json';
import { noteBadLines, plural, type Notes } from '../notes';
import type { Importer } from '../importer';
import type { Input } from '../read/source';
import type { RecordedUsage } from '../types';

/** The metadata of a chat: the JSON file's top level, or the JSONL file's first line. */
export const isGeminiChatMetadata = (v: unknown): v is JsonObject =>
  isObject(v) && typeof v.sessionId === 'string' && typeof v.projectHash === 'string';

const CLI_LINES = new Set(['info', 'error', 'warning']);

/** Text of a `PartListUnion`: a string, one part or a list of parts. */
export function partsText(v: Json | undefined, notes: Notes): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  const parts = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  for (const p of parts) {
    if (typeof p === 'string') out.push(p);
    else if (!isObject(p)) continue;
    else if (p.thought === true)
      notes.add('thought', (n) => `${plural(n, 'thought part')} not replayed (Gemini does not send thoughts back)`);
    else if (typeof p.text === 'string') out.push(p.text);
    else if (isObject(p.functionResponse)) out.push(responseText(p.functionResponse));
    else if (isObject(p.inlineData) || isObject(p.fileData)) {
      const kind = isObject(p.inlineData) ? 'inlineData' : 'fileData';
      out.push(`[${kind}]`);
      notes.add(
        `media:${kind}`,
        (n) =>
          `${plural(n, `${kind} part`)} counted as a one-word marker (its tokens are not known: totals are lower bounds)`,
      );
    } else if (!isObject(p.functionCall))
      notes.add('part:unknown', (n) => `${plural(n, 'content part')} of an unknown kind dropped`);
  }
  return out.join('');
}

/** What a tool's `functionResponse` told the model: its output, its error, or the response as JSON. */
export function responseText(fr: JsonObject): string {
  const r = isObject(fr.response) ? fr.response : undefined;
  if (typeof r?.output === 'string') return r.output;
  if (typeof r?.error === 'string') return r.error;
  return r === undefined ? '' : jsonOrNote(r);
}

function usageOf(tokens: Json | undefined): RecordedUsage | undefined {
  if (!isObject(tokens)) return undefined;
  const [input, tool, cached, output, thoughts] = [
    tokens.input,
    tokens.tool,
    tokens.cached,
    tokens.output,
    tokens.thoughts,
  ].map(optionalCount);
  // A figure that is not a token count makes every sum with it wrong: the reply's usage is left out.
  if ([input, tool, cached, output, thoughts].includes(BAD_COUNT)) return { unreadableTokens: true };
  const u: RecordedUsage = {};
  if (typeof input === 'number') u.inputTokens = input + (typeof tool === 'number' ? tool : 0);
  if (typeof cached === 'number') u.cachedTokens = cached;
  if (typeof output === 'number') u.outputTokens = output + (typeof thoughts === 'number' ? thoughts : 0);
  return Object.keys(u).length > 0 ? u : undefined;
}

/**
 * Whether a reply's usage may be the next reply's. Gemini CLI gives a reply's usage to the last message
 * when that is a reply without usage (chatRecordingService `recordMessageTokens`), and the reply itself is
 * recorded only when its stream ends: after a reply that got no usage (interrupted, or its stream failed),
 * the next reply's first usage lands on it. That shows as a reply directly followed by another (no user
 * turn or CLI line between) that has no usage, or the same prompt size (a later chunk's usage was kept for
 * it): one prompt cannot be both, as the next one sends this reply too.
 */
function earlyUsage(usage: RecordedUsage, next: Entry | undefined): boolean {
  if (!next || !next.call || next.record.type !== 'gemini') return false;
  const after = usageOf(next.record.tokens);
  if (!after) return true;
  return usage.inputTokens !== undefined && usage.inputTokens === after.inputTokens;
}

/** Longest pause between a message's tool calls being recorded (ms); a model call is one pause. */
const BATCH_GAP_MS = 1000;

/**
 * Whether a reply's tool calls were recorded in batches far apart. Gemini CLI before 0.30 (February
 * 2026, still the JSON file) wrote a reply made only of function calls, with no thoughts, into the
 * reply before it and kept no usage of it: such a message holds two replies' calls. A client that
 * records each call as it finishes (the Zed integration) looks the same, so this is only said.
 */
function laterBatches(calls: readonly JsonObject[]): boolean {
  const times = calls
    .map((c) => (typeof c.timestamp === 'string' ? Date.parse(c.timestamp) : NaN))
    .filter((t) => !Number.isNaN(t))
    .sort((x, y) => x - y);
  return times.some((t, i) => i > 0 && t - times[i - 1]! > BATCH_GAP_MS);
}

/** The model the first `gemini` reply names (each reply records the model that wrote it). */
function modelOf(records: readonly Json[]): { model?: string } {
  const model = firstModel(records, (r) => (isObject(r) && r.type === 'gemini' ? r.model : undefined));
  return model !== undefined ? { model } : {};
}

interface Entry {
  record: JsonObject;
  /** A model call: first written as a message record (a `$set` list only repeats history). */
  call: boolean;
  /** Written as a message record at some point: not made up by a `$set` (a compression's summary). */
  written: boolean;
  /** A reply a `$set` made up that a later record gave usage: that usage is the next call's. */
  stray?: boolean;
}

/** The conversation as a sequence of contexts: a `$set` of messages starts a new one. */
interface Timeline {
  contexts: Map<string, Entry>[];
  rewound: number;
}

function timeline(records: readonly Json[], notes: Notes): Timeline {
  const contexts: Map<string, Entry>[] = [new Map()];
  let rewound = 0;
  const called = new Set<string>();
  const written = new Set<string>();
  for (const r of records) {
    if (!isObject(r)) continue;
    const current = contexts[contexts.length - 1]!;
    if (typeof r.$rewindTo === 'string') {
      const ids = [...current.keys()];
      const at = ids.indexOf(r.$rewindTo);
      for (const id of ids.slice(at === -1 ? 0 : at)) {
        if (current.get(id)!.call) rewound++;
        current.delete(id);
      }
    } else if (isObject(r.$set)) {
      if (!Array.isArray(r.$set.messages)) continue;
      const next = new Map<string, Entry>();
      for (const m of r.$set.messages)
        if (isObject(m) && typeof m.id === 'string')
          next.set(m.id, { record: m, call: false, written: written.has(m.id) });
      contexts.push(next);
    } else if (typeof r.id === 'string' && typeof r.type === 'string') {
      const seen = current.get(r.id);
      const call = r.type === 'gemini' && !called.has(r.id);
      if (call) called.add(r.id);
      written.add(r.id);
      if (seen) {
        if (call && !seen.call) seen.stray = true;
        seen.record = r;
        seen.written = true;
      } else current.set(r.id, { record: r, call, written: true });
    } else if (!isGeminiChatMetadata(r))
      notes.add('record:unknown', (n) => `${plural(n, 'record')} of an unknown kind skipped`);
  }
  return { contexts, rewound };
}

export const geminiCli: Importer = {
  name: 'Gemini CLI',
  detect: (input: Input) =>
    input.kind === 'document'
      ? isGeminiChatMetadata(input.value) && Array.isArray(input.value.messages)
      : input.kind === 'lines' && input.records.slice(0, 5).some(isGeminiChatMetadata),
  read(input, notes) {
    let records: readonly Json[];
    if (input.kind === 'lines') {
      noteBadLines(notes, input.bad);
      records = input.records;
    } else {
      const doc = input.kind === 'document' && isObject(input.value) ? input.value : {};
      records = Array.isArray(doc.messages) ? doc.messages : [];
    }
    const { contexts, rewound } = timeline(records, notes);
    const b = new TrajectoryBuilder();
    let cliLines = 0;
    contexts.forEach((context, k) => {
      if (k > 0) b.reset();
      // Usage recorded on a message that was no call (Gemini CLI puts a call's usage on the last reply
      // when that one has none, e.g. the acknowledgement after a compression) belongs to the next call.
      let stray: RecordedUsage | undefined;
      const entries = [...context.values()];
      for (const [i, { record: m, call, written, stray: late }] of entries.entries()) {
        const where = `message ${String(m.id)}`;
        if (m.type === 'user') {
          // A user message only a `$set` holds was written by the CLI (a compression's summary).
          b.push({ role: 'user', content: partsText(m.content, notes), origin: written ? 'person' : 'agent' });
          continue;
        }
        if (m.type !== 'gemini') {
          if (CLI_LINES.has(String(m.type))) cliLines++;
          else
            notes.add(
              `type:${String(m.type)}`,
              (n) => `${plural(n, 'message')} of type ${JSON.stringify(m.type)} not replayed`,
            );
          continue;
        }
        const calls = Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObject) : [];
        if (input.kind === 'document' && call && laterBatches(calls))
          notes.add(
            'merged-replies',
            (n) =>
              `${plural(n, 'reply', 'replies')} with tool calls recorded more than a second apart: Gemini CLI before 0.30 wrote a reply made only of function calls into the reply before it and kept no usage of it, so calls and recorded usage may be undercounted`,
          );
        const message: Message = { role: 'assistant', content: partsText(m.content, notes), origin: 'agent' };
        const toolCalls: ToolCall[] = calls.map((c, i) => ({
          id: typeof c.id === 'string' ? c.id : `${where}:${i}`,
          name: typeof c.name === 'string' ? c.name : '',
          arguments: isObject(c.args) ? jsonOrNote(c.args) : '{}',
        }));
        if (toolCalls.length > 0) message.toolCalls = toolCalls;
        const index = b.push(message);
        let usage = usageOf(m.tokens);
        if (call && usage && earlyUsage(usage, entries[i + 1])) {
          usage = undefined;
          notes.add(
            'early-usage',
            (n) =>
              `${plural(n, 'reply', 'replies')} followed straight by another reply whose usage ${n === 1 ? 'it' : 'they'} may hold (Gemini CLI puts a new reply's usage on the reply before when that one has none, as an interrupted reply): ${n === 1 ? 'its' : 'their'} recorded usage is not used`,
          );
        }
        if (call) {
          if (!usage && stray) usage = stray;
          else if (stray)
            notes.add('stray-usage', (n) => `${plural(n, 'usage record')} on a message that was no call left out`);
          stray = undefined;
          b.call(index, usage);
        } else if (usage && late) stray = usage;
        calls.forEach((c, i) => {
          const result = c.result === undefined || c.result === null ? undefined : partsText(c.result, notes);
          if (result === undefined)
            notes.add(
              'no-result',
              (n) => `${plural(n, 'tool call')} without a recorded result replayed as an empty one`,
            );
          b.push({
            role: 'tool',
            toolCallId: toolCalls[i]!.id,
            name: toolCalls[i]!.name,
            content: result ?? '',
            origin: 'environment',
          });
        });
      }
    });
    notes.say(
      'Gemini CLI does not record its system prompt, tool declarations or the workspace context it sends first: raw counts are a lower bound',
    );
    if (contexts.length > 1)
      notes.say(
        `${plural(contexts.length - 1, 'history replacement')} (compression or output masking): each starts a new context`,
      );
    if (rewound > 0)
      notes.add('rewound', (n) => `${plural(n, 'reply', 'replies')} taken back (/rewind) not replayed`, rewound);
    return [
      {
        format: 'gemini-cli',
        ...modelOf(records),
        messages: b.messages,
        calls: b.calls,
        ...(cliLines > 0 ? { ignoredRecords: cliLines } : {}),
      },
    ];
  },
};
