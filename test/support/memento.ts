// VS Code's Memento (workspace state) for unit tests of extension glue: values are kept as JSON, the way
// VS Code stores them, and `disk` shows exactly what would be written.
import type { Memento } from 'vscode';

export type TestMemento = Memento & { disk: Map<string, string> };

export function memento(): TestMemento {
  const disk = new Map<string, string>();
  return {
    disk,
    keys: () => [...disk.keys()],
    get: <T>(key: string, fallback?: T): T => (disk.has(key) ? (JSON.parse(disk.get(key)!) as T) : (fallback as T)),
    update: (key: string, value: unknown): Promise<void> => {
      if (value === undefined) disk.delete(key);
      else disk.set(key, JSON.stringify(value));
      return Promise.resolve();
    },
  } as TestMemento;
}
