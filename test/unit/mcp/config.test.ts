import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { blankJsonc, parseJsonc, JsoncError } from '../../../src/core/mcp/jsonc';
import {
  loadMcpConfig,
  parseMcpConfigText,
  parseSettingServers,
  formatConfigError,
} from '../../../src/core/mcp/config';

test('JSONC: comments and trailing commas are accepted', () => {
  const text = `{
  // line comment with "quotes" and a , comma
  "servers": { /* block */ "a": { "command": "node", "args": ["x // not a comment", "y",], }, },
}`;
  assert.deepEqual(parseJsonc(text, 'f.json'), {
    servers: { a: { command: 'node', args: ['x // not a comment', 'y'] } },
  });
});

test('JSONC: blanking keeps the length and newlines', () => {
  fc.assert(
    fc.property(fc.string(), (s) => {
      const b = blankJsonc(s);
      assert.equal(b.length, s.length);
      assert.equal(b.split('\n').length, s.split('\n').length);
    }),
  );
});

test('JSONC: valid JSON parses exactly like JSON.parse', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (v) => {
      const text = JSON.stringify(v, null, 2);
      assert.deepEqual(parseJsonc(text, 'f'), JSON.parse(text));
    }),
  );
});

test('JSONC: malformed input names the file, line and column', () => {
  const text = '{\n  "servers": {\n    "a": { "command": "node" \n    "b": 1\n  }\n}';
  assert.throws(
    () => parseJsonc(text, '/w/.vscode/mcp.json'),
    (e: unknown) =>
      e instanceof JsoncError && e.line === 4 && e.column === 5 && /\/w\/.vscode\/mcp.json:4:5/.test(e.message),
  );
  assert.throws(() => parseJsonc('   ', 'empty.json'), /empty.json:1:1: malformed JSON: the file is empty/);
  assert.throws(() => parseJsonc('{"a": ', 'cut.json'), /cut.json:1:\d+: malformed JSON/);
});

test('.vscode/mcp.json: servers, inputs, types and fields', () => {
  const r = parseMcpConfigText(
    JSON.stringify({
      inputs: [{ type: 'promptString', id: 'tok', description: 'Token', password: true }],
      servers: {
        fs: { type: 'stdio', command: 'npx', args: ['-y', 'x'], env: { A: '1', N: 2 }, envFile: '.env', cwd: '/tmp' },
        web: { type: 'http', url: 'https://x/mcp', headers: { Authorization: 'Bearer ${input:tok}' } },
        off: { command: 'x', disabled: true },
      },
    }),
    'cfg',
  );
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.inputs, [
    { id: 'tok', type: 'promptString', description: 'Token', password: true, source: 'cfg' },
  ]);
  assert.deepEqual(r.servers[0], {
    name: 'fs',
    source: 'cfg',
    type: 'stdio',
    command: 'npx',
    args: ['-y', 'x'],
    env: { A: '1', N: '2' },
    envFile: '.env',
    cwd: '/tmp',
  });
  assert.deepEqual(r.servers[1], {
    name: 'web',
    source: 'cfg',
    type: 'http',
    url: 'https://x/mcp',
    headers: { Authorization: 'Bearer ${input:tok}' },
  });
  assert.equal(r.servers[2]?.disabled, true);
});

test('mcpServers without type: command means stdio, url means http', () => {
  const r = parseMcpConfigText('{"mcpServers": {"a": {"command": "node"}, "b": {"url": "http://h/mcp"}}}', 'c');
  assert.deepEqual(
    r.servers.map((s) => s.type),
    ['stdio', 'http'],
  );
});

test('bad entries are reported with their line and skipped, good ones kept', () => {
  const text =
    '{\n "servers": {\n  "ok": {"command": "node"},\n  "nocmd": {"type": "stdio"},\n  "weird": {"type": "ws", "url": "x"},\n  "badargs": {"command": "n", "args": "x"}\n }\n}';
  const r = parseMcpConfigText(text, 'c.json');
  assert.deepEqual(
    r.servers.map((s) => s.name),
    ['ok'],
  );
  assert.equal(r.errors.length, 3);
  assert.match(formatConfigError(r.errors[0]!), /^c.json:4:1: server 'nocmd': a stdio server needs a "command"/);
  assert.match(r.errors[1]!.message, /unknown type 'ws'/);
  assert.match(r.errors[2]!.message, /"args" must be an array/);
});

test('a top level that is not an object, and a malformed file, are errors not crashes', () => {
  assert.match(parseMcpConfigText('[1]', 'c').errors[0]!.message, /top level must be an object/);
  const r = parseMcpConfigText('{"servers": {,}}', 'c');
  assert.equal(r.servers.length, 0);
  assert.match(r.errors[0]!.message, /malformed JSON/);
  assert.match(parseSettingServers('nope').errors[0]!.message, /must be an object/);
});

test('loadMcpConfig discovers the workspace files; first definition wins; missing explicit file is an error', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-mcp-cfg-'));
  try {
    await mkdir(path.join(dir, '.vscode'));
    await mkdir(path.join(dir, '.cursor'));
    await writeFile(path.join(dir, '.vscode/mcp.json'), '{"servers": {"a": {"command": "one"}}, // c\n}');
    await writeFile(
      path.join(dir, '.cursor/mcp.json'),
      '{"mcpServers": {"a": {"command": "two"}, "b": {"url": "http://x"}}}',
    );
    await writeFile(path.join(dir, '.mcp.json'), '{"mcpServers": {"c": {"command": "three"}}}');
    const r = await loadMcpConfig({ workspaceFolder: dir, settingServers: { d: { command: 'four' } } });
    assert.deepEqual(
      r.servers.map((s) => `${s.name}:${s.type === 'stdio' ? s.command : s.url}`),
      ['a:one', 'b:http://x', 'c:three', 'd:four'],
    );
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0]!.message, /server 'a' is already defined in .*\.vscode\/mcp.json/);
    assert.equal(r.files.length, 3);
    const missing = await loadMcpConfig({ workspaceFolder: dir, files: ['nope.json'] });
    assert.match(missing.errors[0]!.message, /cannot read the file \(ENOENT\)/);
    const none = await loadMcpConfig({ workspaceFolder: path.join(dir, 'empty') });
    assert.deepEqual([none.servers, none.errors], [[], []]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
