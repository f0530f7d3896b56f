// Our messages as the turns VS Code's language models (`vscode.lm`) take, as plain data: the extension
// only wraps each part in its vscode class. VS Code has no system role: the system prompt goes first as a
// user message. Consecutive messages of one side are merged, so tool results that answer one action
// travel together, right after it, as the providers behind `vscode.lm` require.
import type { Message } from '../messages';
import { EMPTY_OUTPUT, visible } from '../visible-text';
import { wireToolName } from './wire-tool-name';

export interface TextPart {
  kind: 'text';
  text: string;
}
export interface ToolCallPart {
  kind: 'tool-call';
  id: string;
  name: string;
  input: object;
}
export interface ToolResultPart {
  kind: 'tool-result';
  id: string;
  text: string;
}

export type LanguageModelTurn =
  { role: 'user'; parts: (TextPart | ToolResultPart)[] } | { role: 'assistant'; parts: (TextPart | ToolCallPart)[] };

export function toLanguageModelTurns(messages: readonly Message[]): LanguageModelTurn[] {
  const out: LanguageModelTurn[] = [];
  const add = (turn: LanguageModelTurn): void => {
    if (turn.parts.length === 0) return;
    const last = out[out.length - 1];
    if (last?.role === 'user' && turn.role === 'user') last.parts.push(...turn.parts);
    else if (last?.role === 'assistant' && turn.role === 'assistant') last.parts.push(...turn.parts);
    else out.push(turn);
  };
  for (const m of messages) {
    // Blank text is left out and an empty tool result says so (see visible-text.ts).
    const text: TextPart[] = visible(m.content) ? [{ kind: 'text', text: m.content }] : [];
    if (m.role === 'assistant') {
      const calls = (m.toolCalls ?? []).map((c): ToolCallPart => ({
        kind: 'tool-call',
        id: c.id,
        name: wireToolName(c.name),
        input: parseArguments(c.arguments),
      }));
      add({ role: 'assistant', parts: [...text, ...calls] });
    } else if (m.role === 'tool' && m.toolCallId) {
      const result = visible(m.content) ? m.content : EMPTY_OUTPUT;
      add({ role: 'user', parts: [{ kind: 'tool-result', id: m.toolCallId, text: result }] });
    } else add({ role: 'user', parts: text });
  }
  return out;
}

/** Tool calls carry an object; a malformed one (the retry filter drops it later) becomes `{}`. */
function parseArguments(text: string): object {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
