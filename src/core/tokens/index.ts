export * from './tokenizer';
export { CountCache } from './cache';
export { setTiktokenWasmPath } from './wasm';
