// A file name is on disk like the text in it: a secret in a label the store names a file after (a tool
// name an MCP server chose, a session id, a terminal's name) does not reach the name. (A secret glued to
// the word before it by `_`, `get_ghp_…`, is not recognised as one: the rules need a word boundary.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import { ContextStore } from '../../../src/core/store/context-store';
import { safeName } from '../../../src/core/store/names';
import { assignSafeNames, sanitizeName } from '../../../src/core/mcp/names';
import { tempDir } from './helpers';

// Fake credentials (test/fixtures/secrets/README.md), each recognised alone by a redaction rule.
const GITHUB = 'ghp_' + 'Zr4Tq8Lm2Vx6Np0Bc5Hd9Jk3Ws7Ye1Ua4Gf';
const SLACK = 'xoxb-2837461928374-4827364918273-Kd8sJf7Hg6Tr5Ew4Qa3Zx2Cv';
const ANTHROPIC = 'sk-ant-api03-' + 'Qw7'.repeat(30);
const SECRETS = [GITHUB, SLACK, ANTHROPIC];

/** No 12-character piece of the secret's random part is in `name`. */
function leaks(name: string, secret: string): boolean {
  const tail = secret.slice(-24);
  for (let i = 0; i + 12 <= tail.length; i++) if (name.includes(tail.slice(i, i + 12))) return true;
  return false;
}

test('a stored output of a tool whose name holds a secret is not named after the secret', async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  for (const secret of SECRETS) {
    const file = store.toolOutputPath(`chat-${secret}`, 3, `server.${secret}`);
    assert.ok(!leaks(file, secret), file);
    const history = store.historyPaths(`chat-${secret}`);
    assert.ok(!leaks(history.jsonl, secret) && !leaks(history.markdown, secret), history.jsonl);
  }
});

test('safe names stay distinct and stable, and ordinary labels keep their name', () => {
  assert.equal(safeName('chat-20261127-1'), 'chat-20261127-1');
  assert.equal(safeName('read_file'), 'read_file');
  assert.equal(safeName(`a ${GITHUB}`), safeName(`a ${GITHUB}`));
  assert.notEqual(safeName(`a ${GITHUB}`), safeName(`a ${GITHUB.slice(0, -1)}X`), 'two secrets, two files');
});

test('an MCP tool file is not named after a secret in the tool name', () => {
  for (const secret of SECRETS) {
    assert.ok(!leaks(sanitizeName(`get-${secret}`), secret));
    const names = assignSafeNames([`get-${secret}`, 'list_issues']);
    assert.ok(!leaks(names.get(`get-${secret}`)!, secret), names.get(`get-${secret}`));
    assert.equal(names.get('list_issues'), 'list_issues', 'a tidy name is kept as it is');
  }
});

test('property: any label with a secret in it makes a name without it', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 20 }), fc.constantFrom(...SECRETS), fc.string({ maxLength: 20 }), (a, s, b) => {
      const label = `${a} ${s} ${b}`;
      return !leaks(safeName(label), s) && !leaks(sanitizeName(label), s);
    }),
    { numRuns: 200 },
  );
});
