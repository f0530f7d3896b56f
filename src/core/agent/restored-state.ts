// A saved session as the loop takes it up: checked, and led by the host's system prompt of now.
import type { Message } from '../messages';
import { parseSessionState, type SessionState } from './session-state';

/**
 * A continued conversation runs under the host's system prompt of now, never one read back with it: a
 * history file (one a repository ships, say) could carry instructions the panel never shows. `onIgnored`
 * hears why a saved strategy state was not taken up.
 */
export function restoredState(
  saved: SessionState,
  systemPrompt: string | undefined,
  onIgnored: (why: string) => void,
): SessionState {
  const restored = parseSessionState(saved, onIgnored);
  const count = restored.messages.length;
  restored.messages = underSystemPrompt(restored.messages, systemPrompt);
  // The strategy's state counts the messages as saved: with one more or less it would point amiss.
  if (restored.messages.length !== count) delete restored.strategyState;
  return restored;
}

/** The conversation without any system message of its own, led by `systemPrompt` (when there is one). */
function underSystemPrompt(messages: Message[], systemPrompt: string | undefined): Message[] {
  const rest = messages.filter((m) => m.role !== 'system');
  return systemPrompt ? [{ role: 'system', content: systemPrompt }, ...rest] : rest;
}
