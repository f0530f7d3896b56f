// The long-output port: every tool result passes through it before the model sees it. The real one
// (src/core/store) spills outputs above a threshold into `tool-outputs/` and returns a preview plus the
// file; the pass-through keeps tests and store-less hosts simple.

export interface LongOutputMeta {
  session: string;
  turn: number;
  tool: string;
  /** The output is a secret as a whole (a command that prints one): every line is redacted. */
  secretOutput?: boolean;
  /**
   * Write a file even for a short output (the text then stays whole, `storedAt` names the file): masking
   * may later replace any output, and its placeholder must name where the full text is.
   */
  keep?: boolean;
}

export interface LongOutputPort {
  store(output: string, meta: LongOutputMeta): Promise<{ text: string; storedAt?: string }>;
  /**
   * The same for output that arrives in chunks (a running command): it is sanitized and written as it
   * comes, so memory holds only the preview, whatever the size. Optional: hosts fall back to `store`.
   */
  storeStream?(
    chunks: AsyncIterable<string | Uint8Array>,
    meta: LongOutputMeta,
  ): Promise<{ text: string; storedAt?: string }>;
}

export const passThroughLongOutput: LongOutputPort = {
  store: (output) => Promise.resolve({ text: output }),
};
