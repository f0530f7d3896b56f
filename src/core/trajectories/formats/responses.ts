// OpenAI Responses API items: `message` items (roles user, system, developer, assistant),
// `function_call` / `function_call_output` (and the custom and local-shell variants), `reasoning`.
// Consecutive output items are one model response: one assistant message, one call. Used for request
// and response JSON and item lists, for mini-swe-agent 2.x response objects, and by the Codex reader.
import { modelName } from '../model-name';
import type { Message, Role, ToolCall } from '../../messages';
import { TrajectoryBuilder } from '../builder';
import { contentText } from '../content';
import { argumentsText, isObject, type Json, type JsonObject } from '../json';
import { plural, type Notes } from '../notes';
import type { Importer } from '../importer';
import type { RecordedUsage } from '../types';
import { usageFrom } from '../usage';

// `tool_search_call` / `tool_search_output`: the model looks tools up; the output is the tools it loaded.
const CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call']);
const OUTPUTS = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'local_shell_call_output',
  'tool_search_output',
]);
const CALL_NAMES: Record<string, string> = { local_shell_call: 'local_shell', tool_search_call: 'tool_search' };
const INPUT_ROLES: Record<string, Role> = { user: 'user', system: 'system', developer: 'system' };

function toolCall(item: JsonObject, j: number): ToolCall {
  const id = typeof item.call_id === 'string' ? item.call_id : typeof item.id === 'string' ? item.id : `call_${j}`;
  const name = typeof item.name === 'string' ? item.name : (CALL_NAMES[String(item.type)] ?? 'tool');
  const args = item.arguments ?? item.input ?? item.action ?? null;
  return { id, name, arguments: argumentsText(args) };
}

/** An item's kind: 'output' (part of a model response), 'input' (sent to the model), or undefined. */
export function itemKind(item: JsonObject): 'output' | 'input' | 'reasoning' | undefined {
  const type = item.type ?? (typeof item.role === 'string' ? 'message' : undefined);
  if (type === 'message')
    return item.role === 'assistant'
      ? 'output'
      : typeof item.role === 'string' && item.role in INPUT_ROLES
        ? 'input'
        : undefined;
  if (type === 'reasoning') return 'reasoning';
  if (typeof type === 'string' && CALLS.has(type)) return 'output';
  if (typeof type === 'string' && OUTPUTS.has(type)) return 'input';
  return undefined;
}

/** Collects the output items of one response into an assistant message. */
export class ResponseAssembler {
  private text: string[] = [];
  private calls: ToolCall[] = [];
  private open = false;

  get pending(): boolean {
    return this.open;
  }

  add(item: JsonObject, where: string, notes: Notes): void {
    this.open = true;
    if (item.type === 'reasoning') {
      notes.add(
        'reasoning',
        (n) =>
          `${plural(n, 'reasoning item')} not counted (encrypted or summarised: the log does not give their size); ` +
          'an agent that sends them back (Codex does, within a tool-call loop) sent more: raw counts are a lower bound',
      );
    } else if (item.type === 'message' || item.type === undefined) {
      const t = contentText(item.content, where, notes);
      if (t !== '') this.text.push(t);
    } else {
      this.calls.push(toolCall(item, this.calls.length));
    }
  }

  take(): Message {
    const m: Message = { role: 'assistant', content: this.text.join('\n'), origin: 'agent' };
    if (this.calls.length > 0) m.toolCalls = this.calls;
    this.text = [];
    this.calls = [];
    this.open = false;
    return m;
  }
}

/** An input item as a message (user instruction, system prompt, tool output). */
export function inputMessage(
  item: JsonObject,
  where: string,
  notes: Notes,
  userOrigin: 'person' | 'environment' = 'person',
): Message {
  if (item.type !== undefined && item.type !== 'message') {
    // A tool search's output is the tool definitions it loaded: sent as they are written.
    const output =
      item.type === 'tool_search_output' ? argumentsText(item.tools) : contentText(item.output, where, notes);
    const m: Message = { role: 'tool', content: output, origin: 'environment' };
    if (typeof item.call_id === 'string') m.toolCallId = item.call_id;
    return m;
  }
  const role = INPUT_ROLES[item.role as string] ?? 'user';
  return { role, content: contentText(item.content, where, notes), origin: role === 'user' ? userOrigin : 'agent' };
}

/** A response object's `output` as one assistant message (mini-swe-agent 2.x keeps whole responses). */
export function responseOutputMessage(response: JsonObject, where: string, notes: Notes): Message {
  const a = new ResponseAssembler();
  const output = Array.isArray(response.output) ? response.output : [];
  output.forEach((item, j) => {
    if (isObject(item) && itemKind(item) !== 'input') a.add(item, `${where}: output ${j}`, notes);
  });
  return a.take();
}

/** Reads a list of items into the builder: each run of output items is one call. */
export function readItems(items: Json[], b: TrajectoryBuilder, notes: Notes, lastUsage?: RecordedUsage): void {
  const a = new ResponseAssembler();
  items.forEach((v, i) => {
    const where = `item ${i}`;
    if (!isObject(v)) return;
    const kind = itemKind(v);
    if (kind === 'output' || kind === 'reasoning') a.add(v, where, notes);
    else if (kind === 'input') {
      if (a.pending) b.call(b.push(a.take()));
      b.push(inputMessage(v, where, notes));
    } else
      notes.add(
        `item:${String(v.type)}`,
        (n) => `${plural(n, 'item')} of unknown type ${JSON.stringify(v.type ?? null)} dropped`,
      );
  });
  if (a.pending) b.call(b.push(a.take()), lastUsage);
}

/** A document's items: a list, or a request's `input` and a response's `output`, kept apart. */
interface Items {
  input: Json[];
  /** A response's own output items (possibly none); absent for a request or a bare list. */
  output?: Json[];
  usage?: RecordedUsage;
}

function itemsOf(v: Json): Items | undefined {
  const looksLikeItems = (list: Json[]) =>
    list.length > 0 &&
    list.every((x) => isObject(x) && (typeof x.type === 'string' || typeof x.role === 'string')) &&
    list.some(
      (x) =>
        isObject(x) &&
        typeof x.type === 'string' &&
        (CALLS.has(x.type) || OUTPUTS.has(x.type) || x.type === 'message' || x.type === 'reasoning'),
    );
  if (Array.isArray(v)) return looksLikeItems(v) ? { input: v } : undefined;
  if (!isObject(v)) return undefined;
  // A request ({input}), a response ({object: "response", output}), or both kept together. A string
  // `input` is one user message.
  const input: Json[] = Array.isArray(v.input)
    ? v.input
    : typeof v.input === 'string'
      ? [{ role: 'user', content: v.input }]
      : [];
  const output = v.object === 'response' && Array.isArray(v.output) ? v.output : undefined;
  if (!looksLikeItems([...input, ...(output ?? [])])) return undefined;
  const usage = usageFrom(v.usage);
  return { input, ...(output ? { output } : {}), ...(usage ? { usage } : {}) };
}

/**
 * The response's usage is its own call's: never the last reply of the history sent with it (an empty
 * `output` gave it to that reply), and its output is never joined to that reply.
 */
function readDocument(found: Items, b: TrajectoryBuilder, notes: Notes): void {
  if (found.output === undefined) {
    readItems(found.input, b, notes, found.usage);
    return;
  }
  readItems(found.input, b, notes);
  const before = b.calls.length;
  readItems(found.output, b, notes, found.usage);
  if (b.calls.length === before) {
    // Nothing replayable came back (an empty output, or only item types not replayed): the call happened.
    b.rejectedCall(found.usage);
    notes.say('the response has no output items replay reads: its call is replayed with no reply');
  }
}

export const openAiResponses: Importer = {
  name: 'OpenAI Responses API',
  detect: (input) => input.kind === 'document' && itemsOf(input.value) !== undefined,
  read(input, notes) {
    const found = input.kind === 'document' ? itemsOf(input.value) : undefined;
    const b = new TrajectoryBuilder();
    // A request's `instructions` is its system prompt: it goes first.
    if (input.kind === 'document' && isObject(input.value) && typeof input.value.instructions === 'string')
      b.push({ role: 'system', content: input.value.instructions, origin: 'agent' });
    if (found) readDocument(found, b, notes);
    const model = input.kind === 'document' && isObject(input.value) ? modelName(input.value.model) : undefined;
    return [{ format: 'openai-responses', ...(model ? { model } : {}), messages: b.messages, calls: b.calls }];
  },
};
