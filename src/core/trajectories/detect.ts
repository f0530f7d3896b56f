// Recognises a log by its content (never by its name) and reads it with the matching importer. The
// order matters where shapes overlap: the specific formats come before the generic chat shapes.
import { fail } from './errors';
import type { ImportedRun, Importer } from './importer';
import { isObject } from './json';
import { Notes } from './notes';
import type { Input } from './read/source';
import { aider } from './formats/aider';
import { anthropicRequest, clineHistory } from './formats/anthropic';
import { claudeCode } from './formats/claude-code';
import { clineSdkSession, isCompactionState, isSessionManifest } from './formats/cline-sdk';
import { codex } from './formats/codex';
import { geminiCli } from './formats/gemini-cli';
import { contextDeskHistory } from './formats/context-desk';
import { miniSweAgent } from './formats/mini-swe-agent';
import { openAiChat, openAiJsonl } from './formats/openai-chat';
import { openHands } from './formats/openhands';
import { isSdkConversationState, isSdkEvent, openHandsSdk } from './formats/openhands-sdk';
import { qwenCode } from './formats/qwen-code';
import { openAiResponses } from './formats/responses';
import { sweAgent } from './formats/swe-agent';

export const IMPORTERS: readonly Importer[] = [
  miniSweAgent,
  sweAgent,
  openHands,
  openHandsSdk,
  contextDeskHistory,
  codex,
  geminiCli,
  // Before Claude Code: Qwen Code's records carry the same keys around a different message.
  qwenCode,
  claudeCode,
  clineHistory,
  clineSdkSession,
  anthropicRequest,
  openAiResponses,
  openAiChat,
  openAiJsonl,
  aider,
];

/** A single SDK event or a conversation's state: part of a conversation folder, read as a whole. */
function sdkPart(): never {
  return fail(
    'part of an OpenHands SDK (V1) conversation (one event, or its base_state.json): replay the ' +
      "conversation's folder, the one holding base_state.json and events/",
    'part of an OpenHands SDK conversation (replay its folder)',
  );
}

/** Why nothing matched, in words a user can act on; the group is what skipped files are counted by. */
function unrecognised(input: Input): never {
  if (input.kind === 'text') {
    const markdown = /^#{1,6} /m.test(input.text.slice(0, 65536));
    return fail(
      markdown
        ? 'Markdown without Aider\'s "# aider chat started at" headers'
        : 'plain text, not a log format replay reads',
      markdown ? 'not an agent log (Markdown without Aider headers)' : 'not an agent log (plain text)',
    );
  }
  if (input.kind === 'lines') {
    const types = new Set(input.records.slice(0, 50).map((r) => (isObject(r) ? r.type : undefined)));
    if (types.has('thread.started') || types.has('item.completed') || types.has('turn.completed'))
      return fail(
        'Codex `exec --json` events record usage per turn, not per model call; replay the rollout file ' +
          'of the same session (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl)',
        'Codex exec --json events (replay the rollout file)',
      );
    const first = input.records[0];
    const keys = isObject(first) ? Object.keys(first).slice(0, 6).join(', ') : typeof first;
    return fail(
      `JSON lines of a kind replay does not read (first record's keys: ${keys || 'none'})`,
      'not an agent log (JSON lines of another kind)',
    );
  }
  const v = input.value;
  if (isSdkEvent(v) || isSdkConversationState(v)) return sdkPart();
  const first = Array.isArray(v) ? v[0] : undefined;
  if (isObject(first) && typeof first.ts === 'number' && (first.type === 'say' || first.type === 'ask'))
    return fail(
      "Cline / Roo Code UI messages: read with the task's api_conversation_history.json beside them",
      'Cline / Roo Code UI messages (read with the task history beside them)',
    );
  const keys = isObject(v)
    ? Object.keys(v).slice(0, 6).join(', ')
    : Array.isArray(v)
      ? `a list of ${v.length}`
      : typeof v;
  return fail(
    `JSON of a kind replay does not read (top level: ${keys || 'empty object'})`,
    'not an agent log (JSON of another kind)',
  );
}

/** Reads the runs a file holds. Notes are the file's warnings, shared by its runs. */
export function importInput(input: Input): { runs: ImportedRun[]; notes: Notes; importer: Importer } {
  // Its `{messages}` would pass for an OpenAI chat: it is what a Cline session sent after compacting.
  if (input.kind === 'document' && isCompactionState(input.value))
    fail(
      "a Cline SDK session's compaction state: it is read with the <id>.messages.json beside it",
      'part of a Cline SDK session (read with its messages.json)',
    );
  if (input.kind === 'document' && isSessionManifest(input.value))
    fail(
      "a Cline SDK session's manifest: its messages are in the <id>.messages.json beside it",
      'part of a Cline SDK session (read with its messages.json)',
    );
  const importer = IMPORTERS.find((i) => i.detect(input));
  if (!importer) unrecognised(input);
  const notes = new Notes();
  const runs = importer.read(input, notes).filter((r) => r.calls.length > 0);
  if (runs.length === 0) fail(`${importer.name} log with no model calls`, 'no model calls');
  return { runs, notes, importer };
}
