// Reads a trajectory from its text, recognising the format by content (the extension is only a hint
// for the id): a JSON document (mini-swe-agent, SWE-agent, OpenAI chat) or JSON lines (Claude Code
// session, OpenAI messages one per line).
import { basename } from 'node:path';
import type { Trajectory } from '../messages';
import { readClaudeCode, isClaudeCodeRecord } from './claude-code';
import { FormatError, TrajectoryError, fail } from './errors';
import { isObject, type Json } from './json';
import { isMiniSweAgent, readMiniSweAgent } from './mini-swe-agent';
import { openAiMessage, openAiMessages } from './openai';
import { isSweAgent, readSweAgent } from './swe-agent';

/** File name without the trajectory extensions: `django__django-1.traj.json` -> `django__django-1`. */
export function idFromFile(file: string): string {
  return basename(file).replace(/(\.(traj|history|jsonl|json|chat))+$/i, '');
}

function hasRole(v: unknown): boolean {
  return isObject(v) && typeof v.role === 'string';
}

function fromDocument(doc: Json, id: string): Omit<Trajectory, 'source'> {
  if (isMiniSweAgent(doc)) return readMiniSweAgent(doc, id);
  if (isSweAgent(doc)) return readSweAgent(doc, id);
  const list = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc.messages) ? doc.messages : undefined;
  if (list) {
    if (list.length === 0) fail('the message list is empty');
    if (!list.every(hasRole)) {
      if (list.some(isClaudeCodeRecord)) return readClaudeCode(list, id);
      fail('a message list whose entries are not all chat messages with a role');
    }
    return withCalls({ id, format: 'openai-chat', messages: openAiMessages(list) });
  }
  if (hasRole(doc)) return withCalls({ id, format: 'openai-jsonl', messages: [openAiMessage(doc, 'line 1')] });
  if (isClaudeCodeRecord(doc)) return readClaudeCode([doc], id);
  const keys = isObject(doc) ? Object.keys(doc).slice(0, 6).join(', ') : typeof doc;
  fail(`unrecognised trajectory format (top level: ${keys || 'empty object'})`);
}

function withCalls<T extends Omit<Trajectory, 'source'>>(t: T): T {
  if (!t.messages.some((m) => m.role === 'assistant')) fail('no assistant messages (no model calls)');
  return t;
}

function fromLines(text: string, id: string): Omit<Trajectory, 'source'> {
  const records: Json[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      records.push(JSON.parse(line) as Json);
    } catch (e) {
      fail(`line ${i + 1} is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
  });
  if (records.length === 0) fail('the file is empty');
  if (records.some(isClaudeCodeRecord)) return readClaudeCode(records, id);
  if (records.every(hasRole)) {
    return withCalls({
      id,
      format: 'openai-jsonl',
      messages: records.map((r, i) => openAiMessage(r, `line ${i + 1}`)),
    });
  }
  const bad = records.findIndex((r) => !hasRole(r));
  fail(`JSON lines that are neither Claude Code events nor chat messages (record ${bad + 1} has no role)`);
}

/** Parses one trajectory file's text. Throws a TrajectoryError naming `source` and the problem. */
export function parseTrajectory(text: string, source: string): Trajectory {
  const id = idFromFile(source);
  try {
    if (text.trim() === '') fail('the file is empty');
    let doc: Json | undefined;
    let jsonError: unknown;
    try {
      doc = JSON.parse(text) as Json;
    } catch (e) {
      jsonError = e;
    }
    let t: Omit<Trajectory, 'source'>;
    if (doc !== undefined) t = fromDocument(doc, id);
    else if (text.trimStart().startsWith('{') && text.includes('\n{')) t = fromLines(text, id);
    else fail(`not valid JSON (${jsonError instanceof Error ? jsonError.message : String(jsonError)})`);
    return { ...t, source };
  } catch (e) {
    if (e instanceof FormatError) throw new TrajectoryError(source, e.message, { cause: e });
    throw e;
  }
}
