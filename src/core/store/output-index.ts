// The per-session index of stored tool outputs: what "Open Masked Observation" lists (turn, tool,
// size, first line), newest first. `tool-outputs/<session>/index.json`, replaced atomically.
import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { parseShallowJson } from '../json-depth';
import { readTextFile } from '../read-text';
import type { ContextStore } from './context-store';
import { safeName } from './names';

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

interface IndexFile {
  v: 1;
  entries: StoredOutputEntry[];
}

const INDEX = 'index.json';

function indexPath(store: ContextStore, session: string): string {
  return path.join(store.folder('tool-outputs'), safeName(session), INDEX);
}

async function readIndex(file: string): Promise<StoredOutputEntry[]> {
  try {
    // A line per stored output: tens of MB would be hundreds of thousands of outputs.
    // Depth-checked: the entries reach the quick pick, and one nested thousands deep would overflow it.
    const parsed = parseShallowJson(await readTextFile(file, 64 * 1024 * 1024)) as Partial<IndexFile> | undefined;
    return Array.isArray(parsed?.entries) ? parsed.entries : [];
  } catch {
    return []; // missing or damaged: the folder scan below still finds every file
  }
}

/** Adds an entry to the session's index (atomic replace; the folder scan covers a lost race). */
export async function addToIndex(store: ContextStore, session: string, entry: StoredOutputEntry): Promise<void> {
  const file = indexPath(store, session);
  const entries = (await readIndex(file)).filter((e) => e.file !== entry.file);
  entries.push(entry);
  await store.writer.writeJson(file, { v: 1, entries } satisfies IndexFile, { indent: 1 });
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
  const byFile = new Map(
    (await readIndex(path.join(dir, INDEX))).filter((e) => onDisk.has(e.file)).map((e) => [e.file, e]),
  );
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
    (a, b) => b.storedAt.localeCompare(a.storedAt) || b.turn - a.turn || b.file.localeCompare(a.file),
  );
}
