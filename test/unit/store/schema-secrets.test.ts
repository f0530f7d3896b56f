// A secret-named key's object holding its value in a field other than the first few: an MCP tool's input
// schema (`examples`, `enum`, `default` after many fields) and an OpenAPI parameter's `example`. The MCP
// folder is written from these schemas, so the case through the writer is checked too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { writeServerFolder } from '../../../src/core/mcp/writer';
import { summarize } from '../../../src/core/mcp/render';
import { ContextStore } from '../../../src/core/store/context-store';
import { assertQuick } from '../../support/linear-time';

const clean = (s: string): string => redactSecretsSync(s).text;
const M = '[REDACTED:named-secret]';
// Fake, format-free values (no rule knows them by shape: only the key names them).
const S1 = 'Xk9pQ2vLm8RtZ4wN7bYc';
const S2 = 'Zz8pQ2vLm8RtZ4wN7bYq';

test("a secret-named schema property's examples, enum and example are redacted; its other fields stay", () => {
  const cases: [unknown, unknown][] = [
    [{ password: { type: 'string', examples: [S1] } }, { password: { type: 'string', examples: [M] } }],
    [{ api_key: { type: 'string', enum: [S1, S2] } }, { api_key: { type: 'string', enum: [M, M] } }],
    [{ api_key: { example: S1, type: 'string' } }, { api_key: { example: M, type: 'string' } }],
    // A `]` in a description and a nested object before the list do not end the object early.
    [
      { client_secret: { description: 'Secret [see docs]', items: { type: 'string' }, examples: ['ab', S1] } },
      { client_secret: { description: 'Secret [see docs]', items: { type: 'string' }, examples: ['ab', M] } },
    ],
    // `default` after more fields than the pattern for `value`/`default` skips (it took four).
    [
      {
        api_key: {
          type: 'string',
          title: 't',
          description: 'd',
          minLength: 8,
          maxLength: 64,
          format: 'x',
          default: S1,
        },
      },
      {
        api_key: { type: 'string', title: 't', description: 'd', minLength: 8, maxLength: 64, format: 'x', default: M },
      },
    ],
  ];
  for (const [input, expected] of cases)
    for (const indent of [0, 2]) {
      const out = clean(JSON.stringify({ properties: input }, null, indent));
      assert.deepEqual(JSON.parse(out), { properties: expected }, out);
    }
});

test('ordinary schemas stay: placeholders, option names, a key elsewhere, examples of other properties', () => {
  const same = [
    { token: { type: 'string', examples: ['YOUR_TOKEN', '********', '${API_TOKEN}'] } },
    { api_key: { type: 'string', enum: ['none', 'header', 'query'] } },
    { api_key: { type: 'apiKey', name: 'api_key', in: 'header' } },
    { username: { type: 'string', examples: ['octocat-example-user'] }, password: { type: 'string' } },
    { password: { type: 'object', properties: { hint: { examples: ['first pet name'] } } } },
  ];
  for (const s of same) {
    const text = JSON.stringify({ properties: s }, null, 2);
    assert.equal(clean(text), text);
  }
});

test('nested and unclosed secret-named objects are read in linear time', () => {
  const started = performance.now();
  const n = 400_000;
  for (const line of [
    '{"password":'.repeat(n / 12),
    '"password": {"x": ['.repeat(n / 19),
    `{"password": {"examples": [${'"abcdefgh",'.repeat(n / 11)}`,
    `{"password": {${'"a": "b", '.repeat(n / 10)}`,
  ])
    assert.equal(typeof clean(line), 'string');
  assertQuick(started);
});

test("an MCP tool's input schema is written to the MCP folder with its secret examples redacted", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-schema-'));
  try {
    const store = await ContextStore.open({ root: path.join(dir, '.context-desk'), workspaceRoot: dir });
    const inputSchema = {
      type: 'object',
      properties: {
        password: { type: 'string', examples: [S1] },
        api_key: { type: 'string', enum: [S2] },
      },
    };
    const tool = { name: 'login', description: 'Log in.', inputSchema };
    await writeServerFolder(store.writer, store.folder('mcp'), {
      name: 'auth',
      folderName: 'auth',
      transport: 'stdio' as const,
      source: '.mcp.json',
      status: 'ready' as const,
      tools: [
        {
          name: 'login',
          fileName: 'login.json',
          file: '',
          summary: summarize(tool.description),
          descriptionChars: tool.description.length,
          tool,
        },
      ],
    } as unknown as Parameters<typeof writeServerFolder>[2]);
    const written = await readFile(path.join(store.folder('mcp'), 'auth', 'login.json'), 'utf8');
    assert.ok(!written.includes(S1) && !written.includes(S2), written);
    assert.ok(written.includes(M));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
