// The long-output port: every tool result passes through it before the model sees it. The real one
// (src/core/store) spills outputs above a threshold into `tool-outputs/` and returns a preview plus the
// file; the pass-through keeps tests and store-less hosts simple.

export interface LongOutputMeta {
  session: string;
  turn: number;
  tool: string;
}

export interface LongOutputPort {
  store(output: string, meta: LongOutputMeta): Promise<{ text: string; storedAt?: string }>;
}

export const passThroughLongOutput: LongOutputPort = {
  store: (output) => Promise.resolve({ text: output }),
};
