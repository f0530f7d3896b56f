// JSON redacted as text (a tool's JSON output, an MCP tool file, the store's own JSON files) stays the
// same JSON: a redaction replaces part of one string, never the quotes, commas or fields after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
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
