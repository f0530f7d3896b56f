// Which history files this workspace's Context Desk wrote itself, kept in workspace state (outside the
// store and outside git). A history file that is not on the list came from elsewhere: a cloned
// repository can ship one whose "user" messages are instructions nobody here gave, so History marks it
// and resuming it asks first.
import type * as vscode from 'vscode';
import { safeName } from '../../core/store/names';
import { mementoStrings } from '../mementoStrings';

const KEY = 'contextDesk.writtenSessions';
const KEEP = 1000;

export class WrittenSessions {
  constructor(private readonly memento: vscode.Memento) {}

  private ids(): string[] {
    return mementoStrings(this.memento, KEY);
  }

  /** True when this workspace's Context Desk wrote the session's history file (by id or file name). */
  has(id: string): boolean {
    return this.ids().includes(safeName(id));
  }

  async add(id: string): Promise<void> {
    const name = safeName(id);
    const ids = this.ids().filter((x) => x !== name);
    ids.push(name);
    await this.memento.update(KEY, ids.slice(-KEEP));
  }
}
