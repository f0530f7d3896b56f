// Which history files this workspace's Context Desk wrote itself, kept in workspace state (outside the
// store and outside git). A history file that is not on the list came from elsewhere: a cloned
// repository can ship one whose "user" messages are instructions nobody here gave, so History marks it
// and resuming it asks first. Each is kept with the identity (device and inode) of the file it wrote:
// a pull or checkout that replaces the file with a teammate's or an attacker's version (git writes a
// new file) makes it a file this workspace did not write, though it has the same name; so does a command
// that appends to it or rewrites it in place (the identity holds the size and change time as last
// written here, brought up to date after each of Context Desk's own writes).
import type * as vscode from 'vscode';
import { historyIdentity } from '../../core/store/history';
import { safeName } from '../../core/store/names';
import { mementoStrings } from '../mementoStrings';

const KEY = 'contextDesk.writtenSessions';
/** Sessions this workspace wrote that continue one it did not (history-fork.ts): their messages came from elsewhere. */
const CONTINUED_KEY = 'contextDesk.continuedSessions';
const KEEP = 1000;

export class WrittenSessions {
  constructor(private readonly memento: vscode.Memento) {}

  private ids(): string[] {
    return mementoStrings(this.memento, KEY);
  }

  /**
   * True when this workspace's Context Desk wrote the session's history file (by id or file name) and,
   * where both are known, it is still the file it wrote (`identity`: see `fileIdentity`).
   */
  has(id: string, identity?: string): boolean {
    const name = safeName(id);
    return this.ids().some(
      (x) =>
        x === name ||
        (x.startsWith(`${name}#`) && (identity === undefined || sameFile(x.slice(name.length + 1), identity))),
    );
  }

  async add(id: string, identity?: string): Promise<void> {
    const name = safeName(id);
    const ids = this.ids().filter((x) => x !== name && !x.startsWith(`${name}#`));
    ids.push(identity === undefined ? name : `${name}#${identity}`);
    await this.memento.update(KEY, ids.slice(-KEEP));
  }

  /**
   * Records that session `id` was written here as the continuation of a session from elsewhere: a later
   * resume still shows its (copied) messages with their hidden characters made visible.
   */
  async addContinued(id: string): Promise<void> {
    const name = safeName(id);
    const ids = mementoStrings(this.memento, CONTINUED_KEY).filter((x) => x !== name);
    await this.memento.update(CONTINUED_KEY, [...ids, name].slice(-KEEP));
  }

  /** Whether session `id` continues a session this workspace did not write (see `addContinued`). */
  continued(id: string): boolean {
    return mementoStrings(this.memento, CONTINUED_KEY).includes(safeName(id));
  }
}

/** The identity of a history file as it is now (see `historyIdentity`), or undefined when it is missing. */
export const fileIdentity = historyIdentity;

/** An identity kept by an older version holds only device and inode: it is compared on those. */
function sameFile(kept: string, now: string): boolean {
  return kept.split(':').length === 2 ? now.startsWith(`${kept}:`) : kept === now;
}
