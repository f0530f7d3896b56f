// The per-session index of stored tool outputs: what "Open Masked Observation" lists (turn, tool,
// size, first line), newest first. `tool-outputs/<session>/index.jsonl`, one entry appended per stored
// output, redacted once as it is added: rewriting a whole index (`index.json` of earlier versions, still
// read) redacted every entry again each time, so a session's thousandth output cost a thousand.
import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { parseShallowJson } from '../json-depth';
import { readTextFile } from '../read-text';
import type { ContextStore } from './context-store';
import { safeName } from './names';
import { redactJsonForStore } from './store-writer';
import { compareText } from '../numbers';

/** One stored tool output. */
export interface StoredOutputEntry {
  turn: number;
  tool: string;
  /** Workspace-relative path (as in the `Full output` line). */
  display: string;
  /** File name inside the session folder. */
  file: string;
  bytes: number;
  lines: number;
  tokens: number;
  tokensExact: boolean;
  /** First non-empty line, at most 200 characters. */
  firstLine: string;
  /** ISO time the output was stored. */
  storedAt: string;
}

const INDEX = 'index.jsonl';
/** Earlier versions' index, `{ v: 1, entries }` replaced whole on every add: read, never written. */
const LEGACY_INDEX = 'index.json';
/** Each file holds a line per stored output: tens of MB would be hundreds of thousands of outputs. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

const isEntry = (e: unknown): e is StoredOutputEntry =>
  typeof e === 'object' && e !== null && typeof (e as { file?: unknown }).file === 'string';

/** The entries of both index files in the order written (a missing or damaged file gives none). */
async function readIndex(dir: string): Promise<StoredOutputEntry[]> {
  // Depth-checked: the entries reach the quick pick, and one nested thousands deep would overflow it.
  const read = (name: string): Promise<string> => readTextFile(path.join(dir, name), MAX_INDEX_BYTES).catch(() => '');
  const legacy = parseShallowJson(await read(LEGACY_INDEX)) as { entries?: unknown } | undefined;
  const entries = Array.isArray(legacy?.entries) ? legacy.entries.filter(isEntry) : [];
  for (const line of (await read(INDEX)).split('\n')) {
    const e = line.trim() === '' ? undefined : parseShallowJson(line);
    if (isEntry(e)) entries.push(e); // a torn or damaged line is skipped: the folder scan covers its file
  }
  return entries;
}

/**
 * Appends an entry to the session's index: one line, redacted alone as the JSON it is (its strings
 * cannot run into another entry's), in one O_APPEND write, so two windows never lose each other's.
 */
export async function addToIndex(store: ContextStore, session: string, entry: StoredOutputEntry): Promise<void> {
  const line = await redactJsonForStore(entry, 0);
  const file = await store.writer.openAppend(path.join(store.folder('tool-outputs'), safeName(session), INDEX));
  try {
    await file.append(line);
  } finally {
    await file.close();
  }
}

async function firstLineOf(file: string): Promise<string> {
  // Not through a link, and never from a FIFO or a device (a read there can wait forever).
  const h = await fsp.open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    if (!(await h.stat()).isFile()) return '';
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await h.read(buf, 0, buf.length, 0);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    return (text.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 200);
  } finally {
    await h.close();
  }
}

/**
 * Lists a session's stored tool outputs, newest first. Reads the index and adds any file it misses
 * (written by another window, or an index lost in a crash); entries whose file was rotated away are
 * dropped.
 */
export async function listStoredOutputs(store: ContextStore, session: string): Promise<StoredOutputEntry[]> {
  const dir = path.join(store.folder('tool-outputs'), safeName(session));
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  const onDisk = new Set(names.filter((n) => n.endsWith('.txt')));
  // The last entry for a file wins (a file name is only reused after its file was rotated away).
  const byFile = new Map((await readIndex(dir)).filter((e) => onDisk.has(e.file)).map((e) => [e.file, e]));
  for (const name of onDisk) {
    if (byFile.has(name)) continue;
    const m = /^(\d+)-(.+?)(?:-\d+)?\.txt$/.exec(name);
    const full = path.join(dir, name);
    // lstat: only the store's own files are listed (and their first line read), never a link's target.
    const st = await fsp.lstat(full).catch(() => undefined);
    if (!st?.isFile()) continue;
    byFile.set(name, {
      turn: m ? Number(m[1]) : 0,
      tool: m ? m[2]! : name,
      display: store.displayPath(full),
      file: name,
      bytes: st.size,
      lines: -1,
      tokens: -1,
      tokensExact: false,
      firstLine: await firstLineOf(full).catch(() => ''),
      storedAt: st.mtime.toISOString(),
    });
  }
  return [...byFile.values()].sort(
    (a, b) => compareText(b.storedAt, a.storedAt) || b.turn - a.turn || compareText(b.file, a.file),
  );
}
