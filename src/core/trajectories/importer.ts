// The contract every format module meets: a cheap look at the content says whether the file is this
// format; reading it gives one or more runs (a file may hold several: sub-agents, eval instances).
import type { Message } from '../messages';
import type { JsonObject } from './json';
import type { Notes } from './notes';
import type { Input } from './read/source';
import type { ModelCall, RecordedSummaries, TrajectoryFormat } from './types';

export interface ImportedRun {
  format: TrajectoryFormat;
  /** The model the log names for this run's calls (modelName()), when it names one. */
  model?: string;
  messages: Message[];
  calls: ModelCall[];
  /** Money recorded for the whole run, when the log keeps only a total. */
  recordedCost?: number;
  recordedSummaries?: RecordedSummaries;
  /** Records skipped by design without a warning (kinds a newer version writes). */
  ignoredRecords?: number;
  /** Warnings that belong to this run only (the file's notes are added to every run). */
  warnings?: string[];
  /** Where each message of the file starts among `messages` (Cline: to apply what it recorded beside it). */
  messageStarts?: number[];
  /**
   * Claude Code: the records of a compaction call whose prompt was a main conversation this file does
   * not hold. Its calls are not to be replayed as they are: the loader joins it with its session or drops it.
   */
  compactionOf?: JsonObject[];
  /**
   * Media parts of this run's own content counted as a marker (see `runMedia`). Absent: the importer does
   * not tell its runs' media apart, and every run of the file takes the file's count.
   */
  uncountedMedia?: number;
}

export interface Importer {
  /** The format's name as shown to users (README table, reasons). */
  readonly name: string;
  /** True when the content has this format's shape. Never decided by the file name. */
  detect(input: Input): boolean;
  /** Reads the runs. Throws a FormatError when the file has the format's shape but cannot be read. */
  read(input: Input, notes: Notes): ImportedRun[];
}
