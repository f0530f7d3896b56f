// The Agent panel's host side (ChatController) in a unit test: VS Code's module is replaced by the few
// fields the controller reaches (settings, app root, language models), the model is the scripted
// OpenAI-compatible server on loopback, the store a temporary workspace, and what it posts is recorded.
import Module from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatController } from '../../src/extension/agent/chatController';
import type { ChatControllerDeps } from '../../src/extension/agent/chatControllerDeps';
import type { ChatPatch, ChatSnapshot } from '../../src/protocol/chat';
import { memento } from './memento';
import { startScriptedModelServer, type ScriptStep, type ScriptedServer } from './scripted-model-server';

const values: Record<string, unknown> = {};
const config = {
  get: (key: string, fallback: unknown): unknown => (key in values ? values[key] : fallback),
  inspect: (): undefined => undefined,
  update: (): Promise<void> => Promise.resolve(),
};
const vscodeStub = {
  env: { appRoot: join(tmpdir(), 'no-vscode-app-root') },
  workspace: { getConfiguration: () => config, workspaceFolders: [], isTrusted: true },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  lm: { selectChatModels: (): Promise<never[]> => Promise.resolve([]) },
  window: {},
  Uri: { file: (fsPath: string) => ({ fsPath }) },
};
type Load = (request: string, ...rest: unknown[]) => unknown;
const loader = Module as unknown as { _load: Load };
const load = loader._load;
loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
  return request === 'vscode' ? vscodeStub : load.call(this, request, ...rest);
};

export interface ControllerRig {
  chat: ChatController;
  server: ScriptedServer;
  posted: ChatPatch[];
  snapshots: ChatSnapshot[];
  /** The temporary workspace folder (its store is `.context-desk/` in it). */
  workspace: string;
  /** The settings the controller reads (change them, then call `chat.settingsChanged()`). */
  values: Record<string, unknown>;
  close(): Promise<void>;
}

export async function controllerRig(
  script: readonly ScriptStep[],
  /** Settings besides the scripted endpoint (`agent.maxTurns`...). */
  settings: Record<string, unknown> = {},
): Promise<ControllerRig> {
  const { ChatController } = await import('../../src/extension/agent/chatController');
  const { readSettings } = await import('../../src/extension/settings');
  const { ContextStore } = await import('../../src/core/store/context-store');
  const server = await startScriptedModelServer(script);
  Object.assign(values, {
    'agent.provider': 'openai-compatible',
    'agent.baseUrl': server.baseURL,
    'agent.model': 'm',
    ...settings,
  });
  const ws = mkdtempSync(join(tmpdir(), 'cd-controller-'));
  const store = await ContextStore.open({ root: join(ws, '.context-desk'), workspaceRoot: ws });
  const posted: ChatPatch[] = [];
  const snapshots: ChatSnapshot[] = [];
  const quiet = (): void => undefined;
  const deps: ChatControllerDeps = {
    extensionPath: process.cwd(),
    secrets: { get: () => Promise.resolve(undefined) } as unknown as ChatControllerDeps['secrets'],
    state: memento(),
    settings: () => readSettings(config as unknown as Parameters<typeof readSettings>[0]),
    storeRoot: () => ({ root: store.root, workspaceFolder: ws }),
    openStore: () => Promise.resolve(store),
    // No command or edit is run here: the agent's other tools (read_file...) are the real ones.
    hostPorts: () => ({}) as ReturnType<ChatControllerDeps['hostPorts']>,
    post: (patches) => posted.push(...patches),
    postSnapshot: (snapshot) => snapshots.push(snapshot),
    logger: { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet },
  };
  const chat = new ChatController(deps);
  return {
    chat,
    server,
    posted,
    snapshots,
    workspace: ws,
    values,
    close: async () => {
      chat.dispose();
      await chat.whenSettled();
      await server.close();
      rmSync(ws, { recursive: true, force: true });
    },
  };
}
