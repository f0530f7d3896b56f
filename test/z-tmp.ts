import { loadMcpConfig } from '../src/core/mcp/config';
import { mkdtempSync, mkdirSync, symlinkSync } from 'node:fs'; import * as os from 'node:os'; import * as path from 'node:path';
(async () => {
  const ws = mkdtempSync(path.join(os.tmpdir(), 'z-')); mkdirSync(path.join(ws, '.vscode'));
  symlinkSync('/dev/zero', path.join(ws, '.vscode', 'mcp.json'));
  const timer = setInterval(() => console.log('rss', (process.memoryUsage().rss / 1e6).toFixed(0)), 1000);
  const t = performance.now();
  try { const c = await loadMcpConfig({ workspaceFolder: ws }); console.log(c.errors); } catch (e) { console.log('threw', (e as Error).message); }
  console.log((performance.now() - t).toFixed(0), 'ms'); clearInterval(timer);
})();
