// Claude Code's attachment records: what each kind sends the model (as a user message), and whose it is.
import type { TrajectoryBuilder } from '../builder';
import { isObject, type Json, type JsonObject } from '../json';
import { plural, type Notes } from '../notes';

/** Text of an attachment's prompt: a string, or the text blocks of a block list. */
function promptText(v: Json | undefined): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return '';
  return v
    .filter(isObject)
    .map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** The text an attachment of a content-bearing kind holds; undefined for the other kinds. */
function attachmentContent(a: JsonObject): string | undefined {
  const inner = isObject(a.content) ? a.content : undefined;
  switch (a.type) {
    case 'nested_memory': // a CLAUDE.md found on the way (content, or {path, content})
      return typeof a.content === 'string' ? a.content : typeof inner?.content === 'string' ? inner.content : '';
    case 'edited_text_file': // the changed lines of a file edited behind the agent's back
      return typeof a.snippet === 'string' ? a.snippet : '';
    case 'file': {
      // an @-mentioned file, sent as a read of it
      const file = inner && isObject(inner.file) ? inner.file : undefined;
      return typeof file?.content === 'string' ? file.content : '';
    }
    case 'directory': // an @-mentioned folder, sent as its listing
    case 'selected_lines_in_ide':
      return typeof a.content === 'string' ? a.content : '';
    case 'hook_additional_context':
      return Array.isArray(a.content) ? a.content.filter((t) => typeof t === 'string').join('\n') : '';
    default:
      return undefined;
  }
}

/**
 * Claude Code sends attachments to the model as user messages (system reminders). A message the person
 * typed while the agent worked (`queued_command`, delivered mid-turn) is the person's; the kinds that
 * carry files, edits, memory or hook context are counted by that content (without the reminder's own
 * wording) as the environment's; the other kinds are said, not counted.
 */
export function readAttachment(b: TrajectoryBuilder, a: JsonObject, notes: Notes): void {
  if (a.type === 'queued_command') {
    const text = promptText(a.prompt);
    if (text === '') return;
    const kind = isObject(a.origin) ? a.origin.kind : undefined;
    const person = a.commandMode !== 'task-notification' && (kind === undefined || kind === 'human');
    b.push({ role: 'user', content: text, origin: person ? 'person' : 'environment' });
    return;
  }
  const content = attachmentContent(a);
  if (content !== undefined) {
    if (content === '') return;
    b.push({ role: 'user', content, origin: 'environment' });
    notes.add(
      'attachment:counted',
      (n) =>
        `${plural(n, 'attachment')} (files, edits, memory) counted by content, without Claude Code's reminder wording`,
    );
    return;
  }
  const kind = typeof a.type === 'string' ? a.type : 'unknown';
  notes.add(
    `attachment:${kind}`,
    (n) =>
      `${plural(n, 'attachment')} of kind ${JSON.stringify(kind)} not counted (Claude Code sends some kinds as system reminders: raw counts are a lower bound)`,
  );
}
