// Who is writing which store file, across windows and processes of this machine: every long-lived write
// (an append handle, a tool output being streamed) has a lock record under `<store>/.locks/` naming its
// process (pid + start time + host). Rotation and crash cleanup read these records and never touch a
// file whose writer is alive. This module only reads; the store writer creates and removes the records.
import { promises as fsp, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { readTextFile } from '../read-text';

/** Folder of the lock records, directly under the store root. */
export const LOCKS_DIR = '.locks';

/** A process, recognisable even after its pid is reused. */
export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks since boot (Linux `/proc/<pid>/stat` field 22); '0' where unknown. */
  start: string;
  host: string;
}

/** One lock record: a file under the store that `owner` has open for writing. */
export interface LockRecord extends ProcessIdentity {
  v: 1;
  /** Path relative to the store root, `/`-separated. */
  file: string;
}

function startTimeOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[19] ?? '0';
  } catch {
    return '0';
  }
}

let self: ProcessIdentity | undefined;

/** This process. */
export function selfIdentity(): ProcessIdentity {
  self ??= { pid: process.pid, start: startTimeOf(process.pid), host: hostname() };
  return self;
}

/** How often a writer refreshes its lock records' modification time. */
export const LOCK_REFRESH_MS = 10 * 60_000;
/**
 * A record that cannot be checked against a running process (another host's, or one without a start
 * time) is taken for alive only while refreshed this recently: a crashed writer on a shared drive, or a
 * record a cloned repository ships, pins no file for ever.
 */
export const LOCK_STALE_MS = 6 * LOCK_REFRESH_MS;

/**
 * Whether the process is (still) running. A record from another host cannot be checked: it counts as
 * alive while it was refreshed within LOCK_STALE_MS (`refreshedAgoMs`; unknown counts as stale). A pid
 * that is running but started at another time is a reused pid: the writer is gone.
 */
export function isAlive(
  owner: Pick<ProcessIdentity, 'pid' | 'start'> & { host?: string },
  refreshedAgoMs?: number,
): boolean {
  const fresh = refreshedAgoMs !== undefined && refreshedAgoMs < LOCK_STALE_MS;
  if (owner.host !== undefined && owner.host !== selfIdentity().host) return fresh;
  if (!Number.isInteger(owner.pid) || owner.pid <= 0) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // Without a start time any running process with that pid (pid 1 always runs) would do: a lock record
  // must also be fresh; a temp file's name (no record to refresh) keeps the old rule.
  if (owner.start === '0') return refreshedAgoMs === undefined ? owner.host === undefined : fresh;
  const now = startTimeOf(owner.pid);
  return now === '0' || now === owner.start;
}

function parseLock(text: string): LockRecord | undefined {
  try {
    const r = JSON.parse(text) as Partial<LockRecord>;
    if (r.v !== 1 || typeof r.pid !== 'number' || typeof r.file !== 'string') return undefined;
    return { v: 1, pid: r.pid, start: String(r.start ?? '0'), host: String(r.host ?? ''), file: r.file };
  } catch {
    return undefined;
  }
}

/** Every lock record under the store (symlinks and unreadable entries are skipped), with its file name and age. */
export async function readLocks(
  root: string,
  now = Date.now(),
): Promise<{ name: string; record?: LockRecord; ageMs?: number }[]> {
  const dir = path.join(root, LOCKS_DIR);
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: { name: string; record?: LockRecord; ageMs?: number }[] = [];
  for (const e of entries) {
    if (!e.isFile() || !e.name.endsWith('.lock')) continue;
    const file = path.join(dir, e.name);
    // A record is one short line; anything long is not one of ours.
    const text = await readTextFile(file, 64 * 1024).catch(() => '');
    const record = parseLock(text);
    const st = await fsp.lstat(file).catch(() => undefined);
    const ageMs = st ? Math.max(0, now - st.mtimeMs) : undefined;
    out.push({ name: e.name, ...(record ? { record } : {}), ...(ageMs === undefined ? {} : { ageMs }) });
  }
  return out;
}

/** Absolute paths of store files that a live process has open for writing. */
export async function filesInUse(root: string): Promise<Set<string>> {
  const inUse = new Set<string>();
  for (const { record, ageMs } of await readLocks(root))
    if (record && isAlive(record, ageMs)) inUse.add(path.resolve(root, ...record.file.split('/')));
  return inUse;
}

/** `.<file>.<pid>.<start>.<rand>.tmp`: the writer of a temp file is part of its name. */
export function tempName(base: string, rand: string): string {
  const me = selfIdentity();
  return `.${base}.${me.pid}.${me.start}.${rand}.tmp`;
}

/** The owner named in a temp file's name (also the older `.<file>.<pid>.<rand>.tmp`), if it has one. */
export function tempOwner(name: string): { pid: number; start: string } | undefined {
  const m = /\.(\d+)(?:\.(\d+))?\.[0-9a-f]{8}\.tmp$/.exec(name);
  return m ? { pid: Number(m[1]), start: m[2] ?? '0' } : undefined;
}
