// A streamable-HTTP MCP server cannot make the client hold more than 10 MB for one message: a JSON
// answer, one event of an event stream, or a JSON body padded with blank lines (which would end SSE
// events) are refused as too large; a stream of many small events is read whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpSyncManager } from '../../../src/core/mcp/manager';
import { messageLimitStream } from '../../../src/core/mcp/capped-fetch';
import { withTempDir } from './helpers';

type Mode = 'json-huge' | 'json-padded' | 'sse-huge' | 'sse-many-small' | 'error-huge' | 'call-huge';
const MB = 1024 * 1024;

/** A hand-written MCP server over HTTP (no SDK), so it can answer what the SDK would never send. */
async function rawServer(mode: Mode): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') {
      res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const msg = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
      if (msg.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const reply = (result: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: msg.id, result });
      if (msg.method === 'initialize') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(
          reply({
            protocolVersion: msg.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: `raw-${mode}`, version: '1' },
          }),
        );
        return;
      }
      const tools = (description: string) =>
        reply({ tools: [{ name: 'big', description, inputSchema: { type: 'object' } }] });
      if (mode === 'call-huge') {
        const text = msg.method === 'tools/call' ? 'z'.repeat(12 * MB) : 'small';
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(msg.method === 'tools/call' ? reply({ content: [{ type: 'text', text }] }) : tools(text));
      } else if (mode === 'json-huge') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(tools('x'.repeat(12 * MB)));
      } else if (mode === 'json-padded') {
        // Whitespace with blank lines between JSON tokens: legal JSON, and it would reset a per-event count.
        const padded = `{"jsonrpc":"2.0",${'\n\n '.repeat(4 * MB)}"id":${msg.id},"result":{"tools":[]}}`;
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(padded);
      } else if (mode === 'error-huge') {
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('e'.repeat(12 * MB));
      } else {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        if (mode === 'sse-huge') {
          // One event, in many short data lines and many writes, never a blank line.
          const line = `data: ${'y'.repeat(1000)}\n`;
          for (let i = 0; i < 12 * 1024; i++) res.write(line);
        } else {
          // 12 MB of keep-alive comments, each its own event, then the answer.
          const ping = `: ${'p'.repeat(1000)}\r\n\r\n`;
          for (let i = 0; i < 12 * 1024; i++) res.write(ping);
          res.write(`event: message\ndata: ${tools('fine')}\n\n`);
        }
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function sync(mode: Mode, then?: (m: McpSyncManager) => Promise<void>) {
  const server = await rawServer(mode);
  try {
    return await withTempDir(async (out) => {
      const m = new McpSyncManager({
        outDir: out,
        allowStart: true,
        settingServers: { web: { type: 'http', url: server.url } },
      });
      try {
        const [state] = await m.syncAll();
        await then?.(m);
        return state!;
      } finally {
        await m.dispose();
      }
    });
  } finally {
    await server.close();
  }
}

for (const mode of ['json-huge', 'json-padded', 'sse-huge'] as const) {
  test(`HTTP: a tool list over 10 MB in one message (${mode}) is reported as too large`, async () => {
    const state = await sync(mode);
    assert.equal(state.status, 'error');
    assert.match(state.message!, /^Tool list too large \(over 10 MB in one message/);
  });
}

test('HTTP: an error answer over 10 MB is not read whole', async () => {
  const state = await sync('error-huge');
  assert.equal(state.status, 'error');
  assert.match(state.message!, /too large/);
});

test('HTTP: an event stream of many small events (12 MB in all) is read, and the tool arrives', async () => {
  const state = await sync('sse-many-small');
  assert.equal(state.status, 'connected', state.message);
  assert.deepEqual(
    state.tools.map((t) => t.name),
    ['big'],
  );
});

test('HTTP: a tool result over 10 MB fails the call as too large', async () => {
  const state = await sync('call-huge', async (m) => {
    await assert.rejects(m.callTool('web', 'big', {}), /exceeded 10485760 bytes/);
  });
  assert.equal(state.status, 'connected', state.message);
});

async function pushThrough(chunks: string[], limit: number, perEvent: boolean): Promise<'ok' | 'too large'> {
  let tooLarge = false;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (const s of chunks) c.enqueue(new TextEncoder().encode(s));
      c.close();
    },
  }).pipeThrough(messageLimitStream(limit, perEvent, () => (tooLarge = true)));
  try {
    await new Response(stream).arrayBuffer();
  } catch {
    assert.ok(tooLarge, 'the callback is told before the stream errors');
    return 'too large';
  }
  return 'ok';
}

test('the per-event count: every blank-line form ends an event; a long event in one chunk is caught', async () => {
  for (const sep of ['\n\n', '\r\r', '\r\n\r\n', '\r\n\n', '\n\r\n']) {
    assert.equal(await pushThrough([`data: ${'a'.repeat(8)}${sep}`.repeat(10)], 18, true), 'ok', JSON.stringify(sep));
  }
  // A single CRLF is one line ending, not a blank line: the event goes on.
  assert.equal(await pushThrough([`data: ${'a'.repeat(8)}\r\n`.repeat(10)], 60, true), 'too large');
  // A boundary split across chunks still counts as one.
  assert.equal(await pushThrough(['data: aaaaaaaa\r', '\n', '\r\n'.repeat(1), 'data: bbbbbbbb\n\n'], 20, true), 'ok');
  // An event over the limit followed by its blank line in the same chunk.
  assert.equal(await pushThrough([`data: ${'a'.repeat(100)}\n\ndata: b\n\n`], 50, true), 'too large');
  // Outside event streams blank lines do not reset the count.
  assert.equal(await pushThrough(['{}\n\n'.repeat(20)], 50, false), 'too large');
  assert.equal(await pushThrough(['{}\n\n'.repeat(10)], 50, false), 'ok');
});
