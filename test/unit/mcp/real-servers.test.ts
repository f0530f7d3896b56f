import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { McpSyncManager } from '../../../src/core/mcp/manager';
import { EVERYTHING, FILESYSTEM, freePort, nodeCommand, withTempDir } from './helpers';

test('server-everything and server-filesystem over stdio: every tool gets its file', async () => {
  await withTempDir(async (dir) => {
    const root = path.join(dir, 'root');
    await mkdir(root);
    const manager = new McpSyncManager({
      outDir: path.join(dir, 'out'),
      allowStart: true,
      resolveCommand: nodeCommand,
      connectTimeoutMs: 20_000,
      settingServers: {
        everything: { command: 'node', args: [EVERYTHING, 'stdio'] },
        filesystem: { command: 'node', args: [FILESYSTEM, root] },
      },
    });
    try {
      const states = await manager.syncAll();
      for (const s of states) assert.equal(s.status, 'connected', `${s.name}: ${s.message ?? ''}`);
      const [everything, filesystem] = states;
      assert.ok(everything!.tools.length >= 10, `everything has ${everything!.tools.length} tools`);
      assert.ok(filesystem!.tools.some((t) => t.name === 'read_text_file' || t.name === 'read_file'));
      assert.equal(everything!.serverInfo?.name.length !== 0, true);
      for (const s of states) {
        const files = await readdir(path.join(dir, 'out', 'mcp', s.folderName));
        assert.deepEqual(files.sort(), [...s.tools.map((t) => t.fileName), 'SERVER.md'].sort());
        for (const t of s.tools) {
          const json = JSON.parse(await readFile(t.file, 'utf8')) as { name: string; inputSchema: { type: string } };
          assert.equal(json.name, t.name);
          assert.equal(json.inputSchema.type, 'object');
          assert.equal(t.inputSchemaError, undefined, `${s.name}/${t.name}: ${t.inputSchemaError ?? ''}`);
        }
      }
      const index = await readFile(path.join(dir, 'out', 'mcp', 'INDEX.md'), 'utf8');
      assert.match(index, /## everything \(connected\)/);
      assert.match(index, /## filesystem \(connected\)/);
      const result = await manager.callTool('everything', 'echo', { message: 'hello there' });
      assert.match(result.text, /hello there/);
    } finally {
      await manager.dispose();
    }
  });
});

test('server-everything over streamable HTTP on loopback', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let err = '';
      child.stderr.on('data', (c: Buffer) => {
        err += c.toString();
        if (err.includes('listening on port')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
    });
    await withTempDir(async (out) => {
      const manager = new McpSyncManager({
        outDir: out,
        allowStart: true,
        settingServers: { web: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } },
      });
      try {
        const [web] = await manager.syncAll();
        assert.equal(web!.status, 'connected', web!.message);
        assert.ok(web!.tools.some((t) => t.name === 'echo'));
        assert.equal((await readdir(path.join(out, 'mcp', 'web'))).length, web!.tools.length + 1);
      } finally {
        await manager.dispose();
      }
    });
  } finally {
    child.kill('SIGKILL');
  }
});
