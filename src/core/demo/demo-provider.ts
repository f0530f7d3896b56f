// The demo model: speaks the ChatProvider port directly (no network, no key) and plays the tour of
// demo-script.ts, streaming its text a few words at a time so the panel can be watched working.
import type { ChatProvider, ChatRequest, ChatStreamEvent } from '../agent/provider';
import { ProviderError } from '../agent/errors';
import { abortableSleep, type AbortableSleep } from '../agent/sleep';
import { nextDemoReply } from './demo-script';

export const DEMO_PROVIDER_ID = 'demo';
/** The model name the demo reports (the panel labels it as the demo). */
export const DEMO_MODEL = 'scripted-tour';

export interface DemoProviderOptions {
  /** Pause between streamed chunks; 0 streams at once (tests). */
  chunkDelayMs?: number;
  sleep?: AbortableSleep;
}

export class DemoProvider implements ChatProvider {
  readonly id = DEMO_PROVIDER_ID;
  private readonly delay: number;
  private readonly sleep: AbortableSleep;

  constructor(o: DemoProviderOptions = {}) {
    this.delay = o.chunkDelayMs ?? 12;
    this.sleep = o.sleep ?? abortableSleep;
  }

  async *chat(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    const stopped = (): ProviderError => new ProviderError({ kind: 'aborted', message: 'Stopped' });
    if (request.signal.aborted) throw stopped();
    const reply = nextDemoReply(request.messages);
    for (const chunk of chunks(reply.text)) {
      if (this.delay > 0) await this.sleep(this.delay, request.signal).catch(() => undefined);
      if (request.signal.aborted) throw stopped();
      yield { type: 'text-delta', text: chunk };
    }
    for (const call of reply.toolCalls) yield { type: 'tool-call', call };
    yield { type: 'finish', reason: reply.toolCalls.length > 0 ? 'tool_calls' : 'stop' };
  }
}

/** Two or three words at a time, whitespace kept, so the streamed text equals the reply. */
function chunks(text: string): string[] {
  return text.match(/(?:\S+\s*){1,3}|\s+/g) ?? [];
}
