export * from './tokenizer';
export { CountCache } from './cache';
export { setTiktokenWasmPath } from './wasm';
export { loadedEncodings, type EncodingName } from './encodings';
export type { IdleScheduler } from './idle';
export { countsExactly, openAiEncodingOf } from './model-family';
