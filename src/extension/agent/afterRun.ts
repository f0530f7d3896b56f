// A message sent while the run is ending (the user pressed Stop, or the answer is already shown and only
// the bookkeeping is left) waits for that end instead of being refused: the user already did what a
// refusal would ask. One message waits at a time; the composer keeps any further text.

export interface EndingRun {
  /** The user stopped it; it ends once its tool or model call lets go (up to a few seconds). */
  stopped: boolean;
  /** Its status is no longer "running" (the answer is in; history writes remain). */
  answered: boolean;
}

export const STILL_WORKING = 'The agent is still working; stop it first.';
/** A past session is opening: a message sent now would go to the chat it replaces, its run stopped by it. */
export const OPENING = 'A past session is opening: send your message once it is open.';
export const WAITING_NOTICE = 'The agent is stopping: your message is sent as soon as it has.';
/** New Chat came while a message waited for the stopped run: it stays with the chat it was typed in. */
export const LEFT_UNSENT =
  'This message was typed in the chat you left, while the agent was stopping: it was not sent. Its text is back in the message box (unless you had typed there).';

export class AfterRun {
  private waiting: string | undefined;

  /** Takes `text` to send when the run ends, or says why not (the text stays in the composer). */
  offer(text: string, run: EndingRun): { accepted: boolean; reason?: string } {
    if (!run.stopped && !run.answered) return { accepted: false, reason: STILL_WORKING };
    if (this.waiting !== undefined)
      return {
        accepted: false,
        reason: 'The agent is stopping; the message you sent before goes first, once it has stopped.',
      };
    this.waiting = text;
    return { accepted: true };
  }

  /** The waiting message, once (the run has ended). */
  take(): string | undefined {
    const text = this.waiting;
    this.waiting = undefined;
    return text;
  }
}
