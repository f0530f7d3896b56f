// OpenAI chat messages: a request body or log (`{messages: [...]}`), a bare list, or JSON lines with one
// message per line. Tool output arrives as `tool` messages, so a `user` message is a person's.
import { modelName } from '../model-name';
import { TrajectoryBuilder } from '../builder';
import { isObject, type Json, type JsonObject } from '../json';
import { plural, type Notes, noteUnknownRole } from '../notes';
import type { Importer } from '../importer';
import { hasAnthropicBlocks } from './anthropic';
import { chatMessage, chatRole } from './chat';

const hasRole = (v: Json) => isObject(v) && typeof v.role === 'string';

function read(list: Json[], b: TrajectoryBuilder, notes: Notes, where: string): void {
  list.forEach((v, i) => {
    const m = v as JsonObject;
    const role = chatRole(m);
    if (role === undefined) {
      noteUnknownRole(notes, m.role);
      return;
    }
    const index = b.push(chatMessage(m, role, `${where} ${i}`, notes));
    if (role === 'assistant') b.call(index);
  });
}

function chatList(v: Json): Json[] | undefined {
  const list = Array.isArray(v) ? v : isObject(v) && Array.isArray(v.messages) ? v.messages : undefined;
  return list && list.length > 0 && list.every(hasRole) && !hasAnthropicBlocks(list) ? list : undefined;
}

export const openAiChat: Importer = {
  name: 'OpenAI chat',
  detect: (input) => input.kind === 'document' && chatList(input.value) !== undefined,
  read(input, notes) {
    const doc = input.kind === 'document' ? input.value : null;
    const b = new TrajectoryBuilder();
    read(chatList(doc) ?? [], b, notes, 'message');
    // A request body (it names its model) was itself a call, whose reply is not in the file.
    if (isObject(doc) && typeof doc.model === 'string' && b.last?.role !== 'assistant') b.rejectedCall();
    if (isObject(doc) && Array.isArray(doc.tools) && doc.tools.length > 0)
      notes.say(`${plural(doc.tools.length, 'tool definition')} not counted (replay counts messages)`);
    const model = isObject(doc) ? modelName(doc.model) : undefined;
    return [{ format: 'openai-chat', ...(model ? { model } : {}), messages: b.messages, calls: b.calls }];
  },
};

export const openAiJsonl: Importer = {
  name: 'OpenAI chat (JSON lines)',
  detect: (input) => input.kind === 'lines' && input.records.every(hasRole) && !hasAnthropicBlocks(input.records),
  read(input, notes) {
    const b = new TrajectoryBuilder();
    if (input.kind === 'lines') read(input.records, b, notes, 'line');
    return [{ format: 'openai-jsonl', messages: b.messages, calls: b.calls }];
  },
};
