// Ripgrep over the store: locate a binary (VS Code's own first), stream matches, grep a store scope.
export { locateRipgrep, NO_RIPGREP_MESSAGE, vscodeRipgrepCandidates } from './locate';
export type { LocateOptions, RipgrepLocation, RipgrepSource } from './locate';
export { ripgrep, ripgrepArgs, ripgrepBatches, ripgrepPrintedLines, ripgrepToFd, RipgrepError } from './ripgrep';
export type { CaseMode, GrepMatch, PrintedLines, RipgrepOptions } from './ripgrep';
export {
  GREP_SCOPES,
  grepStore,
  grepStoreBatches,
  grepStorePrintedLines,
  grepStoreToFd,
  scopeFolders,
} from './store-grep';
export type { GrepScope, StoreGrepOptions } from './store-grep';
