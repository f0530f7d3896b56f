// Anthropic Messages content: `user` / `assistant` messages whose content is a string or a list of
// blocks (`text`, `tool_use` with its `input`, `tool_result`, `thinking`, `image`, ...). Read for Cline
// and Roo Code task histories (`api_conversation_history.json`, a bare list) and for Messages request
// bodies (`{model, system, messages, tools}`). Tool results become `tool` messages (environment);
// `thinking` blocks are not counted, though Claude keeps them in the prompt within a tool-use loop (and
// Opus 4.5 and later in every later turn): what the API counts for them is not in the log, so the note
// says raw counts are a lower bound; anything else is noted.
import { firstModel, modelName } from '../model-name';
import type { Message } from '../../messages';
import { TrajectoryBuilder } from '../builder';
import { contentText, type MediaTally } from '../content';
import { argumentsText, isObject, type Json, type JsonObject } from '../json';
import { plural, type Notes, noteUnknownRole } from '../notes';
import type { Importer } from '../importer';

const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'server_tool_use']);

/** True when some message carries a block only Anthropic's API has (tool_use, tool_result, thinking). */
export function hasAnthropicBlocks(list: Json[]): boolean {
  return list.some(
    (m) =>
      isObject(m) &&
      Array.isArray(m.content) &&
      m.content.some(
        (b) =>
          isObject(b) &&
          typeof b.type === 'string' &&
          (ANTHROPIC_BLOCKS.has(b.type) || (b.type === 'image' && isObject(b.source))),
      ),
  );
}

/**
 * Text a tool or the harness put into a user message rather than a person: Cline's and Roo's
 * `<environment_details>`, their text-mode tool results (`[read_file for 'x'] Result:`), error notes.
 */
function isEnvironmentText(text: string): boolean {
  const t = text.trimStart();
  return (
    /^<environment_details>/.test(t) || /^\[[^\]\n]{1,200}\] Result:/.test(t) || /^\[(ERROR|TASK RESUMPTION)\]/.test(t)
  );
}

function blockText(b: JsonObject, where: string, notes: Notes, tally?: MediaTally): string {
  return contentText([b], where, notes, tally);
}

/** Adds counted image tokens to a message (they are sent with it, outside its text). */
function withMedia(m: Message, tally: MediaTally | undefined): Message {
  if (tally && tally.tokens > 0) m.mediaTokens = (m.mediaTokens ?? 0) + tally.tokens;
  return m;
}

/** One assistant message from its blocks. */
export function assistantMessage(content: Json | undefined, where: string, notes: Notes): Message {
  const m: Message = { role: 'assistant', content: '', origin: 'agent' };
  const text: string[] = [];
  const blocks =
    typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  blocks.forEach((b, j) => {
    if (!isObject(b)) return;
    if (b.type === 'text' && typeof b.text === 'string') text.push(b.text);
    else if (b.type === 'tool_use' || b.type === 'server_tool_use') {
      const id = typeof b.id === 'string' ? b.id : `toolu_${j}`;
      (m.toolCalls ??= []).push({
        id,
        name: typeof b.name === 'string' ? b.name : 'tool',
        arguments: argumentsText(b.input ?? {}),
      });
    } else if (b.type === 'thinking' || b.type === 'redacted_thinking')
      notes.add(
        'thinking',
        (n) =>
          `${plural(n, 'thinking block')} not counted, though Claude keeps them in the prompt within a tool-use loop ` +
          "(Opus 4.5 and later in every later turn): raw counts are a lower bound, and so is output counted from a reply's text",
      );
    else text.push(blockText(b, `${where}: block ${j}`, notes));
  });
  m.content = text.join('\n');
  return m;
}

/**
 * The messages one user turn becomes: tool results, the person's text, harness text, in block order.
 * `countImages` only where the log was sent to Anthropic (Claude Code, an Anthropic request): Cline keeps
 * this shape for every provider, whose image tokens differ, so its images stay uncounted (said).
 */
export function userMessages(
  content: Json | undefined,
  where: string,
  notes: Notes,
  textOrigin?: 'person' | 'environment' | 'agent',
  countImages = false,
): Message[] {
  if (typeof content === 'string')
    return [{ role: 'user', content, origin: textOrigin ?? (isEnvironmentText(content) ? 'environment' : 'person') }];
  const out: Message[] = [];
  (Array.isArray(content) ? content : []).forEach((b, j) => {
    if (!isObject(b)) return;
    const tally: MediaTally | undefined = countImages ? { tokens: 0 } : undefined;
    if (b.type === 'tool_result') {
      const m: Message = {
        role: 'tool',
        content: contentText(b.content, `${where}: block ${j}`, notes, tally),
        origin: 'environment',
      };
      if (typeof b.tool_use_id === 'string') m.toolCallId = b.tool_use_id;
      out.push(withMedia(m, tally));
      return;
    }
    const text = blockText(b, `${where}: block ${j}`, notes, tally);
    const origin = textOrigin ?? (isEnvironmentText(text) ? 'environment' : 'person');
    const prev = out[out.length - 1];
    // Adjacent text blocks of the same origin stay one message, as they were one turn.
    if (prev && prev.role === 'user' && prev.origin === origin) {
      prev.content += `\n${text}`;
      withMedia(prev, tally);
    } else out.push(withMedia({ role: 'user', content: text, origin }, tally));
  });
  return out;
}

function systemText(v: Json | undefined, notes: Notes): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return contentText(v, 'system', notes);
  return undefined;
}

/**
 * Reads Anthropic messages into the builder; Roo's condensed messages are forgotten after their summary.
 * Returns where each message of the list starts among the builder's messages (one may become several).
 */
export function readMessages(list: Json[], b: TrajectoryBuilder, notes: Notes, countImages: boolean): number[] {
  const condensed = new Map<string, number[]>();
  const starts: number[] = [];
  list.forEach((v, i) => {
    const where = `message ${i}`;
    starts.push(b.messages.length);
    if (!isObject(v)) return;
    const from = b.messages.length;
    const summary = v.isSummary === true;
    if (v.role === 'assistant' && !summary) b.call(b.push(assistantMessage(v.content, where, notes)));
    else if (summary) {
      // A condensation summary (Roo writes it as assistant or user): the agent's memory, not a call.
      const m =
        v.role === 'assistant'
          ? assistantMessage(v.content, where, notes)
          : { role: 'user' as const, content: contentText(v.content, where, notes) };
      b.push({ ...m, origin: 'agent' });
    } else if (v.role === 'user')
      for (const m of userMessages(v.content, where, notes, undefined, countImages)) b.push(m);
    else {
      noteUnknownRole(notes, v.role);
      return;
    }
    // Roo Code keeps condensed messages, tagged with the summary (or truncation marker) that replaced them.
    const parent =
      typeof v.condenseParent === 'string'
        ? v.condenseParent
        : typeof v.truncationParent === 'string'
          ? v.truncationParent
          : undefined;
    if (parent !== undefined) {
      const ids = condensed.get(parent) ?? [];
      for (let k = from; k < b.messages.length; k++) ids.push(k);
      condensed.set(parent, ids);
    }
    const id =
      typeof v.condenseId === 'string'
        ? v.condenseId
        : v.isTruncationMarker === true && typeof v.truncationId === 'string'
          ? v.truncationId
          : undefined;
    if (id !== undefined) {
      for (const k of condensed.get(id) ?? []) b.forget(k);
      notes.add(
        'condensed',
        (n) => `condensed ${plural(n, 'time')}: later calls are replayed on the condensed history`,
      );
    }
  });
  return starts;
}

function isRequest(v: Json): v is JsonObject {
  return (
    isObject(v) &&
    Array.isArray(v.messages) &&
    ('model' in v || 'system' in v || 'max_tokens' in v) &&
    v.messages.every((m) => isObject(m) && (m.role === 'user' || m.role === 'assistant'))
  );
}

export const clineHistory: Importer = {
  name: 'Cline / Roo Code',
  detect: (input) =>
    input.kind === 'document' &&
    Array.isArray(input.value) &&
    input.value.length > 0 &&
    input.value.every((m) => isObject(m) && typeof m.role === 'string') &&
    hasAnthropicBlocks(input.value),
  read(input, notes) {
    const b = new TrajectoryBuilder();
    const list = input.kind === 'document' && Array.isArray(input.value) ? input.value : [];
    const starts = readMessages(list, b, notes, false);
    notes.say('the system prompt and tool definitions are not in the task history: raw counts are a lower bound');
    // Cline 3.x names the model on its messages (`modelInfo.modelId`); Roo Code and older Cline do not.
    const model = firstModel(list, (m) => (isObject(m) && isObject(m.modelInfo) ? m.modelInfo.modelId : undefined));
    return [
      { format: 'cline', ...(model ? { model } : {}), messages: b.messages, calls: b.calls, messageStarts: starts },
    ];
  },
};

export const anthropicRequest: Importer = {
  name: 'Anthropic Messages request',
  detect: (input) =>
    input.kind === 'document' &&
    isRequest(input.value) &&
    (hasAnthropicBlocks(input.value.messages as Json[]) ||
      typeof input.value.system === 'string' ||
      Array.isArray(input.value.system)),
  read(input, notes) {
    const doc = input.kind === 'document' && isObject(input.value) ? input.value : {};
    const b = new TrajectoryBuilder();
    const system = systemText(doc.system, notes);
    if (system !== undefined) b.push({ role: 'system', content: system, origin: 'agent' });
    readMessages(Array.isArray(doc.messages) ? doc.messages : [], b, notes, true);
    // The request itself was a call: it sent everything, and its reply is not in the file.
    if (b.last?.role !== 'assistant') b.rejectedCall();
    if (Array.isArray(doc.tools) && doc.tools.length > 0)
      notes.say(`${plural(doc.tools.length, 'tool definition')} not counted (replay counts messages)`);
    const model = modelName(doc.model);
    return [{ format: 'anthropic-request', ...(model ? { model } : {}), messages: b.messages, calls: b.calls }];
  },
};
