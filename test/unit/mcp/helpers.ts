// Shared helpers for the MCP tests: temp dirs, fixture servers, a 401 HTTP server, free ports.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { CommandResolver } from '../../../src/core/mcp/command';

export const FIXTURES = path.resolve(__dirname, '../../fixtures/mcp');
export const HOSTILE = path.join(FIXTURES, 'hostile-server.mjs');
export const EVERYTHING = path.resolve(
  __dirname,
  '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
export const FILESYSTEM = path.resolve(
  __dirname,
  '../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);

/** `node` runs with the node running the tests. */
export const nodeCommand: CommandResolver = (command, args) => ({
  command: command === 'node' ? process.execPath : command,
  args: [...args],
});

export function hostile(mode: string): { command: string; args: string[] } {
  return { command: 'node', args: [HOSTILE, mode] };
}

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-mcp-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An HTTP server answering every request with 401 and a WWW-Authenticate header. */
export async function start401(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="test"', 'Content-Type': 'application/json' });
    res.end('{"error":"unauthorized"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/mcp`, server };
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}
