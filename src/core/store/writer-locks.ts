// The store writer's lock records (one of its parts: only store-writer.ts uses it): each file this process
// holds open for writing has a record in .locks/ (rotation keeps such files), refreshed on a heartbeat
// while any is held and deleted when the file is released.
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { LOCK_REFRESH_MS, LOCKS_DIR, selfIdentity, type LockRecord } from './owners';

/** How the records are written, refreshed and deleted: through the store writer (redacted, checked). */
export interface LockRecordFiles {
  /** The store root, where .locks/ is. */
  readonly root: string;
  writeFile(file: string, data: string, options: { exclusive: true }): Promise<boolean>;
  /** Sets the record's modification time to `now`; throws if it is gone or not the store's. */
  touch(file: string, now: Date): Promise<void>;
  remove(file: string): Promise<boolean>;
}

export class LockRecords {
  /** Lock records of this writer's open files. */
  private readonly held = new Set<string>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly files: LockRecordFiles) {}

  /** Registers `file` as open for writing by this process; the returned function releases it. */
  async lock(file: string): Promise<() => Promise<void>> {
    const root = this.files.root;
    const me = selfIdentity();
    const record: LockRecord = {
      v: 1,
      ...me,
      file: path.relative(root, path.resolve(file)).split(path.sep).join('/'),
    };
    const lockFile = path.join(root, LOCKS_DIR, `${me.pid}-${randomBytes(6).toString('hex')}.lock`);
    await this.files.writeFile(lockFile, JSON.stringify(record) + '\n', { exclusive: true });
    this.held.add(lockFile);
    this.heartbeat ??= setInterval(() => void this.refresh(), LOCK_REFRESH_MS).unref();
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      this.held.delete(lockFile);
      if (this.held.size === 0) {
        clearInterval(this.heartbeat);
        this.heartbeat = undefined;
      }
      await this.files.remove(lockFile).catch(() => undefined);
    };
  }

  /**
   * Marks this writer's lock records as fresh (their modification time), so that a writer whose process
   * cannot be checked from where the record is read (another host on a shared drive) keeps its files.
   */
  async refresh(now = new Date()): Promise<void> {
    for (const lockFile of this.held) {
      await this.files.touch(lockFile, now).catch(() => undefined);
    }
  }
}
