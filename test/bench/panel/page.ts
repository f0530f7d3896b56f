// The panel's page outside VS Code: the webview's own markup (taken from the extension's HTML, so a
// new layout comes along), its bundle and styles, and a stand-in for VS Code's webview API that
// records what the panel posts and answers its requests. The page-side helpers only post protocol
// messages (src/protocol/messages.ts) and watch frames; they never look into the panel's DOM.
import { readFileSync } from 'node:fs';

/** What the extension puts in the webview's <body> before the script (src/extension/agentView.ts). */
export function panelBodyMarkup(): string {
  const source = readFileSync('src/extension/agentView.ts', 'utf8');
  const body = /<body>([\s\S]*?)<script/.exec(source)?.[1]?.trim();
  if (!body) throw new Error('cannot find the webview <body> markup in src/extension/agentView.ts');
  return body;
}

const PLAIN = {
  vars: '--vscode-font-family:system-ui,sans-serif;--vscode-font-size:13px;--vscode-editor-font-family:monospace;--vscode-foreground:#ccc',
  background: '#181818',
};

/** `theme`: the theme variables on <html> and the sidebar's background (scripts/lib/panel-themes.ts). */
export function panelPage(size = { width: 420, height: 900 }, theme = PLAIN): string {
  return `<!DOCTYPE html><html lang="en" style="${theme.vars.replace(/\n/g, '')}"><head><meta charset="UTF-8">
<link rel="stylesheet" href="/dist/codicons/codicon.css" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="/media/panel.css"><style>body{background:${theme.background};width:${size.width}px;height:${size.height}px}</style>
<script>
  window.__posted = [];
  const waiting = new Map();
  window.acquireVsCodeApi = () => ({
    postMessage(m) {
      window.__posted.push(m);
      // Answers a request with what a test put in window.__results for its method (or fails it with the
      // message in window.__errors), else a plain yes.
      const error = (window.__errors || {})[m.method];
      if (m.type === 'request') setTimeout(() => window.postMessage(error !== undefined ? { type: 'response', id: m.id, ok: false, error } : { type: 'response', id: m.id, ok: true, result: (window.__results || {})[m.method] ?? { ok: true, accepted: true } }, '*'));
      if (m.type === 'response' && waiting.has(m.id)) { waiting.get(m.id)(m.result); waiting.delete(m.id); }
    },
    // Kept across a reload of the page, as VS Code keeps it across a hidden view's webview being discarded.
    getState: () => JSON.parse(sessionStorage.getItem('cd-state') ?? 'null') ?? undefined,
    setState: (s) => sessionStorage.setItem('cd-state', JSON.stringify(s)),
  });
  let nextId = 1e6;
  /** A host -> webview request (protocol), resolved with the panel's answer. */
  window.__request = (method, params) => new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    window.postMessage({ type: 'request', id, method, params }, '*');
  });
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  /**
   * Posts a message and resolves with the ms until the panel's snapshot answer reports \`items\` and
   * two frames have been drawn after it (the first one lays out and paints what it rendered).
   */
  window.__timeRender = async (message, items) => {
    const t0 = performance.now();
    window.postMessage(message, '*');
    for (let i = 0; (await window.__request('snapshot', {})).items < items; i++) {
      if (i > 1000) throw new Error('the panel never showed ' + items + ' items');
      await frame();
    }
    await frame();
    await frame();
    return performance.now() - t0;
  };
  /** Posts each message \`everyMs\` apart while recording every frame; resolves with the frame times. */
  window.__stream = (messages, everyMs) => new Promise((resolve) => {
    const frames = [];
    let last = performance.now();
    let running = true;
    const tick = (t) => { frames.push(t - last); last = t; if (running) requestAnimationFrame(tick); };
    requestAnimationFrame((t) => { last = t; requestAnimationFrame(tick); });
    let i = 0;
    const next = () => {
      if (i < messages.length) { window.postMessage(messages[i++], '*'); setTimeout(next, everyMs); return; }
      window.__request('snapshot', {}).then(() => frame()).then(() => frame()).then(() => { running = false; resolve(frames); });
    };
    setTimeout(next, everyMs);
  });
</script></head><body>${panelBodyMarkup()}<script type="module" src="/dist/webview.js"></script></body></html>`;
}
