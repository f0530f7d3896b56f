// The composer's unsent text. The webview's own state (getState/setState) is written by VS Code to the
// workspace storage on disk as it is, so a key pasted into the composer would land there unredacted.
// The host keeps the draft instead: as typed in memory (hiding or moving the view keeps it), and
// redacted in workspaceState so that a reload brings back what is safe to keep.
import type * as vscode from 'vscode';

const KEY = 'contextDesk.composerDraft';
/** A longer draft is kept in memory only (redacting it on every pause in typing would cost too much). */
const MAX_PERSISTED = 64 * 1024;
const PERSIST_AFTER_MS = 500;

export class DraftKeeper implements vscode.Disposable {
  private text: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly state: vscode.Memento,
    /** Redacts secrets (the rule engine); throws if it cannot, and then nothing is written. */
    private readonly redact: (text: string) => string,
  ) {}

  /** The draft to show: the one typed in this window, else the redacted one kept across a reload. */
  get(): string {
    return this.text ?? this.state.get<string>(KEY, '');
  }

  set(text: string): void {
    this.text = text;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.persist(), PERSIST_AFTER_MS);
  }

  /**
   * A message that was never sent (the window closed while it waited for a stopped run) goes back in the
   * box, before anything typed since, and is written at once: the window is closing.
   */
  keepUnsent(text: string): Promise<void> {
    const typed = this.get();
    this.text = typed.trim() === '' ? text : `${text}\n\n${typed}`;
    return this.persist();
  }

  /** Writes the redacted draft now (also on dispose, so a draft typed just before a reload is kept). */
  async persist(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.text === undefined) return;
    let safe: string | undefined;
    try {
      safe = this.text === '' || this.text.length > MAX_PERSISTED ? undefined : this.redact(this.text);
    } catch {
      safe = undefined;
    }
    await this.state.update(KEY, safe);
  }

  dispose(): void {
    if (this.timer !== undefined) void this.persist();
  }
}
