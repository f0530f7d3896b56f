// The composer's unsent text. The webview's own state (getState/setState) is written by VS Code to the
// workspace storage on disk as it is, so a key pasted into the composer would land there unredacted.
// The host keeps the draft instead: as typed in memory (hiding or moving the view keeps it), and
// redacted in workspaceState so that a reload brings back what is safe to keep.
// It is written as it changes: once the window starts closing VS Code cancels every storage write
// (deactivate and dispose run after the extension host is cut off, microsoft/vscode#144118), so a
// write left for a pause in typing, or for dispose, lost what was typed last.
import type * as vscode from 'vscode';
import type { ChatPatch, ChatSnapshot } from '../../protocol/chat';

const KEY = 'contextDesk.composerDraft';
/** A longer draft is kept in memory only (redacting it on every keystroke would cost too much). */
const MAX_PERSISTED = 64 * 1024;

export class DraftKeeper {
  private text: string | undefined;
  /** A message sent while the run stops, waiting to go: stored before the draft until it has gone. */
  private waiting: string | undefined;

  constructor(
    private readonly state: vscode.Memento,
    /** Redacts secrets (the rule engine); throws if it cannot, and then nothing is written. */
    private readonly redact: (text: string) => string,
  ) {}

  /** The draft to show: the one typed in this window, else the redacted one kept across a reload. */
  get(): string {
    return this.text ?? this.state.get<string>(KEY, '');
  }

  /** The draft as VS Code's workspace storage holds it (redacted): what the next window gets. */
  stored(): string | undefined {
    return this.state.get<string>(KEY);
  }

  /** The person typed: kept now (the memento sends it to VS Code at once); resolves once VS Code has it. */
  set(text: string): Promise<void> {
    this.text = text;
    return this.persist();
  }

  /**
   * A message that was never sent (the window closed while it waited for a stopped run) goes back in the
   * box, before anything typed since.
   */
  keepUnsent(text: string): Promise<void> {
    this.waiting = undefined;
    return this.set(joined(text, this.get()));
  }

  /**
   * The message waiting for a stopped run (undefined once it has gone, or stayed behind at New Chat). It
   * is stored with the draft now: when the window closes, `keepUnsent` comes too late to be written.
   */
  keepWaiting(text: string | undefined): Promise<void> {
    this.text ??= this.get();
    this.waiting = text;
    return this.persist();
  }

  /**
   * A message marked not sent goes back in an empty box, as the panel does when it is shown; hidden,
   * the panel never sees the mark, and the text would be gone from the box it opens with.
   */
  takeBack(text: string): Promise<void> {
    return this.get().trim() === '' ? this.set(text) : Promise.resolve();
  }

  private async persist(): Promise<void> {
    if (this.text === undefined) return;
    const whole = this.waiting === undefined ? this.text : joined(this.waiting, this.text);
    let safe: string | undefined;
    try {
      safe = whole === '' || whole.length > MAX_PERSISTED ? undefined : this.redact(whole);
    } catch {
      safe = undefined;
    }
    await this.state.update(KEY, safe);
  }
}

/** A message put back before what the box holds. */
function joined(message: string, typed: string): string {
  return typed.trim() === '' ? message : `${message}\n\n${typed}`;
}

/** The text of the last message `patches` mark as not sent (the panel takes back the last one too). */
export function notSentText(patches: readonly ChatPatch[], chat: ChatSnapshot): string | undefined {
  const id = patches.findLast((p): p is Extract<ChatPatch, { op: 'notSent' }> => p.op === 'notSent')?.id;
  if (id === undefined) return undefined;
  const item = chat.items.find((i) => i.id === id);
  return item?.kind === 'user' ? item.text : undefined;
}
