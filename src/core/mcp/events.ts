// A minimal event emitter with the shape of VS Code's `Event<T>` (listener in, disposable out), so the
// glue can pass these straight to a TreeDataProvider without the core importing vscode.

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> {
  private listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  /** Calls every listener; one that throws does not stop the others. */
  fire(value: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch {
        // A listener's bug must not break the sync.
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
