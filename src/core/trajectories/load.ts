// Finds and loads logs from files and folders. One bad file never stops a batch: it is reported with
// its reason (and the group it is counted in), and the rest load. Inside folders every regular file is
// considered; files of types no log is written in are counted by type, not read.
import { lstat, readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative } from 'node:path';
import { importInput } from './detect';
import { clineHistory } from './formats/anthropic';
import { clineCompaction, clineSdkSession, readClineSdk } from './formats/cline-sdk';
import { applyDeletedRanges, CLINE_UI_MESSAGES, deletedRanges } from './formats/cline-truncation';
import { compactionRun } from './formats/claude-code-compaction';
import { isObject, type JsonObject } from './json';
import { fail, FormatError, TrajectoryError } from './errors';
import type { ImportedRun } from './importer';
import { Notes, plural } from './notes';
import { EVENTS_DIR, isSdkConversationFolder, readSdkConversation } from './read/sdk-conversation';
import { readSource, type Input } from './read/source';
import { withCodexParent } from './read/codex-parent';
import type { Trajectory } from './types';

export interface Skipped {
  file: string;
  /** The reason, specific to this file. */
  error: string;
  /** The kind of reason, shared by files skipped for the same cause. */
  group: string;
}

export interface Found {
  /** The file, or the folder of an OpenHands SDK conversation. */
  file: string;
  /** The trajectory id's stem: the path relative to the argument it was found under. */
  id: string;
  /** An OpenHands SDK conversation folder (base_state.json and events/), read as one log. */
  conversation?: true;
}

/** Extensions logs are written with; other files inside folders are counted, not read. */
const LOG_FILE = /\.(json|jsonl|traj|md|ndjson|log|txt)$/i;

function code(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
}

/** Lists the files under `paths` (folders recursively, symbolic links to folders not followed). */
export async function findLogs(paths: readonly string[]): Promise<{ files: Found[]; skipped: Skipped[] }> {
  const files: Found[] = [];
  const skipped: Skipped[] = [];
  const walk = async (root: string, dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      skipped.push({ file: dir, error: `cannot read the folder: ${code(e)}`, group: 'cannot read' });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (
      await isSdkConversationFolder(
        dir,
        entries.map((e) => e.name),
      )
    ) {
      files.push({ file: dir, id: relative(root, dir) || basename(dir), conversation: true });
      // Its files are the conversation's; sub-agents keep conversations of their own in subfolders
      // (`subagents/<id>/`).
      for (const e of entries) if (e.isDirectory() && e.name !== EVENTS_DIR) await walk(root, join(dir, e.name));
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) await walk(root, path);
      else if (e.isSymbolicLink()) {
        const target = await stat(path).catch(() => undefined);
        if (target?.isDirectory())
          skipped.push({
            file: path,
            error: 'a link to a folder (not followed)',
            group: 'link to a folder (not followed)',
          });
        else if (target?.isFile() && LOG_FILE.test(e.name)) files.push({ file: path, id: relative(root, path) });
        else if (target?.isFile()) {
          const ext = extname(e.name).toLowerCase() || '(no extension)';
          skipped.push({ file: path, error: `not a log file type (${ext})`, group: `not a log file type (${ext})` });
        } else
          skipped.push({
            file: path,
            error: 'a link to neither a file nor a folder',
            group: 'link to neither a file nor a folder',
          });
      } else if (!e.isFile()) skipped.push({ file: path, error: 'not a regular file', group: 'not a regular file' });
      else if (LOG_FILE.test(e.name)) files.push({ file: path, id: relative(root, path) });
      else {
        const ext = extname(e.name).toLowerCase() || '(no extension)';
        skipped.push({ file: path, error: `not a log file type (${ext})`, group: `not a log file type (${ext})` });
      }
    }
  };
  for (const p of paths) {
    const info = await lstat(p).catch((e: unknown) => e as Error);
    if (info instanceof Error) {
      skipped.push({ file: p, error: `cannot read: ${code(info)}`, group: 'cannot read' });
      continue;
    }
    if (info.isDirectory()) await walk(p, p);
    // A file named on the command line is always tried, whatever its extension or kind (FIFOs are refused when opened).
    else files.push({ file: p, id: basename(p) });
  }
  return { files, skipped };
}

/** Reads every trajectory in one file. Throws a TrajectoryError with the reason and its group. */
export async function loadFile(found: Found): Promise<Trajectory[]> {
  try {
    const { runs, notes } = found.conversation ? await importConversation(found.file) : await importFile(found.file);
    const shared = notes.list();
    return runs.map((r, i) => {
      // The file's notes are said once, with its first run.
      const warnings = [...(i === 0 ? shared : []), ...(r.warnings ?? [])];
      const unreadable = r.calls.filter((c) => c.recorded?.unreadableTokens).length;
      if (unreadable > 0)
        warnings.push(
          `${plural(unreadable, 'call')} recorded token figures that are not counts (negative, fractional, beyond 2^53 or not numbers): ${unreadable === 1 ? 'its' : 'their'} usage is left out`,
        );
      const unknown = r.calls.filter((c) => c.recorded?.promptSizeUnknown).length;
      if (unknown > 0)
        warnings.push(
          `${plural(unknown, 'call')} recorded by LiteLLM with a \`prompt_tokens\` that leaves out some of its Anthropic cache tokens, and not which (LiteLLM versions differ): ${unknown === 1 ? 'its' : 'their'} prompt size is left out`,
        );
      const t: Trajectory = {
        id: runs.length === 1 ? found.id : `${found.id}#${i + 1}`,
        source: found.file,
        format: r.format,
        messages: r.messages,
        calls: r.calls,
      };
      if (r.model !== undefined) t.model = r.model;
      if (r.recordedCost !== undefined) t.recordedCost = r.recordedCost;
      if (r.recordedSummaries !== undefined) t.recordedSummaries = r.recordedSummaries;
      if (r.ignoredRecords !== undefined) t.ignoredRecords = r.ignoredRecords;
      // Runs whose importer did not count their own media take the file's: each may hold it.
      const media = r.uncountedMedia ?? notes.media;
      if (media > 0) t.uncountedMedia = media;
      if (warnings.length > 0) t.warnings = warnings;
      return t;
    });
  } catch (e) {
    if (e instanceof FormatError) throw new TrajectoryError(found.file, e.message, e.group ?? e.message, { cause: e });
    if (e instanceof TrajectoryError) throw e;
    // A shape no importer expected, nested beyond what a walk can follow: this file, not the whole run.
    if (e instanceof RangeError && /call stack/i.test(e.message))
      throw new TrajectoryError(found.file, 'nested too deeply to read', 'nested too deeply to read', { cause: e });
    const c = (e as NodeJS.ErrnoException).code;
    if (c !== undefined) throw new TrajectoryError(found.file, `cannot read: ${c}`, 'cannot read', { cause: e });
    throw e;
  }
}

async function importFile(file: string): Promise<{ runs: ImportedRun[]; notes: Notes }> {
  const input = await readSource(file);
  const imported = await withCodexParent(file, input, importInput(input));
  if (imported.importer === clineHistory) await readClineRanges(file, imported.runs, imported.notes);
  if (imported.importer === clineSdkSession) {
    const compaction = await clineCompaction(file);
    // Read again with it: the later calls' contexts change (notes start afresh, not said twice).
    const notes = new Notes();
    if (compaction) return { runs: readClineSdk(input, notes, compaction), notes };
  }
  if (imported.runs.some((r) => r.compactionOf))
    return { runs: await joinCompactions(file, imported.runs, imported.notes), notes: imported.notes };
  return imported;
}

/**
 * Claude Code compaction calls kept apart from their session (`<session>/subagents/agent-acompact-*.jsonl`)
 * are joined with the main conversation of `<session>.jsonl`; without it they are not replayed, said:
 * their own records are a few thousand tokens of a prompt that was the whole conversation.
 */
async function joinCompactions(file: string, runs: ImportedRun[], notes: Notes): Promise<ImportedRun[]> {
  const session = basename(dirname(file)) === 'subagents' ? `${dirname(dirname(file))}.jsonl` : undefined;
  let main: JsonObject[] | undefined;
  if (session !== undefined) {
    const input = await readSource(session).catch(() => undefined);
    if (input?.kind === 'lines') main = input.records.filter(isObject);
  }
  const out: ImportedRun[] = [];
  let dropped = 0;
  for (const run of runs) {
    if (!run.compactionOf) {
      out.push(run);
      continue;
    }
    const joined = main && compactionRun(main, run.compactionOf);
    if (joined && joined.calls.length > 0) {
      out.push(joined);
      notes.say(
        `a compaction call: its prompt was the main conversation up to the compaction, read from ${basename(session!)}, then its own records`,
      );
    } else dropped++;
  }
  // Refused rather than counted from its own records: that would be a few thousand of the ~170K tokens sent.
  const where = session === undefined ? '<session>.jsonl' : basename(session);
  const why = `its prompt was the main conversation, and ${where} ${main ? 'does not hold it' : 'is not beside its folder'}: replay the project folder`;
  if (out.length === 0)
    fail(
      `a Claude Code compaction call (${why})`,
      'Claude Code compaction call without its session (replay the project folder)',
    );
  if (dropped > 0) notes.say(`${plural(dropped, 'compaction call')} not replayed (${why})`);
  return out;
}

/**
 * The ranges Cline left out of long histories, from the `ui_messages.json` beside a task's history (a
 * Roo Code task's rows record none). Missing or unreadable, the history is replayed whole, said.
 */
/** Cline's `api_req_started` rows carry each request's usage in their JSON text. */
function recordsUsage(ui: unknown): boolean {
  return (
    Array.isArray(ui) &&
    ui.some(
      (r) => isObject(r) && r.say === 'api_req_started' && typeof r.text === 'string' && r.text.includes('"tokensIn"'),
    )
  );
}

async function readClineRanges(file: string, runs: ImportedRun[], notes: Notes): Promise<void> {
  const beside = join(dirname(file), CLINE_UI_MESSAGES);
  let ui: Input;
  try {
    ui = await readSource(beside);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'none beside it' : 'the one beside it cannot be read';
    notes.say(
      `${CLINE_UI_MESSAGES} (${why}): if Cline left part of a long history out of later requests, replay sends it all`,
    );
    return;
  }
  const rows = ui.kind === 'document' ? deletedRanges(ui.value) : [];
  for (const run of runs) applyDeletedRanges(run, rows, notes);
  if (ui.kind === 'document' && recordsUsage(ui.value))
    notes.say(
      `the per-request usage in ${CLINE_UI_MESSAGES} (tokensIn, cacheReads, cost) is not read: what tokensIn holds depends on the provider and on the version that wrote it (Cline's OpenAI-compatible and LiteLLM providers count cache reads in it and again in cacheReads, its other providers leave them out, later Roo Code versions write the whole input), and the task records neither version nor, for Roo Code, provider: no recorded figures`,
    );
}

async function importConversation(dir: string): Promise<{ runs: ImportedRun[]; notes: Notes }> {
  const notes = new Notes();
  const run = await readSdkConversation(dir, notes);
  if (run.calls.length === 0) fail('OpenHands SDK (V1) conversation with no model calls', 'no model calls');
  return { runs: [run], notes };
}

/** Loads one file by path (its id is its name). */
export async function loadTrajectoryFile(file: string): Promise<Trajectory[]> {
  return loadFile({ file, id: basename(file) });
}

export interface LoadResult {
  trajectories: Trajectory[];
  skipped: Skipped[];
}

/** Loads everything under `paths` into memory (small batches, tests); replay streams file by file. */
export async function loadTrajectories(
  paths: readonly string[],
  onFile?: (file: string, index: number, total: number) => void,
): Promise<LoadResult> {
  const { files, skipped } = await findLogs(paths);
  const trajectories: Trajectory[] = [];
  for (let i = 0; i < files.length; i++) {
    onFile?.(files[i]!.file, i, files.length);
    try {
      for (const t of await loadFile(files[i]!)) trajectories.push(t);
    } catch (e) {
      if (!(e instanceof TrajectoryError)) throw e;
      skipped.push({ file: e.file, error: e.reason, group: e.group });
    }
  }
  return { trajectories, skipped };
}
