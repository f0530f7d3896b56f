// The Agent panel: a webview view in the Context Desk container, speaking src/protocol with a ready
// handshake. It renders what the host sends; all decisions stay in the host and the core.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import {
  PROTOCOL_VERSION,
  isMessage,
  type HostRequests,
  type HostToWebview,
  type InitPayload,
  type PanelCommand,
  type ResultOf,
  type PanelView,
  type WebviewNotifications,
  type WebviewRequests,
  type WebviewToHost,
} from '../protocol/messages';
import { RequestTracker, answer, type Handlers } from '../protocol/rpc';
import type { ChatPatch, ChatSnapshot } from '../protocol/chat';
import type { Logger } from '../core/ports';

export const AGENT_VIEW_ID = 'contextDesk.agent';
const ALLOWED_COMMANDS: ReadonlySet<PanelCommand> = new Set(['contextDesk.showLog']);

export class AgentViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private tracker: RequestTracker<WebviewRequests> | undefined;
  private readyWaiters: ((p: InitPayload) => void)[] = [];
  private lastInit: InitPayload | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly init: () => InitPayload,
    private readonly handlers: Handlers<HostRequests>,
    private readonly logger: Logger,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.lastInit = undefined;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist, media] };
    view.webview.html = this.html(view.webview, dist, media);
    const post = (m: HostToWebview): void => void view.webview.postMessage(m);
    this.tracker?.dispose('The panel was reloaded');
    this.tracker = new RequestTracker<WebviewRequests>(post);
    const listeners = [view.webview.onDidReceiveMessage((m: unknown) => this.receive(m, post))];
    listeners.push(
      view.onDidDispose(() => {
        this.tracker?.dispose();
        this.view = undefined;
        this.lastInit = undefined;
        for (const l of listeners) l.dispose();
      }),
    );
    this.disposables.push(...listeners);
    this.logger.debug('Agent view resolved');
  }

  /** Resolves once the webview has completed the handshake (at once if it already has). */
  whenReady(): Promise<InitPayload> {
    if (this.lastInit) return Promise.resolve(this.lastInit);
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  async ping(): Promise<{ roundTripMs: number }> {
    await this.whenReady();
    const sentAt = Date.now();
    await this.tracker!.request('ping', { sentAt });
    return { roundTripMs: Date.now() - sentAt };
  }

  /** What the panel shows right now (asked from the webview itself). */
  async snapshot(): Promise<ResultOf<WebviewRequests, 'snapshot'>> {
    await this.whenReady();
    return this.tracker!.request('snapshot', {});
  }

  postPatches(patches: ChatPatch[]): void {
    if (this.view && this.lastInit && patches.length > 0) {
      void this.view.webview.postMessage({
        type: 'notification',
        method: 'chatPatch',
        params: patches,
      } satisfies HostToWebview);
    }
  }

  postSnapshot(snapshot: ChatSnapshot): void {
    if (this.view && this.lastInit) {
      void this.view.webview.postMessage({
        type: 'notification',
        method: 'chatSnapshot',
        params: snapshot,
      } satisfies HostToWebview);
    }
  }

  /** Shows the panel (resolving it if need be) on one of its views. */
  async showView(view: PanelView): Promise<void> {
    await vscode.commands.executeCommand(`${AGENT_VIEW_ID}.focus`);
    await this.whenReady();
    this.notify('showView', { view });
  }

  /** Shows the panel and puts the cursor in the composer. */
  async focusComposer(): Promise<void> {
    await vscode.commands.executeCommand(`${AGENT_VIEW_ID}.focus`);
    await this.whenReady();
    this.notify('focusComposer', {});
  }

  private notify<K extends keyof WebviewNotifications>(method: K, params: WebviewNotifications[K]): void {
    if (this.view && this.lastInit)
      void this.view.webview.postMessage({ type: 'notification', method, params } as HostToWebview);
  }

  notifySettings(): void {
    if (this.view && this.lastInit) {
      const payload = this.init();
      void this.view.webview.postMessage({
        type: 'notification',
        method: 'settingsChanged',
        params: payload.settings,
      } satisfies HostToWebview);
    }
  }

  private receive(raw: unknown, post: (m: HostToWebview) => void): void {
    if (!isMessage(raw)) return;
    const m = raw as WebviewToHost;
    switch (m.type) {
      case 'ready': {
        if (m.protocolVersion !== PROTOCOL_VERSION) {
          this.logger.warn(`Panel speaks protocol ${m.protocolVersion}, host ${PROTOCOL_VERSION}; reload the window.`);
        }
        const payload = this.init();
        post({ type: 'init', payload });
        this.lastInit = payload;
        this.logger.info('Agent panel connected');
        for (const w of this.readyWaiters.splice(0)) w(payload);
        return;
      }
      case 'request':
        void answer(this.handlers, m, post);
        return;
      case 'response':
        this.tracker?.settle(m);
        return;
    }
  }

  private html(webview: vscode.Webview, dist: vscode.Uri, media: vscode.Uri): string {
    const nonce = randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js'));
    const codicons = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicons', 'codicon.css'));
    const css = webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.css'));
    const csp = [
      "default-src 'none'",
      `style-src ${webview.cspSource} 'unsafe-inline'`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
      `script-src 'nonce-${nonce}'`,
      // Model output is hostile text: it can neither submit a form anywhere nor frame a page.
      "form-action 'none'",
      "frame-src 'none'",
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${codicons}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${css}">
<title>Context Desk</title>
</head>
<body>
<cd-app></cd-app>
<script type="module" nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }

  isAllowedCommand(c: string): c is PanelCommand {
    return ALLOWED_COMMANDS.has(c as PanelCommand);
  }

  dispose(): void {
    this.tracker?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
