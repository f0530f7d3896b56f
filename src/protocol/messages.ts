// The typed messages between the extension host and the Agent panel's webview. Both sides import this
// file; nothing else crosses the boundary.
//
// Handshake: the webview posts `ready` once its script runs; the host answers `init` with everything
// the panel needs to render. Requests carry an id and get exactly one `response`; notifications are
// fire-and-forget in either direction.

import type { ChatPatch, ChatSnapshot, NoticeAction } from './chat';
import type { ConnectionResult, SaveResult, SetupForm, SetupInput } from './setup';
import type { PanelMemory } from './panelMemory';

/** The panel's views: the conversation, the setup form, the list of past sessions. */
export type PanelView = 'chat' | 'setup' | 'history';

export const PROTOCOL_VERSION = 3;

/** Settings the panel shows. */
export interface PanelSettings {
  strategy: string;
  maskingWindow: number;
  tokenizer: string;
  cachedInputPrice: number;
}

export interface InitPayload {
  protocolVersion: number;
  extensionVersion: string;
  settings: PanelSettings;
  chat: ChatSnapshot;
  /**
   * The composer's unsent text, kept by the host (in memory, and redacted across a reload): never in the
   * webview's own state, which VS Code writes to disk as it is.
   */
  draft?: string;
  /** The setup form's unsaved fields and the error line, kept by the host while the view was hidden. */
  memory?: PanelMemory;
}

/** Requests the webview sends to the host: method -> params and result. */
export interface HostRequests {
  showLog: { params: Record<string, never>; result: { shown: true } };
  runCommand: { params: { command: PanelCommand }; result: { ran: true } };
  /**
   * Sends a user message; the agent runs until it answers, is stopped, or fails. Not accepted: the
   * panel keeps the text in the composer and shows `reason` (`setup`: a model must be set up first).
   */
  send: { params: { text: string }; result: { accepted: boolean; reason?: string; setup?: boolean } };
  stop: { params: Record<string, never>; result: { stopped: boolean } };
  /** The composer's text changed: the host keeps it while the view is hidden or moved. */
  saveDraft: { params: { text: string }; result: { saved: boolean } };
  /** The setup form's fields or the error line changed: the host keeps them (in memory) while the view is hidden. */
  keepMemory: { params: PanelMemory; result: { kept: boolean } };
  newChat: { params: Record<string, never>; result: { sessionId: string } };
  openSession: { params: { sessionId: string }; result: { opened: boolean } };
  setStrategy: { params: { strategy: string }; result: { strategy: string } };
  setModel: { params: { model: string }; result: { model: string } };
  /** Opens a stored file (a masked observation, a long output) by its workspace-relative path. */
  openStored: { params: { path: string }; result: { opened: boolean } };
  /** `always`: approved, and the same kind of request is approved from now on (see `alwaysLabel`). */
  answerApproval: { params: { id: string; approved: boolean; always?: boolean }; result: { ok: boolean } };
  /** The action of a notice button or the setup hint. */
  noticeAction: { params: { action: NoticeAction['action'] }; result: { ok: boolean } };
  /** What the setup form shows. */
  getSetup: { params: Record<string, never>; result: SetupForm };
  /** The models an endpoint lists (`GET <base>/models`) or VS Code offers; with a key typed but not saved. */
  listModels: {
    params: { provider: SetupInput['provider']; baseUrl: string; apiKey?: string };
    result: ConnectionResult;
  };
  /** Checks that the endpoint answers with the key, and that it offers the model. */
  testConnection: { params: Omit<SetupInput, 'removeKey' | 'contextWindow'>; result: ConnectionResult };
  /** Saves the provider, endpoint, model (settings) and key (secret storage). */
  saveSetup: { params: SetupInput; result: SaveResult };
  /** Asks the host for the past sessions again (the History view opens). */
  refreshSessions: { params: Record<string, never>; result: { count: number } };
}

/** Commands the panel may ask the host to run (an allow-list: never an arbitrary command id). */
export type PanelCommand = 'contextDesk.showLog';

/** Requests the host sends to the webview. */
export interface WebviewRequests {
  ping: { params: { sentAt: number }; result: { sentAt: number; receivedAt: number } };
  /** What the panel currently shows: lets tests and diagnostics check the panel, not the host. */
  snapshot: {
    params: Record<string, never>;
    result: {
      settings: PanelSettings | undefined;
      items: number;
      status: string | undefined;
      maskedShown: number;
      view: PanelView;
      /** When the last ping arrived (ms since the epoch). */
      lastPing?: number;
    };
  };
}

/** Notifications the host sends to the webview. */
export interface WebviewNotifications {
  settingsChanged: PanelSettings;
  /** Replaces the whole chat view (new chat, restored session). */
  chatSnapshot: ChatSnapshot;
  /** Changes since the last snapshot or patch, in order. */
  chatPatch: ChatPatch[];
  /** A view-title action or command asks for a view (History, the setup form). */
  showView: { view: PanelView };
  /** Puts the keyboard focus in the composer (the focus keybinding). */
  focusComposer: Record<string, never>;
}

export type RequestMessage<R, M extends keyof R = keyof R> = {
  [K in M]: { type: 'request'; id: number; method: K; params: R[K] extends { params: infer P } ? P : never };
}[M];

export type ResponseMessage =
  | { type: 'response'; id: number; ok: true; result: unknown }
  | { type: 'response'; id: number; ok: false; error: string };

export type NotificationMessage<N, M extends keyof N = keyof N> = {
  [K in M]: { type: 'notification'; method: K; params: N[K] };
}[M];

export type WebviewToHost = { type: 'ready'; protocolVersion: number } | RequestMessage<HostRequests> | ResponseMessage;

export type HostToWebview =
  | { type: 'init'; payload: InitPayload }
  | RequestMessage<WebviewRequests>
  | ResponseMessage
  | NotificationMessage<WebviewNotifications>;

export type ResultOf<R, K extends keyof R> = R[K] extends { result: infer T } ? T : never;
export type ParamsOf<R, K extends keyof R> = R[K] extends { params: infer T } ? T : never;

/** Narrow an unknown posted value to a message of the given side, by its discriminant only. */
export function isMessage(value: unknown): value is { type: string } {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
