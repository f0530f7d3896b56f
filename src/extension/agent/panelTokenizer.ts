// One tokenizer for every session of a panel: a new one only when the setting names another encoding,
// so a strategy or model change does not load the tables again.
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

  /** Lets the closed conversation's encoding and cached counts go (loaded again when next used). */
  release(): void {
    this.current?.release();
  }

  dispose(): void {
    this.current?.dispose();
  }
}
