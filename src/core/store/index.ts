// The file store: the agent's memory as workspace files. Typical use by the extension glue:
//
//   const store = await ContextStore.open({ root: <workspace>/.context-desk, workspaceRoot });
//   const outputs = new ToolOutputStore(store, tokenizer);          // also the agent's LongOutputPort
//   const log = await TerminalLogWriter.open(store, { terminalName, terminalId });
//   const exec = await log.begin({ command, cwd });  exec.consume(execution.read());  exec.end({ exitCode });
//   const history = await HistoryWriter.open(store, sessionId, { tokenizer });  history.append(message, extra);
//   await store.resolveReference(refFromAPlaceholderOrLink);       // StoreReferenceError when refused
//   await listStoredOutputs(store, sessionId);                      // "Open Masked Observation"
export { ContextStore, DEFAULT_CAPS, DEFAULT_STORE_DIR, STORE_FOLDERS } from './context-store';
export type { ContextStoreOptions, ResolvedReference, StoreFolder } from './context-store';
export {
  StoreBoundaryError,
  StoreFolderError,
  StoreReferenceError,
  StoreSymlinkError,
  StoreWriteError,
} from './errors';
export type { ReferenceProblem } from './errors';
export { safeName } from './names';
export { parseJsonl, readJsonl } from './durable';
export type { JsonlReadResult } from './durable';
export {
  StoreWriter,
  RedactedText,
  redactForStore,
  redactJson,
  sanitizeForStore,
  sanitizingStream,
} from './store-writer';
export type { StoreAppendFile, StoreStreamFile, StoreWriterOptions } from './store-writer';
export { STORE_MARKER } from './ownership';
export { cleanLeftovers, isStoreFile, rotateFolder } from './rotation';
export type { RotationResult } from './rotation';
export { ToolOutputStore, fullOutputLine } from './tool-outputs';
export type { ToolOutputInput, ToolOutputOptions, ToolOutputResult } from './tool-outputs';
export { listStoredOutputs } from './output-index';
export type { StoredOutputEntry } from './output-index';
export { ExecutionCapture, MARKER, TerminalLogWriter } from './terminal-log';
export type {
  ExecutionResult,
  ExecutionStart,
  ExecutionSummary,
  FinishedExecution,
  TerminalLogOptions,
} from './terminal-log';
export { terminalIndexPath } from './terminal-log-format';
export { parseTerminalLog, readTerminalLog, recentExecutions } from './terminal-log-reader';
export type { LoggedExecution, ParsedTerminalLog } from './terminal-log-reader';
export { HistoryWriter, historyPointer, listSessions, loadSession, renderMarkdown, transcriptFile } from './history';
export { isCallLine, isMessageRecord, isSetAsideLine, isStateLine } from './history';
export type {
  HistoryAppendExtra,
  HistoryCallLine,
  HistoryLine,
  HistoryRecord,
  MaskedInfo,
  SessionEntry,
} from './history';
export { SanitizingStream, sanitizeText } from './sanitize/pipeline';
export type { AnsiMode, SanitizeOptions, SanitizeStats } from './sanitize/pipeline';
export { redactSecrets, redactSecretsSync, setCustomPatterns } from './sanitize/secrets';
export type { RedactionCounts, RedactionResult } from './sanitize/secrets';
