import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { McpSyncManager } from '../../../src/core/mcp/manager';
import {
  mcpCall,
  mcpDescribe,
  renderMcpStaticPrompt,
  MCP_CALL_TOOL,
  MCP_DESCRIBE_TOOL,
} from '../../../src/core/mcp/agent-tools';
import { compileInputSchema } from '../../../src/core/mcp/schema';
import { hostile, nodeCommand, start401, withTempDir } from './helpers';

test('static prompt, mcp_describe and mcp_call against live fixture servers', async () => {
  const auth = await start401();
  await withTempDir(async (out) => {
    const m = new McpSyncManager({
      outDir: out,
      allowStart: true,
      resolveCommand: nodeCommand,
      settingServers: {
        good: hostile('ok'),
        invalid: hostile('invalid-schema'),
        huge: hostile('huge'),
        auth: { type: 'http', url: auth.url },
      },
    });
    try {
      await m.syncAll();
      const prompt = renderMcpStaticPrompt(m.servers);
      assert.match(prompt, /^- good \[connected\]: echo$/m);
      assert.match(prompt, /^- invalid \[connected\]: echo, bad_type, not_object, no_schema$/m);
      assert.match(prompt, /^- auth \[needs-auth - needs the user to sign in; tell them\]$/m);
      assert.ok(!prompt.includes('Echoes its text'), 'no descriptions in the static prompt');
      assert.ok(prompt.length < 1000, 'the 5 MB description stays out');

      const d = await mcpDescribe(m, { server: 'good', tool: 'echo' });
      assert.equal(d.ok, true);
      assert.equal(JSON.parse(d.text).description, 'Echoes its text.');
      // What the file holds, made from the copy in memory: a link put in the file's place (a cloned
      // repository's store) is never followed to another file.
      const file = m.getTool('good', 'echo')!.file;
      assert.equal(d.text, await readFile(file, 'utf8'));
      const outside = path.join(out, 'outside.txt');
      await writeFile(outside, 'machine example.com login alice password hunter2-canary\n');
      await rm(file);
      await symlink(outside, file);
      const linked = await mcpDescribe(m, { server: 'good', tool: 'echo' });
      assert.equal(linked.text, d.text);
      assert.ok(!linked.text.includes('canary'));

      assert.match(
        (await mcpDescribe(m, { server: 'nope', tool: 'x' })).text,
        /No MCP server nope. Servers: good, invalid, huge, auth/,
      );
      assert.match((await mcpDescribe(m, { server: 'good', tool: 'x' })).text, /has no tool x. Its tools: echo/);
      assert.match((await mcpDescribe(m, { server: 'auth', tool: 'x' })).text, /is needs-auth[\s\S]*Fix:/);
      assert.equal((await mcpDescribe(m, { server: 1 })).ok, false);

      const ok = await mcpCall(m, { server: 'good', tool: 'echo', arguments: { text: 'hi' } });
      assert.deepEqual([ok.ok, ok.text], [true, 'echo: hi']);
      const fromString = await mcpCall(m, { server: 'good', tool: 'echo', arguments: '{"text": "s"}' });
      assert.equal(fromString.text, 'echo: s');
      const missing = await mcpCall(m, { server: 'good', tool: 'echo', arguments: {} });
      assert.equal(missing.ok, false);
      assert.match(missing.text, /must have required property 'text'[\s\S]*mcp_describe/);
      const extra = await mcpCall(m, { server: 'good', tool: 'echo', arguments: { text: 'a', more: 1 } });
      assert.match(extra.text, /must NOT have additional properties 'more'/);
      assert.match((await mcpCall(m, { server: 'good', tool: 'echo', arguments: '{bad' })).text, /not valid JSON/);
      assert.match((await mcpCall(m, { server: 'good', tool: 'echo', arguments: [1] })).text, /must be a JSON object/);
      assert.match(
        (await mcpCall(m, { server: 'invalid', tool: 'bad_type', arguments: {} })).text,
        /cannot be called: the input schema is invalid/,
      );
      assert.match(
        (await mcpCall(m, { server: 'invalid', tool: 'no_schema', arguments: {} })).text,
        /has no input schema/,
      );
    } finally {
      await m.dispose();
      auth.server.close();
    }
  });
});

test('the agent tool definitions compile and are small', () => {
  for (const t of [MCP_DESCRIBE_TOOL, MCP_CALL_TOOL]) {
    assert.equal(compileInputSchema(t.inputSchema).ok, true);
    assert.ok(JSON.stringify(t).length < 800);
  }
});

test("a schema's patterns are matched in linear time; one RE2 cannot read is left to the server", () => {
  // The server writes the pattern, the model the argument: `^(a+)+$` against 35 characters took minutes
  // in JavaScript's backtracking engine, on the extension host's thread.
  const compiled = compileInputSchema({
    type: 'object',
    properties: {
      q: { type: 'string', pattern: '^(a+)+$' },
      id: { type: 'string', pattern: '^[A-Z]{2}-\\d{3}$' },
      word: { type: 'string', pattern: '^\\p{L}+$' },
      look: { type: 'string', pattern: '^(?=x)(a+)+$' },
    },
    patternProperties: { '^x-': { type: 'number' } },
  });
  assert.ok(compiled.ok);
  const started = performance.now();
  assert.equal(compiled.validate({ q: 'a'.repeat(32) + '!' }), false);
  assert.ok(performance.now() - started < 5000, 'linear: under a millisecond here, 19 s in a backtracking engine');
  const v = (args: Record<string, unknown>) => compiled.validate(args);
  assert.equal(v({ q: 'aaaa', id: 'AB-123', word: 'Zoë' }), true);
  assert.equal(v({ id: 'AB-1234' }), false);
  assert.equal(v({ id: 'ab-123' }), false, 'each pattern is its own (ajv keys them by text)');
  assert.equal(v({ word: 'a1' }), false);
  assert.equal(v({ look: 'a'.repeat(100_000) + '!' }), true, 'lookahead: not checked here');
  assert.equal(v({ 'x-a': 1, other: 'x' }), true);
  assert.equal(v({ 'x-a': 'one' }), false);
});
