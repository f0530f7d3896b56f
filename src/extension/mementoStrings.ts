// The lists of choices kept in workspace state (approved tools, servers allowed to start, sessions written
// here): a value that is not a list of strings, from an older version or edited by hand, reads as empty.
import type * as vscode from 'vscode';

export function mementoStrings(memento: vscode.Memento, key: string): string[] {
  const v = memento.get<unknown>(key);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
