// A stand-in for the `vscode` module, enough for unit tests of extension glue that asks the user
// (McpController's start prompt): importing this file first makes `require('vscode')` load it. Each
// warning message shown is recorded in `prompts` and answered by `answer`, which a test replaces.
import Module from 'node:module';

const loader = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const resolve = loader._resolveFilename;
loader._resolveFilename = function (request: string, ...rest: unknown[]): string {
  return request === 'vscode' ? __filename : resolve.call(this, request, ...rest);
};

export interface ShownPrompt {
  message: string;
  items: string[];
  modal: boolean;
  detail?: string;
}

/** Every warning message shown, in order. */
export const prompts: ShownPrompt[] = [];

/** How the user answers a warning message (the default dismisses it). */
export const user: { answer: (p: ShownPrompt) => PromiseLike<string | undefined> } = {
  answer: async () => undefined,
};

type Listener<T> = (value: T) => void;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value: T): void {
    for (const l of this.listeners) l(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Disposable {
  constructor(private readonly onDispose?: () => void) {}
  dispose(): void {
    this.onDispose?.();
  }
}

export class CancellationTokenSource {
  readonly token = { isCancellationRequested: false };
  cancel(): void {
    this.token.isCancellationRequested = true;
  }
  dispose(): void {}
}

export class LanguageModelTextPart {
  constructor(readonly value: string) {}
}

export const ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 };

const none = (): Disposable => new Disposable();

export const workspace = {
  isTrusted: true,
  onDidGrantWorkspaceTrust: none,
  createFileSystemWatcher: () => ({ onDidChange: none, onDidCreate: none, onDidDelete: none, dispose() {} }),
  asRelativePath: (p: string): string => p.split(/[\\/]/).pop() ?? p,
};

export const window = {
  withProgress: <T>(_options: unknown, task: () => Promise<T>): Promise<T> => task(),
  showWarningMessage: (message: string, ...rest: unknown[]): PromiseLike<string | undefined> => {
    const options =
      typeof rest[0] === 'object' && rest[0] !== null ? (rest.shift() as { modal?: boolean; detail?: string }) : {};
    const p: ShownPrompt = {
      message,
      items: rest as string[],
      modal: options.modal === true,
      ...(options.detail !== undefined ? { detail: options.detail } : {}),
    };
    prompts.push(p);
    return user.answer(p);
  },
  showInputBox: async (): Promise<string | undefined> => undefined,
};

export const lm = { tools: [] as unknown[], invokeTool: async () => ({ content: [] }) };
