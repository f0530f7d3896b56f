// Test helpers: a tiny deterministic tokenizer (one token per whitespace-separated word, plus a fixed
// per-message overhead) and generators of agent conversations for property tests.
import fc from 'fast-check';
import type { Message, Tokenizer, Trajectory } from '../../../src/core/messages';

export const MESSAGE_OVERHEAD = 3;

export function wordTokenizer(): Tokenizer {
  const count = (text: string): number => text.split(/\s+/).filter((w) => w.length > 0).length;
  return {
    name: 'chars4',
    exact: false,
    count,
    countMessage: (m: Message) =>
      MESSAGE_OVERHEAD +
      count(m.content) +
      (m.toolCalls ?? []).reduce((n, c) => n + 1 + count(c.name) + count(c.arguments), 0),
  };
}

export function words(n: number, tag = 'w'): string {
  return Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
}

export interface TurnSpec {
  action: number;
  observations: number[];
  /** Lines in each observation. */
  lines?: number;
  tool?: boolean;
}

/** A conversation: system + task, then turns of one action and its observations. */
export function conversation(turns: readonly TurnSpec[], taskWords = 20): Message[] {
  const messages: Message[] = [
    { role: 'system', content: `system ${words(10, 's')}` },
    { role: 'user', content: `task ${words(taskWords, 't')}` },
  ];
  turns.forEach((t, k) => {
    const id = `call${k}`;
    messages.push(
      t.tool
        ? {
            role: 'assistant',
            content: `think${k} ${words(t.action, 'a')}`,
            toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command: `ls ${k}` }) }],
          }
        : { role: 'assistant', content: `act${k} ${words(t.action, 'a')}` },
    );
    t.observations.forEach((n, j) => {
      const lines = Math.max(1, t.lines ?? 1);
      const body = Array.from(
        { length: lines },
        (_, l) => `obs${k}.${j}.${l} ${words(Math.max(0, Math.floor(n / lines) - 1), 'o')}`,
      ).join('\n');
      messages.push(
        // A user-role observation says so: in a history that also has tool messages, a bare `user` is a person's.
        t.tool
          ? { role: 'tool', content: body, toolCallId: id, name: 'bash' }
          : { role: 'user', content: body, origin: 'environment' },
      );
    });
  });
  return messages;
}

/** A conversation plus one final assistant message, so that replay makes a call for every turn. */
export function trajectoryOf(messages: Message[], id = 'fixture'): Trajectory {
  return {
    id,
    source: `${id}.json`,
    format: 'openai-chat',
    messages: [...messages, { role: 'assistant', content: 'done' }],
  };
}

export const turnSpec = (maxObs = 60): fc.Arbitrary<TurnSpec> =>
  fc.record({
    action: fc.integer({ min: 1, max: 30 }),
    observations: fc.array(fc.integer({ min: 1, max: maxObs }), { minLength: 0, maxLength: 2 }),
    lines: fc.integer({ min: 1, max: 5 }),
    tool: fc.boolean(),
  });

export const turnsArb = (min: number, max: number, maxObs = 60): fc.Arbitrary<TurnSpec[]> =>
  fc.array(turnSpec(maxObs), { minLength: min, maxLength: max });
