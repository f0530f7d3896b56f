// Tool-call arguments that do not parse (a reply cut off mid-call, a malformed call) are redacted as
// text; a secret spelt with JSON escapes in them (`\u0067hp_…` is `ghp_…` to any JSON reader) is found
// too, wherever they are written: the history, its transcript, the replay dump. As for JSON, so for a
// URL's `%67` and HTML's `&#103;`: the keyword prefilter reads the text decoded as well.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ContextStore } from '../../../src/core/store/context-store';
import { HistoryWriter } from '../../../src/core/store/history';
import { redactJsonText } from '../../../src/core/store/sanitize/json-values';
import { redactSecrets, redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { assertQuick } from '../../support/linear-time';
import { tempDir } from './helpers';

// A fake GitHub token (test/fixtures/secrets/README.md).
const TOKEN = 'ghp_' + 'Zr4Tq8Lm2Vx6Np0Bc5Hd9Jk3Ws7Ye1Ua4Gf';
const NEEDLE = TOKEN.slice(4, 20);

/** `text` with every character (or, with `some`, those at the chosen positions) as a `\uXXXX` escape. */
const escaped = (text: string, some?: readonly boolean[]): string =>
  [...text]
    .map((c, i) => (some && !some[i % some.length] ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))
    .join('');

const redact = (text: string): Promise<string> =>
  redactJsonText(
    text,
    async (s) => (await redactSecrets(s)).text,
    () => undefined,
  );

test('an escaped secret in arguments cut off mid-string reaches neither history file', async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const w = await HistoryWriter.open(store, 'cut');
  const args = `{"path":"a.sh","new_text":"export GH=${escaped(TOKEN.slice(0, 1))}${TOKEN.slice(1)} #`;
  await w.append({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'edit_file', arguments: args }] });
  await w.close();
  for (const f of [w.paths.jsonl, w.paths.markdown]) {
    const text = await fsp.readFile(f, 'utf8');
    assert.ok(!text.includes(NEEDLE), `${f}: ${text}`);
  }
});

test('property: a secret escaped anywhere in cut-off arguments is redacted; the rest keeps its meaning', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
      fc.integer({ min: 0, max: 5 }), // cut after the secret: a secret cut short is not one any more
      async (which, cut) => {
        const args = `{"path":"x","new_text":"A=1\\nT=${escaped(TOKEN, which)} done`;
        const out = await redact(args.slice(0, args.length - cut));
        const decoded = out.replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
        return !decoded.includes(NEEDLE) && out.startsWith('{"path":"x","new_text":"A=1\\nT=');
      },
    ),
    { numRuns: 150 },
  );
});

test('an escaped backslash is not read as the start of an escape', async () => {
  // `\\u0067` is a backslash, then the letters u0067: nothing to decode, nothing changes.
  const args = '{"path":"x","new_text":"C:\\\\u0067dir and more';
  assert.equal(await redact(args), args);
});

const ESCAPES: ((c: string) => string)[] = [
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  (c) => `%${c.charCodeAt(0).toString(16)}`,
  (c) => `&#${c.charCodeAt(0)};`,
];

test('property: a keyword with a letter escaped is found as the unescaped one is (prefilter or not)', () => {
  const lines = [
    `export GH_TOKEN=${TOKEN}`,
    `curl -H "Authorization: token ${TOKEN}" https://api.github.com`,
    'DB_PASSWORD=Hx7vQ2mN9pL4wR8k',
    `xoxb-2837461928374-4827364918273-Kd8sJf7Hg6Tr5Ew4Qa3Zx2Cv`,
  ];
  fc.assert(
    fc.property(fc.constantFrom(...lines), fc.nat(), fc.constantFrom(...ESCAPES), (line, at, escape) => {
      // Escape one letter of the first 8 characters (where the keywords are).
      const letters = [...line.slice(0, 8).matchAll(/[A-Za-z0-9]/g)].map((m) => m.index);
      const i = letters[at % letters.length]!;
      const text = `before\n${line.slice(0, i)}${escape(line[i]!)}${line.slice(i + 1)} after`;
      const fast = redactSecretsSync(text);
      assert.deepEqual(fast, redactSecretsSync(text, { prefilter: false }), text);
      assert.match(fast.text, /\[REDACTED:/, text);
    }),
    { numRuns: 200 },
  );
});

test('text full of escaped letters is read in linear time', () => {
  const started = performance.now();
  const n = 200_000;
  for (const text of [
    '\\u0067'.repeat(n),
    '%67hp_'.repeat(n / 2),
    `{"a":"${'\\u0067hp_x\\n'.repeat(n / 4)}"}`,
    '&#103;'.repeat(n),
  ])
    redactSecretsSync(text);
  assertQuick(started);
});
