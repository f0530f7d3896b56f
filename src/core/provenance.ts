// Who wrote each message, and the one rule for messages that do not say (old history files, other
// callers, imported logs). Strategies, resume and the importers all go through `inferOrigins`, so a
// message is a person's instruction in every one of them or in none.
import type { Message, Origin } from './messages';

/**
 * How a log delivers what the agent observed.
 * - `chat`: tool results are `tool` messages, so every `user` message is a person's (OpenAI chat files,
 *   Claude Code, Context Desk's own history).
 * - `user-observations`: observations arrive as `user` messages (mini-swe-agent, SWE-agent's text
 *   formats): the `user` messages before the first assistant message are the task (a person's); later ones
 *   are observations.
 * - `auto`: `chat` when the messages contain a `tool` message, `user-observations` otherwise. Without a
 *   tool message nothing tells a follow-up from an observation, and this keeps how such logs were read before.
 */
export type ObservationConvention = 'chat' | 'user-observations' | 'auto';

/**
 * The origin of every message: its own `origin` when set; otherwise `agent` for assistant messages,
 * `environment` for tool results, and for `user` messages the rule of `convention`. A `system` message
 * without an origin stays undefined: it is the host's standing instructions, which no strategy masks or
 * drops (see `mustKeepVerbatim`).
 */
export function inferOrigins(
  messages: readonly Message[],
  convention: ObservationConvention = 'auto',
): (Origin | undefined)[] {
  const chat = convention === 'chat' || (convention === 'auto' && messages.some((m) => m.role === 'tool'));
  let acted = false;
  return messages.map((m) => {
    const inferred = m.origin ?? byRole(m, chat, acted);
    if (m.role === 'assistant') acted = true;
    return inferred;
  });
}

function byRole(m: Message, chat: boolean, acted: boolean): Origin | undefined {
  switch (m.role) {
    case 'assistant':
      return 'agent';
    case 'tool':
      return 'environment';
    case 'user':
      return chat || !acted ? 'person' : 'environment';
    case 'system':
      return undefined;
  }
}

/** The messages with `origin` filled in where it was missing (new objects only for those). */
export function withOrigins(messages: readonly Message[], convention: ObservationConvention = 'auto'): Message[] {
  const origins = inferOrigins(messages, convention);
  return messages.map((m, i) => {
    const origin = origins[i];
    return m.origin !== undefined || origin === undefined ? m : { ...m, origin };
  });
}

/**
 * A person's messages and system messages: no strategy masks, summarises away or drops them (the
 * context window may force older instructions into a summary, which then says so).
 */
export function mustKeepVerbatim(m: Message, origin: Origin | undefined): boolean {
  return origin === 'person' || m.role === 'system';
}
