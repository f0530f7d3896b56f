// Runs one action's tool calls in order. Every call gets a tool message (the provider protocols require
// an answer per call), including invalid ones (the error text) and those cut short by Stop. Every
// output, a cancelled one too, goes through the long-output port (sanitized, long ones stored).
import type { Message, ToolCall } from '../messages';
import type { Clock } from '../ports';
import type { AgentEvent, ToolCallStatus } from './events';
import type { LongOutputPort } from './long-output';
import { CUT_CALL_TEXT } from './stop-reason';
import { MISSING_RESULT } from './resume';
import { storeStreamKeeping, unstoredText } from './unstored-output';
import type { CheckedCall, StoreOutputOptions, ToolCallLabel, ToolOutput, ToolRegistry } from './tool-registry';

export interface RunToolsContext {
  tools: ToolRegistry;
  longOutput: LongOutputPort;
  session: string;
  turn: number;
  signal: AbortSignal;
  clock: Clock;
  emit(event: AgentEvent): void;
  /** The call the output limit cut mid-way (stop-reason.ts): answered with a note, never run. */
  cutCallId?: string;
  /** That note; default `CUT_CALL_TEXT` (the model's output limit). */
  cutCallText?: string;
  /**
   * Told each result as soon as its tool is done, before the next call of the action runs: the session
   * keeps (and its history file writes) an edit's result while a later command still runs.
   */
  onResult?(message: Message): void;
}

export const CANCELLED_TEXT = 'Cancelled: the user stopped the agent before this tool finished.';
const PREVIEW_CHARS = 2_000;

async function runOne(
  call: ToolCall,
  checked: CheckedCall,
  ctx: RunToolsContext,
): Promise<{ out: ToolOutput; status: ToolCallStatus; unstored?: boolean }> {
  if (ctx.signal.aborted) return { out: { ok: false, text: CANCELLED_TEXT }, status: 'cancelled' };
  if (!checked.ok)
    return {
      out: { ok: false, text: call.id === ctx.cutCallId ? (ctx.cutCallText ?? CUT_CALL_TEXT) : checked.message },
      status: 'invalid',
    };
  try {
    const meta = { session: ctx.session, turn: ctx.turn, tool: call.name };
    const stream = ctx.longOutput.storeStream?.bind(ctx.longOutput);
    let unstored = false; // the streamed output's file failed: its kept head and tail are not stored again
    const out = await checked.tool.run(checked.args, {
      signal: ctx.signal,
      session: ctx.session,
      turn: ctx.turn,
      callId: call.id,
      ...(stream
        ? {
            storeOutput: (chunks: AsyncIterable<string | Uint8Array>, options?: StoreOutputOptions) =>
              storeStreamKeeping(stream, chunks, { ...meta, ...options }, () => (unstored = true)),
          }
        : {}),
    });
    const flag = unstored ? { unstored } : {};
    if (ctx.signal.aborted)
      return { out: { ...out, text: `${out.text}\n${CANCELLED_TEXT}` }, status: 'cancelled', ...flag };
    return { out, status: out.ok ? 'ok' : 'error', ...flag };
  } catch (e) {
    if (ctx.signal.aborted) return { out: { ok: false, text: CANCELLED_TEXT }, status: 'cancelled' };
    return {
      out: { ok: false, text: `The tool ${call.name} failed: ${e instanceof Error ? e.message : String(e)}` },
      status: 'error',
    };
  }
}

/** The tool's label for a valid call; a failing `describe` only costs the label. */
async function labelOf(checked: CheckedCall): Promise<ToolCallLabel | undefined> {
  if (!checked.ok || !checked.tool.describe) return undefined;
  try {
    return await checked.tool.describe(checked.args);
  } catch {
    return undefined;
  }
}

export async function runToolCalls(calls: readonly ToolCall[], ctx: RunToolsContext): Promise<Message[]> {
  const results: Message[] = [];
  for (const call of calls) {
    const started = ctx.clock.now();
    const checked = ctx.tools.check(call);
    const label = await labelOf(checked);
    const shown = { callId: call.id, tool: call.name, arguments: call.arguments, ...(label ? { label } : {}) };
    ctx.emit({ type: 'tool-call-started', turn: ctx.turn, ...shown });
    const { out, status, unstored: streamFailed } = await runOne(call, checked, ctx);
    let text = out.text;
    let storedAt = out.storedAt;
    let unstored = streamFailed === true;
    if (storedAt === undefined && !unstored) {
      try {
        // Kept even when short: a later mask of it names this file (reversible masking).
        const meta = { session: ctx.session, turn: ctx.turn, tool: call.name, keep: true };
        const stored = await ctx.longOutput.store(out.text, meta);
        text = stored.text;
        storedAt = stored.storedAt;
      } catch (e) {
        // Head and tail stay in the history rather than being lost; capped, so the window is not flooded.
        text = unstoredText(out.text, e);
        unstored = true; // no file to name: strategies keep it verbatim (mask-turns.ts)
      }
    }
    const message: Message = { role: 'tool', content: text, toolCallId: call.id, name: call.name };
    if (storedAt !== undefined) message.storedAt = storedAt;
    if (unstored) message.unstored = true;
    results.push(message);
    ctx.onResult?.(message);
    ctx.emit({
      type: 'tool-call-finished',
      turn: ctx.turn,
      ...shown,
      status,
      durationMs: ctx.clock.now() - started,
      preview: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text,
      ...(storedAt !== undefined ? { storedAt } : {}),
    });
  }
  return results;
}

/**
 * Results for the calls of the conversation's last action that have none (a failure the loop did not
 * expect came between them): providers refuse a call without its result, in every later request.
 */
export function answerOpenCalls(messages: readonly Message[]): Message[] {
  const at = messages.findLastIndex((m) => m.role === 'assistant');
  const answered = new Set(messages.slice(at + 1).map((m) => m.toolCallId));
  return (at < 0 ? [] : (messages[at]!.toolCalls ?? []))
    .filter((c) => !answered.has(c.id))
    .map((c) => ({ role: 'tool', origin: 'environment', toolCallId: c.id, name: c.name, content: MISSING_RESULT }));
}
