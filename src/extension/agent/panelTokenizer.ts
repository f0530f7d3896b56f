// One tokenizer per conversation of a panel: a new one only when the setting names another encoding,
// so a strategy or model change does not load the tables again. Tokenizers of the same encoding share
// its tables (core/tokens/encodings.ts), so a new conversation does not load them again either.
import { createTokenizer } from '../../core/tokens';

type Tokenizer = ReturnType<typeof createTokenizer>;

export class PanelTokenizer {
  private current: Tokenizer | undefined;

  /** The tokenizer for `name`, the one in use when it already is. */
  for(name: 'o200k' | 'cl100k' | 'chars4'): Tokenizer {
    if (this.current?.name !== name) {
      this.current?.release();
      this.current = createTokenizer(name);
    }
    return this.current;
  }

  /**
   * Hands the current tokenizer to the conversation that is closing and starts afresh. Its run and
   * history may still count with it after New Chat (the history is written behind the run), so its
   * owner releases it once they are done: released at once, a late count loaded the tables again and
   * held them for the idle time (5 minutes) with no chat open.
   */
  retire(): Tokenizer | undefined {
    const t = this.current;
    this.current = undefined;
    return t;
  }

  dispose(): void {
    this.current?.dispose();
  }
}
