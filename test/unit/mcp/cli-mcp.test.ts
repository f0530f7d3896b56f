import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../support/cli';
import { inputEnvName, parseMcpArgs } from '../../../src/cli/commands/mcp';
import { EVERYTHING, FILESYSTEM, HOSTILE, withTempDir } from './helpers';

test('mcp tokens --json prints exactly the five fields; the index is at most 0.2x the full schemas', async () => {
  await withTempDir(async (dir) => {
    const cfg = path.join(dir, '.mcp.json');
    await writeFile(
      cfg,
      JSON.stringify({
        mcpServers: {
          everything: { command: 'node', args: [EVERYTHING, 'stdio'] },
          filesystem: { command: 'node', args: [FILESYSTEM, dir] },
        },
      }),
    );
    const r = await runCli(['mcp', 'tokens', '--workspace', dir, '--json', '--allow-workspace-servers']);
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as Record<string, number>;
    assert.deepEqual(Object.keys(report), ['servers', 'tools', 'fullSchemaTokens', 'indexTokens', 'ratio']);
    assert.equal(report.servers, 2);
    assert.ok(report.tools! >= 20);
    assert.ok(report.indexTokens! > 0 && report.indexTokens! < report.fullSchemaTokens!);
    assert.equal(report.ratio, Math.round((report.indexTokens! / report.fullSchemaTokens!) * 10_000) / 10_000);
    assert.ok(report.ratio! <= 0.2, `ratio ${report.ratio}`);
    assert.deepEqual(await readdir(dir), ['.mcp.json'], 'tokens writes nothing');
  });
});

test("a workspace's own servers are listed with what they run, and not started without --allow-workspace-servers", async () => {
  await withTempDir(async (dir) => {
    const marker = path.join(dir, 'ran');
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`;
    await writeFile(
      path.join(dir, '.mcp.json'),
      JSON.stringify({ mcpServers: { helper: { command: 'node', args: ['-e', script] } } }),
    );
    for (const action of ['tokens', 'sync']) {
      const r = await runCli(
        ['mcp', action, '--workspace', dir, '--out', path.join(dir, 'out')].slice(0, action === 'sync' ? 6 : 4),
      );
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, /not started, defined by the workspace's own config files .*--allow-workspace-servers/);
      assert.match(r.err, /"helper" \(\.mcp\.json\) runs node -e require/);
    }
    assert.equal(existsSync(marker), false, 'the program never ran');
    // Named with --config, the file is the user's own choice.
    await runCli(['mcp', 'tokens', '--config', path.join(dir, '.mcp.json'), '--timeout', '3000']);
    assert.equal(existsSync(marker), true);
  });
});

test('mcp sync writes the folders, reports each status with its fix, exits 1 when a server fails', async () => {
  await withTempDir(async (dir) => {
    const cfg = path.join(dir, 'servers.json');
    await writeFile(
      cfg,
      '{\n  // comment\n  "servers": {\n    "good": {"command": "node", "args": [' +
        JSON.stringify(HOSTILE) +
        ', "ok"], "env": {"T": "${input:tok}"}},\n    "dead": {"command": "node", "args": [' +
        JSON.stringify(HOSTILE) +
        ', "exit"]},\n  },\n}\n',
    );
    process.env[inputEnvName('tok')] = 'from-env';
    try {
      const r = await runCli(['mcp', 'sync', '--config', cfg, '--out', path.join(dir, 'out'), '--timeout', '5000']);
      assert.equal(r.code, 1);
      assert.match(r.out, /^good\s+connected\s+1 tools$/m);
      assert.match(r.out, /^dead\s+error\s+0 tools\s+The server closed the connection before answering initialize/m);
      assert.match(r.out, /Fix: Run the command 'node' in a terminal/);
      assert.deepEqual((await readdir(path.join(dir, 'out', 'mcp'))).sort(), ['INDEX.md', 'dead', 'good']);
      assert.match(await readFile(path.join(dir, 'out', 'mcp', 'dead', 'SERVER.md'), 'utf8'), /Status: error/);
    } finally {
      delete process.env[inputEnvName('tok')];
    }
  });
});

test('mcp sync: a malformed config is named with line and column; no servers is said plainly', async () => {
  await withTempDir(async (dir) => {
    const cfg = path.join(dir, 'bad.json');
    await writeFile(cfg, '{\n  "servers": {\n    "a": {"command": "x"}\n    "b": {}\n  }\n}\n');
    const r = await runCli(['mcp', 'sync', '--config', cfg, '--out', path.join(dir, 'out')]);
    assert.equal(r.code, 1);
    assert.match(r.err, new RegExp(`${cfg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:5: malformed JSON`));
    assert.match(r.err, /no MCP servers configured/);
  });
});

test('mcp usage errors exit 2', async () => {
  for (const argv of [
    ['mcp'],
    ['mcp', 'frob'],
    ['mcp', 'sync', '--json'],
    ['mcp', 'tokens', '--out', 'x'],
    ['mcp', 'tokens', '--timeout', '-1'],
    ['mcp', 'tokens', '--tokenizer', 'x'],
    ['mcp', 'sync', '--bogus'],
  ]) {
    const r = await runCli(argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.err, /Usage: context-desk mcp sync/);
  }
  assert.equal(parseMcpArgs(['sync'], '/w').out, '/w/.context-desk');
  assert.equal(inputEnvName('api-key.v2'), 'CONTEXT_DESK_INPUT_API_KEY_V2');
});
