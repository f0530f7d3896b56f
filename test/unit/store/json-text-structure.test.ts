// JSON redacted as text (a tool's JSON output, an MCP tool file, the store's own JSON files) stays the
// same JSON: a redaction replaces part of one string, never the quotes, commas or fields after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { redactSecretsSync, setCustomPatterns } from '../../../src/core/store/sanitize/secrets';
import { sameJsonShape } from '../../../src/core/store/sanitize/json-values';
import { redactJsonForStore } from '../../../src/core/store/store-writer';
import type { CorpusEntry } from '../../../scripts/secret-corpus/formats';

const CORPUS = (
  JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/secrets/corpus.json'), 'utf8')) as {
    entries: CorpusEntry[];
  }
).entries;

test('an Authorization header value in JSON ends at its closing quote: the next field stays', () => {
  const token = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';
  const text = JSON.stringify({ headers: { Authorization: `token ${token}`, Accept: 'application/json' } });
  const out = redactSecretsSync(text).text;
  assert.ok(!out.includes(token), out);
  assert.deepEqual(JSON.parse(out), {
    headers: { Authorization: 'token [REDACTED:github-token]', Accept: 'application/json' },
  });
});

test('every corpus line as a JSON string beside another field: valid JSON, the other field kept', () => {
  const broken: string[] = [];
  for (const e of CORPUS)
    for (const indent of [0, 2]) {
      const out = redactSecretsSync(JSON.stringify({ line: e.line, next: 'kept' }, null, indent)).text;
      let back: unknown;
      try {
        back = JSON.parse(out);
      } catch {
        back = undefined;
      }
      const o = back as { line?: unknown; next?: unknown } | undefined;
      if (!o || typeof o.line !== 'string' || o.next !== 'kept' || Object.keys(o).length !== 2)
        broken.push(`${e.format}: ${out}`);
    }
  assert.deepEqual(broken, []);
});

test('the store redacts a JSON file as its text; a redaction that would take JSON with it falls back to each string', async (t) => {
  t.after(() => setCustomPatterns([]));
  // A user's pattern that runs over quotes and commas: on the file's text it would eat `","next":"kept`.
  assert.deepEqual(setCustomPatterns([{ name: 'greedy', pattern: 'acme-[a-z0-9",:]+' }]), []);
  const value = { tool: { description: 'acme-k3y9x', next: 'kept' }, list: [1, true, null] };
  const out = (await redactJsonForStore(value)).value;
  assert.ok(!out.includes('k3y9x'), out);
  assert.deepEqual(JSON.parse(out), {
    tool: { description: '[REDACTED:greedy]', next: 'kept' },
    list: [1, true, null],
  });
  // Without such a pattern one pass over the text is the file: the key says `password`, and it goes.
  setCustomPatterns([]);
  const tool = { examples: [{ user: 'bob', password: 'Tr0ub4dor&3xyz' }] };
  const written = (await redactJsonForStore(tool, 1)).value;
  assert.ok(!written.includes('Tr0ub4dor'), written);
  assert.equal((JSON.parse(written) as typeof tool).examples[0]!.user, 'bob');
});

test('same JSON shape: strings may change, nothing else may', () => {
  const before = '{"a":"x","b":[1,true,null,{"c":"y"}]}';
  assert.equal(sameJsonShape(before, '{"a":"[REDACTED:k]","b":[1,true,null,{"c":"z"}]}'), true);
  assert.equal(sameJsonShape(before, '{"a":"[REDACTED:k]}'), false, 'does not parse');
  assert.equal(sameJsonShape(before, '{"a":"x","b":[1,true,null,{}]}'), false, 'a key lost');
  assert.equal(sameJsonShape(before, '{"a":"x","b":[1,true,null]}'), false, 'an item lost');
  assert.equal(sameJsonShape(before, '{"a":"x","b":[2,true,null,{"c":"y"}]}'), false, 'a number changed');
  assert.equal(sameJsonShape(before, '{"a":"x","b":{"0":1,"1":true,"2":null,"3":{"c":"y"}}}'), false);
  const deep = `${'['.repeat(50_000)}"s"${']'.repeat(50_000)}`;
  assert.equal(sameJsonShape(deep, deep.replace('"s"', '"t"')), true, 'deep nesting is walked without recursion');
});
